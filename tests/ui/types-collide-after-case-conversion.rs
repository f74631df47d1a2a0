// Must fail: records `geo_point` and `GeoPoint` are both `GeoPoint` cannot become a Rust identifier; reported as path:line:col.

spx_runtime::spx_interaction! {
    source: "fixtures/macro/names.spx",
    root: "names.types_collide",
    digest: "sha256:c25f9cfa0be93e643ac88031734e9d7b4bc1780e621f7f8166d8a9a96a6172a2",
}

fn main() {}
