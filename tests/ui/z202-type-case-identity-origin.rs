// Must fail with SPX-Z202 `type.case.identity_origin`: a variant case has no explicit @id.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/z202.spx",
    root: "z.case_noid",
}

fn main() {}
