// Must fail with SPX-P002 `syntax.unexpected_token`, the caret just after the field that lacks its comma.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/missing_comma.spx",
    root: "shop.item",
}

fn main() {}
