//! Every rule of the catalog reader, each with the message it gives: the tool, the JSON Pointer
//! of the offending value, and the rule. `build.rs` prints exactly this message, after the file
//! name, when a catalog fails the build (`tests/catalogs.rs` checks one such build end to end).

mod common;

use tool_schema::catalog_file::{read, Catalog};
use tool_schema::review::Rule;
use tool_schema::RuntimeCatalog;

fn refusal(catalog: &str) -> String {
    match read(catalog.as_bytes()) {
        Ok(_) => panic!("accepted: {catalog}"),
        Err(err) => {
            assert!(
                err.pointer.is_empty() || err.pointer.starts_with('/'),
                "not a JSON Pointer: {:?}",
                err.pointer
            );
            err.to_string()
        }
    }
}

/// A one-tool catalog whose inputSchema is `schema`.
fn with_schema(schema: &str) -> String {
    format!(r#"[{{"name":"t","description":"d","inputSchema":{schema}}}]"#)
}

/// A one-tool catalog with one property `p` whose schema is `property`.
fn with_property(property: &str) -> String {
    with_schema(&format!(
        r#"{{"type":"object","properties":{{"p":{property}}}}}"#
    ))
}

fn accepted(catalog: &str) -> Catalog {
    read(catalog.as_bytes()).unwrap_or_else(|err| panic!("{err}: {catalog}"))
}

/// The review's findings of a `default` or `examples` that its node refuses, which the reader
/// takes (JSON Schema only asks them to fit), as `pointer rule` lines.
fn unfit(catalog: &str) -> Vec<String> {
    accepted(catalog);
    let catalog = RuntimeCatalog::from_bytes(catalog.as_bytes()).unwrap();
    let mismatch = [Rule::DefaultMismatch, Rule::ExampleMismatch];
    (catalog.review().into_iter())
        .filter(|finding| mismatch.contains(&finding.rule))
        .map(|finding| format!("{} {}", finding.pointer, finding.rule.id()))
        .collect()
}

/// The declaration of the one tool of `catalog` in `format`.
fn declared(catalog: &str, format: &str) -> String {
    let catalog = RuntimeCatalog::from_bytes(catalog.as_bytes()).unwrap();
    let mut out = Vec::new();
    let request = format!(r#"{{"op":"tool_schema","tool":"t","format":"{format}"}}"#);
    catalog.respond(request.as_bytes(), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn the_document() {
    assert_eq!(
        refusal("{}"),
        r#""": the catalog must be a JSON array of tools, or a tools/list result with one as its "tools", found an object"#
    );
    assert_eq!(
        refusal("1"),
        r#""": the catalog must be a JSON array of tools, or a tools/list result with one as its "tools", found a number"#
    );
    // What an MCP server answers to tools/list, and the JSON-RPC response around it: the
    // tools array, its pointer in the file, and the other members ignored.
    let tool = r#"{"name":"t","description":"d","inputSchema":{"type":"object"}}"#;
    for file in [
        format!(
            r#"{{"tools":[{tool}],"nextCursor":"c","_meta":{{}},"ttlMs":0,"cacheScope":"private","resultType":"complete"}}"#
        ),
        format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"tools":[{tool}]}}}}"#),
    ] {
        assert_eq!(accepted(&file).tools.len(), 1, "{file}");
    }
    assert_eq!(
        refusal(r#"{"tools":{}}"#),
        r#"/tools: a tools/list result's tools must be a JSON array of tools, found an object"#
    );
    assert_eq!(
        refusal(r#"{"tools":[1]}"#),
        "/tools/0: a tool must be an object, found a number"
    );
    assert_eq!(
        refusal(r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[1]}}"#),
        "/result/tools/0: a tool must be an object, found a number"
    );
    assert_eq!(
        refusal(r#"{"tools":[]}"#),
        r#""": the catalog has no tools; give at least one"#
    );
    assert_eq!(
        refusal("[]"),
        r#""": the catalog has no tools; give at least one"#
    );
    assert!(refusal("[{").starts_with(r#""": not JSON: "#));
    assert_eq!(
        refusal("[1]"),
        "/0: a tool must be an object, found a number"
    );
    // A file that is not UTF-8 is refused where the tokenizer finds it.
    let mut not_utf8 = br#"[{"name":"t","description":"d"#.to_vec();
    not_utf8.extend_from_slice(b"\xff\"}]");
    let Err(err) = read(&not_utf8) else {
        panic!("accepted a file that is not UTF-8");
    };
    assert!(err.to_string().starts_with(r#""": not JSON: "#), "{err}");
    // Strings are slices of the document, non-ASCII included, or decoded where they hold
    // escapes, wherever they sit in it.
    let catalog = accepted(
        r#"[{"name":"t","description":"Lit «ici» — 🙂","inputSchema":{}},
            {"name":"u","description":"é, then\ttab and \u00e9","inputSchema":{}}]"#,
    );
    let model = catalog.model();
    let descriptions: Vec<&str> = model
        .tools
        .iter()
        .map(|tool| model.str(tool.description))
        .collect();
    assert_eq!(descriptions, ["Lit «ici» — 🙂", "é, then\ttab and é"]);
}

#[test]
fn the_tool_fields() {
    let t = r#""name":"t","description":"d","inputSchema":{"type":"object"}"#;
    assert_eq!(
        refusal(&format!(r#"[{{{t},"version":"1"}}]"#)),
        r#"tool "t": /version: "version" is not a field of a catalog tool; expected name, title, description, inputSchema, outputSchema, annotations, icons, execution, _meta"#
    );
    // A key's pointer escapes `~` and `/` (RFC 6901 section 3).
    assert_eq!(
        refusal(&format!(r#"[{{{t},"x/y~z":1}}]"#)),
        r#"tool "t": /x~1y~0z: "x/y~z" is not a field of a catalog tool; expected name, title, description, inputSchema, outputSchema, annotations, icons, execution, _meta"#
    );
    assert_eq!(
        refusal(&format!(r#"[{{{t},"name":"u"}}]"#)),
        r#"tool "t": /name: "name" appears twice"#
    );
    assert_eq!(
        refusal(r#"[{"description":"d","inputSchema":{"type":"object"}}]"#),
        r#"tool #0: "": missing "name"; every tool needs one"#
    );
    assert_eq!(
        refusal(r#"[{"name":7,"description":"d","inputSchema":{"type":"object"}}]"#),
        "tool #0: /name: must be a string, found a number"
    );
    assert_eq!(
        refusal(r#"[{"name":"read file","description":"d","inputSchema":{"type":"object"}}]"#),
        r#"tool "read file": /name: "read file" must match ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$ (OpenAI's and Anthropic's ^[a-zA-Z0-9_-]{1,64}$, starting with a letter or underscore as Gemini asks)"#
    );
    let long = "x".repeat(65);
    assert!(refusal(&format!(
        r#"[{{"name":"{long}","description":"d","inputSchema":{{"type":"object"}}}}]"#
    ))
    .contains("must match"));
    assert_eq!(
        refusal(&format!(r#"[{{{t}}},{{{t}}}]"#)),
        r#"tool "t": /name: "t" is already the name of tool #0"#
    );
    assert_eq!(
        refusal(r#"[{"name":"t","inputSchema":{"type":"object"}}]"#),
        r#"tool "t": "": missing "description"; every tool needs one"#
    );
    assert_eq!(
        refusal(r#"[{"name":"t","description":null,"inputSchema":{"type":"object"}}]"#),
        r#"tool "t": /description: must be a string, found null"#
    );
    assert_eq!(
        refusal(r#"[{"name":"t","description":"d"}]"#),
        r#"tool "t": "": missing "inputSchema"; every tool needs one"#
    );
    // MCP's own fields (schema.ts, `Tool`): title, outputSchema, icons, execution and _meta.
    assert_eq!(
        refusal(&format!(r#"[{{{t},"title":1}}]"#)),
        r#"tool "t": /title: must be a string, found a number"#
    );
    assert_eq!(
        refusal(&format!(r#"[{{{t},"icons":{{}}}}]"#)),
        r#"tool "t": /icons: must be an array, found an object"#
    );
    assert_eq!(
        refusal(&format!(r#"[{{{t},"execution":[]}}]"#)),
        r#"tool "t": /execution: must be an object, found an array"#
    );
    assert_eq!(
        refusal(&format!(r#"[{{{t},"_meta":"x"}}]"#)),
        r#"tool "t": /_meta: must be an object, found a string"#
    );
    assert_eq!(
        refusal(&format!(
            r#"[{{{t},"outputSchema":{{"type":"object","x":1}}}}]"#
        )),
        r#"tool "t": /outputSchema/x: keyword "x" is not supported; docs/catalogs.md lists those a catalog may use"#
    );
    let model = accepted(&format!(
        r#"[{{{t},"title":"T","icons":[{{"src":"data:,"}}],"execution":{{"taskSupport":"optional"}},"_meta":{{"b":1,"a":[true]}},"outputSchema":{{"type":"object","properties":{{"r":{{"type":"string"}}}}}}}}]"#
    ));
    let model = model.model();
    let tool = &model.tools[0];
    assert_eq!(tool.title.map(|t| model.str(t)), Some("T"));
    assert_eq!(
        tool.meta.map(|t| model.str(t)),
        Some(r#"{"a":[true],"b":1}"#)
    );
    assert!(tool.output.is_some());
}

/// A description of any length is read: MCP servers publish descriptions of thousands of
/// characters, which Anthropic, Gemini and MCP declare. OpenAI's two shapes declare at most
/// 1,024 characters, counted as OpenAI's error counts (not bytes), and answer `unsupported`
/// past them, naming the reason.
#[test]
fn a_long_description_is_unsupported_in_openai_shapes_only() {
    let catalog = |description: &str| {
        let file = format!(
            r#"[{{"name":"ask","description":"{description}","inputSchema":{{"type":"object"}}}}]"#
        );
        RuntimeCatalog::from_bytes(file.as_bytes()).unwrap_or_else(|err| panic!("{err}"))
    };
    let answer = |catalog: &RuntimeCatalog, op: &str, format: &str, strict: bool| {
        let request = match op {
            "tool_schema" => format!(
                r#"{{"op":"tool_schema","tool":"ask","format":"{format}","strict":{strict}}}"#
            ),
            _ => format!(r#"{{"op":"tool_list","format":"{format}","strict":{strict}}}"#),
        };
        let mut out = Vec::new();
        match catalog.respond(request.as_bytes(), &mut out) {
            Ok(()) => Ok(String::from_utf8(out).unwrap()),
            Err(err) => Err((err.code(), err.to_string())),
        }
    };
    let at_limit_text = "é".repeat(1024); // 1,024 characters, 2,048 bytes
    let over_text = format!("{at_limit_text}x");
    let (at_limit, over) = (catalog(&at_limit_text), catalog(&over_text));
    let openai = [
        ("openai", false),
        ("openai", true),
        ("openai_responses", false),
        ("openai_responses", true),
    ];
    for (format, strict) in openai {
        for op in ["tool_schema", "tool_list"] {
            let declared = answer(&at_limit, op, format, strict).unwrap();
            assert!(declared.contains(&at_limit_text), "{op} {format} {strict}");
            let (code, message) = answer(&over, op, format, strict).unwrap_err();
            assert_eq!(code, "unsupported");
            assert!(
                message.contains(&format!(
                    "tool \"ask\" cannot be declared in format {format}{}: its description is \
                     1025 characters, and OpenAI takes at most 1024;",
                    if strict { " with \"strict\":true" } else { "" }
                )),
                "{message}"
            );
        }
    }
    for (format, strict) in [
        ("anthropic", false),
        ("anthropic", true),
        ("gemini", false),
        ("mcp", false),
    ] {
        for op in ["tool_schema", "tool_list"] {
            let declared = answer(&over, op, format, strict).unwrap();
            assert!(declared.contains(&over_text), "{op} {format} {strict}");
        }
    }
}

/// `format` on a node that is not a string is read, as JSON Schema reads it: it passes any
/// value of another type. OpenAPI-made catalogs write it on numbers (Notion's MCP server:
/// `"type":"integer","format":"int32"`). `mcp` and the non-strict shapes keep it as written;
/// the strict modes and Gemini, whose formats are formats of strings, drop it there.
#[test]
fn a_format_on_a_number_is_read_and_passes_numbers() {
    let file = r#"[{"name":"t","description":"d","inputSchema":{"type":"object","properties":{"n":{"type":"integer","format":"int32"},"d":{"type":"integer","format":"date-time"},"s":{"type":"string","format":"date-time"}},"required":["n","d","s"]}}]"#;
    let catalog = RuntimeCatalog::from_bytes(file.as_bytes()).unwrap_or_else(|err| panic!("{err}"));
    let respond = |request: &str| {
        let mut out = Vec::new();
        catalog.respond(request.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    };
    let schema = |format: &str, strict: bool| {
        respond(&format!(
            r#"{{"op":"tool_schema","tool":"t","format":"{format}","strict":{strict}}}"#
        ))
    };
    for (format, strict) in [("mcp", false), ("openai", false), ("anthropic", false)] {
        let declared = schema(format, strict);
        assert!(
            declared.contains(r#"{"format":"int32","type":"integer"}"#),
            "{declared}"
        );
        assert!(
            declared.contains(r#"{"format":"date-time","type":"integer"}"#),
            "{declared}"
        );
    }
    for (format, strict) in [("openai", true), ("anthropic", true), ("gemini", false)] {
        let declared = schema(format, strict);
        assert!(!declared.contains("int32"), "{declared}");
        assert_eq!(
            declared.matches(r#""format":"date-time""#).count(),
            1,
            "{declared}"
        );
    }
    let call = |arguments: &str| {
        respond(&format!(
            r#"{{"op":"check_call","call":{{"id":"c","type":"function","function":{{"name":"t","arguments":"{arguments}"}}}}}}"#
        ))
    };
    let valid = call(r#"{\"n\":5,\"d\":-3,\"s\":\"2025-01-02T03:04:05Z\"}"#);
    assert!(valid.contains(r#""ok":true"#), "{valid}");
    let invalid = call(r#"{\"n\":5,\"d\":-3,\"s\":\"yesterday\"}"#);
    assert!(
        invalid.contains(r#""ok":false"#) && invalid.contains("/s"),
        "{invalid}"
    );
}

/// Property names with dashes and dots (HTTP headers in Brave Search's MCP server:
/// `user-agent`, `x-loc-lat`) are read, by Anthropic's rule for property keys. Calls with them
/// are checked, and every shape declares them but Gemini's, whose parameter names are letters,
/// digits and underscores.
#[test]
fn property_names_with_dashes_and_dots() {
    let file = r#"[{"name":"t","description":"d","inputSchema":{"type":"object","properties":{"user-agent":{"type":"string"},"a.b":{"type":"integer"},"1st":{"type":"object","properties":{"x-y":{"type":"boolean"}}}},"required":["user-agent"]}}]"#;
    let catalog = RuntimeCatalog::from_bytes(file.as_bytes()).unwrap_or_else(|err| panic!("{err}"));
    let respond = |request: &str| {
        let mut out = Vec::new();
        match catalog.respond(request.as_bytes(), &mut out) {
            Ok(()) => Ok(String::from_utf8(out).unwrap()),
            Err(err) => Err(err.to_string()),
        }
    };
    for (format, strict) in [
        ("openai", false),
        ("openai", true),
        ("anthropic", false),
        ("anthropic", true),
        ("mcp", false),
    ] {
        let declared = respond(&format!(
            r#"{{"op":"tool_schema","tool":"t","format":"{format}","strict":{strict}}}"#
        ))
        .unwrap();
        assert!(
            declared.contains(r#""user-agent":{"#) && declared.contains(r#""x-y":{"#),
            "{declared}"
        );
    }
    let gemini = respond(r#"{"op":"tool_schema","tool":"t","format":"gemini"}"#).unwrap_err();
    assert!(
        gemini.contains(r#"property name "1st" is not one Gemini takes"#),
        "{gemini}"
    );
    let call = |arguments: &str| {
        respond(&format!(
            r#"{{"op":"check_call","call":{{"id":"c","type":"function","function":{{"name":"t","arguments":"{arguments}"}}}}}}"#
        ))
        .unwrap()
    };
    assert_eq!(
        call(r#"{\"user-agent\":\"ua\",\"a.b\":2,\"1st\":{\"x-y\":true}}"#),
        "{\"arguments\":{\"1st\":{\"x-y\":true},\"a.b\":2,\"user-agent\":\"ua\"},\"id\":\"c\",\"name\":\"t\",\"ok\":true}\n"
    );
    let wrong = call(r#"{\"a.b\":\"2\",\"1st\":{\"x-y\":1}}"#);
    for path in ["/a.b", "/1st/x-y", "\"missing_argument\""] {
        assert!(wrong.contains(path), "{path} in {wrong}");
    }
}

#[test]
fn the_annotations() {
    let t = r#""name":"t","description":"d","inputSchema":{"type":"object"}"#;
    assert_eq!(
        refusal(&format!(r#"[{{{t},"annotations":[]}}]"#)),
        r#"tool "t": /annotations: must be an object, found an array"#
    );
    // A member MCP does not define is read and left out (chrome-devtools-mcp's `category`).
    let extra = accepted(&format!(
        r#"[{{{t},"annotations":{{"category":"input","readOnlyHint":true,"hint":[1]}}}}]"#
    ));
    let plain = accepted(&format!(
        r#"[{{{t},"annotations":{{"readOnlyHint":true}}}}]"#
    ));
    let (extra, plain) = (extra.model(), plain.model());
    assert!(extra.tools[0].hints.read_only);
    assert_eq!(extra.tools[0].hints, plain.tools[0].hints);
    assert_eq!(extra.text, plain.text);
    assert_eq!(
        refusal(&format!(r#"[{{{t},"annotations":{{"title":1}}}}]"#)),
        r#"tool "t": /annotations/title: must be a string, found a number"#
    );
    assert_eq!(
        refusal(&format!(r#"[{{{t},"annotations":{{"readOnlyHint":1}}}}]"#)),
        r#"tool "t": /annotations/readOnlyHint: must be a boolean, found a number"#
    );
    assert_eq!(
        refusal(&format!(
            r#"[{{{t},"annotations":{{"readOnlyHint":true,"readOnlyHint":false}}}}]"#
        )),
        r#"tool "t": /annotations/readOnlyHint: "readOnlyHint" appears twice"#
    );
    assert_eq!(
        refusal(&format!(
            r#"[{{{t},"annotations":{{"readOnlyHint":true,"destructiveHint":true}}}}]"#
        )),
        r#"tool "t": /annotations/destructiveHint: true, but readOnlyHint is true: MCP gives destructiveHint meaning only when readOnlyHint is false, so a read-only tool cannot be destructive"#
    );
    // MCP's defaults, and destructiveHint's own default for a read-only tool.
    let none = accepted(&format!("[{{{t}}}]")).tools.remove(0);
    assert_eq!(
        (
            none.hints.read_only,
            none.hints.destructive,
            none.hints.idempotent,
            none.hints.open_world
        ),
        (false, true, false, true)
    );
    let read_only = accepted(&format!(
        r#"[{{{t},"annotations":{{"readOnlyHint":true,"title":"Read"}}}}]"#
    ));
    let tool = read_only.tools[0];
    assert_eq!(
        (tool.hints.read_only, tool.hints.destructive),
        (true, false)
    );
    assert_eq!(
        tool.annotations_title.map(|t| read_only.model().str(t)),
        Some("Read")
    );
}

#[test]
fn types() {
    assert_eq!(
        refusal(&with_schema("[]")),
        r#"tool "t": /inputSchema: a schema must be an object, found an array"#
    );
    assert_eq!(
        refusal(&with_schema("true")),
        r#"tool "t": /inputSchema: a schema must be an object, found a boolean"#
    );
    assert_eq!(
        refusal(&with_schema(r#"{"type":"string"}"#)),
        r#"tool "t": /inputSchema/type: the arguments must be an object: give "type": "object", or no type"#
    );
    assert_eq!(
        refusal(&with_schema(r#"{"type":["object","null"]}"#)),
        r#"tool "t": /inputSchema/type: the arguments must be an object: give "type": "object", or no type"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"nil"}"#)),
        r#"tool "t": /inputSchema/properties/p/type: "nil" is not a type; expected one of object, array, string, integer, number, boolean, null"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":1}"#)),
        r#"tool "t": /inputSchema/properties/p/type: must be a type name, found a number"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":[]}"#)),
        r#"tool "t": /inputSchema/properties/p/type: must list at least one type"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":["string","string"]}"#)),
        r#"tool "t": /inputSchema/properties/p/type/1: "string" appears twice"#
    );
    // A root without type is an object, so its keywords must apply to objects: every shape
    // writes `"type":"object"` there, and the `mcp` shape is read again as it is written (the
    // runtime fuzz target found a root with a `pattern`, accepted, whose `mcp` list was not).
    assert_eq!(
        refusal(&with_schema(r#"{"pattern":"^a","properties":{}}"#)),
        r#"tool "t": /inputSchema/pattern: "pattern" applies to string schemas, not object"#
    );
    assert_eq!(
        refusal(&with_schema(r#"{"minItems":1}"#)),
        r#"tool "t": /inputSchema/minItems: "minItems" applies to array schemas, not object"#
    );
    accepted(&with_schema(r#"{"minProperties":1,"title":"t"}"#));
    // So is an `outputSchema` root without type, which the `mcp` shape writes as an object:
    // the runtime fuzz target found one whose `examples` were strings, accepted, and its `mcp`
    // list refused.
    let with_output = |output: &str| {
        format!(r#"[{{"name":"t","description":"d","inputSchema":{{}},"outputSchema":{output}}}]"#)
    };
    // Its examples are kept as the catalog wrote them, though they do not fit.
    accepted(&with_output(r#"{"properties":{},"examples":["a"]}"#));
    assert!(
        declared(&with_output(r#"{"properties":{},"examples":["a"]}"#), "mcp")
            .contains(r#""examples":["a"]"#)
    );
    assert_eq!(
        refusal(&with_output(r#"{"maxLength":3}"#)),
        r#"tool "t": /outputSchema/maxLength: "maxLength" applies to string schemas, not object"#
    );
    accepted(&with_output(r#"{"properties":{},"examples":[{}]}"#));
    // A value's key that holds a newline is shown escaped, so the line stays one (the catalog
    // target found a `const` object with such a key).
    assert_eq!(
        refusal(&with_schema(
            r#"{"properties":{},"additionalProperties":false,"const":{"a\nb":1}}"#
        )),
        r#"tool "t": /inputSchema/const: does not fit its own schema: at /a\u000ab: is not a property this object takes"#
    );
    accepted(&with_output(r#"{"type":"string","maxLength":3}"#));
    // A root takes no member it does not declare, as a call's arguments take none, so its
    // values are judged closed: the `mcp` shape writes `"properties":{}` there, and the
    // runtime target found a root `const` object accepted and its `mcp` list refused.
    assert_eq!(
        refusal(&with_schema(r#"{"const":{"a":1},"required":[]}"#)),
        r#"tool "t": /inputSchema/const: does not fit its own schema: at /a: is not a property this object takes"#
    );
    accepted(&with_output(r#"{"default":{"a":1}}"#));
    accepted(&with_schema(r#"{"const":{}}"#));
    accepted(&with_schema(
        r#"{"additionalProperties":true,"const":{"a":1}}"#,
    ));
    accepted(&with_output(r#"{"properties":{"a":{}},"default":{"a":1}}"#));
    // A root without type (`{}` too) is an object with no declared properties; a list of types,
    // `null` and boolean schemas are JSON Schema's.
    accepted(&with_schema("{}"));
    accepted(&with_property(r#"{"type":["string","null"]}"#));
    accepted(&with_property(r#"{"type":"null"}"#));
    accepted(&with_property(
        r#"{"type":"array","items":false,"prefixItems":[true]}"#,
    ));
    accepted(&with_property(r#"{"type":"integer","nullable":true}"#));
    // Numbers are kept as the catalog spelled them.
    let catalog = accepted(&with_property(
        r#"{"type":"number","minimum":-1.50,"default":1E2}"#,
    ));
    let model = catalog.model();
    let property = model.properties(model.input(&model.tools[0]))[0];
    let minimum = model
        .rare(model.node(property.schema))
        .minimum
        .expect("a minimum");
    assert_eq!(model.str(minimum.text), "-1.50");
}

#[test]
fn keywords_outside_the_subset_are_named() {
    for keyword in [
        "not",
        "if",
        "then",
        "else",
        "patternProperties",
        "contains",
        "$id",
        "x",
    ] {
        let message = refusal(&with_property(&format!(
            r#"{{"type":"string","{keyword}":"x"}}"#
        )));
        assert_eq!(
            message,
            format!(
                "tool \"t\": /inputSchema/properties/p/{keyword}: keyword \"{keyword}\" is not \
                 supported; docs/catalogs.md lists those a catalog may use"
            )
        );
    }
    // A near miss of a keyword names it.
    for (typo, meant) in [
        ("maxLenght", "maxLength"),
        ("patern", "pattern"),
        ("enun", "enum"),
    ] {
        assert_eq!(
            refusal(&with_property(&format!(
                r#"{{"type":"string","{typo}":1}}"#
            ))),
            format!(
                "tool \"t\": /inputSchema/properties/p/{typo}: keyword \"{typo}\" is not \
                 supported; did you mean \"{meant}\"?"
            )
        );
    }
    assert_eq!(
        refusal(&with_property(
            r#"{"type":"string","items":{"type":"string"}}"#
        )),
        r#"tool "t": /inputSchema/properties/p/items: "items" applies to array schemas, not string"#
    );
    assert_eq!(
        refusal(&with_property(
            r#"{"type":["integer","null"],"minLength":1}"#
        )),
        r#"tool "t": /inputSchema/properties/p/minLength: "minLength" applies to string schemas, not integer or null"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"string","$schema":"x"}"#)),
        r#"tool "t": /inputSchema/properties/p/$schema: only the root of a tool's schema may have "$schema""#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"string","description":1}"#)),
        r#"tool "t": /inputSchema/properties/p/description: must be a string, found a number"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"string","deprecated":"yes"}"#)),
        r#"tool "t": /inputSchema/properties/p/deprecated: must be a boolean, found a string"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"string","examples":"a"}"#)),
        r#"tool "t": /inputSchema/properties/p/examples: must be an array of values, found a string"#
    );
    // A pointer escapes "~" and "/" (RFC 6901).
    assert_eq!(
        refusal(&with_property(r#"{"type":"string","a/b~":1}"#)),
        "tool \"t\": /inputSchema/properties/p/a~1b~0: keyword \"a/b~\" is not supported; \
         docs/catalogs.md lists those a catalog may use"
    );
    // Annotations, and a keyword of another type where no type is given, are accepted.
    accepted(&with_schema(
        r#"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","title":"T","$comment":"c"}"#,
    ));
    accepted(&with_property(
        r#"{"title":"P","readOnly":true,"writeOnly":false,"deprecated":true,"examples":[1,"a"],"minLength":1,"format":"whatever"}"#,
    ));
}

#[test]
fn objects() {
    assert_eq!(
        refusal(&with_schema(
            r#"{"type":"object","properties":{"a b":{"type":"string"}}}"#
        )),
        r#"tool "t": /inputSchema/properties/a b: property name "a b" must match ^[a-zA-Z0-9_.-]{1,64}$ (Anthropic's rule for property keys)"#
    );
    assert_eq!(
        refusal(&with_schema(r#"{"type":"object","properties":[]}"#)),
        r#"tool "t": /inputSchema/properties: must be an object, found an array"#
    );
    assert_eq!(
        refusal(&with_schema(
            r#"{"type":"object","properties":{"a":{"type":"string"}},"required":"a"}"#
        )),
        r#"tool "t": /inputSchema/required: must be an array of property names, found a string"#
    );
    assert_eq!(
        refusal(&with_schema(
            r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["b"]}"#
        )),
        r#"tool "t": /inputSchema/required/0: "b" is not a property of this object, which takes no other members: declare it in properties, or let additionalProperties take it"#
    );
    // An open object may require a member that `properties` does not declare.
    accepted(&with_property(
        r#"{"type":"object","additionalProperties":{"type":"string"},"required":["b","a"]}"#,
    ));
    assert_eq!(
        refusal(&with_property(
            r#"{"type":"object","additionalProperties":true,"required":["b","b"]}"#
        )),
        r#"tool "t": /inputSchema/properties/p/required/1: "b" appears twice"#
    );
    assert_eq!(
        refusal(&with_schema(
            r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a","a"]}"#
        )),
        r#"tool "t": /inputSchema/required/1: "a" appears twice"#
    );
    assert_eq!(
        refusal(&with_property(
            r#"{"type":"object","minProperties":2,"maxProperties":1}"#
        )),
        r#"tool "t": /inputSchema/properties/p/minProperties: 2 is more than maxProperties 1"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"object","$defs":{}}"#)),
        r#"tool "t": /inputSchema/properties/p/$defs: only the root of a tool's schema may have "$defs""#
    );
    assert_eq!(
        refusal(&with_schema(r#"{"$defs":{},"definitions":{}}"#)),
        r#"tool "t": /inputSchema/definitions: give one of "$defs" and "definitions", not both"#
    );
    // Maps, free-form and empty objects, and names for keys.
    accepted(&with_schema(
        r#"{"type":"object","additionalProperties":true}"#,
    ));
    accepted(&with_property(
        r#"{"type":"object","additionalProperties":{"type":"integer"},"propertyNames":{"pattern":"^[a-z]+$"}}"#,
    ));
    accepted(&with_property(r#"{"type":"object","properties":{}}"#));
    accepted(&with_property(
        r#"{"type":"object","additionalProperties":false}"#,
    ));
    accepted(&with_property(r#"{"type":"object","required":[]}"#));
    accepted(&with_property(
        r#"{"type":"object","description":"anything"}"#,
    ));
}

#[test]
fn arrays_and_counts() {
    assert_eq!(
        refusal(&with_property(
            r#"{"type":"array","items":[{"type":"string"}],"prefixItems":[]}"#
        )),
        r#"tool "t": /inputSchema/properties/p/items: a list of schemas here is draft-07's tuple; give it as "prefixItems" instead, beside a single-schema "items""#
    );
    assert_eq!(
        refusal(&with_property(
            r#"{"type":"array","additionalItems":false}"#
        )),
        r#"tool "t": /inputSchema/properties/p/additionalItems: "additionalItems" follows a tuple given as an "items" list (draft-07), and there is none; give "items" instead"#
    );
    // A count is a non-negative integer in JSON Schema's data model, however it is written
    // (JSON-Schema-Test-Suite's "maxItems validation with a decimal"): read as that integer,
    // and written in canonical form.
    for (given, canonical) in [("2.0", "2"), ("1e1", "10"), ("-0", "0"), ("20E-1", "2")] {
        let catalog = with_property(&format!(
            r#"{{"type":"array","items":{{"type":"string"}},"maxItems":{given}}}"#
        ));
        for format in ["mcp", "openai", "gemini"] {
            let declaration = declared(&catalog, format);
            let want = format!(r#""maxItems":{canonical}"#);
            assert!(
                declaration.contains(&want),
                "{given} {format}: {declaration}"
            );
        }
    }
    for bad in ["-1", "1.5", "2.5e0", "1e-1", "\"2\""] {
        let found = if bad.starts_with('"') {
            "a string"
        } else {
            bad
        };
        assert_eq!(
            refusal(&with_property(&format!(
                r#"{{"type":"array","items":{{"type":"string"}},"minItems":{bad}}}"#
            ))),
            format!(
                "tool \"t\": /inputSchema/properties/p/minItems: must be a non-negative integer, found {found}"
            )
        );
    }
    assert_eq!(
        refusal(&with_property(
            r#"{"type":"array","items":{"type":"string"},"minItems":3,"maxItems":2}"#
        )),
        r#"tool "t": /inputSchema/properties/p/minItems: 3 is more than maxItems 2"#
    );
    assert_eq!(
        refusal(&with_property(
            r#"{"type":"string","minLength":5,"maxLength":4}"#
        )),
        r#"tool "t": /inputSchema/properties/p/minLength: 5 is more than maxLength 4"#
    );
    assert_eq!(
        refusal(&with_property(
            r#"{"type":"string","maxLength":99999999999999999999}"#
        )),
        r#"tool "t": /inputSchema/properties/p/maxLength: 99999999999999999999 is too large for a count"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"array","uniqueItems":1}"#)),
        r#"tool "t": /inputSchema/properties/p/uniqueItems: must be a boolean, found a number"#
    );
    // An array without items takes any elements; tuples both ways.
    accepted(&with_property(r#"{"type":"array"}"#));
    accepted(&with_property(
        r#"{"type":"array","prefixItems":[{"type":"string"}],"items":{"type":"integer"}}"#,
    ));
    accepted(&with_property(
        r#"{"type":"array","items":[{"type":"string"}],"additionalItems":false}"#,
    ));
}

#[test]
fn enums_bounds_and_defaults() {
    assert_eq!(
        refusal(&with_property(r#"{"type":"string","enum":[]}"#)),
        r#"tool "t": /inputSchema/properties/p/enum: must list at least one value: an empty enum admits nothing"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"string","enum":["a",1]}"#)),
        r#"tool "t": /inputSchema/properties/p/enum/1: must be a string, as the schema's type says; found a number"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"string","enum":["a","a"]}"#)),
        r#"tool "t": /inputSchema/properties/p/enum/1: the same value appears twice"#
    );
    // Strings are the same by their text, escaped or not; a value of the wrong type is refused
    // as that, though it is there twice.
    let wrong_type = "must be a string, as the schema's type says; found a number";
    for (property, refused) in [
        (
            r#"{"type":"string","enum":["ab","a\u0062"]}"#,
            "1: the same value appears twice",
        ),
        (
            r#"{"type":"string","enum":[1,1]}"#,
            &format!("0: {wrong_type}"),
        ),
        (
            r#"{"type":"string","enum":["a",1,1]}"#,
            &format!("1: {wrong_type}"),
        ),
        (
            r#"{"type":"string","enum":["a","a",1]}"#,
            "1: the same value appears twice",
        ),
    ] {
        assert_eq!(
            refusal(&with_property(property)),
            format!(r#"tool "t": /inputSchema/properties/p/enum/{refused}"#)
        );
    }
    // A string is never a number, a boolean or null.
    accepted(&with_property(
        r#"{"enum":["1",1,"true",true,"null",null]}"#,
    ));
    assert_eq!(
        refusal(&with_property(r#"{"type":"integer","enum":[1,1.0]}"#)),
        r#"tool "t": /inputSchema/properties/p/enum/1: the same value appears twice"#
    );
    assert_eq!(
        refusal(&with_property(
            r#"{"enum":[{"a":1,"b":[2]},{"b":[2.0],"a":1}]}"#
        )),
        r#"tool "t": /inputSchema/properties/p/enum/1: the same value appears twice"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"integer","enum":[0.5]}"#)),
        r#"tool "t": /inputSchema/properties/p/enum/0: must be an integer, as the schema's type says; found a number"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"string","const":1}"#)),
        r#"tool "t": /inputSchema/properties/p/const: must be a string, as the schema's type says; found a number"#
    );
    assert_eq!(
        refusal(&with_property(
            r#"{"type":"string","maxLength":1,"const":"ab"}"#
        )),
        r#"tool "t": /inputSchema/properties/p/const: does not fit its own schema: must be at most 1 character long, found 2"#
    );
    assert_eq!(
        refusal(&with_property(
            r#"{"type":"number","minimum":2,"maximum":1}"#
        )),
        r#"tool "t": /inputSchema/properties/p/minimum: no number is within minimum and maximum: the range is empty"#
    );
    assert_eq!(
        refusal(&with_property(
            r#"{"type":"number","exclusiveMinimum":1,"maximum":1}"#
        )),
        r#"tool "t": /inputSchema/properties/p/exclusiveMinimum: no number is within exclusiveMinimum and maximum: the range is empty"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"number","multipleOf":0}"#)),
        r#"tool "t": /inputSchema/properties/p/multipleOf: must be more than 0, as JSON Schema requires"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"number","maximum":1e400}"#)),
        r#"tool "t": /inputSchema/properties/p/maximum: 1e400 is out of range for a 64-bit float"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"integer","minimum":"1"}"#)),
        r#"tool "t": /inputSchema/properties/p/minimum: must be a number, found a string"#
    );
    // A const and every enum value must fit the node. A default or an example need not (JSON
    // Schema's annotations, "should validate ... but that isn't required"): each is kept in
    // the MCP shape, dropped from the providers', and reported by the review.
    for (property, pointer, rule) in [
        (
            r#"{"type":"integer","default":"5"}"#,
            "default",
            "default-mismatch",
        ),
        (
            r#"{"type":"integer","default":1.5}"#,
            "default",
            "default-mismatch",
        ),
        (
            r#"{"type":"integer","default":null}"#,
            "default",
            "default-mismatch",
        ),
        (
            r#"{"type":"integer","minimum":1,"default":0}"#,
            "default",
            "default-mismatch",
        ),
        (
            r#"{"type":"string","enum":["a"],"default":"b"}"#,
            "default",
            "default-mismatch",
        ),
        (
            r#"{"type":"string","maxLength":1,"default":"éé"}"#,
            "default",
            "default-mismatch",
        ),
        (
            r#"{"type":"string","pattern":"^a","examples":["ab","b"]}"#,
            "examples",
            "example-mismatch",
        ),
        (
            r#"{"type":"array","items":{"type":"string"},"default":[1]}"#,
            "default",
            "default-mismatch",
        ),
        (
            r#"{"type":"number","multipleOf":0.1,"default":0.35}"#,
            "default",
            "default-mismatch",
        ),
    ] {
        let catalog = with_property(property);
        assert_eq!(
            unfit(&catalog),
            [format!("/inputSchema/properties/p/{pointer} {rule}")],
            "{property}"
        );
        let key = format!(r#""{pointer}":"#);
        assert!(declared(&catalog, "mcp").contains(&key), "{property}");
        for format in ["openai", "openai_responses", "anthropic", "gemini"] {
            let declaration = declared(&catalog, format);
            assert!(!declaration.contains(&key), "{format}: {declaration}");
        }
    }
    // Beside them, a default that fits is kept where it always was, and the review is quiet.
    let catalog = with_property(r#"{"type":"integer","default":3,"examples":[1]}"#);
    assert!(unfit(&catalog).is_empty());
    assert!(declared(&catalog, "gemini").contains(r#""default":3"#));
    assert!(declared(&catalog, "openai").contains(r#""examples":[1]"#));
    assert_eq!(
        refusal(&with_property(
            r#"{"type":"integer","minimum":1,"const":0}"#
        )),
        r#"tool "t": /inputSchema/properties/p/const: does not fit its own schema: must be at least 1"#
    );
    assert_eq!(
        refusal(&with_property(
            r#"{"type":"string","maxLength":1,"enum":["a","éé"]}"#
        )),
        r#"tool "t": /inputSchema/properties/p/enum/1: does not fit its own schema: must be at most 1 character long, found 2"#
    );
    // `format` is an annotation for the catalog's own values (JSON Schema 2020-12's default):
    // generators write defaults their language accepts, such as pydantic's time without an
    // offset. check_call asserts it on calls.
    accepted(&with_property(
        r#"{"type":"string","format":"time","default":"09:00:00"}"#,
    ));
    accepted(&with_property(
        r#"{"type":"number","multipleOf":0.1,"default":0.3}"#,
    ));
    accepted(&with_property(
        r#"{"type":["string","null"],"default":null}"#,
    ));
    accepted(&with_property(r#"{"type":"boolean","enum":[true]}"#));
}

#[test]
fn openai_strict_limits_apply_to_the_whole_catalog() {
    // 10 levels of object nesting, counting the root.
    let mut schema = String::from(r#"{"type":"string"}"#);
    for _ in 0..9 {
        schema = format!(r#"{{"type":"object","properties":{{"a":{schema}}}}}"#);
    }
    accepted(&with_property(&schema));
    let deeper = format!(r#"{{"type":"object","properties":{{"a":{schema}}}}}"#);
    assert_eq!(
        refusal(&with_property(&deeper)),
        r#"tool "t": /inputSchema: 11 levels of object nesting; OpenAI strict allows at most 10"#
    );
    // What a reference expands to counts where it is used: a definition of 10 levels, used by
    // a property of the root, makes 11.
    let defs = format!(
        r##"{{"type":"object","$defs":{{"d":{deeper}}},"properties":{{"p":{{"$ref":"#/$defs/d"}}}}}}"##
    );
    assert_eq!(
        refusal(&with_schema(&defs)),
        r#"tool "t": /inputSchema: 11 levels of object nesting; OpenAI strict allows at most 10"#
    );
    // A recursive reference is not expanded.
    accepted(&with_schema(
        r##"{"type":"object","$defs":{"n":{"type":"object","properties":{"next":{"$ref":"#/$defs/n"}}}},"properties":{"p":{"$ref":"#/$defs/n"}}}"##,
    ));
    // 5,000 properties across all tools.
    let tool = |n: usize, count: usize| {
        let properties: Vec<String> = (0..count)
            .map(|i| format!(r#""p{i}":{{"type":"string"}}"#))
            .collect();
        format!(
            r#"{{"name":"t{n}","description":"d","inputSchema":{{"type":"object","properties":{{{}}}}}}}"#,
            properties.join(",")
        )
    };
    accepted(&format!("[{},{}]", tool(0, 2500), tool(1, 2500)));
    assert_eq!(
        refusal(&format!("[{},{}]", tool(0, 2500), tool(1, 2501))),
        r#"tool "t1": /inputSchema: 5001 object properties in the catalog so far; OpenAI strict allows at most 5000 in all"#
    );
    // 1,000 enum values across all tools.
    let values: Vec<String> = (0..1000).map(|i| format!(r#""v{i}""#)).collect();
    let values = values.join(",");
    accepted(&with_property(&format!(
        r#"{{"type":"string","enum":[{values}]}}"#
    )));
    assert_eq!(
        refusal(&with_schema(&format!(
            r#"{{"type":"object","properties":{{"a":{{"type":"string","enum":[{values}]}},"b":{{"type":"string","enum":["x"]}}}}}}"#
        ))),
        r#"tool "t": /inputSchema: 1001 enum values in the catalog so far; OpenAI strict allows at most 1000 in all"#
    );
}

#[test]
fn messages_stay_on_one_line() {
    // Found by the catalog fuzz target: a catalog string with a newline, in a rule's message.
    let message = refusal(&with_property(
        r#"{"type":"array","items":{"enum":["a","b\n\u2028c\""]},"const":["x"]}"#,
    ));
    assert_eq!(
        message,
        r#"tool "t": /inputSchema/properties/p/const: does not fit its own schema: at /0: must be one of "a", "b\n\u2028c\"""#
    );
    let message = refusal(r#"[{"name":"a\nb","description":"d","inputSchema":{"type":"object"}}]"#);
    assert!(!message.contains('\n'), "{message}");
    assert!(
        message.starts_with(r#"tool "a\u000ab": /name:"#),
        "{message}"
    );
    // Found by the catalog fuzz target: a key with an escaped newline, in the pointer.
    let message = refusal(
        r#"[{"name":"t","description":"d","inputSchema":{"type":"object"},"annotati\ns":1}]"#,
    );
    assert_eq!(
        message,
        r#"tool "t": /annotati\u000as: "annotati\u000as" is not a field of a catalog tool; expected name, title, description, inputSchema, outputSchema, annotations, icons, execution, _meta"#
    );
}

/// The structural rules the model relies on (a tool's name, description and hints, an object
/// root, sorted and unique properties, sane counts), each refused by the reader with its one
/// line. The reader is the only place these rules are written: the compiled-in tables and a
/// catalog read at run time are both made from what it accepted.
#[test]
fn every_structural_rule_is_refused_with_one_line() {
    for (rule, catalog, line) in common::STRUCTURAL_RULES {
        assert_eq!(refusal(catalog), line, "the rule {rule:?}");
    }
}
