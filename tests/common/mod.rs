//! Running the real binary from tests.
#![allow(dead_code)] // each test file uses part of this

use std::io::Write;
use std::process::{Child, Command, Output, Stdio};

/// Starts `tool-schema ARGS` with all three standard streams piped to the test.
pub fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_tool-schema"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts")
}

/// Runs `tool-schema ARGS` with `input` on standard input. Writing happens on its own thread,
/// and a broken pipe is expected: the program stops reading at its size limit.
pub fn run(args: &[&str], input: &[u8]) -> Output {
    let mut child = spawn(args);
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("the binary ends");
    writer.join().unwrap();
    out
}

/// The error code of a failed run, after checking that it failed cleanly: exit status 1,
/// nothing on standard output, one line `tool-schema: <code>: <message>` on standard error.
pub fn failure_code(out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr: {stderr}");
    assert!(
        out.stdout.is_empty(),
        "stdout: {:?}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(
        stderr.ends_with('\n') && stderr.lines().count() == 1,
        "not one line: {stderr:?}"
    );
    let rest = stderr.strip_prefix("tool-schema: ").expect("prefixed");
    let (code, message) = rest.split_once(": ").expect("code and message");
    assert!(!message.trim().is_empty());
    code.to_string()
}

/// The cases file: a JSON array of `[name, request]` pairs, one pair per line, read with the
/// crate's own tokenizer (this package has no JSON library).
pub fn call_cases(text: &str) -> Vec<(String, String)> {
    let mut strings = Vec::new();
    let mut tokens = tool_schema::tokenizer::Tokenizer::new(text.as_bytes());
    while let Some(token) = tokens.next().unwrap() {
        if token.kind == tool_schema::tokenizer::Kind::String {
            let mut decoded = String::new();
            tool_schema::tokenizer::decode(token.raw, |c| decoded.push(c));
            strings.push(decoded);
        }
    }
    strings
        .chunks(2)
        .map(|pair| (pair[0].clone(), pair[1].clone()))
        .collect()
}
