// Must fail with SPX-T215 `decl.copy_variant_payload`: a case payload is a variant; the message says which scalars a schema carries.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/copy_variant.spx",
    root: "shop.choice",
}

fn main() {}
