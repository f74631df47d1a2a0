// Must fail: a field named `crate` cannot become a Rust identifier; reported as path:line:col.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/names.spx",
    root: "names.crate_field",
    digest: "sha256:e105eb1919c7861b518e7961d2fcfaa8855bfb98c699ca9f3422b62dd84fb9a0",
}

fn main() {}
