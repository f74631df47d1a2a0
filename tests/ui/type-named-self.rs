// Must fail: a record named `Self` cannot become a Rust identifier; reported as path:line:col.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/names.spx",
    root: "names.self_type",
    digest: "sha256:5c32ffac3a405469c23d3441ddc7da5f40cbd680c260ba932e85fd828b749320",
}

fn main() {}
