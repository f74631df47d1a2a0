// Must fail with SPX-Z202 `type.unresolved`: no declaration has the root's stable id (a typo).

spx_runtime::spx_interaction! {
    source: "fixtures/macro/ok.spx",
    root: "ok.piont",
}

fn main() {}
