// Must fail: cases `Go_on` and `GoOn` are both `GoOn` cannot become a Rust identifier; reported as path:line:col.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/names.spx",
    root: "names.cases_collide",
    digest: "sha256:745f8f2934fbdb1cfcb31dc7547483325aabe52abd36f00750f3fb608586ff9b",
}

fn main() {}
