// Must compile: fields named after Rust keywords become raw identifiers,
// and generated code survives a local `Result`, `Option`, `String` and `Vec`.

#[allow(dead_code)]
type Result<T> = core::result::Result<T, ()>;
#[allow(dead_code)]
struct Option;
#[allow(dead_code)]
struct String;
#[allow(dead_code)]
struct Vec;

spx_runtime::spx_interaction! {
    source: "fixtures/macro/names.spx",
    root: "names.keyword",
    digest: "sha256:aca47ca7e2884670fb39de58964b5a7641d1891790593dc94437b1ab376859b2",
}

fn main() {
    let k = Keyword {
        r#type: -3,
        r#match: true,
    };
    let doc = k.encode().unwrap();
    assert_eq!(Keyword::decode(doc.as_bytes()).unwrap(), k);
}
