//! The typed API (`Tools`) against the bytes API it is built on, and `examples/harness.rs` run
//! as a newcomer runs it.

use std::path::{Path, PathBuf};
use std::process::Command;
use tool_schema::{BadTool, Choice, ErrorCode, Format, ProblemCode, RuntimeCatalog, Shape, Tools};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn server() -> PathBuf {
    Path::new(ROOT).join("tests/catalogs/mcp-servers/server-filesystem.json")
}

fn bytes_answer(catalog: &RuntimeCatalog, request: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    match catalog.respond(request.as_bytes(), &mut out) {
        Ok(()) => Ok(out),
        Err(err) => Err(format!("{}: {err}", err.code())),
    }
}

/// Every declaration, list and tool choice of the typed API is the bytes API's answer to the
/// same request, in every shape; and the compiled-in catalog answers as `respond` does.
#[test]
fn declarations_lists_and_choices_are_the_bytes_apis() {
    let tools = Tools::load_path(&server(), BadTool::IsLeftOut).unwrap();
    let catalog = RuntimeCatalog::from_path(&server()).unwrap();
    let names = ["read_text_file", "write_file", "move_file", "nope"];
    let mut compared = 0;
    for shape in Shape::all() {
        let (format, strict) = (shape.format().name(), shape.strict());
        let tail = format!(r#""format":"{format}","strict":{strict}}}"#);
        for name in names {
            let want = bytes_answer(
                &catalog,
                &format!(r#"{{"op":"tool_schema","tool":"{name}",{tail}"#),
            );
            let got = tools.declaration(name, shape);
            assert_eq!(got.map_err(|e| format!("{}: {e}", e.code())), want);
            compared += 1;
        }
        let want = bytes_answer(&catalog, &format!(r#"{{"op":"tool_list",{tail}"#));
        let got = tools
            .tool_list(shape)
            .map_err(|e| format!("{}: {e}", e.code()));
        assert_eq!(got, want);
        for (choice, text) in [
            (Choice::Auto, r#""auto""#),
            (Choice::Required, r#""required""#),
            (Choice::Tool("write_file"), r#"{"tool":"write_file"}"#),
        ] {
            let want = bytes_answer(
                &catalog,
                &format!(r#"{{"op":"tool_choice","choice":{text},"parallel":false,{tail}"#),
            );
            let got = tools.tool_choice(shape, choice, Some(false));
            assert_eq!(got.map_err(|e| format!("{}: {e}", e.code())), want);
            compared += 1;
        }
    }
    assert_eq!(compared, Shape::all().count() * (names.len() + 3));
    let shape = Shape::new(Format::Mcp, false).unwrap();
    let mut want = Vec::new();
    tool_schema::respond(br#"{"op":"tool_list","format":"mcp"}"#, &mut want).unwrap();
    assert_eq!(Tools::Compiled.tool_list(shape).unwrap(), want);
}

/// A verdict holds what the answer says: canonical arguments, or problems with their codes,
/// paths and messages and the reply; a refused request is an `Error` with its code.
#[test]
fn a_verdict_holds_the_answers_fields() {
    let tools = Tools::load_path(&server(), BadTool::IsLeftOut).unwrap();
    let anthropic = Shape::new(Format::Anthropic, false).unwrap();
    let verdict = tools
        .check_call(
            anthropic,
            br#"{"type":"tool_use","id":"t1","name":"move_file","input":{"destination":"b","source":"a"}}"#,
        )
        .unwrap();
    assert!(verdict.ok() && verdict.problems.is_empty() && verdict.reply.is_none());
    assert_eq!(verdict.name, "move_file");
    assert_eq!(verdict.id.as_deref(), Some("t1"));
    assert_eq!(
        verdict.arguments.as_deref(),
        Some(r#"{"destination":"b","source":"a"}"#)
    );
    let verdict = tools
        .check_call(
            anthropic,
            br#"{"type":"tool_use","id":"t2","name":"move_file","input":{"source":"a\"b","extra":1}}"#,
        )
        .unwrap();
    assert!(!verdict.ok());
    let problems: Vec<(&str, &str)> = (verdict.problems.iter())
        .map(|p| (p.code.as_str(), p.path.as_str()))
        .collect();
    assert_eq!(verdict.problems[0].code, ProblemCode::UnknownArgument);
    assert_eq!(
        problems,
        [
            ("unknown_argument", "/extra"),
            ("missing_argument", "/destination")
        ]
    );
    assert!(verdict.problems[0]
        .message
        .starts_with("unknown argument \"extra\""));
    let reply = verdict.reply.unwrap();
    assert!(
        reply.starts_with(r#"{"content":"unknown argument \"extra\""#),
        "{reply}"
    );
    assert!(
        reply.ends_with(r#""tool_use_id":"t2","type":"tool_result"}"#),
        "{reply}"
    );
    // An Anthropic block sent as an OpenAI call: the request is refused, with its code.
    let openai = Shape::new(Format::OpenAi, false).unwrap();
    let err = tools
        .check_call(
            openai,
            br#"{"type":"tool_use","id":"t1","name":"move_file","input":{}}"#,
        )
        .unwrap_err();
    assert_eq!(
        (err.kind(), err.code()),
        (ErrorCode::WrongType, "wrong_type")
    );
    assert!(
        err.to_string().contains(r#"send "format":"anthropic""#),
        "{err}"
    );
    // A turn: one verdict a call.
    let turn = br#"[{"type":"text","text":"x"},{"type":"tool_use","id":"a","name":"move_file","input":{}},{"type":"tool_use","id":"b","name":"list_allowed_directories","input":{}}]"#;
    let verdicts = tools.check_turn(anthropic, turn).unwrap();
    let oks: Vec<bool> = verdicts.iter().map(|v| v.ok()).collect();
    assert_eq!(oks, [false, true]);
    assert_eq!(verdicts[1].arguments.as_deref(), Some("{}"));
    // A file that cannot be read is a refusal of the document, saying why.
    let err =
        Tools::load_path(Path::new("/nonexistent/tools.json"), BadTool::IsLeftOut).unwrap_err();
    assert!(err.tool.is_none() && err.rule.starts_with("cannot read the file: "));
}

/// A streamed call settles as the bytes API's `call_delta` settles it, event by event.
#[test]
fn a_call_stream_settles_as_call_delta_does() {
    let catalog = Path::new(ROOT).join("tests/streams/catalog.json");
    let tools = Tools::load_path(&catalog, BadTool::IsLeftOut).unwrap();
    let runtime = RuntimeCatalog::from_path(&catalog).unwrap();
    let events =
        std::fs::read_to_string(Path::new(ROOT).join("tests/streams/anthropic_get_weather.jsonl"))
            .unwrap();
    let anthropic = Shape::new(Format::Anthropic, false).unwrap();
    let mut stream = tools.call_stream(anthropic);
    let mut streams = tool_schema::CallStreams::default();
    let mut settled = 0;
    for event in events.lines() {
        let got = stream.event(event.as_bytes()).unwrap();
        let request =
            format!(r#"{{"op":"call_delta","format":"anthropic","stream":"x","event":{event}}}"#);
        let mut want = Vec::new();
        streams
            .respond_over(&runtime, request.as_bytes(), &mut want)
            .unwrap();
        let want = String::from_utf8(want).unwrap();
        assert_eq!(got.len(), want.matches(r#""index":"#).count(), "{want}");
        for call in &got {
            assert!(
                want.contains(&format!(r#""index":{}"#, call.index)),
                "{want}"
            );
            let arguments = call.verdict.arguments.as_deref().unwrap();
            assert!(
                want.contains(&format!(r#""arguments":{arguments}"#)),
                "{want}"
            );
            settled += 1;
        }
    }
    assert_eq!(settled, 1);
    assert!(stream.end().unwrap().is_empty());
}

/// `cargo run --example harness`, as the README shows it: it prints its verdicts.
#[test]
fn the_harness_example_prints_its_verdicts() {
    // Examples are built beside the binaries the tests run.
    let bin = Path::new(env!("CARGO_BIN_EXE_tool-schema"));
    let example = bin.parent().unwrap().join("examples/harness");
    let out = Command::new(&example)
        .current_dir(ROOT)
        .output()
        .unwrap_or_else(|err| panic!("{}: {err}", example.display()));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "0 tools refused");
    assert!(lines[1].starts_with("OpenAI strict: ") && lines[2].starts_with("Anthropic: "));
    assert_eq!(lines[3], r#"read_text_file: ok true, {"path":"notes.md"}"#);
    assert!(lines[4].starts_with(r#"read_text_file: unknown_argument at "/file": "#));
    assert!(lines[5].starts_with(r#"read_text_file: missing_argument at "/path": "#));
    assert!(lines[6].starts_with(r#"reply: {"content":"unknown argument \"file\""#));
    assert_eq!(
        lines[7],
        r#"streamed call 1: get_weather {"location":"Paris"}"#
    );
    assert_eq!(lines.len(), 8, "{text}");
}

/// `cargo doc` shows the public face alone: every module of the crate is private or hidden.
#[test]
fn the_docs_show_no_internal_module() {
    let lib = std::fs::read_to_string(Path::new(ROOT).join("src/lib.rs")).unwrap();
    let lines: Vec<&str> = lib.lines().collect();
    let mut public = 0;
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("pub mod ") {
            public += 1;
            assert_eq!(lines[i - 1], "#[doc(hidden)]", "{line}");
        }
    }
    assert!(public >= 10, "{public}");
}

/// The code enums are the docs' tables: every problem code of checking-calls.md and every error
/// code of errors.md has its variant, and no variant is missing from them.
#[test]
fn the_code_enums_are_the_docs_tables() {
    let page = |name: &str, from: &str, to: &str| {
        let text = std::fs::read_to_string(Path::new(ROOT).join("docs").join(name)).unwrap();
        let table = text[text.find(from).unwrap()..].to_string();
        let table = table[..table.find(to).unwrap_or(table.len())].to_string();
        (table.lines())
            .filter_map(|line| Some(line.strip_prefix("| `")?.split('`').next()?.to_string()))
            .collect::<Vec<String>>()
    };
    let problems = page("checking-calls.md", "| `unknown_tool` |", "\n\n");
    let known: Vec<&str> = ProblemCode::ALL.iter().map(|code| code.as_str()).collect();
    assert_eq!(problems, known);
    for code in &problems {
        assert_eq!(ProblemCode::from_code(code).unwrap().as_str(), code);
    }
    let errors = page("errors.md", "## Codes", "## One example");
    assert!(errors.len() >= 16, "{errors:?}");
    let request_errors = [
        ErrorCode::MalformedJson,
        ErrorCode::TooDeep,
        ErrorCode::TooLarge,
        ErrorCode::TooManyStreams,
        ErrorCode::NotAnObject,
        ErrorCode::DuplicateField,
        ErrorCode::UnknownField,
        ErrorCode::MissingField,
        ErrorCode::WrongType,
        ErrorCode::UnknownOp,
        ErrorCode::UnknownTool,
        ErrorCode::UnknownFormat,
        ErrorCode::Unsupported,
        ErrorCode::WrongFormat,
        ErrorCode::Io,
        ErrorCode::Internal,
    ];
    for code in request_errors {
        assert!(
            errors.iter().any(|listed| listed == code.as_str()),
            "{code}"
        );
    }
}
