// Must fail with SPX-Z202 `type.generic`: the root declaration has type parameters.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/z202.spx",
    root: "z.generic",
}

fn main() {}
