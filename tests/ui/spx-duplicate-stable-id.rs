// Must fail: two declarations of the .spx file share a stable id, reported as path:line:col.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/duplicate_id.spx",
    root: "dup.point",
}

fn main() {}
