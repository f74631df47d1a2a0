// Must fail: a digest is `sha256:` and 64 lowercase hex digits.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/ok.spx",
    root: "ok.point",
    digest: "sha256:B64F",
}

fn main() {}
