//! Arbitrary bytes as provider output → `admit`, for every fixture schema
//! and every dialect: admitted ⇒ the decoder admits the canonical document
//! with the same value; refused ⇒ Z205/Z206 with a pointer.
#![no_main]

use libfuzzer_sys::fuzz_target;
use spx_schema::project::Dialect;

fuzz_target!(|data: &[u8]| {
    for schema in spx_fuzz::schemas() {
        for dialect in Dialect::JSON_SCHEMA {
            spx_fuzz::check_admit(schema, dialect, data);
        }
    }
});
