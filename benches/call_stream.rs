//! The cost of a streamed call against the same call checked whole (issue 18): a write_file of
//! 2 KB of real source (the first 2 KB of this crate's `src/lib.rs`) streamed in 200
//! fragments, every event through `CallStreams::respond`, against one `check_call` of the call
//! assembled. OpenAI's chunks carry their recorded wrapper (`id`, `object`, `created`, `model`,
//! `system_fingerprint`, `logprobs`, as in `tests/streams/openai_multiply.jsonl`); Anthropic's
//! events are smaller.
//!
//! `cargo bench --bench call_stream`. The two sides run alternately, SAMPLES rounds, each a
//! batch of ITERS; medians are compared. Every batch's last answer is checked: the stream's
//! verdict must equal check_call's, byte for byte, so neither side can be optimised away or
//! go wrong.
//!
//! A third column is a floor under any reader of these events: finding every `"` and `\` in
//! them, a word at a time (as `memchr` does, in portable code), and nothing else. Every JSON
//! reader must at least know where each string ends; this one parses nothing, and keeps no
//! state. Its count is checked against a byte-at-a-time count on every sample.

use std::hint::black_box;
use std::time::Instant;
use tool_schema::{respond, CallStreams};

const SAMPLES: usize = 31;
const ITERS: usize = 200;
const FRAGMENTS: usize = 200;

fn literal(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The bytes of a word equal to `byte`, as the high bit of each: exact, with no carries between
/// bytes (the test for a zero byte that `memchr`'s portable code names `has_zero_byte`, made
/// exact so that the bits can be counted).
fn equal_bytes(word: u64, byte: u8) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let zeroed = word ^ (u64::from(byte) * 0x0101_0101_0101_0101);
    !(((zeroed & LOW7) + LOW7) | zeroed | LOW7)
}

/// How many `"` and `\` the events hold: the floor.
fn delimiters(events: &[String]) -> usize {
    let mut count = 0;
    for event in events {
        let bytes = event.as_bytes();
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let word = u64::from_le_bytes(word.try_into().unwrap());
            count += (equal_bytes(word, b'"') | equal_bytes(word, b'\\')).count_ones() as usize;
        }
        count += words
            .remainder()
            .iter()
            .filter(|&&byte| byte == b'"' || byte == b'\\')
            .count();
    }
    count
}

fn main() {
    let source =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/lib.rs")).unwrap();
    let mut end = 2048.min(source.len());
    while !source.is_char_boundary(end) {
        end -= 1;
    }
    let arguments = format!(
        r#"{{"path":"src/lib.rs","content":{}}}"#,
        literal(&source[..end])
    );
    // 200 fragments at char boundaries.
    let mut pieces = Vec::new();
    let step = arguments.len().div_ceil(FRAGMENTS);
    let mut at = 0;
    while at < arguments.len() {
        let mut next = (at + step).min(arguments.len());
        while !arguments.is_char_boundary(next) {
            next += 1;
        }
        pieces.push(&arguments[at..next]);
        at = next;
    }
    let wrap = |delta: &str, finish: &str| {
        format!(
            r#"{{"op":"call_delta","format":"openai","stream":"s","event":{{"id":"chatcmpl-BWlJBDk2xe66hjff60joVYpXi1hh4","object":"chat.completion.chunk","created":1747148049,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":"fp_dbaca60df0","choices":[{{"index":0,"delta":{delta},"logprobs":null,"finish_reason":{finish}}}],"usage":null}}}}"#
        )
    };
    let mut openai = vec![wrap(
        r#"{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"write_file","arguments":""}}],"refusal":null}"#,
        "null",
    )];
    for piece in &pieces {
        openai.push(wrap(
            &format!(
                r#"{{"tool_calls":[{{"index":0,"function":{{"arguments":{}}}}}]}}"#,
                literal(piece)
            ),
            "null",
        ));
    }
    openai.push(wrap("{}", r#""tool_calls""#));
    let event = |body: String| {
        format!(r#"{{"op":"call_delta","format":"anthropic","stream":"s","event":{body}}}"#)
    };
    let mut anthropic = vec![event(
        r#"{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"call_1","name":"write_file","input":{}}}"#.into(),
    )];
    for piece in &pieces {
        anthropic.push(event(format!(
            r#"{{"type":"content_block_delta","index":1,"delta":{{"type":"input_json_delta","partial_json":{}}}}}"#,
            literal(piece)
        )));
    }
    anthropic.push(event(r#"{"type":"content_block_stop","index":1}"#.into()));
    anthropic.push(event(r#"{"type":"message_stop"}"#.into()));

    for (format, events, envelope) in [
        (
            "openai",
            &openai,
            format!(
                r#"{{"id":"call_1","type":"function","function":{{"name":"write_file","arguments":{}}}}}"#,
                literal(&arguments)
            ),
        ),
        (
            "anthropic",
            &anthropic,
            format!(
                r#"{{"type":"tool_use","id":"call_1","name":"write_file","input":{arguments}}}"#
            ),
        ),
    ] {
        let request = format!(r#"{{"op":"check_call","format":"{format}","call":{envelope}}}"#);
        let mut whole = Vec::with_capacity(8192);
        respond(request.as_bytes(), &mut whole).unwrap();
        assert!(
            whole.starts_with(br#"{"arguments":"#),
            "{}",
            String::from_utf8_lossy(&whole)
        );
        let expected = format!(
            "{{\"calls\":[{{\"index\":{},\"verdict\":{}}}]}}\n",
            if format == "openai" { 0 } else { 1 },
            std::str::from_utf8(&whole[..whole.len() - 1]).unwrap()
        );
        let mut streams = CallStreams::default();
        let mut out = Vec::with_capacity(8192);
        let mut settled = Vec::new();
        let mut stream_once = |out: &mut Vec<u8>, settled: &mut Vec<u8>| {
            for event in events {
                out.clear();
                streams.respond(black_box(event.as_bytes()), out).unwrap();
                if out.len() > 13 {
                    settled.clear();
                    settled.extend_from_slice(out);
                }
            }
        };
        let whole_once = |out: &mut Vec<u8>| {
            out.clear();
            respond(black_box(request.as_bytes()), out).unwrap();
        };
        let counted: usize = events
            .iter()
            .flat_map(|event| event.bytes())
            .filter(|&byte| byte == b'"' || byte == b'\\')
            .count();
        let (mut stream_ns, mut whole_ns, mut floor_ns) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..3 {
            stream_once(&mut out, &mut settled);
            whole_once(&mut out);
        }
        for _ in 0..SAMPLES {
            let started = Instant::now();
            for _ in 0..ITERS {
                stream_once(&mut out, &mut settled);
            }
            stream_ns.push(started.elapsed().as_nanos() as f64 / ITERS as f64);
            assert_eq!(String::from_utf8_lossy(&settled), expected);
            let started = Instant::now();
            for _ in 0..ITERS {
                whole_once(&mut out);
            }
            whole_ns.push(started.elapsed().as_nanos() as f64 / ITERS as f64);
            assert_eq!(out, whole);
            let started = Instant::now();
            let mut found = 0;
            for _ in 0..ITERS {
                found = delimiters(black_box(events));
            }
            floor_ns.push(started.elapsed().as_nanos() as f64 / ITERS as f64);
            assert_eq!(found, counted);
        }
        stream_ns.sort_by(f64::total_cmp);
        whole_ns.sort_by(f64::total_cmp);
        floor_ns.sort_by(f64::total_cmp);
        let (stream, whole, floor) = (
            stream_ns[SAMPLES / 2],
            whole_ns[SAMPLES / 2],
            floor_ns[SAMPLES / 2],
        );
        let bytes: usize = events.iter().map(String::len).sum();
        println!(
            "{format}: {} events ({bytes} bytes of requests) for {} bytes of arguments: stream {:.0} ns ({:.0} ns an event), check_call whole {:.0} ns, ratio {:.1}x; floor (every \" and \\ found, nothing parsed) {:.0} ns, {:.1}x",
            events.len(),
            arguments.len(),
            stream,
            stream / events.len() as f64,
            whole,
            stream / whole,
            floor,
            floor / whole
        );
    }
}
