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
//! Each kernel is written once, over the few vector operations it needs
//! (`vector_ops!`: module `v128` with SSE2, module `v256` with AVX2), and
//! instantiated for both widths (`kernels!`).
//!
//! Each function computes exactly what its portable counterpart in
//! [`super::kernel`] computes (tested there and in the codec's oracle
//! tests).

#![cfg(target_arch = "x86_64")]

use super::kernel::ByteBlock;

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
/// be paid by every short run (docs/PERFORMANCE.md, run 7).
#[inline]
pub(super) fn plain_run(s: &[u8]) -> usize {
    let Some((first, rest)) = s.split_first_chunk::<16>() else {
        // SAFETY: SSE2 is enabled for every x86-64 target (checked above).
        return unsafe { sse2::plain_run(s) };
    };
    // SAFETY: as above.
    let m = unsafe { sse2::special(first) };
    if m != 0 {
        return m.trailing_zeros() as usize;
    }
    if rest.len() >= 32 && has_avx2() {
        // SAFETY: the processor has AVX2 (detected just above).
        16 + unsafe { avx2::plain_run(rest) }
    } else {
        // SAFETY: SSE2 is enabled for every x86-64 target (checked above).
        16 + unsafe { sse2::plain_run(rest) }
    }
}

/// [`super::kernel::Kernel::byte_block`].
#[inline]
pub(super) fn byte_block(win: &[u8; 66]) -> ByteBlock {
    if has_avx2() {
        // SAFETY: the processor has AVX2 (detected just above).
        unsafe { avx2::byte_block(win) }
    } else {
        // SAFETY: SSE2 is enabled for every x86-64 target (checked above).
        unsafe { sse2::byte_block(win) }
    }
}

/// A module of the vector operations the kernels use, for one width: the
/// vector type `V`, its width `W`, and thin `#[target_feature]` wrappers of
/// the `std::arch` intrinsics (the only `unsafe` of the wrappers is the
/// load and the store).
macro_rules! vector_ops {
    (
        $name:ident, $feature:literal, $width:literal, $v:ident, $bits:ty,
        $load:ident, $store:ident, $set1:ident, $add:ident, $sub:ident,
        $min:ident, $eq:ident, $gt:ident, $and:ident, $or:ident, $movemask:ident
    ) => {
        mod $name {
            use std::arch::x86_64::{
                $add, $and, $eq, $gt, $load, $min, $movemask, $or, $set1, $store, $sub, $v,
            };

            /// The vector type.
            pub(super) type V = $v;
            /// Its width in bytes.
            pub(super) const W: usize = $width;

            #[inline]
            #[target_feature(enable = $feature)]
            pub(super) fn load(b: &[u8; W]) -> V {
                // SAFETY: `b` is `W` readable bytes; `loadu` needs no
                // alignment.
                unsafe { $load(b.as_ptr().cast()) }
            }

            #[inline]
            #[target_feature(enable = $feature)]
            pub(super) fn store(to: &mut [u8; W], v: V) {
                // SAFETY: `to` is `W` writable bytes; `storeu` needs no
                // alignment.
                unsafe { $store(to.as_mut_ptr().cast(), v) }
            }

            #[inline]
            #[target_feature(enable = $feature)]
            pub(super) fn splat(b: u8) -> V {
                $set1(b as i8)
            }

            #[inline]
            #[target_feature(enable = $feature)]
            pub(super) fn add(a: V, b: V) -> V {
                $add(a, b)
            }

            #[inline]
            #[target_feature(enable = $feature)]
            pub(super) fn sub(a: V, b: V) -> V {
                $sub(a, b)
            }

            /// Unsigned bytewise minimum.
            #[inline]
            #[target_feature(enable = $feature)]
            pub(super) fn min(a: V, b: V) -> V {
                $min(a, b)
            }

            #[inline]
            #[target_feature(enable = $feature)]
            pub(super) fn eq(a: V, b: V) -> V {
                $eq(a, b)
            }

            /// Signed bytewise `a > b`.
            #[inline]
            #[target_feature(enable = $feature)]
            pub(super) fn gt(a: V, b: V) -> V {
                $gt(a, b)
            }

            #[inline]
            #[target_feature(enable = $feature)]
            pub(super) fn and(a: V, b: V) -> V {
                $and(a, b)
            }

            #[inline]
            #[target_feature(enable = $feature)]
            pub(super) fn or(a: V, b: V) -> V {
                $or(a, b)
            }

            /// The high bit of every byte, the first byte's lowest.
            #[inline]
            #[target_feature(enable = $feature)]
            pub(super) fn mask(v: V) -> u64 {
                u64::from($movemask(v) as $bits)
            }
        }
    };
}

vector_ops!(
    v128,
    "sse2",
    16,
    __m128i,
    u16,
    _mm_loadu_si128,
    _mm_storeu_si128,
    _mm_set1_epi8,
    _mm_add_epi8,
    _mm_sub_epi8,
    _mm_min_epu8,
    _mm_cmpeq_epi8,
    _mm_cmpgt_epi8,
    _mm_and_si128,
    _mm_or_si128,
    _mm_movemask_epi8
);
vector_ops!(
    v256,
    "avx2",
    32,
    __m256i,
    u32,
    _mm256_loadu_si256,
    _mm256_storeu_si256,
    _mm256_set1_epi8,
    _mm256_add_epi8,
    _mm256_sub_epi8,
    _mm256_min_epu8,
    _mm256_cmpeq_epi8,
    _mm256_cmpgt_epi8,
    _mm256_and_si256,
    _mm256_or_si256,
    _mm256_movemask_epi8
);

/// The kernels, written once over a module of [`vector_ops!`].
macro_rules! kernels {
    ($name:ident, $feature:literal, $ops:ident) => {
        mod $name {
            use super::super::kernel::{portable_plain_run, ByteBlock};
            use super::$ops::{add, and, eq, gt, load, mask, min, or, splat, store, sub, W};

            /// `W` bytes of `b` from `at`.
            #[inline(always)]
            fn at<const N: usize>(b: &[u8; N], at: usize) -> &[u8; W] {
                b[at..at + W]
                    .first_chunk::<W>()
                    .expect("in bounds: the offsets are constants at most N - W")
            }

            /// The bits of the special bytes of `W` bytes (`"`, `\`, below
            /// 0x20, 0x7F, 0xC2).
            #[inline]
            #[target_feature(enable = $feature)]
            pub(super) fn special(b: &[u8; W]) -> u64 {
                let v = load(b);
                let control = eq(min(v, splat(0x1f)), v);
                let del = eq(v, splat(0x7f));
                let quote = eq(v, splat(b'"'));
                let backslash = eq(v, splat(b'\\'));
                let c2 = eq(v, splat(0xc2));
                mask(or(or(or(control, del), or(quote, backslash)), c2))
            }

            /// [`super::super::kernel::Kernel::plain_run`], `W` bytes at a
            /// time.
            #[target_feature(enable = $feature)]
            pub(super) fn plain_run(s: &[u8]) -> usize {
                let (blocks, rest) = s.as_chunks::<W>();
                let mut n = 0;
                for b in blocks {
                    let m = special(b);
                    if m != 0 {
                        return n + m.trailing_zeros() as usize;
                    }
                    n += W;
                }
                if rest.is_empty() {
                    return n;
                }
                // The last `W` bytes of `s` again, when there are that many:
                // the bits of the bytes not yet scanned are the top
                // `rest.len()` ones.
                match s.last_chunk::<W>() {
                    Some(last) => {
                        let m = special(last) >> (W - rest.len());
                        if m != 0 {
                            n + m.trailing_zeros() as usize
                        } else {
                            s.len()
                        }
                    }
                    None => n + portable_plain_run(rest),
                }
            }

            /// [`super::super::kernel::Kernel::byte_block`], `W` bytes at a
            /// time.
            #[target_feature(enable = $feature)]
            pub(super) fn byte_block(win: &[u8; 66]) -> ByteBlock {
                let mut out = ByteBlock::EMPTY;
                let ascii_zero = splat(b'0');
                let nine = splat(9);
                for k in 0..64 / W {
                    let base = W * k;
                    let a0 = load(at(win, base + 2));
                    let a1 = load(at(win, base + 1));
                    let a2 = load(at(win, base));
                    let (d0, d1, d2) = (
                        sub(a0, ascii_zero),
                        sub(a1, ascii_zero),
                        sub(a2, ascii_zero),
                    );
                    // `d <= 9` as unsigned bytes: `min(d, 9) == d`.
                    let m0 = eq(min(d0, nine), d0);
                    let m1 = eq(min(d1, nine), d1);
                    let m2 = eq(min(d2, nine), d2);
                    let z = and(d0, m0);
                    let t = and(d1, m1);
                    let h = and(and(d2, m2), m1);
                    let t2 = add(t, t);
                    let t4 = add(t2, t2);
                    let t8 = add(t4, t4);
                    let r = add(z, add(t8, t2));
                    let h1 = eq(h, splat(1));
                    let h2 = eq(h, splat(2));
                    let hundreds = or(and(h1, splat(100)), and(h2, splat(200)));
                    // `h` and `r` are at most 9 and 99: signed comparisons
                    // are exact.
                    let range_bad = or(gt(h, splat(2)), and(h2, gt(r, splat(55))));
                    let to = (&mut out.values[base..base + W])
                        .first_chunk_mut::<W>()
                        .expect("in bounds: W * k + W <= 64");
                    store(to, add(r, hundreds));
                    out.digit |= mask(m0) << base;
                    out.comma |= mask(eq(a0, splat(b','))) << base;
                    out.zero |= mask(eq(a0, ascii_zero)) << base;
                    out.range_bad |= mask(range_bad) << base;
                }
                out
            }
        }
    };
}

kernels!(sse2, "sse2", v128);
kernels!(avx2, "avx2", v256);

/// The SSE2 kernels, callable directly so that the tests can hold them
/// against the portable ones even on a processor with AVX2.
#[cfg(test)]
pub(super) fn byte_block_sse2_for_tests(win: &[u8; 66]) -> ByteBlock {
    // SAFETY: SSE2 is enabled for every x86-64 target (checked above).
    unsafe { sse2::byte_block(win) }
}

/// See [`byte_block_sse2_for_tests`].
#[cfg(test)]
pub(super) fn plain_run_sse2_for_tests(s: &[u8]) -> usize {
    // SAFETY: SSE2 is enabled for every x86-64 target (checked above).
    unsafe { sse2::plain_run(s) }
}
