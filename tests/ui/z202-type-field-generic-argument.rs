// Must fail with SPX-Z202 `type.field.generic_argument`: a field is `Option<i64>`.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/z202.spx",
    root: "z.generic_arg",
}

fn main() {}
