//! `call_delta` against `check_call`: random streams, split and interleaved at random, valid
//! and broken.
//!
//! The input's bytes choose a format, up to three calls (a tool of the catalog or a name it
//! lacks, an id or none, arguments from the input's own text, so JSON, broken JSON, escapes
//! and non-ASCII alike), each call's arguments cut into fragments at random char boundaries,
//! the order in which the calls' events interleave, two streams sharing the process, and
//! whether the stream is cut (OpenAI's `length`, Anthropic's `message_stop` without the
//! block's stop, the Responses API's `response.incomplete`). Then:
//!
//! - every call is settled exactly once, by the end of its stream;
//! - a call completed whole gets, byte for byte, what `check_call` answers for the same call
//!   sent whole (its envelope built here, as a harness would);
//! - a call settled before it completed (an unknown tool, when its name is whole) is `ok:false`,
//!   and so is `check_call`'s answer for the whole call: an early verdict never disagrees;
//! - a call that never got its name or id, or was cut, is `missing_name`, `missing_id` or
//!   `truncated_arguments` (check_call's own code for arguments cut mid-value, when it is
//!   check_call's verdict), and never `ok:true`;
//! - each stream is freed at its end event, and no event is refused (these are well-formed
//!   events within the limits);
//! - for half the inputs, a second stream gets the same events interleaved with the first's,
//!   and the first's verdicts are still those above.
//!
//! The events come as providers send them: an Anthropic call's input in pieces, whole in its
//! `content_block_start`, or whole in `message_start`'s content, with a server tool's block
//! (its input in pieces too) before the calls, which must settle nothing; a Responses call's
//! arguments in deltas or only in its finished item (and `function_call_arguments.done`).
//! For some inputs an event of another format is sent midway: it is `wrong_format`, and
//! changes nothing.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use tool_schema::catalog::NAMES;
use tool_schema::CallStreams;

const FORMATS: [&str; 4] = ["openai", "openai_responses", "anthropic", "gemini"];

/// A JSON string literal of `text`: serde_json's.
fn literal(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&first, rest)) => {
                self.0 = rest;
                first
            }
            None => 0,
        }
    }
    fn take(&mut self, n: usize) -> &[u8] {
        let n = n.min(self.0.len());
        let (taken, rest) = self.0.split_at(n);
        self.0 = rest;
        taken
    }
}

/// One call to stream.
struct Planned {
    index: u64,
    id: Option<String>,
    name: Option<String>,
    arguments: String,
    pieces: Vec<String>,
    /// How its arguments travel, beside the pieces of every format.
    mode: Mode,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Pieces,
    /// Whole where the call starts: Anthropic's `input` in `content_block_start`, or only in
    /// the Responses API's finished item (and `function_call_arguments.done`).
    Whole,
    /// Anthropic: the block whole in `message_start`'s content.
    MessageStart,
}

fn events_of(format: &str, call: &Planned) -> Vec<String> {
    let index = call.index;
    let mut events = Vec::new();
    match format {
        "openai" => {
            let mut first = format!(r#"{{"index":{index}"#);
            if let Some(id) = &call.id {
                first.push_str(&format!(r#","id":{},"type":"function""#, literal(id)));
            }
            match &call.name {
                Some(name) => first.push_str(&format!(
                    r#","function":{{"name":{},"arguments":""}}}}"#,
                    literal(name)
                )),
                None => first.push('}'),
            }
            events.push(first);
            for piece in &call.pieces {
                events.push(format!(
                    r#"{{"index":{index},"function":{{"arguments":{}}}}}"#,
                    literal(piece)
                ));
            }
            events
                .into_iter()
                .map(|fragment| {
                    format!(
                        r#"{{"choices":[{{"index":0,"delta":{{"tool_calls":[{fragment}]}},"finish_reason":null}}]}}"#
                    )
                })
                .collect()
        }
        "openai_responses" if call.mode == Mode::Whole => {
            let item = responses_item(call);
            let arguments = literal(&call.arguments);
            let done = item.replacen(
                r#""arguments":"""#,
                &format!(r#""arguments":{arguments}"#),
                1,
            );
            vec![
                format!(
                    r#"{{"type":"response.output_item.added","item":{item},"output_index":{index}}}"#
                ),
                format!(
                    r#"{{"type":"response.function_call_arguments.done","arguments":{arguments},"output_index":{index}}}"#
                ),
                format!(
                    r#"{{"type":"response.output_item.done","item":{done},"output_index":{index}}}"#
                ),
            ]
        }
        "openai_responses" => {
            let item = responses_item(call);
            events.push(format!(
                r#"{{"type":"response.output_item.added","item":{item},"output_index":{index}}}"#
            ));
            for piece in &call.pieces {
                events.push(format!(
                    r#"{{"type":"response.function_call_arguments.delta","delta":{},"output_index":{index}}}"#,
                    literal(piece)
                ));
            }
            let done = item.replacen(
                r#""arguments":"""#,
                &format!(r#""arguments":{}"#, literal(&call.arguments)),
                1,
            );
            events.push(format!(
                r#"{{"type":"response.output_item.done","item":{done},"output_index":{index}}}"#
            ));
            events
        }
        "anthropic" if call.mode != Mode::Pieces => {
            let mut block = format!(r#"{{"type":"tool_use","input":{}"#, call.arguments);
            if let Some(id) = &call.id {
                block.push_str(&format!(r#","id":{}"#, literal(id)));
            }
            if let Some(name) = &call.name {
                block.push_str(&format!(r#","name":{}"#, literal(name)));
            }
            block.push('}');
            if call.mode == Mode::MessageStart {
                // The call is content block 1, after a text block.
                return vec![format!(
                    r#"{{"type":"message_start","message":{{"id":"msg_1","type":"message","role":"assistant","content":[{{"type":"text","text":""}},{block}]}}}}"#
                )];
            }
            vec![
                format!(
                    r#"{{"type":"content_block_start","index":{index},"content_block":{block}}}"#
                ),
                format!(r#"{{"type":"content_block_stop","index":{index}}}"#),
            ]
        }
        "anthropic" => {
            let mut block = String::from(r#"{"type":"tool_use","input":{}"#);
            if let Some(id) = &call.id {
                block.push_str(&format!(r#","id":{}"#, literal(id)));
            }
            if let Some(name) = &call.name {
                block.push_str(&format!(r#","name":{}"#, literal(name)));
            }
            block.push('}');
            events.push(format!(
                r#"{{"type":"content_block_start","index":{index},"content_block":{block}}}"#
            ));
            for piece in &call.pieces {
                events.push(format!(
                    r#"{{"type":"content_block_delta","index":{index},"delta":{{"type":"input_json_delta","partial_json":{}}}}}"#,
                    literal(piece)
                ));
            }
            events.push(format!(
                r#"{{"type":"content_block_stop","index":{index}}}"#
            ));
            events
        }
        _ => {
            // Gemini: the call whole, its args an object when the text is one.
            let args: Value = match serde_json::from_str(&call.arguments) {
                Ok(value @ Value::Object(_)) => value,
                _ => Value::Object(Default::default()),
            };
            let name = call.name.clone().unwrap_or_default();
            vec![format!(
                r#"{{"candidates":[{{"content":{{"parts":[{{"functionCall":{{"name":{},"args":{args}}}}}],"role":"model"}},"index":0}}]}}"#,
                literal(&name)
            )]
        }
    }
}

/// A Responses `function_call` item for `call`, its arguments `""`.
fn responses_item(call: &Planned) -> String {
    let mut item = String::from(r#"{"type":"function_call","arguments":"""#);
    if let Some(id) = &call.id {
        item.push_str(&format!(r#","call_id":{}"#, literal(id)));
    }
    if let Some(name) = &call.name {
        item.push_str(&format!(r#","name":{}"#, literal(name)));
    }
    item.push('}');
    item
}

/// What `check_call` says of the call sent whole, without its newline; `None` when the
/// envelope cannot be built (no name or no id), or, for Anthropic, the arguments are not JSON
/// (its `input` is a value in place).
fn whole(format: &str, call: &Planned) -> Option<String> {
    let name = call.name.as_ref()?;
    let envelope = match format {
        "openai" => format!(
            r#"{{"id":{},"type":"function","function":{{"name":{},"arguments":{}}}}}"#,
            literal(call.id.as_ref()?),
            literal(name),
            literal(&call.arguments)
        ),
        "openai_responses" => format!(
            r#"{{"type":"function_call","call_id":{},"name":{},"arguments":{}}}"#,
            literal(call.id.as_ref()?),
            literal(name),
            literal(&call.arguments)
        ),
        "anthropic" => {
            let input = if call.arguments.is_empty() {
                "{}"
            } else {
                &call.arguments
            };
            serde_json::from_str::<Value>(input).ok()?;
            format!(
                r#"{{"type":"tool_use","id":{},"name":{},"input":{input}}}"#,
                literal(call.id.as_ref()?),
                literal(name)
            )
        }
        _ => {
            let args: Value = match serde_json::from_str(&call.arguments) {
                Ok(value @ Value::Object(_)) => value,
                _ => Value::Object(Default::default()),
            };
            format!(r#"{{"name":{},"args":{args}}}"#, literal(name))
        }
    };
    let request = format!(r#"{{"op":"check_call","format":"{format}","call":{envelope}}}"#);
    let mut out = Vec::new();
    tool_schema::respond(request.as_bytes(), &mut out).ok()?;
    out.pop();
    Some(String::from_utf8(out).unwrap())
}

/// Which calls an event completes.
#[derive(Clone, Copy)]
enum Completes {
    None,
    Call(usize),
    All,
}

fuzz_target!(|data: &[u8]| {
    let mut input = Bytes(data);
    let choice = input.byte();
    let format = FORMATS[usize::from(choice) % FORMATS.len()];
    let cut = choice & 0x80 != 0 && format != "gemini";
    let count = 1 + usize::from(input.byte() % 3);
    let mut calls = Vec::new();
    for n in 0..count {
        let flags = input.byte();
        let name = match flags % 8 {
            0 => None,
            1 => Some(String::from("no_such_tool")),
            k => Some(NAMES[usize::from(k) % NAMES.len()].to_string()),
        };
        let id = (flags & 0x08 == 0 || format == "gemini").then(|| format!("c{n}"));
        let id = if format == "gemini" { None } else { id };
        let len = usize::from(input.byte());
        let arguments = String::from_utf8_lossy(input.take(len)).into_owned();
        let mut pieces = Vec::new();
        let mut rest = arguments.as_str();
        while !rest.is_empty() {
            let mut at = (usize::from(input.byte()) % 16 + 1).min(rest.len());
            while !rest.is_char_boundary(at) {
                at += 1;
            }
            pieces.push(rest[..at].to_string());
            rest = &rest[at..];
        }
        // Sparse indices, as Anthropic's text blocks leave them.
        let index = if format == "openai" {
            n as u64
        } else {
            2 * n as u64 + 1
        };
        // Whole input in place needs a JSON object (that is not empty: an empty one is a
        // start like any other); message_start holds the first call, content block 1.
        let object = matches!(
            serde_json::from_str::<Value>(&arguments),
            Ok(Value::Object(members)) if !members.is_empty()
        );
        let mode = match (format, flags >> 4 & 3) {
            ("anthropic", 1) if object => Mode::Whole,
            ("anthropic", 2) if object && n == 0 => Mode::MessageStart,
            ("openai_responses", 1) => Mode::Whole,
            _ => Mode::Pieces,
        };
        calls.push(Planned {
            index,
            id,
            name,
            arguments,
            pieces,
            mode,
        });
    }
    let mut queues: Vec<Vec<String>> = calls.iter().map(|call| events_of(format, call)).collect();
    // Before the calls, for some inputs, a server tool's block at index 0 (which no call
    // has), its input in pieces: Anthropic runs it, and it settles nothing.
    let server_tool = format == "anthropic" && choice & 0x20 != 0;
    let server_events = [
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"query\":"}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\"x\"}"}}"#,
        r#"{"type":"content_block_stop","index":0}"#,
    ];
    // Midway, for some inputs, an event of another format.
    let wrong_event = (choice & 0x10 != 0).then_some(match format {
        "anthropic" => r#"{"choices":[{"index":0,"delta":{}}]}"#,
        _ => r#"{"type":"content_block_stop","index":0}"#,
    });
    // Interleave the calls' events as the input says, each call's in order.
    let mut order = Vec::new();
    let mut next = vec![0; queues.len()];
    while next.iter().zip(&queues).any(|(n, q)| *n < q.len()) {
        let mut pick = usize::from(input.byte()) % queues.len();
        while next[pick] >= queues[pick].len() {
            pick = (pick + 1) % queues.len();
        }
        order.push((pick, std::mem::take(&mut queues[pick][next[pick]])));
        next[pick] += 1;
    }
    // Gemini numbers its whole calls in the order they come.
    if format == "gemini" {
        for (k, (pick, _)) in order.iter().enumerate() {
            calls[*pick].index = k as u64;
        }
    }
    // A cut stream loses each call's last event (the completing one) before its end.
    let end = match (format, cut) {
        ("openai", false) => r#"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
        ("openai", true) => r#"{"choices":[{"index":0,"delta":{},"finish_reason":"length"}]}"#,
        ("openai_responses", false) => r#"{"type":"response.completed","response":{}}"#,
        ("openai_responses", true) => r#"{"type":"response.incomplete","response":{}}"#,
        ("anthropic", _) => r#"{"type":"message_stop"}"#,
        _ => {
            r#"{"candidates":[{"content":{"parts":[{"text":""}],"role":"model"},"finishReason":"STOP","index":0}]}"#
        }
    };
    let completing: Vec<usize> = calls
        .iter()
        .map(|call| events_of(format, call).len() - 1)
        .collect();
    let streams_used: &[&str] = if choice & 0x40 != 0 {
        &["a", "b"]
    } else {
        &["a"]
    };
    let mut seen = vec![0; calls.len()];
    let mut streams = CallStreams::default();
    let mut verdicts: Vec<Vec<(u64, Value, bool)>> = vec![Vec::new(); calls.len()];
    let send = |streams: &mut CallStreams, stream: &str, event: &str, completes: Completes| {
        let request = format!(
            r#"{{"op":"call_delta","format":"{format}","stream":"{stream}","event":{event}}}"#
        );
        let mut out = Vec::new();
        streams
            .respond(request.as_bytes(), &mut out)
            .unwrap_or_else(|err| panic!("{request}: {err}"));
        let answer: Value = serde_json::from_slice(&out).unwrap();
        answer["calls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|settled| {
                let index = settled["index"].as_u64().unwrap();
                // On time: at the event that completes this call, or at the stream's end.
                let on_time = match completes {
                    Completes::Call(pick) => calls[pick].index == index,
                    Completes::All => true,
                    Completes::None => false,
                };
                (index, settled["verdict"].clone(), on_time)
            })
            .collect::<Vec<_>>()
    };
    if server_tool {
        for stream in streams_used {
            for event in server_events {
                let settled = send(&mut streams, stream, event, Completes::None);
                assert!(settled.is_empty(), "a server tool settled {settled:?}");
            }
        }
    }
    let wrong_at = order.len() / 2;
    for (at, (pick, event)) in order.iter().enumerate() {
        if let (Some(wrong), true) = (wrong_event, at == wrong_at) {
            let open = streams.open();
            let request = format!(
                r#"{{"op":"call_delta","format":"{format}","stream":"a","event":{wrong}}}"#
            );
            let err = streams
                .respond(request.as_bytes(), &mut Vec::new())
                .unwrap_err();
            assert_eq!(err.code(), "wrong_format", "{request}: {err}");
            assert_eq!(streams.open(), open, "a refused event changed nothing");
        }
        let last = seen[*pick] == completing[*pick];
        seen[*pick] += 1;
        // A message_start is the message itself: never cut.
        let whole_message = calls[*pick].mode == Mode::MessageStart;
        if cut && last && format != "openai" && !whole_message {
            continue;
        }
        // For some inputs the same events go to a second stream too, which must not mix
        // with the first.
        for stream in streams_used {
            // OpenAI has no event that completes one call: its finish chunk ends them all.
            let completes = match last && format != "openai" {
                true => Completes::Call(*pick),
                false => Completes::None,
            };
            for settled in send(&mut streams, stream, event, completes) {
                if *stream == "a" {
                    let call = calls.iter().position(|c| c.index == settled.0).unwrap();
                    verdicts[call].push(settled);
                }
            }
        }
    }
    if format != "gemini" || !calls.is_empty() {
        for stream in streams_used {
            for settled in send(&mut streams, stream, end, Completes::All) {
                if *stream == "a" {
                    let call = calls.iter().position(|c| c.index == settled.0).unwrap();
                    verdicts[call].push(settled);
                }
            }
        }
    }
    assert_eq!(streams.open(), 0, "every stream freed at its end");
    for (call, got) in calls.iter().zip(&verdicts) {
        assert_eq!(got.len(), 1, "settled once: {got:?}");
        let (verdict, on_time) = (&got[0].1, got[0].2);
        let ok = verdict["ok"].as_bool().unwrap();
        let code = verdict["errors"][0]["code"].as_str().unwrap_or("");
        let expected = whole(format, call);
        match code {
            "missing_name" => assert!(call.name.is_none()),
            "missing_id" => assert!(call.id.is_none() && format != "gemini"),
            // The stream's own, for a call cut; check_call has the same code for arguments
            // that end in the middle of a value, which is compared below.
            "truncated_arguments" if cut && verdict.get("reply").is_none() => {}
            _ => {
                let Some(expected) = expected else {
                    // Anthropic arguments that are not JSON: check_call cannot take the call
                    // whole, and the stream's verdict must refuse it.
                    assert!(!ok, "{verdict}");
                    continue;
                };
                let expected_value: Value = serde_json::from_str(&expected).unwrap();
                if on_time {
                    assert_eq!(verdict.to_string(), expected_value.to_string());
                } else {
                    // Early: an unknown tool, an argument certainly wrong, JSON that can no
                    // longer be JSON. It never disagrees with the call judged whole.
                    assert!(!ok, "early and ok: {verdict}");
                    assert_eq!(expected_value["ok"], false, "{verdict} / {expected}");
                }
            }
        }
        if code == "missing_name" || code == "missing_id" || code == "truncated_arguments" {
            assert!(!ok);
        }
    }
});
