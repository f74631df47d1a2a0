//! Bytes split at fuzzer-chosen points (`spx_fuzz::split_input`: a header
//! of chunk sizes, then the document) → the streaming decoder and the
//! streaming admitter of every dialect, for every fixture schema: the
//! verdict (and value) of `decode`/`admit` on the whole document whatever
//! the chunking, sound `FieldDone` events, a refusal whose offset is within
//! the input, the same as with the whole buffer, and after a viable prefix.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (sizes, body) = spx_fuzz::split_input(data);
    for schema in spx_fuzz::schemas() {
        spx_fuzz::check_stream(schema, &sizes, body);
    }
});
