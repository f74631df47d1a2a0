// Must fail with SPX-Z202 `type.unresolved`: a field names a `use type` alias, which this profile never resolves.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/z202.spx",
    root: "z.alias",
}

fn main() {}
