// Must fail with SPX-Z202 `type.field.unsupported`: a field is `f64`.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/z202.spx",
    root: "z.unsupported",
}

fn main() {}
