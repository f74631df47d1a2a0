// Must fail with SPX-S110 `decl.unknown_type` for each unknown type, each with a "did you mean".

spx_runtime::spx_interaction! {
    source: "fixtures/macro/unknown_type.spx",
    root: "shop.item",
}

fn main() {}
