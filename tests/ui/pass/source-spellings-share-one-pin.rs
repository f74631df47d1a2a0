// Must compile: `./fixtures/macro/locked.spx` and `fixtures/macro//locked.spx`
// are spellings of `fixtures/macro/locked.spx`, whose pin is in the spx.lock
// that tests/tests/ui.rs writes: both find it (no `digest` in the macro).

mod dot_slash {
    spx_runtime::spx_interaction! {
        source: "./fixtures/macro/locked.spx",
        root: "locked.flag",
    }
}

mod double_slash {
    spx_runtime::spx_interaction! {
        source: "fixtures/macro//locked.spx",
        root: "locked.flag",
    }
}

fn main() {
    let doc = dot_slash::Flag { on: true }.encode().unwrap();
    assert_eq!(
        dot_slash::Flag::decode(doc.as_bytes()).unwrap(),
        dot_slash::Flag { on: true }
    );
    assert_eq!(
        double_slash::Flag::decode(doc.as_bytes()).unwrap(),
        double_slash::Flag { on: true }
    );
    assert_eq!(dot_slash::Flag::SCHEMA_DIGEST, double_slash::Flag::SCHEMA_DIGEST);
    assert_eq!(
        dot_slash::Flag::SCHEMA_DIGEST,
        "sha256:cc906e7475499cabb47169619fcc733eae099fdf6a0f84b6a1cf3d14ee865585"
    );
}
