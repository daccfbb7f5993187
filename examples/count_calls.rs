//! Answers each request given as an argument 2,000 times through `respond`, and nothing else:
//! a loop to count instructions in, where time is too noisy to compare two builds.
//!
//! `valgrind --tool=callgrind target/release/examples/count_calls "$(cat REQUEST.json)"`, built
//! with `cargo build --release --example count_calls` (and `TOOL_SCHEMA_CATALOG=FILE` for a call
//! to another catalog's tool; `CALLS_DUMP=DIR` makes the calls bench write its requests).
//! `docs/performance.md` gives the counts it made.

const CALLS: usize = 2000;

fn main() {
    let requests: Vec<String> = std::env::args().skip(1).collect();
    assert!(!requests.is_empty(), "usage: count_calls REQUEST...");
    let mut out = Vec::with_capacity(tool_schema::MAX_OUTPUT);
    for request in &requests {
        for _ in 0..CALLS {
            out.clear();
            tool_schema::respond(std::hint::black_box(request.as_bytes()), &mut out)
                .unwrap_or_else(|err| panic!("{request}: {err}"));
        }
        // Each request's answer, once, so that the loop is not taken away.
        println!("{}", out.len());
    }
}
