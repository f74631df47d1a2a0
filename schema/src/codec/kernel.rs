//! The scanning kernels of the codec: the few data-parallel steps the
//! readers and writers are built on, in two interchangeable
//! implementations.
//!
//! - [`Portable`]: plain Rust, the same on every processor. It is the
//!   fallback where no SIMD implementation exists and the reference the
//!   SIMD ones are tested against (unit tests here, the codec's oracle
//!   tests run with both, and the fuzz targets compare both).
//! - [`Native`]: the fastest implementation this processor has: on
//!   x86-64, SSE2 (part of the x86-64 baseline, so present on every such
//!   processor; no flag is needed) and AVX2 where the processor has it,
//!   detected at run time ([`super::simd`]); elsewhere [`Portable`].
//!
//! Both compute exactly the same function, bit for bit, for every input:
//! the kernels are a choice of speed, never of behaviour.
//!
//! The kernels:
//! - [`Kernel::plain_run`]: the length of the run at the start of a byte
//!   string that a canonical string copies as is (up to the first `"`,
//!   `\`, C0 control, DEL or 0xC2, the lead byte of the C1 controls);
//! - [`Kernel::byte_block`]: the classification and element values of a
//!   64-byte block of a byte array ([`ByteBlock`]).

use std::fmt::Debug;

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Native {}
    impl Sealed for super::Portable {}
}

/// A scanning kernel: [`Native`] or [`Portable`] (sealed).
pub trait Kernel: sealed::Sealed + Copy + Default + Debug + Send + Sync + 'static {
    /// The length of the run at the start of `s` that a canonical string
    /// copies as is: up to the first `"`, `\`, C0 control (0x00..=0x1F),
    /// DEL (0x7F) or 0xC2, or `s.len()` when there is none.
    fn plain_run(s: &[u8]) -> usize;

    /// Classifies the 64-byte block `win[2..66]` of a byte array and
    /// computes, for every byte, the value of the element that would end
    /// there (`win[0..2]` are the two bytes before the block).
    fn byte_block(win: &[u8; 66]) -> ByteBlock;
}

/// The result of [`Kernel::byte_block`] on a window `win`: for byte `j` of
/// the block (bit `j` of each mask, byte `j` of `values`), with `a0 =
/// win[j + 2]`, `a1 = win[j + 1]`, `a2 = win[j]`, `dk = ak - b'0'`
/// (wrapping) and `mk = dk <= 9` (`ak` is a digit):
///
/// - `digit`: `m0`; `comma`: `a0 == b','`; `zero`: `a0 == b'0'`;
/// - with `z = m0 ? d0 : 0`, `t = m1 ? d1 : 0`, `h = m1 && m2 ? d2 : 0`
///   and `r = z + 10 t` (at most 99): `values[j] = r + 100 h` modulo 256,
///   and `range_bad`: `h > 2 || (h == 2 && r > 55)`.
///
/// At the last digit of an element of one to three digits, `values` is
/// therefore the element's value when it is at most 255, and `range_bad`
/// says when it is over 255; the other bytes' entries mean nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ByteBlock {
    /// The bytes that are ASCII digits.
    pub digit: u64,
    /// The bytes that are `,`.
    pub comma: u64,
    /// The bytes that are `0`.
    pub zero: u64,
    /// The bytes at which an element of up to three digits ending there
    /// would be over 255.
    pub range_bad: u64,
    /// The value of the element of up to three digits ending at each byte
    /// (modulo 256).
    pub values: [u8; 64],
}

impl ByteBlock {
    /// All masks empty, all values zero: where the kernels start.
    pub const EMPTY: ByteBlock = ByteBlock {
        digit: 0,
        comma: 0,
        zero: 0,
        range_bad: 0,
        values: [0; 64],
    };
}

/// The fastest kernel of this processor (see the [module](self)).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Native;

/// The portable kernel: plain Rust, the reference of the others.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Portable;

impl Kernel for Portable {
    #[inline]
    fn plain_run(s: &[u8]) -> usize {
        portable_plain_run(s)
    }

    #[inline]
    fn byte_block(win: &[u8; 66]) -> ByteBlock {
        portable_byte_block(win)
    }
}

impl Kernel for Native {
    #[inline]
    fn plain_run(s: &[u8]) -> usize {
        #[cfg(target_arch = "x86_64")]
        {
            super::simd::plain_run(s)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            portable_plain_run(s)
        }
    }

    #[inline]
    fn byte_block(win: &[u8; 66]) -> ByteBlock {
        #[cfg(target_arch = "x86_64")]
        {
            super::simd::byte_block(win)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            portable_byte_block(win)
        }
    }
}

/// Eight copies of a byte, for the word-at-a-time tests.
pub(crate) const fn splat(b: u8) -> u64 {
    u64::from_le_bytes([b; 8])
}

const ONES: u64 = splat(0x01);
const HIGH: u64 = splat(0x80);

/// True for the bytes [`Kernel::plain_run`] stops at.
#[inline(always)]
pub(crate) fn is_special(b: u8) -> bool {
    matches!(b, 0x00..=0x1f | b'"' | b'\\' | 0x7f | 0xc2)
}

/// [`Kernel::plain_run`], eight bytes at a time: in the little-endian word
/// `v`, the lowest flagged byte of `special` is exactly the first special
/// byte. A subtraction borrows only out of a byte that is itself flagged
/// (below 0x20, or a zero of `v ^ splat(c)`), so it can only flag bytes
/// above a truly flagged one; the addition cannot carry at all (it adds 1
/// to bytes of at most 0x7F).
#[inline]
pub(crate) fn portable_plain_run(s: &[u8]) -> usize {
    // The bits of `(x - ONES) & !x` at 0x80 flag the zero bytes of `x`.
    #[inline(always)]
    fn zero(x: u64) -> u64 {
        x.wrapping_sub(ONES) & !x
    }
    let mut n = 0;
    let (chunks, rest) = s.as_chunks::<8>();
    for chunk in chunks {
        let v = u64::from_le_bytes(*chunk);
        // Below 0x20 (the subtraction wraps), or 0x7F (the addition reaches
        // 0x80), in both cases with the byte's own high bit clear.
        let control = (v.wrapping_sub(splat(0x20)) | (v & splat(0x7f)).wrapping_add(ONES)) & !v;
        let special =
            (control | zero(v ^ splat(b'"')) | zero(v ^ splat(b'\\')) | zero(v ^ splat(0xc2)))
                & HIGH;
        if special != 0 {
            return n + (special.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + rest.iter().take_while(|&&b| !is_special(b)).count()
}

/// Per byte of `x`: 0x80 where the byte is not zero, else 0 (exact for
/// every byte: the addition cannot carry out of a byte).
#[inline(always)]
const fn nonzero(x: u64) -> u64 {
    (((x & splat(0x7f)) + splat(0x7f)) | x) & HIGH
}

/// The high bits of the bytes of `hi` (each 0x80 or 0) as eight bits, the
/// lowest byte's first (every partial product lands on its own bit, so
/// nothing carries).
#[inline(always)]
const fn pack(hi: u64) -> u64 {
    ((hi >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// 0xFF in the bytes of `hi` that are 0x80 (the others are 0).
#[inline(always)]
const fn widen(hi: u64) -> u64 {
    (hi >> 7) * 0xff
}

/// [`Kernel::byte_block`] eight bytes at a time, in `u64` words (SWAR):
/// the same function as the byte-by-byte definition (the unit tests hold
/// them against each other). Digits are turned into their values by `^
/// 0x30`, which equals `- 0x30` on digits, and every value of a byte that
/// is not a digit is masked away, as in the definition.
pub(crate) fn portable_byte_block(win: &[u8; 66]) -> ByteBlock {
    let word = |at: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&win[at..at + 8]);
        u64::from_le_bytes(w)
    };
    let mut out = ByteBlock::EMPTY;
    for k in 0..8 {
        let at = 8 * k;
        let (a0, a1, a2) = (word(at + 2), word(at + 1), word(at));
        let (x0, x1, x2) = (a0 ^ splat(b'0'), a1 ^ splat(b'0'), a2 ^ splat(b'0'));
        // 0x80 in the bytes that are digits (`x <= 9`).
        let digit_hi = |x: u64| !(((x & splat(0x7f)) + splat(0x76)) | x) & HIGH;
        let (m0, m1, m2) = (digit_hi(x0), digit_hi(x1), digit_hi(x2));
        let z = x0 & widen(m0);
        let t = x1 & widen(m1);
        let h = x2 & widen(m2 & m1);
        // At most 9 + 90 per byte: no carry.
        let r = z + (t << 3) + (t << 1);
        let h1 = !nonzero(h ^ splat(1)) & HIGH;
        let h2 = !nonzero(h ^ splat(2)) & HIGH;
        let hundreds = (widen(h1) & splat(100)) | (widen(h2) & splat(200));
        // Bytewise `r + hundreds` modulo 256 (no carry between bytes).
        let values = ((r & splat(0x7f)) + (hundreds & splat(0x7f))) ^ ((r ^ hundreds) & HIGH);
        // `h >= 3` (h <= 9) and `r >= 56` (r <= 99), without carries.
        let range_bad = ((h + splat(0x7d)) | (h2 & (r + splat(0x48)))) & HIGH;
        out.values[at..at + 8].copy_from_slice(&values.to_le_bytes());
        out.digit |= pack(m0) << at;
        out.comma |= pack(!nonzero(a0 ^ splat(b',')) & HIGH) << at;
        out.zero |= pack(!nonzero(x0) & HIGH) << at;
        out.range_bad |= pack(range_bad) << at;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Kernel::byte_block`], one byte at a time: the definition, which
    /// every kernel must compute.
    fn definition(win: &[u8; 66]) -> ByteBlock {
        let mut out = ByteBlock::EMPTY;
        for j in 0..64 {
            let (a0, a1, a2) = (win[j + 2], win[j + 1], win[j]);
            let (d0, d1, d2) = (
                a0.wrapping_sub(b'0'),
                a1.wrapping_sub(b'0'),
                a2.wrapping_sub(b'0'),
            );
            let (m0, m1, m2) = (d0 <= 9, d1 <= 9, d2 <= 9);
            let z = if m0 { d0 } else { 0 };
            let t = if m1 { d1 } else { 0 };
            let h = if m1 && m2 { d2 } else { 0 };
            let r = z + 10 * t;
            let hundreds = match h {
                1 => 100,
                2 => 200,
                _ => 0,
            };
            out.values[j] = r.wrapping_add(hundreds);
            let bit = 1u64 << j;
            if m0 {
                out.digit |= bit;
            }
            if a0 == b',' {
                out.comma |= bit;
            }
            if a0 == b'0' {
                out.zero |= bit;
            }
            if h > 2 || (h == 2 && r > 55) {
                out.range_bad |= bit;
            }
        }
        out
    }

    use crate::codec::testing::Rng;

    #[test]
    fn plain_run_stops_at_exactly_the_special_bytes() {
        for b in 0..=255u8 {
            let expected = matches!(b, 0x00..=0x1f | b'"' | b'\\' | 0x7f | 0xc2);
            assert_eq!(is_special(b), expected, "{b:#x}");
            // At every offset of a 48-byte run, for both kernels.
            for k in 0..48 {
                let mut s = vec![b'a'; 48];
                s[k] = b;
                let want = if expected { k } else { 48 };
                assert_eq!(Portable::plain_run(&s), want, "{b:#x} at {k}");
                assert_eq!(Native::plain_run(&s), want, "{b:#x} at {k}");
                assert_eq!(Native::plain_run(&s[..k]), k, "{b:#x} cut at {k}");
                #[cfg(target_arch = "x86_64")]
                assert_eq!(
                    super::super::simd::plain_run_sse2_for_tests(&s),
                    want,
                    "{b:#x} at {k}"
                );
            }
        }
    }

    #[test]
    fn kernels_agree_on_random_input() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        // Byte alphabets: everything, and what byte arrays and strings
        // are made of.
        let alphabets: [&[u8]; 3] = [
            &[],
            b"0123456789,,,]",
            b"abc\"\\\x01\x7f\xc2\x80\xa0 0123456789",
        ];
        for round in 0..20_000 {
            let alphabet = alphabets[round % 3];
            let pick = |r: u64| -> u8 {
                if alphabet.is_empty() {
                    r as u8
                } else {
                    alphabet[(r % alphabet.len() as u64) as usize]
                }
            };
            let mut win = [0u8; 66];
            for b in &mut win {
                *b = pick(rng.next());
            }
            let want = definition(&win);
            assert_eq!(Portable::byte_block(&win), want, "{win:?}");
            assert_eq!(Native::byte_block(&win), want, "{win:?}");
            // The SSE2 kernel too, which `Native` does not use where the
            // processor has AVX2.
            #[cfg(target_arch = "x86_64")]
            assert_eq!(
                super::super::simd::byte_block_sse2_for_tests(&win),
                want,
                "{win:?}"
            );
            let len = (rng.next() % 80) as usize;
            let s: Vec<u8> = (0..len)
                .map(|_| {
                    // Mostly plain, so that runs cross 16- and 32-byte blocks.
                    if rng.next().is_multiple_of(24) {
                        pick(rng.next())
                    } else {
                        b'x'
                    }
                })
                .collect();
            assert_eq!(Native::plain_run(&s), Portable::plain_run(&s), "{s:?}");
            #[cfg(target_arch = "x86_64")]
            assert_eq!(
                super::super::simd::plain_run_sse2_for_tests(&s),
                Portable::plain_run(&s),
                "{s:?}"
            );
        }
    }

    #[test]
    fn byte_block_is_the_definition() {
        // "[7,255,0,10,256,01,9999" with the block starting after `[`.
        let mut win = [b' '; 66];
        win[1] = b'[';
        let text = b"7,255,0,10,256,01,9999]";
        win[2..2 + text.len()].copy_from_slice(text);
        let b = definition(&win);
        assert_eq!(Portable::byte_block(&win), b);
        let at = |j: usize| 1u64 << j;
        assert_eq!(b.values[0], 7);
        assert_eq!(b.values[4], 255);
        assert_eq!(b.range_bad & at(4), 0);
        assert_eq!(b.values[6], 0);
        assert_eq!(b.values[9], 10);
        assert_ne!(b.range_bad & at(13), 0, "256");
        assert_eq!(b.values[16], 1);
        assert_ne!(b.zero & at(15), 0);
        assert_eq!(b.comma & 0xff, at(1) | at(5) | at(7));
        assert_eq!(b.digit & 0b111, 0b101);
    }
}
