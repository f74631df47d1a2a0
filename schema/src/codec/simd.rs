//! The x86-64 implementations of the codec's [kernels](super::kernel):
//! the only module of the engine that may use `unsafe`.
//!
//! Why `unsafe` is needed here and nowhere else: the SIMD instructions the
//! kernels are built on (`pcmpeqb`, `pminub`, `pmovmskb`, …) are reached
//! through `std::arch`, whose functions are `#[target_feature]` functions.
//! Calling one from code that is not itself compiled for that feature is
//! `unsafe` (the caller vouches that the processor has the feature), and so
//! are the unaligned vector loads and stores, which take raw pointers.
//! docs/PERFORMANCE.md (run 7) has the measurements that made the case;
//! run 4 there shows that safe Rust did not get LLVM to emit `pmovmskb`.
//!
//! Every `unsafe` block below carries a `// SAFETY:` proof. The rules they
//! rely on:
//! - SSE2 is part of the x86-64 baseline: every x86-64 processor has it and
//!   Rust's x86-64 targets enable it (`cfg(target_feature = "sse2")`, which
//!   this module checks at compile time), so a `#[target_feature(enable =
//!   "sse2")]` function may be called from anywhere in this module.
//! - AVX2 is not: the AVX2 functions are only called after
//!   `is_x86_feature_detected!("avx2")` said yes (run-time detection,
//!   cached by the standard library).
//! - Loads and stores go through references to fixed-size arrays, so the
//!   16 or 32 bytes they touch are in bounds by the array's type;
//!   `loadu`/`storeu` have no alignment requirement.
//!
//! Each function computes exactly what its portable counterpart in
//! [`super::kernel`] computes (tested there and in the codec's oracle
//! tests).

#![cfg(target_arch = "x86_64")]

use super::kernel::{portable_plain_run, ByteBlock};
use std::arch::x86_64::{
    __m128i, __m256i, _mm256_add_epi8, _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_cmpgt_epi8,
    _mm256_loadu_si256, _mm256_min_epu8, _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8,
    _mm256_storeu_si256, _mm256_sub_epi8, _mm_add_epi8, _mm_and_si128, _mm_cmpeq_epi8,
    _mm_cmpgt_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    _mm_storeu_si128, _mm_sub_epi8,
};

// SSE2 is assumed below without run-time detection; say so at compile time.
#[cfg(not(target_feature = "sse2"))]
compile_error!("spx-schema's codec expects SSE2, part of every x86-64 target");

/// True when the processor has AVX2 (detected once, then cached by std).
#[inline]
fn has_avx2() -> bool {
    std::is_x86_feature_detected!("avx2")
}

/// [`super::kernel::Kernel::plain_run`].
///
/// Most runs are short (a key, a word before an escape): the first 16
/// bytes are tested with SSE2 right here; only a longer run goes on to the
/// AVX2 loop (where the processor has AVX2), whose set-up would otherwise
/// cost more than it saves (docs/PERFORMANCE.md, run 7).
#[inline]
pub(super) fn plain_run(s: &[u8]) -> usize {
    let Some((first, rest)) = s.split_first_chunk::<16>() else {
        // SAFETY: SSE2 is enabled for every x86-64 target (checked above).
        return unsafe { plain_run_sse2(s) };
    };
    // SAFETY: as above.
    let m = unsafe { special16(first) };
    if m != 0 {
        return m.trailing_zeros() as usize;
    }
    if rest.len() >= 32 && has_avx2() {
        // SAFETY: the processor has AVX2 (detected just above).
        16 + unsafe { plain_run_avx2(rest) }
    } else {
        // SAFETY: SSE2 is enabled for every x86-64 target (checked above).
        16 + unsafe { plain_run_sse2(rest) }
    }
}

/// [`super::kernel::Kernel::byte_block`].
#[inline]
pub(super) fn byte_block(win: &[u8; 66]) -> ByteBlock {
    if has_avx2() {
        // SAFETY: the processor has AVX2 (detected just above).
        unsafe { byte_block_avx2(win) }
    } else {
        // SAFETY: SSE2 is enabled for every x86-64 target (checked above).
        unsafe { byte_block_sse2(win) }
    }
}

/// A 16-byte unaligned load.
#[inline]
#[target_feature(enable = "sse2")]
fn load16(b: &[u8; 16]) -> __m128i {
    // SAFETY: `b` is 16 readable bytes; `loadu` needs no alignment.
    unsafe { _mm_loadu_si128(b.as_ptr().cast()) }
}

/// A 32-byte unaligned load.
#[inline]
#[target_feature(enable = "avx2")]
fn load32(b: &[u8; 32]) -> __m256i {
    // SAFETY: `b` is 32 readable bytes; `loadu` needs no alignment.
    unsafe { _mm256_loadu_si256(b.as_ptr().cast()) }
}

/// The bits of the special bytes of a 16-byte block (`"`, `\`, below 0x20,
/// 0x7F, 0xC2).
#[inline]
#[target_feature(enable = "sse2")]
fn special16(b: &[u8; 16]) -> u32 {
    let v = load16(b);
    let control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
    let del = _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f));
    let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
    let backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
    let c2 = _mm_cmpeq_epi8(v, _mm_set1_epi8(0xc2_u8 as i8));
    let any = _mm_or_si128(_mm_or_si128(control, del), _mm_or_si128(quote, backslash));
    _mm_movemask_epi8(_mm_or_si128(any, c2)) as u32
}

#[target_feature(enable = "sse2")]
fn plain_run_sse2(s: &[u8]) -> usize {
    let (blocks, rest) = s.as_chunks::<16>();
    let mut n = 0;
    for b in blocks {
        let m = special16(b);
        if m != 0 {
            return n + m.trailing_zeros() as usize;
        }
        n += 16;
    }
    if rest.is_empty() {
        return n;
    }
    // The last 16 bytes of `s` again, when there are that many: the bits of
    // the bytes not yet scanned are the top `rest.len()` ones.
    match s.last_chunk::<16>() {
        Some(last) => {
            let m = special16(last) >> (16 - rest.len());
            if m != 0 {
                n + m.trailing_zeros() as usize
            } else {
                s.len()
            }
        }
        None => n + portable_plain_run(rest),
    }
}

/// The bits of the special bytes of a 32-byte block.
#[inline]
#[target_feature(enable = "avx2")]
fn special32(b: &[u8; 32]) -> u32 {
    let v = load32(b);
    let control = _mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_set1_epi8(0x1f)), v);
    let del = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(0x7f));
    let quote = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'"' as i8));
    let backslash = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'\\' as i8));
    let c2 = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(0xc2_u8 as i8));
    let any = _mm256_or_si256(
        _mm256_or_si256(control, del),
        _mm256_or_si256(quote, backslash),
    );
    _mm256_movemask_epi8(_mm256_or_si256(any, c2)) as u32
}

/// [`plain_run_sse2`] 32 bytes at a time.
#[target_feature(enable = "avx2")]
fn plain_run_avx2(s: &[u8]) -> usize {
    let (blocks, rest) = s.as_chunks::<32>();
    let mut n = 0;
    for b in blocks {
        let m = special32(b);
        if m != 0 {
            return n + m.trailing_zeros() as usize;
        }
        n += 32;
    }
    if rest.is_empty() {
        return n;
    }
    // The last 32 bytes of `s` again (there are that many: the caller
    // checked): the bits of the bytes not yet scanned are the top ones.
    match s.last_chunk::<32>() {
        Some(last) => {
            let m = special32(last) >> (32 - rest.len());
            if m != 0 {
                n + m.trailing_zeros() as usize
            } else {
                s.len()
            }
        }
        None => n + portable_plain_run(rest),
    }
}

/// A window's 16 or 32 bytes at `at`, as a fixed-size array reference.
macro_rules! window {
    ($win:expr, $at:expr, $n:literal) => {
        $win[$at..$at + $n]
            .first_chunk::<$n>()
            .expect("in bounds: the offsets are constants below 66 - n")
    };
}

#[target_feature(enable = "sse2")]
fn byte_block_sse2(win: &[u8; 66]) -> ByteBlock {
    let mut out = ByteBlock {
        digit: 0,
        comma: 0,
        zero: 0,
        range_bad: 0,
        values: [0; 64],
    };
    let ascii_zero = _mm_set1_epi8(b'0' as i8);
    let nine = _mm_set1_epi8(9);
    for k in 0..4 {
        let at = 16 * k;
        let a0 = load16(window!(win, at + 2, 16));
        let a1 = load16(window!(win, at + 1, 16));
        let a2 = load16(window!(win, at, 16));
        let (d0, d1, d2) = (
            _mm_sub_epi8(a0, ascii_zero),
            _mm_sub_epi8(a1, ascii_zero),
            _mm_sub_epi8(a2, ascii_zero),
        );
        // `d <= 9` as unsigned bytes: `min(d, 9) == d`.
        let m0 = _mm_cmpeq_epi8(_mm_min_epu8(d0, nine), d0);
        let m1 = _mm_cmpeq_epi8(_mm_min_epu8(d1, nine), d1);
        let m2 = _mm_cmpeq_epi8(_mm_min_epu8(d2, nine), d2);
        let z = _mm_and_si128(d0, m0);
        let t = _mm_and_si128(d1, m1);
        let h = _mm_and_si128(_mm_and_si128(d2, m2), m1);
        let t2 = _mm_add_epi8(t, t);
        let t4 = _mm_add_epi8(t2, t2);
        let t8 = _mm_add_epi8(t4, t4);
        let r = _mm_add_epi8(z, _mm_add_epi8(t8, t2));
        let h1 = _mm_cmpeq_epi8(h, _mm_set1_epi8(1));
        let h2 = _mm_cmpeq_epi8(h, _mm_set1_epi8(2));
        let hundreds = _mm_or_si128(
            _mm_and_si128(h1, _mm_set1_epi8(100)),
            _mm_and_si128(h2, _mm_set1_epi8(200_u8 as i8)),
        );
        let values = _mm_add_epi8(r, hundreds);
        // `h` and `r` are at most 9 and 99: signed comparisons are exact.
        let range_bad = _mm_or_si128(
            _mm_cmpgt_epi8(h, _mm_set1_epi8(2)),
            _mm_and_si128(h2, _mm_cmpgt_epi8(r, _mm_set1_epi8(55))),
        );
        let to: &mut [u8; 16] = (&mut out.values[at..at + 16])
            .try_into()
            .expect("in bounds: 16 * k + 16 <= 64");
        // SAFETY: `to` is 16 writable bytes; `storeu` needs no alignment.
        unsafe { _mm_storeu_si128(to.as_mut_ptr().cast(), values) };
        let bits = |v: __m128i| u64::from(_mm_movemask_epi8(v) as u16) << at;
        out.digit |= bits(m0);
        out.comma |= bits(_mm_cmpeq_epi8(a0, _mm_set1_epi8(b',' as i8)));
        out.zero |= bits(_mm_cmpeq_epi8(a0, ascii_zero));
        out.range_bad |= bits(range_bad);
    }
    out
}

#[target_feature(enable = "avx2")]
fn byte_block_avx2(win: &[u8; 66]) -> ByteBlock {
    let mut out = ByteBlock {
        digit: 0,
        comma: 0,
        zero: 0,
        range_bad: 0,
        values: [0; 64],
    };
    let ascii_zero = _mm256_set1_epi8(b'0' as i8);
    let nine = _mm256_set1_epi8(9);
    for k in 0..2 {
        let at = 32 * k;
        let a0 = load32(window!(win, at + 2, 32));
        let a1 = load32(window!(win, at + 1, 32));
        let a2 = load32(window!(win, at, 32));
        let (d0, d1, d2) = (
            _mm256_sub_epi8(a0, ascii_zero),
            _mm256_sub_epi8(a1, ascii_zero),
            _mm256_sub_epi8(a2, ascii_zero),
        );
        let m0 = _mm256_cmpeq_epi8(_mm256_min_epu8(d0, nine), d0);
        let m1 = _mm256_cmpeq_epi8(_mm256_min_epu8(d1, nine), d1);
        let m2 = _mm256_cmpeq_epi8(_mm256_min_epu8(d2, nine), d2);
        let z = _mm256_and_si256(d0, m0);
        let t = _mm256_and_si256(d1, m1);
        let h = _mm256_and_si256(_mm256_and_si256(d2, m2), m1);
        let t2 = _mm256_add_epi8(t, t);
        let t4 = _mm256_add_epi8(t2, t2);
        let t8 = _mm256_add_epi8(t4, t4);
        let r = _mm256_add_epi8(z, _mm256_add_epi8(t8, t2));
        let h1 = _mm256_cmpeq_epi8(h, _mm256_set1_epi8(1));
        let h2 = _mm256_cmpeq_epi8(h, _mm256_set1_epi8(2));
        let hundreds = _mm256_or_si256(
            _mm256_and_si256(h1, _mm256_set1_epi8(100)),
            _mm256_and_si256(h2, _mm256_set1_epi8(200_u8 as i8)),
        );
        let values = _mm256_add_epi8(r, hundreds);
        let range_bad = _mm256_or_si256(
            _mm256_cmpgt_epi8(h, _mm256_set1_epi8(2)),
            _mm256_and_si256(h2, _mm256_cmpgt_epi8(r, _mm256_set1_epi8(55))),
        );
        let to: &mut [u8; 32] = (&mut out.values[at..at + 32])
            .try_into()
            .expect("in bounds: 32 * k + 32 <= 64");
        // SAFETY: `to` is 32 writable bytes; `storeu` needs no alignment.
        unsafe { _mm256_storeu_si256(to.as_mut_ptr().cast(), values) };
        let bits = |v: __m256i| u64::from(_mm256_movemask_epi8(v) as u32) << at;
        out.digit |= bits(m0);
        out.comma |= bits(_mm256_cmpeq_epi8(a0, _mm256_set1_epi8(b',' as i8)));
        out.zero |= bits(_mm256_cmpeq_epi8(a0, ascii_zero));
        out.range_bad |= bits(range_bad);
    }
    out
}

/// The SSE2 kernels, callable directly so that the tests can hold them
/// against the portable ones even on a processor with AVX2.
#[cfg(test)]
pub(super) fn byte_block_sse2_for_tests(win: &[u8; 66]) -> ByteBlock {
    // SAFETY: SSE2 is enabled for every x86-64 target (checked above).
    unsafe { byte_block_sse2(win) }
}

/// See [`byte_block_sse2_for_tests`].
#[cfg(test)]
pub(super) fn plain_run_sse2_for_tests(s: &[u8]) -> usize {
    // SAFETY: SSE2 is enabled for every x86-64 target (checked above).
    unsafe { plain_run_sse2(s) }
}
