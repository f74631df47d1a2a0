// Must fail: `source` given twice (reported on the second).

spx_runtime::spx_interaction! {
    source: "fixtures/macro/ok.spx",
    root: "ok.point",
    digest: "sha256:b64f274065bc68df0c946222114684ab1c8fd2216fc281bcb2738615c3150987",
    source: "fixtures/macro/ok.spx",
}

fn main() {}
