// Must fail: fields `maxLen` and `max_len` are both `max_len` cannot become a Rust identifier; reported as path:line:col.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/names.spx",
    root: "names.fields_collide",
    digest: "sha256:cbfc3f37d167560042d28f64ba30b88bd5b2791e181d3a71fbe175d4c8838215",
}

fn main() {}
