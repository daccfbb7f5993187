//! Zero heap allocations: `respond` for every response and every error (formatting the message
//! included), and `serve` for a whole stream.
//!
//! A counting global allocator; the `unsafe impl` lives here, outside the crate roots, which
//! keep `forbid(unsafe_code)`. The count is per thread, so tests running beside this one do
//! not disturb it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::Write;
use tool_schema::catalog::TOOLS;
use tool_schema::{respond, serve, Shape};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is passed straight to the system allocator; counting touches only a
// thread-local `Cell` with a const initializer, which never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|count| count.set(count.get() + 1));
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

fn requests() -> Vec<Vec<u8>> {
    let mut all = Vec::new();
    for shape in Shape::all() {
        let (format, strict) = (shape.format().name(), shape.strict());
        for tool in &TOOLS {
            let request = format!(
                r#"{{"op":"tool_schema","tool":"{}","format":"{format}","strict":{strict}}}"#,
                tool.name
            );
            all.push(request.into_bytes());
        }
        all.push(
            format!(r#"{{"op":"tool_list","format":"{format}","strict":{strict}}}"#).into_bytes(),
        );
    }
    let errors: &[&[u8]] = &[
        b"",
        b"{\"op\":\"tool_schema\",\"tool\":\"read_file\"",
        b"\"\\uD800\"",
        b"\"\xFF\"",
        br#"{"op":"tool_schema","tool":"read_file"} x"#,
        b"[]",
        br#"{"op":"tool_schema","op":"tool_schema"}"#,
        br#"{"op":"tool_schema","tool":"read_file","x":1}"#,
        br#"{"op":"tool_schema"}"#,
        br#"{"op":1}"#,
        br#"{"op":"nope"}"#,
        br#"{"op":"tool_schema","tool":"a very long name that is cut short in the message because it goes on"}"#,
        br#"{"op":"tool_list","format":"nope"}"#,
        br#"{"op":"tool_list","format":"gemini","strict":true}"#,
    ];
    all.extend(errors.iter().map(|e| e.to_vec()));
    all.push(format!("{}{}", "[".repeat(65), "]".repeat(65)).into_bytes());
    all.push(vec![b' '; tool_schema::MAX_INPUT + 1]);
    all
}

#[test]
fn respond_and_serve_allocate_nothing() {
    // The counter counts: one boxed byte is one allocation.
    assert_eq!(allocations(|| drop(std::hint::black_box(Box::new(1u8)))), 1);
    let requests = requests();
    let mut codes = std::collections::BTreeSet::new();
    let mut out = Vec::with_capacity(tool_schema::MAX_OUTPUT);
    let mut message = [0u8; 1024];
    for request in &requests {
        let mut code = None;
        let count = allocations(|| {
            out.clear();
            if let Err(err) = respond(request, &mut out) {
                code = Some(err.code());
                write!(&mut message[..], "{err}").unwrap();
            }
        });
        codes.extend(code);
        assert_eq!(
            count,
            0,
            "{}",
            String::from_utf8_lossy(&request[..request.len().min(80)])
        );
    }
    assert_eq!(
        codes.len(),
        12,
        "every error code but io was exercised: {codes:?}"
    );

    // A whole stream, good and bad lines mixed, over and over: no allocation at all.
    let stream: Vec<u8> = requests
        .iter()
        .cycle()
        .take(2000)
        .flat_map(|r| [&r[..], b"\n"].concat())
        .collect();
    let mut answers = Vec::with_capacity(64 << 20);
    let count = allocations(|| serve(&mut &stream[..], &mut answers).unwrap());
    assert!(answers.len() > 100_000);
    assert_eq!(count, 0, "serve allocated");
}
