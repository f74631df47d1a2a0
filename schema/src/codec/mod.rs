//! The canonical value codec: the one place where the leaves of the
//! canonical value form (FORMAT.md §2 and §6) are read and written.
//!
//! Every reader and writer of value documents is built on this module, so
//! that they can never disagree about a leaf:
//! - the engine's fast path ([`crate::decode`]) walks the schema graph over
//!   the [`read::Cursor`];
//! - the code `spx_interaction!` generates walks its own specialised,
//!   precomputed key literals over the same [`read::Cursor`] (reached
//!   through `spx_runtime`'s private glue module);
//! - the encoder ([`crate::encode`]) and the generated writers append with
//!   [`write`];
//! - the spec-ordered decoder and admission check already-unescaped leaves
//!   with [`scalar`].
//!
//! | submodule | holds |
//! |---|---|
//! | [`read`] | [`read::Cursor`]: the in-place readers of the canonical form (literals, `true`/`false`, quoted decimals into `i32`/`i64`/`u8`/`u64`, strings with only the §2 escapes, byte arrays), checking every bound as they go |
//! | [`write`] | the writers of the same leaves (`push_u64`, quoted decimals, strings, byte arrays), refusing what exceeds a bound |
//! | [`quote`] | the §2 string quoting rule (which characters are escaped, and how), the lowercase hex of `\u00xx`, RFC 6901 pointer tokens |
//! | [`scalar`] | the decimal-integer rule (`-?(0\|[1-9][0-9]*)`, no `-0`) and the range of each integer representation |
//! | [`envelope`] | the value document's envelope around `<VALUE>`: its prefix (document id, root id, digest) and its end |
//! | [`step`] | the same leaf rules one byte (or piece) at a time, for streams: [`step::DecimalPrefix`], [`step::ElementPrefix`], [`step::StringPrefix`] |
//! | [`kernel`] | the data-parallel scanning steps of the readers and writers, [`Native`] (SIMD where the processor has it) and [`Portable`] (plain Rust, the reference); the SIMD code itself is the private `simd` module, the engine's only `unsafe` |
//!
//! `quote` and `scalar` are also reachable as `spx_schema::quote` and
//! `spx_schema::scalar`, the paths most of the workspace uses.
//!
//! The readers answer `Some` only for exactly canonical input and `None` on
//! the first byte that is not (they never say why: the spec-ordered path of
//! [`crate::decode`] does). The writers produce exactly the canonical form.

// Only `simd` may use `unsafe` (the crate denies it, and every other module
// of the engine forbids it): see its documentation for why.
#[forbid(unsafe_code)]
pub mod envelope;
#[forbid(unsafe_code)]
pub mod kernel;
#[forbid(unsafe_code)]
pub mod quote;
#[forbid(unsafe_code)]
pub mod read;
#[forbid(unsafe_code)]
pub mod scalar;
#[allow(unsafe_code)]
mod simd;
#[forbid(unsafe_code)]
pub mod step;
#[forbid(unsafe_code)]
pub mod write;

pub use kernel::{Kernel, Native, Portable};
pub use read::Cursor;

/// What the codec's unit tests share.
#[cfg(test)]
#[forbid(unsafe_code)]
pub(crate) mod testing {
    /// Pieces of string text, canonical and not (escapes, controls, the
    /// UTF-8 lengths, a closing quote, what follows a string), that the
    /// string readers' tests cut and join at random.
    pub(crate) const STRING_PIECES: &[&str] = &[
        "a",
        "abcdefghijklmnop",
        "abcdefg",
        "abcdefghijklmnopqrstuvwxyz01234",
        " ",
        "\"",
        "\\",
        "\\\"",
        "\\\\",
        "\\n",
        "\\r",
        "\\t",
        "\\b",
        "\\/",
        "\\u0000",
        "\\u001f",
        "\\u0009",
        "\\u007f",
        "\\u0085",
        "\\u009f",
        "\\u00a0",
        "\\u00A0",
        "\\ud83d",
        "\u{0}",
        "\u{1f}",
        "\n",
        "\u{7f}",
        "\u{80}",
        "\u{9f}",
        "\u{a0}",
        "\u{bf}",
        "é",
        "→",
        "日本語",
        "😀",
        "€42",
        ",",
        "]",
    ];

    /// A deterministic xorshift generator.
    pub(crate) struct Rng(pub(crate) u64);

    impl Rng {
        pub(crate) fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        pub(crate) fn pick<'p>(&mut self, from: &[&'p str]) -> &'p str {
            from[(self.next() % from.len() as u64) as usize]
        }
    }
}
