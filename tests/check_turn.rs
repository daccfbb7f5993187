//! `check_turn`: each call of a turn gets byte for byte what `check_call` answers for that call
//! alone, in the turn's order, with the parts that are not calls skipped. Turns in each format's
//! shape as its documentation gives it (cited in `src/turn.rs`), with text, thinking and
//! reasoning between the calls and parallel calls, valid and not; over the compiled-in catalog
//! and the same file read at run time. Then the limits and the refusals.

use tool_schema::tokenizer::{Kind, Tokenizer};
use tool_schema::{respond, RuntimeCatalog};

/// A turn per format, and how many calls it holds.
const TURNS: &[(&str, &str, usize)] = &[
    (
        "openai",
        r#"{"role":"assistant","content":null,"refusal":null,"annotations":[],"tool_calls":[
            {"id":"call_a","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"src/main.rs\",\"start_line\":1}"}},
            {"id":"call_b","type":"function","function":{"name":"patch_file","arguments":"{\"path\":\"src/lib.rs\",\"old_str\":\"fn a() {\\n}\",\"new_str\":\"fn a() {\\n\\tb();\\n}\"}"}},
            {"id":"call_c","type":"function","function":{"name":"write_file","arguments":"{\"path\":7}"}}]}"#,
        3,
    ),
    (
        "openai",
        r#"{"role":"assistant","content":"Nothing to do.","tool_calls":null}"#,
        0,
    ),
    ("openai", r#"{"role":"assistant","content":"Done."}"#, 0),
    (
        "openai_responses",
        r#"[{"id":"rs_1","type":"reasoning","summary":[{"type":"summary_text","text":"Two reads."}]},
            {"id":"msg_1","type":"message","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Reading.","annotations":[]}]},
            {"id":"fc_1","type":"function_call","status":"completed","call_id":"call_1","name":"read_file","arguments":"{\"path\":\"a.txt\"}"},
            {"id":"ws_1","type":"web_search_call","status":"completed"},
            {"id":"fc_2","type":"function_call","status":"completed","call_id":"call_2","name":"read_fil","arguments":"{\"path\":\"b.txt\"}"}]"#,
        2,
    ),
    (
        "anthropic",
        r#"[{"type":"thinking","thinking":"The user wants both files.","signature":"EqQBCgIYAhIM"},
            {"type":"text","text":"I'll read both files at once."},
            {"type":"tool_use","id":"toolu_01","name":"read_file","input":{"path":"README.md"}},
            {"type":"tool_use","id":"toolu_02","name":"read_file","input":{"path":"Cargo.toml","end_line":"10"}},
            {"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"x"}},
            {"type":"tool_use","id":"toolu_03","name":"write_file","input":{"path":"é.txt","content":"ü\n"}}]"#,
        3,
    ),
    (
        "gemini",
        r#"{"role":"model","parts":[
            {"text":"Reading the file.","thought":true},
            {"functionCall":{"name":"read_file","args":{"path":"main.go"}},"thoughtSignature":"CiQB"},
            {"functionCall":{"id":"fc-2","name":"patch_file","args":{"path":"main.go","old_str":"a","new_str":1}}},
            {"text":"Then patching it."}]}"#,
        2,
    ),
];

/// The calls of a turn, as text, found here by reading the turn as JSON, independently of
/// `src/turn.rs`.
fn calls(format: &str, turn: &str) -> Vec<String> {
    let turn = parse(turn);
    let type_is = |item: &&Value, wanted: &str| {
        item.get("type").map(|value| value.text) == Some(&format!("\"{wanted}\"")[..])
    };
    let items: Vec<&Value> = match format {
        "openai" => turn
            .get("tool_calls")
            .map(|calls| calls.elements().iter().collect())
            .unwrap_or_default(),
        "openai_responses" => turn
            .elements()
            .iter()
            .filter(|item| type_is(item, "function_call"))
            .collect(),
        "anthropic" => turn
            .elements()
            .iter()
            .filter(|item| type_is(item, "tool_use"))
            .collect(),
        _ => turn
            .get("parts")
            .unwrap()
            .elements()
            .iter()
            .filter_map(|part| part.get("functionCall"))
            .collect(),
    };
    items.iter().map(|item| item.text.to_string()).collect()
}

#[test]
fn each_call_gets_check_calls_answer_for_it_alone() {
    let file = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/src/catalog.json")).unwrap();
    let catalog = RuntimeCatalog::from_bytes(&file).unwrap();
    for &(format, turn, count) in TURNS {
        for strict in [false, true] {
            if strict && format == "gemini" {
                continue;
            }
            let request = format!(
                r#"{{"op":"check_turn","format":"{format}","strict":{strict},"turn":{turn}}}"#
            );
            let calls = calls(format, turn);
            assert_eq!(calls.len(), count, "{format}: {turn}");
            let mut want = b"{\"calls\":[".to_vec();
            for (i, call) in calls.iter().enumerate() {
                let alone = format!(
                    r#"{{"op":"check_call","format":"{format}","strict":{strict},"call":{call}}}"#
                );
                let mut verdict = Vec::new();
                respond(alone.as_bytes(), &mut verdict).unwrap();
                assert_eq!(verdict.pop(), Some(b'\n'));
                if i > 0 {
                    want.push(b',');
                }
                want.extend_from_slice(&verdict);
            }
            want.extend_from_slice(b"]}\n");
            let (mut compiled, mut run_time) = (Vec::new(), Vec::new());
            respond(request.as_bytes(), &mut compiled).unwrap();
            catalog.respond(request.as_bytes(), &mut run_time).unwrap();
            assert_eq!(
                String::from_utf8_lossy(&compiled),
                String::from_utf8_lossy(&want),
                "{request}"
            );
            assert_eq!(run_time, compiled, "{request}");
        }
    }
}

#[test]
fn the_turns_hold_valid_and_invalid_calls() {
    // So that the test above compares both kinds of verdict.
    let mut out = Vec::new();
    let (_, turn, _) = TURNS[0];
    let request = format!(r#"{{"op":"check_turn","turn":{turn}}}"#);
    respond(request.as_bytes(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.matches("\"ok\":true").count(), 2, "{text}");
    assert_eq!(text.matches("\"ok\":false").count(), 1, "{text}");
    assert!(
        text.ends_with("}]}\n") && text.lines().count() == 1,
        "{text}"
    );
}

fn refused(request: &str) -> tool_schema::Error {
    let mut out = Vec::new();
    let err = respond(request.as_bytes(), &mut out).unwrap_err();
    assert!(out.is_empty(), "{request}: wrote {out:?}");
    err
}

#[test]
fn a_turn_of_more_than_128_calls_is_too_large() {
    let call = r#"{"type":"tool_use","id":"t","name":"read_file","input":{"path":"a"}}"#;
    let turn = |n: usize| vec![call; n].join(",");
    let request = |n| {
        format!(
            r#"{{"op":"check_turn","format":"anthropic","turn":[{}]}}"#,
            turn(n)
        )
    };
    let mut out = Vec::new();
    respond(request(128).as_bytes(), &mut out).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out).matches("\"ok\":true").count(),
        128
    );
    let err = refused(&request(129));
    assert_eq!(err.code(), "too_large");
    let message = err.to_string();
    let at = 48 + 128 * (call.len() + 1);
    assert!(
        message.contains(&format!("more than 128 calls (call 129 at byte {at})")),
        "{message}"
    );
}

#[test]
fn a_bad_envelope_anywhere_fails_the_turn_before_anything_is_written() {
    let cases = [
        (
            r#"{"op":"check_turn","format":"anthropic","turn":[{"type":"tool_use","id":"a","name":"read_file","input":{}},{"type":"tool_use","id":"b","name":"read_file"}]}"#,
            "missing_field",
            "call.input",
        ),
        (
            r#"{"op":"check_turn","turn":{"tool_calls":[{"id":"a","type":"function","function":{"name":"read_file","arguments":{}}}]}}"#,
            "wrong_type",
            "call.function.arguments",
        ),
        (
            r#"{"op":"check_turn","turn":{"tool_calls":"none"}}"#,
            "wrong_type",
            "\"turn.tool_calls\" must be an array or null, found a string at byte 40",
        ),
        (
            r#"{"op":"check_turn","turn":{"tool_calls":[1]}}"#,
            "wrong_type",
            "\"turn.tool_calls[]\" must be an object",
        ),
        (
            r#"{"op":"check_turn","format":"anthropic","turn":{"content":[]}}"#,
            "wrong_type",
            "field \"turn\" must be an array, found an object at byte 47",
        ),
        (
            r#"{"op":"check_turn","format":"gemini","turn":{"role":"model"}}"#,
            "missing_field",
            "turn.parts",
        ),
        (
            r#"{"op":"check_turn","format":"gemini","turn":{"parts":[{"functionCall":"read_file"}]}}"#,
            "wrong_type",
            "turn.parts[].functionCall",
        ),
        (
            r#"{"op":"check_turn","format":"anthropic","turn":["text"]}"#,
            "wrong_type",
            "\"turn[]\" must be an object",
        ),
        (
            r#"{"op":"check_turn","format":"mcp","turn":[]}"#,
            "unsupported",
            "format mcp cannot say this (byte 19): an MCP tools/call carries one call",
        ),
        (r#"{"op":"check_turn"}"#, "missing_field", "\"turn\""),
        (
            r#"{"op":"check_turn","turn":3}"#,
            "wrong_type",
            "field \"turn\" must be an object or an array, found a number at byte 26",
        ),
        (
            r#"{"op":"check_call","turn":[]}"#,
            "unknown_field",
            "expected op, format, strict, call",
        ),
        (
            r#"{"op":"check_turn","turn":{},"call":{}}"#,
            "unknown_field",
            "expected op, format, strict, turn",
        ),
        (
            r#"{"op":"check_turn","turn":{},"turn":{}}"#,
            "duplicate_field",
            "field \"turn\" appears again",
        ),
        (
            r#"{"op":"check_turn","turn":{"tool_calls":[}}"#,
            "malformed_json",
            "",
        ),
    ];
    for (request, code, message) in cases {
        let err = refused(request);
        assert_eq!(err.code(), code, "{request}: {err}");
        let text = err.to_string();
        assert!(
            text.contains(message),
            "{request}: {text:?} lacks {message:?}"
        );
    }
}

// A small JSON reader for the test's own use: every value with its source text.

struct Value<'a> {
    text: &'a str,
    members: Vec<(&'a [u8], Value<'a>)>,
    elements: Vec<Value<'a>>,
}

impl<'a> Value<'a> {
    fn get(&self, key: &str) -> Option<&Value<'a>> {
        let quoted = format!("\"{key}\"");
        let found = self
            .members
            .iter()
            .find(|(name, _)| *name == quoted.as_bytes())?;
        Some(&found.1)
    }

    fn elements(&self) -> &[Value<'a>] {
        &self.elements
    }
}

fn parse(text: &str) -> Value<'_> {
    let mut tokens = Tokenizer::new(text.as_bytes());
    let first = tokens.next().unwrap().unwrap();
    value(text, &mut tokens, first)
}

fn value<'a>(
    text: &'a str,
    tokens: &mut Tokenizer<'a>,
    first: tool_schema::tokenizer::Token<'a>,
) -> Value<'a> {
    let (mut members, mut elements) = (Vec::new(), Vec::new());
    let end = match first.kind {
        Kind::ObjectStart => loop {
            let key = tokens.next().unwrap().unwrap();
            if key.kind == Kind::ObjectEnd {
                break key.at + 1;
            }
            let start = tokens.next().unwrap().unwrap();
            members.push((key.raw, value(text, tokens, start)));
        },
        Kind::ArrayStart => loop {
            let next = tokens.next().unwrap().unwrap();
            if next.kind == Kind::ArrayEnd {
                break next.at + 1;
            }
            elements.push(value(text, tokens, next));
        },
        _ => first.at + first.raw.len(),
    };
    Value {
        text: &text[first.at..end],
        members,
        elements,
    }
}
