//! The binary from outside: exit statuses, standard output and standard error, for each success
//! and each error code.

mod common;

use common::{failure_code, run};

#[test]
fn a_tool_schema_request_succeeds_quietly() {
    for tool in ["read_file", "write_file", "patch_file"] {
        let out = run(
            &[],
            format!(r#"{{"op":"tool_schema","tool":"{tool}"}}"#).as_bytes(),
        );
        assert_eq!(out.status.code(), Some(0));
        assert!(out.stderr.is_empty());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains(&format!(r#""name":"{tool}""#)) && text.ends_with("}\n"));
    }
}

/// One row per case: the request and the code it must fail with.
const FAILURES: &[(&[u8], &str)] = &[
    (b"", "malformed_json"),
    (b" \n\t\r ", "malformed_json"),
    (
        b"\xEF\xBB\xBF{\"op\":\"tool_schema\",\"tool\":\"read_file\"}",
        "malformed_json",
    ),
    (
        b"{\"op\":\"tool_schema\",\"tool\":\"read_file\"}{}",
        "malformed_json",
    ),
    (
        b"{\"op\":\"tool_schema\",\"tool\":\"read_file\"} x",
        "malformed_json",
    ),
    (
        b"{\"op\":\"tool_schema\",\"tool\":\"read_file\",}",
        "malformed_json",
    ),
    (
        b"{\"op\":\"tool_schema\",\"tool\":\"read_file\"\x00}",
        "malformed_json",
    ),
    (
        b"{\"op\":\"tool_schema\",\"tool\":\"read_fil\xC3\"}",
        "malformed_json",
    ),
    (
        b"{\"op\":\"tool_schema\",\"tool\":\"\xED\xA0\x80\"}",
        "malformed_json",
    ),
    (
        b"{\"op\":\"tool_schema\",\"tool\":\"\\uDEAD\"}",
        "malformed_json",
    ),
    (
        b"{\"op\":\"tool_schema\",\"tool\":\"a\tb\"}",
        "malformed_json",
    ),
    (
        b"{\"op\":\"tool_schema\",\"tool\":\"\\q\"}",
        "malformed_json",
    ),
    (
        b"{\"op\":\"tool_schema\",\"tool\":\"read_file\",\"n\":01}",
        "malformed_json",
    ),
    (b"{'op':'tool_schema','tool':'read_file'}", "malformed_json"),
    // Syntax wins over meaning, wherever the syntax error is.
    (b"{\"op\":\"nope\",\"tool\":\"read_file\"", "malformed_json"),
    (b"[1, 2, x]", "malformed_json"),
    (
        b"{\"x\":1,\"op\":\"tool_schema\",\"tool\":\"read_file\",\"y\":[}",
        "malformed_json",
    ),
    (b"[]", "not_an_object"),
    (b"\"read_file\"", "not_an_object"),
    (b"null", "not_an_object"),
    (b"42", "not_an_object"),
    (
        b"{\"op\":\"tool_schema\",\"op\":\"tool_schema\",\"tool\":\"read_file\"}",
        "duplicate_field",
    ),
    (
        b"{\"op\":\"tool_schema\",\"tool\":\"read_file\",\"t\\u006fol\":\"read_file\"}",
        "duplicate_field",
    ),
    (
        b"{\"op\":\"tool_schema\",\"tool\":\"read_file\",\"x\":1}",
        "unknown_field",
    ),
    (
        b"{\"op\":\"tool_schema\",\"tool\":\"read_file\",\"Tool\":1}",
        "unknown_field",
    ),
    (
        b"{\"op\":\"tool_schema\",\"tool\":\"read_file\",\"\":1}",
        "unknown_field",
    ),
    (b"{\"x\":1,\"x\":2}", "unknown_field"),
    (b"{}", "missing_field"),
    (b"{\"tool\":\"read_file\"}", "missing_field"),
    (b"{\"op\":\"tool_schema\"}", "missing_field"),
    (b"{\"op\":1,\"tool\":\"read_file\"}", "wrong_type"),
    (b"{\"op\":\"tool_schema\",\"tool\":null}", "wrong_type"),
    (
        b"{\"op\":\"tool_schema\",\"tool\":[\"read_file\"]}",
        "wrong_type",
    ),
    (
        b"{\"op\":\"tool_schema\",\"tool\":{\"name\":\"read_file\"}}",
        "wrong_type",
    ),
    (b"{\"op\":\"tool_schema\",\"tool\":true}", "wrong_type"),
    (
        b"{\"op\":\"TOOL_SCHEMA\",\"tool\":\"read_file\"}",
        "unknown_op",
    ),
    (b"{\"op\":\"\",\"tool\":\"read_file\"}", "unknown_op"),
    (
        b"{\"op\":\"tool_schema \",\"tool\":\"read_file\"}",
        "unknown_op",
    ),
    (b"{\"op\":\"nope\"}", "unknown_op"),
    (
        b"{\"op\":\"tool_schema\",\"tool\":\"read\"}",
        "unknown_tool",
    ),
    (
        b"{\"op\":\"tool_schema\",\"tool\":\"Read_File\"}",
        "unknown_tool",
    ),
    (
        b"{\"op\":\"tool_schema\",\"tool\":\"read_file\\u0000\"}",
        "unknown_tool",
    ),
    (
        b"{\"op\":\"tool_schema\",\"tool\":\"read_file_extra\"}",
        "unknown_tool",
    ),
    (b"{\"op\":\"tool_schema\",\"tool\":\"\"}", "unknown_tool"),
    // Formats, strict and lists.
    (
        b"{\"op\":\"tool_schema\",\"tool\":\"read_file\",\"format\":\"claude\"}",
        "unknown_format",
    ),
    (
        b"{\"op\":\"tool_schema\",\"tool\":\"read_file\",\"format\":\"OpenAI\"}",
        "unknown_format",
    ),
    (b"{\"op\":\"tool_list\",\"format\":\"\"}", "unknown_format"),
    (
        b"{\"op\":\"tool_schema\",\"tool\":\"read_file\",\"format\":1}",
        "wrong_type",
    ),
    (
        b"{\"op\":\"tool_schema\",\"tool\":\"read_file\",\"strict\":\"true\"}",
        "wrong_type",
    ),
    (
        b"{\"op\":\"tool_schema\",\"tool\":\"read_file\",\"strict\":null}",
        "wrong_type",
    ),
    (
        b"{\"op\":\"tool_schema\",\"tool\":\"read_file\",\"strict\":1}",
        "wrong_type",
    ),
    (
        b"{\"op\":\"tool_schema\",\"tool\":\"read_file\",\"format\":\"gemini\",\"strict\":true}",
        "unsupported",
    ),
    (
        b"{\"op\":\"tool_list\",\"format\":\"mcp\",\"strict\":true}",
        "unsupported",
    ),
    (
        b"{\"op\":\"tool_list\",\"tool\":\"read_file\"}",
        "unknown_field",
    ),
    (
        b"{\"op\":\"tool_list\",\"strict\":true,\"strict\":true}",
        "duplicate_field",
    ),
    (
        b"{\"op\":\"tool_list\",\"format\":\"openai\",\"x\":null}",
        "unknown_field",
    ),
    (
        b"{\"op\":\"tool_schema\",\"format\":\"openai\"}",
        "missing_field",
    ),
    (b"{\"format\":\"openai\"}", "missing_field"),
    // check_call: the harness's mistakes in the envelope are request errors.
    (b"{\"op\":\"check_call\"}", "missing_field"),
    (b"{\"op\":\"check_call\",\"tool\":\"read_file\",\"call\":{}}", "unknown_field"),
    (b"{\"op\":\"tool_schema\",\"tool\":\"read_file\",\"call\":{}}", "unknown_field"),
    (b"{\"op\":\"check_call\",\"call\":[]}", "wrong_type"),
    (
        b"{\"op\":\"check_call\",\"call\":{\"id\":\"c\",\"type\":\"function\"}}",
        "missing_field",
    ),
    (
        b"{\"op\":\"check_call\",\"call\":{\"id\":\"c\",\"type\":\"custom\",\"function\":{}}}",
        "wrong_type",
    ),
    (
        b"{\"op\":\"check_call\",\"call\":{\"id\":7,\"type\":\"function\",\"function\":{}}}",
        "wrong_type",
    ),
    (
        b"{\"op\":\"check_call\",\"format\":\"anthropic\",\"call\":{\"type\":\"tool_use\",\"id\":\"t\",\"id\":\"t\",\"name\":\"x\",\"input\":{}}}",
        "duplicate_field",
    ),
    (
        b"{\"op\":\"check_call\",\"format\":\"gemini\",\"strict\":true,\"call\":{\"name\":\"read_file\"}}",
        "unsupported",
    ),
    (
        b"{\"op\":\"check_call\",\"call\":{\"id\":\"c\",\"type\":\"function\",\"function\":{\"name\":\"read_file\",\"arguments\":\"{}\"}}",
        "malformed_json",
    ),
];

/// The CLI answers once, through a 2 KiB buffer: an answer that fits goes out in one write,
/// a longer one a buffer at a time, with pieces larger than the buffer passed straight on.
/// Every length around those edges is what `respond` writes, byte for byte.
#[test]
fn the_cli_writes_what_respond_answers_at_every_length() {
    for len in [
        0, 1, 1900, 1990, 2000, 2010, 2040, 2048, 2100, 4096, 4200, 9000,
    ] {
        let path = "p".repeat(len);
        for (format, call) in [
            (
                "openai",
                format!(
                    r#"{{"id":"c","type":"function","function":{{"name":"read_file","arguments":"{{\"path\":\"{path}\",\"x\":1}}"}}}}"#
                ),
            ),
            (
                "anthropic",
                format!(
                    r#"{{"type":"tool_use","id":"c","name":"read_file","input":{{"path":"{path}"}}}}"#
                ),
            ),
        ] {
            let request = format!(r#"{{"op":"check_call","format":"{format}","call":{call}}}"#);
            let mut want = Vec::new();
            tool_schema::respond(request.as_bytes(), &mut want).unwrap();
            let out = run(&[], request.as_bytes());
            assert_eq!(out.status.code(), Some(0));
            assert!(out.stdout == want, "{format}, a path of {len} bytes");
        }
    }
    for format in ["openai", "mcp"] {
        let request = format!(r#"{{"op":"tool_list","format":"{format}"}}"#);
        let mut want = Vec::new();
        tool_schema::respond(request.as_bytes(), &mut want).unwrap();
        assert!(run(&[], request.as_bytes()).stdout == want, "{request}");
    }
}

#[test]
fn a_check_call_answer_of_any_length_goes_out_whole() {
    // Arguments of 40 KB: the answer is far longer than any declaration, and written in blocks.
    let path = "a/".repeat(20_000);
    let request = format!(
        r#"{{"op":"check_call","call":{{"id":"c","type":"function","function":{{"name":"read_file","arguments":"{{\"path\":\"{path}\"}}"}}}}}}"#
    );
    let out = run(&[], request.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty());
    let want =
        format!(r#"{{"arguments":{{"path":"{path}"}},"id":"c","name":"read_file","ok":true}}"#)
            + "\n";
    assert_eq!(String::from_utf8(out.stdout).unwrap(), want);

    // An invalid call is still an answer: exit 0, the verdict on standard output.
    let out = run(
        &[],
        br#"{"op":"check_call","format":"mcp","call":{"name":"read_file"}}"#,
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains(r#""ok":false"#));
}

#[test]
fn each_error_exits_1_with_one_line_and_its_code() {
    for &(request, code) in FAILURES {
        let out = run(&[], request);
        assert_eq!(
            failure_code(&out),
            code,
            "{:?}",
            String::from_utf8_lossy(request)
        );
    }
}

#[test]
fn too_deep_and_too_large() {
    let deep = format!(
        r#"{{"op":"tool_schema","tool":"read_file","x":{}{}}}"#,
        "[".repeat(64),
        "]".repeat(64)
    );
    assert_eq!(failure_code(&run(&[], deep.as_bytes())), "too_deep");
    let big = vec![b' '; 100 << 20];
    let started = std::time::Instant::now();
    assert_eq!(failure_code(&run(&[], &big)), "too_large");
    eprintln!("100 MiB refused in {:?}", started.elapsed());
}

#[test]
fn a_directory_on_stdin_is_an_io_error() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tool-schema"))
        .stdin(std::fs::File::open(env!("CARGO_MANIFEST_DIR")).unwrap())
        .output()
        .unwrap();
    assert_eq!(failure_code(&out), "io");
}

#[test]
fn messages_say_where_and_what() {
    let out = run(&[], br#"{"op":"tool_schema","tool":"read"}"#);
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "tool-schema: unknown_tool: \"read\" at byte 27 is not a tool; did you mean \"read_file\"? ({\"op\":\"tool_list\"} lists them all)\n"
    );
    // The closest name, by edit distance, whichever tool it is.
    let out = run(&[], br#"{"op":"tool_schema","tool":"patch"}"#);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("did you mean \"patch_file\"?"), "{stderr}");
    let out = run(&[], br#"{"op":"tool_schema","tool":"write_fil"}"#);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("did you mean \"write_file\"?"), "{stderr}");
    let out = run(&[], b"{\"op\":\"tool_schema\" \"tool\"}");
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "tool-schema: malformed_json: expected ',' or '}' after object value, found '\"' at byte 20 (line 1, column 21)\n"
    );
}

#[test]
fn help_and_version_go_to_stdout() {
    let out = run(&["--help"], b"");
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8(out.stdout).unwrap();
    for word in [
        "usage:",
        "tool_schema",
        "malformed_json",
        "unknown_tool",
        "io",
    ] {
        assert!(help.contains(word), "--help lacks {word}");
    }
    let out = run(&["--version"], b"");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        concat!("tool-schema ", env!("CARGO_PKG_VERSION"), "\n")
    );
}

#[test]
fn any_other_argument_is_exit_2() {
    for args in [
        &["--bogus"][..],
        &["-x"],
        &["read_file"],
        &["--help", "extra"],
        &[""],
    ] {
        let out = run(args, br#"{"op":"tool_schema","tool":"read_file"}"#);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        assert!(String::from_utf8(out.stderr)
            .unwrap()
            .starts_with("tool-schema: usage: "));
    }
}

/// `--help` names every op, every flag and every error code the errors page lists.
#[test]
fn help_names_every_op_flag_and_code() {
    let help = String::from_utf8(run(&["--help"], b"").stdout).unwrap();
    let ops = [
        "tool_schema",
        "tool_list",
        "check_call",
        "check_turn",
        "tool_choice",
        "call_delta",
        "use_catalog",
        "skip_unsupported",
    ];
    let flags = [
        "--catalog",
        "--catalog-strict",
        "--stream",
        "--review",
        "--strict",
        "--help",
        "--version",
    ];
    for word in ops.iter().chain(&flags) {
        assert!(help.contains(word), "--help lacks {word}");
    }
    // The formats, as the "format":F line lists them.
    let formats = &help[help.find("\"format\":F").unwrap()..help.find("\"strict\":B").unwrap()];
    for format in tool_schema::wire::Format::ALL {
        let name = format.name();
        assert!(
            formats.split([' ', ',', '\n']).any(|word| word == name),
            "--help's formats lack {name}: {formats}"
        );
    }
    let errors = std::fs::read_to_string("docs/errors.md").unwrap();
    let table = &errors[errors.find("## Codes").unwrap()..errors.find("## One example").unwrap()];
    let codes: Vec<&str> = table
        .lines()
        .filter_map(|line| line.strip_prefix("| `")?.split('`').next())
        .collect();
    assert!(codes.len() >= 17, "{codes:?}");
    for code in codes {
        assert!(help.contains(code), "--help lacks the code {code}");
    }
}

/// Each message a newcomer meets first says what was found and what to do.
#[test]
fn first_mistakes_are_told_what_to_do() {
    let stderr = |args: &[&str], input: &[u8]| String::from_utf8(run(args, input).stderr).unwrap();
    for (input, wants) in [
        (&br#"{"op":"tools_list"}"#[..], &[r#"did you mean "tool_list"?"#][..]),
        (br#"{"op":"check_calls","call":{}}"#, &[r#"did you mean "check_call"?"#]),
        (br#"{"op":"use_catalog","path":"tools.json"}"#, &["unknown_op: ", "--stream"]),
        (
            b"{\"op\":\"tool_list\"}\n{\"op\":\"tool_list\"}\n",
            &["malformed_json: ", "run tool-schema --stream"],
        ),
        (
            br#"{"op":"check_call","call":{"type":"tool_use","id":"t","name":"read_file","input":{}}}"#,
            &[r#"found "tool_use""#, r#"send "format":"anthropic""#],
        ),
        (
            br#"{"op":"check_call","format":"openai_responses","call":{"id":"c","type":"function","function":{"name":"read_file","arguments":"{}"}}}"#,
            &[r#"found "function""#, r#""format":"openai""#],
        ),
        (
            br#"{"op":"check_call","call":{"role":"assistant","content":null,"tool_calls":[]}}"#,
            &["a whole message", "tool_calls[i]", "check_turn"],
        ),
        (
            br#"{"op":"tool_list","format":"anthropc"}"#,
            &["unknown_format: ", r#"did you mean "anthropic"?"#],
        ),
        (
            br#"{"op":"tool_schema","tol":"read_file"}"#,
            &["unknown_field: ", r#"did you mean "tool"?"#],
        ),
    ] {
        let message = stderr(&[], input);
        for want in wants {
            assert!(message.contains(want), "{}: {message}", String::from_utf8_lossy(input));
        }
        assert_eq!(message.lines().count(), 1, "{message}");
    }
    let message = stderr(&["--catalog"], b"");
    assert!(message.contains("--catalog needs the path"), "{message}");
    // A catalog keyword's typo is named.
    let catalog = std::env::temp_dir().join(format!("typo-{}.json", std::process::id()));
    std::fs::write(
        &catalog,
        br#"[{"name":"a","description":"d","inputSchema":{"type":"object","propertes":{}}}]"#,
    )
    .unwrap();
    let message = stderr(&["--catalog", catalog.to_str().unwrap()], b"{}");
    assert!(
        message.contains(r#"did you mean "properties"?"#),
        "{message}"
    );
    std::fs::remove_file(&catalog).unwrap();
    // A request that is one line but wrong is not told about --stream.
    let message = stderr(&[], b"{\"op\":\"tool_list\"} x\n");
    assert!(!message.contains("--stream"), "{message}");
}
