// Must fail: `source` takes a string literal.

spx_runtime::spx_interaction! {
    source: fixtures,
    root: "ok.point",
    digest: "sha256:b64f274065bc68df0c946222114684ab1c8fd2216fc281bcb2738615c3150987",
}

fn main() {}
