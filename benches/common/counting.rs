//! A global allocator that counts, for the run-time catalog's bench and example
//! (`benches/runtime.rs`, `examples/runtime_load.rs`), included by path from `benches/common/`,
//! where cargo looks for no bench: bytes live on the heap (what a loaded catalog keeps) and
//! allocations made, by the thread that made them.
//!
//! The counts are the thread's own, not atomics: an atomic add is a locked instruction, and
//! two of them a call (7,862 allocations and as many frees a load of GitHub's catalog) would
//! be timed with the load as if the program paid them.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

pub struct Counting;

thread_local! {
    /// Bytes live on the heap.
    static LIVE: Cell<isize> = const { Cell::new(0) };
    /// Allocations made.
    static CALLS: Cell<isize> = const { Cell::new(0) };
}

/// Bytes this thread has live on the heap.
pub fn live() -> isize {
    LIVE.with(Cell::get)
}

/// Allocations this thread has made.
#[allow(dead_code, reason = "the example reads it, the bench does not")]
pub fn calls() -> isize {
    CALLS.with(Cell::get)
}

/// Adds `bytes` (and an allocation, if `allocated`) to the thread's counts, unless the thread
/// is being torn down.
fn count(bytes: isize, allocated: bool) {
    let _ = LIVE.try_with(|live| live.set(live.get() + bytes));
    if allocated {
        let _ = CALLS.try_with(|calls| calls.set(calls.get() + 1));
    }
}

// SAFETY: every call is passed to the system allocator unchanged; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize, true);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as isize), false);
        unsafe { System.dealloc(ptr, layout) }
    }
    /// Passed on as a `realloc`, as the program's own allocator gets it: the trait's default
    /// makes a new block and copies, which a growing `Vec` often need not pay. Counted
    /// as one allocation, as that default counted it.
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let grown = unsafe { System.realloc(ptr, layout, new_size) };
        if !grown.is_null() {
            count(new_size as isize - layout.size() as isize, true);
        }
        grown
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;
