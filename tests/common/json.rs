//! JSON read with the crate's own tokenizer, for tests that read JSON files they did not write
//! (the JSON Schema Test Suite), and written back compactly.

use std::path::PathBuf;
use tool_schema::tokenizer::{decode, Kind, Tokenizer};

/// A JSON value as the tests need it: numbers kept as their literal.
#[derive(Clone, Debug)]
pub enum Value {
    Number(Vec<u8>),
    String(String),
    Bool(bool),
    Null,
    Array(Vec<Value>),
    Object(Vec<(String, Value)>),
}

pub fn string(raw: &[u8]) -> String {
    let mut out = String::new();
    decode(raw, |c| out.push(c));
    out
}

/// The value that starts with `first`, read on from `tokens`.
pub fn value(first: tool_schema::tokenizer::Token, tokens: &mut Tokenizer) -> Value {
    match first.kind {
        Kind::Number => Value::Number(first.raw.to_vec()),
        Kind::String => Value::String(string(first.raw)),
        Kind::True => Value::Bool(true),
        Kind::False => Value::Bool(false),
        Kind::Null => Value::Null,
        Kind::ArrayStart => {
            let mut items = Vec::new();
            loop {
                let token = tokens.next().expect("JSON").expect("a token");
                if token.kind == Kind::ArrayEnd {
                    return Value::Array(items);
                }
                items.push(value(token, tokens));
            }
        }
        Kind::ObjectStart => {
            let mut members = Vec::new();
            loop {
                let key = tokens.next().expect("JSON").expect("a token");
                if key.kind == Kind::ObjectEnd {
                    return Value::Object(members);
                }
                let first = tokens.next().expect("JSON").expect("a token");
                members.push((string(key.raw), value(first, tokens)));
            }
        }
        Kind::Key | Kind::ArrayEnd | Kind::ObjectEnd => panic!("not a value: {first:?}"),
    }
}

pub fn parse(text: &[u8]) -> Value {
    let mut tokens = Tokenizer::with_limit(text, text.len());
    let first = tokens.next().expect("JSON").expect("a value");
    let parsed = value(first, &mut tokens);
    assert_eq!(tokens.next(), Ok(None));
    parsed
}

pub fn get<'v>(object: &'v Value, key: &str) -> Option<&'v Value> {
    match object {
        Value::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
        _ => None,
    }
}

pub fn array(value: Option<&Value>) -> &[Value] {
    match value {
        Some(Value::Array(items)) => items,
        other => panic!("not an array: {other:?}"),
    }
}

/// `value` as compact JSON: members in their order, numbers as their literal, strings escaped
/// as JSON requires (`"`, `\\` and control characters).
pub fn write(value: &Value, out: &mut String) {
    match value {
        Value::Number(literal) => out.push_str(std::str::from_utf8(literal).unwrap()),
        Value::String(text) => quote(text, out),
        Value::Bool(flag) => out.push_str(if *flag { "true" } else { "false" }),
        Value::Null => out.push_str("null"),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(item, out);
            }
            out.push(']');
        }
        Value::Object(members) => {
            out.push('{');
            for (i, (key, member)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                quote(key, out);
                out.push(':');
                write(member, out);
            }
            out.push('}');
        }
    }
}

fn quote(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// JSON-Schema-Test-Suite's draft 2020-12 tests: `TOOL_SCHEMA_JSON_SCHEMA_TEST_SUITE`, or
/// `../shared/conformance/JSON-Schema-Test-Suite/tests/draft2020-12` beside the repository.
pub fn suite_dir() -> PathBuf {
    match std::env::var_os("TOOL_SCHEMA_JSON_SCHEMA_TEST_SUITE") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/conformance/JSON-Schema-Test-Suite/tests/draft2020-12"),
    }
}
