// Must fail: the schema derived from drift_new.spx no longer has the digest pinned in the macro; the message shows both digests, the change by stable id and the digest to paste.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/drift_new.spx",
    root: "drift.plan",
    digest: "sha256:489933f8371cda5379f99297f2938fad4b81f4b837d349e2f746c59a7900fff6",
}

fn main() {}
