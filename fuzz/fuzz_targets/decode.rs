//! Arbitrary bytes → the dynamic decoder, against every fixture schema:
//! fast path = spec-ordered path, admitted ⇒ canonical and admitted by
//! every dialect's `admit` too, refused ⇒ Z205/Z206 with a pointer.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for schema in spx_fuzz::schemas() {
        spx_fuzz::check_decode(schema, data);
    }
});
