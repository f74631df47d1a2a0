// Must fail: the source path must be relative to CARGO_MANIFEST_DIR.

spx_runtime::spx_interaction! {
    source: "/etc/planner.spx",
    root: "ok.point",
    digest: "sha256:b64f274065bc68df0c946222114684ab1c8fd2216fc281bcb2738615c3150987",
}

fn main() {}
