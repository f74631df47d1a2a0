// Must fail with SPX-Z202 `type.max_types`: the root reaches 65 types.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/max_types.spx",
    root: "wide.root",
}

fn main() {}
