//! `call_delta`: streamed calls, replayed from recorded provider streams (`tests/streams/`,
//! each cited in its SOURCES.md) and from streams built here, split every way.
//!
//! The expected verdict of a completed call is always `check_call`'s own answer on the whole
//! call, asked of the same catalog by a separate request: the stream's answer must equal it
//! byte for byte.

mod common;

use tool_schema::{CallStreams, RuntimeCatalog};

fn streams_catalog() -> RuntimeCatalog {
    RuntimeCatalog::from_path("tests/streams/catalog.json".as_ref()).unwrap()
}

fn delta(format: &str, stream: &str, event: &str) -> String {
    format!(r#"{{"op":"call_delta","format":"{format}","stream":"{stream}","event":{event}}}"#)
}

/// One event through `streams`, over `catalog` or the compiled-in one: the answer line.
fn send(
    streams: &mut CallStreams,
    catalog: Option<&RuntimeCatalog>,
    request: &str,
) -> Result<String, String> {
    let mut out = Vec::new();
    let answer = match catalog {
        Some(catalog) => streams.respond_over(catalog, request.as_bytes(), &mut out),
        None => streams.respond(request.as_bytes(), &mut out),
    };
    answer.map_err(|err| format!("{}: {err}", err.code()))?;
    Ok(String::from_utf8(out).unwrap())
}

/// `check_call`'s answer to `call` (an envelope in `format`), without its newline.
fn check_call(catalog: Option<&RuntimeCatalog>, format: &str, call: &str) -> String {
    let request = format!(r#"{{"op":"check_call","format":"{format}","call":{call}}}"#);
    let mut out = Vec::new();
    match catalog {
        Some(catalog) => catalog.respond(request.as_bytes(), &mut out),
        None => tool_schema::respond(request.as_bytes(), &mut out),
    }
    .unwrap_or_else(|err| panic!("{request}: {err}"));
    let mut text = String::from_utf8(out).unwrap();
    assert_eq!(text.pop(), Some('\n'));
    text
}

fn settled(index: u64, verdict: &str) -> String {
    format!("{{\"calls\":[{{\"index\":{index},\"verdict\":{verdict}}}]}}\n")
}

const NONE: &str = "{\"calls\":[]}\n";

/// A JSON string literal of `text`.
fn literal(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[test]
fn recorded_streams_settle_their_call_once_with_check_calls_verdict() {
    let catalog = streams_catalog();
    let multiply_args = r#""{\"a\":1231,\"b\":2331}""#;
    let cases = [
        (
            "openai_multiply",
            "openai",
            0,
            13,
            format!(
                r#"{{"id":"call_1EYWDzueHEp8OsB8jJSEp7WB","type":"function","function":{{"name":"multiply","arguments":{multiply_args}}}}}"#
            ),
        ),
        (
            "responses_multiply",
            "openai_responses",
            0,
            16,
            format!(
                r#"{{"type":"function_call","call_id":"call_sVidsfFJ6zlzRpelrPkTPlpd","name":"multiply","arguments":{multiply_args}}}"#
            ),
        ),
        (
            "anthropic_get_weather",
            "anthropic",
            1,
            13,
            r#"{"type":"tool_use","id":"toolu_01NRLabsLyVHZPKxbKvkfSMn","name":"get_weather","input":{"location":"Paris"}}"#.to_string(),
        ),
        (
            "gemini_weather",
            "gemini",
            0,
            1,
            r#"{"name":"weather","args":{"location":"San Francisco"}}"#.to_string(),
        ),
    ];
    for (file, format, index, settling_line, call) in cases {
        let events = std::fs::read_to_string(format!("tests/streams/{file}.jsonl")).unwrap();
        let expected = settled(index, &check_call(Some(&catalog), format, &call));
        let mut streams = CallStreams::default();
        for (line, event) in events.lines().enumerate() {
            let answer = send(&mut streams, Some(&catalog), &delta(format, "s", event)).unwrap();
            let want = if line + 1 == settling_line {
                &expected
            } else {
                NONE
            };
            assert_eq!(&answer, want, "{file}, event {}", line + 1);
        }
        assert_eq!(
            streams.open(),
            0,
            "{file}: the stream is freed at its end event"
        );
    }
}

/// The events of one call of `tool` with `arguments` (JSON text) sent in `pieces`, in
/// `format`, as a provider streams it: start, fragments, completion, end. Index `index`.
fn stream_of(format: &str, index: u64, id: &str, tool: &str, pieces: &[&str]) -> Vec<String> {
    let mut events = Vec::new();
    match format {
        "openai" => {
            events.push(format!(
                r#"{{"choices":[{{"index":0,"delta":{{"role":"assistant","content":null,"tool_calls":[{{"index":{index},"id":"{id}","type":"function","function":{{"name":"{tool}","arguments":""}}}}]}},"finish_reason":null}}]}}"#
            ));
            for piece in pieces {
                events.push(format!(
                    r#"{{"choices":[{{"index":0,"delta":{{"tool_calls":[{{"index":{index},"function":{{"arguments":{}}}}}]}},"finish_reason":null}}]}}"#,
                    literal(piece)
                ));
            }
            events.push(
                r#"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#.into(),
            );
        }
        "openai_responses" => {
            events.push(format!(
                r#"{{"type":"response.output_item.added","item":{{"id":"fc_1","type":"function_call","status":"in_progress","arguments":"","call_id":"{id}","name":"{tool}"}},"output_index":{index},"sequence_number":2}}"#
            ));
            for piece in pieces {
                events.push(format!(
                    r#"{{"type":"response.function_call_arguments.delta","delta":{},"item_id":"fc_1","output_index":{index},"sequence_number":3}}"#,
                    literal(piece)
                ));
            }
            let whole: String = pieces.concat();
            events.push(format!(
                r#"{{"type":"response.output_item.done","item":{{"id":"fc_1","type":"function_call","status":"completed","arguments":{},"call_id":"{id}","name":"{tool}"}},"output_index":{index},"sequence_number":9}}"#,
                literal(&whole)
            ));
            events
                .push(r#"{"type":"response.completed","response":{"status":"completed"}}"#.into());
        }
        "anthropic" => {
            events.push(format!(
                r#"{{"type":"content_block_start","index":{index},"content_block":{{"type":"tool_use","id":"{id}","name":"{tool}","input":{{}}}}}}"#
            ));
            for piece in pieces {
                events.push(format!(
                    r#"{{"type":"content_block_delta","index":{index},"delta":{{"type":"input_json_delta","partial_json":{}}}}}"#,
                    literal(piece)
                ));
            }
            events.push(format!(
                r#"{{"type":"content_block_stop","index":{index}}}"#
            ));
            events.push(r#"{"type":"message_stop"}"#.into());
        }
        _ => unreachable!(),
    }
    events
}

/// `check_call`'s envelope for the same call.
fn envelope(format: &str, id: &str, tool: &str, arguments: &str) -> String {
    match format {
        "openai" => format!(
            r#"{{"id":"{id}","type":"function","function":{{"name":"{tool}","arguments":{}}}}}"#,
            literal(arguments)
        ),
        "openai_responses" => format!(
            r#"{{"type":"function_call","call_id":"{id}","name":"{tool}","arguments":{}}}"#,
            literal(arguments)
        ),
        "anthropic" => {
            format!(r#"{{"type":"tool_use","id":"{id}","name":"{tool}","input":{arguments}}}"#)
        }
        _ => unreachable!(),
    }
}

const FORMATS: [&str; 3] = ["openai", "openai_responses", "anthropic"];

/// Valid and invalid arguments for the compiled-in catalog's write_file, with escapes and
/// non-ASCII, and for an invalid one, the character at which it is certainly wrong (the
/// character after a number, which shows the number's end; a key's closing quote; the first
/// character no JSON can follow). Each invalid one has one problem, so the early verdict is
/// check_call's whole.
const WRITE_FILE_ARGUMENTS: [(&str, Option<&str>); 6] = [
    (
        "{\"path\":\"src/ñandú.rs\",\"content\":\"fn main() {\\n\\tprintln!(\\\"hé \\\\ 😀\\\");\\n}\\n\"}",
        None,
    ),
    ("{\"content\": \"x\\u00e9\\ud83d\\ude00\", \"path\": 7}", Some("}")),
    ("{\"path\":\"a\",\"content\":\"b\",\"mode\":\"w\"}", Some("\":\"w")),
    ("{\"path\":\"a\",\"path\":\"b\",\"content\":\"c\"}", Some("\":\"b")),
    ("{\"path\":[\"a\"],\"content\":\"c\"}", Some("[")),
    ("{\"path\":\"a\",\"content\":\"c\"} x", Some("x")),
];

#[test]
fn every_split_in_two_or_three_gives_check_calls_verdict() {
    for format in FORMATS {
        for (arguments, certain) in WRITE_FILE_ARGUMENTS {
            // Anthropic's check_call takes `input` as a value in place: arguments that are not
            // JSON have no envelope to compare with (the fuzz target checks that they are
            // refused).
            if format == "anthropic" && arguments.ends_with(" x") {
                continue;
            }
            // Where the arguments are certainly wrong: the byte of the character that shows it.
            let certain_at = certain.map(|text| arguments.rfind(text).unwrap());
            let expected = check_call(
                None,
                format,
                &envelope(format, "c1", "write_file", arguments),
            );
            let boundaries: Vec<usize> = (0..=arguments.len())
                .filter(|&at| arguments.is_char_boundary(at))
                .collect();
            let mut splits = 0;
            for (i, &first) in boundaries.iter().enumerate() {
                for &second in &boundaries[i..] {
                    let pieces = [
                        &arguments[..first],
                        &arguments[first..second],
                        &arguments[second..],
                    ];
                    let mut streams = CallStreams::default();
                    let events = stream_of(format, 0, "c1", "write_file", &pieces);
                    let answers: Vec<String> = events
                        .iter()
                        .map(|event| send(&mut streams, None, &delta(format, "s", event)).unwrap())
                        .collect();
                    // OpenAI's finish chunk completes the call and ends the stream at once.
                    let mut completing = events.len() - if format == "openai" { 1 } else { 2 };
                    // An early verdict comes with the piece that holds the character (event
                    // 0 opens the call, the pieces follow).
                    if let Some(at) = certain_at {
                        completing = 1 + [first, second, arguments.len()]
                            .iter()
                            .position(|&end| at < end)
                            .unwrap();
                    }
                    for (at, answer) in answers.iter().enumerate() {
                        let want = if at == completing {
                            settled(0, &expected)
                        } else {
                            NONE.to_string()
                        };
                        assert_eq!(answer, &want, "{format} {pieces:?} event {at}");
                    }
                    assert_eq!(streams.open(), 0);
                    splits += 1;
                }
            }
            let n = boundaries.len();
            assert_eq!(splits, n * (n + 1) / 2);
        }
    }
}

#[test]
fn interleaved_calls_sparse_indices_and_two_streams_keep_apart() {
    let catalog = streams_catalog();
    let mut streams = CallStreams::default();
    let mut send = |format: &str, stream: &str, event: &str| {
        send(&mut streams, Some(&catalog), &delta(format, stream, event)).unwrap()
    };
    let weather = |city: &str| {
        check_call(
            Some(&catalog),
            "anthropic",
            &format!(
                r#"{{"type":"tool_use","id":"t{city}","name":"get_weather","input":{{"location":"{city}"}}}}"#
            ),
        )
    };
    let start = |index: u32, city: &str| {
        format!(
            r#"{{"type":"content_block_start","index":{index},"content_block":{{"type":"tool_use","id":"t{city}","name":"get_weather","input":{{}}}}}}"#
        )
    };
    let piece = |index: u32, text: &str| {
        format!(
            r#"{{"type":"content_block_delta","index":{index},"delta":{{"type":"input_json_delta","partial_json":{}}}}}"#,
            literal(text)
        )
    };
    let stop = |index: u32| format!(r#"{{"type":"content_block_stop","index":{index}}}"#);
    // Stream "a": text at 0 and 2, calls at 1 and 3; stream "b" (OpenAI) interleaved with it,
    // its two calls' fragments interleaved too.
    let chunk = |body: &str| {
        format!(
            r#"{{"choices":[{{"index":0,"delta":{{"tool_calls":[{body}]}},"finish_reason":null}}]}}"#
        )
    };
    let text =
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#;
    assert_eq!(send("anthropic", "a", text), NONE);
    assert_eq!(send("anthropic", "a", &start(1, "Paris")), NONE);
    assert_eq!(
        send(
            "openai",
            "b",
            &chunk(
                r#"{"index":0,"id":"m0","type":"function","function":{"name":"multiply","arguments":""}},{"index":1,"id":"m1","type":"function","function":{"name":"multiply","arguments":"{\"a\":"}}"#
            )
        ),
        NONE
    );
    assert_eq!(
        send("anthropic", "a", &piece(1, "{\"location\":\"Pa")),
        NONE
    );
    assert_eq!(
        send(
            "openai",
            "b",
            &chunk(
                r#"{"index":0,"function":{"arguments":"{\"a\":2,"}},{"index":1,"function":{"arguments":"3,\"b\":"}}"#
            )
        ),
        NONE
    );
    assert_eq!(send("anthropic", "a", &start(3, "Oslo")), NONE);
    assert_eq!(
        send("anthropic", "a", &piece(3, "{\"location\":\"Oslo\"}")),
        NONE
    );
    assert_eq!(send("anthropic", "a", &piece(1, "ris\"}")), NONE);
    assert_eq!(
        send("anthropic", "a", &stop(3)),
        settled(3, &weather("Oslo"))
    );
    let multiply = |id: &str, arguments: &str| {
        check_call(
            Some(&catalog),
            "openai",
            &format!(
                r#"{{"id":"{id}","type":"function","function":{{"name":"multiply","arguments":{}}}}}"#,
                literal(arguments)
            ),
        )
    };
    // Call 1's "b" is a string where the tool takes an integer: certain when the string
    // closes, and answered then, as check_call answers the whole call (its one problem).
    assert_eq!(
        send(
            "openai",
            "b",
            &chunk(
                r#"{"index":1,"function":{"arguments":"\"x\"}"}},{"index":0,"function":{"arguments":"\"b\":4}"}}"#
            )
        ),
        settled(1, &multiply("m1", r#"{"a":3,"b":"x"}"#))
    );
    assert_eq!(
        send("anthropic", "a", &stop(1)),
        settled(1, &weather("Paris"))
    );
    let finish = r#"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#;
    assert_eq!(
        send("openai", "b", finish),
        settled(0, &multiply("m0", r#"{"a":2,"b":4}"#))
    );
    assert_eq!(send("anthropic", "a", r#"{"type":"message_stop"}"#), NONE);
}

#[test]
fn a_stream_cut_by_max_tokens_answers_truncated_arguments() {
    let truncated = |id: &str, name: &str| {
        format!(
            r#"{{"errors":[{{"code":"truncated_arguments","message":"the stream ended before this call's arguments did","path":""}}],"id":"{id}","name":"{name}","ok":false}}"#
        )
    };
    // OpenAI: finish_reason "length".
    let mut streams = CallStreams::default();
    let events = stream_of("openai", 2, "c9", "write_file", &["{\"path\":\"a\",\"con"]);
    for event in &events[..events.len() - 1] {
        assert_eq!(
            send(&mut streams, None, &delta("openai", "s", event)).unwrap(),
            NONE
        );
    }
    let cut = r#"{"choices":[{"index":0,"delta":{},"finish_reason":"length"}]}"#;
    let answer = send(&mut streams, None, &delta("openai", "s", cut)).unwrap();
    assert_eq!(answer, settled(2, &truncated("c9", "write_file")));
    assert_eq!(streams.open(), 0);
    // Anthropic: message_stop with the block never stopped.
    let events = stream_of("anthropic", 1, "t1", "write_file", &["{\"path\":"]);
    for event in &events[..2] {
        assert_eq!(
            send(&mut streams, None, &delta("anthropic", "s", event)).unwrap(),
            NONE
        );
    }
    let delta_event = r#"{"type":"message_delta","delta":{"stop_reason":"max_tokens","stop_sequence":null},"usage":{"output_tokens":9}}"#;
    assert_eq!(
        send(&mut streams, None, &delta("anthropic", "s", delta_event)).unwrap(),
        NONE
    );
    let stop = r#"{"type":"message_stop"}"#;
    let answer = send(&mut streams, None, &delta("anthropic", "s", stop)).unwrap();
    assert_eq!(answer, settled(1, &truncated("t1", "write_file")));
    // The Responses API: response.incomplete with the item open.
    let events = stream_of("openai_responses", 0, "r1", "write_file", &["{"]);
    for event in &events[..2] {
        assert_eq!(
            send(&mut streams, None, &delta("openai_responses", "s", event)).unwrap(),
            NONE
        );
    }
    let incomplete = r#"{"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"}}}"#;
    let answer = send(
        &mut streams,
        None,
        &delta("openai_responses", "s", incomplete),
    )
    .unwrap();
    assert_eq!(answer, settled(0, &truncated("r1", "write_file")));
    assert_eq!(streams.open(), 0);
}

#[test]
fn an_unknown_tool_is_answered_when_its_name_is_whole_and_then_ignored() {
    for format in FORMATS {
        let mut streams = CallStreams::default();
        let events = stream_of(format, 4, "x1", "rm_rf", &["{\"path\":", "\"/\"}"]);
        let expected = check_call(
            None,
            format,
            &envelope(format, "x1", "rm_rf", "{\"path\":\"/\"}"),
        );
        assert!(expected.contains("unknown_tool"), "{expected}");
        for (at, event) in events.iter().enumerate() {
            let answer = send(&mut streams, None, &delta(format, "s", event)).unwrap();
            let want = if at == 0 {
                settled(4, &expected)
            } else {
                NONE.to_string()
            };
            assert_eq!(answer, want, "{format} event {at}");
        }
        assert_eq!(streams.open(), 0);
    }
    // OpenAI's name may come in pieces: it is whole when the arguments begin.
    let mut streams = CallStreams::default();
    let chunk = |body: &str| {
        delta(
            "openai",
            "s",
            &format!(
                r#"{{"choices":[{{"index":0,"delta":{{"tool_calls":[{body}]}},"finish_reason":null}}]}}"#
            ),
        )
    };
    for fragment in [
        r#"{"index":0,"id":"c","function":{"name":"write"}}"#,
        r#"{"index":0,"function":{"name":"_file"}}"#,
        r#"{"index":0,"function":{"arguments":"{}"}}"#,
    ] {
        assert_eq!(send(&mut streams, None, &chunk(fragment)).unwrap(), NONE);
    }
    let finish = delta(
        "openai",
        "s",
        r#"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
    );
    let expected = check_call(None, "openai", &envelope("openai", "c", "write_file", "{}"));
    assert_eq!(
        send(&mut streams, None, &finish).unwrap(),
        settled(0, &expected)
    );
}

#[test]
fn a_call_without_a_name_or_an_id_is_answered_not_dropped() {
    let chunk = |body: &str| {
        delta(
            "openai",
            "s",
            &format!(
                r#"{{"choices":[{{"index":0,"delta":{{"tool_calls":[{body}]}},"finish_reason":null}}]}}"#
            ),
        )
    };
    let finish = delta(
        "openai",
        "s",
        r#"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
    );
    let mut streams = CallStreams::default();
    assert_eq!(send(&mut streams, None, &chunk(r#"{"index":0,"function":{"arguments":"{}"}},{"index":1,"function":{"name":"read_file","arguments":"{}"}}"#)).unwrap(), NONE);
    assert_eq!(
        send(&mut streams, None, &finish).unwrap(),
        "{\"calls\":[{\"index\":0,\"verdict\":{\"errors\":[{\"code\":\"missing_name\",\"message\":\"the stream gave this call no name\",\"path\":\"\"}],\"ok\":false}},{\"index\":1,\"verdict\":{\"errors\":[{\"code\":\"missing_id\",\"message\":\"the stream gave this call no id\",\"path\":\"\"}],\"name\":\"read_file\",\"ok\":false}}]}\n"
    );
}

#[test]
fn limits_are_errors_and_other_streams_go_on() {
    let mut streams = CallStreams::default();
    let open = |stream: usize, index: usize| {
        delta(
            "anthropic",
            &format!("s{stream}"),
            &format!(
                r#"{{"type":"content_block_start","index":{index},"content_block":{{"type":"tool_use","id":"t","name":"read_file","input":{{}}}}}}"#
            ),
        )
    };
    for stream in 0..tool_schema::MAX_STREAMS {
        assert_eq!(send(&mut streams, None, &open(stream, 0)).unwrap(), NONE);
    }
    let err = send(&mut streams, None, &open(99, 0)).unwrap_err();
    assert!(err.starts_with("too_many_streams: "), "{err}");
    for index in 1..tool_schema::MAX_STREAM_CALLS {
        assert_eq!(send(&mut streams, None, &open(0, index)).unwrap(), NONE);
    }
    let err = send(&mut streams, None, &open(0, 99)).unwrap_err();
    assert!(err.starts_with("too_large: "), "{err}");
    // Arguments over the limit: the call is dropped; its stream and the others go on.
    let big = " ".repeat(tool_schema::MAX_CALL_ARGUMENTS / 2);
    let piece = |index: usize| {
        delta(
            "anthropic",
            "s1",
            &format!(
                r#"{{"type":"content_block_delta","index":{index},"delta":{{"type":"input_json_delta","partial_json":"{big}"}}}}"#
            ),
        )
    };
    assert_eq!(send(&mut streams, None, &piece(0)).unwrap(), NONE);
    let err = send(&mut streams, None, &piece(0)).unwrap_err();
    assert!(err.starts_with("too_large: "), "{err}");
    let stop = |stream: &str, index: usize| {
        delta(
            "anthropic",
            stream,
            &format!(r#"{{"type":"content_block_stop","index":{index}}}"#),
        )
    };
    assert_eq!(
        send(&mut streams, None, &stop("s1", 0)).unwrap(),
        NONE,
        "the dropped call"
    );
    let answer = send(&mut streams, None, &stop("s2", 0)).unwrap();
    assert!(
        answer.contains("\"missing_field\"") || answer.contains("\"ok\":false"),
        "{answer}"
    );
    assert_eq!(streams.open(), tool_schema::MAX_STREAMS);
    let stop_message = |stream: &str| delta("anthropic", stream, r#"{"type":"message_stop"}"#);
    for stream in 0..tool_schema::MAX_STREAMS {
        send(&mut streams, None, &stop_message(&format!("s{stream}"))).unwrap();
    }
    assert_eq!(streams.open(), 0);
    assert_eq!(
        send(&mut streams, None, &open(99, 0)).unwrap(),
        NONE,
        "a slot again"
    );
}

#[test]
fn requests_that_are_not_call_deltas_are_respond_s() {
    let mut streams = CallStreams::default();
    let request = r#"{"op":"tool_schema","tool":"read_file","format":"gemini"}"#;
    let mut expected = Vec::new();
    tool_schema::respond(request.as_bytes(), &mut expected).unwrap();
    assert_eq!(
        send(&mut streams, None, request).unwrap().as_bytes(),
        expected
    );
    let err = send(&mut streams, None, r#"{"op":"nope"}"#).unwrap_err();
    assert!(err.starts_with("unknown_op: "), "{err}");
    // A call_delta whose op is not first is still one.
    let event =
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#;
    let request =
        format!(r#"{{"event":{event},"stream":"s","format":"anthropic","op":"call_delta"}}"#);
    assert_eq!(send(&mut streams, None, &request).unwrap(), NONE);
    for (request, code) in [
        (r#"{"op":"call_delta","stream":"s"}"#, "missing_field"),
        (r#"{"op":"call_delta","event":{}}"#, "missing_field"),
        (
            r#"{"op":"call_delta","format":"mcp","stream":"s","event":{}}"#,
            "unsupported",
        ),
        (
            r#"{"op":"call_delta","format":"x","stream":"s","event":{}}"#,
            "unknown_format",
        ),
        (
            r#"{"op":"call_delta","stream":"s","event":{},"extra":1}"#,
            "unknown_field",
        ),
        (r#"{"op":"call_delta","stream":1,"event":{}}"#, "wrong_type"),
        (
            r#"{"op":"call_delta","format":"anthropic","stream":"s","event":{}}"#,
            "wrong_format",
        ),
        (
            r#"{"op":"call_delta","format":"anthropic","stream":"s","event":{"type":"content_block_start"}}"#,
            "missing_field",
        ),
        (
            r#"{"op":"call_delta","format":"openai","stream":"s","event":{"choices":[{"index":1}]}}"#,
            "unsupported",
        ),
        (
            r#"{"op":"call_delta","format":"gemini","stream":"s","event":{"candidates":[{"content":{"parts":[{"functionCall":{"name":"read_file","willContinue":true}}]}}]}}"#,
            "unsupported",
        ),
        (
            r#"{"op":"call_delta","stream":"s","event":{"#,
            "malformed_json",
        ),
    ] {
        let err = send(&mut streams, None, request).unwrap_err();
        assert!(err.starts_with(&format!("{code}: ")), "{request}: {err}");
    }
    assert_eq!(streams.open(), 0);
}

/// The string literal that follows `key` in `line`, quotes included.
fn literal_after<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let start = line.find(key)? + key.len();
    let bytes = line.as_bytes();
    if bytes.get(start) != Some(&b'"') {
        return None;
    }
    let mut at = start + 1;
    while bytes[at] != b'"' {
        at += if bytes[at] == b'\\' { 2 } else { 1 };
    }
    Some(&line[start..=at])
}

fn decoded(literal: &str) -> String {
    let mut text = String::new();
    tool_schema::tokenizer::decode(literal.as_bytes(), |c| text.push(c));
    text
}

/// Each recorded stream again, its arguments cut in two at every character boundary instead of
/// where the provider cut them, the rest of its events as recorded: the verdict is the same.
#[test]
fn recorded_streams_split_at_every_boundary_give_the_same_verdict() {
    let catalog = streams_catalog();
    for (file, format, key) in [
        ("openai_multiply", "openai", "\"arguments\":"),
        ("responses_multiply", "openai_responses", "\"delta\":"),
        ("anthropic_get_weather", "anthropic", "\"partial_json\":"),
    ] {
        let events: Vec<String> = std::fs::read_to_string(format!("tests/streams/{file}.jsonl"))
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        // The fragment events: those that carry a piece of the arguments and nothing else of
        // the call (OpenAI's first chunk carries the id and name with `"arguments":""`).
        let is_fragment = |line: &str| {
            literal_after(line, key).is_some()
                && !line.contains("\"id\":\"call_")
                && !line.contains("function_call_arguments.done")
                && !line.contains("output_item")
        };
        let fragments: Vec<usize> = (0..events.len())
            .filter(|&i| is_fragment(&events[i]))
            .collect();
        assert!(fragments.len() >= 4, "{file}: {fragments:?}");
        let whole: String = fragments
            .iter()
            .map(|&i| decoded(literal_after(&events[i], key).unwrap()))
            .collect();
        let template = &events[fragments[0]];
        let template_literal = literal_after(template, key).unwrap();
        let mut verdicts = std::collections::BTreeSet::new();
        for at in (0..=whole.len()).filter(|&at| whole.is_char_boundary(at)) {
            let mut replayed: Vec<String> = events[..fragments[0]].to_vec();
            for piece in [&whole[..at], &whole[at..]] {
                replayed.push(template.replacen(template_literal, &literal(piece), 1));
            }
            replayed.extend(
                events[fragments[0]..]
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| !fragments.contains(&(fragments[0] + i)))
                    .map(|(_, line)| line.clone()),
            );
            let mut streams = CallStreams::default();
            let mut settled = Vec::new();
            for event in &replayed {
                let answer =
                    send(&mut streams, Some(&catalog), &delta(format, "s", event)).unwrap();
                if answer != NONE {
                    settled.push(answer);
                }
            }
            assert_eq!(settled.len(), 1, "{file} cut at {at}: {settled:?}");
            assert_eq!(streams.open(), 0);
            verdicts.insert(settled.pop().unwrap());
        }
        // The stream as recorded settles the same call with the same verdict (which the test
        // above holds to check_call's).
        let mut streams = CallStreams::default();
        let recorded: Vec<String> = events
            .iter()
            .map(|event| send(&mut streams, Some(&catalog), &delta(format, "s", event)).unwrap())
            .filter(|answer| answer != NONE)
            .collect();
        assert_eq!(verdicts.into_iter().collect::<Vec<_>>(), recorded, "{file}");
    }
}

/// Stream mode keeps the streams between lines, whatever the order of a line's fields, and
/// answers other lines as before, errors included.
#[test]
fn stream_mode_keeps_the_streams_between_lines() {
    let start = r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"read_file","input":{}}}"#;
    let piece = r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"path\":\"a\"}"}}"#;
    let input = format!(
        "{}\n{{\"event\":{piece},\"stream\":\"s\",\"format\":\"anthropic\",\"op\":\"call_delta\"}}\n{{\"op\":\"tool_schema\",\"tool\":\"nope\"}}\n{}\n{{\"op\":\"tool_list\",\"stream\":\"s\"}}\n",
        delta("anthropic", "s", start),
        delta("anthropic", "s", r#"{"type":"content_block_stop","index":0}"#),
    );
    let mut out = Vec::new();
    tool_schema::serve(&mut input.as_bytes(), &mut out).unwrap();
    let verdict = check_call(
        None,
        "anthropic",
        r#"{"type":"tool_use","id":"t","name":"read_file","input":{"path":"a"}}"#,
    );
    let lines: Vec<&str> = std::str::from_utf8(&out).unwrap().lines().collect();
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert_eq!(lines[0], NONE.trim_end());
    assert_eq!(lines[1], NONE.trim_end());
    assert!(
        lines[2].starts_with(r#"{"error":{"code":"unknown_tool""#),
        "{}",
        lines[2]
    );
    assert_eq!(lines[3], settled(0, &verdict).trim_end());
    assert!(
        lines[4].starts_with(r#"{"error":{"code":"unknown_field""#),
        "{}",
        lines[4]
    );
}

/// Catalogs a framework generated (`tests/catalogs/zod`, `tests/catalogs/pydantic`: unions,
/// references, formats): every tool streamed with `{}` in three fragments gets `check_call`'s
/// verdict on the whole call, in each streaming format.
#[test]
fn framework_catalogs_tools_streamed_get_check_calls_verdict() {
    for file in [
        "tests/catalogs/zod/catalog.json",
        "tests/catalogs/pydantic/catalog.json",
    ] {
        let catalog = RuntimeCatalog::from_path(file.as_ref()).unwrap();
        let text = std::fs::read_to_string(file).unwrap();
        let names: Vec<&str> = text
            .match_indices("\"name\": \"")
            .map(|(at, key)| {
                let rest = &text[at + key.len()..];
                &rest[..rest.find('"').unwrap()]
            })
            .filter(|name| {
                catalog
                    .respond(
                        format!(r#"{{"op":"tool_schema","tool":"{name}"}}"#).as_bytes(),
                        &mut Vec::new(),
                    )
                    .is_ok()
            })
            .collect();
        assert!(names.len() >= 10, "{file}: {names:?}");
        for format in FORMATS {
            for name in &names {
                let expected =
                    check_call(Some(&catalog), format, &envelope(format, "c1", name, "{ }"));
                let mut streams = CallStreams::default();
                let events = stream_of(format, 0, "c1", name, &["{", " ", "}"]);
                let answers: Vec<String> = events
                    .iter()
                    .map(|event| {
                        send(&mut streams, Some(&catalog), &delta(format, "s", event)).unwrap()
                    })
                    .filter(|answer| answer != NONE)
                    .collect();
                assert_eq!(answers, [settled(0, &expected)], "{file} {format} {name}");
                assert_eq!(streams.open(), 0);
            }
        }
    }
}

/// An event that does more than the first reading keeps (eight things) is read again to be
/// applied: a chunk of twelve parallel calls and its finish answers as the same calls sent a
/// fragment a chunk, and such a chunk refused at its last fragment changes nothing.
#[test]
fn a_chunk_of_many_calls_is_applied_whole_or_not_at_all() {
    // Call `i`'s envelope, as check_call takes it; its fragment is the same with an index.
    let call = |i: usize| {
        let arguments = format!(r#"{{"path":"f{i}.rs"}}"#);
        envelope("openai", &format!("call_{i}"), "read_file", &arguments)
    };
    let fragment =
        |i: usize, index_json: &str| format!(r#"{{"index":{index_json},{}"#, &call(i)[1..]);
    let chunk = |fragments: &[String], finish: &str| {
        let event = format!(
            r#"{{"choices":[{{"index":0,"delta":{{"tool_calls":[{}]}},"finish_reason":{finish}}}]}}"#,
            fragments.join(",")
        );
        delta("openai", "many", &event)
    };
    let fragments: Vec<String> = (0..12).map(|i| fragment(i, &i.to_string())).collect();

    let mut one_by_one = CallStreams::default();
    for fragment in &fragments {
        let answer = send(
            &mut one_by_one,
            None,
            &chunk(std::slice::from_ref(fragment), "null"),
        );
        assert_eq!(answer.as_deref(), Ok(NONE));
    }
    let expected = send(&mut one_by_one, None, &chunk(&[], r#""tool_calls""#)).unwrap();
    let verdicts: Vec<String> = (0..12)
        .map(|i| {
            let verdict = check_call(None, "openai", &call(i));
            format!(r#"{{"index":{i},"verdict":{verdict}}}"#)
        })
        .collect();
    assert_eq!(
        expected,
        format!("{{\"calls\":[{}]}}\n", verdicts.join(","))
    );

    let mut whole = CallStreams::default();
    let answer = send(&mut whole, None, &chunk(&fragments, r#""tool_calls""#));
    assert_eq!(answer, Ok(expected));
    assert_eq!(whole.open(), 0);

    let mut refused = CallStreams::default();
    let mut broken = fragments.clone();
    broken[11] = fragment(11, r#""11""#);
    let answer = send(&mut refused, None, &chunk(&broken, "null"));
    assert!(
        answer
            .as_ref()
            .is_err_and(|err| err.starts_with("wrong_type: ")),
        "{answer:?}"
    );
    assert_eq!(refused.open(), 0, "a refused event took a stream");
    let answer = send(
        &mut refused,
        None,
        &chunk(&fragments[..1], r#""tool_calls""#),
    );
    assert_eq!(
        answer,
        Ok(settled(0, &check_call(None, "openai", &call(0))))
    );
}

/// A stream of `format` events through fresh streams over the streams' catalog: each answer.
fn replay(format: &str, events: &[&str]) -> Vec<String> {
    let catalog = streams_catalog();
    let mut streams = CallStreams::default();
    events
        .iter()
        .map(|event| send(&mut streams, Some(&catalog), &delta(format, "s", event)).unwrap())
        .collect()
}

const WEATHER: &str = r#"{"location":"Paris"}"#;

fn anthropic_weather_verdict(id: &str, input: &str) -> String {
    let call = format!(r#"{{"type":"tool_use","id":"{id}","name":"get_weather","input":{input}}}"#);
    check_call(Some(&streams_catalog()), "anthropic", &call)
}

/// Anthropic runs its server tools itself: a `server_tool_use` block's input is skipped, and
/// the client's call after it is judged as usual.
#[test]
fn an_anthropic_server_tool_is_not_a_call() {
    let answers = replay(
        "anthropic",
        &[
            r#"{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}}"#,
            r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"query\":\"weather\"}"}}"#,
            r#"{"type":"content_block_stop","index":0}"#,
            r#"{"type":"content_block_start","index":1,"content_block":{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[]}}"#,
            r#"{"type":"content_block_stop","index":1}"#,
            r#"{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}}"#,
            r#"{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"location\":\"Paris\"}"}}"#,
            r#"{"type":"content_block_stop","index":2}"#,
            r#"{"type":"message_stop"}"#,
        ],
    );
    let mut want = vec![NONE.to_string(); 9];
    want[7] = settled(2, &anthropic_weather_verdict("toolu_1", WEATHER));
    assert_eq!(answers, want);
}

/// A `tool_use` block may come with its input whole (programmatic tool calling): those are its
/// arguments. Input given whole and again in pieces is `conflicting_arguments`.
#[test]
fn an_anthropic_input_given_at_the_start_is_the_calls_arguments() {
    let start = r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"location": "Paris"},"caller":{"type":"code_execution_20250825","tool_id":"srvtoolu_1"}}}"#;
    let stop = r#"{"type":"content_block_stop","index":0}"#;
    let answers = replay("anthropic", &[start, stop]);
    assert_eq!(answers[0], NONE);
    assert_eq!(
        answers[1],
        settled(0, &anthropic_weather_verdict("toolu_1", WEATHER))
    );
    // An empty piece changes nothing.
    let empty = r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":""}}"#;
    assert_eq!(replay("anthropic", &[start, empty, stop])[2], answers[1]);
    let piece = r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"location\":\"Rome\"}"}}"#;
    let answers = replay("anthropic", &[start, piece, stop]);
    assert!(
        answers[1].contains(r#""code":"conflicting_arguments""#)
            && answers[1].contains(r#""id":"toolu_1""#),
        "{}",
        answers[1]
    );
    assert_eq!(answers[2], NONE);
}

/// Calls already whole in `message_start` are judged there.
#[test]
fn anthropic_calls_in_message_start_are_judged() {
    let start = r#"{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"Checking."},{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"location":"Paris"}},{"type":"tool_use","id":"toolu_2","name":"get_weather","input":{}}],"stop_reason":"tool_use"}}"#;
    let answers = replay("anthropic", &[start, r#"{"type":"message_stop"}"#]);
    assert_eq!(
        answers[0],
        format!(
            "{{\"calls\":[{{\"index\":1,\"verdict\":{}}},{{\"index\":2,\"verdict\":{}}}]}}\n",
            anthropic_weather_verdict("toolu_1", WEATHER),
            anthropic_weather_verdict("toolu_2", "{}")
        )
    );
    assert_eq!(answers[1], NONE);
}

fn responses_weather_verdict(arguments: &str) -> String {
    let call = format!(
        r#"{{"type":"function_call","call_id":"call_1","name":"get_weather","arguments":{}}}"#,
        literal(arguments)
    );
    check_call(Some(&streams_catalog()), "openai_responses", &call)
}

/// An OpenAI-compatible server may send a call's arguments only when it is done: the last
/// whole text given is its arguments; deltas that say otherwise are `conflicting_arguments`.
#[test]
fn responses_arguments_given_only_when_done_are_the_calls() {
    let added = r#"{"type":"response.output_item.added","output_index":1,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather","arguments":"","status":"in_progress"}}"#;
    let args_done = r#"{"type":"response.function_call_arguments.done","item_id":"fc_1","output_index":1,"arguments":"{\"location\":\"Paris\"}"}"#;
    let item_done = r#"{"type":"response.output_item.done","output_index":1,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather","arguments":"{\"location\":\"Paris\"}","status":"completed"}}"#;
    let want = settled(1, &responses_weather_verdict(WEATHER));
    for events in [
        vec![added, args_done, item_done],
        vec![added, item_done],
        vec![
            added,
            args_done,
            r#"{"type":"response.output_item.done","output_index":1,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather","status":"completed"}}"#,
        ],
    ] {
        let answers = replay("openai_responses", &events);
        assert_eq!(answers.last().unwrap(), &want, "{events:?}");
        assert!(answers[..answers.len() - 1].iter().all(|a| a == NONE));
    }
    // The same text, spelled with other escapes, agrees.
    let delta = r#"{"type":"response.function_call_arguments.delta","output_index":1,"delta":"{\"loc\u0061tion\":\"Paris\"}"}"#;
    let answers = replay("openai_responses", &[added, delta, args_done, item_done]);
    assert!(answers[3].contains(r#""ok":true"#), "{}", answers[3]);
    let other = r#"{"type":"response.function_call_arguments.delta","output_index":1,"delta":"{\"location\":\"Rome\"}"}"#;
    let answers = replay("openai_responses", &[added, other, args_done, item_done]);
    assert!(
        answers[2].contains(r#""code":"conflicting_arguments""#),
        "{}",
        answers[2]
    );
    assert_eq!(answers[3], NONE);
}

/// An event of another format is `wrong_format`, naming the format it looks like, and changes
/// nothing: the same events with the right format then settle the call.
#[test]
fn an_event_of_another_format_is_refused_and_names_it() {
    let catalog = streams_catalog();
    let mut streams = CallStreams::default();
    let start = r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}}"#;
    let without_format = format!(r#"{{"op":"call_delta","stream":"s","event":{start}}}"#);
    let err = send(&mut streams, Some(&catalog), &without_format).unwrap_err();
    assert!(
        err.starts_with("wrong_format: ") && err.contains(r#""format":"anthropic""#),
        "{err}"
    );
    assert_eq!(streams.open(), 0);
    for (format, event, looks) in [
        ("gemini", start, "anthropic"),
        (
            "anthropic",
            r#"{"choices":[{"index":0,"delta":{}}]}"#,
            "openai",
        ),
        (
            "openai",
            r#"{"type":"response.completed","response":{}}"#,
            "openai_responses",
        ),
        ("openai_responses", r#"{"candidates":[]}"#, "gemini"),
    ] {
        let err = send(&mut streams, Some(&catalog), &delta(format, "s", event)).unwrap_err();
        assert!(
            err.contains(&format!(r#""format":"{looks}""#)),
            "{format}: {err}"
        );
    }
    let err = send(
        &mut streams,
        Some(&catalog),
        &delta("openai", "s", r#"{"x":1}"#),
    )
    .unwrap_err();
    assert!(err.starts_with("wrong_format: "), "{err}");
}

/// `"end":true` ends a stream whose provider never sent its end event: the calls still open
/// are `truncated_arguments`, and the stream's slot is free.
#[test]
fn a_stream_can_be_ended_by_the_harness() {
    let catalog = streams_catalog();
    let mut streams = CallStreams::default();
    let start = r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}}"#;
    assert_eq!(
        send(
            &mut streams,
            Some(&catalog),
            &delta("anthropic", "s", start)
        )
        .unwrap(),
        NONE
    );
    assert_eq!(streams.open(), 1);
    let end = r#"{"op":"call_delta","format":"anthropic","stream":"s","end":true}"#;
    let answer = send(&mut streams, Some(&catalog), end).unwrap();
    assert!(
        answer.contains(r#""code":"truncated_arguments""#) && answer.contains(r#""index":0"#),
        "{answer}"
    );
    assert_eq!(streams.open(), 0);
    assert_eq!(send(&mut streams, Some(&catalog), end).unwrap(), NONE);
    // A provider's error ends its stream too.
    for (format, start, error) in [
        (
            "openai",
            r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"get_weather","arguments":"{"}}]}}]}"#,
            r#"{"error":{"message":"overloaded","type":"server_error"}}"#,
        ),
        (
            "openai_responses",
            r#"{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","call_id":"c","name":"get_weather","arguments":""}}"#,
            r#"{"type":"error","code":"server_error","message":"x"}"#,
        ),
        (
            "anthropic",
            start,
            r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
        ),
    ] {
        send(&mut streams, Some(&catalog), &delta(format, "e", start)).unwrap();
        let answer = send(&mut streams, Some(&catalog), &delta(format, "e", error)).unwrap();
        assert!(
            answer.contains(r#""code":"truncated_arguments""#),
            "{format}: {answer}"
        );
        assert_eq!(streams.open(), 0, "{format}");
    }
}

/// One-shot mode ends each stream with its one event: a call it leaves open is answered
/// `truncated_arguments`, not lost with the process; a whole Gemini call is judged.
#[test]
fn one_shot_call_delta_answers_every_call_it_opens() {
    let start = r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"read_file","input":{}}}"#;
    let out = common::run(&[], delta("anthropic", "s", start).as_bytes());
    assert_eq!(out.status.code(), Some(0));
    let answer = String::from_utf8(out.stdout).unwrap();
    assert!(
        answer.contains(r#""code":"truncated_arguments""#) && answer.contains(r#""id":"toolu_1""#),
        "{answer}"
    );
    let gemini = r#"{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"read_file","args":{"path":"a.rs"}}}]},"finishReason":"STOP"}]}"#;
    let out = common::run(&[], delta("gemini", "s", gemini).as_bytes());
    let answer = String::from_utf8(out.stdout).unwrap();
    assert!(
        answer.starts_with(r#"{"calls":[{"index":0,"verdict":{"arguments":{"path":"a.rs"}"#),
        "{answer}"
    );
}

/// Vertex's streamed arguments are refused, and so is the empty `functionCall` that ends one.
#[test]
fn gemini_streamed_arguments_and_their_empty_end_are_unsupported() {
    let catalog = streams_catalog();
    let mut streams = CallStreams::default();
    for call in [
        r#"{"name":"get_weather","partialArgs":[],"willContinue":true}"#,
        "{}",
    ] {
        let event = format!(
            r#"{{"candidates":[{{"content":{{"role":"model","parts":[{{"functionCall":{call}}}]}}}}]}}"#
        );
        let err = send(&mut streams, Some(&catalog), &delta("gemini", "s", &event)).unwrap_err();
        assert!(err.starts_with("unsupported: "), "{call}: {err}");
    }
}

/// Streams recorded from the live APIs (`tests/streams/recorded/`, each cited in
/// `tests/streams/SOURCES.md`): each event's answer is, byte for byte, what the independent
/// reference (`tests/streams/assemble.py`, Python's json module and the providers' documented
/// events) says it settles: every client call once, with its id, name and arguments, and
/// `{"calls":[]}` for every event that is not about one (text, thinking, reasoning, server
/// tools, MCP tools, results, usage).
#[test]
fn recorded_streams_answer_what_an_independent_assembler_says() {
    let dir = std::path::Path::new("tests/streams/recorded");
    let catalog = RuntimeCatalog::from_path(&dir.join("catalog.json")).unwrap();
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            let name = path.file_name().unwrap().to_str().unwrap();
            name.ends_with(".jsonl") && !name.ends_with(".expected.jsonl")
        })
        .collect();
    files.sort();
    assert!(files.len() >= 19, "{files:?}");
    let mut settled_calls = 0;
    for path in &files {
        let name = path.file_stem().unwrap().to_str().unwrap();
        let format = [
            ("openai_responses", "openai_responses"),
            ("openai_chat", "openai"),
            ("anthropic", "anthropic"),
            ("gemini", "gemini"),
        ]
        .iter()
        .find(|(prefix, _)| name.starts_with(prefix))
        .unwrap()
        .1;
        let events = std::fs::read_to_string(path).unwrap();
        let expected = std::fs::read_to_string(dir.join(format!("{name}.expected.jsonl"))).unwrap();
        let events: Vec<&str> = events.lines().filter(|l| !l.trim().is_empty()).collect();
        let expected: Vec<&str> = expected.lines().collect();
        assert_eq!(events.len(), expected.len(), "{name}");
        let mut streams = CallStreams::default();
        for (at, (event, want)) in events.iter().zip(&expected).enumerate() {
            let answer = send(&mut streams, Some(&catalog), &delta(format, name, event));
            match (*want, answer) {
                ("{\"error\":\"unsupported\"}", Err(err)) => {
                    assert!(err.starts_with("unsupported: "), "{name} event {at}: {err}")
                }
                (want, Ok(answer)) => {
                    assert_eq!(answer, format!("{want}\n"), "{name} event {at}");
                    settled_calls += want.matches("\"verdict\"").count();
                }
                (want, Err(err)) => panic!("{name} event {at}: {err}, want {want}"),
            }
        }
        assert_eq!(streams.open(), 0, "{name}: the stream ended");
    }
    assert!(settled_calls >= 20, "{settled_calls} calls");
}

/// Found by the call_stream fuzz target: a call whose arguments come whole and certainly wrong
/// in the event that also completes it (Anthropic's `message_start`, a Responses item done
/// with no deltas) got the early verdict's one problem, where check_call finds every one.
#[test]
fn a_call_given_whole_gets_check_calls_whole_verdict() {
    let catalog = streams_catalog();
    let input = r#"{"f":1,"g":2}"#;
    let message = format!(
        r#"{{"type":"message_start","message":{{"content":[{{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{input}}}]}}}}"#
    );
    let answers = replay("anthropic", &[&message]);
    assert_eq!(
        answers[0],
        settled(0, &anthropic_weather_verdict("toolu_1", input))
    );
    let want = check_call(
        Some(&catalog),
        "openai_responses",
        &format!(
            r#"{{"type":"function_call","call_id":"call_1","name":"get_weather","arguments":{}}}"#,
            literal(input)
        ),
    );
    assert!(want.matches("\"code\"").count() >= 2, "{want}");
    let added = r#"{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","call_id":"call_1","name":"get_weather","arguments":""}}"#;
    let done = format!(
        r#"{{"type":"response.output_item.done","output_index":0,"item":{{"type":"function_call","call_id":"call_1","name":"get_weather","arguments":{}}}}}"#,
        literal(input)
    );
    let answers = replay("openai_responses", &[added, &done]);
    assert_eq!(answers[1], settled(0, &want));
}
