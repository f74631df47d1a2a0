// Must fail: `digest` pins the `root` before it.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/ok.spx",
    digest: "sha256:b64f274065bc68df0c946222114684ab1c8fd2216fc281bcb2738615c3150987",
    root: "ok.point",
}

fn main() {}
