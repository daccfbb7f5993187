//! Checked arguments in canonical form, RFC 8785 (JCS): keys sorted, no whitespace, strings
//! escaped as the writer escapes them, numbers as ECMAScript writes them.
//!
//! Keys are the catalog's property names, plain ASCII, so their byte order is JCS's UTF-16 order,
//! and sorting an object is sorting its members by property index. Only objects reorder; the
//! members of one object are gathered into a scratch array, sorted, and written, and each
//! value is read again where it starts. Recursion follows the schema (the catalog's deepest
//! path, see `catalog::MAX_NESTING`, or a run-time catalog's), never the input: the arguments have been checked against
//! that schema already.

use crate::check::{number, property_index};
use crate::schema::{Model, Schema, Type};
use crate::sink::escape;
use crate::tokenizer::{backslash_from, pieces, Kind, Piece, Stop, Tokenizer};
use std::cmp::Ordering;
use std::io::{self, Write};

/// Writes the value of `schema` that starts at `at` in `arguments` (checked, so valid JSON of
/// the schema's types) in canonical form. A `null` member is left out: the checker accepts one
/// only for an optional property that the declaration made nullable, and it means "not given".
///
/// `PROPERTIES` is the most properties along any path of the catalog's flat tools: the
/// compiled-in catalog's own count, or a bound that a catalog read at run time is held to.
pub(crate) fn value<const PROPERTIES: usize>(
    out: &mut impl Write,
    model: Model<'_>,
    arguments: &[u8],
    at: usize,
    schema: &Schema,
) -> io::Result<()> {
    let mut scratch = [(0u32, 0u32); PROPERTIES];
    write_value(out, model, arguments, at, schema, &mut scratch)
}

fn write_value(
    out: &mut impl Write,
    model: Model<'_>,
    arguments: &[u8],
    at: usize,
    schema: &Schema,
    scratch: &mut [(u32, u32)],
) -> io::Result<()> {
    let mut tokens = Tokenizer::new(&arguments[at..]);
    let Ok(first) = tokens.expect_token() else {
        return Err(unexpected());
    };
    match first.kind {
        Kind::String => string(out, first.raw),
        Kind::Number => write_number(out, number(first.raw)),
        Kind::True | Kind::False | Kind::Null => out.write_all(first.raw),
        Kind::ArrayStart => {
            let items = model.node(schema.items.ok_or_else(unexpected)?);
            out.write_all(b"[")?;
            let mut written = 0;
            loop {
                let item = tokens.expect_token().map_err(|Stop| unexpected())?;
                if item.kind == Kind::ArrayEnd {
                    break;
                }
                if written > 0 {
                    out.write_all(b",")?;
                }
                write_value(out, model, arguments, at + item.at, items, scratch)?;
                tokens.skip(item).map_err(|Stop| unexpected())?;
                written += 1;
            }
            out.write_all(b"]")
        }
        Kind::ObjectStart if schema.ty == Type::Object && !schema.has_properties => {
            // A free-form object: its members as they are, in canonical order.
            // No node below a free-form object: nothing is matched.
            any_value(out, model, &|_, _| true, None, arguments, at, false)
        }
        Kind::ObjectStart if schema.ty == Type::Object => {
            let mut members = 0;
            loop {
                let key = tokens.expect_token().map_err(|Stop| unexpected())?;
                if key.kind == Kind::ObjectEnd {
                    break;
                }
                let value = tokens.expect_token().map_err(|Stop| unexpected())?;
                let index = property_index(model, schema, key.raw).ok_or_else(unexpected)?;
                if value.kind != Kind::Null {
                    let slot = scratch.get_mut(members).ok_or_else(unexpected)?;
                    *slot = (index as u32, (at + value.at) as u32);
                    members += 1;
                }
                tokens.skip(value).map_err(|Stop| unexpected())?;
            }
            let (mine, rest) = scratch.split_at_mut(members);
            mine.sort_unstable();
            out.write_all(b"{")?;
            for (i, &(index, value_at)) in mine.iter().enumerate() {
                let property = &model.properties(schema)[index as usize];
                out.write_all(if i == 0 { b"\"" } else { b",\"" })?;
                out.write_all(model.str(property.name).as_bytes())?;
                out.write_all(b"\":")?;
                write_value(
                    out,
                    model,
                    arguments,
                    value_at as usize,
                    model.node(property.schema),
                    rest,
                )?;
            }
            out.write_all(b"}")
        }
        _ => Err(unexpected()),
    }
}

/// Checked arguments are never malformed; this keeps the writer total all the same.
#[cold]
fn unexpected() -> io::Error {
    io::ErrorKind::InvalidData.into()
}

/// A string literal from a valid document, written again with the writer's escapes: what needs
/// no escape is copied as it is, and each escape is decoded, then escaped again only if the
/// writer would (`\/` becomes `/`, `\u00e9` becomes `é`, `\u001F` becomes `\u001f`).
pub(crate) fn string(out: &mut impl Write, literal: &[u8]) -> io::Result<()> {
    let inner = literal
        .get(1..literal.len().saturating_sub(1))
        .unwrap_or(b"");
    // Eight bytes a step: `contains` went a byte at a time, and an invalid call's answer spells
    // its id twice (issue 17, the 3-problems call).
    if backslash_from(inner, 0) == inner.len() {
        // Nothing to decode, and nothing the writer escapes can stand unescaped in a literal.
        return out.write_all(literal);
    }
    out.write_all(b"\"")?;
    pieces(literal, |piece| match piece {
        Piece::Plain(bytes) => out.write_all(bytes),
        Piece::Escaped(c) => {
            let mut utf8 = [0; 4];
            match c.encode_utf8(&mut utf8).as_bytes() {
                [byte] if escape(*byte).1 > 0 => {
                    let (escaped, len) = escape(*byte);
                    out.write_all(&escaped[..len])
                }
                bytes => out.write_all(bytes),
            }
        }
    })?;
    out.write_all(b"\"")
}

/// A finite number as ECMAScript's `Number.prototype.toString` writes it, which JCS adopts
/// (RFC 8785 section 3.2.2.3): the shortest digits that read back as the same double, in plain
/// notation from 1e-6 up to 1e21 and in exponent notation (`1e+21`, `1.5e-7`) outside that.
/// `-0` is `0`.
pub(crate) fn write_number(out: &mut impl Write, value: f64) -> io::Result<()> {
    // The checkers refuse a number beyond a 64-bit float before any is written; were one to
    // get here, an error beats the `0` that its digits (`inf`) would make.
    if !value.is_finite() {
        return Err(unexpected());
    }
    if value == 0.0 {
        return out.write_all(b"0");
    }
    // Rust's `{:e}` gives the shortest round-tripping digits: `d[.ddd]e[-]x`.
    let mut text = Text {
        bytes: [0; 40],
        len: 0,
    };
    use std::fmt::Write as _;
    let _ = write!(text, "{:e}", value.abs());
    let text = &text.bytes[..text.len];
    let e_at = text.iter().position(|&b| b == b'e').unwrap_or(text.len());
    let (mantissa, exponent) = text.split_at(e_at);
    let mut digits = [0u8; 20];
    let mut k = 0;
    for &byte in mantissa {
        if byte.is_ascii_digit() {
            if let Some(slot) = digits.get_mut(k) {
                *slot = byte;
                k += 1;
            }
        }
    }
    let digits = &digits[..k];
    let exponent: i32 = std::str::from_utf8(exponent.get(1..).unwrap_or(b"0"))
        .ok()
        .and_then(|e| e.parse().ok())
        .unwrap_or(0);
    // ECMAScript's n: the value is 0.d1d2...dk × 10^n.
    let n = exponent + 1;
    let k = k as i32;
    if value < 0.0 {
        out.write_all(b"-")?;
    }
    if k <= n && n <= 21 {
        out.write_all(digits)?;
        for _ in 0..n - k {
            out.write_all(b"0")?;
        }
    } else if 0 < n && n <= 21 {
        let (whole, fraction) = digits.split_at(n as usize);
        out.write_all(whole)?;
        out.write_all(b".")?;
        out.write_all(fraction)?;
    } else if -6 < n && n <= 0 {
        out.write_all(b"0.")?;
        for _ in 0..-n {
            out.write_all(b"0")?;
        }
        out.write_all(digits)?;
    } else {
        let (first, rest) = digits.split_at(1);
        out.write_all(first)?;
        if !rest.is_empty() {
            out.write_all(b".")?;
            out.write_all(rest)?;
        }
        let sign: &[u8] = if n - 1 < 0 { b"e-" } else { b"e+" };
        out.write_all(sign)?;
        let mut exponent = Text {
            bytes: [0; 40],
            len: 0,
        };
        let _ = write!(exponent, "{}", (n - 1).unsigned_abs());
        out.write_all(&exponent.bytes[..exponent.len])?;
    }
    Ok(())
}

/// A few bytes of formatted text on the stack.
struct Text {
    bytes: [u8; 40],
    len: usize,
}

impl std::fmt::Write for Text {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        self.bytes
            .get_mut(self.len..end)
            .ok_or(std::fmt::Error)?
            .copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// Writes the value that starts at `at` in `arguments`, already checked against node `id` by
/// `validate.rs`, in canonical form, whatever its schema: object members sorted by their keys'
/// UTF-16 code units (RFC 8785 section 3.2.3), found one at a time as the smallest key after
/// the last one written, so no member list is kept. The schema is followed where it says which
/// node a part has (properties, `items`, `additionalProperties`, a reference, the first branch
/// of a union that fits), only to leave out the `null` of an optional property that OpenAI
/// strict made nullable, which means "not given".
pub(crate) fn any_value(
    out: &mut impl Write,
    model: crate::schema::Model<'_>,
    patterns: crate::validate::Matcher<'_>,
    id: Option<crate::schema::NodeId>,
    arguments: &[u8],
    at: usize,
    nullable_optionals: bool,
) -> io::Result<()> {
    let id = id.map(|id| {
        crate::validate::resolve(model, patterns, id, &arguments[at..], nullable_optionals)
    });
    let mut tokens = Tokenizer::new(&arguments[at..]);
    let first = tokens.expect_token().map_err(|Stop| unexpected())?;
    match first.kind {
        Kind::String => string(out, first.raw),
        Kind::Number => write_number(out, number(first.raw)),
        Kind::True | Kind::False | Kind::Null => out.write_all(first.raw),
        Kind::ArrayStart => {
            out.write_all(b"[")?;
            let mut index = 0;
            loop {
                let item = tokens.expect_token().map_err(|Stop| unexpected())?;
                if item.kind == Kind::ArrayEnd {
                    break;
                }
                if index > 0 {
                    out.write_all(b",")?;
                }
                let node = id.and_then(|id| crate::validate::item_node(model, id, index));
                any_value(
                    out,
                    model,
                    patterns,
                    node,
                    arguments,
                    at + item.at,
                    nullable_optionals,
                )?;
                tokens.skip_any_depth(item).map_err(|Stop| unexpected())?;
                index += 1;
            }
            out.write_all(b"]")
        }
        Kind::ObjectStart => {
            out.write_all(b"{")?;
            // The members in key order: gathered in one reading and sorted when they fit on
            // the stack (re-reading the object once per member was a tenth of a union's call,
            // perf); otherwise the smallest key after the last one, one reading per member.
            let mut gathered = [(&b""[..], 0usize); GATHERED_MEMBERS];
            let mut count = 0;
            let mut members = Tokenizer::new(&arguments[at..]);
            members.expect_token().map_err(|Stop| unexpected())?;
            loop {
                let key = members.expect_token().map_err(|Stop| unexpected())?;
                if key.kind == Kind::ObjectEnd {
                    break;
                }
                let value = members.expect_token().map_err(|Stop| unexpected())?;
                if let Some(slot) = gathered.get_mut(count) {
                    *slot = (key.raw, at + value.at);
                }
                count += 1;
                members.skip_any_depth(value).map_err(|Stop| unexpected())?;
            }
            let mut gathered = gathered.get_mut(..count);
            if let Some(sorted) = gathered.as_deref_mut() {
                insertion_sort(sorted);
            }
            let mut last: Option<&[u8]> = None;
            let mut written = 0;
            let mut round = 0;
            loop {
                let next = match gathered.as_deref() {
                    Some(sorted) => sorted.get(round).copied(),
                    None => next_member(arguments, at, last)?,
                };
                round += 1;
                let Some((key, value_at)) = next else {
                    break;
                };
                // Of equal keys (refused by the check), the first alone is written.
                if last.is_some_and(|last| utf16_order(key, last) == Ordering::Equal) {
                    continue;
                }
                last = Some(key);
                let (node, optional) = match id {
                    Some(id) => crate::validate::member_node(model, id, key),
                    None => (None, false),
                };
                let is_null = arguments.get(value_at) == Some(&b'n');
                if is_null
                    && optional
                    && nullable_optionals
                    && !node.is_some_and(|node| crate::validate::admits_null(model, patterns, node))
                {
                    continue;
                }
                if written > 0 {
                    out.write_all(b",")?;
                }
                string(out, key)?;
                out.write_all(b":")?;
                any_value(
                    out,
                    model,
                    patterns,
                    node,
                    arguments,
                    value_at,
                    nullable_optionals,
                )?;
                written += 1;
            }
            out.write_all(b"}")
        }
        _ => Err(unexpected()),
    }
}

/// The most members of one object [`any_value`] sorts on the stack.
const GATHERED_MEMBERS: usize = 32;

/// The member of the object at `at` whose key comes first after `last`, in key order: one
/// reading of the object, for objects of more than [`GATHERED_MEMBERS`].
fn next_member<'a>(
    arguments: &'a [u8],
    at: usize,
    last: Option<&[u8]>,
) -> io::Result<Option<(&'a [u8], usize)>> {
    let mut next: Option<(&[u8], usize)> = None;
    let mut members = Tokenizer::new(&arguments[at..]);
    members.expect_token().map_err(|Stop| unexpected())?;
    loop {
        let key = members.expect_token().map_err(|Stop| unexpected())?;
        if key.kind == Kind::ObjectEnd {
            return Ok(next);
        }
        let value = members.expect_token().map_err(|Stop| unexpected())?;
        let after_last = last.is_none_or(|last| utf16_order(key.raw, last) == Ordering::Greater);
        let before_next = next.is_none_or(|(next, _)| utf16_order(key.raw, next) == Ordering::Less);
        if after_last && before_next {
            next = Some((key.raw, at + value.at));
        }
        members.skip_any_depth(value).map_err(|Stop| unexpected())?;
    }
}

/// Sorts members by key, stably (equal keys keep their order), without allocating.
fn insertion_sort(members: &mut [(&[u8], usize)]) {
    for i in 1..members.len() {
        let mut j = i;
        while j > 0 && utf16_order(members[j - 1].0, members[i].0) == Ordering::Greater {
            j -= 1;
        }
        members[j..=i].rotate_right(1);
    }
}

/// Two string literals' texts in the order of their UTF-16 code units.
fn utf16_order(a: &[u8], b: &[u8]) -> Ordering {
    // UTF-8's byte order is the code points' order, which is UTF-16's but where a character
    // from U+E000 meets one past U+FFFF (a surrogate in UTF-16). Their lead bytes are 0xEE and
    // up; no other byte of UTF-8 is. So texts without escapes or such bytes compare as bytes.
    if let (Some(x), Some(y)) = (
        crate::validate::plain_inside(a),
        crate::validate::plain_inside(b),
    ) {
        if x.iter().chain(y).all(|&byte| byte < 0xEE) {
            return x.cmp(y);
        }
    }
    let units = |literal| {
        crate::validate::chars(literal).flat_map(|c| {
            let mut buffer = [0u16; 2];
            let len = c.encode_utf16(&mut buffer).len();
            (0..len).map(move |i| buffer[i])
        })
    };
    units(a).cmp(units(b))
}

#[cfg(test)]
mod tests {
    use super::any_value;

    /// A union of objects, as pydantic writes a discriminated union: `oneOf` of `$ref`s.
    const CATALOG: &[u8] = br##"[{"name":"notify","description":"Sends a note.","inputSchema":{
        "type":"object",
        "$defs":{
            "Email":{"type":"object","properties":{"kind":{"type":"string","const":"email"}},
                "required":["kind"]},
            "Slack":{"type":"object","properties":{"kind":{"type":"string","const":"slack"},
                "here":{"type":"boolean"}},"required":["kind"]}},
        "properties":{"channel":{"oneOf":[{"$ref":"#/$defs/Email"},{"$ref":"#/$defs/Slack"}]}},
        "required":["channel"]}}]"##;

    fn canonical(arguments: &[u8], nullable_optionals: bool) -> String {
        let catalog = crate::catalog_file::read(CATALOG).unwrap();
        let model = catalog.model();
        let input = model.tools[0].input;
        let patterns = |_: crate::schema::Text, _: &str| true;
        let failure =
            crate::validate::check(model, &patterns, input, arguments, nullable_optionals);
        assert!(failure.is_none(), "{failure:?}");
        let mut out = Vec::new();
        any_value(
            &mut out,
            model,
            &patterns,
            Some(input),
            arguments,
            0,
            nullable_optionals,
        )
        .unwrap();
        String::from_utf8(out).unwrap()
    }

    /// A free-form object's members, in UTF-16 order: a character past U+FFFF (a surrogate pair,
    /// 0xD83D...) before U+E000, though its UTF-8 bytes come after; escaped keys by their
    /// characters; the first of equal keys. With more members than are sorted on the stack,
    /// the one-reading-per-member order gives the same bytes.
    #[test]
    fn members_are_written_in_utf16_order_however_many() {
        let free = |arguments: &str| {
            let mut out = Vec::new();
            let patterns = |_: crate::schema::Text, _: &str| true;
            let model = crate::catalog::MODEL;
            any_value(
                &mut out,
                model,
                &patterns,
                None,
                arguments.as_bytes(),
                0,
                false,
            )
            .unwrap();
            String::from_utf8(out).unwrap()
        };
        assert_eq!(
            free(r#"{"\uE000":1,"b":2,"\u0061":3,"😀":4,"b":5,"":6}"#),
            "{\"\":6,\"a\":3,\"b\":2,\"😀\":4,\"\u{e000}\":1}"
        );
        for count in [31, 32, 33, 40] {
            let mut keys: Vec<String> = (0..count)
                .map(|i| format!("k{:02}", (i * 7) % count))
                .collect();
            keys.extend([r"\u00e9".to_string(), "\u{e001}".into(), "🎉".into()]);
            let given: Vec<String> = keys
                .iter()
                .enumerate()
                .map(|(i, key)| format!("\"{key}\":{i}"))
                .collect();
            let written = free(&format!("{{{}}}", given.join(",")));
            let mut decoded: Vec<(Vec<u16>, String)> = keys
                .iter()
                .enumerate()
                .map(|(i, key)| {
                    let text = key.replace(r"\u00e9", "é");
                    (text.encode_utf16().collect(), format!("\"{text}\":{i}"))
                })
                .collect();
            decoded.sort();
            let want: Vec<String> = decoded.into_iter().map(|(_, member)| member).collect();
            assert_eq!(
                written,
                format!("{{{}}}", want.join(",")),
                "{count} members"
            );
        }
    }

    /// Found by the check_call fuzz target over the pydantic catalog: the branch an object
    /// belongs to was chosen without OpenAI strict's nullable optionals, so an object whose
    /// optional property was `null` fitted no branch, and its `null` was kept.
    #[test]
    fn a_null_optional_in_a_branch_of_a_union_is_dropped_under_openai_strict() {
        let arguments = br#"{"channel":{"here":null,"kind":"slack"}}"#;
        assert_eq!(
            canonical(arguments, true),
            r#"{"channel":{"kind":"slack"}}"#
        );
        let given = br#"{"channel":{"here":true,"kind":"slack"}}"#;
        assert_eq!(
            canonical(given, true),
            r#"{"channel":{"here":true,"kind":"slack"}}"#
        );
    }
}
