//! Every response, byte for byte, against the golden files in `tests/golden/`.
//!
//! The golden files are written by `tests/golden_reference.py` from the seed's tables and the
//! shape rules, with Python's `json.dumps(sort_keys=True, separators=(",", ":"),
//! ensure_ascii=False)`: independently of this crate's writer. One file per tool and shape,
//! `tests/golden/<format>/<tool>[.strict].json`, and one per list, `tool_list[.strict].json`.

mod common;

use tool_schema::catalog::NAMES;
use tool_schema::tokenizer::{Kind, Tokenizer};
use tool_schema::{respond, Format, Shape, MAX_OUTPUT};

/// The golden file for a tool (or `tool_list`) in a shape.
fn golden_path(name: &str, shape: Shape) -> String {
    let strict = if shape.strict() { ".strict" } else { "" };
    let format = shape.format().name();
    format!(
        "{}/tests/golden/{format}/{name}{strict}.json",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn golden(name: &str, shape: Shape) -> Vec<u8> {
    let path = golden_path(name, shape);
    std::fs::read(&path).unwrap_or_else(|err| panic!("{path}: {err}"))
}

fn answer(request: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    respond(request, &mut out)
        .unwrap_or_else(|err| panic!("{}: {err}", String::from_utf8_lossy(request)));
    out
}

/// `{"op":"tool_schema",...}` or `{"op":"tool_list",...}` for a shape, spelled out in full.
fn request(tool: Option<&str>, shape: Shape) -> String {
    let (format, strict) = (shape.format().name(), shape.strict());
    match tool {
        Some(tool) => format!(
            r#"{{"op":"tool_schema","tool":"{tool}","format":"{format}","strict":{strict}}}"#
        ),
        None => format!(r#"{{"op":"tool_list","format":"{format}","strict":{strict}}}"#),
    }
}

#[test]
fn every_tool_in_every_shape_matches_its_golden_file() {
    let mut count = 0;
    for shape in Shape::all() {
        for tool in NAMES {
            assert_eq!(
                answer(request(Some(tool), shape).as_bytes()),
                golden(tool, shape),
                "{} {shape:?}",
                tool
            );
            count += 1;
        }
        assert_eq!(
            answer(request(None, shape).as_bytes()),
            golden("tool_list", shape),
            "tool_list {shape:?}"
        );
    }
    assert_eq!(
        count,
        3 * 9,
        "3 tools in 9 shapes: 6 formats, 3 of them with strict"
    );
}

#[test]
fn golden_files_are_exactly_the_variants() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flat_map(|format| std::fs::read_dir(format.unwrap().path()).unwrap())
        .map(|entry| entry.unwrap().path().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut want: Vec<String> = Shape::all()
        .flat_map(|shape| {
            NAMES
                .into_iter()
                .chain(["tool_list"])
                .map(move |name| golden_path(name, shape))
        })
        .collect();
    want.sort();
    assert_eq!(
        files, want,
        "a golden file without a variant, or a variant without a golden file"
    );
}

#[test]
fn the_cli_prints_the_golden_bytes() {
    for shape in Shape::all() {
        for name in NAMES.map(Some).into_iter().chain([None]) {
            let out = common::run(&[], request(name, shape).as_bytes());
            assert_eq!(
                out.status.code(),
                Some(0),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(out.stderr.is_empty());
            assert_eq!(
                out.stdout,
                golden(name.unwrap_or("tool_list"), shape),
                "{name:?} {shape:?}"
            );
        }
    }
}

#[test]
fn defaults_are_openai_and_not_strict() {
    let default = Shape::new(Format::OpenAi, false).unwrap();
    assert_eq!(
        answer(br#"{"op":"tool_schema","tool":"read_file"}"#),
        golden("read_file", default)
    );
    assert_eq!(
        answer(br#"{"op":"tool_list"}"#),
        golden("tool_list", default)
    );
    for format in Format::ALL {
        let not_strict = Shape::new(format, false).unwrap();
        let omitted = format!(
            r#"{{"op":"tool_schema","tool":"write_file","format":"{}"}}"#,
            format.name()
        );
        assert_eq!(
            answer(omitted.as_bytes()),
            golden("write_file", not_strict),
            "{format:?}"
        );
    }
}

#[test]
fn strict_without_a_strict_mode_is_unsupported() {
    for format in Format::ALL {
        for name in [Some("read_file"), None] {
            let mut out = Vec::new();
            let body = request(name, Shape::new(format, false).unwrap())
                .replace("\"strict\":false", "\"strict\":true");
            let result = respond(body.as_bytes(), &mut out);
            assert_eq!(result.is_ok(), format.has_strict(), "{body}");
            if let Err(err) = result {
                assert_eq!(err.code(), "unsupported");
                assert!(out.is_empty());
            }
        }
    }
}

#[test]
fn the_same_request_written_differently_gives_the_same_bytes() {
    let want = golden("read_file", Shape::new(Format::OpenAi, false).unwrap());
    let spellings: &[&[u8]] = &[
        br#"{"tool":"read_file","op":"tool_schema"}"#,
        b" \t\r\n{ \"op\" : \"tool_schema\" ,\n\t\"tool\"\r\n:\"read_file\" } \n\n",
        br#"{"op":"tool_schema","tool":"read\u005ffile"}"#,
        br#"{"\u006fp":"\u0074ool_schema","tool":"\u0072\u0065\u0061\u0064\u005F\u0066\u0069\u006C\u0065"}"#,
        br#"{"strict":false,"format":"openai","tool":"read_file","op":"tool_schema"}"#,
        br#"{"op":"tool_schema","tool":"read_file","format":"\u006fpenai"}"#,
    ];
    for request in spellings {
        assert_eq!(
            answer(request),
            want,
            "{}",
            String::from_utf8_lossy(request)
        );
    }
    // "\/" decodes to "/", so this one names another op.
    let mut out = Vec::new();
    let err = respond(br#"{"op":"tool\/schema","tool":"read_file"}"#, &mut out).unwrap_err();
    assert_eq!(err.code(), "unknown_op");
    assert!(out.is_empty());
}

/// The output rules, checked on every response with the crate's own tokenizer: valid JSON,
/// compact, keys sorted by byte order at every level, no `\u` escapes, one trailing newline.
#[test]
fn every_response_is_canonical() {
    for tool in NAMES {
        let request = format!(r#"{{"op":"tool_schema","tool":"{tool}"}}"#);
        let out = answer(request.as_bytes());
        assert!(out.len() <= MAX_OUTPUT, "{} is {} bytes", tool, out.len());
        assert_canonical(&out);
    }
}

/// `MAX_OUTPUT` is derived from the catalog: exactly the longest answer there is, a list.
#[test]
fn max_output_is_the_longest_list() {
    let longest = Shape::all()
        .map(|shape| golden("tool_list", shape).len())
        .max()
        .unwrap();
    assert_eq!(MAX_OUTPUT, longest);
    assert_eq!(longest, 1528, "the mcp list, as docs/security.md says");
}

pub fn assert_canonical(out: &[u8]) {
    let text = std::str::from_utf8(out).expect("UTF-8");
    let body = text.strip_suffix('\n').expect("a trailing newline");
    assert!(!body.ends_with('\n'), "one trailing newline only");
    assert!(!body.contains("\\u"), "a \\u escape in {body}");
    let mut tokens = Tokenizer::new(body.as_bytes());
    // The last key seen in each open object; arrays push a placeholder.
    let mut last_keys: Vec<Option<&[u8]>> = Vec::new();
    let mut expected_end = 0;
    while let Some(token) = tokens.next().expect("valid JSON") {
        // Compact: each token starts right after the previous one and its ',' or ':'.
        let gap = &body.as_bytes()[expected_end..token.at];
        assert!(
            matches!(gap, b"" | b"," | b":"),
            "whitespace at byte {expected_end} of {body}"
        );
        expected_end = token.at + token.raw.len();
        match token.kind {
            Kind::ObjectStart | Kind::ArrayStart => last_keys.push(None),
            Kind::ObjectEnd | Kind::ArrayEnd => drop(last_keys.pop()),
            Kind::Key => {
                let key = &token.raw[1..token.raw.len() - 1];
                let last = last_keys.last_mut().unwrap();
                if let Some(previous) = last {
                    assert!(
                        *previous < key,
                        "key {:?} after {:?}",
                        String::from_utf8_lossy(key),
                        String::from_utf8_lossy(previous)
                    );
                }
                *last = Some(key);
            }
            _ => {}
        }
    }
    assert_eq!(expected_end, body.len());
}

/// check_call over the default catalog: every case in `tests/calls/default/cases.json` answers
/// exactly its golden file, which `tests/call_reference.py` wrote from the specification; and
/// so does the same catalog read at run time (issue 19).
#[test]
fn check_call_answers_match_their_golden_files() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("tests/calls/default");
    let catalog = std::fs::read(root.join("src/catalog.json")).unwrap();
    let run_time = tool_schema::RuntimeCatalog::from_bytes(&catalog).unwrap();
    let mut checked = 0;
    for (name, request) in common::call_cases_in(&dir, common::DEFAULT_CALLS) {
        let want = std::fs::read(dir.join(format!("golden/{name}.json")))
            .unwrap_or_else(|err| panic!("golden/{name}.json: {err}"));
        let mut out = Vec::new();
        tool_schema::respond(request.as_bytes(), &mut out)
            .unwrap_or_else(|err| panic!("{name}: {err}"));
        common::assert_same_bytes(&out, &want, &name);
        out.clear();
        run_time
            .respond(request.as_bytes(), &mut out)
            .unwrap_or_else(|err| panic!("{name}: {err}"));
        common::assert_same_bytes(&out, &want, &format!("{name}, read at run time"));
        checked += 1;
    }
    assert_eq!(checked, common::DEFAULT_CALLS);
}
/// The goldens' comparison tells apart bytes that a lossy text comparison shows alike (both
/// invalid bytes become U+FFFD there).
#[test]
#[should_panic(expected = "the bytes differ")]
fn golden_answers_are_compared_as_bytes() {
    assert_eq!(
        String::from_utf8_lossy(b"\xff"),
        String::from_utf8_lossy(b"\xfe")
    );
    common::assert_same_bytes(b"\xff", b"\xfe", "two invalid bytes");
}

/// A valid call of 40 KiB, which the quick path answers: in a debug build the general path
/// answers it too and every byte is compared (`quick_call::agrees_with_general`).
#[test]
fn a_long_call_is_answered_and_cross_checked_whole() {
    let content = "x".repeat(40 * 1024);
    let request = format!(
        r#"{{"op":"check_call","call":{{"id":"c","type":"function","function":{{"name":"write_file","arguments":"{{\"path\":\"a\",\"content\":\"{content}\"}}"}}}}}}"#
    );
    let want = format!(
        r#"{{"arguments":{{"content":"{content}","path":"a"}},"id":"c","name":"write_file","ok":true}}"#
    ) + "\n";
    common::assert_same_bytes(&answer(request.as_bytes()), want.as_bytes(), "40 KiB call");
}

/// `writer::declaration` is each tool's golden answer without its newline, and `None` past the
/// catalog's end, in every shape (it used to panic there).
#[test]
fn a_declaration_by_index_is_the_golden_answer_or_none() {
    for shape in Shape::all() {
        for (index, tool) in NAMES.into_iter().enumerate() {
            let golden = golden(tool, shape);
            assert_eq!(
                tool_schema::writer::declaration(index, shape),
                Some(&golden[..golden.len() - 1])
            );
        }
        assert_eq!(tool_schema::writer::declaration(NAMES.len(), shape), None);
        assert_eq!(tool_schema::writer::declaration(usize::MAX, shape), None);
    }
}

/// The call goldens come from the reference alone. A copy of `tests/call_reference.py` runs in
/// a directory of its own, with no build of this crate anywhere near it, and writes every
/// golden answer again for both catalogs: each must be the committed file, byte for byte. (The
/// reference used to run `target/debug/tool-schema` for the text of malformed arguments.)
#[test]
fn the_call_reference_writes_every_call_golden_without_the_crate() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let alone = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("call-reference");
    let _ = std::fs::remove_dir_all(&alone);
    std::fs::create_dir_all(alone.join("tests")).unwrap();
    let script = alone.join("tests/call_reference.py");
    std::fs::copy(root.join("tests/call_reference.py"), &script).unwrap();
    let mut written = 0;
    for (catalog, cases, count) in [
        ("src/catalog.json", "default", common::DEFAULT_CALLS),
        (
            "tests/catalogs/bounds/catalog.json",
            "bounds",
            common::BOUNDS_CALLS,
        ),
    ] {
        let out = alone.join(cases);
        let status = std::process::Command::new("python3")
            .arg(&script)
            .arg(root.join(catalog))
            .arg(root.join(format!("tests/calls/{cases}/cases.json")))
            .arg(&out)
            .current_dir(&alone)
            .status()
            .expect("python3 runs");
        assert!(status.success(), "the reference failed on {cases}");
        let committed = root.join(format!("tests/calls/{cases}/golden"));
        let mut files = 0;
        for entry in std::fs::read_dir(&committed).unwrap() {
            let name = entry.unwrap().file_name();
            let again = std::fs::read(out.join(&name))
                .unwrap_or_else(|err| panic!("{cases}/{name:?}: {err}"));
            let want = std::fs::read(committed.join(&name)).unwrap();
            common::assert_same_bytes(&again, &want, &format!("{cases}/{name:?}"));
            files += 1;
        }
        assert_eq!(files, count, "{cases}");
        assert_eq!(std::fs::read_dir(&out).unwrap().count(), count, "{cases}");
        written += files;
    }
    assert_eq!(written, common::DEFAULT_CALLS + common::BOUNDS_CALLS);
}
