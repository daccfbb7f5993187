//! `respond` next to the two programs a Rust user would write with serde_json, each answering
//! the same request with the same bytes (checked):
//!
//! - **dynamic**: parse the request into a `Value`, build the declaration with `json!`,
//!   serialize it;
//! - **typed request**: derive `Deserialize` for the request (borrowing its strings), then
//!   `json!` as above, the way seed 001's provider-agnostic tool type holds its parameters;
//! - **typed**: derive `Deserialize` for the request and `Serialize` for the declaration, the
//!   fastest serde program we could write for this.
//!
//! Run with `RUSTFLAGS=` (empty): the repository's `.cargo/config.toml` links statically, and a
//! static-CRT flag on the host stops serde_derive's proc macro from building.
//!
//! The four alternate sample by sample, and each side's median and minimum are printed with
//! the medians' ratios.
//!
//!     cd fuzz/versus_serde_json && RUSTFLAGS= cargo run --release
//!
//! It lives under `fuzz/` because the root crate has no dependencies and `fuzz/` is the one place
//! serde_json may appear; it is a package of its own so that serde_json has its default
//! features, as a user's program would.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Instant;

const ITERS: usize = 20_000;
const SAMPLES: usize = 41;

const DESCRIPTION: &str =
    "Lee el contenido de un archivo con numeración de líneas y soporte de rangos.";
const END_LINE: &str = "Línea final inclusiva (1-indexada)";
const PATH: &str = "Ruta relativa del archivo";
const START_LINE: &str = "Línea inicial inclusiva (1-indexada)";

fn dynamic(request: &[u8], out: &mut Vec<u8>) {
    let request: Value = serde_json::from_slice(request).unwrap();
    assert_eq!(request["op"], "tool_schema");
    assert_eq!(request["tool"], "read_file");
    write_json_declaration(out);
}

fn typed_request(request: &[u8], out: &mut Vec<u8>) {
    let request: Request = serde_json::from_slice(request).unwrap();
    assert_eq!(request.op, "tool_schema");
    assert_eq!(request.tool, Some("read_file"));
    write_json_declaration(out);
}

/// The declaration built with `json!` and serialized.
fn write_json_declaration(out: &mut Vec<u8>) {
    // serde_json's default map is sorted, so the output's keys are sorted whatever the order here.
    let declaration = json!({
        "function": {
            "description": DESCRIPTION,
            "name": "read_file",
            "parameters": {
                "properties": {
                    "end_line": {"description": END_LINE, "type": "integer"},
                    "path": {"description": PATH, "type": "string"},
                    "start_line": {"description": START_LINE, "type": "integer"},
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Request<'a> {
    op: &'a str,
    tool: Option<&'a str>,
}

// Fields in sorted order, as the output's keys must be.
#[derive(Serialize)]
struct Declaration {
    function: Function,
    r#type: &'static str,
}

#[derive(Serialize)]
struct Function {
    description: &'static str,
    name: &'static str,
    parameters: Parameters,
}

#[derive(Serialize)]
struct Parameters {
    properties: BTreeMap<&'static str, Property>,
    required: Vec<&'static str>,
    r#type: &'static str,
}

#[derive(Serialize)]
struct Property {
    description: &'static str,
    r#type: &'static str,
}

fn typed(request: &[u8], out: &mut Vec<u8>) {
    let request: Request = serde_json::from_slice(request).unwrap();
    assert_eq!(request.op, "tool_schema");
    assert_eq!(request.tool, Some("read_file"));
    let property = |description, r#type| Property {
        description,
        r#type,
    };
    let declaration = Declaration {
        function: Function {
            description: DESCRIPTION,
            name: "read_file",
            parameters: Parameters {
                properties: BTreeMap::from([
                    ("end_line", property(END_LINE, "integer")),
                    ("path", property(PATH, "string")),
                    ("start_line", property(START_LINE, "integer")),
                ]),
                required: vec!["path"],
                r#type: "object",
            },
        },
        r#type: "function",
    };
    serde_json::to_writer(&mut *out, &declaration).unwrap();
    out.push(b'\n');
}

/// One program: answers the request into the buffer.
type Side = fn(&[u8], &mut Vec<u8>);

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
    let ours = |request: &[u8], out: &mut Vec<u8>| tool_schema::respond(request, out).unwrap();
    let sides: [(&str, Side); 4] = [
        ("serde_json dynamic (Value, json!)", dynamic),
        ("serde_json typed request, json!", typed_request),
        ("serde_json typed (derive both)", typed),
        ("tool_schema::respond", ours),
    ];
    let mut want = Vec::new();
    ours(request, &mut want);
    for (name, side) in sides {
        let mut out = Vec::new();
        side(request, &mut out);
        assert_eq!(out, want, "{name} answers differently");
    }

    let mut out = Vec::with_capacity(8192);
    let mut run = |side: Side| {
        sample(&mut || {
            out.clear();
            side(black_box(request), &mut out);
            assert_eq!(black_box(&out).len(), want.len());
        })
    };
    for _ in 0..5 {
        for (_, side) in sides {
            run(side);
        }
    }
    let mut times = sides.map(|_| Vec::with_capacity(SAMPLES));
    for _ in 0..SAMPLES {
        for (i, (_, side)) in sides.iter().enumerate() {
            times[i].push(run(*side));
        }
    }
    let medians = times.each_mut().map(|times| {
        times.sort_by(f64::total_cmp);
        times[SAMPLES / 2]
    });
    let ours = medians[sides.len() - 1];
    for (i, (name, _)) in sides.iter().enumerate() {
        print!(
            "{name:<36} median {:>8.1} ns (min {:>7.1})",
            medians[i], times[i][0]
        );
        if i < sides.len() - 1 {
            print!("  {:>5.1}x respond's median", medians[i] / ours);
        }
        println!();
    }
}
