//! Catalogs read at run time (issue 19): `--catalog`, stream mode's `use_catalog`, and the
//! library's `RuntimeCatalog`. Their exactness against binaries built with each test catalog is
//! in `tests/catalogs.rs`, where those binaries are built.

mod common;

use std::path::{Path, PathBuf};
use tool_schema::{respond, RuntimeCatalog};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn temp(name: &str, bytes: &[u8]) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Requests over the default catalog: every tool in every shape, the lists, errors, and calls.
fn requests() -> Vec<Vec<u8>> {
    let mut requests = Vec::new();
    let formats = ["openai", "openai_responses", "anthropic", "gemini", "mcp"];
    for format in formats {
        for strict in [false, true] {
            for tool in tool_schema::catalog::NAMES.iter().chain(&["rm", "read"]) {
                requests.push(format!(
                    r#"{{"op":"tool_schema","tool":"{tool}","format":"{format}","strict":{strict}}}"#
                ));
            }
            requests.push(format!(
                r#"{{"op":"tool_list","format":"{format}","strict":{strict}}}"#
            ));
        }
    }
    requests.push(r#"{"op":"tool_schema","tool":"read_\u0066ile"}"#.into());
    requests.push(r#"{"op":"nope"}"#.into());
    requests.push("{".into());
    requests.push(
        r#"{"op":"check_call","format":"anthropic","call":{"type":"tool_use","id":"t","name":"read_file","input":{"path":"a.rs"}}}"#.into(),
    );
    requests.push(
        r#"{"op":"check_call","call":{"id":"c","type":"function","function":{"name":"read_fil","arguments":"{}"}}}"#.into(),
    );
    requests.into_iter().map(String::into_bytes).collect()
}

/// The library's `RuntimeCatalog` over `src/catalog.json` gives every answer and every error
/// of the compiled-in catalog, byte for byte (calls to flat tools aside, see
/// docs/checking-calls.md: the ones here are valid or name no tool).
#[test]
fn the_default_catalog_read_at_run_time_answers_as_the_compiled_one() {
    let bytes = std::fs::read(Path::new(ROOT).join("src/catalog.json")).unwrap();
    let catalog = RuntimeCatalog::from_bytes(&bytes).unwrap();
    assert_eq!(catalog.len(), tool_schema::catalog::NAMES.len());
    assert_eq!(catalog.max_output(), tool_schema::MAX_OUTPUT);
    let (mut answers, mut errors) = (0, 0);
    for request in requests() {
        let (mut compiled, mut run_time) = (Vec::new(), Vec::new());
        let a = respond(&request, &mut compiled);
        let b = catalog.respond(&request, &mut run_time);
        let what = String::from_utf8_lossy(&request);
        common::assert_same_bytes(&run_time, &compiled, &what);
        match (a, b) {
            (Ok(()), Ok(())) => answers += 1,
            (Err(a), Err(b)) => {
                assert_eq!(
                    (a.code(), a.to_string()),
                    (b.code(), b.to_string()),
                    "{what}"
                );
                errors += 1;
            }
            (a, b) => panic!("{what}: {a:?} against {b:?}"),
        }
    }
    // Both halves met: declarations and answers, refusals (unknown tools, strict where a format
    // has none, a bad request).
    assert!(answers >= 8 * 4, "{answers}");
    assert!(errors >= 2 * 8 + 2 * 4 + 2, "{errors}");
}

/// A catalog that breaks a rule is refused at start with the build's line after the path:
/// exit status 1, nothing on standard output.
#[test]
fn a_bad_catalog_is_refused_with_the_builds_line() {
    let bytes = br#"[{"name":"x","description":"d","inputSchema":{"type":"object","properties":{"o":{"type":"strin"}}}}]"#;
    let reader = tool_schema::catalog_file::read(bytes).unwrap_err();
    let path = temp("bad-catalog.json", bytes);
    for args in [vec!["--catalog"], vec!["--stream", "--catalog"]] {
        let mut args: Vec<&str> = args;
        let shown = path.to_str().unwrap();
        args.push(shown);
        let out = common::run(&args, br#"{"op":"tool_list"}"#);
        assert_eq!(out.status.code(), Some(1));
        assert!(out.stdout.is_empty());
        assert_eq!(
            String::from_utf8(out.stderr).unwrap(),
            format!("tool-schema: bad_catalog: {shown}: {reader}\n")
        );
    }
    let out = common::run(&["--catalog", "/nonexistent/tools.json"], b"{}");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr)
        .starts_with("tool-schema: bad_catalog: /nonexistent/tools.json: "));
    assert_eq!(common::run(&["--catalog"], b"").status.code(), Some(2));
    assert_eq!(
        common::run(&["--catalog", "a", "--catalog", "b"], b"")
            .status
            .code(),
        Some(2)
    );
}

/// `use_catalog` swaps the catalog for the lines after it; a refused file keeps the one in
/// use; and a wrong `use_catalog` gets the request errors' codes.
#[test]
fn use_catalog_swaps_the_catalog_between_lines_and_keeps_it_on_a_refusal() {
    let one = temp(
        "one-tool.json",
        br#"[{"name":"ping","description":"Ping.","inputSchema":{"type":"object","properties":{}}}]"#,
    );
    let bad = temp("bad-tool.json", br#"[{"name":"ping"}]"#);
    let reader = tool_schema::catalog_file::read(br#"[{"name":"ping"}]"#).unwrap_err();
    let default = Path::new(ROOT).join("src/catalog.json");
    let lines = [
        r#"{"op":"tool_schema","tool":"ping","format":"mcp"}"#.to_string(),
        format!(
            r#"{{"op":"use_catalog","path":{:?}}}"#,
            one.to_str().unwrap()
        ),
        r#"{"op":"tool_schema","tool":"ping","format":"mcp"}"#.to_string(),
        format!(
            r#"{{"path":{:?},"op":"use_catalog"}}"#,
            bad.to_str().unwrap()
        ),
        r#"{"op":"tool_list","format":"mcp"}"#.to_string(),
        r#"{"op":"use_catalog"}"#.to_string(),
        r#"{"op":"use_catalog","path":1}"#.to_string(),
        r#"{"op":"use_catalog","path":"x","tool":"y"}"#.to_string(),
        format!(
            r#"{{"op":"use_catalog","path":{:?}}}"#,
            default.to_str().unwrap()
        ),
        r#"{"op":"tool_schema","tool":"read_file","format":"mcp"}"#.to_string(),
    ];
    let input = lines.join("\n") + "\n";
    let out = common::run(&["--stream"], input.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let answers: Vec<&str> = text.lines().collect();
    assert_eq!(answers.len(), lines.len(), "{text}");
    assert!(
        answers[0].starts_with(r#"{"error":{"code":"unknown_tool""#),
        "{text}"
    );
    assert_eq!(answers[1], r#"{"ok":true,"tools":1}"#);
    let mut ping = Vec::new();
    RuntimeCatalog::from_bytes(&std::fs::read(&one).unwrap())
        .unwrap()
        .respond(lines[2].as_bytes(), &mut ping)
        .unwrap();
    assert_eq!(format!("{}\n", answers[2]).as_bytes(), ping);
    assert!(answers[2].contains(r#""name":"ping""#));
    let refusal = format!("{}: {reader}", bad.to_str().unwrap());
    // JSON's escapes of the message, which holds quotes and no control characters.
    let escaped = refusal.replace('\\', "\\\\").replace('"', "\\\"");
    assert_eq!(
        answers[3],
        format!(r#"{{"error":{{"code":"bad_catalog","message":"{escaped}"}}}}"#)
    );
    assert_eq!(
        answers[4],
        format!("[{}]", answers[2]),
        "the catalog stayed"
    );
    assert!(
        answers[5].starts_with(r#"{"error":{"code":"missing_field""#),
        "{text}"
    );
    assert!(
        answers[6].starts_with(r#"{"error":{"code":"wrong_type""#),
        "{text}"
    );
    assert!(
        answers[7].starts_with(r#"{"error":{"code":"unknown_field""#),
        "{text}"
    );
    assert_eq!(answers[8], r#"{"ok":true,"tools":3}"#);
    let mut read_file = Vec::new();
    respond(
        br#"{"op":"tool_schema","tool":"read_file","format":"mcp"}"#,
        &mut read_file,
    )
    .unwrap();
    assert_eq!(format!("{}\n", answers[9]).as_bytes(), read_file);
    // One-shot mode has no use_catalog.
    let out = common::run(&[], lines[1].as_bytes());
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("tool-schema: unknown_"));
}

/// Hostile catalogs get a clear refusal, in bounded time and memory, and no panic: over the
/// size limit, nested 10,000 deep, 100,000 tools, a `$ref` cycle, a pattern built to be slow.
#[test]
fn hostile_catalogs_are_refused_with_one_line() {
    let tool = |schema: &str| format!(r#"{{"name":"t","description":"d","inputSchema":{schema}}}"#);
    let mut huge = b"[".to_vec();
    huge.resize(16 * 1024 * 1024 + 10, b' ');
    let deep = format!("[{}{}]", "[".repeat(10_000), "]".repeat(10_000));
    let many = format!(
        "[{}]",
        (0..100_000)
            .map(|i| format!(
                r#"{{"name":"t{i}","description":"d","inputSchema":{{"type":"object"}}}}"#
            ))
            .collect::<Vec<_>>()
            .join(",")
    );
    let cycle = format!(
        "[{}]",
        tool(
            r##"{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}}"##
        )
    );
    let slow = format!(
        "[{}]",
        tool(r#"{"type":"object","properties":{"a":{"type":"string","pattern":"^(a|a)*(?=b)"}}}"#)
    );
    let cases: [(&str, Vec<u8>, &str); 5] = [
        ("16 MiB and more", huge, "bytes"),
        ("10,000 levels", deep.into_bytes(), "deep"),
        ("100,000 tools", many.into_bytes(), "1024"),
        ("a $ref cycle", cycle.into_bytes(), "$ref"),
        ("a slow pattern", slow.into_bytes(), "look"),
    ];
    for (what, bytes, word) in cases {
        let started = std::time::Instant::now();
        let err = match RuntimeCatalog::from_bytes(&bytes) {
            Ok(_) => panic!("{what}: read"),
            Err(err) => err.to_string(),
        };
        let took = started.elapsed();
        assert!(!err.contains('\n'), "{what}: {err}");
        assert!(err.contains(word), "{what}: {err}");
        eprintln!("{what}: refused in {took:?}: {err}");
        let path = temp("hostile.json", &bytes);
        let out = common::run(
            &["--catalog", path.to_str().unwrap()],
            br#"{"op":"tool_list"}"#,
        );
        assert_eq!(out.status.code(), Some(1), "{what}");
        assert!(out.stdout.is_empty(), "{what}");
        assert_eq!(
            String::from_utf8(out.stderr).unwrap(),
            format!("tool-schema: bad_catalog: {}: {err}\n", path.display()),
            "{what}"
        );
    }
}
