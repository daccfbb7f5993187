//! Exhaustive mini-fuzz on the stable toolchain. Every combination of request fields (each op,
//! each field absent or with a good or a bad value, check_call's calls in every format's
//! envelope, an unknown or repeated field), in three orders, goes through `respond`, and so
//! does every near miss of the usual requests. Each verdict must match a small reference
//! written here to be obviously correct rather than fast: a recursive-descent parser into owned
//! values (UTF-8 checked by std, surrogates paired by `String::from_utf16`), then the request
//! rules read straight off docs/protocol.md and docs/errors.md. A declaration must be the
//! golden file's bytes; a call's verdict is the table [`CALLS`], written by hand from the
//! envelopes and rules of docs/checking-calls.md.

use std::collections::{BTreeMap, HashMap};
use tool_schema::respond;

/// A call in one format's envelope, and what `check_call` makes of it in every format (in
/// `Format`'s order: openai, openai_responses, anthropic, gemini, mcp), from the README: the
/// envelope's fields are read in the order the call gives them, skipping fields the format
/// does not name; a named field of the wrong type is `wrong_type` at once, a missing one
/// `missing_field` after the last, in the envelope table's order.
struct CallCase {
    call: &'static str,
    outcomes: [Outcome; 5],
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Outcome {
    /// The verdict is valid: these bytes.
    Valid(&'static str),
    /// The verdict is invalid, with these problem codes in order.
    Invalid(&'static [&'static str]),
    /// The request is refused with this code.
    Refused(&'static str),
}

use Outcome::{Invalid, Refused, Valid};

const CALLS: &[CallCase] = &[
    CallCase {
        call: r#"{"id":"c1","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"a\"}"}}"#,
        outcomes: [
            Valid(r#"{"arguments":{"path":"a"},"id":"c1","name":"read_file","ok":true}"#),
            Refused("wrong_type"),
            Refused("wrong_type"),
            Refused("missing_field"),
            Refused("missing_field"),
        ],
    },
    CallCase {
        call: r#"{"id":"c2","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"a\",\"start_line\":\"1\",\"limit\":4}"}}"#,
        outcomes: [
            Invalid(&["wrong_argument_type", "unknown_argument"]),
            Refused("wrong_type"),
            Refused("wrong_type"),
            Refused("missing_field"),
            Refused("missing_field"),
        ],
    },
    CallCase {
        call: r#"{"id":"c3","type":"function","function":{"name":"read_file","arguments":"{\"path\":"}}"#,
        outcomes: [
            Invalid(&["truncated_arguments"]),
            Refused("wrong_type"),
            Refused("wrong_type"),
            Refused("missing_field"),
            Refused("missing_field"),
        ],
    },
    CallCase {
        call: r#"{"type":"function_call","call_id":"c4","name":"write_file","arguments":"{}"}"#,
        outcomes: [
            Refused("wrong_type"),
            Invalid(&["missing_argument", "missing_argument"]),
            Refused("wrong_type"),
            Invalid(&["missing_argument", "missing_argument"]),
            Invalid(&["arguments_not_object"]),
        ],
    },
    CallCase {
        call: r#"{"type":"tool_use","id":"t1","name":"write_file","input":{"path":"a","content":"b"}}"#,
        outcomes: [
            Refused("wrong_type"),
            Refused("wrong_type"),
            Valid(
                r#"{"arguments":{"content":"b","path":"a"},"id":"t1","name":"write_file","ok":true}"#,
            ),
            Invalid(&["missing_argument", "missing_argument"]),
            Invalid(&["missing_argument", "missing_argument"]),
        ],
    },
    CallCase {
        call: r#"{"name":"patch_file","args":{"path":"a","old_str":"x","new_str":"y"}}"#,
        outcomes: [
            Refused("missing_field"),
            Refused("missing_field"),
            Refused("missing_field"),
            Valid(
                r#"{"arguments":{"new_str":"y","old_str":"x","path":"a"},"name":"patch_file","ok":true}"#,
            ),
            Invalid(&["missing_argument", "missing_argument", "missing_argument"]),
        ],
    },
    CallCase {
        call: r#"{"name":"read_file"}"#,
        outcomes: [
            Refused("missing_field"),
            Refused("missing_field"),
            Refused("missing_field"),
            Invalid(&["missing_argument"]),
            Invalid(&["missing_argument"]),
        ],
    },
    CallCase {
        call: r#"{"name":"rm","arguments":{}}"#,
        outcomes: [
            Refused("missing_field"),
            Refused("wrong_type"),
            Refused("missing_field"),
            Invalid(&["unknown_tool"]),
            Invalid(&["unknown_tool"]),
        ],
    },
];

const FORMATS: [&str; 5] = ["openai", "openai_responses", "anthropic", "gemini", "mcp"];

/// A field's choices: absent (`None`), or a member as written.
type Choices = &'static [Option<&'static str>];

const TOOLS: Choices = &[
    Some(r#""tool":"read_file""#),
    Some(r#""tool":"write_file""#),
    Some(r#""tool":"patch_\u0066ile""#),
    Some(r#""tool":"rm""#),
    Some(r#""tool":7"#),
    None,
];
const FORMAT: Choices = &[
    None,
    Some(r#""format":"openai""#),
    Some(r#""format":"openai_responses""#),
    Some(r#""format":"anthropic""#),
    Some(r#""format":"gemini""#),
    Some(r#""format":"mcp""#),
    Some(r#""format":"x""#),
];
const STRICT: Choices = &[
    None,
    Some(r#""strict":true"#),
    Some(r#""strict":false"#),
    Some(r#""strict":"yes""#),
];
/// An op, one choice of its own field, and the formats to try them in.
type OpChoices = (
    Option<&'static str>,
    Option<String>,
    Vec<Option<&'static str>>,
);

/// What else a request may carry: mostly nothing; an unknown field, `tool` or `call` where the
/// op has none, or `op` again.
const EXTRA: Choices = &[
    None,
    None,
    None,
    None,
    Some(r#""x":null"#),
    Some(r#""tool":"read_file""#),
    Some(r#""call":{"name":"read_file"}"#),
    Some(r#""op":"tool_list""#),
];

#[test]
fn every_combination_of_request_fields_agrees_with_the_reference() {
    let goldens = goldens();
    // Each op with the choices of its own field, and the formats to try them in: every format
    // for a declaration; for a call, the formats whose envelope it is (absent for openai) and
    // the first it is not, since a call in a foreign envelope is refused at once.
    let all_formats: Vec<Option<&str>> = FORMAT.to_vec();
    let mut requests: Vec<OpChoices> = Vec::new();
    for tool in TOOLS {
        let op = Some(r#""op":"tool_schema""#);
        requests.push((op, tool.map(String::from), all_formats.clone()));
    }
    requests.push((Some(r#""op":"tool_list""#), None, all_formats.clone()));
    for case in CALLS {
        let mut formats: Vec<Option<&str>> = Vec::new();
        let mut foreign = None;
        for (index, outcome) in case.outcomes.iter().enumerate() {
            let format = FORMAT[index + 1];
            match outcome {
                Refused(_) => foreign = foreign.or(Some(format)),
                _ if index == 0 => formats.extend([None, format]),
                _ => formats.push(format),
            }
        }
        formats.extend(foreign);
        formats.push(FORMAT[6]); // "x"
        let call = Some(format!(r#""call":{}"#, case.call));
        requests.push((Some(r#""op":"check_call""#), call, formats));
    }
    let check_call = Some(r#""op":"check_call""#);
    requests.push((check_call, Some(r#""call":[]"#.into()), all_formats.clone()));
    requests.push((check_call, None, all_formats.clone()));
    for op in [Some(r#""op":"x""#), Some(r#""\u006fp":1"#), None] {
        requests.push((
            op,
            Some(r#""tool":"read_file""#.into()),
            all_formats.clone(),
        ));
    }
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = Vec::new();
    let mut cases = 0;
    for (op, field, formats) in &requests {
        for format in formats {
            for strict in STRICT {
                for extra in EXTRA {
                    let members: Vec<&str> = [*op, field.as_deref()]
                        .into_iter()
                        .chain([*format, *strict, *extra])
                        .flatten()
                        .collect();
                    // In three orders (as listed, reversed, rotated), each compact and
                    // with whitespace between every token.
                    for order in 0..3 {
                        let mut members = members.clone();
                        match order {
                            1 => members.reverse(),
                            2 if !members.is_empty() => members.rotate_left(1),
                            _ => {}
                        }
                        for input in [
                            format!("{{{}}}", members.join(",")),
                            format!(" {{ {} }}\n", members.join(" ,\t")),
                        ] {
                            out.clear();
                            let ours =
                                respond(input.as_bytes(), &mut out).map_err(|err| err.code());
                            let want = reference(input.as_bytes(), &goldens);
                            *seen.entry(agree(&ours, &out, &want, &input)).or_default() += 1;
                            cases += 1;
                        }
                    }
                }
            }
        }
    }
    eprintln!("{cases} cases: {seen:?}");
    // Each op answered, each verdict, every code a well-formed request can get.
    for outcome in [
        "tool_schema",
        "tool_list",
        "check_call valid",
        "check_call invalid",
        "duplicate_field",
        "unknown_field",
        "missing_field",
        "wrong_type",
        "unknown_op",
        "unknown_tool",
        "unknown_format",
        "unsupported",
    ] {
        assert!(seen.contains_key(outcome), "no case ended in {outcome}");
    }
    let answered: usize = [
        "tool_schema",
        "tool_list",
        "check_call valid",
        "check_call invalid",
    ]
    .iter()
    .map(|outcome| seen[*outcome])
    .sum();
    // Every request is well-formed JSON; a tenth or more must pass every rule and be answered.
    assert!(
        answered * 10 > cases,
        "only {answered} of {cases} requests were answered"
    );
}

/// Asserts that `respond`'s result (`ours`, having written `out`) is what the reference
/// wants; returns the outcome's name.
fn agree(ours: &Result<(), &str>, out: &[u8], want: &Want, input: &str) -> String {
    match (ours, want) {
        (Err(code), Want::Refused(want)) => {
            assert_eq!(code, want, "{input}");
            assert!(out.is_empty(), "{input}: wrote before refusing");
            code.to_string()
        }
        (Ok(()), Want::Declaration(op, bytes)) => {
            assert!(out == bytes.as_slice(), "{input}: not the golden bytes");
            op.to_string()
        }
        (Ok(()), Want::Verdict(Valid(answer))) => {
            assert_eq!(
                String::from_utf8_lossy(out),
                format!("{answer}\n"),
                "{input}"
            );
            "check_call valid".into()
        }
        (Ok(()), Want::Verdict(Invalid(codes))) => {
            let text = String::from_utf8_lossy(out);
            let found: Vec<&str> = text
                .split(r#"{"code":""#)
                .skip(1)
                .map(|rest| &rest[..rest.find('"').unwrap()])
                .collect();
            assert_eq!(&found, codes, "{input}: {text}");
            assert!(text.contains(r#","ok":false,"#), "{input}: {text}");
            "check_call invalid".into()
        }
        (Ok(()), Want::Verdict(Refused(code))) => panic!("{input}: answered, not {code}"),
        (ours, want) => panic!("{input}: {ours:?} against {want:?}"),
    }
}

/// The requests harnesses send, in every field order and with whitespace, and every near miss:
/// each cut short, each with one byte replaced by a byte that matters to JSON or to names,
/// deleted, or doubled. These are the inputs that the request reader's quick path takes or
/// just misses (debug builds also check each one it takes against the general reader).
#[test]
fn the_usual_requests_and_their_near_misses_agree_with_the_reference() {
    let goldens = goldens();
    let mut requests = Vec::new();
    for tool in [
        "\"read_file\"",
        "\"patch_file\"",
        "\"write_file\"",
        "\"rm\"",
        "7",
    ] {
        for format in [
            None,
            Some("\"openai\""),
            Some("\"gemini\""),
            Some("\"openai_responses\""),
        ] {
            for strict in [None, Some("true"), Some("false")] {
                let mut fields = vec![("op", "\"tool_schema\""), ("tool", tool)];
                fields.extend(format.map(|f| ("format", f)));
                fields.extend(strict.map(|s| ("strict", s)));
                requests.push(object(&fields, ""));
                fields.reverse();
                requests.push(object(&fields, " \n"));
                // The first field renamed `op`: a duplicate `op`, or a boolean one.
                fields[0].0 = "op";
                requests.push(object(&fields, ""));
            }
        }
    }
    requests.push(object(&[("op", "\"tool_list\"")], "\t"));
    requests.push(object(
        &[("format", "\"mcp\""), ("op", "\"tool_list\"")],
        "",
    ));
    requests.push(object(
        &[("op", "\"tool_list\""), ("strict", "true")],
        "\r\n",
    ));

    const BYTES: &[u8] = b"\"\\ \n{}[],:x_0-e\x00\x7f\x80\xff";
    let mut out = Vec::with_capacity(tool_schema::MAX_OUTPUT);
    let mut check = |input: &[u8]| {
        out.clear();
        let ours = respond(input, &mut out).map_err(|err| err.code());
        let want = reference(input, &goldens);
        let outcome = agree(&ours, &out, &want, &String::from_utf8_lossy(input));
        ["tool_schema", "tool_list"].contains(&outcome.as_str())
    };
    let (mut cases, mut accepted) = (0, 0);
    for request in &requests {
        for at in 0..=request.len() {
            let mut variants = vec![request[..at].to_vec()];
            if at < request.len() {
                for &byte in BYTES {
                    let mut changed = request.clone();
                    changed[at] = byte;
                    variants.push(changed);
                }
                let mut deleted = request.clone();
                deleted.remove(at);
                variants.push(deleted);
                let mut doubled = request.clone();
                doubled.insert(at, request[at]);
                variants.push(doubled);
            }
            for input in &variants {
                accepted += usize::from(check(input));
                cases += 1;
            }
        }
    }
    eprintln!("{cases} cases, {accepted} accepted");
    assert!(
        accepted > requests.len(),
        "the near misses never hit a valid request"
    );
}

/// A JSON object of these members, with `space` around every token.
fn object(members: &[(&str, &str)], space: &str) -> Vec<u8> {
    let members: Vec<String> = members
        .iter()
        .map(|(key, value)| format!("{space}\"{key}\"{space}:{space}{value}{space}"))
        .collect();
    format!("{space}{{{}}}{space}", members.join(",")).into_bytes()
}

/// Every golden file, by (tool or "tool_list", format, strict).
fn goldens() -> HashMap<(String, String, bool), Vec<u8>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut all = HashMap::new();
    for format in std::fs::read_dir(dir).unwrap() {
        let format = format.unwrap().path();
        for file in std::fs::read_dir(&format).unwrap() {
            let path = file.unwrap().path();
            let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
            let (name, strict) = match stem.strip_suffix(".strict") {
                Some(name) => (name.to_string(), true),
                None => (stem, false),
            };
            let format = format.file_name().unwrap().to_str().unwrap().to_string();
            all.insert((name, format, strict), std::fs::read(&path).unwrap());
        }
    }
    all
}

// ---- the reference ----

#[derive(Debug)]
enum Value {
    Null,
    Bool(bool),
    Number,
    String(String),
    Array,
    /// Members with the text of each value as written.
    Object(Vec<(String, Value, String)>),
}

/// What `respond` must do with a request.
#[derive(Debug)]
enum Want {
    Refused(&'static str),
    /// An op's answer that is a golden file: the op, and the bytes.
    Declaration(&'static str, Vec<u8>),
    /// A check_call's answer.
    Verdict(Outcome),
}

/// What `respond` must do with `input`.
fn reference(input: &[u8], goldens: &HashMap<(String, String, bool), Vec<u8>>) -> Want {
    match request_rules(input, goldens) {
        Ok(want) => want,
        Err(code) => Want::Refused(code),
    }
}

fn request_rules(
    input: &[u8],
    goldens: &HashMap<(String, String, bool), Vec<u8>>,
) -> Result<Want, &'static str> {
    // Short inputs only: no case comes near the depth or size limits.
    let Some((document, _)) = parse_document(input) else {
        return Err("malformed_json");
    };
    let Value::Object(members) = document else {
        return Err("not_an_object");
    };
    let mut fields: BTreeMap<&str, (&Value, &str)> = BTreeMap::new();
    for (key, value, raw) in &members {
        let type_ok = match key.as_str() {
            "op" | "tool" | "format" => matches!(value, Value::String(_)),
            "strict" => matches!(value, Value::Bool(_)),
            "call" => matches!(value, Value::Object(_)),
            _ => return Err("unknown_field"),
        };
        if fields.contains_key(key.as_str()) {
            return Err("duplicate_field");
        }
        if !type_ok {
            return Err("wrong_type");
        }
        fields.insert(key, (value, raw));
    }
    let text = |name| match fields.get(name) {
        Some((Value::String(text), _)) => Some(text.as_str()),
        _ => None,
    };
    let op = match text("op") {
        None => return Err("missing_field"),
        Some(op @ ("tool_schema" | "tool_list" | "check_call")) => op,
        Some(_) => return Err("unknown_op"),
    };
    // `tool` belongs to tool_schema and `call` to check_call alone.
    for (field, owner) in [("tool", "tool_schema"), ("call", "check_call")] {
        match (fields.contains_key(field), op == owner) {
            (true, false) => return Err("unknown_field"),
            (false, true) => return Err("missing_field"),
            _ => {}
        }
    }
    let format = text("format").unwrap_or("openai");
    let Some(format_index) = FORMATS.iter().position(|known| *known == format) else {
        return Err("unknown_format");
    };
    let strict = matches!(fields.get("strict"), Some((Value::Bool(true), _)));
    if strict && ["gemini", "mcp"].contains(&format) {
        return Err("unsupported");
    }
    if op == "check_call" {
        let raw = fields["call"].1;
        let case = CALLS
            .iter()
            .find(|case| case.call == raw)
            .expect("a call of the table");
        return match case.outcomes[format_index] {
            Refused(code) => Err(code),
            outcome => Ok(Want::Verdict(outcome)),
        };
    }
    let name = match text("tool") {
        None => "tool_list",
        Some(tool @ ("read_file" | "write_file" | "patch_file")) => tool,
        Some(_) => return Err("unknown_tool"),
    };
    Ok(Want::Declaration(
        if op == "tool_list" {
            "tool_list"
        } else {
            "tool_schema"
        },
        goldens[&(name.to_string(), format.to_string(), strict)].clone(),
    ))
}

fn parse_document(input: &[u8]) -> Option<(Value, ())> {
    let text = std::str::from_utf8(input).ok()?; // JSON text is UTF-8, all of it
    let chars: Vec<char> = text.chars().collect();
    let mut parser = Parser { chars, at: 0 };
    parser.whitespace();
    let value = parser.value()?;
    parser.whitespace();
    (parser.at == parser.chars.len()).then_some((value, ()))
}

struct Parser {
    chars: Vec<char>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        let matched = self.peek() == Some(c);
        self.at += usize::from(matched);
        matched
    }

    fn whitespace(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t' | '\n' | '\r')) {
            self.at += 1;
        }
    }

    fn value(&mut self) -> Option<Value> {
        match self.peek()? {
            '{' => self.object(),
            '[' => self.array(),
            '"' => self.string().map(Value::String),
            't' => self.literal("true", Value::Bool(true)),
            'f' => self.literal("false", Value::Bool(false)),
            'n' => self.literal("null", Value::Null),
            '-' | '0'..='9' => self.number(),
            _ => None,
        }
    }

    fn object(&mut self) -> Option<Value> {
        self.eat('{');
        self.whitespace();
        let mut members = Vec::new();
        if self.eat('}') {
            return Some(Value::Object(members));
        }
        loop {
            self.whitespace();
            if self.peek() != Some('"') {
                return None;
            }
            let key = self.string()?;
            self.whitespace();
            if !self.eat(':') {
                return None;
            }
            self.whitespace();
            let start = self.at;
            let value = self.value()?;
            let raw = self.chars[start..self.at].iter().collect();
            members.push((key, value, raw));
            self.whitespace();
            if self.eat('}') {
                return Some(Value::Object(members));
            }
            if !self.eat(',') {
                return None;
            }
        }
    }

    fn array(&mut self) -> Option<Value> {
        self.eat('[');
        self.whitespace();
        if self.eat(']') {
            return Some(Value::Array);
        }
        loop {
            self.whitespace();
            self.value()?;
            self.whitespace();
            if self.eat(']') {
                return Some(Value::Array);
            }
            if !self.eat(',') {
                return None;
            }
        }
    }

    /// A string, its escapes decoded through UTF-16 so that only whole surrogate pairs pass.
    fn string(&mut self) -> Option<String> {
        self.eat('"');
        let mut units: Vec<u16> = Vec::new();
        loop {
            let c = self.peek()?;
            self.at += 1;
            match c {
                '"' => return String::from_utf16(&units).ok(),
                '\\' => {
                    let escape = self.peek()?;
                    self.at += 1;
                    let unit = match escape {
                        '"' => '"' as u16,
                        '\\' => '\\' as u16,
                        '/' => '/' as u16,
                        'b' => 0x08,
                        'f' => 0x0C,
                        'n' => 0x0A,
                        'r' => 0x0D,
                        't' => 0x09,
                        'u' => {
                            let hex: String =
                                self.chars.get(self.at..self.at + 4)?.iter().collect();
                            if !hex.chars().all(|h| h.is_ascii_hexdigit()) {
                                return None;
                            }
                            self.at += 4;
                            u16::from_str_radix(&hex, 16).ok()?
                        }
                        _ => return None,
                    };
                    units.push(unit);
                }
                c if (c as u32) < 0x20 => return None,
                c => units.extend(c.encode_utf16(&mut [0; 2]).iter()),
            }
        }
    }

    fn literal(&mut self, word: &str, value: Value) -> Option<Value> {
        for c in word.chars() {
            if !self.eat(c) {
                return None;
            }
        }
        Some(value)
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, RFC 8259 section 6.
    fn number(&mut self) -> Option<Value> {
        let digits = |parser: &mut Parser| {
            let start = parser.at;
            while matches!(parser.peek(), Some('0'..='9')) {
                parser.at += 1;
            }
            parser.at > start
        };
        self.eat('-');
        if !self.eat('0') {
            if !matches!(self.peek(), Some('1'..='9')) {
                return None;
            }
            digits(self);
        }
        if self.eat('.') && !digits(self) {
            return None;
        }
        if self.eat('e') || self.eat('E') {
            if !self.eat('+') {
                self.eat('-');
            }
            if !digits(self) {
                return None;
            }
        }
        Some(Value::Number)
    }
}
