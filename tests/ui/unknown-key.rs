// Must fail: `rot` is not a key (reported on the key; the missing `root` too).

spx_runtime::spx_interaction! {
    source: "fixtures/macro/ok.spx",
    rot: "ok.point",
}

fn main() {}
