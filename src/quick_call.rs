//! `check_call` as harnesses send it, read and judged in one pass.
//!
//! The general path reads the request with the tokenizer, reads the envelope again, decodes the
//! arguments' text into a buffer, tokenizes that, walks it against the schema and reads it once
//! more to write it. That is most of a call's cost, and the usual call needs none of it: a flat
//! request, an envelope of plain strings, and arguments whose numbers are small integers.
//! Such a call is read here straight from the request's bytes, the arguments' text included,
//! where every `"` of the arguments is spelled `\"`; a string argument's escapes and non-ASCII
//! text are read and written in place (`escaped_value.rs`), so a call that writes a file is
//! read here too, and so is a valid nested argument (`nested_value.rs`) or a top-level union of
//! plain scalars. Anything else (a problem inside a nested argument or a union, a fraction, a
//! `\u` escape of the request's, an unknown request field, a syntax error) is `None`, and the
//! general path answers, with the same bytes: every debug build (the tests and the fuzz
//! targets) checks that on every call this answers.
//!
//! Problems that fit the same reading (a wrong type, an unknown or missing argument, a bound, an
//! enum) are judged here too, into the checker's own [`Problems`], and written by the same code.

#[cfg(debug_assertions)]
use crate::call::Call;
use crate::catalog::QuickTables;
use crate::check::{self, property_named, Problems, Segment, What};
use crate::escaped_value::{self, Reading};
use crate::nested_value::{self, expect, integer, spaces, Layout};
use crate::request::{after, spelled};
use crate::schema::Tool;
use crate::schema::{Schema, Type};
use crate::tokenizer::{plain_run_end, same, skip_whitespace, Kind, Token};
use crate::verdict::{self, Parts};
use crate::wire::{Format, Shape};
use std::cell::RefCell;
use std::io::{self, Write};

/// The most properties a tool may declare for its calls to be read here; a call to a tool with
/// more goes the general way.
const MOST_ARGUMENTS: usize = 16;

/// Answers a `check_call` request whole, or declines with `None` before writing anything.
#[inline]
pub(crate) fn answer(
    input: &[u8],
    out: &mut impl Write,
    catalog: &impl QuickTables,
) -> Option<io::Result<()>> {
    if input.len() > crate::error::MAX_INPUT {
        return None;
    }
    attempt(input, out, catalog)
}

/// Room for a problem's path here: one step, the argument's key or the missing property.
const QUICK_PATH: usize = 1;

/// Requests shorter than this are read without [`ROOM`]: their strings are short, and reaching
/// a thread's room costs a few nanoseconds, a twentieth of a flat call's time.
const ROOM_FROM: usize = 512;

/// What a string argument's canonical form takes at most: the request's bytes (no escape is
/// longer written canonically than spelled in a request), and the eight bytes past it that
/// [`escaped_value::read_into`] stores a word into.
const ROOM_SIZE: usize = crate::error::MAX_INPUT + 8;

thread_local! {
    /// Where a call's string arguments with escapes are written as they are judged, to be
    /// copied into the answer once the call is known to be valid (`escaped_value::read_into`).
    /// A thread's own, zeroed once: on the stack it would be zeroed on every call, and the
    /// answer is sorted and written after the call is judged, so it cannot be the answer.
    static ROOM: RefCell<[u8; ROOM_SIZE]> = const { RefCell::new([0; ROOM_SIZE]) };
}

/// One reading of the call, with the thread's [`ROOM`] for a long one.
#[inline]
fn attempt(
    input: &[u8],
    out: &mut impl Write,
    catalog: &impl QuickTables,
) -> Option<io::Result<()>> {
    if input.len() < ROOM_FROM {
        return read(input, out, catalog, &mut []);
    }
    ROOM.with(|room| match room.try_borrow_mut() {
        Ok(mut room) => read(input, out, catalog, &mut room[..]),
        // Only a call made while this thread's room is in use (none is today) reads without.
        Err(_) => read(input, out, catalog, &mut []),
    })
}

/// One reading of the call, with `room` for its strings' canonical forms (it may be empty).
#[inline]
fn read(
    input: &[u8],
    out: &mut impl Write,
    catalog: &impl QuickTables,
    room: &mut [u8],
) -> Option<io::Result<()>> {
    // Apart from the call, so that the call stays small to set up and move.
    let mut problems = None;
    let mut members = [Member::EMPTY; MOST_ARGUMENTS];
    let mut call = Quick {
        catalog,
        input,
        format: Format::OpenAi,
        nullable: false,
        name: None,
        id: None,
        tool: None,
        index: 0,
        arguments: None,
        judged: None,
        members: &mut members,
        kept: 0,
        problems: &mut problems,
        type_seen: false,
        function_seen: false,
        room,
        room_used: 0,
    };
    // What the compact reading finds reaches the answer in registers: read back from the call
    // after a return, it cost a store-forwarding stall (perf).
    let (parts, tool, index) = match call.in_order() {
        Some(found) => found,
        None => call.read_request()?,
    };
    match call.problems {
        Some(problems) if !problems.is_empty() => Some(verdict::invalid(
            out,
            &parts,
            catalog.model(),
            tool,
            problems,
        )),
        _ => Some(write_valid(
            out,
            &parts,
            input,
            catalog,
            index,
            Kept {
                members: call.members,
                bits: call.kept,
                room: &call.room[..call.room_used],
            },
        )),
    }
}

/// A call being read.
struct Quick<'a, 'p, C> {
    catalog: &'a C,
    input: &'a [u8],
    /// The format the envelope is read for: the request's, or the default until it says.
    format: Format,
    /// Whether optional properties are nullable for the arguments as judged so far.
    nullable: bool,
    /// String literals of the request, quotes included.
    name: Option<&'a [u8]>,
    id: Option<&'a [u8]>,
    tool: Option<&'a Tool>,
    /// The tool's index in the catalog.
    index: usize,
    /// Where the arguments start (a string literal's `"`, or an object's `{`), and whether they
    /// are JSON text in a string.
    arguments: Option<(usize, bool)>,
    /// `Some(nullable)` once the arguments have been judged, for that nullability.
    judged: Option<bool>,
    /// The arguments to write, at their properties' indexes; `kept` has the bits of those set.
    members: &'p mut [Member; MOST_ARGUMENTS],
    kept: u64,
    /// The problems found, made room for at the first one: most calls have none, and the room
    /// is 3.5 KB to set up.
    problems: &'p mut Option<Problems<'a, QUICK_PATH>>,
    type_seen: bool,
    function_seen: bool,
    /// Where string arguments with escapes are written as they are read, and how much of it
    /// the members kept so far take.
    room: &'p mut [u8],
    room_used: usize,
}

const FIELDS: [&str; 4] = ["op", "format", "strict", "call"];

impl<'a, C: QuickTables> Quick<'a, '_, C> {
    /// Forgets what judging the arguments found, to judge them again.
    fn start_over(&mut self) {
        *self.problems = None;
        self.kept = 0;
        self.judged = None;
        self.room_used = 0;
    }

    /// Reads the envelope at `at` again, for `self.format`, forgetting what the last reading
    /// found.
    fn read_envelope_again(&mut self, at: usize, strict: Option<bool>) -> Option<()> {
        let format = self.format;
        self.start_over();
        self.name = None;
        self.id = None;
        self.tool = None;
        self.index = 0;
        self.arguments = None;
        self.type_seen = false;
        self.function_seen = false;
        self.nullable =
            strict == Some(true) && matches!(format, Format::OpenAi | Format::OpenAiResponses);
        self.read_envelope(at).map(drop)
    }

    /// Reads the request field by field, from the start, and judges the arguments for the shape
    /// it asks for: what the answer needs.
    #[inline(never)]
    fn read_request(&mut self) -> Option<(Parts<'a>, &'a Tool, usize)> {
        self.start_over();
        let shape = self.read_fields()?;
        let tool = self.tool?;
        // Judge the arguments now if they were not read in place, or were read for a shape that
        // a later field changed.
        let nullable =
            shape.strict() && matches!(shape.format(), Format::OpenAi | Format::OpenAiResponses);
        if self.judged != Some(nullable) {
            let (at, escaped) = self.arguments?;
            self.nullable = nullable;
            self.start_over();
            self.judge_arguments(at, escaped, self.index)?;
        }
        let parts = Parts {
            format: shape.format(),
            name: self.name?,
            id: self.id,
        };
        Some((parts, tool, self.index))
    }

    /// The request's fields; the shape they ask for.
    fn read_fields(&mut self) -> Option<Shape> {
        let input = self.input;
        let (mut op, mut format, mut strict, mut call) = (false, None, None, None);
        let mut at = after(input, 0, b'{')?;
        loop {
            let (field, end) = spelled(input, at, &FIELDS)?;
            at = after(input, end, b':')?;
            at = skip_whitespace(input, at);
            at = match field {
                0 if !op => {
                    let (_, end) = spelled(input, at, &["check_call"])?;
                    op = true;
                    end
                }
                1 if format.is_none() => {
                    let (index, end) = spelled(input, at, &Format::NAMES)?;
                    let asked = Format::ALL[index];
                    format = Some(asked);
                    // The call came first (a harness that sorts its keys) and was read for the
                    // format guessed then: read it again if the guess was wrong.
                    let guessed = self.format;
                    self.format = asked;
                    if let Some(call_at) = call.filter(|_| guessed != asked) {
                        self.read_envelope_again(call_at, strict)?;
                    }
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
                    call = Some(at);
                    if format.is_none() {
                        self.format = format_near_the_end(input);
                    }
                    self.nullable = strict == Some(true)
                        && matches!(self.format, Format::OpenAi | Format::OpenAiResponses);
                    self.read_envelope(at)?
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
        let call = call?;
        if format.is_none() && self.format != Format::OpenAi {
            self.format = Format::OpenAi;
            self.read_envelope_again(call, strict)?;
        }
        Shape::new(format.unwrap_or(Format::OpenAi), strict.unwrap_or(false))
    }

    /// The request exactly as a harness most often writes it, compact and in the providers'
    /// own order: `{"op":"check_call","call":{"id":I,"type":"function","function":{"name":N,
    /// "arguments":A}}}`, with or without `"format":"openai",` before the call. Matched a
    /// constant run at a time; `None` leaves the request to the field-by-field reader, which
    /// starts over.
    #[inline(always)]
    fn in_order(&mut self) -> Option<(Parts<'a>, &'a Tool, usize)> {
        const OP: &[u8; 19] = b"{\"op\":\"check_call\",";
        const FORMAT: &[u8; 18] = b"\"format\":\"openai\",";
        const CALL: &[u8; 14] = b"\"call\":{\"id\":\"";
        const MIDDLE: &[u8; 40] = b"\",\"type\":\"function\",\"function\":{\"name\":\"";
        const ARGUMENTS: &[u8; 14] = b"\",\"arguments\":";
        let input = self.input;
        let at = prefix(input, 0, OP)?;
        // Harnesses that name the format even when it is the default took 94 ns instead of 49
        // while this reader declined them (the history of docs/performance.md in git, issue 17).
        let at = prefix(input, at, FORMAT).unwrap_or(at);
        let at = prefix(input, at, CALL)?;
        let id_start = at - 1;
        let id_end = plain_run_end(input, at);
        let at = prefix(input, id_end, MIDDLE)?;
        let name_start = at;
        let (index, name_end) = self.catalog.named_at(input, name_start)?;
        let at = prefix(input, name_end, ARGUMENTS)?;
        let tool = &self.catalog.model().tools[index];
        let end = self.judge_arguments(at, true, index)?;
        if input.get(end..end + 3) != Some(b"}}}") || skip_whitespace(input, end + 3) != input.len()
        {
            return None;
        }
        // Exclusive ranges: indexing by an inclusive one was a call (`RangeInclusive::index`,
        // not inlined), and the two were 2% of a flat call's instructions (callgrind).
        let parts = Parts {
            format: Format::OpenAi,
            name: &input[name_start - 1..name_end + 1],
            id: Some(&input[id_start..id_end + 1]),
        };
        Some((parts, tool, index))
    }

    /// The envelope at `at`, read for `self.format` (see `call.rs` for each format's fields and
    /// their sources); the offset just past it. Fields other than the named ones are skipped
    /// when their values are strings, numbers or literals.
    fn read_envelope(&mut self, at: usize) -> Option<usize> {
        let end = self.read_object(at, false)?;
        let complete = match self.format {
            Format::OpenAi => self.id.is_some() && self.type_seen && self.function_seen,
            Format::OpenAiResponses | Format::Anthropic => self.id.is_some() && self.type_seen,
            Format::Gemini | Format::GeminiJsonSchema | Format::Mcp => true,
        };
        if !complete || self.tool.is_none() {
            return None;
        }
        if self.arguments.is_none() {
            match self.format {
                // Left out: `{}`.
                Format::Gemini | Format::GeminiJsonSchema | Format::Mcp => {
                    self.arguments = Some((EMPTY_AT, false))
                }
                _ => return None,
            }
        }
        Some(end)
    }

    /// One envelope object (OpenAI's `function` is the only nested one); the offset past it.
    fn read_object(&mut self, at: usize, function: bool) -> Option<usize> {
        let input = self.input;
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
            let role = role(self.format, function, &key[1..key.len() - 1]);
            let bit = match role {
                Role::Name => 1,
                Role::Id => 2,
                Role::Text | Role::Value => 4,
                Role::Constant(_) => 8,
                Role::Function => 16,
                Role::Skip => 0,
            };
            if seen & bit != 0 {
                return None; // a duplicate: the general path reports it
            }
            seen |= bit;
            at = match role {
                Role::Name | Role::Id => {
                    let (value, end) = plain_string(input, at)?;
                    if role == Role::Name {
                        self.name = Some(value);
                        let name = &value[1..value.len() - 1];
                        self.index = self.catalog.find_name(name)?;
                        self.tool = Some(&self.catalog.model().tools[self.index]);
                    } else {
                        self.id = Some(value);
                    }
                    end
                }
                Role::Constant(constant) => {
                    let (value, end) = plain_string(input, at)?;
                    if !same(&value[1..value.len() - 1], constant.as_bytes()) {
                        return None;
                    }
                    self.type_seen = true;
                    end
                }
                Role::Text | Role::Value => {
                    let escaped = role == Role::Text;
                    self.arguments = Some((at, escaped));
                    match self.tool {
                        // The usual order: the name first, so the arguments are judged in place.
                        Some(_) => self.judge_arguments(at, escaped, self.index)?,
                        None if escaped => string_end(input, at)?,
                        None => flat_object_end(input, at)?,
                    }
                }
                Role::Function => {
                    self.function_seen = true;
                    self.read_object(at, true)?
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

    /// Judges the arguments at `at` (a string literal holding JSON text when `escaped`, else an
    /// object), for the current nullability; the offset past them.
    #[inline(always)]
    fn judge_arguments(&mut self, at: usize, escaped: bool, index: usize) -> Option<usize> {
        // Only the flat subset is read here; `validate.rs` judges the rest.
        if !self.catalog.quick(index) {
            return None;
        }
        let root = {
            let model = self.catalog.model();
            model.input(&model.tools[index])
        };
        self.judged = Some(self.nullable);
        let input = self.input;
        if at == EMPTY_AT {
            return read_arguments::<_, false>(b"{}", 0, root, index, self);
        }
        if !escaped {
            return read_arguments::<_, false>(input, at, root, index, self);
        }
        if input.get(at) != Some(&b'"') {
            return None;
        }
        // Models send `""` for a tool without arguments.
        let start = at + 1;
        let inside = spaces(input, start);
        if input.get(inside) == Some(&b'"') {
            read_arguments::<_, false>(b"{}", 0, root, index, self)?;
            return Some(inside + 1);
        }
        // A request long enough to have the thread's room holds long strings, and long strings
        // hold escapes (source code's newlines), which the compact reading declines only once
        // it has scanned up to the first: such a call is read once, by `read_arguments`.
        if self.room.is_empty() && self.catalog.compact_first(index) {
            let compact = read_compact(
                input,
                start,
                self.catalog,
                root,
                self.catalog.root_masks(index),
                self.nullable,
                self.members,
            );
            if let Some(end) = compact {
                if input.get(end.0) == Some(&b'"') {
                    self.kept = end.1;
                    return Some(end.0 + 1);
                }
            }
        }
        let end = read_arguments::<_, true>(input, start, root, index, self)?;
        let end = spaces(input, end);
        (input.get(end) == Some(&b'"')).then_some(end + 1)
    }
}

/// The arguments as models most often write them, compact and valid: `{\"key\":value,...}`
/// inside a string literal, every value a plain string, a small integer or a literal of the
/// type declared, with no enum or bound to check. Anything else (a space, a problem) is `None`,
/// and [`read_arguments`] reads them instead. The offset past the object's `}`, and which
/// members were kept (a bit a property).
#[inline]
fn read_compact(
    text: &[u8],
    at: usize,
    catalog: &impl QuickTables,
    root: &Schema,
    (plain, required): (u64, u64),
    nullable_optionals: bool,
    members: &mut [Member; MOST_ARGUMENTS],
) -> Option<(usize, u64)> {
    if root.properties.len as usize > MOST_ARGUMENTS || text.get(at) != Some(&b'{') {
        return None;
    }
    // The model taken here, not passed in: a run-time catalog's is a dozen slices, all
    // written to the stack for the call (perf), where this needs three.
    let model = catalog.model();
    let mut at = at + 1;
    let mut seen = 0u64;
    let mut kept = 0u64;
    if text.get(at) == Some(&b'}') {
        at += 1;
    } else {
        loop {
            let key_start = at + 2;
            if text.get(at..key_start) != Some(b"\\\"") {
                return None;
            }
            // Each property's name is tried where the key starts, instead of scanning for the
            // key's end: the match is a predicted branch, so the reads after the key need not
            // wait for a scan of it (perf: each scan's result fed the next load).
            let properties = model.properties(root);
            let (index, value_at) = properties.iter().enumerate().find_map(|(i, p)| {
                let name = model.bytes(p.name);
                let key_end = key_start + name.len();
                let value_at = key_end + 3;
                let key = text.get(key_start..key_end)?;
                (same(key, name) && text.get(key_end..value_at) == Some(b"\\\":"))
                    .then_some((i, value_at))
            })?;
            let property = &properties[index];
            let schema = model.node(property.schema);
            let (kind, start, stop, end) = match (text.get(value_at)?, schema.ty) {
                (b'\\', Type::String) => {
                    let start = value_at + 2;
                    if text.get(value_at + 1) != Some(&b'"') {
                        return None;
                    }
                    let stop = plain_run_end(text, start);
                    if text.get(stop..stop + 2) != Some(b"\\\"") {
                        return None;
                    }
                    (Kind::String, start, stop, stop + 2)
                }
                (b'-' | b'0'..=b'9', Type::Integer | Type::Number) => {
                    let stop = integer(text, value_at)?;
                    (Kind::Number, value_at, stop, stop)
                }
                (b't', Type::Boolean) if text[value_at..].starts_with(b"true") => {
                    (Kind::True, value_at, value_at + 4, value_at + 4)
                }
                (b'f', Type::Boolean) if text[value_at..].starts_with(b"false") => {
                    (Kind::False, value_at, value_at + 5, value_at + 5)
                }
                (b'n', _) if nullable_optionals && !property.required => {
                    if !text[value_at..].starts_with(b"null") {
                        return None;
                    }
                    (Kind::Null, value_at, value_at + 4, value_at + 4)
                }
                _ => return None,
            };
            if plain & (1 << index) == 0 || seen & (1 << index) != 0 {
                return None;
            }
            seen |= 1 << index;
            if kind != Kind::Null {
                *members.get_mut(index)? = Member {
                    start: start as u32,
                    end: stop as u32,
                    layout: Layout::Gathered,
                    kind,
                    escapes: Escapes::None,
                };
                kept |= 1 << index;
            }
            match text.get(end) {
                Some(b',') => at = end + 1,
                Some(b'}') => {
                    at = end + 1;
                    break;
                }
                _ => return None,
            }
        }
    }
    if required & !seen != 0 {
        return None;
    }
    Some((at, kept))
}

/// The format a request names in its last bytes, where a harness that sorts its keys puts it
/// (after `call`), or OpenAI's: a guess, for reading the call before the field is reached. A
/// wrong guess costs a second reading of the envelope, and a failed one declines the call.
fn format_near_the_end(input: &[u8]) -> Format {
    const FIELD: &[u8] = b"\"format\"";
    let tail = input.len().saturating_sub(96);
    let found = input[tail..]
        .windows(FIELD.len())
        .position(|window| window == FIELD)
        .and_then(|at| {
            let at = after(input, tail + at + FIELD.len(), b':')?;
            let (index, _) = spelled(input, skip_whitespace(input, at), &Format::NAMES)?;
            Some(Format::ALL[index])
        });
    found.unwrap_or(Format::OpenAi)
}

/// Stands for arguments left out, which are `{}`.
const EMPTY_AT: usize = usize::MAX;

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
        (Format::Gemini | Format::GeminiJsonSchema, _) => &[
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
        _ => integer(input, at),
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

/// One argument, read, kept at its property's index: where its value is in the request
/// (offsets keep it small: the members are set up for every call).
#[derive(Clone, Copy)]
struct Member {
    /// A string's inside, as the request spells it, or a number's or literal's bytes:
    /// `start..end` (in the call's room for [`Escapes::Written`]).
    start: u32,
    end: u32,
    /// For an object or array: how it is laid out (`nested_value::read`).
    layout: Layout,
    kind: Kind,
    escapes: Escapes,
}

/// How a string argument's escapes are spelled in the request, if it has any.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Escapes {
    /// None: its inside is its canonical form. First, so that [`Member::EMPTY`] is zeros.
    None,
    /// Once: the arguments are an object in place.
    Once,
    /// Twice: the arguments are JSON text in a string.
    Twice,
    /// Written already, in its canonical form: `start..end` is in the call's room.
    Written,
}

impl Member {
    /// All zero bytes (`ObjectStart` is the kind's first variant), so that setting up the
    /// members is a few vector stores instead of a copy.
    const EMPTY: Member = Member {
        start: 0,
        end: 0,
        layout: Layout::Gathered,
        kind: Kind::ObjectStart,
        escapes: Escapes::None,
    };
}

/// Reads the arguments object at `at` in `text`, of tool `tool`, and judges each member into the
/// call's problems, keeping the members to write (`null`s are dropped); the offset past its `}`.
/// `ESCAPED`: the object is JSON text inside a string literal, so each of its `"` is `\"`.
/// `None` declines: anything not flat and plain.
// Out of line: inlined into `Quick::judge_arguments`, its reads of a run-time catalog's tables
// were hoisted above `read_compact`, a dozen loads and stores on every call it serves (perf).
#[inline(never)]
fn read_arguments<'a, C: QuickTables, const ESCAPED: bool>(
    text: &'a [u8],
    at: usize,
    root: &'a Schema,
    tool: usize,
    call: &mut Quick<'a, '_, C>,
) -> Option<usize> {
    let model = call.catalog.model();
    if root.properties.len as usize > MOST_ARGUMENTS {
        return None;
    }
    let nullable_optionals = call.nullable;
    let (members, problems) = (&mut *call.members, &mut *call.problems);
    // Notes a problem, making room for problems at the first.
    macro_rules! note {
        ($method:ident($($argument:expr),*)) => {
            problems.get_or_insert_with(Problems::new).$method($($argument),*)
        };
    }
    let quote: &[u8] = if ESCAPED { b"\\\"" } else { b"\"" };
    let mut at = expect(text, spaces(text, at), b"{")?;
    let mut seen = 0u64;
    let mut kept = 0u64;
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
            // How a nested value is laid out (`nested_value::read`).
            let mut nested_layout = Layout::Gathered;
            // Where a string's canonical form went, when it has escapes and the room held it.
            let mut written = None;
            let (start, stop, kind, end, escapes) = if text[at..].starts_with(quote) {
                let start = at + quote.len();
                let used = call.room_used;
                let (stop, escapes) = match call.room.get_mut(used..) {
                    Some(room) if !room.is_empty() => {
                        match escaped_value::read_into::<ESCAPED>(text, start, room)? {
                            Reading::Written { end, len, escapes } => {
                                if escapes {
                                    written = Some((used, used + len));
                                    call.room_used = used + len;
                                }
                                (end, escapes)
                            }
                            Reading::NoRoom => escaped_value::inside_end::<ESCAPED>(text, start)?,
                        }
                    }
                    _ => escaped_value::inside_end::<ESCAPED>(text, start)?,
                };
                let end = expect(text, stop, quote)?;
                (start, stop, Kind::String, end, escapes)
            } else {
                let (stop, kind) = match text.get(at)? {
                    b't' if text[at..].starts_with(b"true") => (at + 4, Kind::True),
                    b'f' if text[at..].starts_with(b"false") => (at + 5, Kind::False),
                    b'n' if text[at..].starts_with(b"null") => (at + 4, Kind::Null),
                    // A nested value is judged whole as it is read, against its property's
                    // node: an unknown or repeated key, or a problem inside, declines.
                    open @ (b'{' | b'[') => {
                        let index = property_named(model, root, &text[key_start..key_end])?;
                        if seen & (1 << index) != 0 {
                            return None;
                        }
                        let node = model.node(model.properties(root)[index].schema);
                        let used = call.room_used;
                        let mut room = nested_value::Room::new(match ESCAPED {
                            true => call.room.get_mut(used..).unwrap_or_default(),
                            false => &mut [],
                        });
                        let (end, layout) = nested_value::read::<ESCAPED>(
                            text,
                            at,
                            model,
                            node,
                            nullable_optionals,
                            1,
                            &mut room,
                        )?;
                        nested_layout = layout;
                        // Written as it was read: its canonical form is in the room.
                        if let Some(len) = room.written().filter(|_| layout == Layout::Whole) {
                            written = Some((used, used + len));
                            call.room_used = used + len;
                        }
                        let kind = match open {
                            b'{' => Kind::ObjectStart,
                            _ => Kind::ArrayStart,
                        };
                        (end, kind)
                    }
                    _ => (integer(text, at)?, Kind::Number),
                };
                // A nested value is written from the text again: how its strings' escapes are
                // spelled is the text's.
                let nested = matches!(kind, Kind::ObjectStart | Kind::ArrayStart);
                (at, stop, kind, stop, nested)
            };
            let value = &text[start..stop];
            let literal = match kind {
                Kind::String => &text[start - 1..=stop],
                _ => value,
            };
            at = end;
            let key = &text[key_start..key_end];
            // A problem may quote the value, and messages quote a literal without escapes:
            // the general path words those.
            let index = property_named(model, root, key);
            if escapes && index.is_none_or(|index| seen & (1 << index) != 0) {
                return None;
            }
            match index {
                None => note!(met(
                    &path,
                    Some(Segment::Key(key_literal)),
                    What::Unknown { object: root }
                )),
                Some(index) if seen & (1 << index) != 0 => {
                    note!(met(&path, Some(Segment::Key(key_literal)), What::Duplicate))
                }
                Some(index) => {
                    seen |= 1 << index;
                    let property = &model.properties(root)[index];
                    let nullable = nullable_optionals && !property.required;
                    let schema = model.node(property.schema);
                    // A union's `null` is written when a branch takes it; otherwise it is an
                    // optional's under OpenAI strict, left out as every such `null` is.
                    let mut keep_null = false;
                    // The usual argument: the right type, with no enum or bound to check.
                    let plain = schema.enumeration.is_none()
                        && match (schema.ty, kind) {
                            // A node without rare keywords has no bound: one compare.
                            (Type::String, Kind::String) => {
                                schema.keywords.rare == 0 || {
                                    let rare = model.rare(schema);
                                    rare.min_length.is_none() && rare.max_length.is_none()
                                }
                            }
                            (Type::Integer | Type::Number, Kind::Number) => {
                                schema.keywords.rare == 0 || {
                                    let rare = model.rare(schema);
                                    rare.minimum.is_none() && rare.maximum.is_none()
                                }
                            }
                            (Type::Boolean, Kind::True | Kind::False) => true,
                            // Judged whole by `nested_value::read`.
                            (Type::Object, Kind::ObjectStart) | (Type::Array, Kind::ArrayStart) => {
                                true
                            }
                            _ => false,
                        };
                    let what = if let Some(branches) = schema.any_of {
                        // A union of plain scalars (`Tool::scalar_unions`): a branch takes the
                        // value, or the general path words the problem.
                        let token = Token {
                            kind,
                            at: start,
                            raw: literal,
                        };
                        let taken = model.subschemas(branches).iter().any(|&branch| {
                            let branch = model.node(branch);
                            match (branch.ty, kind) {
                                (Type::Null, Kind::Null) => true,
                                (Type::Null, _) | (_, Kind::Null) => false,
                                _ => check::scalar(model, token, branch, false).is_none(),
                            }
                        });
                        let left_out = kind == Kind::Null && nullable;
                        if !(taken || left_out) {
                            return None;
                        }
                        keep_null = taken;
                        None
                    } else if plain {
                        None
                    } else if escapes {
                        return None;
                    } else {
                        // A "literal" here has its delimiters first and last, as the checker
                        // reads them; its inside has no escape.
                        let token = Token {
                            kind,
                            at: start,
                            raw: literal,
                        };
                        check::scalar(model, token, schema, nullable)
                    };
                    if let Some(what) = what {
                        note!(met(&path, Some(Segment::Key(key_literal)), what));
                    } else if kind != Kind::Null || keep_null {
                        let (start, stop, escapes) = match (written, escapes, ESCAPED) {
                            (Some((start, end)), _, _) => (start, end, Escapes::Written),
                            (None, false, _) => (start, stop, Escapes::None),
                            (None, true, false) => (start, stop, Escapes::Once),
                            (None, true, true) => (start, stop, Escapes::Twice),
                        };
                        *members.get_mut(index)? = Member {
                            start: start as u32,
                            end: stop as u32,
                            layout: nested_layout,
                            kind,
                            escapes,
                        };
                        kept |= 1 << index;
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
    for (index, property) in model.properties(root).iter().enumerate() {
        if property.required && seen & (1 << index) == 0 {
            note!(missing(0, index as u32, &path, model, property));
        }
    }
    // A tool with unions is judged by `validate.rs`, which words its problems its own way: the
    // general path answers them.
    if problems.is_some() && model.tools[tool].scalar_unions {
        return None;
    }
    call.kept = kept;
    Some(at)
}

/// The offset past `want` at `at` in `input`: eight bytes at a time, the last eight overlapping,
/// differences gathered without a branch (`==` on arrays this long calls `memcmp`, a tenth of a
/// valid call's time in perf).
#[inline(always)]
fn prefix<const N: usize>(input: &[u8], at: usize, want: &[u8; N]) -> Option<usize> {
    const { assert!(N >= 8) };
    let found = input.get(at..at + N)?;
    let word = |x: &[u8], at: usize| u64::from_le_bytes(x[at..at + 8].try_into().unwrap_or([0; 8]));
    let mut differ = word(found, N - 8) ^ word(want, N - 8);
    let mut i = 0;
    while i + 8 < N {
        differ |= word(found, i) ^ word(want, i);
        i += 8;
    }
    (differ == 0).then_some(at + N)
}

/// A nested argument (`nested_value.rs`), member `property` of tool `index`'s arguments.
// Out of line: inlined into `write_valid`'s loop, its reads of a run-time catalog's tables
// were hoisted out of the loop and kept on the stack, on every call, nested or not (perf).
#[inline(never)]
fn write_nested(
    out: &mut impl Write,
    input: &[u8],
    catalog: &impl QuickTables,
    index: usize,
    property: usize,
    member: Member,
) -> io::Result<()> {
    let model = catalog.model();
    let root = model.input(&model.tools[index]);
    let node = model.node(model.properties(root)[property].schema);
    let at = member.start as usize;
    let in_order = member.layout >= Layout::InOrder;
    let twice = member.escapes == Escapes::Twice;
    if member.layout == Layout::Whole {
        let text = input.get(at..member.end as usize).unwrap_or_default();
        return match twice {
            true => nested_value::write_whole::<true>(out, text),
            false => nested_value::write_whole::<false>(out, text),
        };
    }
    match twice {
        true => nested_value::write::<true>(out, input, at, model, node, in_order)?,
        false => nested_value::write::<false>(out, input, at, model, node, in_order)?,
    };
    Ok(())
}

/// What a valid call's answer writes: its members, the bits of those kept, and the room that its
/// strings with escapes were written into.
struct Kept<'m> {
    members: &'m [Member; MOST_ARGUMENTS],
    bits: u64,
    room: &'m [u8],
}

/// `{"arguments":A,"id":I,"name":N,"ok":true}` with the members in their properties' order.
/// Each piece goes to `out` as it is: gathering the answer on the stack first was slower, since
/// copying it out waited on the many small stores that gathered it (perf).
fn write_valid(
    out: &mut impl Write,
    parts: &Parts<'_>,
    input: &[u8],
    catalog: &impl QuickTables,
    index: usize,
    kept: Kept<'_>,
) -> io::Result<()> {
    let Kept {
        members,
        bits: kept,
        room,
    } = kept;
    out.write_all(b"{\"arguments\":{")?;
    let mut left = kept;
    while left != 0 {
        let property = left.trailing_zeros() as usize;
        // `,"key":` and, for a string, its opening quote; the first member has no comma.
        let key = catalog.root_key(index, property);
        out.write_all(if left == kept { &key[1..] } else { key })?;
        left &= left - 1;
        let member = members[property];
        // A union's string: its key has no quote (`catalog::root_key_pieces`).
        if member.kind == Kind::String && key.last() != Some(&b'"') {
            out.write_all(b"\"")?;
        }
        let span = member.start as usize..member.end as usize;
        match (member.kind, member.escapes) {
            (_, Escapes::Written) => out.write_all(&room[span])?,
            (Kind::ObjectStart | Kind::ArrayStart, _) => {
                write_nested(out, input, catalog, index, property, member)?
            }
            (_, Escapes::None) => out.write_all(&input[span])?,
            (_, Escapes::Once) => escaped_value::write_inside::<false>(out, &input[span])?,
            (_, Escapes::Twice) => escaped_value::write_inside::<true>(out, &input[span])?,
        }
        if member.kind == Kind::String {
            out.write_all(b"\"")?;
        }
    }
    // The id is a plain literal here: its own canonical form. The name is the tool's.
    if let Some(id) = parts.id {
        out.write_all(b"},\"id\":")?;
        out.write_all(id)?;
    } else {
        out.write_all(b"}")?;
    }
    out.write_all(catalog.valid_end(index))
}

/// Debug builds: the general path gives the same bytes for a call answered here, every byte
/// of it. The answers are compared a [`WINDOW`] at a time, each pair written again for its
/// window into fixed buffers (an allocation here would show in `tests/alloc.rs`), until a
/// window holds both ends: an answer of any length is compared whole. `general` is the
/// general path's answer over the same catalog.
#[cfg(debug_assertions)]
pub(crate) fn agrees_with_general<C: QuickTables>(
    input: &[u8],
    catalog: &C,
    general: impl Fn(&Call, Shape, &mut Window) -> io::Result<()>,
) {
    let Ok(crate::request::Request {
        op: crate::request::Op::CheckCall { call },
        shape,
    }) = crate::request::parse_general(input, catalog)
    else {
        panic!("the general path refuses a call the quick one answers: {input:?}");
    };
    same_answers(
        input,
        |window| answer(input, window, catalog).is_some(),
        |window| general(&call, shape, window).expect("a window takes every write"),
    );
}

/// Asserts that two writers of one answer write the same bytes, comparing them a [`WINDOW`] at
/// a time; `quick` returns false when it declines the call, and there is then nothing to
/// compare.
#[cfg(debug_assertions)]
fn same_answers(
    input: &[u8],
    mut quick: impl FnMut(&mut Window) -> bool,
    mut general: impl FnMut(&mut Window),
) {
    let mut skip = 0;
    loop {
        let (mut quick_window, mut general_window) = (Window::new(skip), Window::new(skip));
        if !quick(&mut quick_window) {
            return;
        }
        general(&mut general_window);
        assert!(
            quick_window.total == general_window.total
                && quick_window.kept() == general_window.kept(),
            "the quick and general paths answer differently from byte {skip}: {input:?}\n \
             quick: {}\n general: {}",
            String::from_utf8_lossy(quick_window.kept()),
            String::from_utf8_lossy(general_window.kept()),
        );
        if quick_window.total <= skip + WINDOW {
            return;
        }
        skip += WINDOW;
    }
}

/// How much of an answer [`agrees_with_general`] compares at a time.
#[cfg(debug_assertions)]
const WINDOW: usize = 16 * 1024;

/// A writer that counts every byte and keeps those from `skip` to `skip` + [`WINDOW`].
#[cfg(debug_assertions)]
pub(crate) struct Window {
    skip: usize,
    total: usize,
    bytes: [u8; WINDOW],
}

#[cfg(debug_assertions)]
impl Window {
    fn new(skip: usize) -> Window {
        Window {
            skip,
            total: 0,
            bytes: [0; WINDOW],
        }
    }

    fn kept(&self) -> &[u8] {
        &self.bytes[..self.total.saturating_sub(self.skip).min(WINDOW)]
    }
}

#[cfg(debug_assertions)]
impl Write for Window {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let (start, end) = (self.total, self.total + bytes.len());
        let (from, to) = (start.max(self.skip), end.min(self.skip + WINDOW));
        if from < to {
            self.bytes[from - self.skip..to - self.skip]
                .copy_from_slice(&bytes[from - start..to - start]);
        }
        self.total = end;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(all(test, debug_assertions))]
mod tests {
    use super::*;
    use crate::catalog::Compiled;

    /// The cross-check over the compiled-in catalog, as `respond` runs it.
    fn agrees(input: &[u8]) {
        agrees_with_general(input, &Compiled, |call, shape, window| {
            verdict::answer(input, call, shape, window)
        });
    }

    /// Strings with escapes and non-ASCII text are answered here, in every form a model
    /// writes them, with the general path's bytes: escapes spelled twice in OpenAI's and the
    /// Responses API's text, once in Anthropic's, Gemini's and MCP's objects.
    #[test]
    fn strings_with_escapes_are_read_here_with_the_general_paths_bytes() {
        let values = [
            r#"fn main() {\n\tprintln!(\"hi\");\n}"#,
            r"C:\\dir\/file \u00e9\u0041\u001F\u0008\u007f",
            r"\ud83d\ude00 \u2028 é ü 中 \r\f\b",
            r"",
        ];
        for value in values {
            let arguments = format!(r#"{{"path":"src/lib.rs","old_str":"{value}","new_str":"x"}}"#);
            let text = format!("{arguments:?}"); // the arguments as a JSON string, escaped again
            let requests = [
                format!(
                    r#"{{"op":"check_call","call":{{"id":"call_1","type":"function","function":{{"name":"patch_file","arguments":{text}}}}}}}"#
                ),
                format!(
                    r#"{{"op":"check_call","format":"openai","strict":true,"call":{{"id":"call_1","type":"function","function":{{"name":"patch_file","arguments":{text}}}}}}}"#
                ),
                format!(
                    r#"{{"op":"check_call","format":"openai_responses","call":{{"type":"function_call","call_id":"c","name":"patch_file","arguments":{text}}}}}"#
                ),
                format!(
                    r#"{{"op":"check_call","format":"anthropic","call":{{"type":"tool_use","id":"t","name":"patch_file","input":{arguments}}}}}"#
                ),
                format!(
                    r#"{{"op":"check_call","format":"mcp","call":{{"name":"patch_file","arguments":{arguments}}}}}"#
                ),
            ];
            for request in requests {
                let mut out = Vec::new();
                assert!(
                    answer(request.as_bytes(), &mut out, &Compiled).is_some(),
                    "declined: {request}"
                );
                agrees(request.as_bytes());
            }
        }
    }

    /// A harness that sorts its keys puts `call` before `format`: such a call is read here in
    /// every format, and a `format` among the arguments near the end misleads nothing.
    #[test]
    fn a_call_before_its_format_is_read_here() {
        let openai = r#"{"function":{"arguments":"{\"path\":\"a\"}","name":"read_file"},"id":"c","type":"function"}"#;
        let calls = [
            ("openai", openai),
            (
                "openai_responses",
                r#"{"arguments":"{\"path\":\"a\"}","call_id":"c","name":"read_file","type":"function_call"}"#,
            ),
            (
                "anthropic",
                r#"{"id":"t","input":{"path":"a"},"name":"read_file","type":"tool_use"}"#,
            ),
            ("gemini", r#"{"args":{"path":"a"},"name":"read_file"}"#),
            ("mcp", r#"{"arguments":{"path":"a"},"name":"read_file"}"#),
        ];
        for (format, call) in calls {
            // Gemini and MCP have no strict mode: the general path refuses the request.
            let stricts: &[&str] = match format {
                "gemini" | "mcp" => &[""],
                _ => &["", r#","strict":true"#],
            };
            for strict in stricts {
                let request =
                    format!(r#"{{"call":{call},"format":"{format}","op":"check_call"{strict}}}"#);
                let mut out = Vec::new();
                assert!(
                    answer(request.as_bytes(), &mut out, &Compiled).is_some(),
                    "declined: {request}"
                );
                agrees(request.as_bytes());
            }
        }
        // Arguments that name a format where the guess looks, and no `format` field: OpenAI's.
        let misleading = [
            r#"{"op":"check_call","call":{"type":"tool_use","id":"t","name":"read_file","input":{"path":"a","x":{"format":"anthropic"}}}}"#.to_string(),
            format!(r#"{{"op":"check_call","call":{}}}"#, openai.replace(r#"\"a\""#, r#"\"\\\"format\\\":\\\"mcp\\\"\""#)),
            format!(r#"{{"call":{openai},"op":"check_call","x":{{"format":"mcp"}}}}"#),
        ];
        for request in misleading {
            let mut out = Vec::new();
            if answer(request.as_bytes(), &mut out, &Compiled).is_some() {
                agrees(request.as_bytes());
            }
        }
    }

    /// Two answers of 40 KiB that differ only at byte 30,000: the cross-check sees it (it used
    /// to skip any answer over 16 KiB).
    #[test]
    #[should_panic(expected = "answer differently from byte 16384")]
    fn the_cross_check_compares_answers_longer_than_a_window() {
        let write = |window: &mut Window, odd: bool| {
            let mut answer = vec![b'a'; 40 * 1024];
            if odd {
                answer[30_000] = b'b';
            }
            for piece in answer.chunks(1000) {
                window.write_all(piece).unwrap();
            }
        };
        same_answers(
            b"",
            |window| {
                write(window, false);
                true
            },
            |window| write(window, true),
        );
    }

    /// The same answers, alike: no panic, and every window is compared.
    #[test]
    fn the_cross_check_passes_long_answers_that_agree() {
        let mut windows = 0;
        same_answers(
            b"",
            |window| {
                windows += 1;
                window.write_all(&[b'x'; 40 * 1024]).unwrap();
                true
            },
            |window| window.write_all(&[b'x'; 40 * 1024]).unwrap(),
        );
        assert_eq!(windows, 3);
    }
}
