//! A global allocator that counts, for the run-time catalog's bench and example
//! (`benches/runtime.rs`, `examples/runtime_load.rs`), included by path from `benches/common/`, where cargo looks for no bench: bytes live on the heap
//! (what a loaded catalog keeps) and allocations made.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

pub struct Counting;
/// Bytes live on the heap.
pub static LIVE: AtomicIsize = AtomicIsize::new(0);
/// Allocations made.
pub static CALLS: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every call is passed to the system allocator unchanged; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        CALLS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    /// Passed on as a `realloc`, as the program's own allocator gets it: the trait's default
    /// makes a new block and copies, which a growing `Vec` at the heap's top never pays. Counted
    /// as one allocation, as that default counted it.
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let grown = unsafe { System.realloc(ptr, layout, new_size) };
        if !grown.is_null() {
            LIVE.fetch_add(
                new_size as isize - layout.size() as isize,
                Ordering::Relaxed,
            );
            CALLS.fetch_add(1, Ordering::Relaxed);
        }
        grown
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;
