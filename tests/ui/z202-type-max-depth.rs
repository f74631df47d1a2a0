// Must fail with SPX-Z202 `type.max_depth`: the graph is 17 levels deep.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/max_depth.spx",
    root: "deep.r0",
}

fn main() {}
