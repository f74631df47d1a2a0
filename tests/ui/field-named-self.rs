// Must fail: a field named `self` cannot become a Rust identifier; reported as path:line:col.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/names.spx",
    root: "names.self_field",
    digest: "sha256:6dda7c19010db030ab411a96fc20fb6d9270b1c39b7a7b7616ce7741726710f5",
}

fn main() {}
