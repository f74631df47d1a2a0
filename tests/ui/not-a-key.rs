// Must fail: a string where a key is expected ("expected one of …").

spx_runtime::spx_interaction! {
    "fixtures/macro/ok.spx",
}

fn main() {}
