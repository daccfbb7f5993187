//! The check_call targets' generator and reference, shared by `check_call` (the compiled-in
//! catalog) and `check_call_runtime` (every test catalog, read at run time).
//!
//! `check_call`'s verdict against the `jsonschema` crate's, on arguments generated from the
//! catalog's own schemas, for every tool and every format and strict setting.
//!
//! The input's bytes drive a generator that walks a tool's schema (as the crate itself declares
//! it for MCP, which keeps every keyword of the catalog) and builds arguments that are mostly
//! right and sometimes wrong in the ways models are: a wrong type, a number for a string, a
//! bound missed by one, a value outside the enum, an unknown key, a required key left out, a
//! `null`, a fraction for an integer, JSON cut short, `""`, arguments encoded twice. It covers
//! every keyword of the framework catalogs (issue 16): it picks a branch of `anyOf`, `oneOf` or
//! `allOf`, follows `$ref` into `$defs` or `definitions` (recursion bounded by the input's
//! length and a node budget), gives the `const` or an `enum` value (of any JSON type) or
//! something else, picks one type of a type list, `null` under OpenAPI's `nullable`, builds
//! maps for `additionalProperties` schemas with keys made from `propertyNames`' pattern (or
//! random ones), tuples for `prefixItems` and draft-07's `items` lists with `additionalItems`,
//! repeats an element under `uniqueItems`, writes strings for each asserted `format` from lists
//! of valid and invalid samples, strings that match a `pattern` (read by a small generator for
//! the ECMA-262 subset the catalogs use) or miss it by a character, and numbers at, inside and
//! just outside `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, on and off
//! `multipleOf` (made in decimal, so `0.03` is not `3 * 0.01`'s binary neighbour). The call is
//! wrapped in the format's envelope, and:
//!
//! - the verdict (`ok`) must equal the reference's: serde_json parses the arguments and
//!   jsonschema (draft 2020-12, `format` asserted) validates them against the tool's schema
//!   with the project's policy applied (see [`policy`]): an object that declares `properties`
//!   and says nothing of `additionalProperties` is closed, and so is the root; a nested object
//!   without `properties` stays free-form; under OpenAI strict every optional property's schema
//!   becomes `{"anyOf":[<schema>,{"type":"null"}]}`; OpenAPI's `nullable: true` adds `null` to
//!   the node's `type` (OpenAPI 3.0.3's words: other keywords, such as an `enum` without
//!   `null`, still apply); a draft-07 tuple (`items` list, `additionalItems`) is rewritten as
//!   `prefixItems` and `items`, and `$schema` is dropped, since check_call reads every catalog
//!   by 2020-12's rules (and asserts `uuid` and `duration`, which jsonschema's draft-07 mode
//!   ignores); `$defs` and `definitions` stay where they are, and `$ref`s find them by pointer;
//! - a valid call's `arguments` must be the parsed arguments written in RFC 8785 form by an
//!   independent writer here (keys sorted by UTF-16 code units, serde_json's string escapes,
//!   ECMAScript numbers from `ryu-js`), leaving out the `null` of an optional property only
//!   under OpenAI strict and only where that property's own schema does not admit `null`. The
//!   property is found as the crate documents it: an object node's own `properties`, else where
//!   its `$ref` leads, else the first branch of its `anyOf` (or `oneOf`) that the value fits,
//!   each fit judged by jsonschema's validator for that subschema. Checking the call again with
//!   those bytes as its arguments must give the same answer, byte for byte;
//! - an invalid call has 1 to 16 errors with known codes, whole JSON Pointer paths (one found
//!   in the parsed arguments, or for a missing argument its object's) and one-line messages
//!   that are not empty, and a reply whose text is those messages, one a line. A tool beyond
//!   the flat subset reports only its deepest failure: one error, which is no difference in the
//!   verdict.
//!
//! Known differences, where the comparison is skipped or the generator stays away, and why
//! (each documented in `docs/fuzzing.md`):
//!
//! - an integer-valued number beyond ±(2^53−1) where check_call refuses the call (it refuses
//!   one where the schema wants an integer, as out of range; jsonschema accepts it). Where
//!   check_call accepts such a number (a flat tool never does; elsewhere, where the schema takes
//!   any number), the verdicts are compared;
//! - anything serde_json cannot parse but the checker can, which the generator never writes (a
//!   number beyond f64, which check_call refuses). Keys given twice and unpaired surrogates are
//!   not generated: serde_json keeps the last of a duplicate, and refuses surrogates as
//!   check_call does;
//! - `format` samples on which the two sides differ by design: arguments holding one are not
//!   compared, and each is named, with why, at [`KNOWN_DIFFERENT`].
#![allow(dead_code)]

use serde_json::{json, Map, Value};
use tool_schema::{Error, Format, Shape};

const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// Each tool's schema as the crate declares it for MCP, and the reference for it: the schema
/// with the policy applied, without and with nullable optional properties.
struct Reference {
    schema: Value,
    flat: bool,
    plain: Variant,
    nullable: Variant,
}

/// A schema with the policy applied, and jsonschema's validator for it and for each of its
/// subschemas (by `#`-pointer), for the canonical writer's choice of union branch.
struct Variant {
    schema: Value,
    validators: jsonschema::ValidatorMap,
}

impl Variant {
    fn new(name: &Value, schema: Value) -> Variant {
        let validators = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .should_validate_formats(true)
            .build_map(&schema)
            .unwrap_or_else(|err| panic!("reference schema for {name}: {err}"));
        Variant { schema, validators }
    }

    /// jsonschema's verdict on `value` against the subschema at `pointer` (`""` the root).
    fn fits(&self, pointer: &str, value: &Value) -> bool {
        let key = format!("#{pointer}");
        self.validators
            .get(&key)
            .unwrap_or_else(|| panic!("no validator for {key}"))
            .is_valid(value)
    }
}

/// How a request over the catalog is answered.
pub type Answer = Box<dyn Fn(&[u8], &mut Vec<u8>) -> Result<(), Error> + Send + Sync>;

/// What is checked: a catalog's tools, each with its reference, and how a request over that
/// catalog is answered (the compiled-in catalog's `respond`, or a `RuntimeCatalog`'s).
pub struct Subject {
    pub name: String,
    names: Vec<String>,
    references: Vec<Reference>,
    respond: Answer,
}

impl Subject {
    /// The tools of the catalog that `respond` answers over, as its `mcp` list declares them;
    /// `flat` says which of them the flat checker reads, where that is known.
    pub fn new(name: &str, flat: &dyn Fn(usize) -> bool, respond: Answer) -> Subject {
        let mut out = Vec::new();
        respond(br#"{"op":"tool_list","format":"mcp"}"#, &mut out).unwrap();
        let tools: Value = serde_json::from_slice(&out).unwrap();
        let mut names = Vec::new();
        let references = tools
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .map(|(i, tool)| {
                names.push(tool["name"].as_str().unwrap().to_string());
                let schema = tool["inputSchema"].clone();
                Reference {
                    plain: Variant::new(&tool["name"], policy(&schema, false, true)),
                    nullable: Variant::new(&tool["name"], policy(&schema, true, true)),
                    flat: flat(i),
                    schema,
                }
            })
            .collect();
        Subject {
            name: name.to_string(),
            names,
            references,
            respond,
        }
    }
}

/// The project's policy, written as plain JSON Schema 2020-12 for jsonschema: an object that
/// declares `properties` and says nothing of `additionalProperties` is closed, and so is the
/// root (`root`) even without properties; an object without `properties` is left as given;
/// when `nullable`, every optional property may be `null`, whatever its schema
/// (`{"anyOf":[<schema>,{"type":"null"}]}`, right for unions and `$ref`s too); OpenAPI's
/// `nullable: true` adds `null` to `type`; a draft-07 tuple becomes `prefixItems`; `$schema`
/// goes (the validator is told 2020-12). `$defs` and `definitions` keep their places, so every
/// `$ref` pointer still finds its target.
fn policy(schema: &Value, nullable: bool, root: bool) -> Value {
    let Value::Object(given) = schema else {
        return schema.clone(); // `true` or `false`
    };
    let each = |list: &Value| match list {
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|item| policy(item, nullable, false))
                .collect(),
        ),
        other => other.clone(),
    };
    let required: Vec<&str> = given
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut node = Map::new();
    for (key, value) in given {
        let value = match key.as_str() {
            "$schema" | "nullable" => continue,
            "properties" => {
                let mut properties = Map::new();
                for (name, property) in value.as_object().into_iter().flatten() {
                    let mut property = policy(property, nullable, false);
                    if nullable && !required.contains(&name.as_str()) {
                        property = json!({"anyOf": [property, {"type": "null"}]});
                    }
                    properties.insert(name.clone(), property);
                }
                Value::Object(properties)
            }
            "$defs" | "definitions" => Value::Object(
                value
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|(name, def)| (name.clone(), policy(def, nullable, false)))
                    .collect(),
            ),
            "additionalProperties" | "propertyNames" | "additionalItems" | "not" => {
                policy(value, nullable, false)
            }
            "items" if value.is_array() => each(value),
            "items" => policy(value, nullable, false),
            "prefixItems" | "anyOf" | "oneOf" | "allOf" => each(value),
            _ => value.clone(),
        };
        node.insert(key.clone(), value);
    }
    // Draft-07's tuple, in 2020-12's words.
    if node.get("items").is_some_and(Value::is_array) {
        let list = node.remove("items").unwrap();
        node.insert("prefixItems".into(), list);
        if let Some(rest) = node.remove("additionalItems") {
            node.insert("items".into(), rest);
        }
    }
    // OpenAPI 3.0's `nullable`: `null` joins the types the node gives.
    if given.get("nullable") == Some(&Value::Bool(true)) {
        match node.get_mut("type") {
            Some(Value::String(ty)) => {
                let ty = ty.clone();
                node.insert("type".into(), json!([ty, "null"]));
            }
            Some(Value::Array(types)) if !types.contains(&json!("null")) => {
                types.push(json!("null"));
            }
            _ => {}
        }
    }
    // OpenAPI's `discriminator`, read as pydantic reads it (and check_call with it): an object
    // must carry the discriminating property, and not as `null` (pydantic refuses a missing tag
    // with `union_tag_not_found`; OpenAPI 3.2's `defaultMapping` is its only way to leave it
    // out, https://spec.openapis.org/oas/v3.2.0.html#discriminator-object).
    let discriminating = given
        .get("discriminator")
        .and_then(|discriminator| discriminator["propertyName"].as_str());
    if let Some(name) = discriminating {
        let mut required = node
            .get("required")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        if !required.contains(&json!(name)) {
            required.push(json!(name));
        }
        node.insert("required".into(), Value::Array(required));
        let not_null = json!({"properties": {name: {"not": {"type": "null"}}}});
        if let Value::Object(schemas) = node.entry("dependentSchemas").or_insert(json!({})) {
            let given = schemas.remove(name).unwrap_or(json!(true));
            schemas.insert(name.into(), json!({"allOf": [given, not_null]}));
        }
    }
    if !node.contains_key("additionalProperties") && (node.contains_key("properties") || root) {
        node.insert("additionalProperties".into(), Value::Bool(false));
    }
    Value::Object(node)
}

/// The fuzzer's bytes, read as choices; zeros once they run out.
struct Choices<'a> {
    bytes: &'a [u8],
    at: usize,
    /// Values left to generate: bounds a recursive schema's arguments.
    budget: usize,
}

impl Choices<'_> {
    fn byte(&mut self) -> u8 {
        let byte = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        byte
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            usize::from(self.byte()) % n
        }
    }

    /// True once in `n` times.
    fn one_in(&mut self, n: u8) -> bool {
        self.byte().is_multiple_of(n)
    }

    fn pick<'v, T>(&mut self, values: &'v [T]) -> &'v T {
        &values[self.below(values.len())]
    }
}

/// The number literals beyond a 64-bit float that a model may write, which serde_json cannot
/// hold: the generator puts a marker string in their place (`huge`), and [`with_huge_numbers`]
/// writes them into the request's text.
const HUGE: [&str; 4] = [
    "1e400",
    "-1e999",
    "1E+309",
    "123456789012345678901234567890e300",
];

/// The marker of `HUGE[i]`.
fn huge_marker(i: usize) -> String {
    format!("\u{1}\u{2}HUGE{i}\u{2}\u{1}")
}

fn huge(choices: &mut Choices<'_>) -> Value {
    Value::String(huge_marker(choices.below(HUGE.len())))
}

/// `request` with each marker of [`huge`] replaced by its number literal, whether the
/// arguments travel in place or as JSON text inside a string; and whether any was.
fn with_huge_numbers(request: Vec<u8>) -> (Vec<u8>, bool) {
    let mut text = String::from_utf8(request).unwrap();
    let before = text.len();
    let mut replaced = false;
    for (i, literal) in HUGE.iter().enumerate() {
        let marker = serde_json::to_string(&huge_marker(i)).unwrap();
        let quoted = serde_json::to_string(&marker).unwrap();
        let inner = &quoted[1..quoted.len() - 1];
        for pattern in [inner, marker.as_str()] {
            if text.contains(pattern) {
                text = text.replace(pattern, literal);
                replaced = true;
            }
        }
    }
    debug_assert!(replaced || text.len() == before);
    (text.into_bytes(), replaced)
}

/// A value nested `levels` deep: arrays and objects in turn, around a number.
fn deep(choices: &mut Choices<'_>, levels: usize) -> Value {
    let mut value = if choices.one_in(3) {
        huge(choices)
    } else {
        json!(1)
    };
    for level in 0..levels {
        value = if level % 2 == 0 {
            json!([value])
        } else {
            json!({ "k": value })
        };
    }
    value
}

/// Something of another type, for a model that got the type wrong; sometimes a number beyond
/// a float, or a value nested deep.
fn stray(choices: &mut Choices<'_>) -> Value {
    if choices.one_in(12) {
        return huge(choices);
    }
    if choices.one_in(24) {
        let levels = 1 + choices.below(40);
        return deep(choices, levels);
    }
    match choices.below(10) {
        0 => Value::Null,
        1 => json!(true),
        2 => json!(7),
        3 => json!(2.5),
        4 => json!("5"),
        5 => json!([]),
        6 => json!({}),
        7 => json!("{\"a\":1}"),
        8 => json!(-0.0),
        _ => json!([1, "x"]),
    }
}

const POOL: [&str; 14] = [
    "a", "é", "😀", "\"", "\\", "\n", "\u{1}", "/", "~", " ", "\u{7f}", "z", "0", "\u{2028}",
];

fn string(choices: &mut Choices<'_>, len: usize) -> String {
    (0..len).map(|_| *choices.pick(&POOL)).collect()
}

/// Samples of each asserted format, to be picked from: how many of the first are valid (by
/// the format's RFC), then valid and invalid ones.
const FORMAT_SAMPLES: [(&str, usize, &[&str]); 10] = [
    (
        "date-time",
        5,
        &[
            "2024-01-15T10:30:00Z",
            "2024-01-15T10:30:00.123+02:00",
            "1990-12-31T23:59:60Z",
            "1990-12-31T15:59:60-08:00",
            "2024-02-29T00:00:00z",
            "2024-01-15t10:30:00Z",
            "2024-01-15 10:30:00Z",
            "2024-01-15T10:30:00",
            "2023-02-29T00:00:00Z",
            "2024-13-01T00:00:00Z",
            "2024-01-15T24:00:00Z",
            "2024-01-15T10:30:60Z",
            "2024-01-15T10:30:00+24:00",
            "2024-01-15T10:30:00.Z",
            "１９９０-12-31T23:59:59Z",
        ],
    ),
    (
        "date",
        3,
        &[
            "2024-01-15",
            "2024-02-29",
            "2000-02-29",
            "1900-02-29",
            "2023-02-29",
            "2024-1-5",
            "2024-01-15T00:00:00Z",
            "0000-01-01",
            "2024-12-32",
            "2024-04-31",
            "20240115",
            "2024-01-15\n",
        ],
    ),
    (
        "time",
        5,
        &[
            "10:30:00Z",
            "23:59:60Z",
            "10:30:00+01:00",
            "09:00:00.5Z",
            "22:59:60-01:00",
            "10:30:00",
            "25:00:00Z",
            "10:30Z",
            "10:30:00+1:00",
            "12:00:60Z",
            "08:30:06 PST",
            "01:02:03,5Z",
        ],
    ),
    (
        "duration",
        6,
        &[
            "PT30M",
            "P1D",
            "P1Y2M3DT4H5M6S",
            "P4W",
            "PT36H",
            "P0D",
            "PT",
            "P",
            "PT1.5S",
            "P1W2D",
            "1D",
            "pt30m",
            "p1d",
            "P1DT",
            "P2D1Y",
            "PT1M2H",
        ],
    ),
    (
        "email",
        6,
        &[
            "a@b.co",
            "joe.bloggs@example.com",
            "\"joe bloggs\"@example.com",
            "te~st@example.com",
            "a@[127.0.0.1]",
            "a@[IPv6:::1]",
            "a..b@example.com",
            ".a@example.com",
            "a.@example.com",
            "a@",
            "@b.com",
            "a b@example.com",
            "2962",
            "té@example.com",
            "a@-b.com",
        ],
    ),
    (
        "hostname",
        4,
        &[
            "example.com",
            "a-b.c",
            "xn--nxasmq6b.com",
            "localhost",
            "-a.com",
            "a-.com",
            "a..com",
            "a_b.com",
            "",
            "exa mple.com",
        ],
    ),
    (
        "ipv4",
        3,
        &[
            "192.168.0.1",
            "0.0.0.0",
            "255.255.255.255",
            "256.1.1.1",
            "01.2.3.4",
            "1.2.3",
            "1.2.3.4.5",
            "1.2.3.4 ",
            "١.2.3.4",
            "0x7f.0.0.1",
        ],
    ),
    (
        "ipv6",
        5,
        &[
            "::1",
            "::",
            "2001:db8::1",
            "1:2:3:4:5:6:7:8",
            "::ffff:192.168.0.1",
            "1:2:3:4:5:6:7:8:9",
            "1::2::3",
            "fe80::1%eth0",
            "12345::",
            ":1:2:3:4:5:6:7",
            "::ffff:256.1.1.1",
            "1:2:3:4:5:6:7::",
            "::1 ",
        ],
    ),
    (
        "uri",
        6,
        &[
            "https://example.com/a?b#c",
            "mailto:a@b.co",
            "urn:isbn:0451450523",
            "http://[::1]:80/",
            "ftp://x/%20",
            "a:b",
            "/relative",
            "example.com",
            "http://exa mple.com",
            "https://example.com/ä",
            "http://a%zz.com",
            "",
            "1http://x",
            "http://x/\\",
        ],
    ),
    (
        "uuid",
        5,
        &[
            "123e4567-e89b-12d3-a456-426614174000",
            "00000000-0000-0000-0000-000000000000",
            "ffffffff-ffff-ffff-ffff-ffffffffffff",
            "123E4567-E89B-12D3-A456-426614174000",
            "123e4567-e89b-92d3-a456-426614174000",
            "123e4567e89b12d3a456426614174000",
            "123e4567-e89b-12d3-a456-42661417400",
            "g23e4567-e89b-12d3-a456-426614174000",
            "{123e4567-e89b-12d3-a456-426614174000}",
            "123e4567-e89b-12d3-a456_426614174000",
        ],
    ),
];

/// Format samples on which check_call and jsonschema differ by design, and the comparison is
/// skipped for arguments holding one (the answer's other checks still apply):
///
/// - a duration in lower case: ABNF's quoted letters match either case (RFC 5234 2.3), so
///   check_call takes `pt30m` as `PT30M`, as it takes `t` and `z` in a date-time; jsonschema
///   takes lower case in a date-time but not in a duration.
///
/// And any string with a host label that has `--` in its third and fourth places and does not
/// start `xn--` (an R-LDH label, RFC 5890 2.3.1, such as the domain of `1@a.HM--w.hT`, which
/// zod's email pattern allows): check_call's `hostname` and `email` take it by RFC 1123's
/// letters, digits and inner hyphens, and check only `xn--` labels as A-labels; jsonschema
/// refuses every R-LDH label that is not an A-label.
const KNOWN_DIFFERENT: [&str; 2] = ["pt30m", "p1d"];

/// Whether `text` has a label (between dots, after an `@`) with `--` in its third and fourth
/// places that is not `xn--`.
fn reserved_label(text: &str) -> bool {
    text.split(['.', '@']).any(|label| {
        let label = label.as_bytes();
        label.len() >= 4 && &label[2..4] == b"--" && !label[..2].eq_ignore_ascii_case(b"xn")
    })
}

/// Whether `value` holds one of [`KNOWN_DIFFERENT`], or a [`reserved_label`].
fn known_different(value: &Value) -> bool {
    match value {
        Value::String(text) => KNOWN_DIFFERENT.contains(&text.as_str()) || reserved_label(text),
        Value::Array(items) => items.iter().any(known_different),
        Value::Object(members) => members.values().any(known_different),
        _ => false,
    }
}

/// A string for a string node: a format sample, a match of the pattern, or characters near the
/// length bounds.
fn string_value(choices: &mut Choices<'_>, node: &Map<String, Value>) -> Value {
    if let Some(format) = node.get("format").and_then(Value::as_str) {
        let samples = FORMAT_SAMPLES.iter().find(|(name, ..)| *name == format);
        if let Some(&(_, valid, samples)) = samples {
            if !choices.one_in(3) {
                let samples = if choices.one_in(2) {
                    &samples[..valid]
                } else {
                    samples
                };
                return json!(*choices.pick(samples));
            }
        }
    }
    if let Some(pattern) = node.get("pattern").and_then(Value::as_str) {
        if !choices.one_in(4) {
            if let Some(text) = matching(choices, pattern) {
                return json!(text);
            }
        }
    }
    let min = node.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
    let max = node
        .get("maxLength")
        .and_then(Value::as_u64)
        .map(|max| max as usize);
    let len = match choices.below(6) {
        0 => min.saturating_sub(1),
        1 => min,
        2 => max.unwrap_or(3),
        3 => max.map_or(5, |max| max + 1),
        _ => choices.below(6),
    };
    if len > 40 {
        // A long bound: plain letters, so the request stays small.
        return json!("a".repeat(len.min(5000)));
    }
    Value::String(string(choices, len))
}

/// A regular expression of the ECMA-262 subset the catalogs' patterns use, read to generate
/// strings from it.
enum Regex {
    Seq(Vec<Regex>),
    Alt(Vec<Regex>),
    Char(char),
    /// Ranges, and whether the class is negated.
    Class(Vec<(char, char)>, bool),
    Any,
    Repeat(Box<Regex>, usize, usize),
}

struct Parser<'p> {
    chars: Vec<char>,
    at: usize,
    _pattern: &'p str,
}

const DIGIT: [(char, char); 1] = [('0', '9')];
const WORD: [(char, char); 4] = [('a', 'z'), ('A', 'Z'), ('0', '9'), ('_', '_')];
const SPACE: [(char, char); 3] = [(' ', ' '), ('\t', '\r'), ('\u{a0}', '\u{a0}')];

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += 1;
        Some(c)
    }

    fn alternation(&mut self) -> Option<Regex> {
        let mut branches = vec![self.sequence()?];
        while self.peek() == Some('|') {
            self.at += 1;
            branches.push(self.sequence()?);
        }
        Some(if branches.len() == 1 {
            branches.pop().unwrap()
        } else {
            Regex::Alt(branches)
        })
    }

    fn sequence(&mut self) -> Option<Regex> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            let atom = self.quantified(atom)?;
            items.push(atom);
        }
        Some(Regex::Seq(items))
    }

    fn atom(&mut self) -> Option<Regex> {
        Some(match self.next()? {
            '^' | '$' => Regex::Seq(Vec::new()),
            '.' => Regex::Any,
            '(' => {
                if self.peek() == Some('?') {
                    self.at += 1;
                    if self.next()? != ':' {
                        return None; // lookaround, named groups
                    }
                }
                let inner = self.alternation()?;
                (self.next()? == ')').then_some(())?;
                inner
            }
            '[' => self.class()?,
            '\\' => self.escape()?,
            c => Regex::Char(c),
        })
    }

    fn escape(&mut self) -> Option<Regex> {
        Some(match self.next()? {
            'd' => Regex::Class(DIGIT.to_vec(), false),
            'D' => Regex::Class(DIGIT.to_vec(), true),
            'w' => Regex::Class(WORD.to_vec(), false),
            'W' => Regex::Class(WORD.to_vec(), true),
            's' => Regex::Class(SPACE.to_vec(), false),
            'S' => Regex::Class(SPACE.to_vec(), true),
            'n' => Regex::Char('\n'),
            't' => Regex::Char('\t'),
            'r' => Regex::Char('\r'),
            c if c.is_ascii_alphanumeric() => return None, // \b, \u, backreferences
            c => Regex::Char(c),
        })
    }

    fn class(&mut self) -> Option<Regex> {
        let negated = self.peek() == Some('^');
        if negated {
            self.at += 1;
        }
        let mut ranges = Vec::new();
        loop {
            let c = self.next()?;
            let low = match c {
                ']' => break,
                '\\' => match self.next()? {
                    'd' => {
                        ranges.extend(DIGIT);
                        continue;
                    }
                    'w' => {
                        ranges.extend(WORD);
                        continue;
                    }
                    's' => {
                        ranges.extend(SPACE);
                        continue;
                    }
                    'n' => '\n',
                    't' => '\t',
                    c if c.is_ascii_alphanumeric() => return None,
                    c => c,
                },
                c => c,
            };
            if self.peek() == Some('-') && self.chars.get(self.at + 1) != Some(&']') {
                self.at += 1;
                let high = match self.next()? {
                    '\\' => self.next()?,
                    c => c,
                };
                ranges.push((low, high));
            } else {
                ranges.push((low, low));
            }
        }
        Some(Regex::Class(ranges, negated))
    }

    fn quantified(&mut self, atom: Regex) -> Option<Regex> {
        let (min, max) = match self.peek() {
            Some('?') => (0, 1),
            Some('*') => (0, usize::MAX),
            Some('+') => (1, usize::MAX),
            Some('{') => {
                let close = self.chars[self.at..].iter().position(|&c| c == '}')? + self.at;
                let inside: String = self.chars[self.at + 1..close].iter().collect();
                let (min, max) = match inside.split_once(',') {
                    Some((min, "")) => (min.parse().ok()?, usize::MAX),
                    Some((min, max)) => (min.parse().ok()?, max.parse().ok()?),
                    None => (inside.parse().ok()?, inside.parse().ok()?),
                };
                self.at = close;
                (min, max)
            }
            _ => return Some(atom),
        };
        self.at += 1;
        if self.peek() == Some('?') {
            self.at += 1; // lazy: the same strings
        }
        Some(Regex::Repeat(Box::new(atom), min, max))
    }
}

/// A string that matches `pattern` (mostly: a repetition is sometimes one short or one long, a
/// class sometimes gives a character outside it), or `None` for a pattern beyond the subset.
fn matching(choices: &mut Choices<'_>, pattern: &str) -> Option<String> {
    let mut parser = Parser {
        chars: pattern.chars().collect(),
        at: 0,
        _pattern: pattern,
    };
    let regex = parser.alternation()?;
    if parser.at != parser.chars.len() {
        return None;
    }
    let mut out = String::new();
    emit(choices, &regex, &mut out);
    // Unanchored patterns match anywhere: sometimes say so.
    if choices.one_in(16) {
        out.push_str(string(choices, 1).as_str());
    }
    Some(out)
}

fn emit(choices: &mut Choices<'_>, regex: &Regex, out: &mut String) {
    if out.len() > 400 {
        return;
    }
    match regex {
        Regex::Seq(items) => items.iter().for_each(|item| emit(choices, item, out)),
        Regex::Alt(branches) => {
            let branch = &branches[choices.below(branches.len())];
            emit(choices, branch, out);
        }
        Regex::Char(c) => out.push(*c),
        Regex::Any => out.push_str(choices.pick(&POOL[..5])),
        Regex::Class(ranges, negated) => {
            let inside = |c: char| ranges.iter().any(|&(low, high)| low <= c && c <= high);
            let wrong = choices.one_in(24);
            if *negated != wrong {
                let outside: Vec<char> = POOL
                    .iter()
                    .flat_map(|s| s.chars())
                    .chain(['A', '-', '#', '5'])
                    .filter(|&c| !inside(c))
                    .collect();
                if !outside.is_empty() {
                    out.push(*choices.pick(&outside));
                }
            } else if !ranges.is_empty() {
                let (low, high) = *choices.pick(ranges);
                let span = (high as u32).saturating_sub(low as u32) as usize + 1;
                let c = char::from_u32(low as u32 + choices.below(span.min(256)) as u32);
                out.push(c.unwrap_or(low));
            }
        }
        Regex::Repeat(atom, min, max) => {
            let top = (*max).min(min + 3);
            let mut count = min + choices.below(top - min + 1);
            if choices.one_in(24) {
                count = if choices.one_in(2) {
                    min.saturating_sub(1)
                } else {
                    max.saturating_add(1).min(min + 5)
                };
            }
            for _ in 0..count.min(90) {
                emit(choices, atom, out);
            }
        }
    }
}

/// A number's decimal digits and exponent, from its JSON text (`0.05` is 5 and -2).
fn decimal(number: &Value) -> Option<(i64, i32)> {
    let text = number.to_string();
    let (mantissa, exponent) = match text.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => (mantissa.to_string(), exponent.parse::<i32>().ok()?),
        None => (text.clone(), 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((&mantissa, ""));
    let digits: i64 = format!("{whole}{fraction}").parse().ok()?;
    Some((digits, exponent - fraction.len() as i32))
}

/// A number near one of the node's bounds, a multiple of its `multipleOf` or just off one, one
/// of its enum values, or a usual one.
fn number(choices: &mut Choices<'_>, node: &Map<String, Value>, integer: bool) -> Value {
    let bound = |key: &str| node.get(key).and_then(Value::as_f64);
    let step = if integer || choices.one_in(2) {
        1.0
    } else {
        0.5
    };
    if choices.one_in(24) {
        return huge(choices);
    }
    let picked = match choices.below(16) {
        0 => bound("minimum").map(|min| min - step),
        1 => bound("minimum"),
        2 => bound("maximum"),
        3 => bound("maximum").map(|max| max + step),
        4 => bound("exclusiveMinimum"),
        5 => bound("exclusiveMinimum").map(|min| min + step),
        6 => bound("exclusiveMaximum"),
        7 => bound("exclusiveMaximum").map(|max| max - step),
        8..=10 => {
            // k times the divisor, made in decimal; sometimes half a step off.
            if let Some((digits, exponent)) = node.get("multipleOf").and_then(decimal) {
                let k = i64::from(choices.byte()) - 32;
                let mut text = format!("{}e{}", k * digits, exponent);
                if choices.one_in(4) {
                    text = format!("{}e{}", k * digits * 10 + 5 * digits, exponent - 1);
                }
                text.parse::<f64>().ok()
            } else {
                None
            }
        }
        11 => Some(*choices.pick(&[
            MAX_SAFE_INTEGER,
            MAX_SAFE_INTEGER + 1.0,
            1e21,
            1.5e-7,
            -3.0,
            0.1,
            1e300,
            5e-324,
        ])),
        _ => None,
    };
    let value = picked.unwrap_or_else(|| f64::from(choices.byte()) - 64.0);
    if value.fract() == 0.0 && value.abs() < 1e15 && choices.one_in(2) {
        json!(value as i64)
    } else {
        json!(value)
    }
}

/// Where `reference` (`#/$defs/Name`) leads in `root`.
fn target<'v>(root: &'v Value, reference: &str) -> Option<&'v Value> {
    root.pointer(reference.strip_prefix('#')?)
}

/// The types a node takes: its `type`, or what its keywords suggest.
fn types(node: &Map<String, Value>) -> Vec<&str> {
    match node.get("type") {
        Some(Value::String(ty)) => vec![ty.as_str()],
        Some(Value::Array(types)) => types.iter().filter_map(Value::as_str).collect(),
        _ => {
            let has = |keys: &[&str]| keys.iter().any(|key| node.contains_key(*key));
            if has(&[
                "properties",
                "additionalProperties",
                "propertyNames",
                "required",
            ]) {
                vec!["object"]
            } else if has(&[
                "items",
                "prefixItems",
                "minItems",
                "maxItems",
                "uniqueItems",
            ]) {
                vec!["array"]
            } else if has(&["minLength", "maxLength", "pattern", "format"]) {
                vec!["string"]
            } else if has(&["minimum", "maximum", "multipleOf"]) {
                vec!["number"]
            } else {
                Vec::new()
            }
        }
    }
}

/// Arguments for `node` (in the schema `root`), mostly right.
fn generate(choices: &mut Choices<'_>, node: &Value, root: &Value, depth: usize) -> Value {
    if choices.budget == 0 || depth > 24 || choices.one_in(32) {
        return stray(choices);
    }
    choices.budget -= 1;
    let Value::Object(node) = node else {
        return stray(choices); // `true` takes anything, `false` nothing
    };
    if let Some(reference) = node.get("$ref").and_then(Value::as_str) {
        if let Some(target) = target(root, reference) {
            return generate(choices, target, root, depth + 1);
        }
    }
    if let Some(value) = node.get("const") {
        if !choices.one_in(6) {
            return value.clone();
        }
    }
    if let Some(Value::Array(values)) = node.get("enum") {
        if !values.is_empty() && !choices.one_in(6) {
            return choices.pick(values).clone();
        }
    }
    for union in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(branches)) = node.get(union) {
            if !branches.is_empty() {
                let branch = choices.pick(branches);
                return generate(choices, branch, root, depth + 1);
            }
        }
    }
    if node.get("nullable") == Some(&Value::Bool(true)) && choices.one_in(6) {
        return Value::Null;
    }
    let types = types(node);
    if types.is_empty() {
        return stray(choices);
    }
    match *choices.pick(&types) {
        "null" => Value::Null,
        "string" => string_value(choices, node),
        "integer" => number(choices, node, true),
        "number" => number(choices, node, false),
        "boolean" => json!(choices.one_in(2)),
        "array" => array(choices, node, root, depth),
        "object" => object(choices, node, root, depth),
        _ => stray(choices),
    }
}

fn array(
    choices: &mut Choices<'_>,
    node: &Map<String, Value>,
    root: &Value,
    depth: usize,
) -> Value {
    let count = |key: &str| node.get(key).and_then(Value::as_u64).map(|n| n as usize);
    let (min, max) = (count("minItems").unwrap_or(0), count("maxItems"));
    // A tuple: `prefixItems`, or draft-07's `items` list.
    let (prefix, rest) = match (node.get("prefixItems"), node.get("items")) {
        (Some(Value::Array(prefix)), rest) => (prefix.as_slice(), rest),
        (None, Some(Value::Array(prefix))) => (prefix.as_slice(), node.get("additionalItems")),
        (_, rest) => (&[][..], rest),
    };
    let len = match choices.below(6) {
        0 => min.saturating_sub(1),
        1 => min,
        2 => max.unwrap_or(2),
        3 => max.map_or(3, |max| max + 1),
        4 => prefix.len(),
        _ => choices.below(4),
    };
    let mut items: Vec<Value> = (0..len.min(6))
        .map(|i| match prefix.get(i).or(rest) {
            Some(item) => generate(choices, item, root, depth + 1),
            None => stray(choices),
        })
        .collect();
    if node.get("uniqueItems") == Some(&Value::Bool(true)) && !items.is_empty() && choices.one_in(3)
    {
        let twin = items[choices.below(items.len())].clone();
        let at = choices.below(items.len() + 1);
        items.insert(at, twin);
    }
    Value::Array(items)
}

/// A key for a map: one that fits `propertyNames` if it has a pattern, or a random one.
fn key(choices: &mut Choices<'_>, node: &Map<String, Value>) -> String {
    let pattern = node
        .get("propertyNames")
        .and_then(|names| names.get("pattern"))
        .and_then(Value::as_str);
    if let Some(pattern) = pattern {
        if !choices.one_in(4) {
            if let Some(key) = matching(choices, pattern) {
                return key;
            }
        }
    }
    match choices.below(4) {
        0 => (*choices.pick(&["a", "key", "ABC-1234", "é", "a/b~c", "", "😀", "Z"])).into(),
        _ => {
            let len = choices.below(5);
            string(choices, len)
        }
    }
}

fn object(
    choices: &mut Choices<'_>,
    node: &Map<String, Value>,
    root: &Value,
    depth: usize,
) -> Value {
    let required: Vec<&str> = node
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut members: Vec<(String, Value)> = Vec::new();
    let properties = node.get("properties").and_then(Value::as_object);
    for (name, property) in properties.into_iter().flatten() {
        let is_required = required.contains(&name.as_str());
        let include = if is_required {
            !choices.one_in(12)
        } else {
            choices.one_in(2)
        };
        if !include {
            continue;
        }
        let value = if !is_required && choices.one_in(6) {
            Value::Null
        } else {
            generate(choices, property, root, depth + 1)
        };
        members.push((name.clone(), value));
    }
    // A map, or a free-form object: members of its own.
    let additional = node.get("additionalProperties");
    let extra = match additional {
        Some(Value::Object(_)) => choices.below(5),
        None if properties.is_none() && depth > 0 => usize::from(choices.one_in(3)) * 2,
        _ => usize::from(choices.one_in(12)),
    };
    for _ in 0..extra {
        let name = if properties.is_some() && choices.one_in(2) {
            match choices.below(3) {
                0 => "extra".to_string(),
                1 => "a/b~c".to_string(),
                _ => members
                    .first()
                    .map_or("x".into(), |(name, _)| format!("{name}_")),
            }
        } else {
            key(choices, node)
        };
        if members.iter().any(|(n, _)| *n == name) {
            continue;
        }
        let value = match additional {
            Some(schema @ Value::Object(_)) if !choices.one_in(8) => {
                generate(choices, schema, root, depth + 1)
            }
            _ => stray(choices),
        };
        members.push((name, value));
    }
    // Models write keys in any order.
    if !members.is_empty() {
        let turn = choices.below(members.len());
        members.rotate_left(turn);
        if choices.one_in(2) {
            members.reverse();
        }
    }
    Value::Object(members.into_iter().collect())
}

/// How the arguments travel.
enum Sent {
    /// As JSON text (the OpenAI formats); `None` is text serde_json cannot parse.
    Text(String),
    /// In place; `None` is left out.
    Value(Option<Value>),
}

fn envelope(format: Format, name: &str, sent: &Sent) -> Value {
    let text = |sent: &Sent| match sent {
        Sent::Text(text) => Value::String(text.clone()),
        Sent::Value(_) => unreachable!(),
    };
    let put = |call: &mut Value, key: &str| {
        if let Sent::Value(Some(value)) = sent {
            call[key] = value.clone();
        }
    };
    match format {
        Format::OpenAi => json!({
            "id": "call_1", "type": "function",
            "function": {"name": name, "arguments": text(sent)}
        }),
        Format::OpenAiResponses => json!({
            "type": "function_call", "id": "fc_1", "call_id": "call_1", "name": name,
            "arguments": text(sent), "status": "completed"
        }),
        Format::Anthropic => {
            let mut call = json!({"type": "tool_use", "id": "toolu_1", "name": name});
            put(&mut call, "input");
            if call.get("input").is_none() {
                call["input"] = json!({});
            }
            call
        }
        Format::Gemini | Format::GeminiJsonSchema => {
            let mut call = json!({"name": name, "id": "g1", "thoughtSignature": "x"});
            put(&mut call, "args");
            call
        }
        Format::Mcp => {
            let mut call = json!({"name": name, "_meta": {"progressToken": 1}});
            put(&mut call, "arguments");
            call
        }
    }
}

/// Asks about `call`. `terse` leaves out the fields that have their default values, which is
/// how the quick path's fastest reading (`{"op":"check_call","call":...}`) is reached.
/// `None` when the request itself is nested deeper than a request may be (a deep value in
/// place), which is `too_deep`; the bool says whether it holds a number beyond a float.
fn ask(
    subject: &Subject,
    shape: Shape,
    call: &Value,
    terse: bool,
) -> Option<(Vec<u8>, Value, bool)> {
    let mut request = json!({"op": "check_call"});
    if !terse || shape.format() != Format::OpenAi {
        request["format"] = json!(shape.format().name());
    }
    if !terse || shape.strict() {
        request["strict"] = json!(shape.strict());
    }
    request["call"] = call.clone();
    let too_deep = nesting(&request) > 64;
    let (request, huge) = with_huge_numbers(serde_json::to_vec(&request).unwrap());
    let mut out = Vec::new();
    match (subject.respond)(&request, &mut out) {
        Err(err) if too_deep && err.code() == "too_deep" => return None,
        Err(err) => panic!(
            "{}: {}: {err}",
            subject.name,
            String::from_utf8_lossy(&request)
        ),
        Ok(()) => assert!(!too_deep, "a request nested too deep was answered"),
    }
    assert!(out.ends_with(b"}\n") && out.iter().filter(|&&b| b == b'\n').count() == 1);
    let answer = serde_json::from_slice(&out).unwrap_or_else(|err| {
        panic!(
            "answer is not JSON ({err}): {}",
            String::from_utf8_lossy(&out)
        );
    });
    Some((out, answer, huge))
}

/// How deep arrays and objects nest in `value`.
fn nesting(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(nesting).max().unwrap_or(0),
        Value::Object(members) => 1 + members.values().map(nesting).max().unwrap_or(0),
        _ => 0,
    }
}

/// One case: the input's bytes choose the shape, the tool and the arguments, and the verdict is
/// compared with the reference's.
pub fn check(subject: &Subject, data: &[u8]) {
    let mut choices = Choices {
        bytes: data,
        at: 0,
        budget: 160,
    };
    let shapes: Vec<Shape> = Shape::all().collect();
    let shape = shapes[choices.below(shapes.len())];
    let format = shape.format();
    if subject.names.is_empty() {
        return;
    }
    let tool = choices.below(subject.names.len());
    let reference = &subject.references[tool];
    let unknown_tool = choices.one_in(32);
    let names = &subject.names;
    let name = if unknown_tool {
        format!("{}_x", names[tool])
    } else {
        names[tool].to_string()
    };
    let nullable = shape.strict() && matches!(format, Format::OpenAi | Format::OpenAiResponses);

    let schema = &reference.schema;
    let mut value = generate(&mut choices, schema, schema, 0);
    if choices.one_in(24) {
        value = stray(&mut choices);
    }
    // What the reference parses: `None` when serde_json refuses the text.
    let (sent, parsed) = if matches!(format, Format::OpenAi | Format::OpenAiResponses) {
        let mut text = serde_json::to_string(&value).unwrap();
        match choices.below(24) {
            0 => text = String::new(),
            1 => text = " \n".into(),
            2 => text = serde_json::to_string(&text).unwrap(), // encoded twice
            3 => {
                let mut cut = choices.below(text.len().max(1));
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                text.truncate(cut);
            }
            4 => text = format!(" {text}\n"),
            _ => {}
        }
        let parsed = if text.trim_matches([' ', '\n', '\t', '\r']).is_empty() {
            Some(json!({}))
        } else {
            serde_json::from_str::<Value>(&text).ok()
        };
        (Sent::Text(text), parsed)
    } else if matches!(
        format,
        Format::Gemini | Format::GeminiJsonSchema | Format::Mcp
    ) && choices.one_in(16)
    {
        (Sent::Value(None), Some(json!({})))
    } else {
        (Sent::Value(Some(value.clone())), Some(value))
    };

    let terse = choices.one_in(2);
    let Some((out, answer, huge)) = ask(subject, shape, &envelope(format, &name, &sent), terse)
    else {
        return;
    };
    let ok = answer["ok"].as_bool().expect("ok is a boolean");
    let shown = String::from_utf8_lossy(&out);

    if unknown_tool {
        assert!(!ok, "{shown}");
        assert_eq!(answer["errors"][0]["code"], "unknown_tool", "{shown}");
        return;
    }
    let Some(parsed) = parsed else {
        assert!(!ok, "unparseable arguments accepted: {shown}");
        let code = answer["errors"][0]["code"].as_str().unwrap();
        assert!(
            matches!(
                code,
                "malformed_arguments" | "truncated_arguments" | "arguments_not_object"
            ),
            "{shown}"
        );
        return;
    };
    if !huge && beyond_safe_integers(&parsed) && (reference.flat || !ok) {
        return; // a documented difference
    }
    let known = !huge && known_different(&parsed);
    let variant = if nullable {
        &reference.nullable
    } else {
        &reference.plain
    };
    // A number beyond a float, anywhere, is refused (serde_json cannot read one at all).
    let expected = !huge && variant.fits("", &parsed);
    assert!(
        ok == expected || known,
        "verdicts differ on {} for {} ({}, strict {}): {shown}",
        serde_json::to_string(&parsed).unwrap(),
        name,
        format.name(),
        shape.strict()
    );

    if ok {
        assert!(answer["arguments"].is_object(), "{shown}");
        let mut want = Vec::new();
        jcs(&parsed, Some(String::new()), variant, nullable, &mut want);
        // serde_json rewrites numbers its own way, so compare the answer's own bytes: they
        // follow `{"arguments":` up to the id or name.
        let text = &out[b"{\"arguments\":".len()..];
        assert!(
            text.starts_with(&want)
                && (text[want.len()..].starts_with(b",\"id\":")
                    || text[want.len()..].starts_with(b",\"name\":")),
            "canonical form: want {}, got {}",
            String::from_utf8_lossy(&want),
            shown
        );
        // Checking the canonical arguments again gives the same answer, byte for byte.
        let again = if matches!(format, Format::OpenAi | Format::OpenAiResponses) {
            Sent::Text(String::from_utf8(want.clone()).unwrap())
        } else {
            Sent::Value(Some(serde_json::from_slice(&want).unwrap()))
        };
        let (out_again, _, _) =
            ask(subject, shape, &envelope(format, &name, &again), !terse).expect("not too deep");
        assert!(
            out_again == out,
            "checking the canonical arguments again: {} against {shown}",
            String::from_utf8_lossy(&out_again)
        );
    } else {
        let errors = answer["errors"].as_array().expect("errors");
        assert!((1..=16).contains(&errors.len()), "{shown}");
        for error in errors {
            let code = error["code"].as_str().unwrap();
            assert!(
                matches!(
                    code,
                    "malformed_arguments"
                        | "truncated_arguments"
                        | "arguments_not_object"
                        | "unknown_argument"
                        | "duplicate_argument"
                        | "missing_argument"
                        | "wrong_argument_type"
                        | "argument_out_of_range"
                        | "argument_not_in_enum"
                        | "argument_not_matching"
                        | "argument_not_unique"
                        | "argument_fits_no_alternative"
                        | "arguments_too_complex"
                ),
                "{shown}"
            );
            let path = error["path"].as_str().unwrap();
            assert!(path.is_empty() || path.starts_with('/'), "{shown}");
            // The pointer is whole: it finds the value the error is about, or for a missing
            // argument the object it is missing from.
            let found = if code == "missing_argument" {
                let (object, _) = path.rsplit_once('/').expect("a missing argument's key");
                parsed.pointer(object).is_some_and(Value::is_object)
            } else {
                parsed.pointer(path).is_some()
            };
            assert!(found, "{path} is not in the arguments: {shown}");
            let message = error["message"].as_str().unwrap();
            assert!(!message.is_empty() && !message.contains('\n'), "{shown}");
        }
        // The reply's text is every message, one a line.
        let messages: Vec<&str> = errors
            .iter()
            .map(|error| error["message"].as_str().unwrap())
            .collect();
        let reply = &answer["reply"];
        let text = match format {
            Format::OpenAi | Format::Anthropic => &reply["content"],
            Format::OpenAiResponses => &reply["output"],
            Format::Gemini | Format::GeminiJsonSchema => {
                &reply["functionResponse"]["response"]["error"]
            }
            Format::Mcp => &reply["content"][0]["text"],
        };
        assert_eq!(text.as_str(), Some(messages.join("\n").as_str()), "{shown}");
    }
}

/// Whether any number is an integer beyond ±(2^53−1).
fn beyond_safe_integers(value: &Value) -> bool {
    match value {
        Value::Number(number) => {
            let value = number.as_f64().unwrap_or(0.0);
            value.fract() == 0.0 && value.abs() > MAX_SAFE_INTEGER
        }
        Value::Array(items) => items.iter().any(beyond_safe_integers),
        Value::Object(members) => members.values().any(beyond_safe_integers),
        _ => false,
    }
}

/// A JSON Pointer's reference token for `key`.
fn token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// The subschema (by pointer) that says what the parts of `value` are: `at` itself if it
/// declares properties or items, else where its `$ref` leads, else the first branch of its
/// `anyOf` (or `oneOf`) that `value` fits.
fn resolve(variant: &Variant, mut at: String, value: &Value) -> String {
    for _ in 0..64 {
        let Some(Value::Object(node)) = variant.schema.pointer(&at) else {
            break;
        };
        if ["properties", "items", "prefixItems"]
            .iter()
            .any(|key| node.contains_key(*key))
        {
            break;
        }
        if let Some(reference) = node.get("$ref").and_then(Value::as_str) {
            at = reference.trim_start_matches('#').to_string();
            continue;
        }
        let union = ["anyOf", "oneOf"]
            .into_iter()
            .find_map(|union| Some((union, node.get(union)?.as_array()?.len())));
        if let Some((union, branches)) = union {
            let fitting = (0..branches).find(|i| variant.fits(&format!("{at}/{union}/{i}"), value));
            if let Some(i) = fitting {
                at = format!("{at}/{union}/{i}");
                continue;
            }
        }
        break;
    }
    at
}

/// RFC 8785, written independently of the crate: keys sorted by UTF-16 code units, serde_json's
/// string escapes (which are JCS's), numbers as ECMAScript writes them (`ryu-js`). `at` is the
/// subschema of `value` in `variant`, if any; with `nullable` (OpenAI strict), the `null` of an
/// optional property is left out where the property's own schema does not admit `null`.
fn jcs(value: &Value, at: Option<String>, variant: &Variant, nullable: bool, out: &mut Vec<u8>) {
    match value {
        Value::Null | Value::Bool(_) | Value::String(_) => {
            serde_json::to_writer(&mut *out, value).unwrap()
        }
        Value::Number(number) => {
            let value = number.as_f64().unwrap();
            if value == 0.0 {
                out.extend_from_slice(b"0");
            } else {
                let mut buffer = ryu_js::Buffer::new();
                out.extend_from_slice(buffer.format(value).as_bytes());
            }
        }
        Value::Array(items) => {
            let at = at.map(|at| resolve(variant, at, value));
            let node = at.as_ref().and_then(|at| variant.schema.pointer(at));
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                let prefix = node
                    .and_then(|node| node.get("prefixItems"))
                    .and_then(Value::as_array)
                    .map_or(0, Vec::len);
                let item_at = match (&at, node) {
                    (Some(at), Some(_)) if i < prefix => Some(format!("{at}/prefixItems/{i}")),
                    (Some(at), Some(node)) if node.get("items").is_some() => {
                        Some(format!("{at}/items"))
                    }
                    _ => None,
                };
                jcs(item, item_at, variant, nullable, out);
            }
            out.push(b']');
        }
        Value::Object(members) => {
            let at = at.map(|at| resolve(variant, at, value));
            let node = at.as_ref().and_then(|at| variant.schema.pointer(at));
            let mut keys: Vec<&String> = members.keys().collect();
            keys.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
            out.push(b'{');
            let mut written = 0;
            for key in keys {
                let declared = node
                    .and_then(|node| node.get("properties"))
                    .and_then(|properties| properties.get(key.as_str()))
                    .is_some();
                let optional = declared
                    && !node
                        .and_then(|node| node.get("required"))
                        .and_then(Value::as_array)
                        .is_some_and(|names| names.contains(&json!(key)));
                let member_at = match (&at, node) {
                    (Some(at), Some(_)) if declared => {
                        Some(format!("{at}/properties/{}", token(key)))
                    }
                    (Some(at), Some(node)) if node["additionalProperties"].is_object() => {
                        Some(format!("{at}/additionalProperties"))
                    }
                    _ => None,
                };
                let value = &members[key];
                if value.is_null() && optional && nullable {
                    // The property's own schema is the first branch of the null wrapper.
                    let own = format!("{}/anyOf/0", member_at.as_ref().unwrap());
                    if !variant.fits(&own, value) {
                        continue;
                    }
                }
                if written > 0 {
                    out.push(b',');
                }
                written += 1;
                serde_json::to_writer(&mut *out, key).unwrap();
                out.push(b':');
                jcs(value, member_at, variant, nullable, out);
            }
            out.push(b'}');
        }
    }
}
