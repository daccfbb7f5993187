//! Times `respond` in this process for each request given as an argument, interleaved sample by
//! sample, and prints one line per request: its median and minimum nanoseconds per call.
//!
//! A helper of `benches/catalog.rs`, which builds it over several catalogs
//! (`TOOL_SCHEMA_CATALOG`) and runs the builds alternately. Every call's answer is checked
//! against the first one, by length on every call and byte for byte at the end of each sample.

use std::hint::black_box;
use std::time::Instant;

const SAMPLES: usize = 31;
const CALLS: usize = 20_000;

fn main() {
    let requests: Vec<String> = std::env::args().skip(1).collect();
    assert!(!requests.is_empty(), "usage: respond_timer REQUEST...");
    let expected: Vec<Vec<u8>> = requests
        .iter()
        .map(|request| {
            let mut out = Vec::new();
            tool_schema::respond(request.as_bytes(), &mut out)
                .unwrap_or_else(|err| panic!("{request}: {err}"));
            out
        })
        .collect();
    let mut times = vec![Vec::with_capacity(SAMPLES); requests.len()];
    let mut out = Vec::with_capacity(tool_schema::MAX_OUTPUT);
    for _ in 0..SAMPLES {
        for (i, request) in requests.iter().enumerate() {
            let request = request.as_bytes();
            let started = Instant::now();
            for _ in 0..CALLS {
                out.clear();
                tool_schema::respond(black_box(request), &mut out).unwrap();
                assert_eq!(black_box(&out).len(), expected[i].len());
            }
            times[i].push(started.elapsed().as_secs_f64() * 1e9 / CALLS as f64);
            assert_eq!(out, expected[i], "a different answer");
        }
    }
    for (request, mut times) in requests.iter().zip(times) {
        times.sort_by(f64::total_cmp);
        println!("{:.2} {:.2} {request}", times[SAMPLES / 2], times[0]);
    }
}
