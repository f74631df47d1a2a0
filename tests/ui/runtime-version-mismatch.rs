// Must fail: generated code names the runtime's private module of the
// macro's own version (`__private_0_1_0`), so a runtime of another version
// (here a stand-in for spx-runtime 0.0.9, reached with `crate = …`) is a
// compile error, never a run-time refusal.

mod old_runtime {
    pub mod __private_0_0_9 {}
}

spx_runtime::spx_interaction! {
    source: "fixtures/macro/ok.spx",
    root: "ok.point",
    digest: "sha256:b64f274065bc68df0c946222114684ab1c8fd2216fc281bcb2738615c3150987",
    crate = old_runtime,
}

fn main() {}
