// Must fail: a field named `_` cannot become a Rust identifier; reported as path:line:col.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/names.spx",
    root: "names.underscore",
    digest: "sha256:05b82bd64702bf0c088a28fa38b19fb7feb2464de2ed81ec52210b53ceee47a2",
}

fn main() {}
