// Must fail: keys are followed by `:` (only `crate` also takes `=`).

spx_runtime::spx_interaction! {
    source = "fixtures/macro/ok.spx",
    root: "ok.point",
}

fn main() {}
