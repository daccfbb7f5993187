//! Every rule of the catalog reader, each with the message it gives: the tool, the JSON Pointer
//! of the offending value, and the rule. `build.rs` prints exactly this message, after the file
//! name, when a catalog fails the build (`tests/catalogs.rs` checks one such build end to end).

mod common;

use tool_schema::catalog_file::{read, Catalog};

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

#[test]
fn the_document() {
    assert_eq!(
        refusal("{}"),
        r#""": the catalog must be a JSON array of tools, found an object"#
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
}

#[test]
fn the_tool_fields() {
    let t = r#""name":"t","description":"d","inputSchema":{"type":"object"}"#;
    assert_eq!(
        refusal(&format!(r#"[{{{t},"title":"T"}}]"#)),
        r#"tool "t": /title: "title" is not a field of a catalog tool; expected name, description, inputSchema, annotations"#
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
}

#[test]
fn the_description_limit_counts_bytes() {
    let at_limit = "é".repeat(512); // 1024 bytes
    accepted(&format!(
        r#"[{{"name":"t","description":"{at_limit}","inputSchema":{{"type":"object"}}}}]"#
    ));
    let over = format!("{at_limit}x");
    assert_eq!(
        refusal(&format!(
            r#"[{{"name":"ask","description":"{over}","inputSchema":{{"type":"object"}}}}]"#
        )),
        r#"tool "ask": /description: 1025 bytes; OpenAI allows at most 1024"#
    );
}

#[test]
fn the_annotations() {
    let t = r#""name":"t","description":"d","inputSchema":{"type":"object"}"#;
    assert_eq!(
        refusal(&format!(r#"[{{{t},"annotations":[]}}]"#)),
        r#"tool "t": /annotations: must be an object, found an array"#
    );
    assert_eq!(
        refusal(&format!(r#"[{{{t},"annotations":{{"title":"T"}}}}]"#)),
        r#"tool "t": /annotations/title: "title" is not a hint this catalog keeps; expected readOnlyHint, destructiveHint, idempotentHint, openWorldHint"#
    );
    assert_eq!(
        refusal(&format!(r#"[{{{t},"annotations":{{"readOnlyHint":1}}}}]"#)),
        r#"tool "t": /annotations/readOnlyHint: must be a boolean, found a number"#
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
        r#"[{{{t},"annotations":{{"readOnlyHint":true}}}}]"#
    ))
    .tools
    .remove(0);
    assert_eq!(
        (read_only.hints.read_only, read_only.hints.destructive),
        (true, false)
    );
}

#[test]
fn types() {
    assert_eq!(
        refusal(&with_schema("[]")),
        r#"tool "t": /inputSchema: a schema must be an object, found an array"#
    );
    assert_eq!(
        refusal(&with_schema("{}")),
        r#"tool "t": /inputSchema: missing "type"; give exactly one of object, array, string, integer, number, boolean"#
    );
    assert_eq!(
        refusal(&with_schema(r#"{"type":"string"}"#)),
        r#"tool "t": /inputSchema/type: the arguments must be an object, found "string""#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":["string","null"]}"#)),
        r#"tool "t": /inputSchema/properties/p/type: a list of types is not supported; give exactly one of object, array, string, integer, number, boolean"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"null"}"#)),
        r#"tool "t": /inputSchema/properties/p/type: "null" is not a supported type; expected one of object, array, string, integer, number, boolean"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":1}"#)),
        r#"tool "t": /inputSchema/properties/p/type: must be a string, found a number"#
    );
}

#[test]
fn keywords_outside_the_subset_are_named() {
    for keyword in [
        "anyOf", "oneOf", "allOf", "$ref", "const", "format", "pattern", "title", "not",
    ] {
        let message = refusal(&with_property(&format!(
            r#"{{"type":"string","{keyword}":"x"}}"#
        )));
        assert_eq!(
            message,
            format!(
                "tool \"t\": /inputSchema/properties/p/{keyword}: keyword \"{keyword}\" is not supported; \
                 the catalog's schema subset is type, description, properties, required, \
                 additionalProperties, items, minItems, maxItems, enum, minLength, maxLength, \
                 minimum, maximum, default, and $schema at the root"
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
        refusal(&with_property(r#"{"type":"integer","minLength":1}"#)),
        r#"tool "t": /inputSchema/properties/p/minLength: "minLength" applies to string schemas, not integer"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"boolean","enum":[true]}"#)),
        r#"tool "t": /inputSchema/properties/p/enum: "enum" applies to string and integer and number schemas, not boolean"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"string","$schema":"x"}"#)),
        r#"tool "t": /inputSchema/properties/p/$schema: only the root of inputSchema may have "$schema""#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"string","description":1}"#)),
        r#"tool "t": /inputSchema/properties/p/description: must be a string, found a number"#
    );
    // A pointer escapes "~" and "/" (RFC 6901).
    assert_eq!(
        refusal(&with_property(r#"{"type":"string","a/b~":1}"#)),
        "tool \"t\": /inputSchema/properties/p/a~1b~0: keyword \"a/b~\" is not supported; \
         the catalog's schema subset is type, description, properties, required, \
         additionalProperties, items, minItems, maxItems, enum, minLength, maxLength, minimum, \
         maximum, default, and $schema at the root"
    );
    // $schema at the root is accepted and left out of every output.
    accepted(&with_schema(
        r#"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"}"#,
    ));
}

#[test]
fn objects() {
    assert_eq!(
        refusal(&with_schema(
            r#"{"type":"object","properties":{"a b":{"type":"string"}}}"#
        )),
        r#"tool "t": /inputSchema/properties/a b: property name "a b" must match ^[a-zA-Z_][a-zA-Z0-9_]{0,63}$"#
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
        r#"tool "t": /inputSchema/required/0: "b" is not a property of this object"#
    );
    assert_eq!(
        refusal(&with_schema(
            r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a","a"]}"#
        )),
        r#"tool "t": /inputSchema/required/1: "a" appears twice"#
    );
    assert_eq!(
        refusal(&with_schema(
            r#"{"type":"object","additionalProperties":true}"#
        )),
        r#"tool "t": /inputSchema/additionalProperties: only false is supported, found true: an open object can be neither declared strictly nor checked"#
    );
    assert_eq!(
        refusal(&with_schema(
            r#"{"type":"object","additionalProperties":{"type":"string"}}"#
        )),
        r#"tool "t": /inputSchema/additionalProperties: only false is supported, found an object: an open object can be neither declared strictly nor checked"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"object","properties":{}}"#)),
        r#"tool "t": /inputSchema/properties/p/properties: a nested object must have at least one property (or give none of properties, required and additionalProperties, for a free-form object)"#
    );
    assert_eq!(
        refusal(&with_property(
            r#"{"type":"object","additionalProperties":false}"#
        )),
        r#"tool "t": /inputSchema/properties/p: a nested object must have at least one property (or give none of properties, required and additionalProperties, for a free-form object)"#
    );
    // A root without properties is a tool without arguments; a bare nested object is free-form.
    accepted(&with_schema(r#"{"type":"object"}"#));
    accepted(&with_property(
        r#"{"type":"object","description":"anything"}"#,
    ));
}

#[test]
fn arrays_and_counts() {
    assert_eq!(
        refusal(&with_property(r#"{"type":"array"}"#)),
        r#"tool "t": /inputSchema/properties/p: an array schema needs "items", one schema for every element"#
    );
    assert_eq!(
        refusal(&with_property(
            r#"{"type":"array","items":[{"type":"string"}]}"#
        )),
        r#"tool "t": /inputSchema/properties/p/items: must be one schema object; a list of schemas (a tuple) is not supported"#
    );
    for bad in ["-1", "1.5", "1e2", "\"2\""] {
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
}

#[test]
fn enums_bounds_and_defaults() {
    assert_eq!(
        refusal(&with_property(r#"{"type":"string","enum":[]}"#)),
        r#"tool "t": /inputSchema/properties/p/enum: must list at least one value"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"string","enum":["a",1]}"#)),
        r#"tool "t": /inputSchema/properties/p/enum/1: must be a string, as the schema's type says; found a number"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"string","enum":["a","a"]}"#)),
        r#"tool "t": /inputSchema/properties/p/enum/1: the same value appears twice"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"integer","enum":[1,1.0]}"#)),
        r#"tool "t": /inputSchema/properties/p/enum/1: the same value appears twice"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"integer","enum":[0.5]}"#)),
        r#"tool "t": /inputSchema/properties/p/enum/0: 0.5 is not an integer"#
    );
    assert_eq!(
        refusal(&with_property(
            r#"{"type":"number","minimum":2,"maximum":1}"#
        )),
        r#"tool "t": /inputSchema/properties/p/minimum: 2 is more than maximum 1"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"number","maximum":1e400}"#)),
        r#"tool "t": /inputSchema/properties/p/maximum: 1e400 is out of range for a 64-bit float"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"integer","minimum":"1"}"#)),
        r#"tool "t": /inputSchema/properties/p/minimum: must be a number, found a string"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"integer","default":"5"}"#)),
        r#"tool "t": /inputSchema/properties/p/default: must be an integer, as the schema's type says; found a string"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"integer","default":1.5}"#)),
        r#"tool "t": /inputSchema/properties/p/default: 1.5 is not an integer"#
    );
    assert_eq!(
        refusal(&with_property(
            r#"{"type":"integer","minimum":1,"default":0}"#
        )),
        r#"tool "t": /inputSchema/properties/p/default: 0 is outside minimum/maximum"#
    );
    assert_eq!(
        refusal(&with_property(
            r#"{"type":"string","enum":["a"],"default":"b"}"#
        )),
        r#"tool "t": /inputSchema/properties/p/default: not one of the enum's values"#
    );
    assert_eq!(
        refusal(&with_property(
            r#"{"type":"string","maxLength":1,"default":"éé"}"#
        )),
        r#"tool "t": /inputSchema/properties/p/default: "éé" has 2 characters, outside minLength/maxLength"#
    );
    assert_eq!(
        refusal(&with_property(r#"{"type":"boolean","default":null}"#)),
        r#"tool "t": /inputSchema/properties/p/default: must be a boolean, as the schema's type says; found null"#
    );
    assert_eq!(
        refusal(&with_property(
            r#"{"type":"array","items":{"type":"string"},"default":[]}"#
        )),
        r#"tool "t": /inputSchema/properties/p/default: "default" applies to string, integer, number and boolean schemas, not array"#
    );
    // Numbers are kept as the catalog spelled them.
    let catalog = accepted(&with_property(
        r#"{"type":"number","minimum":-1.50,"default":1E2}"#,
    ));
    let model = catalog.model();
    let property = model.properties(model.input(&model.tools[0]))[0];
    let minimum = model.node(property.schema).minimum.expect("a minimum");
    assert_eq!(model.str(minimum.text), "-1.50");
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
    let message = refusal(&with_property(&deeper));
    assert!(
        message.ends_with(": 11 levels of object nesting; OpenAI strict allows at most 10"),
        "{message}"
    );
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
        r#"tool "t1": /inputSchema/properties/p2500: property 5001 of the catalog; OpenAI strict allows at most 5000 in all"#
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
        r#"tool "t": /inputSchema/properties/b/enum/0: enum value 1001 of the catalog; OpenAI strict allows at most 1000 in all"#
    );
}

#[test]
fn messages_stay_on_one_line() {
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
        r#"tool "t": /annotati\u000as: "annotati\u000as" is not a field of a catalog tool; expected name, description, inputSchema, annotations"#
    );
}

/// The structural rules the model relies on (a tool's name, description and hints, an object
/// root, sorted and unique properties, sane counts), each refused by the reader with its one
/// line. The reader is the only place these rules are written: the compiled-in tables and a
/// catalog read at run time are both made from what it accepted.
#[test]
fn every_structural_rule_is_refused_with_one_line() {
    for (rule, catalog, line) in common::STRUCTURAL_RULES {
        assert_eq!(
            refusal(&common::structural_rule_catalog(catalog)),
            line,
            "the rule {rule:?}"
        );
    }
}
