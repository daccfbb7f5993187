//! Catalogs as real servers and generators write them: what JSON Schema allows, the reader
//! takes.
//!
//! - A FastMCP server's `tools/list` result, whole (`tests/catalogs/fastmcp`, written by its
//!   `generate.py` with the versions of its README), against its `tools` array alone: every
//!   answer the same, byte for byte. Its `limit: int = None` (`"default": null` on an integer)
//!   is kept in the MCP shape, dropped from the others, found by the review, and never applied.
//!   Its `Json[...]` string's content keywords are annotations, and FastMCP's `x-` keyword is
//!   dropped.
//! - JSON-Schema-Test-Suite's groups for what the reader used to refuse (counts written as
//!   decimals, defaults that do not fit, the content keywords), through check_call: read from
//!   `../shared/conformance/JSON-Schema-Test-Suite/tests/draft2020-12`, or the directory named by
//!   `TOOL_SCHEMA_JSON_SCHEMA_TEST_SUITE`, never copied here; `#[ignore]`d like
//!   tests/number.rs, and run by CI (`.ci/run`).

mod common;

use common::json::{array, get, parse, suite_dir, write, Value};
use std::path::{Path, PathBuf};
use tool_schema::review::Rule;
use tool_schema::{BadTool, RuntimeCatalog};

const FORMATS: [&str; 6] = [
    "openai",
    "openai_responses",
    "anthropic",
    "gemini",
    "gemini_json_schema",
    "mcp",
];

fn fastmcp(file: &str) -> RuntimeCatalog {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/catalogs/fastmcp")
        .join(file);
    RuntimeCatalog::from_bytes(&std::fs::read(&path).unwrap())
        .unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

/// The answer line, or the request error's code.
fn answer(catalog: &RuntimeCatalog, request: &str) -> String {
    let mut out = Vec::new();
    match catalog.respond(request.as_bytes(), &mut out) {
        Ok(()) => String::from_utf8(out).unwrap(),
        Err(err) => format!("error {}", err.code()),
    }
}

/// Every list and declaration of `names` in every shape, strict and not, and a tool_choice of
/// `choice` in every format.
fn declarations_and_choices(names: &[&str], choice: &str) -> Vec<String> {
    let mut requests = Vec::new();
    for format in FORMATS {
        for strict in ["false", "true"] {
            requests.push(format!(
                r#"{{"op":"tool_list","format":"{format}","strict":{strict}}}"#
            ));
            for name in names {
                requests.push(format!(
                    r#"{{"op":"tool_schema","tool":"{name}","format":"{format}","strict":{strict}}}"#
                ));
            }
        }
        requests.push(format!(
            r#"{{"op":"tool_choice","format":"{format}","choice":{{"tool":"{choice}"}}}}"#
        ));
    }
    requests
}

fn declaration(catalog: &RuntimeCatalog, tool: &str, format: &str) -> String {
    answer(
        catalog,
        &format!(r#"{{"op":"tool_schema","tool":"{tool}","format":"{format}"}}"#),
    )
}

fn check(catalog: &RuntimeCatalog, tool: &str, arguments: &str) -> String {
    answer(
        catalog,
        &format!(
            r#"{{"op":"check_call","format":"mcp","call":{{"name":"{tool}","arguments":{arguments}}}}}"#
        ),
    )
}

#[test]
fn a_tools_list_result_answers_what_its_tools_array_does() {
    let (result, tools) = (fastmcp("tools-list.json"), fastmcp("tools.json"));
    assert_eq!(result.len(), 4);
    let names = ["search", "read_note", "tag_notes", "import_settings"];
    let mut requests = declarations_and_choices(&names, "search");
    for arguments in [
        r#"{"query":"x"}"#,
        r#"{"query":"x","limit":null}"#,
        r#"{"query":"x","limit":5,"page":2}"#,
    ] {
        requests.push(format!(
            r#"{{"op":"check_call","format":"mcp","call":{{"name":"search","arguments":{arguments}}}}}"#
        ));
    }
    for request in &requests {
        let (whole, alone) = (answer(&result, request), answer(&tools, request));
        common::assert_same_bytes(whole.as_bytes(), alone.as_bytes(), request);
        // Gemini and MCP have no strict mode, nor MCP a tool choice: an error, the same from
        // both.
        if !request.contains(r#""strict":true"#)
            && !request.contains("tool_choice\",\"format\":\"mcp")
        {
            assert!(!whole.starts_with("error"), "{request}: {whole}");
        }
    }
    // A key twice, which parsers read as its first or its last, leaves which tools the file
    // holds to the reader: refused where it decides that.
    let tool = r#"{"name":"t","description":"d","inputSchema":{}}"#;
    for (file, pointer) in [
        (format!(r#"{{"tools":[{tool}],"tools":[]}}"#), "/tools"),
        (
            format!(r#"{{"jsonrpc":"2.0","result":{{"tools":[],"tools":[{tool}]}}}}"#),
            "/result/tools",
        ),
    ] {
        let err = RuntimeCatalog::load(file.as_bytes(), BadTool::IsLeftOut).unwrap_err();
        assert_eq!(
            (err.tool, err.pointer.as_str(), err.rule.as_str()),
            (None, pointer, r#""tools" appears twice"#)
        );
    }
}

#[test]
fn a_default_that_does_not_fit_is_kept_for_mcp_and_never_applied() {
    let catalog = fastmcp("tools-list.json");
    assert!(
        declaration(&catalog, "search", "mcp")
            .contains(r#""limit":{"default":null,"type":"integer"}"#),
        "{}",
        declaration(&catalog, "search", "mcp")
    );
    for format in &FORMATS[..4] {
        for strict in ["false", "true"] {
            let request = format!(
                r#"{{"op":"tool_schema","tool":"search","format":"{format}","strict":{strict}}}"#
            );
            let declared = answer(&catalog, &request);
            assert!(!declared.contains(r#""default""#), "{request}: {declared}");
        }
    }
    // A default that fits is kept where it was: Gemini's `read_note`.
    assert!(declaration(&catalog, "read_note", "gemini").contains(r#""default":false"#));
    // The call that leaves `limit` out is valid, and is not given the default; `null` is not an
    // integer.
    assert_eq!(
        check(&catalog, "search", r#"{"query":"x"}"#),
        "{\"arguments\":{\"query\":\"x\"},\"name\":\"search\",\"ok\":true}\n"
    );
    let refused = check(&catalog, "search", r#"{"query":"x","limit":null}"#);
    assert!(
        refused.contains(r#""ok":false"#)
            && refused.contains(r#""code":"wrong_argument_type","message":"argument \"limit\" must be an integer, found null","path":"/limit""#),
        "{refused}"
    );
    // The review finds it, where the file has it.
    let found: Vec<String> = (catalog.review().into_iter())
        .filter(|finding| finding.rule == Rule::DefaultMismatch)
        .map(|finding| format!("{} {}", finding.tool, finding.pointer))
        .collect();
    assert_eq!(found, ["search /inputSchema/properties/limit/default"]);
}

#[test]
fn content_keywords_are_annotations_and_extensions_are_dropped() {
    let catalog = fastmcp("tools-list.json");
    let mcp = declaration(&catalog, "import_settings", "mcp");
    assert!(
        mcp.contains(r#""settings":{"contentMediaType":"application/json","contentSchema":{"additionalProperties":{"type":"integer"},"type":"object"},"type":"string"}"#),
        "{mcp}"
    );
    for format in &FORMATS[..4] {
        let declared = declaration(&catalog, "import_settings", format);
        assert!(!declared.contains("content"), "{format}: {declared}");
    }
    // Never asserted: the string need not be JSON, nor fit the content schema.
    for settings in [r#""not json""#, r#""{\"a\":\"b\"}""#] {
        let verdict = check(
            &catalog,
            "import_settings",
            &format!(r#"{{"settings":{settings}}}"#),
        );
        assert!(verdict.contains(r#""ok":true"#), "{verdict}");
    }
    // FastMCP's `x-fastmcp-wrap-result`, in every output schema, is in no shape.
    let list = answer(&catalog, r#"{"op":"tool_list","format":"mcp"}"#);
    assert!(
        list.contains("outputSchema") && !list.contains("x-fastmcp"),
        "{list}"
    );
}

/// Each group of the suite named here, its schema given as the one argument `v` of a tool
/// (less `$schema`, which the suite writes at every schema's root and a catalog at the tool's),
/// and each test's data as that argument: check_call's verdict is the suite's.
#[test]
#[ignore = "reads ../shared: CI runs it"]
fn json_schema_test_suite_groups_the_reader_takes() {
    let groups = [
        ("maxItems.json", "maxItems validation with a decimal"),
        ("minItems.json", "minItems validation with a decimal"),
        ("maxLength.json", "maxLength validation with a decimal"),
        ("minLength.json", "minLength validation with a decimal"),
        (
            "maxProperties.json",
            "maxProperties validation with a decimal",
        ),
        (
            "minProperties.json",
            "minProperties validation with a decimal",
        ),
        ("default.json", "invalid type for default"),
        ("default.json", "invalid string value for default"),
        (
            "default.json",
            "the default keyword does not do anything if the property is missing",
        ),
        (
            "content.json",
            "validation of string-encoded content based on media type",
        ),
        ("content.json", "validation of binary string-encoding"),
        (
            "content.json",
            "validation of binary-encoded media type documents",
        ),
        (
            "content.json",
            "validation of binary-encoded media type documents with schema",
        ),
    ];
    let dir = suite_dir();
    let (mut checked, mut failures) = (0, Vec::new());
    for (file, description) in groups {
        let path = dir.join(file);
        let text = std::fs::read(&path).unwrap_or_else(|err| {
            panic!(
                "JSON Schema Test Suite not found at {} ({err}); set \
                 TOOL_SCHEMA_JSON_SCHEMA_TEST_SUITE to its tests/draft2020-12 directory",
                path.display()
            )
        });
        let file_value = parse(&text);
        let group = array(Some(&file_value))
            .iter()
            .find(|group| matches!(get(group, "description"), Some(Value::String(d)) if d == description))
            .unwrap_or_else(|| panic!("{file}: no group {description:?}"));
        let Some(Value::Object(members)) = get(group, "schema") else {
            panic!("{file}: {description}: a schema that is not an object");
        };
        let schema = Value::Object(
            (members.iter())
                .filter(|(key, _)| key != "$schema")
                .cloned()
                .collect(),
        );
        let mut text = String::new();
        write(&schema, &mut text);
        let catalog = format!(
            r#"[{{"name":"t","description":"d","inputSchema":{{"type":"object","properties":{{"v":{text}}},"required":["v"]}}}}]"#
        );
        let catalog = RuntimeCatalog::from_bytes(catalog.as_bytes())
            .unwrap_or_else(|err| panic!("{file}: {description}: {err}"));
        for test in array(get(group, "tests")) {
            let Some(Value::Bool(valid)) = get(test, "valid") else {
                panic!("a test without a verdict");
            };
            let mut data = String::new();
            write(get(test, "data").expect("data"), &mut data);
            let verdict = check(&catalog, "t", &format!(r#"{{"v":{data}}}"#));
            checked += 1;
            if verdict.contains(r#""ok":true"#) != *valid {
                failures.push(format!("{file}: {description}: {data}: {verdict}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "wrong verdicts:\n{}",
        failures.join("\n")
    );
    assert_eq!(
        checked, 37,
        "not the suite's draft 2020-12 tests, or they changed"
    );
}

/// Every answer a harness may ask of a catalog of the filesystem server's first five tools.
fn every_request() -> Vec<String> {
    let names = [
        "read_file",
        "read_text_file",
        "read_media_file",
        "read_multiple_files",
        "write_file",
        "typo",
        "empty_range",
    ];
    let mut requests = declarations_and_choices(&names, "write_file");
    requests.push(r#"{"op":"tool_list","format":"gemini","skip_unsupported":true}"#.into());
    for arguments in [
        r#"{"path":"a.txt"}"#,
        r#"{"path":"a.txt","head":2}"#,
        r#"{"path":1,"tail":"x"}"#,
    ] {
        requests.push(format!(
            r#"{{"op":"check_call","format":"mcp","call":{{"name":"read_text_file","arguments":{arguments}}}}}"#
        ));
    }
    requests
}

#[test]
fn a_bad_tool_is_left_out_and_the_rest_answer_as_a_catalog_without_it() {
    let (good, mixed, refusals) = common::five_good_two_bad();
    let alone = RuntimeCatalog::from_bytes(good.as_bytes()).unwrap();
    let catalog = RuntimeCatalog::load(mixed.as_bytes(), BadTool::IsLeftOut).unwrap();
    assert_eq!((catalog.len(), alone.len()), (5, 5));
    let refused: Vec<String> = catalog.refused().iter().map(|r| r.to_string()).collect();
    assert_eq!(refused, refusals);
    // Structured: the tool as its JSON string, the pointer within it, the rule.
    let first = &catalog.refused()[0];
    assert_eq!(
        (first.tool.as_deref(), first.pointer.as_str()),
        (Some(r#""typo""#), "/inputSchema/propertes")
    );
    for request in every_request() {
        let (left_out, without) = (answer(&catalog, &request), answer(&alone, &request));
        common::assert_same_bytes(left_out.as_bytes(), without.as_bytes(), &request);
    }
    // A call to a tool left out is told why, and to use another.
    let verdict = check(&catalog, "typo", "{}");
    assert!(
        verdict.contains(r#""code":"unknown_tool","message":"the tool \"typo\" cannot be called: the catalog left it out (/inputSchema/propertes: keyword \"propertes\" is not supported"#),
        "{verdict}"
    );
    let verdict = check(&alone, "typo", "{}");
    assert!(
        verdict.contains(r#"there is no tool \"typo\""#),
        "{verdict}"
    );
    // All or nothing, as the build: the first bad tool's refusal.
    let Err(err) = RuntimeCatalog::load(mixed.as_bytes(), BadTool::RefusesTheFile) else {
        panic!("the mixed file was read whole");
    };
    assert_eq!(err.to_string(), refusals[0]);
    // A file whose every tool breaks a rule is no catalog.
    let only_bad =
        r#"[{"name":"typo","description":"d","inputSchema":{"type":"object","propertes":{}}}]"#;
    let Err(err) = RuntimeCatalog::load(only_bad.as_bytes(), BadTool::IsLeftOut) else {
        panic!("a catalog of no tools");
    };
    assert!(err
        .to_string()
        .starts_with(r#"tool "typo": /inputSchema/propertes"#));
    // Two tools of one name are a broken file, whatever else passes.
    let twice = format!(
        "[{},{}]",
        &good[1..good.len() - 1],
        &good[1..good.len() - 1]
    );
    assert!(RuntimeCatalog::load(twice.as_bytes(), BadTool::IsLeftOut).is_err());
}

/// Every violation of a bad tool is reported, each with its pointer, in the reader's order
/// (definitions, then each node's keywords: combinations, values, objects, arrays, strings and
/// numbers): in nested schemas, in definitions, in values that must fit. Past
/// `MAX_VIOLATIONS`, the last line counts the rest.
#[test]
fn every_violation_of_a_tool_is_reported_up_to_a_limit() {
    let tool = r##"{"name":"many","description":"d","inputSchema":{"type":"object",
        "$defs":{"D":{"type":"string","maxLength":-1}},
        "properties":{"a":{"type":"array","items":{"type":"strin"}},
        "b":{"$ref":"#/$defs/E"},"c":{"type":"integer","enum":[1,"x"]},"d":{"$ref":"#/$defs/D"}},
        "oneOf":[{"type":"object","format":7}],"maxProperties":"2"}}"##;
    let file = format!(r#"[{tool},{{"name":"fine","description":"d","inputSchema":{{}}}}]"#);
    let catalog = RuntimeCatalog::load(file.as_bytes(), BadTool::IsLeftOut).unwrap();
    assert_eq!(catalog.len(), 1);
    let pointers: Vec<&str> = (catalog.refused().iter())
        .map(|refusal| refusal.pointer.as_str())
        .collect();
    assert_eq!(
        pointers,
        [
            "/inputSchema/$defs/D/maxLength",
            "/inputSchema/oneOf/0/format",
            "/inputSchema/properties/a/items/type",
            "/inputSchema/properties/b/$ref",
            "/inputSchema/properties/c/enum/1",
            "/inputSchema/maxProperties",
        ]
    );
    // A strict read stops at the first.
    let err = RuntimeCatalog::load(file.as_bytes(), BadTool::RefusesTheFile).unwrap_err();
    assert_eq!(err, catalog.refused()[0]);

    let limit = tool_schema::catalog_file::MAX_VIOLATIONS;
    let keywords: Vec<String> = (0..limit + 5).map(|i| format!(r#""bad{i}":1"#)).collect();
    let file = format!(
        r#"[{{"name":"t","description":"d","inputSchema":{{{}}}}},{{"name":"u","description":"d","inputSchema":{{}}}}]"#,
        keywords.join(",")
    );
    let catalog = RuntimeCatalog::load(file.as_bytes(), BadTool::IsLeftOut).unwrap();
    let refused = catalog.refused();
    assert_eq!(refused.len(), limit);
    assert_eq!(
        refused[limit - 2].pointer,
        format!("/inputSchema/bad{}", limit - 2)
    );
    assert_eq!(
        refused[limit - 1].to_string(),
        r#"tool "t": "": 6 more violations in this tool, not listed"#
    );
}

#[test]
fn the_command_line_and_the_stream_leave_a_bad_tool_out() {
    let (_, mixed, refusals) = common::five_good_two_bad();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join("five-good-two-bad.json");
    std::fs::write(&path, &mixed).unwrap();
    let shown = path.to_str().unwrap();
    let request = br#"{"op":"tool_list","format":"mcp"}"#;
    let out = common::run(&["--catalog", shown], request);
    assert!(out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    let want: Vec<String> = (refusals.iter())
        .map(|refusal| format!("tool-schema: left_out: {shown}: {refusal}"))
        .collect();
    assert_eq!(stderr.lines().collect::<Vec<_>>(), want);
    assert_eq!(out.stdout.iter().filter(|&&b| b == b'\n').count(), 1);
    let out = common::run(&["--catalog", shown, "--catalog-strict"], request);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!("tool-schema: bad_catalog: {shown}: {}\n", refusals[0])
    );
    assert_eq!(
        common::run(&["--catalog-strict"], request).status.code(),
        Some(2)
    );
    // use_catalog: the tools it left out, each with its pointer and rule; all or nothing with
    // "strict":true, and the catalog stays.
    let lines = format!(
        "{{\"op\":\"use_catalog\",\"path\":\"{shown}\"}}\n{{\"op\":\"use_catalog\",\"path\":\"{shown}\",\"strict\":true}}\n{{\"op\":\"tool_list\",\"format\":\"mcp\"}}\n"
    );
    let out = common::run(&["--stream"], lines.as_bytes());
    let text = String::from_utf8(out.stdout).unwrap();
    let answers: Vec<&str> = text.lines().collect();
    // One entry a violation, made from the refusal lines (`tool "NAME": POINTER: RULE`).
    let entries: Vec<String> = (refusals.iter())
        .map(|line| {
            let (tool, rest) = line["tool \"".len()..].split_once("\": ").unwrap();
            let (pointer, rule) = rest.split_once(": ").unwrap();
            let rule = rule.replace('\\', "\\\\").replace('"', "\\\"");
            format!(
                r#"{{"code":"bad_catalog","message":"{rule}","pointer":"{pointer}","tool":"{tool}"}}"#
            )
        })
        .collect();
    assert_eq!(
        answers[0],
        format!(
            r#"{{"ok":true,"refused":[{}],"tools":5}}"#,
            entries.join(",")
        )
    );
    assert!(
        answers[1].starts_with(r#"{"error":{"code":"bad_catalog","message":""#),
        "{}",
        answers[1]
    );
    let list = common::run(&["--catalog", shown], request).stdout;
    assert_eq!(format!("{}\n", answers[2]).as_bytes(), list);
}

fn catalog_of(file: &str) -> RuntimeCatalog {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    RuntimeCatalog::from_bytes(&std::fs::read(&path).unwrap()).unwrap()
}

/// `gemini_json_schema` declares what Gemini's own `Schema` cannot (pydantic's recursive
/// checklist), and everything a model sends back in it is Gemini's, answered byte for byte as
/// `gemini` answers it: calls, turns, streamed events and tool choice.
#[test]
fn gemini_json_schema_declares_recursion_and_takes_gemini_calls() {
    let catalog = catalog_of("tests/catalogs/pydantic/catalog.json");
    assert_eq!(
        declaration(&catalog, "set_checklist", "gemini"),
        "error unsupported"
    );
    let declared = declaration(&catalog, "set_checklist", "gemini_json_schema");
    assert!(
        declared.contains(r##""parametersJsonSchema":{"$defs":{"OutlineNode":"##)
            && declared.contains(r##""items":{"$ref":"#/$defs/OutlineNode"}"##)
            && !declared.contains("\"parameters\":"),
        "{declared}"
    );
    let call = r#"{"name":"set_checklist","args":{"issue_id":"x","root":{"text":""}}}"#;
    let requests = [
        format!(r#"{{"op":"check_call","format":"F","call":{call}}}"#),
        format!(
            r#"{{"op":"check_turn","format":"F","turn":{{"role":"model","parts":[{{"functionCall":{call}}}]}}}}"#
        ),
        format!(
            r#"{{"op":"call_delta","format":"F","stream":"s","event":{{"candidates":[{{"content":{{"parts":[{{"functionCall":{call}}}]}},"finishReason":"STOP"}}]}}}}"#
        ),
        r#"{"op":"tool_choice","format":"F","choice":{"tool":"read_file"}}"#.to_string(),
        r#"{"op":"tool_choice","format":"F","choice":"auto","parallel":true}"#.to_string(),
        r#"{"op":"tool_schema","tool":"set_checklist","format":"F","strict":true}"#.to_string(),
    ];
    for request in &requests {
        let mut out = [Vec::new(), Vec::new()];
        for (format, out) in ["gemini", "gemini_json_schema"].iter().zip(&mut out) {
            let request = request.replace("\"F\"", &format!("\"{format}\""));
            let mut input = request.into_bytes();
            input.push(b'\n');
            let catalog = catalog_of("tests/catalogs/pydantic/catalog.json");
            tool_schema::serve_catalog(&mut &input[..], out, Some(catalog)).unwrap();
        }
        let [gemini, json_schema] = out;
        let (gemini, json_schema) = (
            String::from_utf8(gemini).unwrap(),
            String::from_utf8(json_schema).unwrap(),
        );
        // An error names the format it was asked in, and where in the request (which the
        // longer name moves); everything else is the same bytes.
        assert_eq!(
            without_offsets(&gemini.replace("gemini", "F")),
            without_offsets(&json_schema.replace("gemini_json_schema", "F")),
            "{request}"
        );
    }
    let verdict = answer(
        &catalog,
        &requests[0].replace("\"F\"", "\"gemini_json_schema\""),
    );
    assert!(verdict.contains(r#""ok":false"#), "{verdict}");
    // A tool is forced only where it can be declared.
    let force = r#"{"op":"tool_choice","format":"F","choice":{"tool":"set_checklist"}}"#;
    assert_eq!(
        answer(&catalog, &force.replace("\"F\"", "\"gemini\"")),
        "error unsupported"
    );
    assert!(
        answer(&catalog, &force.replace("\"F\"", "\"gemini_json_schema\""))
            .contains("allowedFunctionNames")
    );
}

/// `text` with every number after "byte " left out.
fn without_offsets(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("byte ") {
        out.push_str(&rest[..at + 5]);
        rest = rest[at + 5..].trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out + rest
}

/// The rewrites and refusals of the gemini_json_schema rules (docs/catalogs.md).
#[test]
fn gemini_json_schema_rewrites_what_the_api_does_not_take() {
    let tool = |schema: &str| {
        let file = format!(r#"[{{"name":"t","description":"d","inputSchema":{schema}}}]"#);
        let catalog = RuntimeCatalog::from_bytes(file.as_bytes()).unwrap();
        declaration(&catalog, "t", "gemini_json_schema")
    };
    // A `$ref` with a description beside it: the one branch of an anyOf.
    assert_eq!(
        tool(r##"{"$defs":{"D":{"type":"string"}},"properties":{"p":{"$ref":"#/$defs/D","description":"x","default":"a"}}}"##),
        "{\"description\":\"d\",\"name\":\"t\",\"parametersJsonSchema\":{\"$defs\":{\"D\":{\"type\":\"string\"}},\"properties\":{\"p\":{\"anyOf\":[{\"$ref\":\"#/$defs/D\"}],\"description\":\"x\"}},\"type\":\"object\"}}\n"
    );
    // Kept and dropped keywords; const as enum; an integer's exclusive bound made inclusive.
    assert_eq!(
        tool(r#"{"properties":{"s":{"type":"string","pattern":"^a","minLength":1,"format":"date","const":"a"},"n":{"type":"integer","exclusiveMinimum":0,"maximum":9,"multipleOf":3},"b":{"enum":[true,false]},"m":{"type":"object","additionalProperties":{"type":"integer"},"maxProperties":2}},"required":["s"]}"#),
        "{\"description\":\"d\",\"name\":\"t\",\"parametersJsonSchema\":{\"properties\":{\"b\":{},\"m\":{\"additionalProperties\":{\"type\":\"integer\"},\"type\":\"object\"},\"n\":{\"maximum\":9,\"minimum\":1,\"type\":\"integer\"},\"s\":{\"enum\":[\"a\"],\"format\":\"date\",\"type\":\"string\"}},\"required\":[\"s\"],\"type\":\"object\"}}\n"
    );
    // No arguments: no parametersJsonSchema.
    assert_eq!(tool("{}"), "{\"description\":\"d\",\"name\":\"t\"}\n");
    // A cycle through required properties only, allOf, a union at the root: unsupported.
    for schema in [
        r##"{"$defs":{"N":{"type":"object","properties":{"next":{"$ref":"#/$defs/N"}},"required":["next"]}},"properties":{"n":{"$ref":"#/$defs/N"}}}"##,
        r#"{"properties":{"a":{"allOf":[{"type":"string"}]}}}"#,
        r#"{"anyOf":[{"properties":{"a":{}}}]}"#,
    ] {
        assert_eq!(tool(schema), "error unsupported", "{schema}");
    }
    // The same cycle through an optional property is declared.
    let optional = tool(
        r##"{"$defs":{"N":{"type":"object","properties":{"next":{"$ref":"#/$defs/N"}}}},"properties":{"n":{"$ref":"#/$defs/N"}},"required":["n"]}"##,
    );
    assert!(optional.contains("parametersJsonSchema"), "{optional}");
}
