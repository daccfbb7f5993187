//! Every output the writer can produce (each tool, format, strict and list variant) parses with
//! serde_json, has its keys sorted at every level, is already in serde_json's compact encoding,
//! and holds exactly the catalog's values, rebuilt here from the catalog with `json!` by each
//! format's rules.
//!
//! The input's first two bytes pick the variant; the rest spell its request differently (field
//! order, whitespace between tokens, `\u` escapes inside strings), none of which may change a
//! byte of the answer. Each variant's answer is verified in full the first time it is seen and
//! compared byte for byte after that, so an execution is cheap and the fuzzer spends its time on
//! spellings.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::{json, Map, Value};
use std::sync::Mutex;
use tool_schema::catalog::{Scalar, Schema, Tool, Type, MODEL, TOOLS};
use tool_schema::{respond, Format, Shape};

/// Verified answers, by variant.
static VERIFIED: Mutex<Vec<(usize, usize, Vec<u8>)>> = Mutex::new(Vec::new());

fuzz_target!(|data: &[u8]| {
    let shapes: Vec<Shape> = Shape::all().collect();
    let mut bytes = data.iter().copied().chain(std::iter::repeat(0));
    let s = usize::from(bytes.next().unwrap()) % shapes.len();
    let pick = usize::from(bytes.next().unwrap()) % (TOOLS.len() + 1);
    let shape = shapes[s];
    let request = spell(pick, shape, &mut bytes);
    let mut out = Vec::new();
    if over_anthropic_strict_limits(pick, shape) {
        // The one refusal a well-formed request can meet: Anthropic strict mode's limits.
        let err = respond(request.as_bytes(), &mut out).expect_err(&request);
        assert_eq!(err.code(), "unsupported", "{request:?}: {err}");
        assert!(out.is_empty());
        return;
    }
    respond(request.as_bytes(), &mut out).unwrap_or_else(|err| panic!("{request:?}: {err}"));

    let mut verified = VERIFIED.lock().unwrap();
    match verified.iter().find(|(vs, vp, _)| (*vs, *vp) == (s, pick)) {
        Some((_, _, want)) => assert_eq!(&out, want, "{request:?} answered differently"),
        None => {
            verify(pick, shape, &out);
            verified.push((s, pick, out));
        }
    }
});

/// The request for a variant, spelled as `bytes` say: fields in some order, whitespace between
/// tokens, and some characters of each string as `\u` escapes.
fn spell(pick: usize, shape: Shape, bytes: &mut impl Iterator<Item = u8>) -> String {
    let mut fields: Vec<(&str, String)> = vec![
        (
            "op",
            if pick < TOOLS.len() {
                "tool_schema"
            } else {
                "tool_list"
            }
            .into(),
        ),
        ("format", shape.format().name().into()),
    ];
    if let Some(tool) = TOOLS.get(pick) {
        fields.push(("tool", MODEL.str(tool.name).into()));
    }
    let strict = bytes.next().unwrap() % 3; // omitted (when false), false, true
    if shape.strict() || strict > 0 {
        fields.push(("strict", shape.strict().to_string()));
    }
    let turn = usize::from(bytes.next().unwrap()) % fields.len();
    fields.rotate_left(turn);
    if bytes.next().unwrap() % 2 == 1 {
        fields.reverse();
    }
    let ws = |bytes: &mut dyn Iterator<Item = u8>| {
        ["", " ", "\t", "\n", "\r\n  "][usize::from(bytes.next().unwrap() % 5)]
    };
    let string = |text: &str, bytes: &mut dyn Iterator<Item = u8>| {
        let mut out = String::from("\"");
        for c in text.chars() {
            match bytes.next().unwrap() % 4 {
                0 => out.push_str(&format!("\\u{:04x}", c as u32)),
                1 => out.push_str(&format!("\\u{:04X}", c as u32)),
                _ => out.push(c),
            }
        }
        out + "\""
    };
    let mut request = String::from(ws(bytes)) + "{";
    for (i, (key, value)) in fields.iter().enumerate() {
        if i > 0 {
            request.push(',');
        }
        request += ws(bytes);
        request += &string(key, bytes);
        request += ws(bytes);
        request.push(':');
        request += ws(bytes);
        request += &if *key == "strict" {
            value.clone()
        } else {
            string(value, bytes)
        };
        request += ws(bytes);
    }
    request + "}" + ws(bytes)
}

/// Checks an answer in full against serde_json and the catalog.
fn verify(pick: usize, shape: Shape, out: &[u8]) {
    let expected = match TOOLS.get(pick) {
        Some(tool) => expected(tool, shape),
        None => Value::Array(TOOLS.iter().map(|tool| expected(tool, shape)).collect()),
    };
    let body = out.strip_suffix(b"\n").expect("one trailing newline");
    let parsed: Value = serde_json::from_slice(body).expect("valid JSON");
    assert_sorted(&parsed);
    assert_eq!(
        serde_json::to_vec(&parsed).unwrap(),
        body,
        "not compact, or escaped where it need not be"
    );
    assert_eq!(parsed, expected, "{pick} {shape:?}");
    if pick < TOOLS.len() {
        assert_eq!(tool_schema::writer::declaration(pick, shape), Some(body));
    }
}

fn assert_sorted(value: &Value) {
    match value {
        Value::Object(map) => {
            let keys: Vec<&String> = map.keys().collect();
            assert!(
                keys.windows(2)
                    .all(|pair| pair[0].as_bytes() < pair[1].as_bytes()),
                "unsorted keys {keys:?}"
            );
            map.values().for_each(assert_sorted);
        }
        Value::Array(items) => items.iter().for_each(assert_sorted),
        _ => {}
    }
}

/// Whether Anthropic strict mode refuses this variant: more than 20 tools in one request, or
/// more than 24 optional properties across them, counted at every depth.
fn over_anthropic_strict_limits(pick: usize, shape: Shape) -> bool {
    if !(shape.strict() && shape.format() == Format::Anthropic) {
        return false;
    }
    fn optional(schema: &Schema) -> usize {
        let properties = MODEL.properties(schema);
        let here = properties.iter().filter(|p| !p.required).count();
        let below: usize = properties
            .iter()
            .map(|p| optional(MODEL.node(p.schema)))
            .sum();
        here + below + schema.items.map_or(0, |items| optional(MODEL.node(items)))
    }
    let tools: Vec<&Tool> = match TOOLS.get(pick) {
        Some(tool) => vec![tool],
        None => TOOLS.iter().collect(),
    };
    let optional: usize = tools.iter().map(|tool| optional(MODEL.input(tool))).sum();
    tools.len() > 20 || optional > 24
}

/// The declaration the catalog and the format's rules call for, built here with `json!`
/// independently of the crate's renderer.
fn expected(tool: &Tool, shape: Shape) -> Value {
    let strict = shape.strict();
    let rules = match shape.format() {
        Format::OpenAi | Format::OpenAiResponses if strict => Rules::OpenAiStrict,
        Format::Anthropic if strict => Rules::AnthropicStrict,
        Format::Gemini => Rules::Gemini,
        Format::GeminiJsonSchema => Rules::GeminiJson,
        _ => Rules::Plain,
    };
    let schema = node(MODEL.input(tool), rules, Place::Root);
    let (name, description) = (MODEL.str(tool.name), MODEL.str(tool.description));
    let mut value = match shape.format() {
        Format::OpenAi => {
            json!({"function": {"description": description, "name": name, "parameters": schema}, "type": "function"})
        }
        Format::OpenAiResponses => {
            json!({"description": description, "name": name, "parameters": schema, "strict": strict, "type": "function"})
        }
        Format::Anthropic => {
            json!({"description": description, "input_schema": schema, "name": name})
        }
        Format::Gemini if MODEL.input(tool).properties.len == 0 => {
            json!({"description": description, "name": name})
        }
        Format::Gemini => json!({"description": description, "name": name, "parameters": schema}),
        Format::GeminiJsonSchema if MODEL.input(tool).properties.len == 0 => {
            json!({"description": description, "name": name})
        }
        Format::GeminiJsonSchema => {
            json!({"description": description, "name": name, "parametersJsonSchema": schema})
        }
        Format::Mcp => json!({
            "annotations": {
                "destructiveHint": tool.hints.destructive,
                "idempotentHint": tool.hints.idempotent,
                "openWorldHint": tool.hints.open_world,
                "readOnlyHint": tool.hints.read_only,
            },
            "description": description, "inputSchema": schema, "name": name,
        }),
    };
    match shape.format() {
        Format::OpenAi if strict => value["function"]["strict"] = json!(true),
        Format::Anthropic if strict => value["strict"] = json!(true),
        _ => {}
    }
    value
}

#[derive(Clone, Copy, PartialEq)]
enum Rules {
    Plain,
    Gemini,
    GeminiJson,
    AnthropicStrict,
    OpenAiStrict,
}

#[derive(Clone, Copy, PartialEq)]
enum Place {
    Root,
    Required,
    Optional,
    Items,
}

fn scalar(value: &Scalar) -> Value {
    match *value {
        Scalar::String(text) => json!(MODEL.str(text)),
        Scalar::Number(number) => {
            let text = MODEL.str(number.text);
            let value: Value = serde_json::from_str(text).expect("a number");
            // The value beside the spelling is the spelling's value.
            assert_eq!(value.as_f64(), Some(number.value), "{text}");
            value
        }
        Scalar::Boolean(flag) => json!(flag),
        Scalar::Null => Value::Null,
        Scalar::Json(text) => serde_json::from_str(MODEL.str(text)).expect("canonical JSON"),
    }
}

/// One schema node by issue 10's table: OpenAI strict closes every object, requires every
/// property, makes optional ones nullable (type and enum) and drops default, minLength and
/// maxLength; Anthropic strict closes every object and drops minimum, maximum, minLength,
/// maxLength, maxItems and a minItems above 1; Gemini drops additionalProperties, and an enum
/// but on a string; Gemini's JSON Schema drops default, minLength and maxLength, and an enum
/// of anything but strings and numbers.
fn node(schema: &Schema, rules: Rules, place: Place) -> Value {
    let openai = rules == Rules::OpenAiStrict;
    let anthropic = rules == Rules::AnthropicStrict;
    let gemini_json = rules == Rules::GeminiJson;
    let nullable = openai && place == Place::Optional;
    let mut out = Map::new();
    let ty = schema.ty.as_str();
    out.insert(
        "type".into(),
        if nullable {
            json!([ty, "null"])
        } else {
            json!(ty)
        },
    );
    if let Some(text) = schema.description {
        out.insert("description".into(), json!(MODEL.str(text)));
    }
    if let (Some(value), false) = (&MODEL.annotations(schema).default, openai || gemini_json) {
        out.insert("default".into(), scalar(value));
    }
    // Gemini's `enum` is a list of strings, on a string (catalogs.md): any other is dropped.
    let enumeration = schema
        .enumeration
        .filter(|_| rules != Rules::Gemini || schema.ty == Type::String)
        .filter(|&values| {
            !gemini_json
                || (MODEL.values(values).iter())
                    .all(|value| matches!(value, Scalar::String(_) | Scalar::Number(_)))
        });
    if let Some(values) = enumeration {
        let mut list: Vec<Value> = MODEL.values(values).iter().map(scalar).collect();
        if nullable {
            list.push(Value::Null);
        }
        out.insert("enum".into(), Value::Array(list));
    }
    if schema.ty == Type::Object {
        let props = MODEL.properties(schema);
        if schema.has_properties || place == Place::Root || openai || anthropic {
            let mut map = Map::new();
            for p in props {
                let place = if p.required {
                    Place::Required
                } else {
                    Place::Optional
                };
                map.insert(
                    MODEL.str(p.name).into(),
                    node(MODEL.node(p.schema), rules, place),
                );
            }
            out.insert("properties".into(), Value::Object(map));
        }
        if openai {
            out.insert(
                "required".into(),
                json!(props.iter().map(|p| MODEL.str(p.name)).collect::<Vec<_>>()),
            );
        } else if schema.has_required {
            let required: Vec<&str> = props
                .iter()
                .filter(|p| p.required)
                .map(|p| MODEL.str(p.name))
                .collect();
            out.insert("required".into(), json!(required));
        }
        let closed = match rules {
            Rules::Plain | Rules::GeminiJson => schema
                .additional
                .is_some_and(|extra| MODEL.node(extra).boolean == Some(false)),
            Rules::Gemini => false,
            Rules::AnthropicStrict | Rules::OpenAiStrict => true,
        };
        if closed {
            out.insert("additionalProperties".into(), json!(false));
        }
    }
    if let Some(items) = schema.items {
        out.insert("items".into(), node(MODEL.node(items), rules, Place::Items));
    }
    let counts = [
        (
            "minItems",
            MODEL.rare(schema).min_items,
            !anthropic || MODEL.rare(schema).min_items <= Some(1),
        ),
        ("maxItems", MODEL.rare(schema).max_items, !anthropic),
        (
            "minLength",
            MODEL.rare(schema).min_length,
            !anthropic && !openai && !gemini_json,
        ),
        (
            "maxLength",
            MODEL.rare(schema).max_length,
            !anthropic && !openai && !gemini_json,
        ),
    ];
    for (key, value, kept) in counts {
        if let (Some(count), true) = (value, kept) {
            out.insert(key.into(), json!(count));
        }
    }
    for (key, value) in [
        ("minimum", MODEL.rare(schema).minimum),
        ("maximum", MODEL.rare(schema).maximum),
    ] {
        if let (Some(number), false) = (value, anthropic) {
            out.insert(key.into(), scalar(&Scalar::Number(number)));
        }
    }
    Value::Object(out)
}
