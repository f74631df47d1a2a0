// Must fail: no `digest` and no pin in spx.lock; the message gives the derived digest to paste.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/ok.spx",
    root: "ok.point",
}

fn main() {}
