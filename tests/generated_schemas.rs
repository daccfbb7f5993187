//! Calls against the schemas pydantic and zod write, checked by the general reader
//! (`src/validate.rs`) and rendered for each provider: the cases a probe with models of its own
//! (pydantic 2.14.4, zod 4.6.7, each call also judged by Python's `jsonschema` 4.26.0) found
//! answered wrongly on 2026-12-05. Each schema here is the shape the generator writes, cut down
//! to the node concerned.

use tool_schema::RuntimeCatalog;

/// A catalog of one tool `t` whose arguments are `schema`.
fn catalog(schema: &str) -> RuntimeCatalog {
    let file = format!(r#"[{{"name":"t","description":"d","inputSchema":{schema}}}]"#);
    RuntimeCatalog::from_bytes(file.as_bytes()).unwrap_or_else(|err| panic!("{schema}: {err}"))
}

/// The answer to an MCP call of `t` with `arguments`, without its trailing newline.
fn check(catalog: &RuntimeCatalog, arguments: &str) -> String {
    check_tool(catalog, "t", arguments)
}

/// The answer to an MCP call of `tool` with `arguments`, without its trailing newline.
fn check_tool(catalog: &RuntimeCatalog, tool: &str, arguments: &str) -> String {
    let request = format!(
        r#"{{"op":"check_call","format":"mcp","call":{{"name":"{tool}","arguments":{arguments}}}}}"#
    );
    let mut out = Vec::new();
    catalog
        .respond(request.as_bytes(), &mut out)
        .unwrap_or_else(|err| panic!("{request}: {err}"));
    let line = String::from_utf8(out).expect("UTF-8");
    line.strip_suffix('\n').expect("one line").to_string()
}

/// The one problem of an invalid call of `t`: its code, message and path.
fn problem(catalog: &RuntimeCatalog, arguments: &str) -> (String, String, String) {
    problem_of(catalog, "t", arguments)
}

/// The one problem of an invalid call of `tool`: its code, message and path.
fn problem_of(catalog: &RuntimeCatalog, tool: &str, arguments: &str) -> (String, String, String) {
    let answer = check_tool(catalog, tool, arguments);
    let field = |name: &str| {
        let key = format!("\"{name}\":\"");
        let start = answer.find(&key).unwrap_or_else(|| panic!("{answer}")) + key.len();
        let mut end = start;
        let bytes = answer.as_bytes();
        while bytes[end] != b'"' || bytes[end - 1] == b'\\' {
            end += 1;
        }
        answer[start..end].to_string()
    };
    assert!(
        answer.contains(r#""ok":false"#),
        "{tool} {arguments}: {answer}"
    );
    assert_eq!(answer.matches(r#""code":"#).count(), 1, "{answer}");
    (field("code"), field("message"), field("path"))
}

fn expect(catalog: &RuntimeCatalog, arguments: &str, code: &str, message: &str, path: &str) {
    assert_eq!(
        problem(catalog, arguments),
        (code.to_string(), message.to_string(), path.to_string()),
        "{arguments}"
    );
}

const SAFE_RANGE: &str = "must be an integer from -9007199254740991 to 9007199254740991";

/// pydantic's `Optional[int]` (and a type list, and `multipleOf: 1`) held an integer beyond
/// ±(2^53−1) to the flat checker's range no more: `9007199254740993` was answered valid as
/// `9007199254740992`, and a free-form member's `1e400` as `0`.
#[test]
fn integers_and_floats_keep_the_flat_checkers_range_in_every_schema() {
    let optional = catalog(
        r#"{"type":"object","properties":{"n":{"anyOf":[{"type":"integer"},{"type":"null"}]}}}"#,
    );
    let found = ", found the number 9007199254740993";
    expect(
        &optional,
        r#"{"n":9007199254740993}"#,
        "argument_out_of_range",
        &format!("argument \\\"n\\\" {SAFE_RANGE}{found}"),
        "/n",
    );
    assert_eq!(
        check(&optional, r#"{"n":-9007199254740991}"#),
        r#"{"arguments":{"n":-9007199254740991},"name":"t","ok":true}"#
    );
    let listed = catalog(r#"{"type":"object","properties":{"n":{"type":["integer","null"]}}}"#);
    expect(
        &listed,
        r#"{"n":12345678901234567890}"#,
        "argument_out_of_range",
        &format!("argument \\\"n\\\" {SAFE_RANGE}, found the number 12345678901234567890"),
        "/n",
    );
    let multiple =
        catalog(r#"{"type":"object","properties":{"n":{"type":"integer","multipleOf":1}}}"#);
    expect(
        &multiple,
        r#"{"n":1e300}"#,
        "argument_out_of_range",
        &format!("argument \\\"n\\\" {SAFE_RANGE}, found the number 1e300"),
        "/n",
    );
    // A number may be as large as a float holds: JSON Schema's, and RFC 8785's form of it.
    let number = catalog(r#"{"type":"object","properties":{"x":{"type":["number","null"]}}}"#);
    assert_eq!(
        check(&number, r#"{"x":9007199254740993}"#),
        r#"{"arguments":{"x":9007199254740992},"name":"t","ok":true}"#
    );
    let beyond = "must be a number that fits a 64-bit float";
    expect(
        &number,
        r#"{"x":-1e309}"#,
        "argument_out_of_range",
        &format!("argument \\\"x\\\" {beyond}, found the number -1e309"),
        "/x",
    );
    // Where no node reads a value (a free-form object, an array of anything, the schema
    // `true`), its numbers are still written as floats, so they are checked as floats.
    let free = catalog(
        r#"{"type":"object","properties":{"m":{"type":"object"},"a":{"type":"array"},"any":true}}"#,
    );
    expect(
        &free,
        r#"{"m":{"a":[{"b":"x\"]1e999"},1e400]}}"#,
        "argument_out_of_range",
        &format!("argument \\\"m/a\\\" {beyond}, found the number 1e400"),
        "/m/a",
    );
    expect(
        &free,
        r#"{"a":[1,-1e400]}"#,
        "argument_out_of_range",
        &format!("argument \\\"a/1\\\" {beyond}, found the number -1e400"),
        "/a/1",
    );
    expect(
        &free,
        r#"{"any":{"k":[[1e400]]}}"#,
        "argument_out_of_range",
        &format!("argument \\\"any\\\" {beyond}, found the number 1e400"),
        "/any",
    );
    assert_eq!(
        check(
            &free,
            r#"{"m":{"a":[1.5e3,"1e400",-2e-400]},"any":{"k":[[-0.0]]}}"#
        ),
        r#"{"arguments":{"any":{"k":[[0]]},"m":{"a":[1500,"1e400",0]}},"name":"t","ok":true}"#
    );
}

/// zod writes `additionalProperties: false` on every object, and pydantic for
/// `extra="forbid"`: a member the object does not declare is `unknown_argument` there too (it
/// was `wrong_argument_type`, "no value is allowed here"), and one element too many for a
/// closed tuple is a count.
#[test]
fn a_closing_false_is_the_closing_rule() {
    let closed = catalog(
        r#"{"type":"object","properties":{"s":{"type":"string"},"p":{"type":"string","pattern":"x"}},"additionalProperties":false}"#,
    );
    expect(
        &closed,
        r#"{"s":"x","zz":1}"#,
        "unknown_argument",
        "unknown argument \\\"zz\\\"; this object takes no other members",
        "/zz",
    );
    let tuple = catalog(
        r#"{"type":"object","properties":{"p":{"type":"array","prefixItems":[{"type":"number"},{"type":"string"}],"items":false}},"required":["p"]}"#,
    );
    expect(
        &tuple,
        r#"{"p":[1,"a",3]}"#,
        "argument_out_of_range",
        "argument \\\"p\\\" must have at most 2 items, found 3",
        "/p",
    );
    assert_eq!(
        check(&tuple, r#"{"p":[1,"a"]}"#),
        r#"{"arguments":{"p":[1,"a"]},"name":"t","ok":true}"#
    );
}

/// A count's problem says what it found once (it said "found 0, found the string \"\"").
#[test]
fn a_count_says_what_it_found_once() {
    let counted = catalog(
        r#"{"type":"object","properties":{"s":{"type":"string","minLength":1},"a":{"type":"array","minItems":1,"items":{"type":"string"}},"m":{"type":"object","maxProperties":1},"p":{"type":"string","pattern":"x"}},"required":["s"]}"#,
    );
    expect(
        &counted,
        r#"{"s":""}"#,
        "argument_out_of_range",
        "argument \\\"s\\\" must be at least 1 character long, found 0",
        "/s",
    );
    expect(
        &counted,
        r#"{"s":"a","a":[]}"#,
        "argument_out_of_range",
        "argument \\\"a\\\" must have at least 1 item, found 0",
        "/a",
    );
    expect(
        &counted,
        r#"{"s":"a","m":{"x":1,"y":2}}"#,
        "argument_out_of_range",
        "argument \\\"m\\\" must have at most 1 member, found 2",
        "/m",
    );
}

/// pydantic's `Optional[X]` is `anyOf: [X, {"type": "null"}]`: a value of X's type that X
/// refuses gets X's problem, which tells the model what to send, not "fits none of the
/// schema's alternatives". Where more than one branch takes the value's type, the union's
/// problem stays.
#[test]
fn an_optional_value_gets_its_types_problem() {
    let optional = catalog(
        r##"{"type":"object","properties":{"d":{"anyOf":[{"type":"string","format":"date"},{"type":"null"}]},"n":{"anyOf":[{"type":"integer","exclusiveMinimum":0},{"type":"null"}]},"e":{"anyOf":[{"enum":["a","b"],"type":"string"},{"type":"null"}]},"o":{"anyOf":[{"$ref":"#/$defs/Point"},{"type":"null"}]},"u":{"anyOf":[{"type":"string","maxLength":1},{"type":"string","format":"date"}]}},"$defs":{"Point":{"type":"object","properties":{"x":{"type":"integer"}},"required":["x"]}}}"##,
    );
    expect(&optional, r#"{"d":"2025-13-01"}"#, "argument_not_matching", "argument \\\"d\\\" must be an RFC 3339 full-date such as 2024-05-01, found the string \\\"2025-13-01\\\"", "/d");
    expect(
        &optional,
        r#"{"n":0}"#,
        "argument_out_of_range",
        "argument \\\"n\\\" must be more than 0, found the number 0",
        "/n",
    );
    expect(
        &optional,
        r#"{"e":"c"}"#,
        "argument_not_in_enum",
        "argument \\\"e\\\" must be one of \\\"a\\\", \\\"b\\\", found the string \\\"c\\\"",
        "/e",
    );
    expect(
        &optional,
        r#"{"o":{"x":"1"}}"#,
        "wrong_argument_type",
        "argument \\\"o/x\\\" must be an integer, found the string \\\"1\\\"",
        "/o/x",
    );
    expect(
        &optional,
        r#"{"o":{}}"#,
        "missing_argument",
        "missing required argument \\\"o/x\\\"",
        "/o/x",
    );
    // No branch takes a number: the union's own problem.
    expect(
        &optional,
        r#"{"n":"1"}"#,
        "argument_fits_no_alternative",
        "argument \\\"n\\\" fits none of the schema's alternatives, found the string \\\"1\\\"",
        "/n",
    );
    // Two branches take a string.
    expect(
        &optional,
        r#"{"u":"ab"}"#,
        "argument_fits_no_alternative",
        "argument \\\"u\\\" fits none of the schema's alternatives, found the string \\\"ab\\\"",
        "/u",
    );
    assert_eq!(
        check(&optional, r#"{"d":null,"n":1,"e":"a","o":{"x":1},"u":"a"}"#),
        r#"{"arguments":{"d":null,"e":"a","n":1,"o":{"x":1},"u":"a"},"name":"t","ok":true}"#
    );
}

/// Gemini's schema has no tuple, so its element schemas are left out of the declaration; the
/// `items` after them went on being written, and said every element was of the rest's type
/// (zod's `z.tuple([z.number(), z.number()], z.string())`).
#[test]
fn gemini_leaves_a_tuples_rest_out_with_its_elements() {
    for tuple in [
        r#"{"type":"array","prefixItems":[{"type":"number"},{"type":"number"}],"items":{"type":"string"}}"#,
        r#"{"type":"array","items":[{"type":"number"},{"type":"number"}],"additionalItems":{"type":"string"}}"#,
        r#"{"type":"array","prefixItems":[{"type":"number"}],"items":false}"#,
    ] {
        let catalog = catalog(&format!(
            r#"{{"type":"object","properties":{{"p":{tuple}}},"required":["p"]}}"#
        ));
        let mut out = Vec::new();
        catalog
            .respond(br#"{"op":"tool_list","format":"gemini"}"#, &mut out)
            .expect("declared");
        assert_eq!(
            String::from_utf8(out).expect("UTF-8"),
            "[{\"description\":\"d\",\"name\":\"t\",\"parameters\":{\"properties\":{\"p\":{\"type\":\"array\"}},\"required\":[\"p\"],\"type\":\"object\"}}]\n",
            "{tuple}"
        );
    }
}

/// The catalog of `tests/catalogs/probe/NAME.json` (generated by the scripts there).
fn probe(name: &str) -> RuntimeCatalog {
    let path = format!(
        "{}/tests/catalogs/probe/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(&path).unwrap_or_else(|err| panic!("{path}: {err}"));
    RuntimeCatalog::from_bytes(&bytes).unwrap_or_else(|err| panic!("{path}: {err}"))
}

/// The same cases on the catalogs the probe's models make with the real generators
/// (`tests/catalogs/probe/README.md`): the tools as pydantic and zod write them, whole.
#[test]
fn the_probes_catalogs_answer_each_case_as_fixed() {
    let pydantic = probe("pydantic");
    let zod = probe("zod");
    let zod_input = probe("zod-input");
    let cases: [(&RuntimeCatalog, &str, &str, &str, &str, &str); 10] = [
        (&pydantic, "py_create_tree", r#"{"root":{"name":"d","is_dir":true,"size_bytes":9007199254740993}}"#,
         "argument_out_of_range", "argument \\\"root/size_bytes\\\" must be an integer from -9007199254740991 to 9007199254740991, found the number 9007199254740993", "/root/size_bytes"),
        (&pydantic, "py_http_request", r#"{"method":"GET","url":"https://x.org","body":{"a":1e400}}"#,
         "argument_out_of_range", "argument \\\"body/a\\\" must be a number that fits a 64-bit float, found the number 1e400", "/body/a"),
        (&pydantic, "py_search_web", r#"{"query":"x","freshness_days":0}"#,
         "argument_out_of_range", "argument \\\"freshness_days\\\" must be more than 0 and less than 3650, found the number 0", "/freshness_days"),
        (&pydantic, "py_create_calendar_event", r#"{"title":"x","start":"2025-03-10T09:00:00Z","end":"2025-03-10T10:00:00Z","recurrence":{"freq":"daily","until":"2025-13-01"}}"#,
         "argument_not_matching", "argument \\\"recurrence/until\\\" must be an RFC 3339 full-date such as 2024-05-01, found the string \\\"2025-13-01\\\"", "/recurrence/until"),
        (&pydantic, "py_edit_file", r#"{"path":"a","edits":[{"old_text":"a","new_text":"b","zz":1}]}"#,
         "unknown_argument", "unknown argument \\\"edits/0/zz\\\"; this object takes no other members", "/edits/0/zz"),
        (&pydantic, "py_create_tree", r#"{"root":{"name":"","is_dir":true}}"#,
         "argument_out_of_range", "argument \\\"root/name\\\" must be at least 1 character long, found 0", "/root/name"),
        (&pydantic, "py_query_db", r#"{"sql":"x","sort":["a","asc","extra"]}"#,
         "argument_out_of_range", "argument \\\"sort\\\" must have at most 2 items, found 3", "/sort"),
        (&zod, "zod_query_db", r#"{"sql":"x","sort":["a","asc","extra"]}"#,
         "argument_out_of_range", "argument \\\"sort\\\" must have at most 2 items, found 3", "/sort"),
        (
            &zod,
            "zod_place_order",
            r#"{"customer_email":"a@b.co","shipping":{"street":"1","city":"x","postal_code":"12345","zz":1},"items":[{"sku":"A","qty":1,"unit_price":1}]}"#,
            "unknown_argument",
            "unknown argument \\\"shipping/zz\\\"; this object takes no other members",
            "/shipping/zz",
        ),
        (&zod_input, "zod_create_tree", r#"{"root":{"name":"d","is_dir":true,"size_bytes":-1e400}}"#,
         "argument_out_of_range", "argument \\\"root/size_bytes\\\" must be a number that fits a 64-bit float, found the number -1e400", "/root/size_bytes"),
    ];
    for (catalog, tool, arguments, code, message, path) in cases {
        assert_eq!(
            problem_of(catalog, tool, arguments),
            (code.to_string(), message.to_string(), path.to_string()),
            "{tool} {arguments}"
        );
    }
    let mut out = Vec::new();
    zod.respond(
        br#"{"op":"tool_schema","tool":"zod_plot_route","format":"gemini"}"#,
        &mut out,
    )
    .expect("declared");
    let declaration = String::from_utf8(out).expect("UTF-8");
    assert!(
        declaration.contains(r#""extra_point":{"minItems":2,"type":"array"}"#),
        "{declaration}"
    );
}

/// zod's record of an enum's keys (`z.record(z.enum(["x","y"]), z.string())`) requires every
/// key, which `properties` does not declare: an open object's `required` may name members it
/// takes through `additionalProperties`. The catalog reader refused it; it is read, required
/// by check_call, and declared as given, but for Gemini (which refuses a `required` name
/// missing from `properties`) and the strict modes (which close every object).
#[test]
fn a_required_member_may_be_one_properties_does_not_declare() {
    let record = r#"{"type":"object","propertyNames":{"enum":["y","x"]},"additionalProperties":{"type":"string"},"required":["y","x"]}"#;
    let record_catalog = catalog(&format!(
        r#"{{"type":"object","properties":{{"v":{record}}},"required":["v"]}}"#
    ));
    assert_eq!(
        check(&record_catalog, r#"{"v":{"y":"2","x":"1"}}"#),
        r#"{"arguments":{"v":{"x":"1","y":"2"}},"name":"t","ok":true}"#
    );
    expect(
        &record_catalog,
        r#"{"v":{"y":"2"}}"#,
        "missing_argument",
        "missing required argument \\\"v/x\\\"",
        "/v/x",
    );
    expect(
        &record_catalog,
        r#"{"v":{"x":"1","y":2}}"#,
        "wrong_argument_type",
        "argument \\\"v/y\\\" must be a string, found the number 2",
        "/v/y",
    );
    let declare = |format: &str, strict: bool| {
        let request =
            format!(r#"{{"op":"tool_schema","tool":"t","format":"{format}","strict":{strict}}}"#);
        let mut out = Vec::new();
        match record_catalog.respond(request.as_bytes(), &mut out) {
            Ok(()) => String::from_utf8(out).expect("UTF-8"),
            Err(err) => err.to_string(),
        }
    };
    for format in ["openai", "anthropic", "mcp"] {
        let declaration = declare(format, false);
        assert!(
            declaration.contains(r#""required":["x","y"],"type":"object"}"#),
            "{format}: {declaration}"
        );
    }
    assert!(declare("gemini", false).contains(r#""v":{"type":"object"}"#));
    // A strict mode refuses the record for being open; an object that gives no
    // `additionalProperties` it would close, and the member with it.
    let free_form = catalog(
        r#"{"type":"object","properties":{"v":{"type":"object","required":["x"]}},"required":["v"]}"#,
    );
    assert_eq!(
        check(&free_form, r#"{"v":{"x":[1]}}"#),
        r#"{"arguments":{"v":{"x":[1]}},"name":"t","ok":true}"#
    );
    for format in ["openai", "anthropic"] {
        let request =
            format!(r#"{{"op":"tool_schema","tool":"t","format":"{format}","strict":true}}"#);
        let refusal = free_form
            .respond(request.as_bytes(), &mut Vec::new())
            .expect_err("refused")
            .to_string();
        assert!(
            refusal.contains("the required member \"x\", which properties does not declare"),
            "{format}: {refusal}"
        );
    }
    // Where the object takes no other members, no call could give one: the catalog is refused.
    for closed in [
        r#"{"type":"object","properties":{"a":{}},"required":["x"]}"#,
        r#"{"type":"object","additionalProperties":false,"required":["x"]}"#,
    ] {
        let file = format!(
            r#"[{{"name":"t","description":"d","inputSchema":{{"type":"object","properties":{{"v":{closed}}}}}}}]"#
        );
        let refusal = RuntimeCatalog::from_bytes(file.as_bytes())
            .err()
            .unwrap_or_else(|| panic!("{closed} was read"))
            .to_string();
        assert!(
            refusal.contains(
                "/inputSchema/properties/v/required/0: \"x\" is not a property of this object, \
                 which takes no other members"
            ),
            "{refusal}"
        );
    }
    // The same, on the schema zod writes (`zod_set_limits` in tests/catalogs/probe).
    let zod = probe("zod");
    assert_eq!(
        check_tool(
            &zod,
            "zod_set_limits",
            r#"{"limits":{"memory":"1G","cpu":"2"}}"#
        ),
        r#"{"arguments":{"limits":{"cpu":"2","memory":"1G"}},"name":"zod_set_limits","ok":true}"#
    );
    assert_eq!(
        problem_of(
            &zod,
            "zod_set_limits",
            r#"{"limits":{"cpu":"2"},"labels":{"team":"a"}}"#
        ),
        (
            "missing_argument".to_string(),
            "missing required argument \\\"limits/memory\\\"".to_string(),
            "/limits/memory".to_string()
        )
    );
}

/// pydantic's `IntEnum` and `Literal[1, 2]`, and zod's `z.literal(2)`, are an `enum` (or a
/// `const`) of numbers, which Gemini's API refuses ("enum: only allowed for STRING type"): its
/// declaration leaves them out, and check_call still applies them. An `enum` of strings on a
/// node without a type is typed string, its `null` written as `nullable`.
#[test]
fn gemini_declares_an_enum_only_of_strings() {
    let catalog = catalog(
        r#"{"type":"object","properties":{"level":{"type":"integer","enum":[0,1]},"two":{"const":2},"kind":{"enum":["a","b",null]},"mode":{"type":"string","enum":["x"]}},"required":["level"]}"#,
    );
    assert_eq!(
        declaration(&catalog, "gemini"),
        "{\"description\":\"d\",\"name\":\"t\",\"parameters\":{\"properties\":{\"kind\":{\"enum\":[\"a\",\"b\"],\"nullable\":true,\"type\":\"string\"},\"level\":{\"type\":\"integer\"},\"mode\":{\"enum\":[\"x\"],\"type\":\"string\"},\"two\":{}},\"required\":[\"level\"],\"type\":\"object\"}}\n"
    );
    expect(
        &catalog,
        r#"{"level":2}"#,
        "argument_not_in_enum",
        "argument \\\"level\\\" must be one of 0, 1, found the number 2",
        "/level",
    );
    assert!(declaration(&catalog, "mcp").contains(r#""level":{"enum":[0,1],"type":"integer"}"#));
}

/// The `tool_schema` answer for `t` in `format`.
fn declaration(catalog: &RuntimeCatalog, format: &str) -> String {
    let request = format!(r#"{{"op":"tool_schema","tool":"t","format":"{format}"}}"#);
    let mut out = Vec::new();
    catalog
        .respond(request.as_bytes(), &mut out)
        .expect("declared");
    String::from_utf8(out).expect("UTF-8")
}
