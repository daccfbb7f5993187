//! Hostile input through the real binary. Every case must end in exit status 1, nothing on
//! standard output, one line on standard error with the expected code, and no panic.

mod common;

use common::{failure_code, run};
use std::io::Write;
use std::process::Command;
use std::time::{Duration, Instant};
use tool_schema::MAX_INPUT;

const BIN: &str = env!("CARGO_BIN_EXE_tool-schema");

fn assert_fails(input: &[u8], code: &str) {
    let out = run(&[], input);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    let shown = String::from_utf8_lossy(&input[..input.len().min(60)]).into_owned();
    assert_eq!(failure_code(&out), code, "{shown:?}");
}

/// Feeds 100 MB and counts what the program let us write before it closed its end: it reads
/// at most the limit, so the rest can only sit in the pipe's buffer. A watchdog catches a hang;
/// no speed is asserted (that is a benchmark's job), the time is printed.
#[test]
fn a_hundred_megabytes_is_too_large_and_read_only_to_the_limit() {
    let started = Instant::now();
    let mut child = common::spawn(&[]);
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let chunk = vec![b'['; 1 << 16];
        let mut written = 0usize;
        while written < 100_000_000 {
            match stdin.write(&chunk) {
                Ok(n) => written += n,
                Err(_) => break, // the program has gone: broken pipe
            }
        }
        written
    });
    let deadline = Instant::now() + Duration::from_secs(30);
    while child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "still running after 30 s");
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = child.wait_with_output().unwrap();
    let written = feeder.join().unwrap();
    eprintln!(
        "refused 100 MB after {:?}, having taken {written} bytes",
        started.elapsed()
    );
    assert_eq!(failure_code(&out), "too_large");
    assert!(
        written <= MAX_INPUT + 1 + (1 << 20),
        "{written} bytes taken: more than the limit plus a pipe buffer"
    );
}

#[test]
fn memory_stays_small_whatever_the_input_size() {
    // Under a 64 MiB address-space limit, a program that buffered its input would fail on
    // 100 MB; this one never holds more than the limit.
    let script = format!("ulimit -v 65536; head -c 100000000 /dev/zero | {BIN}");
    let out = Command::new("sh").arg("-c").arg(script).output().unwrap();
    assert_eq!(failure_code(&out), "too_large");
}

#[test]
fn deep_nesting_at_every_size_up_to_the_limit_is_too_deep() {
    for levels in [65, 66, 100, 128, 129, 1_000, 10_000, 32_768, MAX_INPUT] {
        assert_fails("[".repeat(levels).as_bytes(), "too_deep");
        let objects = "{\"a\":".repeat(levels).into_bytes();
        assert_fails(&objects[..objects.len().min(MAX_INPUT)], "too_deep");
        let inside = format!(
            r#"{{"op":"tool_list","x":{}"#,
            "[".repeat(levels.min(MAX_INPUT - 30))
        );
        assert_fails(inside.as_bytes(), "too_deep");
    }
    // 64 levels are within the limit: the request is then refused for what it means.
    let at_limit = format!(
        r#"{{"op":"tool_list","x":{}{}}}"#,
        "[".repeat(63),
        "]".repeat(63)
    );
    assert_fails(at_limit.as_bytes(), "unknown_field");
}

/// Bad bytes, spliced into every part of a valid request.
#[test]
fn bad_bytes_anywhere_are_malformed() {
    let request = br#"{"op":"tool_schema","tool":"read_file","format":"openai"}"#;
    let bad: &[&[u8]] = &[
        b"\xFF",
        b"\xC0\xAF",         // overlong '/'
        b"\xE0\x80\x80",     // overlong NUL
        b"\xF0\x80\x80\x80", // overlong, four bytes
        b"\xED\xA0\x80",     // encoded high surrogate
        b"\xED\xBF\xBF",     // encoded low surrogate
        b"\xF4\x90\x80\x80", // past U+10FFFF
        b"\x80",             // a lone continuation byte
        b"\xC3",             // a truncated sequence
        b"\x00",             // NUL
        b"\x1B[31m",         // a terminal escape
    ];
    for insert in bad {
        for at in 0..=request.len() {
            let input = [&request[..at], insert, &request[at..]].concat();
            assert_fails(&input, "malformed_json");
        }
    }
}

#[test]
fn empty_and_whitespace_only_input_is_malformed() {
    for input in [&b""[..], b" ", b"\n", b"\t\r\n \n", &[b' '; MAX_INPUT]] {
        assert_fails(input, "malformed_json");
    }
    assert_fails(&[b' '; MAX_INPUT + 1], "too_large");
}

#[test]
fn escapes_for_lone_surrogates_are_malformed() {
    for value in [
        r"\ud800",
        r"\udbff",
        r"\udc00",
        r"\udfff",
        r"\ud800\ud800",
        r"\udc00\ud800",
        r"\ud800\u0041",
        r"\ud800x",
    ] {
        let input = format!(r#"{{"op":"tool_schema","tool":"{value}"}}"#);
        assert_fails(input.as_bytes(), "malformed_json");
    }
}

#[test]
fn a_directory_or_a_closed_stdin() {
    let out = Command::new(BIN)
        .stdin(std::fs::File::open("/").unwrap())
        .output()
        .unwrap();
    assert_eq!(failure_code(&out), "io");
    // A closed standard input reads as empty: std reopens it on /dev/null before main.
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("exec {BIN} <&-"))
        .output()
        .unwrap();
    assert_eq!(failure_code(&out), "malformed_json");
}

#[test]
fn a_stdout_whose_reader_has_gone_is_exit_1_without_panic() {
    for args in [&[][..], &["--stream"]] {
        let mut child = common::spawn(args);
        drop(child.stdout.take());
        let mut stdin = child.stdin.take().unwrap();
        let _ = stdin.write_all(br#"{"op":"tool_list"}"#);
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert_eq!(failure_code(&out), "io", "{args:?}");
        assert!(stderr.contains("broken pipe"), "{stderr}");
    }
}
