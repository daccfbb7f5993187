//! `respond` next to what a Rust user would write with serde_json: parse the request into a
//! `Value`, build the declaration with `json!`, serialize it. Both answer the same request with
//! the same bytes (checked), alternate sample by sample, and the medians' ratio is printed.
//!
//!     cd fuzz/versus_serde_json && cargo run --release
//!
//! It lives under `fuzz/` because the root crate has no dependencies and `fuzz/` is the one place
//! serde_json may appear; it is a package of its own so that serde_json has its default
//! features, as a user's program would.

use serde_json::{json, Value};
use std::hint::black_box;
use std::time::Instant;

const ITERS: usize = 20_000;
const SAMPLES: usize = 41;

fn with_serde_json(request: &[u8], out: &mut Vec<u8>) {
    let request: Value = serde_json::from_slice(request).unwrap();
    assert_eq!(request["op"], "tool_schema");
    assert_eq!(request["tool"], "read_file");
    // serde_json's default map is sorted, so the output's keys are sorted whatever the order here.
    let declaration = json!({
        "function": {
            "description": "Lee el contenido de un archivo con numeración de líneas y soporte de rangos.",
            "name": "read_file",
            "parameters": {
                "properties": {
                    "end_line": {"description": "Línea final inclusiva (1-indexada)", "type": "integer"},
                    "path": {"description": "Ruta relativa del archivo", "type": "string"},
                    "start_line": {"description": "Línea inicial inclusiva (1-indexada)", "type": "integer"},
                },
                "required": ["path"],
                "type": "object",
            },
        },
        "type": "function",
    });
    serde_json::to_writer(&mut *out, &declaration).unwrap();
    out.push(b'\n');
}

/// Mean ns per call over ITERS calls.
fn sample(call: &mut dyn FnMut()) -> f64 {
    let started = Instant::now();
    for _ in 0..ITERS {
        call();
    }
    started.elapsed().as_nanos() as f64 / ITERS as f64
}

fn main() {
    let request = br#"{"op":"tool_schema","tool":"read_file"}"#;
    let (mut a, mut b) = (Vec::new(), Vec::new());
    with_serde_json(request, &mut a);
    tool_schema::respond(request, &mut b).unwrap();
    assert_eq!(a, b, "the two answers differ");

    let (mut their_out, mut our_out) = (Vec::with_capacity(8192), Vec::with_capacity(8192));
    let want = b.len();
    let mut serde_side = || {
        their_out.clear();
        with_serde_json(black_box(request), &mut their_out);
        assert_eq!(black_box(&their_out).len(), want);
    };
    let mut our_side = || {
        our_out.clear();
        tool_schema::respond(black_box(request), &mut our_out).unwrap();
        assert_eq!(black_box(&our_out).len(), want);
    };
    for _ in 0..5 {
        sample(&mut serde_side);
        sample(&mut our_side);
    }
    let (mut serde, mut ours) = (Vec::new(), Vec::new());
    for _ in 0..SAMPLES {
        serde.push(sample(&mut serde_side));
        ours.push(sample(&mut our_side));
    }
    serde.sort_by(f64::total_cmp);
    ours.sort_by(f64::total_cmp);
    let (s, o) = (serde[SAMPLES / 2], ours[SAMPLES / 2]);
    println!("serde_json parse + json! + serialize: median {s:>8.1} ns (min {:.1})", serde[0]);
    println!("tool_schema::respond:                 median {o:>8.1} ns (min {:.1})", ours[0]);
    println!("ratio of medians: {:.1}x", s / o);
}
