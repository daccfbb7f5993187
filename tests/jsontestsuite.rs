//! JSONTestSuite (github.com/nst/JSONTestSuite, MIT) through the tokenizer and the CLI:
//! every `y_` accepted, every `n_` rejected, every `i_` decided without a crash and as
//! `docs/conformance.md` says.
//!
//! The suite is read from `../shared/conformance/JSONTestSuite/test_parsing`, or from the
//! directory named by `TOOL_SCHEMA_JSONTESTSUITE`. It is never copied into this repository.
//!
//! A fresh clone has no suite beside it, so these tests are `#[ignore]`d: a plain `cargo test`
//! lists them as ignored, visibly, and passes on what the repository proves by itself (the
//! tokenizer's RFC 8259 table and the exhaustive mini-fuzz). CI (`.ci/run`) runs them with
//! `--include-ignored`, and there a missing directory fails the test: a conformance test that
//! skips itself proves nothing.

mod common;

use std::path::PathBuf;
use tool_schema::tokenizer::validate;

fn suite() -> Vec<(String, Vec<u8>)> {
    let dir = match std::env::var_os("TOOL_SCHEMA_JSONTESTSUITE") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/conformance/JSONTestSuite/test_parsing"),
    };
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|err| {
        panic!(
            "JSONTestSuite not found at {} ({err}); set TOOL_SCHEMA_JSONTESTSUITE to its test_parsing directory",
            dir.display()
        )
    });
    let mut files: Vec<_> = entries
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::read(&path).expect("readable suite file");
            (name, bytes)
        })
        .collect();
    files.sort();
    let count = |prefix: &str| {
        files
            .iter()
            .filter(|(name, _)| name.starts_with(prefix))
            .count()
    };
    assert_eq!(
        (count("y_"), count("n_")),
        (95, 188),
        "not the full suite in {}",
        dir.display()
    );
    files
}

/// What the tokenizer makes of a document: `accepted`, or the error code.
fn verdict(bytes: &[u8]) -> &'static str {
    match validate(bytes) {
        Ok(()) => "accepted",
        Err(err) => err.code(),
    }
}

#[test]
#[ignore = "needs JSONTestSuite: set TOOL_SCHEMA_JSONTESTSUITE or run .ci/run"]
fn y_files_are_accepted_and_n_files_rejected() {
    let mut failures = Vec::new();
    for (name, bytes) in suite() {
        let verdict = verdict(&bytes);
        let ok = match &name[..2] {
            "y_" => verdict == "accepted",
            "n_" => matches!(verdict, "malformed_json" | "too_deep" | "too_large"),
            _ => true,
        };
        if !ok {
            failures.push(format!("{name}: {verdict}"));
        }
    }
    assert!(
        failures.is_empty(),
        "wrong verdicts:\n{}",
        failures.join("\n")
    );
}

#[test]
#[ignore = "needs JSONTestSuite: set TOOL_SCHEMA_JSONTESTSUITE or run .ci/run"]
fn i_files_are_decided_as_the_conformance_page_lists() {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/conformance.md"))
        .unwrap();
    // Rows of the form "| `i_name.json` | verdict |".
    let listed: Vec<(String, String)> = page
        .lines()
        .filter_map(|line| {
            let mut cells = line
                .split('|')
                .map(str::trim)
                .filter(|cell| !cell.is_empty());
            let name = cells.next()?.strip_prefix("`i_")?.strip_suffix('`')?;
            Some((format!("i_{name}"), cells.next()?.to_string()))
        })
        .collect();
    let actual: Vec<(String, String)> = suite()
        .into_iter()
        .filter(|(name, _)| name.starts_with("i_"))
        .map(|(name, bytes)| (name, verdict(&bytes).to_string()))
        .collect();
    assert_eq!(
        listed, actual,
        "the i_ table of docs/conformance.md is out of date"
    );
}

/// The same verdicts through the real binary: a `y_` file may be refused as a request (it is
/// rarely a tool_schema object) but never as JSON; an `n_` file always is.
#[test]
#[ignore = "needs JSONTestSuite: set TOOL_SCHEMA_JSONTESTSUITE or run .ci/run"]
fn through_the_cli() {
    let mut failures = Vec::new();
    for (name, bytes) in suite() {
        let code = common::failure_code(&common::run(&[], &bytes));
        let syntax = matches!(&code[..], "malformed_json" | "too_deep" | "too_large");
        let ok = match &name[..2] {
            "y_" => !syntax,
            "n_" => syntax,
            _ => true,
        };
        if !ok {
            failures.push(format!("{name}: {code}"));
        }
    }
    assert!(
        failures.is_empty(),
        "wrong CLI verdicts:\n{}",
        failures.join("\n")
    );
}
