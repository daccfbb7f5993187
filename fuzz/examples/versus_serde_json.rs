//! `respond` next to what a Rust user would write with serde_json: parse the request into a
//! `Value`, build the declaration with `json!`, serialize it. Both answer the same request with
//! the same bytes (checked), alternate sample by sample, and the medians' ratio is printed.
//!
//!     cd fuzz && cargo run --release --example versus_serde_json
//!
//! It lives here because the root crate has no dependencies; `fuzz/` is the one place
//! serde_json may appear.

use serde_json::{json, Value};
use std::hint::black_box;
use std::time::Instant;

const ITERS: usize = 20_000;
const SAMPLES: usize = 41;

fn with_serde_json(request: &[u8], out: &mut Vec<u8>) {
    let request: Value = serde_json::from_slice(request).unwrap();
    assert_eq!(request["op"], "tool_schema");
    assert_eq!(request["tool"], "read_file");
    // Keys in sorted order: this package enables `preserve_order`, so the literal's order is
    // the output's, as default serde_json (a sorted map) would give without being asked.
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

fn main() {
    let request = br#"{"op":"tool_schema","tool":"read_file"}"#;
    let (mut a, mut b) = (Vec::new(), Vec::new());
    with_serde_json(request, &mut a);
    tool_schema::respond(request, &mut b).unwrap();
    assert_eq!(a, b, "the two answers differ");

    let mut out = Vec::with_capacity(8192);
    let mut sample = |ours: bool| {
        let started = Instant::now();
        for _ in 0..ITERS {
            out.clear();
            if ours {
                tool_schema::respond(black_box(request), &mut out).unwrap();
            } else {
                with_serde_json(black_box(request), &mut out);
            }
            assert_eq!(black_box(&out).len(), b.len());
        }
        started.elapsed().as_nanos() as f64 / ITERS as f64
    };
    for _ in 0..5 {
        sample(false);
        sample(true);
    }
    let (mut serde, mut ours) = (Vec::new(), Vec::new());
    for _ in 0..SAMPLES {
        serde.push(sample(false));
        ours.push(sample(true));
    }
    serde.sort_by(f64::total_cmp);
    ours.sort_by(f64::total_cmp);
    let (s, o) = (serde[SAMPLES / 2], ours[SAMPLES / 2]);
    println!("serde_json parse + json! + serialize: median {s:>8.1} ns (min {:.1})", serde[0]);
    println!("tool_schema::respond:                 median {o:>8.1} ns (min {:.1})", ours[0]);
    println!("ratio of medians: {:.1}x", s / o);
}
