//! `.spx` bytes → `read_module` → derive every declared type id → render,
//! read the document back, project, and round-trip an example value.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match std::str::from_utf8(data) {
        Ok(text) => spx_fuzz::check_reader(text),
        Err(_) => spx_fuzz::check_reader(&String::from_utf8_lossy(data)),
    }
});
