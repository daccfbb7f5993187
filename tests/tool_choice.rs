//! `tool_choice`, byte for byte, against the golden files in `tests/tool_choice/`, written by
//! `tests/golden_reference.py` from each provider's documentation: every choice (each tool of
//! the default catalog forced in turn), with `parallel` absent, true or false, in every format.
//! The compiled-in catalog and the same file read at run time give the same bytes; the CLI too.
//! Then the refusals, each with its code and where it points.

mod common;

use tool_schema::{respond, Format, RuntimeCatalog};

const FORMATS: [Format; 5] = [
    Format::OpenAi,
    Format::OpenAiResponses,
    Format::Anthropic,
    Format::Gemini,
    Format::Mcp,
];

fn dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tool_choice")
}

/// The request for a golden file's name: `<choice>[.parallel|.serial]`, the choice a word or
/// `tool.<name>`.
fn request(format: Format, stem: &str) -> String {
    let (choice, parallel) = match stem.rsplit_once('.') {
        Some((choice, "parallel")) => (choice, r#","parallel":true"#),
        Some((choice, "serial")) => (choice, r#","parallel":false"#),
        _ => (stem, ""),
    };
    let choice = match choice.strip_prefix("tool.") {
        Some(tool) => format!(r#"{{"tool":"{tool}"}}"#),
        None => format!(r#""{choice}""#),
    };
    let format = format.name();
    format!(r#"{{"op":"tool_choice","format":"{format}","choice":{choice}{parallel}}}"#)
}

fn runtime() -> RuntimeCatalog {
    let file = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/src/catalog.json")).unwrap();
    RuntimeCatalog::from_bytes(&file).unwrap()
}

#[test]
fn every_choice_in_every_format_matches_its_golden_file() {
    let catalog = runtime();
    let mut seen = 0;
    for format in FORMATS {
        let mut names: Vec<_> = std::fs::read_dir(dir().join(format.name()))
            .unwrap()
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        // auto, none, required and the three tools, each three ways.
        assert_eq!(names.len(), 18, "{}: {names:?}", format.name());
        for name in names {
            let path = dir().join(format.name()).join(&name);
            let want = std::fs::read(&path).unwrap();
            let (stem, error) = match name.strip_suffix(".error") {
                Some(stem) => (stem, true),
                None => (name.strip_suffix(".json").unwrap(), false),
            };
            let request = request(format, stem);
            let (mut compiled, mut run_time) = (Vec::new(), Vec::new());
            let answers = (
                respond(request.as_bytes(), &mut compiled),
                catalog.respond(request.as_bytes(), &mut run_time),
            );
            match answers {
                (Ok(()), Ok(())) if !error => {
                    common::assert_same_bytes(&compiled, &want, &request);
                    assert_eq!(run_time, compiled, "{request}");
                }
                (Err(a), Err(b)) if error => {
                    let code = String::from_utf8(want).unwrap();
                    assert_eq!(format!("{}\n", a.code()), code, "{request}: {a}");
                    assert_eq!(a, b, "{request}");
                    assert!(compiled.is_empty() && run_time.is_empty());
                }
                other => panic!("{request}: {other:?}, golden {}", path.display()),
            }
            seen += 1;
        }
    }
    assert_eq!(seen, 90);
}

#[test]
fn the_cli_prints_the_golden_bytes() {
    let request = request(Format::Anthropic, "tool.write_file.serial");
    let out = common::run(&[], request.as_bytes());
    assert!(out.status.success(), "{out:?}");
    let want = std::fs::read(dir().join("anthropic/tool.write_file.serial.json")).unwrap();
    common::assert_same_bytes(&out.stdout, &want, &request);
}

/// The error for `request`, from the compiled-in catalog and from the run-time one, which must
/// agree: its code, and its message.
fn refused(request: &str) -> (String, String) {
    let mut out = Vec::new();
    let err = respond(request.as_bytes(), &mut out).unwrap_err();
    let same = runtime().respond(request.as_bytes(), &mut out).unwrap_err();
    assert_eq!(err, same, "{request}");
    assert!(out.is_empty(), "{request}");
    (err.code().to_string(), err.to_string())
}

#[test]
fn refusals_say_what_and_where() {
    let cases = [
        // A tool the catalog does not have, with the closest name.
        (
            r#"{"op":"tool_choice","choice":{"tool":"read_fil"}}"#,
            "unknown_tool",
            "\"read_fil\" at byte 37 is not a tool; did you mean \"read_file\"?",
        ),
        (
            r#"{"op":"tool_choice","choice":"any"}"#,
            "wrong_type",
            "field \"choice\" must be \"auto\", \"none\", \"required\" or {\"tool\":NAME}, found another string at byte 29",
        ),
        (
            r#"{"op":"tool_choice","choice":3}"#,
            "wrong_type",
            "found a number at byte 29",
        ),
        (
            r#"{"op":"tool_choice","choice":{"tool":["read_file"]}}"#,
            "wrong_type",
            "field \"tool\" must be a string, found an array at byte 37",
        ),
        (
            r#"{"op":"tool_choice","choice":{"name":"read_file"}}"#,
            "unknown_field",
            "\"name\" at byte 30 is not a field of this request; expected tool",
        ),
        (
            r#"{"op":"tool_choice","choice":{"tool":"read_file","tool":"read_file"}}"#,
            "duplicate_field",
            "field \"tool\" appears again at byte 49",
        ),
        (
            r#"{"op":"tool_choice","choice":{}}"#,
            "missing_field",
            "missing field \"tool\"",
        ),
        (
            r#"{"op":"tool_choice","format":"openai"}"#,
            "missing_field",
            "missing field \"choice\"",
        ),
        (
            r#"{"op":"tool_choice","choice":"auto","parallel":"no"}"#,
            "wrong_type",
            "field \"parallel\" must be a boolean, found a string at byte 47",
        ),
        // Fields of other ops, and these fields with other ops.
        (
            r#"{"op":"tool_choice","choice":"auto","tool":"read_file"}"#,
            "unknown_field",
            "expected op, format, strict, choice, parallel",
        ),
        (
            r#"{"op":"tool_list","parallel":false}"#,
            "unknown_field",
            "\"parallel\" at byte 18 is not a field of this request; expected op, format, strict",
        ),
        // What a format cannot say, pointing at the field that asks it.
        (
            r#"{"op":"tool_choice","format":"mcp","choice":"auto"}"#,
            "unsupported",
            "format mcp cannot say this (byte 20): MCP has no tool choice",
        ),
        (
            r#"{"op":"tool_choice","format":"gemini","choice":"auto","parallel":true}"#,
            "unsupported",
            "format gemini cannot say this (byte 54): Gemini has no switch for parallel calls",
        ),
        (
            r#"{"op":"tool_choice","format":"gemini","strict":true,"choice":"auto"}"#,
            "unsupported",
            "format gemini has no strict mode",
        ),
        // A syntax error anywhere wins.
        (
            r#"{"op":"tool_choice","choice":{"tool":"nope"},}"#,
            "malformed_json",
            "",
        ),
    ];
    for (request, code, message) in cases {
        let (got_code, got_message) = refused(request);
        assert_eq!(got_code, code, "{request}: {got_message}");
        assert!(
            got_message.contains(message),
            "{request}: {got_message:?} lacks {message:?}"
        );
        assert!(!got_message.contains('\n'), "{got_message}");
    }
}

/// A tool that a shape cannot declare is not among the tools sent, so it cannot be forced there
/// either: Anthropic strict cannot declare a recursive schema, and forcing that tool there is
/// refused with tool_schema's own error; without strict it is answered.
#[test]
fn a_tool_the_shape_cannot_declare_cannot_be_forced() {
    let file = br##"[{"name":"tree","description":"Walks a tree.","inputSchema":{"type":"object",
        "properties":{"node":{"$ref":"#/$defs/node"}},"required":["node"],"additionalProperties":false,
        "$defs":{"node":{"type":"object","properties":{"children":{"type":"array",
        "items":{"$ref":"#/$defs/node"}}},"required":["children"],"additionalProperties":false}}}}]"##;
    let catalog = RuntimeCatalog::from_bytes(file).unwrap();
    let schema = br#"{"op":"tool_schema","tool":"tree","format":"anthropic","strict":true}"#;
    let forced =
        br#"{"op":"tool_choice","choice":{"tool":"tree"},"format":"anthropic","strict":true}"#;
    let mut out = Vec::new();
    let declared = catalog.respond(schema, &mut out).unwrap_err();
    let chosen = catalog.respond(forced, &mut out).unwrap_err();
    assert_eq!(declared.code(), "unsupported");
    assert_eq!(chosen, declared);
    assert!(out.is_empty());
    let plain = br#"{"op":"tool_choice","choice":{"tool":"tree"},"format":"anthropic"}"#;
    catalog.respond(plain, &mut out).unwrap();
    assert_eq!(
        out,
        b"{\"tool_choice\":{\"name\":\"tree\",\"type\":\"tool\"}}\n"
    );
}
