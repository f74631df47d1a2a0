// Must fail: at least one `root` is required.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/ok.spx",
}

fn main() {}
