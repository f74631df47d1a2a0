// Must fail: the .spx file has a syntax error, reported as path:line:col.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/bad_syntax.spx",
    root: "bad.point",
}

fn main() {}
