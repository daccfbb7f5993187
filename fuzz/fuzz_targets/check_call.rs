//! `check_call`'s verdict against the `jsonschema` crate's, on arguments generated from the
//! catalog's own schemas, for every tool and every format and strict setting.
//!
//! The input's bytes drive a generator that walks a tool's schema (as the crate itself declares
//! it for MCP, which keeps every keyword of the catalog) and builds arguments that are mostly
//! right and sometimes wrong in the ways models are: a wrong type, a number for a string, a
//! bound missed by one, a value outside the enum, an unknown key, a required key left out, a
//! `null`, a fraction for an integer, JSON cut short, `""`, arguments encoded twice. The call is
//! wrapped in the format's envelope, and:
//!
//! - the verdict (`ok`) must equal the reference's: serde_json parses the arguments and
//!   jsonschema validates them against the catalog's schema with every object closed and, under
//!   OpenAI strict, every optional property nullable (`type` and `enum` gain `null`);
//! - a valid call's `arguments` must be the parsed arguments (numbers compared as numbers), with
//!   the `null`s of optional properties dropped, written in RFC 8785 form by an independent
//!   writer here (sorted keys, serde_json's string escapes, ECMAScript numbers from `ryu-js`),
//!   and checking the call again with those bytes as its arguments must give the same answer;
//! - an invalid call has 1 to 16 errors with known codes, whole JSON Pointer paths (one found
//!   in the parsed arguments, or for a missing argument its object's) and one-line messages
//!   that are not empty, and a reply whose text is those messages, one a line.
//!
//! Known differences, where the comparison is skipped and why (each documented in `docs/fuzzing.md`):
//! an integer-valued number beyond ±(2^53−1) (check_call refuses it as out of range; jsonschema
//! accepts it), and anything serde_json cannot parse but the checker can, which the generator
//! never writes (a number beyond f64, which check_call refuses). Keys given twice and unpaired
//! surrogates are not generated: serde_json keeps the last of a duplicate, and refuses
//! surrogates as check_call does.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::{json, Map, Value};
use std::sync::OnceLock;
use tool_schema::catalog::NAMES;
use tool_schema::{respond, Format, Shape};

const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// Each tool's schema as the crate declares it for MCP, and a validator for it closed, without
/// and with nullable optional properties.
struct Reference {
    schema: Value,
    plain: jsonschema::Validator,
    nullable: jsonschema::Validator,
}

fn references() -> &'static [Reference] {
    static REFERENCES: OnceLock<Vec<Reference>> = OnceLock::new();
    REFERENCES.get_or_init(|| {
        let mut out = Vec::new();
        respond(br#"{"op":"tool_list","format":"mcp"}"#, &mut out).unwrap();
        let tools: Value = serde_json::from_slice(&out).unwrap();
        tools
            .as_array()
            .unwrap()
            .iter()
            .map(|tool| {
                let schema = tool["inputSchema"].clone();
                let compile = |nullable| {
                    jsonschema::validator_for(&closed(&schema, nullable)).unwrap_or_else(|err| {
                        panic!("reference schema for {}: {err}", tool["name"])
                    })
                };
                Reference {
                    plain: compile(false),
                    nullable: compile(true),
                    schema,
                }
            })
            .collect()
    })
}

/// `schema` with every object closed and, when `nullable`, every optional property nullable.
fn closed(schema: &Value, nullable: bool) -> Value {
    let mut node = schema.clone();
    let Some(map) = node.as_object_mut() else {
        return node;
    };
    if let Some(items) = map.get("items").cloned() {
        map.insert("items".into(), closed(&items, nullable));
    }
    if map["type"] == "object" {
        map.insert("additionalProperties".into(), Value::Bool(false));
        let required: Vec<Value> = map
            .get("required")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let mut properties = Map::new();
        if let Some(Value::Object(given)) = map.get("properties") {
            for (name, property) in given {
                let mut property = closed(property, nullable);
                if nullable && !required.contains(&Value::String(name.clone())) {
                    let ty = property["type"].clone();
                    property["type"] = json!([ty, "null"]);
                    if let Some(Value::Array(values)) = property.get_mut("enum") {
                        values.push(Value::Null);
                    }
                }
                properties.insert(name.clone(), property);
            }
        }
        map.insert("properties".into(), Value::Object(properties));
    }
    node
}

/// The fuzzer's bytes, read as choices; zeros once they run out.
struct Choices<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Choices<'_> {
    fn byte(&mut self) -> u8 {
        let byte = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        byte
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            usize::from(self.byte()) % n
        }
    }

    /// True once in `n` times.
    fn one_in(&mut self, n: u8) -> bool {
        self.byte().is_multiple_of(n)
    }
}

/// Something of another type, for a model that got the type wrong.
fn stray(choices: &mut Choices<'_>) -> Value {
    match choices.below(10) {
        0 => Value::Null,
        1 => json!(true),
        2 => json!(7),
        3 => json!(2.5),
        4 => json!("5"),
        5 => json!([]),
        6 => json!({}),
        7 => json!("{\"a\":1}"),
        8 => json!(-0.0),
        _ => json!([1, "x"]),
    }
}

fn string(choices: &mut Choices<'_>, len: usize) -> String {
    const POOL: [&str; 12] = [
        "a", "é", "😀", "\"", "\\", "\n", "\u{1}", "/", "~", " ", "\u{7f}", "z",
    ];
    (0..len).map(|_| POOL[choices.below(POOL.len())]).collect()
}

/// A number near one of the node's bounds or enum values, or a usual one.
fn number(choices: &mut Choices<'_>, node: &Value, integer: bool) -> Value {
    let bound = |key: &str| node.get(key).and_then(Value::as_f64);
    let step = if integer { 1.0 } else { 0.5 };
    let picked = match choices.below(12) {
        0 => bound("minimum").map(|min| min - step),
        1 => bound("minimum"),
        2 => bound("maximum"),
        3 => bound("maximum").map(|max| max + step),
        4 => node["enum"]
            .as_array()
            .and_then(|values| values.get(choices.below(values.len())))
            .and_then(Value::as_f64),
        5 => Some(2.5),
        6 => Some(MAX_SAFE_INTEGER),
        7 => Some(1e21),
        8 => Some(1.5e-7),
        9 => Some(-3.0),
        _ => None,
    };
    let value = picked.unwrap_or_else(|| f64::from(choices.byte()) - 64.0);
    if value.fract() == 0.0 && value.abs() < 1e15 && choices.one_in(2) {
        json!(value as i64)
    } else {
        json!(value)
    }
}

/// Arguments for `node`, mostly right.
fn generate(choices: &mut Choices<'_>, node: &Value, depth: usize) -> Value {
    if choices.one_in(16) || depth > 12 {
        return stray(choices);
    }
    let values = node["enum"].as_array();
    match node["type"].as_str().unwrap_or("") {
        "string" => match values {
            Some(values) if !choices.one_in(4) => values[choices.below(values.len())].clone(),
            _ => {
                let min = node["minLength"].as_u64().unwrap_or(0) as usize;
                let max = node["maxLength"].as_u64().map(|max| max as usize);
                let len = match choices.below(6) {
                    0 => min.saturating_sub(1),
                    1 => min,
                    2 => max.unwrap_or(3),
                    3 => max.map_or(5, |max| max + 1),
                    _ => choices.below(6),
                };
                Value::String(string(choices, len.min(40)))
            }
        },
        "integer" => number(choices, node, true),
        "number" => number(choices, node, false),
        "boolean" => json!(choices.one_in(2)),
        "array" => {
            let min = node["minItems"].as_u64().unwrap_or(0) as usize;
            let max = node["maxItems"].as_u64().map(|max| max as usize);
            let len = match choices.below(5) {
                0 => min.saturating_sub(1),
                1 => min,
                2 => max.unwrap_or(2),
                3 => max.map_or(3, |max| max + 1),
                _ => choices.below(4),
            };
            let items = &node["items"];
            Value::Array(
                (0..len.min(6))
                    .map(|_| generate(choices, items, depth + 1))
                    .collect(),
            )
        }
        "object" => {
            let required = node["required"].as_array().cloned().unwrap_or_default();
            let mut members: Vec<(String, Value)> = Vec::new();
            if let Some(properties) = node["properties"].as_object() {
                for (name, property) in properties {
                    let is_required = required.contains(&Value::String(name.clone()));
                    let include = if is_required {
                        !choices.one_in(12)
                    } else {
                        choices.one_in(2)
                    };
                    if !include {
                        continue;
                    }
                    let value = if !is_required && choices.one_in(6) {
                        Value::Null
                    } else {
                        generate(choices, property, depth + 1)
                    };
                    members.push((name.clone(), value));
                }
            }
            if choices.one_in(12) {
                let name = match choices.below(3) {
                    0 => "extra".to_string(),
                    1 => "a/b~c".to_string(),
                    _ => members
                        .first()
                        .map_or("x".into(), |(name, _)| format!("{name}_")),
                };
                if !members.iter().any(|(n, _)| *n == name) {
                    members.push((name, stray(choices)));
                }
            }
            // Models write keys in any order.
            if !members.is_empty() {
                let turn = choices.below(members.len());
                members.rotate_left(turn);
                if choices.one_in(2) {
                    members.reverse();
                }
            }
            Value::Object(members.into_iter().collect())
        }
        _ => stray(choices),
    }
}

/// How the arguments travel.
enum Sent {
    /// As JSON text (the OpenAI formats); `None` is text serde_json cannot parse.
    Text(String),
    /// In place; `None` is left out.
    Value(Option<Value>),
}

fn envelope(format: Format, name: &str, sent: &Sent) -> Value {
    let text = |sent: &Sent| match sent {
        Sent::Text(text) => Value::String(text.clone()),
        Sent::Value(_) => unreachable!(),
    };
    let put = |call: &mut Value, key: &str| {
        if let Sent::Value(Some(value)) = sent {
            call[key] = value.clone();
        }
    };
    match format {
        Format::OpenAi => json!({
            "id": "call_1", "type": "function",
            "function": {"name": name, "arguments": text(sent)}
        }),
        Format::OpenAiResponses => json!({
            "type": "function_call", "id": "fc_1", "call_id": "call_1", "name": name,
            "arguments": text(sent), "status": "completed"
        }),
        Format::Anthropic => {
            let mut call = json!({"type": "tool_use", "id": "toolu_1", "name": name});
            put(&mut call, "input");
            if call.get("input").is_none() {
                call["input"] = json!({});
            }
            call
        }
        Format::Gemini => {
            let mut call = json!({"name": name, "id": "g1", "thoughtSignature": "x"});
            put(&mut call, "args");
            call
        }
        Format::Mcp => {
            let mut call = json!({"name": name, "_meta": {"progressToken": 1}});
            put(&mut call, "arguments");
            call
        }
    }
}

/// Asks about `call`. `terse` leaves out the fields that have their default values, which is
/// how the quick path's fastest reading (`{"op":"check_call","call":...}`) is reached.
fn ask(shape: Shape, call: &Value, terse: bool) -> (Vec<u8>, Value) {
    let mut request = json!({"op": "check_call"});
    if !terse || shape.format() != Format::OpenAi {
        request["format"] = json!(shape.format().name());
    }
    if !terse || shape.strict() {
        request["strict"] = json!(shape.strict());
    }
    request["call"] = call.clone();
    let request = serde_json::to_vec(&request).unwrap();
    let mut out = Vec::new();
    respond(&request, &mut out).unwrap_or_else(|err| {
        panic!("{}: {err}", String::from_utf8_lossy(&request));
    });
    assert!(out.ends_with(b"}\n") && out.iter().filter(|&&b| b == b'\n').count() == 1);
    let answer = serde_json::from_slice(&out).unwrap_or_else(|err| {
        panic!(
            "answer is not JSON ({err}): {}",
            String::from_utf8_lossy(&out)
        );
    });
    (out, answer)
}

fuzz_target!(|data: &[u8]| {
    let mut choices = Choices { bytes: data, at: 0 };
    let shapes: Vec<Shape> = Shape::all().collect();
    let shape = shapes[choices.below(shapes.len())];
    let format = shape.format();
    let tool = choices.below(NAMES.len());
    let reference = &references()[tool];
    let unknown_tool = choices.one_in(32);
    let name = if unknown_tool {
        format!("{}_x", NAMES[tool])
    } else {
        NAMES[tool].to_string()
    };
    let nullable = shape.strict() && matches!(format, Format::OpenAi | Format::OpenAiResponses);

    let mut value = generate(&mut choices, &reference.schema, 0);
    if choices.one_in(24) {
        value = stray(&mut choices);
    }
    // What the reference parses: `None` when serde_json refuses the text.
    let (sent, parsed) = if matches!(format, Format::OpenAi | Format::OpenAiResponses) {
        let mut text = serde_json::to_string(&value).unwrap();
        match choices.below(24) {
            0 => text = String::new(),
            1 => text = " \n".into(),
            2 => text = serde_json::to_string(&text).unwrap(), // encoded twice
            3 => {
                let mut cut = choices.below(text.len().max(1));
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                text.truncate(cut);
            }
            4 => text = format!(" {text}\n"),
            _ => {}
        }
        let parsed = if text.trim_matches([' ', '\n', '\t', '\r']).is_empty() {
            Some(json!({}))
        } else {
            serde_json::from_str::<Value>(&text).ok()
        };
        (Sent::Text(text), parsed)
    } else if matches!(format, Format::Gemini | Format::Mcp) && choices.one_in(16) {
        (Sent::Value(None), Some(json!({})))
    } else {
        (Sent::Value(Some(value.clone())), Some(value))
    };

    let terse = choices.one_in(2);
    let (out, answer) = ask(shape, &envelope(format, &name, &sent), terse);
    let ok = answer["ok"].as_bool().expect("ok is a boolean");
    let shown = String::from_utf8_lossy(&out);

    if unknown_tool {
        assert!(!ok, "{shown}");
        assert_eq!(answer["errors"][0]["code"], "unknown_tool", "{shown}");
        return;
    }
    let Some(parsed) = parsed else {
        assert!(!ok, "unparseable arguments accepted: {shown}");
        let code = answer["errors"][0]["code"].as_str().unwrap();
        assert!(
            matches!(
                code,
                "malformed_arguments" | "truncated_arguments" | "arguments_not_object"
            ),
            "{shown}"
        );
        return;
    };
    if beyond_safe_integers(&parsed) {
        return; // a documented difference
    }
    let validator = if nullable {
        &reference.nullable
    } else {
        &reference.plain
    };
    let expected = validator.is_valid(&parsed);
    assert_eq!(
        ok,
        expected,
        "verdicts differ on {} for {} ({}, strict {}): {shown}",
        serde_json::to_string(&parsed).unwrap(),
        name,
        format.name(),
        shape.strict()
    );

    if ok {
        assert!(answer["arguments"].is_object(), "{shown}");
        let mut want = Vec::new();
        jcs(&without_nulls(&parsed), &mut want);
        // serde_json rewrites numbers its own way, so compare the answer's own bytes: they
        // follow `{"arguments":` up to the id or name.
        let text = &out[b"{\"arguments\":".len()..];
        assert!(
            text.starts_with(&want),
            "canonical form: want {}, got {}",
            String::from_utf8_lossy(&want),
            shown
        );
        // Checking the canonical arguments again gives the same answer, byte for byte.
        let again = if matches!(format, Format::OpenAi | Format::OpenAiResponses) {
            Sent::Text(String::from_utf8(want.clone()).unwrap())
        } else {
            Sent::Value(Some(serde_json::from_slice(&want).unwrap()))
        };
        let (out_again, _) = ask(shape, &envelope(format, &name, &again), !terse);
        assert!(
            out_again == out,
            "checking the canonical arguments again: {} against {shown}",
            String::from_utf8_lossy(&out_again)
        );
    } else {
        let errors = answer["errors"].as_array().expect("errors");
        assert!((1..=16).contains(&errors.len()), "{shown}");
        for error in errors {
            let code = error["code"].as_str().unwrap();
            assert!(
                matches!(
                    code,
                    "malformed_arguments"
                        | "truncated_arguments"
                        | "arguments_not_object"
                        | "unknown_argument"
                        | "duplicate_argument"
                        | "missing_argument"
                        | "wrong_argument_type"
                        | "argument_out_of_range"
                        | "argument_not_in_enum"
                ),
                "{shown}"
            );
            let path = error["path"].as_str().unwrap();
            assert!(path.is_empty() || path.starts_with('/'), "{shown}");
            // The pointer is whole: it finds the value the error is about, or for a missing
            // argument the object it is missing from.
            let found = if code == "missing_argument" {
                let (object, _) = path.rsplit_once('/').expect("a missing argument's key");
                parsed.pointer(object).is_some_and(Value::is_object)
            } else {
                parsed.pointer(path).is_some()
            };
            assert!(found, "{path} is not in the arguments: {shown}");
            let message = error["message"].as_str().unwrap();
            assert!(!message.is_empty() && !message.contains('\n'), "{shown}");
        }
        // The reply's text is every message, one a line.
        let messages: Vec<&str> = errors
            .iter()
            .map(|error| error["message"].as_str().unwrap())
            .collect();
        let reply = &answer["reply"];
        let text = match format {
            Format::OpenAi | Format::Anthropic => &reply["content"],
            Format::OpenAiResponses => &reply["output"],
            Format::Gemini => &reply["functionResponse"]["response"]["error"],
            Format::Mcp => &reply["content"][0]["text"],
        };
        assert_eq!(text.as_str(), Some(messages.join("\n").as_str()), "{shown}");
    }
});

/// Whether any number is an integer beyond ±(2^53−1).
fn beyond_safe_integers(value: &Value) -> bool {
    match value {
        Value::Number(number) => {
            let value = number.as_f64().unwrap_or(0.0);
            value.fract() == 0.0 && value.abs() > MAX_SAFE_INTEGER
        }
        Value::Array(items) => items.iter().any(beyond_safe_integers),
        Value::Object(members) => members.values().any(beyond_safe_integers),
        _ => false,
    }
}

/// `value` without the `null` members of objects: the checker drops those it accepts.
fn without_nulls(value: &Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().map(without_nulls).collect()),
        Value::Object(members) => Value::Object(
            members
                .iter()
                .filter(|(_, value)| !value.is_null())
                .map(|(key, value)| (key.clone(), without_nulls(value)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// RFC 8785, written independently of the crate: keys sorted by UTF-16 code units, serde_json's
/// string escapes (which are JCS's), numbers as ECMAScript writes them (`ryu-js`).
fn jcs(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::Null | Value::Bool(_) | Value::String(_) => {
            serde_json::to_writer(&mut *out, value).unwrap()
        }
        Value::Number(number) => {
            let value = number.as_f64().unwrap();
            if value == 0.0 {
                out.extend_from_slice(b"0");
            } else {
                let mut buffer = ryu_js::Buffer::new();
                out.extend_from_slice(buffer.format(value).as_bytes());
            }
        }
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                jcs(item, out);
            }
            out.push(b']');
        }
        Value::Object(members) => {
            let mut keys: Vec<&String> = members.keys().collect();
            keys.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
            out.push(b'{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                serde_json::to_writer(&mut *out, key).unwrap();
                out.push(b':');
                jcs(&members[key], out);
            }
            out.push(b'}');
        }
    }
}
