// Must fail with SPX-Z202 `type.field.identity_origin`: a field has no explicit @id.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/z202.spx",
    root: "z.field_noid",
}

fn main() {}
