// Must compile: no `digest` in the macro, the pin comes from the spx.lock
// that tests/tests/ui.rs writes beside the trybuild project.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/locked.spx",
    root: "locked.flag",
}

fn main() {
    let doc = Flag { on: true }.encode().unwrap();
    assert_eq!(Flag::decode(doc.as_bytes()).unwrap(), Flag { on: true });
    assert_eq!(
        Flag::SCHEMA_DIGEST,
        "sha256:cc906e7475499cabb47169619fcc733eae099fdf6a0f84b6a1cf3d14ee865585"
    );
}
