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

use common::json::{array, get, parse, write, Value};
use std::path::{Path, PathBuf};
use tool_schema::review::Rule;
use tool_schema::RuntimeCatalog;

const FORMATS: [&str; 5] = ["openai", "openai_responses", "anthropic", "gemini", "mcp"];

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
            r#"{{"op":"tool_choice","format":"{format}","choice":{{"tool":"search"}}}}"#
        ));
    }
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

fn suite_dir() -> PathBuf {
    match std::env::var_os("TOOL_SCHEMA_JSON_SCHEMA_TEST_SUITE") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/conformance/JSON-Schema-Test-Suite/tests/draft2020-12"),
    }
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
