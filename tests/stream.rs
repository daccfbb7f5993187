//! Stream mode, in-process through `serve` and from outside through `tool-schema --stream`.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::sync::mpsc;
use std::time::Duration;
use tool_schema::{respond, serve, MAX_INPUT};

/// What one-shot mode answers for a request, as a stream line.
fn one_shot(request: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    if let Err(err) = respond(request, &mut out) {
        assert!(out.is_empty());
        let message = err.to_string().replace('\\', "\\\\").replace('"', "\\\"");
        out = format!(
            r#"{{"error":{{"code":"{}","message":"{message}"}}}}"#,
            err.code()
        )
        .into_bytes();
        out.push(b'\n');
    }
    out
}

fn serve_all(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    serve(&mut &input[..], &mut out).unwrap();
    out
}

const REQUESTS: &[&[u8]] = &[
    br#"{"op":"tool_schema","tool":"read_file"}"#,
    br#"{"op":"tool_schema","tool":"nope"}"#,
    br#"{"op":"tool_list","format":"anthropic","strict":true}"#,
    b"[1,",
    br#"{"op":"tool_schema","tool":"patch_file","format":"mcp"}"#,
    br#"{"op":"tool_schema","tool":"a\"b\\c"}"#,
    b"\xFF",
    br#"{"op":"tool_schema","tool":"write_file","format":"gemini","strict":true}"#,
    br#"{"op":"tool_schema","tool":"write_file","format":"openai_responses"}"#,
    br#"{"op":"tool_choice","format":"anthropic","choice":{"tool":"read_file"},"parallel":false}"#,
    br#"{"op":"tool_choice","format":"mcp","choice":"auto"}"#,
    br#"{"op":"check_turn","format":"anthropic","turn":[{"type":"text","text":"x"},{"type":"tool_use","id":"t","name":"read_file","input":{"path":1}}]}"#,
    br#"{"op":"check_turn","format":"gemini","turn":{"role":"model"}}"#,
];

#[test]
fn each_line_gets_its_one_shot_answer_in_order() {
    let input = REQUESTS.join(&b'\n');
    let want: Vec<u8> = REQUESTS.iter().flat_map(|r| one_shot(r)).collect();
    assert_eq!(serve_all(&input), want, "no trailing newline");
    let mut with_newline = input.clone();
    with_newline.push(b'\n');
    assert_eq!(serve_all(&with_newline), want, "trailing newline");
}

#[test]
fn error_lines_are_json_with_sorted_keys() {
    for line in serve_all(&REQUESTS.join(&b'\n'))
        .split(|&b| b == b'\n')
        .filter(|l| l.starts_with(b"{\"error\""))
    {
        tool_schema::tokenizer::validate(line).unwrap();
        assert!(
            line.starts_with(b"{\"error\":{\"code\":\""),
            "{}",
            String::from_utf8_lossy(line)
        );
        assert!(line.windows(12).any(|w| w == b"\",\"message\":"));
    }
}

#[test]
fn blank_lines_are_skipped_and_crlf_is_fine() {
    let input = b"\n  \n\t\r\n{\"op\":\"tool_list\"}\r\n\n\n{\"op\":\"x\"}\n \n";
    let want = [
        one_shot(br#"{"op":"tool_list"}"#),
        one_shot(br#"{"op":"x"}"#),
    ]
    .concat();
    assert_eq!(serve_all(input), want);
    assert_eq!(serve_all(b""), b"");
    assert_eq!(serve_all(b"\n\n"), b"");
}

#[test]
fn an_over_long_line_is_too_large_and_the_next_line_is_answered() {
    let request: &[u8] = br#"{"op":"tool_schema","tool":"read_file"}"#;
    for len in [MAX_INPUT - 1, MAX_INPUT, MAX_INPUT + 1, 3 * MAX_INPUT] {
        // A string padded to exactly `len` bytes.
        let long = format!("\"{}\"", "a".repeat(len - 2));
        let spaces = " ".repeat(len);
        for line in [long.as_bytes(), spaces.as_bytes()] {
            let input = [request, b"\n", line, b"\n", request, b"\n"].concat();
            let middle = if len > MAX_INPUT {
                one_shot(&vec![b' '; MAX_INPUT + 1])
            } else if line[0] == b' ' {
                Vec::new() // blank, within the limit
            } else {
                one_shot(line)
            };
            let want = [one_shot(request), middle, one_shot(request)].concat();
            assert_eq!(serve_all(&input), want, "length {len}");
        }
    }
}

/// A reader that hands out its input a few bytes at a time, and checks on every read that
/// every complete line already handed out has been answered and flushed.
struct Trickle<'a> {
    input: &'a [u8],
    step: usize,
    given: usize,
    flushed: std::rc::Rc<std::cell::RefCell<Vec<u8>>>,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let lines = self.input[..self.given]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        let answered = self
            .flushed
            .borrow()
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        assert_eq!(answered, lines, "a read while answers were still held back");
        let n = self.step.min(buf.len()).min(self.input.len() - self.given);
        buf[..n].copy_from_slice(&self.input[self.given..self.given + n]);
        self.given += n;
        Ok(n)
    }
}

struct Sink(std::rc::Rc<std::cell::RefCell<Vec<u8>>>, Vec<u8>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.1.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.borrow_mut().extend_from_slice(&self.1);
        self.1.clear();
        Ok(())
    }
}

#[test]
fn answers_are_flushed_before_every_read_and_lines_may_split_anywhere() {
    let input = [REQUESTS.join(&b'\n'), b"\n".to_vec()].concat();
    let want: Vec<u8> = REQUESTS.iter().flat_map(|r| one_shot(r)).collect();
    for step in [1, 2, 3, 7, 40, 4096] {
        let flushed = std::rc::Rc::default();
        let mut reader = Trickle {
            input: &input,
            step,
            given: 0,
            flushed: std::rc::Rc::clone(&flushed),
        };
        let mut sink = Sink(std::rc::Rc::clone(&flushed), Vec::new());
        serve(&mut reader, &mut sink).unwrap();
        assert!(sink.1.is_empty(), "unflushed output at the end");
        assert_eq!(*flushed.borrow(), want, "step {step}");
    }
}

#[test]
fn the_cli_answers_each_request_before_the_next_is_sent() {
    let mut child = common::spawn(&["--stream"]);
    let mut stdin = child.stdin.take().unwrap();
    let (lines, received) = mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).split(b'\n') {
            lines.send(line.unwrap()).unwrap();
        }
    });
    for request in REQUESTS {
        stdin.write_all(request).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
        let line = received
            .recv_timeout(Duration::from_secs(10))
            .expect("an answer while the stream stays open");
        let mut want = one_shot(request);
        want.pop();
        assert_eq!(line, want);
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty());
    assert!(
        received.recv_timeout(Duration::from_secs(1)).is_err(),
        "nothing after the answers"
    );
}

#[test]
fn the_cli_streams_a_batch_with_bad_lines_mid_stream() {
    let batch: Vec<u8> = (0..2000)
        .flat_map(|i| [REQUESTS[i % REQUESTS.len()], b"\n"].concat())
        .collect();
    let want: Vec<u8> = (0..2000)
        .flat_map(|i| one_shot(REQUESTS[i % REQUESTS.len()]))
        .collect();
    let out = common::run(&["--stream"], &batch);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty());
    assert!(out.stdout == want, "batch output differs");
}

#[test]
fn a_closed_stdout_ends_the_stream_with_exit_1() {
    let mut child = common::spawn(&["--stream"]);
    drop(child.stdout.take()); // nobody reads the answers
    let mut stdin = child.stdin.take().unwrap();
    // The first flush after the reader is gone fails with a broken pipe.
    let _ = stdin.write_all(&[REQUESTS[0], b"\n"].concat());
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(common::failure_code(&out), "io");
}

#[test]
fn check_call_lines_are_answered_like_any_other() {
    // A long valid call: its answer echoes the arguments, far past one declaration's length,
    // so the output block takes it in pieces.
    let long = "é".repeat(20_000);
    let calls: Vec<Vec<u8>> = vec![
        br#"{"op":"check_call","call":{"id":"c1","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"a\"}"}}}"#.to_vec(),
        br#"{"op":"check_call","format":"anthropic","call":{"type":"tool_use","id":"t","name":"read_file","input":{"path":1,"x":2}}}"#.to_vec(),
        br#"{"op":"check_call","call":{"id":"c1","type":"function"}}"#.to_vec(),
        format!(r#"{{"op":"check_call","format":"mcp","call":{{"name":"read_file","arguments":{{"path":"{long}"}}}}}}"#).into_bytes(),
        br#"{"op":"tool_schema","tool":"read_file"}"#.to_vec(),
    ];
    let mut input = Vec::new();
    let mut want = Vec::new();
    for _ in 0..4 {
        for call in &calls {
            input.extend_from_slice(call);
            input.push(b'\n');
            want.extend(one_shot(call));
        }
    }
    let answers = serve_all(&input);
    assert_eq!(
        String::from_utf8(answers).unwrap(),
        String::from_utf8(want).unwrap()
    );
}

/// A tool with a free-form object, which the flat checker reads, and the same property in a
/// tool beyond the flat subset (a `pattern`), which the general checker reads.
const FREE_FORM_CATALOG: &[u8] = br#"[
    {"name":"t","description":"Takes options.","inputSchema":{"type":"object",
        "properties":{"o":{"type":"object"}}}},
    {"name":"u","description":"Takes options and a word.","inputSchema":{"type":"object",
        "properties":{"o":{"type":"object"},"w":{"type":"string","pattern":"^a"}}}}]"#;

/// Each kind of request that can fail inside an answer, in every op and format: calls whose
/// arguments hold a number beyond a 64-bit float (in a free-form object, where no schema node
/// reads it), over a flat and a general tool, whole, in a turn and streamed; and the requests
/// refused for what they ask.
fn failing_requests() -> Vec<String> {
    let args = r#"{"o":{"k":1e400,"deep":[{"x":-1e999}]}}"#;
    let quoted = args.replace('"', "\\\"");
    let mut requests = Vec::new();
    for tool in ["t", "u"] {
        let calls = [
            (
                "openai",
                format!(
                    r#"{{"id":"c","type":"function","function":{{"name":"{tool}","arguments":"{quoted}"}}}}"#
                ),
            ),
            (
                "openai_responses",
                format!(
                    r#"{{"type":"function_call","call_id":"c","name":"{tool}","arguments":"{quoted}"}}"#
                ),
            ),
            (
                "anthropic",
                format!(r#"{{"type":"tool_use","id":"c","name":"{tool}","input":{args}}}"#),
            ),
            ("gemini", format!(r#"{{"name":"{tool}","args":{args}}}"#)),
            ("mcp", format!(r#"{{"name":"{tool}","arguments":{args}}}"#)),
        ];
        for (format, call) in &calls {
            requests.push(format!(
                r#"{{"op":"check_call","format":"{format}","call":{call}}}"#
            ));
            for strict in ["true", "false"] {
                requests.push(format!(
                    r#"{{"op":"check_call","format":"{format}","strict":{strict},"call":{call}}}"#
                ));
            }
        }
        requests.extend([
            format!(r#"{{"op":"check_turn","format":"openai","turn":{{"role":"assistant","tool_calls":[{}]}}}}"#, calls[0].1),
            format!(r#"{{"op":"check_turn","format":"openai_responses","turn":[{}]}}"#, calls[1].1),
            format!(r#"{{"op":"check_turn","format":"anthropic","turn":[{}]}}"#, calls[2].1),
            format!(r#"{{"op":"check_turn","format":"gemini","turn":{{"role":"model","parts":[{{"functionCall":{}}}]}}}}"#, calls[3].1),
            format!(r#"{{"op":"call_delta","format":"openai","stream":"o{tool}","event":{{"choices":[{{"index":0,"delta":{{"tool_calls":[{{"index":0,"id":"c","type":"function","function":{{"name":"{tool}","arguments":"{quoted}"}}}}]}},"finish_reason":null}}]}}}}"#),
            format!(r#"{{"op":"call_delta","format":"openai","stream":"o{tool}","event":{{"choices":[{{"index":0,"delta":{{}},"finish_reason":"tool_calls"}}]}}}}"#),
            format!(r#"{{"op":"call_delta","format":"anthropic","stream":"a{tool}","event":{{"type":"content_block_start","index":0,"content_block":{{"type":"tool_use","id":"c","name":"{tool}","input":{{}}}}}}}}"#),
            format!(r#"{{"op":"call_delta","format":"anthropic","stream":"a{tool}","event":{{"type":"content_block_delta","index":0,"delta":{{"type":"input_json_delta","partial_json":"{quoted}"}}}}}}"#),
            format!(r#"{{"op":"call_delta","format":"anthropic","stream":"a{tool}","event":{{"type":"content_block_stop","index":0}}}}"#),
            format!(r#"{{"op":"call_delta","format":"gemini","stream":"g{tool}","event":{{"candidates":[{{"content":{{"role":"model","parts":[{{"functionCall":{}}}]}},"finishReason":"STOP"}}]}}}}"#, calls[3].1),
            format!(r#"{{"op":"call_delta","format":"openai_responses","stream":"r{tool}","event":{{"type":"response.output_item.done","output_index":0,"item":{}}}}}"#, calls[1].1),
        ]);
    }
    for format in ["openai", "openai_responses", "anthropic", "gemini", "mcp"] {
        requests.extend([
            format!(r#"{{"op":"tool_schema","format":"{format}","tool":"nope"}}"#),
            format!(r#"{{"op":"tool_schema","format":"{format}","strict":true,"tool":"t"}}"#),
            format!(r#"{{"op":"tool_list","format":"{format}","strict":true}}"#),
            format!(r#"{{"op":"tool_choice","format":"{format}","choice":{{"tool":"nope"}}}}"#),
            format!(
                r#"{{"op":"tool_choice","format":"{format}","choice":"auto","parallel":false}}"#
            ),
            format!(r#"{{"op":"check_turn","format":"{format}","turn":1}}"#),
            format!(r#"{{"op":"call_delta","format":"{format}","stream":"x","event":[]}}"#),
        ]);
    }
    requests.push(r#"{"op":"use_catalog","path":"/nonexistent/tools.json"}"#.into());
    requests
}

/// Found by a differential test against Python's jsonschema: a model-written `1e400` in a
/// free-form object was taken by the flat checker and failed the canonical writer, which ended
/// the stream and lost the answers before it. Now every such request gets its own line, a
/// verdict or an error that is not `internal`, and the lines around it are answered.
#[test]
fn no_request_ends_the_stream() {
    let catalog = || tool_schema::RuntimeCatalog::from_bytes(FREE_FORM_CATALOG).unwrap();
    let around = br#"{"op":"tool_list","format":"mcp"}"#;
    let mut list = Vec::new();
    catalog().respond(around, &mut list).unwrap();
    for request in failing_requests() {
        let input = [&around[..], request.as_bytes(), around].join(&b'\n');
        let mut out = Vec::new();
        tool_schema::serve_catalog(&mut &input[..], &mut out, Some(catalog()))
            .unwrap_or_else(|err| panic!("{request}: the stream ended: {err}"));
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{request}: {text}");
        assert_eq!(format!("{}\n", lines[0]).as_bytes(), list, "{request}");
        assert_eq!(format!("{}\n", lines[2]).as_bytes(), list, "{request}");
        tool_schema::tokenizer::validate(lines[1].as_bytes()).unwrap();
        assert!(
            !lines[1].contains(r#""code":"internal""#),
            "{request}: {}",
            lines[1]
        );
        if lines[1].contains("1e400") {
            assert!(
                lines[1].contains(r#""code":"argument_out_of_range""#),
                "{request}: {}",
                lines[1]
            );
            assert!(
                lines[1].contains(r#""path":"/o/k""#),
                "{request}: {}",
                lines[1]
            );
        }
    }
}

/// The calls of [`failing_requests`] in one-shot mode: the verdict, exit status 0.
#[test]
fn a_number_beyond_a_float_in_a_free_form_object_is_out_of_range_in_one_shot_mode() {
    let dir = std::env::temp_dir().join(format!("tool-schema-free-form-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("tools.json");
    std::fs::write(&path, FREE_FORM_CATALOG).unwrap();
    let path = path.to_str().unwrap();
    let calls = failing_requests()
        .into_iter()
        .filter(|r| r.starts_with(r#"{"op":"check_call""#) && !r.contains(r#""strict":"#));
    for request in calls {
        let out = common::run(&["--catalog", path], request.as_bytes());
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{request}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            stdout.contains(r#""code":"argument_out_of_range""#),
            "{request}: {stdout}"
        );
        // The flat checker reports each member; the general one its deepest failure.
        let paths = [r#""path":"/o/k""#, r#""path":"/o/deep""#];
        assert!(
            paths.iter().any(|p| stdout.contains(p)),
            "{request}: {stdout}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A line with an `"id"` (first, last or alone; a string or a number) is answered as the line
/// with that member blanked out, wrapped: `{"answer":A,"id":ID}`, or the error line with
/// `"id":ID` beside `error`; so a caller with many requests in flight can match answers to
/// them. A bad id is refused, and an `"id"` inside a call's arguments is the call's.
#[test]
fn an_id_is_echoed_beside_the_answer_or_the_error() {
    let catalog = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/catalogs/mcp-servers/github-mcp-server.json");
    let mut requests: Vec<Vec<u8>> = REQUESTS.iter().map(|r| r.to_vec()).collect();
    requests.extend([
        format!(r#"{{"op":"use_catalog","path":{catalog:?}}}"#).into_bytes(),
        // Over the block of 64 KiB: the answer is passed on whole, around the block.
        br#"{"op":"tool_list","format":"mcp"}"#.to_vec(),
        br#"{"op":"use_catalog","path":"/nonexistent.json"}"#.to_vec(),
        br#"{"op":"call_delta","format":"anthropic","stream":"s","event":{"type":"message_stop"}}"#
            .to_vec(),
        br#"{}"#.to_vec(),
    ]);
    let plain = |lines: &[Vec<u8>]| {
        let mut out = Vec::new();
        let input = lines.join(&b'\n');
        tool_schema::serve(&mut &input[..], &mut out).unwrap();
        String::from_utf8(out).unwrap()
    };
    for id in ["7", r#""a\"b""#, "-1.5e3"] {
        let member = format!(r#""id":{id}"#);
        let mut with_id = Vec::new();
        let mut blanked = Vec::new();
        for request in &requests {
            let text = String::from_utf8_lossy(request);
            let Some(rest) = text.strip_prefix('{') else {
                // Not an object: no id to find, answered as it is.
                with_id.push(request.clone());
                blanked.push(request.clone());
                continue;
            };
            let (line, blank) = match rest {
                "}" => (
                    format!("{{{member}}}"),
                    format!("{{{}}}", " ".repeat(member.len())),
                ),
                _ if id == "7" => (
                    format!("{{{member},{rest}"),
                    format!("{{{} {rest}", " ".repeat(member.len())),
                ),
                _ => {
                    let body = &text[..text.len() - 1];
                    (
                        format!("{body},{member}}}"),
                        format!("{body} {}}}", " ".repeat(member.len())),
                    )
                }
            };
            with_id.push(line.into_bytes());
            blanked.push(blank.into_bytes());
        }
        let (got, want) = (plain(&with_id), plain(&blanked));
        let (got, want): (Vec<&str>, Vec<&str>) = (got.lines().collect(), want.lines().collect());
        assert_eq!(got.len(), requests.len());
        assert_eq!(want.len(), requests.len());
        let mut errors = 0;
        for ((got, want), request) in got.iter().zip(&want).zip(&with_id) {
            let request = String::from_utf8_lossy(request);
            if !request.starts_with('{') {
                assert_eq!(got, want, "{request}");
            } else if let Some(error) = want.strip_suffix('}') {
                if want.starts_with(r#"{"error":"#) {
                    errors += 1;
                    assert_eq!(*got, format!("{error},{member}}}"), "{request}");
                    continue;
                }
                assert_eq!(
                    *got,
                    format!(r#"{{"answer":{want},{member}}}"#),
                    "{request}"
                );
            } else {
                assert_eq!(
                    *got,
                    format!(r#"{{"answer":{want},{member}}}"#),
                    "{request}"
                );
            }
        }
        assert!(errors >= 5, "{errors}");
    }
    let answers = serve_all(
        concat!(
            r#"{"op":"tool_list","id":1,"id":2}"#,
            "\n",
            r#"{"op":"tool_list","id":[1]}"#,
            "\n",
            r#"{"op":"check_call","format":"mcp","call":{"name":"read_file","arguments":{"path":"a","id":3}}}"#,
        )
        .as_bytes(),
    );
    let answers = String::from_utf8(answers).unwrap();
    let lines: Vec<&str> = answers.lines().collect();
    assert_eq!(
        lines[0],
        r#"{"error":{"code":"duplicate_field","message":"field \"id\" appears again at byte 25"}}"#
    );
    assert_eq!(
        lines[1],
        r#"{"error":{"code":"wrong_type","message":"field \"id\" must be a string or a number of at most 128 bytes, found an array at byte 23"}}"#
    );
    assert!(
        lines[2].starts_with(r#"{"errors":[{"code":"unknown_argument""#),
        "{}",
        lines[2]
    );
}
