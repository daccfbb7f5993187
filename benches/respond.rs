//! In-process cost of `respond`: min and median ns per call, std only.
//!
//! `cargo bench --bench respond`. Each case is warmed up, then timed over SAMPLES samples of
//! ITERS calls with `Instant`; inputs and outputs pass through `black_box`, every call's output
//! length is checked and every sample's last output is compared in full, so the work cannot be
//! optimised away or silently go wrong.

use std::hint::black_box;
use std::time::Instant;
use tool_schema::respond;

const SAMPLES: usize = 51;
const ITERS: usize = 20_000;

fn main() {
    let cases: &[(&str, &[u8])] = &[
        ("read_file", br#"{"op":"tool_schema","tool":"read_file"}"#),
        ("write_file", br#"{"op":"tool_schema","tool":"write_file"}"#),
        ("patch_file", br#"{"op":"tool_schema","tool":"patch_file"}"#),
        (
            "error: unknown_tool",
            br#"{"op":"tool_schema","tool":"rm_rf"}"#,
        ),
        (
            "error: malformed_json",
            br#"{"op":"tool_schema","tool":"read_file"]"#,
        ),
        (
            "error: unknown_field",
            br#"{"op":"tool_schema","tool":"read_file","x":1}"#,
        ),
    ];
    println!(
        "{:<24} {:>10} {:>10} {:>14}",
        "case", "min ns", "median ns", "median req/s"
    );
    for &(name, request) in cases {
        let expected = answer(request);
        let mut out = Vec::with_capacity(tool_schema::MAX_OUTPUT);
        let mut run = |iters: usize| {
            let started = Instant::now();
            for _ in 0..iters {
                out.clear();
                let result = respond(black_box(request), &mut out);
                assert_eq!(black_box(&out).len(), expected.0.len());
                assert_eq!(result.is_ok(), expected.1.is_none());
            }
            let elapsed = started.elapsed();
            assert_eq!(out, expected.0);
            elapsed.as_nanos() as f64 / iters as f64
        };
        run(ITERS); // warm-up
        let mut ns: Vec<f64> = (0..SAMPLES).map(|_| run(ITERS)).collect();
        ns.sort_by(f64::total_cmp);
        let median = ns[SAMPLES / 2];
        println!(
            "{name:<24} {:>10.1} {median:>10.1} {:>14.0}",
            ns[0],
            1e9 / median
        );
    }
}

/// The output and error code the case must give every time.
fn answer(request: &[u8]) -> (Vec<u8>, Option<&'static str>) {
    let mut out = Vec::new();
    let code = respond(request, &mut out).err().map(|err| err.code());
    (out, code)
}
