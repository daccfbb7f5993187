//! Running the real binary from tests.
#![allow(dead_code)] // each test file uses part of this

pub mod json;

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

/// Every shape: each format, strict and not where it has a strict mode.
pub const SHAPES: [(&str, bool); 9] = [
    ("openai", false),
    ("openai", true),
    ("openai_responses", false),
    ("openai_responses", true),
    ("anthropic", false),
    ("anthropic", true),
    ("gemini", false),
    ("gemini_json_schema", false),
    ("mcp", false),
];

/// A catalog file for each structural rule the model relies on (the first of these were once
/// checked a second time by a `const` block in `src/catalog.rs`, which failed with the
/// compiler's multi-line E0080; the reader is now their only home), with the rule and the one
/// line the reader refuses the file with.
pub const STRUCTURAL_RULES: [(&str, &str, &str); 13] = [
    (
        "the catalog has no tools",
        "[]",
        r#""": the catalog has no tools; give at least one"#,
    ),
    (
        "tool name must match ^[a-zA-Z_][a-zA-Z0-9_-]{{0,63}}$",
        r#"[{"name":"read file","description":"d","inputSchema":{"type":"object"}}]"#,
        r#"tool "read file": /name: "read file" must match ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$ (OpenAI's and Anthropic's ^[a-zA-Z0-9_-]{1,64}$, starting with a letter or underscore as Gemini asks)"#,
    ),
    (
        "a read-only tool cannot be destructive (MCP ToolAnnotations)",
        r#"[{"name":"t","description":"d","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"destructiveHint":true}}]"#,
        r#"tool "t": /annotations/destructiveHint: true, but readOnlyHint is true: MCP gives destructiveHint meaning only when readOnlyHint is false, so a read-only tool cannot be destructive"#,
    ),
    (
        "a tool's arguments must be an object",
        r#"[{"name":"t","description":"d","inputSchema":{"type":"string"}}]"#,
        r#"tool "t": /inputSchema/type: the arguments must be an object: give "type": "object", or no type"#,
    ),
    (
        "tool name used twice",
        r#"[{"name":"t","description":"d","inputSchema":{"type":"object"}},{"name":"t","description":"e","inputSchema":{"type":"object"}}]"#,
        r#"tool "t": /name: "t" is already the name of tool #0"#,
    ),
    (
        "only an object has properties",
        r#"[{"name":"t","description":"d","inputSchema":{"type":"object","properties":{"p":{"type":"string","properties":{"q":{"type":"string"}}}}}}]"#,
        r#"tool "t": /inputSchema/properties/p/properties: "properties" applies to object schemas, not string"#,
    ),
    (
        "a reference resolves, within the schema",
        r##"[{"name":"t","description":"d","inputSchema":{"type":"object","properties":{"o":{"$ref":"#/$defs/o"}}}}]"##,
        r##"tool "t": /inputSchema/properties/o/$ref: "#/$defs/o" does not resolve (this schema has no "$defs"); a reference must be local: "#" or "#/$defs/NAME" of this schema"##,
    ),
    (
        "a reference cycle steps into a value",
        r##"[{"name":"t","description":"d","inputSchema":{"type":"object","$defs":{"a":{"allOf":[{"$ref":"#/$defs/a"}]}},"properties":{"o":{"$ref":"#/$defs/a"}}}}]"##,
        r#"tool "t": /inputSchema/$defs/a/allOf/0: this reference leads back to itself without stepping into a property or an item: no value could end it"#,
    ),
    (
        "a const fits its own schema",
        r#"[{"name":"t","description":"d","inputSchema":{"type":"object","properties":{"o":{"type":"object","properties":{"a":{"type":"integer"}},"const":{"a":"1"}}}}}]"#,
        r#"tool "t": /inputSchema/properties/o/const: does not fit its own schema: at /a: must be an integer"#,
    ),
    (
        "a pattern is one the checker can match, in linear time",
        r#"[{"name":"t","description":"d","inputSchema":{"type":"object","properties":{"s":{"type":"string","pattern":"(a)\\1"}}}}]"#,
        r#"tool "t": /inputSchema/properties/s/pattern: "(a)\\1" is not a pattern this checker can match: at character 3: backreference \1 is not supported: matching in linear time rules out backreferences"#,
    ),
    (
        "an array, and only an array, has items",
        r#"[{"name":"t","description":"d","inputSchema":{"type":"object","properties":{"s":{"type":"string","items":{"type":"string"}}}}}]"#,
        r#"tool "t": /inputSchema/properties/s/items: "items" applies to array schemas, not string"#,
    ),
    (
        "property name must match ^[a-zA-Z0-9_.-]{{1,64}}$",
        r#"[{"name":"t","description":"d","inputSchema":{"type":"object","properties":{"a b":{"type":"string"}}}}]"#,
        r#"tool "t": /inputSchema/properties/a b: property name "a b" must match ^[a-zA-Z0-9_.-]{1,64}$ (Anthropic's rule for property keys)"#,
    ),
    (
        "properties must be sorted by name, each once",
        r#"[{"name":"t","description":"d","inputSchema":{"type":"object","properties":{"b":{"type":"string"},"b":{"type":"integer"}}}}]"#,
        r#"tool "t": /inputSchema/properties/b: "b" appears twice"#,
    ),
];

/// Asserts that `actual` is `want`, byte for byte; the text of both is shown only on failure.
#[track_caller]
pub fn assert_same_bytes(actual: &[u8], want: &[u8], what: &str) {
    assert!(
        actual == want,
        "{what}: the bytes differ\n  got: {}\n want: {}",
        String::from_utf8_lossy(actual),
        String::from_utf8_lossy(want)
    );
}

/// How many check_call cases there are over the default catalog (`tests/calls/default`) and
/// over the bounds catalog (`tests/calls/bounds`): stated once, checked against the cases files
/// and the golden files by [`call_cases_in`].
pub const DEFAULT_CALLS: usize = 51;
pub const BOUNDS_CALLS: usize = 30;

/// The check_call cases of `dir` (`tests/calls/<catalog>`), after checking that its golden
/// files are exactly one `<name>.json` per case, and that there are `count` cases: the count is
/// stated where it is used, and the cases file, the golden files and it must agree.
pub fn call_cases_in(dir: &std::path::Path, count: usize) -> Vec<(String, String)> {
    let cases = call_cases(&std::fs::read_to_string(dir.join("cases.json")).unwrap());
    let mut files: Vec<String> = std::fs::read_dir(dir.join("golden"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut want: Vec<String> = cases
        .iter()
        .map(|(name, _)| format!("{name}.json"))
        .collect();
    want.sort();
    assert_eq!(
        files, want,
        "golden files without a case, or cases without a golden file"
    );
    assert_eq!(cases.len(), count, "cases in {}", dir.display());
    cases
}

/// Seven tools, five of them the first five of the MCP filesystem server's published catalog
/// (`tests/catalogs/mcp-servers/server-filesystem.json`) and two that each break several rules, mixed
/// among them: the file with only the five good ones, the file with all seven, and each bad
/// tool's refusal line, in file order.
pub fn five_good_two_bad() -> (String, String, Vec<&'static str>) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/catalogs/mcp-servers/server-filesystem.json"
    );
    let file = json::parse(&std::fs::read(path).unwrap());
    let good: Vec<String> = json::array(Some(&file))[..5]
        .iter()
        .map(|tool| {
            let mut text = String::new();
            json::write(tool, &mut text);
            text
        })
        .collect();
    // Each bad tool breaks several rules, in several places: every one is reported.
    let bad = [
        r#"{"name":"typo","description":"d","inputSchema":{"type":"object","propertes":{"a":{}},"requred":["a"]}}"#,
        r#"{"name":"empty_range","description":7,"inputSchema":{"type":"object","properties":{"n":{"type":"integer","minimum":5,"maximum":1},"s":{"type":"string","minimum":1,"maxItems":2}}}}"#,
    ];
    let mixed = [
        &good[0], bad[0], &good[1], &good[2], &good[3], bad[1], &good[4],
    ];
    (
        format!("[{}]", good.join(",")),
        format!("[{}]", mixed.join(",")),
        vec![
            r#"tool "typo": /inputSchema/propertes: keyword "propertes" is not supported; did you mean "properties"?"#,
            r#"tool "typo": /inputSchema/requred: keyword "requred" is not supported; did you mean "required"?"#,
            r#"tool "empty_range": /description: must be a string, found a number"#,
            r#"tool "empty_range": /inputSchema/properties/n/minimum: no number is within minimum and maximum: the range is empty"#,
            r#"tool "empty_range": /inputSchema/properties/s/minimum: "minimum" applies to integer and number schemas, not string"#,
            r#"tool "empty_range": /inputSchema/properties/s/maxItems: "maxItems" applies to array schemas, not string"#,
        ],
    )
}
