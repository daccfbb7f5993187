//! An argument that is an object or an array, read and judged in place for `quick_call.rs`, and
//! written in canonical form (RFC 8785).
//!
//! A coding agent's calls nest: seed 003's `todo_write` takes an array of objects, an MCP
//! filesystem server's `edit_file` an array of edits. Their tools are flat in `check.rs`'s sense
//! (one type a node, `properties`, `items`, enums and bounds), and the quick path used to decline
//! them at the first `{` or `[`, leaving the general path to read the call five times. Here such
//! a value is read once to judge it, each scalar by `check::scalar` as the checker judges it.
//! A model mostly writes it compact and in its properties' order, and then the same reading
//! writes its canonical form into the call's room ([`Room`], [`Layout::Whole`]); a value
//! spelled otherwise is read once more to write it ([`write`]), its strings run by run through
//! `escaped_value.rs`.
//!
//! Only valid values are answered here. A problem anywhere inside, or anything this reader does
//! not read (a fraction, a `\u` escape of the request's, whitespace other than spaces, an
//! object of more than [`MOST_MEMBERS`] properties, nesting deeper than [`DEEPEST`]), declines,
//! and the general path answers with its messages: the debug builds hold every answer given
//! here to the general path's bytes. The recursion is bounded by [`DEEPEST`], so the stack is
//! too, whatever the input.

use crate::check;
use crate::escaped_value::{self, Reading};
use crate::schema::{Model, Property, Schema, Type};
use crate::tokenizer::{plain_run_end, same, Kind, Token};
use std::io::{self, Write};

/// The deepest nesting read here, an argument's own `{` or `[` being the first level.
pub(crate) const DEEPEST: usize = 8;

/// The most properties of a nested object read here: its members are gathered in a fixed array
/// to be written in order.
pub(crate) const MOST_MEMBERS: usize = 16;

/// How a value read here is laid out in the text, which decides how it is written: the least
/// of its parts'. The order is the derived one: `Gathered < InOrder < Whole`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Layout {
    /// An object in it gave its members out of its properties' order: [`write`] gathers them.
    /// First, so that an unset member (`quick_call::Member::EMPTY`) is zeros.
    Gathered,
    /// Every object in it gave its members in its properties' order, the canonical order,
    /// which the declarations show a model: [`write`] writes each as it reads it.
    InOrder,
    /// In order, and nothing but its canonical tokens: no whitespace, no `null` member to leave
    /// out, no escape but those spelled twice in a string argument. Its canonical form is then
    /// its text with the request's level of escapes taken off ([`write_whole`]): a model's
    /// compact JSON most often is.
    Whole,
}

/// Where [`read`] writes the canonical form of a value in a string argument's text as it reads
/// it, for when it finds the value [`Layout::Whole`]: that form is the text with one level of
/// escapes taken off, and writing it in the reading that judges it saves a second scan that
/// stops at every `\"` ([`write_whole`]; perf put a third of `todo_write`'s time there). What
/// is written for a value found otherwise is not used. Eight bytes past what is written are
/// needed, as [`escaped_value::read_into`] needs them: the call's room has them.
pub(crate) struct Room<'r> {
    bytes: &'r mut [u8],
    /// How many bytes are written, or `usize::MAX` once the room ran out.
    len: usize,
}

impl<'r> Room<'r> {
    /// A room over `bytes`; empty, it takes nothing, and the value is written again later.
    pub(crate) fn new(bytes: &'r mut [u8]) -> Room<'r> {
        let len = if bytes.is_empty() { usize::MAX } else { 0 };
        Room { bytes, len }
    }

    /// How many bytes the value's canonical form took, if the room held all of it.
    pub(crate) fn written(&self) -> Option<usize> {
        (self.len != usize::MAX).then_some(self.len)
    }

    /// Writes `text[from..from + count]`, a key's name, a number or a literal: eight bytes a
    /// step while both sides have them, so that a short copy is not a `memcpy` call, as a
    /// `copy_from_slice` of a length known only at run time is (`escape_at`'s showed in
    /// callgrind). Not timed against such a call.
    #[inline(always)]
    fn put(&mut self, text: &[u8], from: usize, count: usize) {
        let Some(to) = self.bytes.get_mut(self.len..) else {
            return;
        };
        let mut k = 0;
        while k < count {
            match (text.get(from + k..from + k + 8), to.get_mut(k..k + 8)) {
                (Some(word), Some(slot)) => slot.copy_from_slice(word),
                _ => match (text.get(from + k..from + count), to.get_mut(k..count)) {
                    (Some(rest), Some(slot)) => {
                        slot.copy_from_slice(rest);
                        break;
                    }
                    _ => {
                        self.len = usize::MAX;
                        return;
                    }
                },
            }
            k += 8;
        }
        self.len += count;
    }

    /// Writes one byte of structure.
    #[inline(always)]
    fn byte(&mut self, byte: u8) {
        match self.bytes.get_mut(self.len) {
            Some(slot) => {
                *slot = byte;
                self.len += 1;
            }
            None => self.len = usize::MAX,
        }
    }

    /// Reads the string whose inside starts at `start` as [`escaped_value::inside_end`] does,
    /// writing it, delimiters included, while the room holds it.
    #[inline(always)]
    fn string<const ESCAPED: bool>(&mut self, text: &[u8], start: usize) -> Option<(usize, bool)> {
        if !ESCAPED || self.len == usize::MAX {
            return escaped_value::inside_end::<ESCAPED>(text, start);
        }
        self.byte(b'"');
        let rest = self.bytes.get_mut(self.len..).unwrap_or_default();
        match escaped_value::read_into::<ESCAPED>(text, start, rest)? {
            Reading::Written { end, len, escapes } => {
                self.len += len;
                self.byte(b'"');
                Some((end, escapes))
            }
            Reading::NoRoom => {
                self.len = usize::MAX;
                escaped_value::inside_end::<ESCAPED>(text, start)
            }
        }
    }
}

/// Reads the object or array at `at` (its `{` or `[`) against `node`, at nesting `depth`, as
/// `check.rs` would judge it: the offset past it, and its [`Layout`]; `None` declines. `ESCAPED`:
/// the text is JSON inside a string literal, each of its `"` spelled `\"`; its canonical form
/// then goes to `room` as it is read (see [`Room`]). `nullable_optionals`: OpenAI strict's
/// optional properties take `null`.
pub(crate) fn read<const ESCAPED: bool>(
    text: &[u8],
    at: usize,
    model: Model<'_>,
    node: &Schema,
    nullable_optionals: bool,
    depth: usize,
    room: &mut Room<'_>,
) -> Option<(usize, Layout)> {
    if depth > DEEPEST {
        return None;
    }
    match text.get(at)? {
        b'{' => {
            let properties = object_properties(model, node)?;
            let mut layout = Layout::Whole;
            room.byte(b'{');
            let mut at = gap(text, at + 1, &mut layout);
            let mut seen = 0u64;
            let mut next = 0;
            if text.get(at) != Some(&b'}') {
                loop {
                    let (index, value_at) =
                        key::<ESCAPED>(text, at, model, properties, next, &mut layout)?;
                    next = following(index, properties.len());
                    // `"name":`, from the text, where the name is spelled as it is written.
                    let name = at + quote::<ESCAPED>().len();
                    room.byte(b'"');
                    room.put(text, name, model.bytes(properties[index].name).len());
                    room.byte(b'"');
                    room.byte(b':');
                    // A later property seen already: out of order, or a duplicate.
                    if seen >> index > 1 {
                        layout = Layout::Gathered;
                    }
                    if seen & (1 << index) != 0 {
                        return None;
                    }
                    seen |= 1 << index;
                    let property = &properties[index];
                    let nullable = nullable_optionals && !property.required;
                    let child = model.node(property.schema);
                    let (end, inside) = value::<ESCAPED>(
                        text,
                        value_at,
                        model,
                        child,
                        nullable,
                        nullable_optionals,
                        depth,
                        room,
                    )?;
                    layout = layout.min(inside);
                    // [`write`] leaves a `null` member out.
                    if text.get(value_at) == Some(&b'n') {
                        layout = layout.min(Layout::InOrder);
                    }
                    at = gap(text, end, &mut layout);
                    match text.get(at)? {
                        b',' => at = gap(text, at + 1, &mut layout),
                        b'}' => break,
                        _ => return None,
                    }
                    room.byte(b',');
                }
            }
            let missing = properties
                .iter()
                .enumerate()
                .any(|(index, property)| property.required && seen & (1 << index) == 0);
            room.byte(b'}');
            (!missing).then_some((at + 1, layout))
        }
        b'[' => {
            if node.ty != Type::Array {
                return None;
            }
            let element = model.node(node.items?);
            let mut layout = Layout::Whole;
            room.byte(b'[');
            let mut at = gap(text, at + 1, &mut layout);
            let mut items = 0u64;
            if text.get(at) != Some(&b']') {
                loop {
                    let (end, item) = value::<ESCAPED>(
                        text,
                        at,
                        model,
                        element,
                        false,
                        nullable_optionals,
                        depth,
                        room,
                    )?;
                    layout = layout.min(item);
                    items += 1;
                    at = gap(text, end, &mut layout);
                    match text.get(at)? {
                        b',' => at = gap(text, at + 1, &mut layout),
                        b']' => break,
                        _ => return None,
                    }
                    room.byte(b',');
                }
            }
            let rare = model.rare(node);
            let counted = rare.min_items.is_none_or(|min| items >= min)
                && rare.max_items.is_none_or(|max| items <= max);
            room.byte(b']');
            counted.then_some((at + 1, layout))
        }
        _ => None,
    }
}

/// The properties of an object node this reader takes: declared (a free-form object's members
/// are any), and few enough for the writer's fixed array.
fn object_properties<'m>(model: Model<'m>, node: &Schema) -> Option<&'m [Property]> {
    let properties = model.properties(node);
    (node.ty == Type::Object && node.has_properties && properties.len() <= MOST_MEMBERS)
        .then_some(properties)
}

/// [`spaces`], noting in `layout` that the text is not its canonical form when there were any.
#[inline(always)]
fn gap(text: &[u8], at: usize, layout: &mut Layout) -> usize {
    let end = spaces(text, at);
    if end != at {
        *layout = (*layout).min(Layout::InOrder);
    }
    end
}

/// The key at `at` (a plain ASCII name, closed by its quote): its property's index, and where
/// its value starts. `next` is the index of the property expected (below the count); spaces
/// around the `:` are noted in `layout`.
#[inline(always)]
fn key<const ESCAPED: bool>(
    text: &[u8],
    at: usize,
    model: Model<'_>,
    properties: &[Property],
    next: usize,
    layout: &mut Layout,
) -> Option<(usize, usize)> {
    // Mostly the key is the property expected, spelled compactly (`"name":` then the value):
    // that is tried here, inline, and the search for any other key is out of line. Called
    // whole for every key, the call cost as much as the match (six registers saved, arguments
    // on the stack; callgrind), and inlined whole it made `read` slower still.
    if let Some(property) = properties.get(next) {
        let quote = quote::<ESCAPED>();
        let name = model.bytes(property.name);
        let start = at + quote.len();
        let end = start + name.len();
        let value = end + quote.len() + 1;
        if text.get(at..start) == Some(quote)
            && text
                .get(start..end)
                .is_some_and(|spelled| same(spelled, name))
            && text.get(end..value) == Some(compact_end::<ESCAPED>())
            && text.get(value) != Some(&b' ')
        {
            return Some((next, value));
        }
    }
    key_search::<ESCAPED>(text, at, model, properties, next, layout)
}

/// A key's closing quote and its colon, with nothing between.
const fn compact_end<const ESCAPED: bool>() -> &'static [u8] {
    if ESCAPED {
        b"\\\":"
    } else {
        b"\":"
    }
}

/// [`key`], any property, spaces around the colon.
#[inline(never)]
fn key_search<const ESCAPED: bool>(
    text: &[u8],
    at: usize,
    model: Model<'_>,
    properties: &[Property],
    next: usize,
    layout: &mut Layout,
) -> Option<(usize, usize)> {
    let quote = quote::<ESCAPED>();
    let start = expect(text, at, quote)?;
    // Each name is tried where the key starts, as `quick_call::read_compact` does: no scan for
    // the key's end that the next read must wait for. The first tried is the property after
    // `next`'s: members mostly come in order, and then the first try matches.
    let count = properties.len();
    let (index, at) = (0..count).find_map(|k| {
        let index = if next + k < count {
            next + k
        } else {
            next + k - count
        };
        let name = model.bytes(properties[index].name);
        let end = start + name.len();
        let spelled = text.get(start..end)?;
        (same(spelled, name) && text.get(end..end + quote.len()) == Some(quote))
            .then_some((index, end + quote.len()))
    })?;
    let at = expect(text, gap(text, at, layout), b":")?;
    Some((index, gap(text, at, layout)))
}

/// The property after `index` of `count`, the first after the last.
fn following(index: usize, count: usize) -> usize {
    if index + 1 < count {
        index + 1
    } else {
        0
    }
}

/// Reads and judges any value at `at` against `node`; `nullable` lets a `null` stand for it.
/// Inline in [`read`]'s two loops, its only callers: a call for every member and item cost a
/// run-time catalog's `todo_write` 5% (calls bench, 676-686 -> 647-649 ns).
#[allow(clippy::too_many_arguments)] // [`read`]'s, and the one property's `nullable`
#[inline(always)]
fn value<const ESCAPED: bool>(
    text: &[u8],
    at: usize,
    model: Model<'_>,
    node: &Schema,
    nullable: bool,
    nullable_optionals: bool,
    depth: usize,
    room: &mut Room<'_>,
) -> Option<(usize, Layout)> {
    let quote = quote::<ESCAPED>();
    let (kind, start, end) = match text.get(at)? {
        b'{' | b'[' => {
            return read::<ESCAPED>(text, at, model, node, nullable_optionals, depth + 1, room)
        }
        _ if text[at..].starts_with(quote) => {
            let start = at + quote.len();
            let (stop, escapes) = room.string::<ESCAPED>(text, start)?;
            // An enum or a length bound reads the text, and messages quote it unescaped: with
            // escapes, the general path does.
            if escapes && (node.enumeration.is_some() || node.keywords.rare != 0) {
                return None;
            }
            // A "literal" here has its delimiters first and last, as the checker reads them.
            let token = Token {
                kind: Kind::String,
                at: start,
                raw: &text[start - 1..=stop],
            };
            let end = expect(text, stop, quote)?;
            // An escape spelled once (an object given in place) is copied by no [`write_whole`].
            let layout = if escapes && !ESCAPED {
                Layout::InOrder
            } else {
                Layout::Whole
            };
            return check::scalar(model, token, node, nullable)
                .is_none()
                .then_some((end, layout));
        }
        b't' if text[at..].starts_with(b"true") => (Kind::True, at, at + 4),
        b'f' if text[at..].starts_with(b"false") => (Kind::False, at, at + 5),
        b'n' if text[at..].starts_with(b"null") => (Kind::Null, at, at + 4),
        _ => (Kind::Number, at, integer(text, at)?),
    };
    room.put(text, start, end - start);
    let token = Token {
        kind,
        at: start,
        raw: &text[start..end],
    };
    check::scalar(model, token, node, nullable)
        .is_none()
        .then_some((end, Layout::Whole))
}

/// Writes the value at `at`, as [`read`] accepted it against `node`, in canonical form: an
/// object's members in its properties' order (the model keeps them sorted, as the canonical
/// writer orders them), its `null`s left out (OpenAI strict's optionals, the only ones [`read`]
/// lets through); strings as `escaped_value.rs` writes them. `in_order` is what [`read`] said:
/// then each object is written as it is read, else its members are gathered first. The offset
/// past the value.
pub(crate) fn write<const ESCAPED: bool>(
    out: &mut impl Write,
    text: &[u8],
    at: usize,
    model: Model<'_>,
    node: &Schema,
    in_order: bool,
) -> io::Result<usize> {
    let quote = quote::<ESCAPED>();
    match text.get(at).copied().unwrap_or(b'?') {
        b'{' if in_order => {
            let properties = object_properties(model, node).ok_or_else(unexpected)?;
            let mut at = spaces(text, at + 1);
            let mut first = true;
            let mut next = 0;
            out.write_all(b"{")?;
            if text.get(at) != Some(&b'}') {
                loop {
                    let (index, value_at) =
                        key::<ESCAPED>(text, at, model, properties, next, &mut Layout::Whole)
                            .ok_or_else(unexpected)?;
                    next = following(index, properties.len());
                    let end = if text.get(value_at) == Some(&b'n') {
                        value_at + 4
                    } else {
                        let property = &properties[index];
                        out.write_all(if first { b"\"" } else { b",\"" })?;
                        out.write_all(model.bytes(property.name))?;
                        out.write_all(b"\":")?;
                        first = false;
                        let child = model.node(property.schema);
                        write::<ESCAPED>(out, text, value_at, model, child, true)?
                    };
                    at = spaces(text, end);
                    match text.get(at) {
                        Some(b',') => at = spaces(text, at + 1),
                        _ => break,
                    }
                }
            }
            out.write_all(b"}")?;
            Ok(at + 1)
        }
        b'{' => {
            let properties = object_properties(model, node).ok_or_else(unexpected)?;
            // The members, gathered in the text's order: (property, where the value starts
            // and ends).
            let mut members = [(0u8, 0u32, 0u32); MOST_MEMBERS];
            let mut count = 0;
            let mut next = 0;
            let mut at = spaces(text, at + 1);
            if text.get(at) != Some(&b'}') {
                loop {
                    let (index, value_at) =
                        key::<ESCAPED>(text, at, model, properties, next, &mut Layout::Whole)
                            .ok_or_else(unexpected)?;
                    next = following(index, properties.len());
                    let end = end_of::<ESCAPED>(text, value_at).ok_or_else(unexpected)?;
                    if text.get(value_at) != Some(&b'n') {
                        *members.get_mut(count).ok_or_else(unexpected)? =
                            (index as u8, value_at as u32, end as u32);
                        count += 1;
                    }
                    at = spaces(text, end);
                    match text.get(at) {
                        Some(b',') => at = spaces(text, at + 1),
                        _ => break,
                    }
                }
            }
            let members = &mut members[..count];
            members.sort_unstable();
            out.write_all(b"{")?;
            for (i, &(index, value_at, end)) in members.iter().enumerate() {
                let property = &properties[usize::from(index)];
                out.write_all(if i == 0 { b"\"" } else { b",\"" })?;
                out.write_all(model.bytes(property.name))?;
                out.write_all(b"\":")?;
                let (value_at, end) = (value_at as usize, end as usize);
                match text[value_at] {
                    b'{' | b'[' => {
                        let child = model.node(property.schema);
                        write::<ESCAPED>(out, text, value_at, model, child, false)?;
                    }
                    // Where a string ends is known: its inside is written without a scan for it.
                    b'\\' | b'"' => {
                        let inside = &text[value_at + quote.len()..end - quote.len()];
                        out.write_all(b"\"")?;
                        escaped_value::write_inside::<ESCAPED>(out, inside)?;
                        out.write_all(b"\"")?;
                    }
                    _ => out.write_all(&text[value_at..end])?,
                }
            }
            out.write_all(b"}")?;
            Ok(at + 1)
        }
        b'[' => {
            let element = model.node(node.items.ok_or_else(unexpected)?);
            let mut at = spaces(text, at + 1);
            out.write_all(b"[")?;
            if text.get(at) != Some(&b']') {
                loop {
                    let end = write::<ESCAPED>(out, text, at, model, element, in_order)?;
                    at = spaces(text, end);
                    match text.get(at) {
                        Some(b',') => {
                            out.write_all(b",")?;
                            at = spaces(text, at + 1);
                        }
                        _ => break,
                    }
                }
            }
            out.write_all(b"]")?;
            Ok(at + 1)
        }
        // A string, written by the reading that finds its end.
        _ if text[at..].starts_with(quote) => {
            out.write_all(b"\"")?;
            let stop = escaped_value::write_string::<ESCAPED>(out, text, at + quote.len())?;
            out.write_all(b"\"")?;
            Ok(stop + quote.len())
        }
        // A number, `true` or `false`: its own canonical form, as read.
        _ => {
            let end = end_of::<ESCAPED>(text, at).ok_or_else(unexpected)?;
            out.write_all(&text[at..end])?;
            Ok(end)
        }
    }
}

/// Writes a value [`read`] found [`Layout::Whole`], its text `text`: as it is when its escapes
/// are spelled once (it has none then), else with the request's level taken off
/// (`escaped_value::write_unescaped`). One scan for backslashes, where [`write`] reads every
/// key and value again.
pub(crate) fn write_whole<const ESCAPED: bool>(
    out: &mut impl Write,
    text: &[u8],
) -> io::Result<()> {
    if ESCAPED {
        escaped_value::write_unescaped(out, text)
    } else {
        out.write_all(text)
    }
}

/// The offset past the value at `at`, which [`read`] accepted: read past, not judged.
fn end_of<const ESCAPED: bool>(text: &[u8], at: usize) -> Option<usize> {
    let quote = quote::<ESCAPED>();
    match text.get(at)? {
        open @ (b'{' | b'[') => {
            let close = if *open == b'{' { b'}' } else { b']' };
            let mut at = spaces(text, at + 1);
            if text.get(at) == Some(&close) {
                return Some(at + 1);
            }
            loop {
                if *open == b'{' {
                    let start = expect(text, at, quote)?;
                    at = expect(text, plain_run_end(text, start), quote)?;
                    at = spaces(text, expect(text, spaces(text, at), b":")?);
                }
                at = spaces(text, end_of::<ESCAPED>(text, at)?);
                match text.get(at)? {
                    b',' => at = spaces(text, at + 1),
                    _ => return Some(at + 1),
                }
            }
        }
        _ if text[at..].starts_with(quote) => {
            let (stop, _) = escaped_value::inside_end::<ESCAPED>(text, at + quote.len())?;
            Some(stop + quote.len())
        }
        b't' | b'n' => Some(at + 4),
        b'f' => Some(at + 5),
        _ => integer(text, at),
    }
}

/// How the text spells a string's delimiter.
const fn quote<const ESCAPED: bool>() -> &'static [u8] {
    if ESCAPED {
        b"\\\""
    } else {
        b"\""
    }
}

/// The offset past `want` at `at`.
#[inline]
pub(crate) fn expect(text: &[u8], at: usize, want: &[u8]) -> Option<usize> {
    text.get(at..)?.starts_with(want).then_some(at + want.len())
}

/// The offset of the first byte from `at` that is not a space.
#[inline]
pub(crate) fn spaces(text: &[u8], mut at: usize) -> usize {
    while text.get(at) == Some(&b' ') {
        at += 1;
    }
    at
}

/// The offset past an integer literal at `at`: `-?(0|[1-9][0-9]*)` of at most 15 digits, so
/// exact in a double and inside ±(2^53−1), with no fraction or exponent after it. `-0` is
/// declined: its canonical form is `0`.
#[inline(always)]
pub(crate) fn integer(input: &[u8], at: usize) -> Option<usize> {
    let negative = input.get(at) == Some(&b'-');
    let start = at + usize::from(negative);
    let mut end = start;
    while input.get(end).is_some_and(u8::is_ascii_digit) {
        end += 1;
    }
    let count = end - start;
    let zero_first = input.get(start) == Some(&b'0');
    if count == 0
        || count > 15
        || (zero_first && (count > 1 || negative))
        || matches!(input.get(end), Some(b'.' | b'e' | b'E'))
    {
        return None;
    }
    Some(end)
}

/// Values [`read`] accepted are never malformed; this keeps the writer total all the same.
#[cold]
fn unexpected() -> io::Error {
    io::ErrorKind::InvalidData.into()
}

#[cfg(test)]
mod tests {
    use crate::runtime::RuntimeCatalog;

    /// Seed 003's `todo_write`, shortened, and an MCP server's `edit_file`.
    const CATALOG: &[u8] = br#"[
        {"name":"todo_write","description":"Replaces the task list.","inputSchema":{
            "type":"object","required":["todos"],"properties":{"todos":{"type":"array",
            "items":{"type":"object","required":["content","status"],"properties":{
                "content":{"type":"string"},
                "status":{"type":"string","enum":["pending","in_progress","completed"]},
                "level":{"type":"integer","enum":[0,1]},
                "tags":{"type":"array","items":{"type":"string"},"maxItems":2}}}}}}},
        {"name":"edit_file","description":"Edits a file.","inputSchema":{
            "type":"object","required":["path","edits"],"properties":{
            "path":{"type":"string"},"dryRun":{"type":"boolean"},
            "edits":{"type":"array","items":{"type":"object","required":["oldText","newText"],
                "properties":{"oldText":{"type":"string"},"newText":{"type":"string"}}}}}}}
    ]"#;

    /// The quick path's answer, if it gives one; the debug build's cross-check holds it to the
    /// general path's bytes.
    fn quick(catalog: &RuntimeCatalog, request: &str) -> Option<String> {
        let mut out = Vec::new();
        crate::quick_call::answer(request.as_bytes(), &mut out, catalog)?.unwrap();
        let mut general = Vec::new();
        catalog.respond(request.as_bytes(), &mut general).unwrap();
        assert_eq!(out, general, "{request}");
        Some(String::from_utf8(out).unwrap())
    }

    /// Whether the catalog's answer, from whichever path, takes the call.
    fn judged_valid(catalog: &RuntimeCatalog, request: &str) -> bool {
        let mut out = Vec::new();
        catalog.respond(request.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap().contains(r#""ok":true"#)
    }

    fn openai(tool: &str, arguments: &str, strict: bool) -> String {
        let arguments = format!("{arguments:?}");
        format!(
            r#"{{"op":"check_call","format":"openai","strict":{strict},"call":{{"id":"c1","type":"function","function":{{"name":"{tool}","arguments":{arguments}}}}}}}"#
        )
    }

    #[test]
    fn valid_nested_calls_are_answered_here_in_canonical_form() {
        let catalog = RuntimeCatalog::from_bytes(CATALOG).unwrap();
        let todos = r#"{"todos":[{"status":"pending","content":"Fix \"the\" parser\n\tnow","level":1},{"content":"é ü","status":"completed","tags":["a","b"]}, {"content":"","status":"in_progress","tags":[]}]}"#;
        let answer = quick(&catalog, &openai("todo_write", todos, false)).expect("answered");
        assert!(answer.starts_with(
            r#"{"arguments":{"todos":[{"content":"Fix \"the\" parser\n\tnow","level":1,"status":"pending"},{"content":"é ü","status":"completed","tags":["a","b"]},{"content":"","status":"in_progress","tags":[]}]},"id":"c1""#
        ), "{answer}");
        let edits =
            r#"{"path":"a.rs","edits":[{"newText":"b\\c","oldText":"a\/b"}],"dryRun":true}"#;
        let answer = quick(&catalog, &openai("edit_file", edits, false)).expect("answered");
        assert!(answer.starts_with(
            r#"{"arguments":{"dryRun":true,"edits":[{"newText":"b\\c","oldText":"a/b"}],"path":"a.rs"}"#
        ), "{answer}");
        // Arguments given in place, as Anthropic's `input`.
        let anthropic = r#"{"op":"check_call","format":"anthropic","call":{"type":"tool_use","id":"t1","name":"edit_file","input":{"path":"a","edits":[ {"oldText":"x\"y","newText":"z"} ]}}}"#;
        let answer = quick(&catalog, anthropic).expect("answered");
        assert!(
            answer.starts_with(
                r#"{"arguments":{"edits":[{"newText":"z","oldText":"x\"y"}],"path":"a"}"#
            ),
            "{answer}"
        );
        // OpenAI strict: an optional property's `null` is left out, at any depth, whether the
        // members come in order (written as read) or not (gathered first).
        for nulls in [
            r#"{"todos":[{"content":"a","status":"pending","level":null,"tags":null}]}"#,
            r#"{"todos":[{"content":"a","level":null,"status":"pending","tags":null}]}"#,
            r#"{"todos":[{"content":"a","level":null,"status":"pending","tags":["\"x\""]}]}"#,
        ] {
            let answer = quick(&catalog, &openai("todo_write", nulls, true)).expect("answered");
            let tags = if nulls.contains("[\"") {
                r#","tags":["\"x\""]"#
            } else {
                ""
            };
            assert!(
                answer.starts_with(&format!(
                    r#"{{"arguments":{{"todos":[{{"content":"a","status":"pending"{tags}}}]}}"#
                )),
                "{answer}"
            );
        }
    }

    /// A request of 512 bytes or more is read with the thread's room, and a nested value that
    /// is its canonical form once unescaped is written there as it is read: every escape of
    /// RFC 8785's rules, at any depth, gives the general path's bytes; one spelled otherwise
    /// (spaces, members out of order, a `null` left out) is written again from the text.
    #[test]
    fn long_calls_write_nested_values_as_they_read_them() {
        let catalog = RuntimeCatalog::from_bytes(CATALOG).unwrap();
        let long = "x".repeat(600);
        let escapes = r#"a\/b \u00e9\u00E9 \u001F \ud83d\ude00 \\ \"q\" \n\t\b\f\r é"#;
        let want = r#"a/b éé \u001f 😀 \\ \"q\" \n\t\b\f\r é"#;
        let todos = format!(
            r#"{{"todos":[{{"content":"{escapes}","level":1,"status":"pending","tags":["{escapes}",""]}},{{"content":"{long}","status":"completed"}}]}}"#
        );
        let answer = quick(&catalog, &openai("todo_write", &todos, false)).expect("answered");
        assert!(answer.starts_with(&format!(
            r#"{{"arguments":{{"todos":[{{"content":"{want}","level":1,"status":"pending","tags":["{want}",""]}},{{"content":"{long}","status":"completed"}}]}},"id":"c1""#
        )), "{answer}");
        // Two nested values and a string with escapes share the room.
        let edits = format!(
            r#"{{"path":"{escapes}","edits":[{{"newText":"{escapes}","oldText":"{long}"}},{{"newText":"","oldText":"\"\""}}]}}"#
        );
        let answer = quick(&catalog, &openai("edit_file", &edits, false)).expect("answered");
        assert!(answer.starts_with(&format!(
            r#"{{"arguments":{{"edits":[{{"newText":"{want}","oldText":"{long}"}},{{"newText":"","oldText":"\"\""}}],"path":"{want}"}}"#
        )), "{answer}");
        // Spelled otherwise, in the same long call: written again from the text.
        for todos in [
            format!(r#"{{"todos":[ {{"content":"{escapes} {long}","status":"pending"}}]}}"#),
            format!(r#"{{"todos":[{{"status":"pending","content":"{escapes} {long}"}}]}}"#),
            format!(
                r#"{{"todos":[{{"content":"{escapes} {long}","level":null,"status":"pending"}}]}}"#
            ),
        ] {
            let strict = todos.contains("null");
            let answer = quick(&catalog, &openai("todo_write", &todos, strict)).expect("answered");
            assert!(answer.starts_with(&format!(
                r#"{{"arguments":{{"todos":[{{"content":"{want} {long}","status":"pending"}}]}}"#
            )), "{answer}");
        }
    }

    /// Not a nested value, but read beside them: a top-level union of plain scalars
    /// (`Tool::scalar_unions`), as mcp-server-git's `git_log` declares its timestamps.
    #[test]
    fn unions_of_plain_scalars_are_answered_when_a_branch_takes_the_value() {
        let catalog = br#"[{"name":"git_log","description":"Shows the log.","inputSchema":{
            "type":"object","required":["repo_path"],"title":"logArguments","properties":{
            "repo_path":{"type":"string","title":"Repo Path"},
            "max_count":{"type":"integer","default":10},
            "since":{"anyOf":[{"type":"string"},{"type":"null"}],"default":null},
            "limit":{"anyOf":[{"type":"integer"},{"type":"boolean"}]}}}}]"#;
        let catalog = RuntimeCatalog::from_bytes(catalog).unwrap();
        for (arguments, strict, written) in [
            (
                r#"{"repo_path":"/srv","max_count":25,"since":"2 weeks \"ago\"","limit":null}"#,
                true,
                r#"{"max_count":25,"repo_path":"/srv","since":"2 weeks \"ago\""}"#,
            ),
            (
                r#"{"since":null,"limit":true,"repo_path":"/srv"}"#,
                false,
                r#"{"limit":true,"repo_path":"/srv","since":null}"#,
            ),
            (
                r#"{"repo_path":"/srv","limit":7,"since":"x"}"#,
                false,
                r#"{"limit":7,"repo_path":"/srv","since":"x"}"#,
            ),
        ] {
            let answer = quick(&catalog, &openai("git_log", arguments, strict)).expect("answered");
            assert!(
                answer.starts_with(&format!(r#"{{"arguments":{written},"#)),
                "{answer}"
            );
        }
        // No branch takes these, or another problem is met: the general path words it, as
        // `validate.rs` judges a tool with unions.
        for arguments in [
            "{}",
            r#"{"repo_path":7}"#,
            r#"{"repo_path":"/srv","until":"now"}"#,
            r#"{"repo_path":"/srv","since":7}"#,
            r#"{"repo_path":"/srv","limit":"7"}"#,
            r#"{"repo_path":"/srv","limit":null}"#,
        ] {
            let request = openai("git_log", arguments, false);
            assert_eq!(quick(&catalog, &request), None, "{arguments}");
        }
    }

    /// Arrays nested [`DEEPEST`](super::DEEPEST) deep are read here, and one level more goes the
    /// general way: the recursion is bounded whatever the catalog.
    #[test]
    fn nesting_past_the_deepest_is_declined() {
        let levels = super::DEEPEST + 1;
        let mut schema = r#"{"type":"integer"}"#.to_string();
        for _ in 0..levels {
            schema = format!(r#"{{"type":"array","items":{schema}}}"#);
        }
        let catalog = format!(
            r#"[{{"name":"grid","description":"Takes a grid.","inputSchema":{{"type":"object","properties":{{"cells":{schema}}}}}}}]"#
        );
        let catalog = RuntimeCatalog::from_bytes(catalog.as_bytes()).unwrap();
        let deepest = "[".repeat(levels - 2) + "[]" + &"]".repeat(levels - 2);
        let deepest = format!(r#"{{"cells":{deepest}}}"#);
        assert!(quick(&catalog, &openai("grid", &deepest, false)).is_some());
        let deeper = "[".repeat(levels) + "7" + &"]".repeat(levels);
        let deeper = format!(r#"{{"cells":{deeper}}}"#);
        assert_eq!(quick(&catalog, &openai("grid", &deeper, false)), None);
        assert!(judged_valid(&catalog, &openai("grid", &deeper, false)));
    }

    /// Every problem inside a nested value, and what this reader does not read, go the general
    /// way, which words the messages.
    #[test]
    fn problems_and_the_unread_are_declined() {
        let catalog = RuntimeCatalog::from_bytes(CATALOG).unwrap();
        let deep = format!(
            r#"{{"path":"a","edits":[{{"oldText":"a","newText":"b"}}],"dryRun":{}}}"#,
            "[".repeat(3) + &"]".repeat(3)
        );
        for (tool, arguments) in [
            (
                "todo_write",
                r#"{"todos":[{"content":"a","status":"done"}]}"#,
            ),
            ("todo_write", r#"{"todos":[{"content":"a"}]}"#),
            (
                "todo_write",
                r#"{"todos":[{"content":"a","status":"pending","x":1}]}"#,
            ),
            (
                "todo_write",
                r#"{"todos":[{"content":"a","status":"pending","content":"b"}]}"#,
            ),
            (
                "todo_write",
                r#"{"todos":[{"content":"a","status":"pending","level":2}]}"#,
            ),
            (
                "todo_write",
                r#"{"todos":[{"content":"a","status":"pending","tags":["a","b","c"]}]}"#,
            ),
            (
                "todo_write",
                r#"{"todos":[{"content":"a","status":"pending","level":null}]}"#,
            ),
            ("todo_write", r#"{"todos":[null]}"#),
            (
                "todo_write",
                r#"{"todos":{"content":"a","status":"pending"}}"#,
            ),
            (
                "edit_file",
                r#"{"path":"a","edits":[{"oldText":7,"newText":"b"}]}"#,
            ),
            ("edit_file", &deep),
        ] {
            let request = openai(tool, arguments, false);
            assert_eq!(quick(&catalog, &request), None, "{arguments}");
            assert!(!judged_valid(&catalog, &request), "{arguments}");
        }
        // Valid, but spelled in ways this reader leaves to the general path: a fraction, a `\u`
        // escape where an enum reads the text, a newline between members.
        for arguments in [
            r#"{"todos":[{"content":"a","status":"pending","level":1.0}]}"#,
            r#"{"todos":[{"content":"a","status":"pend\u0069ng"}]}"#,
            "{\"todos\":[{\"content\":\"a\",\n\"status\":\"pending\"}]}",
        ] {
            let request = openai("todo_write", arguments, false);
            assert_eq!(quick(&catalog, &request), None, "{arguments}");
            assert!(judged_valid(&catalog, &request), "{arguments}");
        }
    }
}
