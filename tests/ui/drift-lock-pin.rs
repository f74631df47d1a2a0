// Must fail: the pin of drift.plan in spx.lock (written by tests/tests/ui.rs) is the digest of drift_old.spx; the message says how to re-pin.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/drift_new.spx",
    root: "drift.plan",
}

fn main() {}
