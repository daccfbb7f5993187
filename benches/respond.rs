//! In-process cost of `respond`: min and median ns per call, and calls per second, for every
//! tool in every shape, every list, and every error code. std only.
//!
//! `cargo bench --bench respond`. Each case is warmed up, then timed over SAMPLES samples of
//! ITERS calls with `Instant`; the request and the output pass through `black_box`, every
//! call's result is checked (length and outcome) and every sample's last output compared in
//! full, so the work can neither be optimised away nor silently go wrong.

use std::hint::black_box;
use std::time::Instant;
use tool_schema::catalog::NAMES;
use tool_schema::{respond, Shape};

const SAMPLES: usize = 31;
const ITERS: usize = 10_000;

fn main() {
    let mut cases: Vec<(String, Vec<u8>)> = Vec::new();
    for shape in Shape::all() {
        let (format, strict) = (shape.format().name(), shape.strict());
        let label = format!("{format}{}", if strict { " strict" } else { "" });
        for tool in NAMES {
            let request = format!(
                r#"{{"op":"tool_schema","tool":"{}","format":"{format}","strict":{strict}}}"#,
                tool
            );
            cases.push((format!("{tool} {label}"), request.into_bytes()));
        }
        let request = format!(r#"{{"op":"tool_list","format":"{format}","strict":{strict}}}"#);
        cases.push((format!("tool_list {label}"), request.into_bytes()));
    }
    // The plain request, as a harness sends it most often.
    cases.push((
        "read_file (bare request)".into(),
        br#"{"op":"tool_schema","tool":"read_file"}"#.to_vec(),
    ));
    let errors: [(&str, &[u8]); 12] = [
        (
            "malformed_json",
            br#"{"op":"tool_schema","tool":"read_file"]"#,
        ),
        ("too_deep", &[b'['; 65]),
        ("too_large", &[b' '; tool_schema::MAX_INPUT + 1]),
        ("not_an_object", br#"["op","tool_schema"]"#),
        (
            "duplicate_field",
            br#"{"op":"tool_schema","op":"tool_schema"}"#,
        ),
        (
            "unknown_field",
            br#"{"op":"tool_schema","tool":"read_file","x":1}"#,
        ),
        ("missing_field", br#"{"op":"tool_schema"}"#),
        ("wrong_type", br#"{"op":"tool_schema","tool":7}"#),
        ("unknown_op", br#"{"op":"tool_scheme","tool":"read_file"}"#),
        ("unknown_tool", br#"{"op":"tool_schema","tool":"rm_rf"}"#),
        ("unknown_format", br#"{"op":"tool_list","format":"claude"}"#),
        (
            "unsupported",
            br#"{"op":"tool_list","format":"mcp","strict":true}"#,
        ),
    ];
    for (code, request) in errors {
        cases.push((format!("error: {code}"), request.to_vec()));
    }

    println!(
        "{:<34} {:>8} {:>10} {:>12}",
        "case", "min ns", "median ns", "calls/s"
    );
    for (name, request) in &cases {
        let expected = answer(request);
        if let Some(code) = name.strip_prefix("error: ") {
            assert_eq!(expected.1, Some(code), "{name}");
        }
        let mut out = Vec::with_capacity(tool_schema::MAX_OUTPUT);
        let mut sample = || {
            let started = Instant::now();
            for _ in 0..ITERS {
                out.clear();
                let ok = respond(black_box(request), &mut out).is_ok();
                assert!(black_box(&out).len() == expected.0.len() && ok == expected.1.is_none());
            }
            let elapsed = started.elapsed();
            assert_eq!(out, expected.0);
            elapsed.as_nanos() as f64 / ITERS as f64
        };
        sample(); // warm-up
        let mut ns: Vec<f64> = (0..SAMPLES).map(|_| sample()).collect();
        ns.sort_by(f64::total_cmp);
        let median = ns[SAMPLES / 2];
        println!(
            "{name:<34} {:>8.1} {median:>10.1} {:>12.0}",
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
