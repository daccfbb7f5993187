//! Every response, byte for byte, against the golden files in `tests/golden/`.
//!
//! The golden files were made from the seed's tables by an independent script (Python's
//! `json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)`), not by this crate.

mod common;

use tool_schema::catalog::TOOLS;
use tool_schema::tokenizer::{Kind, Tokenizer};
use tool_schema::{respond, MAX_OUTPUT};

fn golden(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/golden/{name}.json", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|err| panic!("{path}: {err}"))
}

fn answer(request: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    respond(request, &mut out)
        .unwrap_or_else(|err| panic!("{}: {err}", String::from_utf8_lossy(request)));
    out
}

#[test]
fn each_tool_matches_its_golden_file() {
    for tool in &TOOLS {
        let request = format!(r#"{{"op":"tool_schema","tool":"{}"}}"#, tool.name);
        assert_eq!(
            answer(request.as_bytes()),
            golden(tool.name),
            "{}",
            tool.name
        );
    }
}

#[test]
fn golden_files_are_exactly_the_catalog() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut want: Vec<String> = TOOLS
        .iter()
        .map(|tool| format!("{}.json", tool.name))
        .collect();
    want.sort();
    assert_eq!(
        files, want,
        "a golden file without a tool, or a tool without a golden file"
    );
}

#[test]
fn the_cli_prints_the_golden_bytes() {
    for tool in &TOOLS {
        let request = format!(r#"{{"op":"tool_schema","tool":"{}"}}"#, tool.name);
        let out = common::run(&[], request.as_bytes());
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.stderr.is_empty());
        assert_eq!(out.stdout, golden(tool.name), "{}", tool.name);
    }
}

#[test]
fn the_same_request_written_differently_gives_the_same_bytes() {
    let want = golden("read_file");
    let spellings: &[&[u8]] = &[
        br#"{"tool":"read_file","op":"tool_schema"}"#,
        b" \t\r\n{ \"op\" : \"tool_schema\" ,\n\t\"tool\"\r\n:\"read_file\" } \n\n",
        br#"{"op":"tool_schema","tool":"read\u005ffile"}"#,
        br#"{"\u006fp":"\u0074ool_schema","tool":"\u0072\u0065\u0061\u0064\u005F\u0066\u0069\u006C\u0065"}"#,
        br#"{"op":"tool\/schema","tool":"read_file"}"#,
    ];
    for (i, request) in spellings.iter().enumerate() {
        let mut out = Vec::new();
        let result = respond(request, &mut out);
        if i == spellings.len() - 1 {
            // "\/" decodes to "/", so that one names another op.
            assert_eq!(result.unwrap_err().code(), "unknown_op");
            assert!(out.is_empty());
        } else {
            result.unwrap();
            assert_eq!(out, want, "{}", String::from_utf8_lossy(request));
        }
    }
}

/// The output rules, checked on every response with the crate's own tokenizer: valid JSON,
/// compact, keys sorted by byte order at every level, no `\u` escapes, one trailing newline.
#[test]
fn every_response_is_canonical() {
    for tool in &TOOLS {
        let request = format!(r#"{{"op":"tool_schema","tool":"{}"}}"#, tool.name);
        let out = answer(request.as_bytes());
        assert!(
            out.len() <= MAX_OUTPUT,
            "{} is {} bytes",
            tool.name,
            out.len()
        );
        assert_canonical(&out);
    }
}

pub fn assert_canonical(out: &[u8]) {
    let text = std::str::from_utf8(out).expect("UTF-8");
    let body = text.strip_suffix('\n').expect("a trailing newline");
    assert!(!body.ends_with('\n'), "one trailing newline only");
    assert!(!body.contains("\\u"), "a \\u escape in {body}");
    let mut tokens = Tokenizer::new(body.as_bytes());
    // The last key seen in each open object; arrays push a placeholder.
    let mut last_keys: Vec<Option<&[u8]>> = Vec::new();
    let mut expected_end = 0;
    while let Some(token) = tokens.next().expect("valid JSON") {
        // Compact: each token starts right after the previous one and its ',' or ':'.
        let gap = &body.as_bytes()[expected_end..token.at];
        assert!(
            matches!(gap, b"" | b"," | b":"),
            "whitespace at byte {expected_end} of {body}"
        );
        expected_end = token.at + token.raw.len();
        match token.kind {
            Kind::ObjectStart | Kind::ArrayStart => last_keys.push(None),
            Kind::ObjectEnd | Kind::ArrayEnd => drop(last_keys.pop()),
            Kind::Key => {
                let key = &token.raw[1..token.raw.len() - 1];
                let last = last_keys.last_mut().unwrap();
                if let Some(previous) = last {
                    assert!(
                        *previous < key,
                        "key {:?} after {:?}",
                        String::from_utf8_lossy(key),
                        String::from_utf8_lossy(previous)
                    );
                }
                *last = Some(key);
            }
            _ => {}
        }
    }
    assert_eq!(expected_end, body.len());
}
