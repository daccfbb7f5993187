//! `check_call` next to the same work done with serde_json and the `jsonschema` crate: parse the
//! request and its envelope, parse the arguments, validate them (a validator compiled once and
//! reused, as a harness would), and write the answer with the arguments in canonical form, or
//! the errors and the reply.
//!
//! Two calls, both read_file in the openai format: a valid one (every side answers with the same
//! bytes, checked) and an invalid one with three problems (the messages differ, so only the
//! verdict is checked). The sides alternate sample by sample; each sample checks its answer.
//!
//! The serde side writes its answer three ways: with serde_jcs (RFC 8785, the canonical form
//! the issue asks for, and the crate a serde user reaches for), with serde_json's writer and a
//! formatter that gives floats ECMAScript's form (also canonical, and the fastest we could
//! write), and with serde_json's plain `to_writer`, which is not canonical (`5.0` stays `5.0`)
//! but shows the floor of the serde side.
//!
//!     cd fuzz/versus_serde_json && RUSTFLAGS= cargo run --release --bin check_call
use serde_json::{json, Value};

#[path = "../serde_side.rs"]
mod serde_side;
use serde_side::{serde_side, Writer};
use std::hint::black_box;
use std::time::Instant;

const ITERS: usize = 20_000;
const SAMPLES: usize = 41;

/// OpenAI's call ids are `call_` and 24 letters and digits.
const VALID: &[u8] = br#"{"op":"check_call","call":{"id":"call_QK5dM0iB4Yc1hN2rW7xPz9Ls","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"src/request/parse.rs\",\"start_line\":120,\"end_line\":180}"}}}"#;
const INVALID: &[u8] = br#"{"op":"check_call","call":{"id":"call_QK5dM0iB4Yc1hN2rW7xPz9Ls","type":"function","function":{"name":"read_file","arguments":"{\"path\":7,\"start_line\":\"120\",\"limit\":60}"}}}"#;

fn ours(request: &[u8], out: &mut Vec<u8>) {
    tool_schema::respond(request, out).unwrap();
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
    // read_file's schema as the crate declares it, closed: what a harness would compile.
    let mut declared = Vec::new();
    ours(
        br#"{"op":"tool_schema","tool":"read_file","format":"mcp"}"#,
        &mut declared,
    );
    let declared: Value = serde_json::from_slice(&declared).unwrap();
    let mut schema = declared["inputSchema"].clone();
    schema["additionalProperties"] = json!(false);
    let validator = jsonschema::validator_for(&schema).unwrap();

    let writers = [
        ("serde_jcs", Writer::SerdeJcs),
        ("JCS formatter", Writer::JcsFormatter),
        ("to_writer, not JCS", Writer::Plain),
    ];
    for (label, request, valid) in [("valid", VALID, true), ("invalid", INVALID, false)] {
        let mut want = Vec::new();
        ours(request, &mut want);
        let verdict = |answer: &[u8]| {
            let answer: Value = serde_json::from_slice(answer).unwrap();
            answer["ok"].as_bool().unwrap()
        };
        assert_eq!(verdict(&want), valid, "{}", String::from_utf8_lossy(&want));
        let mut lens = Vec::new();
        for (name, writer) in writers {
            let mut theirs = Vec::new();
            serde_side(&validator, writer, "read_file", request, &mut theirs);
            assert_eq!(verdict(&theirs), valid);
            if valid {
                assert_eq!(want, theirs, "{name}: the valid answers differ");
            }
            lens.push(theirs.len());
        }

        let mut out = Vec::with_capacity(8192);
        let mut times: [Vec<f64>; 4] = Default::default();
        for round in 0..SAMPLES + 5 {
            for (i, (_, writer)) in writers.iter().enumerate() {
                let time = sample(&mut || {
                    out.clear();
                    serde_side(
                        &validator,
                        *writer,
                        "read_file",
                        black_box(request),
                        &mut out,
                    );
                    assert_eq!(black_box(&out).len(), lens[i]);
                });
                if round >= 5 {
                    times[i].push(time);
                }
            }
            let time = sample(&mut || {
                out.clear();
                ours(black_box(request), &mut out);
                assert_eq!(black_box(&out).len(), want.len());
            });
            if round >= 5 {
                times[3].push(time);
            }
        }
        let medians = times.each_mut().map(|times| {
            times.sort_by(f64::total_cmp);
            times[SAMPLES / 2]
        });
        println!("{label}: check_call median {:.1} ns", medians[3]);
        for (i, (name, _)) in writers.iter().enumerate() {
            println!(
                "  serde_json + jsonschema + {name:<20} median {:>8.1} ns  {:>5.1}x",
                medians[i],
                medians[i] / medians[3]
            );
        }
    }
}
