// Must fail with SPX-Z202 `type.kind`: the root is a class.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/z202.spx",
    root: "z.class",
}

fn main() {}
