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
