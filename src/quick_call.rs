//! `check_call` as harnesses send it, read and judged in one pass.
//!
//! The general path reads the request with the tokenizer, reads the envelope again, decodes the
//! arguments' text into a buffer, tokenizes that, walks it against the schema and reads it once
//! more to write it. That is most of a call's cost, and the usual call needs none of it: a flat
//! request, an envelope of plain strings, and flat arguments whose strings hold no escapes and
//! whose numbers are small integers. Such a call is read here straight from the request's bytes,
//! the arguments' text included, where every `"` of the arguments is spelled `\"`. Anything else
//! (a nested argument, an escape, a fraction, a non-ASCII byte, an unknown request field, a
//! syntax error) is `None`, and the general path answers, with the same bytes: every debug build
//! (the tests and the fuzz targets) checks that on every call this answers.
//!
//! Problems that fit the same reading (a wrong type, an unknown or missing argument, a bound, an
//! enum) are judged here too, into the checker's own [`Problems`], and written by the same code.

use crate::catalog::{self, Tool};
use crate::check::{Bound, Found, Problems, Segment, What, MAX_SAFE_INTEGER};
use crate::schema::{Scalar, Schema, Type};
use crate::tokenizer::{plain_run_end, skip_whitespace, Kind};
use crate::verdict::{self, Parts};
use crate::wire::{Format, Shape};
use std::io::{self, Write};

/// The most arguments read here; a call with more goes the general way.
const MOST_ARGUMENTS: usize = 16;

/// Answers a `check_call` request whole, or declines with `None` before writing anything.
#[inline]
pub(crate) fn answer(input: &[u8], out: &mut impl Write) -> Option<io::Result<()>> {
    let call = read_request(input)?;
    let tool = catalog::find_name(call.name.get(1..call.name.len() - 1)?)?;
    let tool = &catalog::TOOLS[tool];
    let nullable_optionals = call.shape.strict()
        && matches!(
            call.shape.format(),
            Format::OpenAi | Format::OpenAiResponses
        );
    let mut members = [Member::EMPTY; MOST_ARGUMENTS];
    let mut problems = Problems::new();
    let count = read_arguments(
        call.arguments,
        call.escaped,
        &tool.input,
        nullable_optionals,
        &mut members,
        &mut problems,
    )?;
    let parts = Parts {
        format: call.shape.format(),
        name: call.name,
        id: call.id,
    };
    if !problems.is_empty() {
        return Some(verdict::invalid(out, &parts, tool, &problems));
    }
    Some(write_valid(out, &parts, tool, &mut members[..count]))
}

/// What the request holds, as read here.
struct QuickCall<'a> {
    shape: Shape,
    /// String literals of the request, quotes included.
    name: &'a [u8],
    id: Option<&'a [u8]>,
    /// The arguments object: as JSON text inside a string literal (quotes excluded) when
    /// `escaped`, else in place.
    arguments: &'a [u8],
    escaped: bool,
}

const FIELDS: [&str; 4] = ["op", "format", "strict", "call"];

fn read_request(input: &[u8]) -> Option<QuickCall<'_>> {
    if input.len() > crate::error::MAX_INPUT {
        return None;
    }
    let (mut op, mut format, mut strict) = (false, None, None);
    let mut call: Option<(Format, Envelope<'_>)> = None;
    let mut at = after(input, 0, b'{')?;
    loop {
        let (field, end) = word(input, at, &FIELDS)?;
        at = after(input, end, b':')?;
        at = skip_whitespace(input, at);
        at = match field {
            0 if !op => {
                let (_, end) = word(input, at, &["check_call"])?;
                op = true;
                end
            }
            1 if format.is_none() => {
                let (index, end) = word(input, at, &Format::NAMES)?;
                format = Some(Format::ALL[index]);
                end
            }
            2 if strict.is_none() => match input.get(at..)? {
                [b't', b'r', b'u', b'e', ..] => {
                    strict = Some(true);
                    at + 4
                }
                [b'f', b'a', b'l', b's', b'e', ..] => {
                    strict = Some(false);
                    at + 5
                }
                _ => return None,
            },
            3 if call.is_none() => {
                // The envelope depends on the format; one that comes later must agree.
                let assumed = format.unwrap_or(Format::OpenAi);
                let (envelope, end) = read_envelope(input, at, assumed)?;
                call = Some((assumed, envelope));
                end
            }
            _ => return None,
        };
        at = skip_whitespace(input, at);
        match input.get(at) {
            Some(b',') => at += 1,
            Some(b'}') => break,
            _ => return None,
        }
    }
    if !op || skip_whitespace(input, at + 1) != input.len() {
        return None;
    }
    let (assumed, envelope) = call?;
    let format = format.unwrap_or(Format::OpenAi);
    if assumed != format {
        return None;
    }
    let shape = Shape::new(format, strict.unwrap_or(false))?;
    Some(QuickCall {
        shape,
        name: envelope.name?,
        id: envelope.id,
        arguments: envelope.arguments?,
        escaped: envelope.escaped,
    })
}

#[derive(Default)]
struct Envelope<'a> {
    name: Option<&'a [u8]>,
    id: Option<&'a [u8]>,
    arguments: Option<&'a [u8]>,
    escaped: bool,
    type_seen: bool,
    function_seen: bool,
}

/// What an envelope key holds, here.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Name,
    Id,
    Text,
    Value,
    Constant(&'static str),
    Function,
    Skip,
}

/// The envelope at `at`, read for `format` (see `call.rs` for each format's fields and their
/// sources), and the offset just past it. Fields other than the named ones are skipped when
/// their values are strings, numbers or literals.
fn read_envelope(input: &[u8], at: usize, format: Format) -> Option<(Envelope<'_>, usize)> {
    let mut envelope = Envelope::default();
    let end = read_object(input, at, format, false, &mut envelope)?;
    let complete = match format {
        Format::OpenAi => envelope.id.is_some() && envelope.type_seen && envelope.function_seen,
        Format::OpenAiResponses | Format::Anthropic => envelope.id.is_some() && envelope.type_seen,
        Format::Gemini | Format::Mcp => true,
    };
    if !complete || envelope.name.is_none() {
        return None;
    }
    if envelope.arguments.is_none() {
        match format {
            Format::Gemini | Format::Mcp => envelope.arguments = Some(b"{}"),
            _ => return None,
        }
    }
    Some((envelope, end))
}

fn role(format: Format, function: bool, key: &[u8]) -> Role {
    let fields: &[(&str, Role)] = match (format, function) {
        (Format::OpenAi, false) => &[
            ("id", Role::Id),
            ("type", Role::Constant("function")),
            ("function", Role::Function),
        ],
        (Format::OpenAi, true) => &[("name", Role::Name), ("arguments", Role::Text)],
        (Format::OpenAiResponses, _) => &[
            ("type", Role::Constant("function_call")),
            ("call_id", Role::Id),
            ("name", Role::Name),
            ("arguments", Role::Text),
        ],
        (Format::Anthropic, _) => &[
            ("type", Role::Constant("tool_use")),
            ("id", Role::Id),
            ("name", Role::Name),
            ("input", Role::Value),
        ],
        (Format::Gemini, _) => &[
            ("name", Role::Name),
            ("args", Role::Value),
            ("id", Role::Id),
        ],
        (Format::Mcp, _) => &[("name", Role::Name), ("arguments", Role::Value)],
    };
    fields
        .iter()
        .find(|(name, _)| same(name.as_bytes(), key))
        .map_or(Role::Skip, |&(_, role)| role)
}

/// Byte equality for short words, eight bytes at a time and inline: a call to `memcmp` per
/// comparison was a fifth of this path's time.
#[inline(always)]
fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i + 8 <= a.len() {
        let x = u64::from_le_bytes(a[i..i + 8].try_into().unwrap_or([0; 8]));
        let y = u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or([0; 8]));
        if x != y {
            return false;
        }
        i += 8;
    }
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The property of a flat object that `key` (plain ASCII) names.
#[inline]
fn property_index(object: &Schema, key: &[u8]) -> Option<usize> {
    object
        .properties
        .iter()
        .position(|property| same(property.name.as_bytes(), key))
}

/// One envelope object (OpenAI's `function` is the only nested one); the offset past its `}`.
fn read_object<'a>(
    input: &'a [u8],
    at: usize,
    format: Format,
    function: bool,
    envelope: &mut Envelope<'a>,
) -> Option<usize> {
    let mut at = after(input, at, b'{')?;
    let mut seen = 0u8;
    if input.get(skip_whitespace(input, at)) == Some(&b'}') {
        return Some(skip_whitespace(input, at) + 1);
    }
    loop {
        at = skip_whitespace(input, at);
        let (key, end) = plain_string(input, at)?;
        at = after(input, end, b':')?;
        at = skip_whitespace(input, at);
        let role = role(format, function, &key[1..key.len() - 1]);
        if role != Role::Skip {
            let bit = match role {
                Role::Name => 1,
                Role::Id => 2,
                Role::Text | Role::Value => 4,
                Role::Constant(_) => 8,
                Role::Function | Role::Skip => 16,
            };
            if seen & bit != 0 {
                return None; // a duplicate: the general path reports it
            }
            seen |= bit;
        }
        at = match role {
            Role::Name | Role::Id => {
                let (value, end) = plain_string(input, at)?;
                if role == Role::Name {
                    envelope.name = Some(value);
                } else {
                    envelope.id = Some(value);
                }
                end
            }
            Role::Constant(constant) => {
                let (value, end) = plain_string(input, at)?;
                if !same(&value[1..value.len() - 1], constant.as_bytes()) {
                    return None;
                }
                envelope.type_seen = true;
                end
            }
            Role::Text => {
                let end = string_end(input, at)?;
                envelope.arguments = Some(&input[at + 1..end - 1]);
                envelope.escaped = true;
                end
            }
            Role::Value => {
                let end = flat_object_end(input, at)?;
                envelope.arguments = Some(&input[at..end]);
                envelope.escaped = false;
                end
            }
            Role::Function => {
                envelope.function_seen = true;
                read_object(input, at, format, true, envelope)?
            }
            Role::Skip => skip_scalar(input, at)?,
        };
        at = skip_whitespace(input, at);
        match input.get(at) {
            Some(b',') => at += 1,
            Some(b'}') => return Some(at + 1),
            _ => return None,
        }
    }
}

/// A string literal of plain ASCII at `at` (no escapes): the literal, quotes included, and the
/// offset past it.
#[inline]
fn plain_string(input: &[u8], at: usize) -> Option<(&[u8], usize)> {
    if input.get(at) != Some(&b'"') {
        return None;
    }
    let end = plain_run_end(input, at + 1);
    if input.get(end) != Some(&b'"') {
        return None;
    }
    Some((&input[at..=end], end + 1))
}

/// The offset past a string literal at `at` that may hold escapes; its bytes must otherwise be
/// plain ASCII. Escapes are only skipped here: their letters are checked, and a `\u` escape
/// sends the request the general way.
#[inline]
fn string_end(input: &[u8], at: usize) -> Option<usize> {
    if input.get(at) != Some(&b'"') {
        return None;
    }
    let mut i = at + 1;
    loop {
        i = plain_run_end(input, i);
        match input.get(i)? {
            b'"' => return Some(i + 1),
            b'\\' => match input.get(i + 1)? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => i += 2,
                _ => return None,
            },
            _ => return None,
        }
    }
}

/// A string, number or literal value at `at` (read past, not looked at): the offset past it.
fn skip_scalar(input: &[u8], at: usize) -> Option<usize> {
    match input.get(at)? {
        b'"' => string_end(input, at),
        b't' if input[at..].starts_with(b"true") => Some(at + 4),
        b'f' if input[at..].starts_with(b"false") => Some(at + 5),
        b'n' if input[at..].starts_with(b"null") => Some(at + 4),
        _ => {
            let (end, _) = integer(input, at)?;
            Some(end)
        }
    }
}

/// The end of an object at `at` whose values are all scalars (as [`skip_scalar`] reads them):
/// the arguments given in place. Their syntax is checked again as they are read.
fn flat_object_end(input: &[u8], at: usize) -> Option<usize> {
    let mut at = after(input, at, b'{')?;
    if input.get(skip_whitespace(input, at)) == Some(&b'}') {
        return Some(skip_whitespace(input, at) + 1);
    }
    loop {
        at = skip_whitespace(input, at);
        let (_, end) = plain_string(input, at)?;
        at = after(input, end, b':')?;
        at = skip_scalar(input, skip_whitespace(input, at))?;
        at = skip_whitespace(input, at);
        match input.get(at) {
            Some(b',') => at += 1,
            Some(b'}') => return Some(at + 1),
            _ => return None,
        }
    }
}

/// An integer literal at `at`: `-?(0|[1-9][0-9]*)` of at most 15 digits, so exact in a double
/// and inside ±(2^53−1), with no fraction or exponent after it; the offset past it and its
/// value. `-0` is declined: its canonical form is `0`.
#[inline]
fn integer(input: &[u8], at: usize) -> Option<(usize, i64)> {
    let negative = input.get(at) == Some(&b'-');
    let start = at + usize::from(negative);
    let mut end = start;
    let mut value: i64 = 0;
    while let Some(&digit @ b'0'..=b'9') = input.get(end) {
        value = value * 10 + i64::from(digit - b'0');
        end += 1;
        if end - start > 15 {
            return None;
        }
    }
    let digits = end - start;
    if digits == 0 || (digits > 1 && input[start] == b'0') || (negative && value == 0) {
        return None;
    }
    if matches!(input.get(end), Some(b'.' | b'e' | b'E')) {
        return None;
    }
    Some((end, if negative { -value } else { value }))
}

/// One argument, read: its property and where its value is.
#[derive(Clone, Copy)]
struct Member<'a> {
    property: u16,
    kind: Kind,
    /// A string's text (no escapes), or a number's or literal's bytes.
    bytes: &'a [u8],
}

impl Member<'_> {
    const EMPTY: Member<'static> = Member {
        property: 0,
        kind: Kind::Null,
        bytes: b"",
    };
}

/// Reads the flat arguments object and judges each member into `problems`; the number of
/// members kept for writing (`null`s are dropped). `None` declines: anything not flat and plain.
fn read_arguments<'a>(
    text: &'a [u8],
    escaped: bool,
    root: &'static Schema,
    nullable_optionals: bool,
    members: &mut [Member<'a>; MOST_ARGUMENTS],
    problems: &mut Problems<'a>,
) -> Option<usize> {
    // Models send `""` for a tool without arguments.
    let at = spaces(text, 0);
    if escaped && at == text.len() {
        return read_arguments(b"{}", false, root, nullable_optionals, members, problems);
    }
    if root.properties.len() > 64 {
        return None;
    }
    let quote: &[u8] = if escaped { b"\\\"" } else { b"\"" };
    let mut at = expect(text, at, b"{")?;
    let mut seen = 0u64;
    let mut count = 0;
    let path = crate::check::Path::EMPTY;
    if text.get(spaces(text, at)) == Some(&b'}') {
        at = spaces(text, at) + 1;
    } else {
        loop {
            at = expect(text, spaces(text, at), quote)?;
            let key_start = at;
            at = plain_run_end(text, at);
            let key_end = at;
            at = expect(text, at, quote)?;
            at = expect(text, spaces(text, at), b":")?;
            at = spaces(text, at);
            // A "literal" for messages: a slice whose first and last bytes are delimiters.
            let key_literal = &text[key_start - 1..=key_end];
            // The value's bytes are `start..stop`: a string's text, between its delimiters.
            let mut number = 0;
            let (start, stop, kind, end) = if text[at..].starts_with(quote) {
                let start = at + quote.len();
                let stop = plain_run_end(text, start);
                let end = expect(text, stop, quote)?;
                (start, stop, Kind::String, end)
            } else {
                let (stop, kind) = match text.get(at)? {
                    b't' if text[at..].starts_with(b"true") => (at + 4, Kind::True),
                    b'f' if text[at..].starts_with(b"false") => (at + 5, Kind::False),
                    b'n' if text[at..].starts_with(b"null") => (at + 4, Kind::Null),
                    _ => {
                        let (stop, value) = integer(text, at)?;
                        number = value;
                        (stop, Kind::Number)
                    }
                };
                (at, stop, kind, stop)
            };
            let value = &text[start..stop];
            let literal = match kind {
                Kind::String => &text[start - 1..=stop],
                _ => value,
            };
            at = end;
            let key = &text[key_start..key_end];
            match property_index(root, key) {
                None => problems.met(
                    &path,
                    Some(Segment::Key(key_literal)),
                    What::Unknown { object: root },
                ),
                Some(index) if seen & (1 << index) != 0 => {
                    problems.met(&path, Some(Segment::Key(key_literal)), What::Duplicate)
                }
                Some(index) => {
                    seen |= 1 << index;
                    let property = &root.properties[index];
                    let nullable = nullable_optionals && !property.required;
                    let found = Found { kind, raw: literal };
                    if let Some(what) = judge(&property.schema, nullable, found, value, number) {
                        problems.met(&path, Some(Segment::Key(key_literal)), what);
                    } else if kind != Kind::Null {
                        *members.get_mut(count)? = Member {
                            property: index as u16,
                            kind,
                            bytes: value,
                        };
                        count += 1;
                    }
                }
            }
            at = spaces(text, at);
            match text.get(at) {
                Some(b',') => at += 1,
                Some(b'}') => {
                    at += 1;
                    break;
                }
                _ => return None,
            }
        }
    }
    if spaces(text, at) != text.len() {
        return None;
    }
    for (index, property) in root.properties.iter().enumerate() {
        if property.required && seen & (1 << index) == 0 {
            problems.missing(0, index as u32, &path, property);
        }
    }
    Some(count)
}

/// The offset past `want` at `at`.
#[inline]
fn expect(text: &[u8], at: usize, want: &[u8]) -> Option<usize> {
    text[at..].starts_with(want).then_some(at + want.len())
}

/// Past spaces: the only whitespace read here (in a string literal a newline is an escape).
#[inline]
fn spaces(text: &[u8], mut at: usize) -> usize {
    while text.get(at) == Some(&b' ') {
        at += 1;
    }
    at
}

/// What is wrong with one plain value against its schema, as `check.rs` judges it: type, enum,
/// bounds. `value` is a string's text or a number's or literal's bytes.
fn judge<'a>(
    schema: &'static Schema,
    nullable: bool,
    found: Found<'a>,
    value: &[u8],
    number: i64,
) -> Option<What<'a>> {
    let wrong_type = What::WrongType {
        expected: schema,
        nullable,
        found,
    };
    let out_of_range = |bound| Some(What::OutOfRange { bound, found });
    match (schema.ty, found.kind) {
        (_, Kind::Null) if nullable => None,
        (Type::String, Kind::String) => {
            if let Some(values) = schema.enumeration {
                let listed = values.iter().any(
                    |listed| matches!(listed, Scalar::String(text) if same(text.as_bytes(), value)),
                );
                if !listed {
                    return Some(What::NotInEnum { values, found });
                }
            }
            // Plain ASCII: a byte is a character.
            let length = value.len();
            match (schema.min_length, schema.max_length) {
                (Some(min), _) if (length as u64) < min => {
                    out_of_range(Bound::MinLength(min, length))
                }
                (_, Some(max)) if length as u64 > max => {
                    out_of_range(Bound::MaxLength(max, length))
                }
                _ => None,
            }
        }
        (Type::Integer | Type::Number, Kind::Number) => {
            // At most 15 digits: exact, and within ±(2^53−1).
            let value = number as f64;
            debug_assert!(value.abs() <= MAX_SAFE_INTEGER);
            if let Some(values) = schema.enumeration {
                let listed = values
                    .iter()
                    .any(|listed| matches!(listed, Scalar::Number(n) if n.value == value));
                if !listed {
                    return Some(What::NotInEnum { values, found });
                }
            }
            match (schema.minimum, schema.maximum) {
                (Some(min), _) if value < min.value => out_of_range(Bound::Minimum(min.text)),
                (_, Some(max)) if value > max.value => out_of_range(Bound::Maximum(max.text)),
                _ => None,
            }
        }
        (Type::Boolean, Kind::True | Kind::False) => None,
        _ => Some(wrong_type),
    }
}

/// `{"arguments":A,"id":I,"name":N,"ok":true}` with the members sorted by property.
fn write_valid(
    out: &mut impl Write,
    parts: &Parts<'_>,
    tool: &'static Tool,
    members: &mut [Member<'_>],
) -> io::Result<()> {
    members.sort_unstable_by_key(|member| member.property);
    out.write_all(b"{\"arguments\":{")?;
    for (i, member) in members.iter().enumerate() {
        out.write_all(if i == 0 { b"\"" } else { b",\"" })?;
        out.write_all(
            tool.input.properties[usize::from(member.property)]
                .name
                .as_bytes(),
        )?;
        if member.kind == Kind::String {
            out.write_all(b"\":\"")?;
            out.write_all(member.bytes)?;
            out.write_all(b"\"")?;
        } else {
            out.write_all(b"\":")?;
            out.write_all(member.bytes)?;
        }
    }
    // The id and name are plain literals here: they are their own canonical form.
    match parts.id {
        Some(id) => {
            out.write_all(b"},\"id\":")?;
            out.write_all(id)?;
            out.write_all(b",\"name\":")?;
        }
        None => out.write_all(b"},\"name\":")?,
    }
    out.write_all(parts.name)?;
    out.write_all(b",\"ok\":true}\n")
}

/// The offset just past `byte`, which must come at `at` or after whitespace.
#[inline(always)]
fn after(input: &[u8], at: usize, byte: u8) -> Option<usize> {
    let at = skip_whitespace(input, at);
    (input.get(at) == Some(&byte)).then_some(at + 1)
}

/// Which of `words` the string literal at `at` (after whitespace) spells exactly, and the offset
/// past it. Only for plain ASCII words.
#[inline(always)]
fn word<const N: usize>(input: &[u8], at: usize, words: &[&str; N]) -> Option<(usize, usize)> {
    let at = skip_whitespace(input, at);
    let (literal, end) = plain_string(input, at)?;
    let inner = &literal[1..literal.len() - 1];
    let index = words.iter().position(|word| same(word.as_bytes(), inner))?;
    Some((index, end))
}

/// Debug builds: the general path gives the same bytes for a call answered here.
#[cfg(debug_assertions)]
pub(crate) fn agrees_with_general(input: &[u8]) {
    let mut quick = [0u8; 16 * 1024];
    let mut general = [0u8; 16 * 1024];
    let mut quick_out = &mut quick[..];
    let mut general_out = &mut general[..];
    let quick_written = answer(input, &mut quick_out).map(|result| result.is_ok());
    let request = crate::request::parse_general(input);
    let Ok(crate::request::Request {
        op: crate::request::Op::CheckCall { call },
        shape,
    }) = request
    else {
        panic!("the general path refuses a call the quick one answers: {input:?}");
    };
    let general_written = verdict::answer(input, &call, shape, &mut general_out).is_ok();
    if quick_written == Some(true) && general_written {
        let (quick_len, general_len) = (16 * 1024 - quick_out.len(), 16 * 1024 - general_out.len());
        assert_eq!(
            String::from_utf8_lossy(&quick[..quick_len]),
            String::from_utf8_lossy(&general[..general_len]),
            "the quick and general paths answer differently: {input:?}"
        );
    }
}
