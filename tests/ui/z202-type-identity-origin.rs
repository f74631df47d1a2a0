// Must fail with SPX-Z202 `type.identity_origin`: a nested record has no explicit @id.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/z202.spx",
    root: "z.nested_noid",
}

fn main() {}
