//! Heap allocations per decode and per encode, for every decoder and
//! document of the corpus, counted by a global allocator. Not a criterion
//! benchmark: the counts are exact and repeatable, so one call each is
//! enough. Prints one line per measurement:
//!
//! ```text
//! alloc decode <decoder> <document> <allocations> <bytes allocated>
//! ```
//!
//! which `scripts/bench-ratios` reads. Also the place that (re)writes the
//! committed corpus: `SPX_BENCH_REGENERATE=1 cargo bench -p spx-tests --bench allocs`.

mod common;

use common::{Doc, DECODERS, ENCODERS};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The system allocator, counting allocations (`alloc`, `alloc_zeroed` and
/// `realloc` each count one) and the bytes they asked for.
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);

// SAFETY: every method forwards its arguments unchanged to `System`, which
// upholds the `GlobalAlloc` contract; the counters are plain atomics and
// never allocate. (Besides the codec's SIMD kernels, schema/src/codec/simd.rs,
// the only `unsafe` in the workspace, confined to this measurement binary:
// implementing `GlobalAlloc` cannot be done without it.)
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Relaxed);
        BYTES.fetch_add(layout.size() as u64, Relaxed);
        // SAFETY: the caller's contract for `alloc` is passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Relaxed);
        BYTES.fetch_add(layout.size() as u64, Relaxed);
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was returned by `System` for this `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Relaxed);
        BYTES.fetch_add(new_size as u64, Relaxed);
        // SAFETY: `ptr` was returned by `System` for `layout`; the caller
        // guarantees `new_size` is valid.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations and bytes of one call of `f` (after one warm-up call, so
/// that lazily built statics such as the generated code's schema are not
/// counted).
fn count(f: &dyn Fn(&[u8]) -> usize, input: &[u8]) -> (u64, u64) {
    assert!(f(input) > 0, "the call failed");
    let (a0, b0) = (ALLOCATIONS.load(Relaxed), BYTES.load(Relaxed));
    let r = f(input);
    let (a1, b1) = (ALLOCATIONS.load(Relaxed), BYTES.load(Relaxed));
    assert!(r > 0, "the call failed");
    (a1 - a0, b1 - b0)
}

fn main() {
    let corpus = Doc::corpus();
    for doc in &corpus {
        for name in DECODERS {
            let (n, bytes) = count(&*doc.decoder(name), &doc.bytes);
            println!("alloc decode {name} {} {n} {bytes}", doc.name);
        }
    }
    for doc in &corpus {
        for name in ENCODERS {
            let (n, bytes) = count(&*doc.encoder(name), &doc.bytes);
            println!("alloc encode {name} {} {n} {bytes}", doc.name);
        }
    }
}
