//! Exhaustive mini-fuzz on the stable toolchain: every sequence of up to four pieces from a
//! vocabulary of JSON fragments goes through `respond`, and each verdict must match a small
//! reference written here to be obviously correct rather than fast: a recursive-descent parser
//! into owned values (UTF-8 checked by std, surrogates paired by `String::from_utf16`), then the
//! request rules read straight off the README. A success must be the golden file's bytes.

use std::collections::{BTreeMap, HashMap};
use tool_schema::respond;

const PIECES: &[&[u8]] = &[
    b"{",
    b"}",
    b"[",
    b"]",
    b":",
    b",",
    b" ",
    b"\"op\"",
    b"\"tool\"",
    b"\"tool_list\"",
    b"\"read_file\"",
    b"\"\\u006fp\"",
    b"\"\\ud800\"",
    b"\"\\ud83d\\ude00\"",
    b"\"a\\\"b\"",
    "\"é\"".as_bytes(),
    b"-0",
    b"1e5",
    b"01",
    b"true",
    b"null",
    b"\xFF",
    b"{\"op\":\"tool_schema\"",
    b"{\"op\":\"tool_list\"",
    b",\"tool\":\"patch_file\"",
    b",\"format\":\"gemini\"",
    b",\"strict\":true",
    b"{\"op\":\"x\"",
    b",\"tool\":1",
    b",\"tool\":\"rm\"",
    b",\"format\":\"x\"",
];

#[test]
fn every_sequence_of_up_to_four_pieces_agrees_with_the_reference() {
    let goldens = goldens();
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    let mut input = Vec::new();
    let mut out = Vec::with_capacity(tool_schema::MAX_OUTPUT);
    let n = PIECES.len();
    let mut cases = 0;
    for len in 0..=4u32 {
        for mut index in 0..n.pow(len) {
            input.clear();
            for _ in 0..len {
                input.extend_from_slice(PIECES[index % n]);
                index /= n;
            }
            out.clear();
            let ours = respond(&input, &mut out)
                .map(|()| out.as_slice())
                .map_err(|err| err.code());
            let want = reference(&input, &goldens);
            assert_eq!(
                ours,
                want.as_deref().map_err(|code| *code),
                "{:?}",
                String::from_utf8_lossy(&input)
            );
            *seen.entry(want.err().unwrap_or("ok")).or_default() += 1;
            cases += 1;
        }
    }
    eprintln!("{cases} cases: {seen:?}");
    // The vocabulary reaches every outcome a short request can have.
    for outcome in [
        "ok",
        "malformed_json",
        "not_an_object",
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
        let ours = respond(input, &mut out)
            .map(|()| out.as_slice())
            .map_err(|err| err.code());
        let want = reference(input, &goldens);
        let want = want.as_deref().map_err(|code| *code);
        assert_eq!(ours, want, "{:?}", String::from_utf8_lossy(input));
        want.is_ok()
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
    Object(Vec<(String, Value)>),
}

/// What `respond` must do with `input`: the answer's bytes, or the error code.
fn reference(
    input: &[u8],
    goldens: &HashMap<(String, String, bool), Vec<u8>>,
) -> Result<Vec<u8>, &'static str> {
    // Short inputs only: no case comes near the depth or size limits.
    let Some(document) = parse_document(input) else {
        return Err("malformed_json");
    };
    let Value::Object(members) = document else {
        return Err("not_an_object");
    };
    let mut fields: BTreeMap<&str, &Value> = BTreeMap::new();
    for (key, value) in &members {
        let type_ok = match key.as_str() {
            "op" | "tool" | "format" => matches!(value, Value::String(_)),
            "strict" => matches!(value, Value::Bool(_)),
            _ => return Err("unknown_field"),
        };
        if fields.contains_key(key.as_str()) {
            return Err("duplicate_field");
        }
        if !type_ok {
            return Err("wrong_type");
        }
        fields.insert(key, value);
    }
    let text = |name| match fields.get(name) {
        Some(Value::String(text)) => Some(text.as_str()),
        _ => None,
    };
    let list = match text("op") {
        None => return Err("missing_field"),
        Some("tool_schema") => false,
        Some("tool_list") => true,
        Some(_) => return Err("unknown_op"),
    };
    let tool = match (list, text("tool")) {
        (true, Some(_)) => return Err("unknown_field"),
        (false, None) => return Err("missing_field"),
        (_, tool) => tool,
    };
    let format = text("format").unwrap_or("openai");
    if !["openai", "openai_responses", "anthropic", "gemini", "mcp"].contains(&format) {
        return Err("unknown_format");
    }
    let strict = matches!(fields.get("strict"), Some(Value::Bool(true)));
    if strict && ["gemini", "mcp"].contains(&format) {
        return Err("unsupported");
    }
    let name = match tool {
        None => "tool_list",
        Some(tool @ ("read_file" | "write_file" | "patch_file")) => tool,
        Some(_) => return Err("unknown_tool"),
    };
    Ok(goldens[&(name.to_string(), format.to_string(), strict)].clone())
}

fn parse_document(input: &[u8]) -> Option<Value> {
    let text = std::str::from_utf8(input).ok()?; // JSON text is UTF-8, all of it
    let chars: Vec<char> = text.chars().collect();
    let mut parser = Parser { chars, at: 0 };
    parser.whitespace();
    let value = parser.value()?;
    parser.whitespace();
    (parser.at == parser.chars.len()).then_some(value)
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
            members.push((key, self.value()?));
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
