//! Judging a call's arguments against its tool's schema tree.
//!
//! One pass over the arguments' tokens, in document order, with an explicit stack: a frame per
//! open object or array that the schema expects there. A value the schema does not expect (an
//! unknown argument, a wrong type) is noted and read past without a frame, so the stack, the
//! path and the marks of properties seen are bounded by the catalog's deepest path, whatever the
//! call holds. The tokenizer checks syntax on the same pass; a syntax error anywhere replaces
//! every problem found before it.
//!
//! What the checker enforces is the catalog's schema as a JSON Schema 2020-12 validator reads
//! it, with every object closed, and optional properties nullable where the declaration made
//! them so. Its exceptions, each stricter than such a validator: a key given twice, an integer
//! beyond ±(2^53−1), a number beyond a 64-bit float, and (because the tokenizer refuses them) a
//! string with an unpaired surrogate.

use crate::catalog::MAX_NESTING;
use crate::error::MAX_DEPTH;
use crate::schema::{Model, NodeId, Property, Scalar, Schema, Type};
use crate::tokenizer::{decode, same, string_eq, Kind, Stop, Token, Tokenizer};
use crate::validate::{Failure, Reason, Step};

/// The most problems reported for one call.
pub const MAX_PROBLEMS: usize = 16;

pub(crate) use crate::number::MAX_SAFE_INTEGER;

/// One step from a value to a part of it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Segment<'a> {
    /// A key as the arguments spell it: a string literal, quotes and escapes included.
    Key(&'a [u8]),
    /// A property of the catalog, named by it (for a missing one).
    Name(&'a str),
    Index(usize),
}

/// Where in the arguments: the steps from the top.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Path<'a, const N: usize> {
    pub(crate) segments: [Segment<'a>; N],
    pub(crate) len: usize,
}

/// Room for the compiled-in catalog's deepest path: a step per nested container, and one for
/// the value inside; for a catalog with a tool beyond the flat subset, whose schema may recurse,
/// `validate.rs`'s deepest path and a property's name.
pub(crate) const PATH_LEN: usize = if crate::catalog::ALL_FLAT || MAX_NESTING > MAX_DEPTH {
    MAX_NESTING + 1
} else {
    MAX_DEPTH + 1
};

/// The same room over a catalog read at run time, whatever it holds.
pub(crate) const RUN_TIME_PATH_LEN: usize = MAX_DEPTH + 1;

impl<'a, const N: usize> Path<'a, N> {
    pub(crate) const EMPTY: Path<'static, N> = Path {
        segments: [Segment::Index(0); N],
        len: 0,
    };

    pub(crate) fn steps(&self) -> &[Segment<'a>] {
        &self.segments[..self.len]
    }

    fn push(&mut self, segment: Segment<'a>) {
        // The walk only descends where the schema does, so this always fits.
        if let Some(slot) = self.segments.get_mut(self.len) {
            *slot = segment;
            self.len += 1;
        }
    }
}

/// A value as the model gave it: its kind and, for a scalar, its literal.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Found<'a> {
    pub(crate) kind: Kind,
    pub(crate) raw: &'a [u8],
}

impl<'a> Found<'a> {
    fn of(token: Token<'a>) -> Found<'a> {
        Found {
            kind: token.kind,
            raw: token.raw,
        }
    }
}

/// A bound that a value broke.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Bound<'a> {
    Minimum(&'a str),
    Maximum(&'a str),
    /// An integer beyond ±(2^53−1).
    SafeInteger,
    /// A number beyond a 64-bit float.
    Float,
    MinLength(u64, usize),
    MaxLength(u64, usize),
    MinItems(u64, usize),
    MaxItems(u64, usize),
}

/// What is wrong, with what the message needs.
#[derive(Clone, Copy, Debug)]
pub(crate) enum What<'a> {
    /// A key the object does not declare; `object` lists those it does.
    Unknown {
        object: &'a Schema,
    },
    Duplicate,
    Missing {
        property: &'a Property,
    },
    WrongType {
        expected: &'a Schema,
        nullable: bool,
        found: Found<'a>,
    },
    OutOfRange {
        bound: Bound<'a>,
        found: Found<'a>,
    },
    NotInEnum {
        values: &'a [Scalar],
        found: Found<'a>,
    },
    /// A problem that `validate.rs` found, beyond the flat subset: the node whose keyword
    /// failed, and why.
    Schema {
        node: NodeId,
        reason: Reason,
        found: Found<'a>,
    },
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Problem<'a, const N: usize> {
    pub(crate) path: Path<'a, N>,
    pub(crate) what: What<'a>,
}

/// The problems of one call: those met in document order, then missing arguments in the order
/// of their objects in the document and of the properties in the schema; at most
/// [`MAX_PROBLEMS`] in all.
pub(crate) struct Problems<'a, const N: usize> {
    met: [Option<Problem<'a, N>>; MAX_PROBLEMS],
    met_len: usize,
    /// Sorted by (object, property); only the first [`MAX_PROBLEMS`] are kept.
    missing: [Option<(u32, u32, Problem<'a, N>)>; MAX_PROBLEMS],
    missing_len: usize,
}

impl<'a, const N: usize> Problems<'a, N> {
    pub(crate) const fn new() -> Problems<'a, N> {
        Problems {
            met: [None; MAX_PROBLEMS],
            met_len: 0,
            missing: [None; MAX_PROBLEMS],
            missing_len: 0,
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.met_len == 0 && self.missing_len == 0
    }

    /// The problems in report order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &Problem<'a, N>> {
        let met = self.met[..self.met_len].iter().flatten();
        let missing = self.missing[..self.missing_len]
            .iter()
            .flatten()
            .map(|(_, _, problem)| problem);
        met.chain(missing).take(MAX_PROBLEMS)
    }

    #[cold]
    pub(crate) fn met(&mut self, path: &Path<'a, N>, segment: Option<Segment<'a>>, what: What<'a>) {
        if let Some(slot) = self.met.get_mut(self.met_len) {
            let mut path = *path;
            if let Some(segment) = segment {
                path.push(segment);
            }
            *slot = Some(Problem { path, what });
            self.met_len += 1;
        }
    }

    /// The one problem `validate.rs` reports: its deepest failure, with the value found there.
    #[cold]
    pub(crate) fn schema(&mut self, model: Model<'a>, failure: &Failure<'a>, text: &'a [u8]) {
        let mut path = Path::EMPTY;
        for step in &failure.steps[..failure.depth] {
            path.push(match *step {
                Step::Key(literal) => Segment::Key(literal),
                Step::Index(index) => Segment::Index(index),
            });
        }
        if let Reason::Missing(name) = failure.reason {
            path.push(Segment::Name(model.str(name)));
        }
        let found = text
            .get(failure.at..)
            .and_then(|rest| Tokenizer::new(rest).expect_token().ok())
            .map_or(
                Found {
                    kind: Kind::Null,
                    raw: b"",
                },
                |token| Found {
                    kind: token.kind,
                    raw: if matches!(token.kind, Kind::ObjectStart | Kind::ArrayStart) {
                        b""
                    } else {
                        token.raw
                    },
                },
            );
        let what = What::Schema {
            node: failure.node,
            reason: failure.reason,
            found,
        };
        if let Some(slot) = self.met.get_mut(self.met_len) {
            *slot = Some(Problem { path, what });
            self.met_len += 1;
        }
    }

    #[cold]
    pub(crate) fn missing(
        &mut self,
        object: u32,
        index: u32,
        path: &Path<'a, N>,
        model: Model<'a>,
        property: &'a Property,
    ) {
        let key = (object, index);
        let mut at = self.missing_len;
        while at > 0 && self.missing[at - 1].is_some_and(|(o, i, _)| (o, i) > key) {
            at -= 1;
        }
        if at == MAX_PROBLEMS {
            return;
        }
        let end = (self.missing_len + 1).min(MAX_PROBLEMS);
        self.missing.copy_within(at..end - 1, at + 1);
        let mut path = *path;
        path.push(Segment::Name(model.str(property.name)));
        self.missing[at] = Some((
            object,
            index,
            Problem {
                path,
                what: What::Missing { property },
            },
        ));
        self.missing_len = end;
    }
}

/// An open container that the schema expects.
#[derive(Clone, Copy)]
enum Frame<'m> {
    Object {
        schema: &'m Schema,
        /// The first of its words in `seen`.
        words: usize,
        /// Its place among the document's objects, for ordering missing arguments.
        ordinal: u32,
    },
    Array {
        schema: &'m Schema,
        items: usize,
    },
}

/// Checks `arguments`, one JSON document whose first token is `{`, against `root`, a node of
/// `model`, noting problems in `problems`. `nullable_optionals` says that the declaration made
/// every optional property nullable (OpenAI strict). `Err` is a syntax error, which the
/// tokenizer holds. `NESTING` and `WORDS` bound the catalog's deepest path ([`Bounds`]): the
/// compiled-in catalog's own, or the most a catalog read at run time may have.
pub(crate) fn check<'a, const NESTING: usize, const WORDS: usize, const N: usize>(
    model: Model<'a>,
    tokens: &mut Tokenizer<'a>,
    root: &'a Schema,
    nullable_optionals: bool,
    problems: &mut Problems<'a, N>,
) -> Result<(), Stop> {
    let mut frames = [Frame::Array {
        schema: root,
        items: 0,
    }; NESTING];
    let mut depth = 0;
    let mut path = Path::EMPTY;
    let mut seen = [0u64; WORDS];
    let mut words_used = 0;
    let mut objects = 0u32;
    // The root object: the caller has read its `{`.
    open_object(
        &mut frames,
        &mut depth,
        root,
        &mut seen,
        &mut words_used,
        &mut objects,
    );
    while depth > 0 {
        let token = tokens.expect_token()?;
        match frames[depth - 1] {
            Frame::Object {
                schema,
                words,
                ordinal,
            } => {
                if token.kind == Kind::ObjectEnd {
                    for (index, property) in model.properties(schema).iter().enumerate() {
                        if property.required && seen[words + index / 64] & (1 << (index % 64)) == 0
                        {
                            problems.missing(ordinal, index as u32, &path, model, property);
                        }
                    }
                    words_used = words;
                    close(&mut depth, &mut path);
                    continue;
                }
                let value = tokens.expect_token()?;
                let Some(index) = property_index(model, schema, token.raw) else {
                    problems.met(
                        &path,
                        Some(Segment::Key(token.raw)),
                        What::Unknown { object: schema },
                    );
                    tokens.skip_any_depth(value)?;
                    continue;
                };
                let (word, bit) = (words + index / 64, 1 << (index % 64));
                if seen[word] & bit != 0 {
                    problems.met(&path, Some(Segment::Key(token.raw)), What::Duplicate);
                    tokens.skip_any_depth(value)?;
                    continue;
                }
                seen[word] |= bit;
                let property = &model.properties(schema)[index];
                path.push(Segment::Key(token.raw));
                let nullable = nullable_optionals && !property.required;
                let child = model.node(property.schema);
                if !enter(model, tokens, value, child, nullable, &mut path, problems)? {
                    continue;
                }
                match value.kind {
                    Kind::ObjectStart => open_object(
                        &mut frames,
                        &mut depth,
                        child,
                        &mut seen,
                        &mut words_used,
                        &mut objects,
                    ),
                    _ => open_array(&mut frames, &mut depth, child),
                }
            }
            Frame::Array { schema, items } => {
                if token.kind == Kind::ArrayEnd {
                    let found = Found {
                        kind: Kind::ArrayStart,
                        raw: b"",
                    };
                    let rare = model.rare(schema);
                    let bound = match (rare.min_items, rare.max_items) {
                        (Some(min), _) if (items as u64) < min => Some(Bound::MinItems(min, items)),
                        (_, Some(max)) if items as u64 > max => Some(Bound::MaxItems(max, items)),
                        _ => None,
                    };
                    if let Some(bound) = bound {
                        problems.met(&path, None, What::OutOfRange { bound, found });
                    }
                    close(&mut depth, &mut path);
                    continue;
                }
                frames[depth - 1] = Frame::Array {
                    schema,
                    items: items + 1,
                };
                // The catalog reader gives every array its items.
                let Some(element) = schema.items.map(|items| model.node(items)) else {
                    tokens.skip_any_depth(token)?;
                    continue;
                };
                path.push(Segment::Index(items));
                if !enter(model, tokens, token, element, false, &mut path, problems)? {
                    continue;
                }
                match token.kind {
                    Kind::ObjectStart => open_object(
                        &mut frames,
                        &mut depth,
                        element,
                        &mut seen,
                        &mut words_used,
                        &mut objects,
                    ),
                    _ => open_array(&mut frames, &mut depth, element),
                }
            }
        }
    }
    tokens.drain()
}

/// Looks at the value that starts with `token`, which sits at the end of `path`, against
/// `schema`. A scalar is judged here and its step taken off the path; so is a container of the
/// wrong type, which is read past. `Ok(true)` means a container the schema expects has opened,
/// and the caller pushes its frame; its step stays on the path until it closes.
#[inline]
fn enter<'a, const N: usize>(
    model: Model<'a>,
    tokens: &mut Tokenizer<'a>,
    token: Token<'a>,
    schema: &'a Schema,
    nullable: bool,
    path: &mut Path<'a, N>,
    problems: &mut Problems<'a, N>,
) -> Result<bool, Stop> {
    if !matches!(token.kind, Kind::ObjectStart | Kind::ArrayStart) {
        if let Some(what) = scalar(model, token, schema, nullable) {
            problems.met(path, None, what);
        }
        path.len -= 1;
        return Ok(false);
    }
    if let Some(expected) = container(schema, token.kind) {
        if expected == Type::Object && !schema.has_properties {
            // A free-form object (no `properties`, a nested one: the root always declares
            // them): any members, each any value.
            free_form(tokens, path, problems)?;
            path.len -= 1;
            return Ok(false);
        }
        return Ok(true);
    }
    problems.met(path, None, wrong_container(schema, token.kind, nullable));
    tokens.skip_any_depth(token)?;
    path.len -= 1;
    Ok(false)
}

/// Reads the members of a free-form object whose `{` was just read: any keys, any values, but
/// each number must fit a 64-bit float, since a valid call's answer writes it as one and
/// `1e400` has no such form. A member holding such a number is out of range at its own key, as
/// the general checker reports it.
fn free_form<'a, const N: usize>(
    tokens: &mut Tokenizer<'a>,
    path: &Path<'a, N>,
    problems: &mut Problems<'a, N>,
) -> Result<(), Stop> {
    loop {
        let key = tokens.expect_token()?;
        if key.kind == Kind::ObjectEnd {
            return Ok(());
        }
        let value = tokens.expect_token()?;
        tokens.skip_any_depth(value)?;
        let text = tokens.input();
        if let Some(at) = crate::number::overflowing_number(text, value.at) {
            let raw = Tokenizer::new(&text[at..])
                .expect_token()
                .map_or(&b""[..], |number| number.raw);
            let found = Found {
                kind: Kind::Number,
                raw,
            };
            let bound = Bound::Float;
            problems.met(
                path,
                Some(Segment::Key(key.raw)),
                What::OutOfRange { bound, found },
            );
        }
    }
}

/// A container that opens with `kind` (`{` or `[`) against `schema`: the type it is, when the
/// schema's is that type; `None` when it is of the wrong type.
#[inline]
pub(crate) fn container(schema: &Schema, kind: Kind) -> Option<Type> {
    let expected = match kind {
        Kind::ObjectStart => Type::Object,
        _ => Type::Array,
    };
    (schema.ty == expected).then_some(expected)
}

/// The problem of a container of the wrong type, which is read past.
pub(crate) fn wrong_container(schema: &Schema, kind: Kind, nullable: bool) -> What<'_> {
    What::WrongType {
        expected: schema,
        nullable,
        found: Found { kind, raw: b"" },
    }
}

fn open_object<'m>(
    frames: &mut [Frame<'m>],
    depth: &mut usize,
    schema: &'m Schema,
    seen: &mut [u64],
    words_used: &mut usize,
    objects: &mut u32,
) {
    let words = *words_used;
    let needed = (schema.properties.len as usize).div_ceil(64);
    seen[words..words + needed].fill(0);
    *words_used += needed;
    frames[*depth] = Frame::Object {
        schema,
        words,
        ordinal: *objects,
    };
    *objects += 1;
    *depth += 1;
}

fn open_array<'m>(frames: &mut [Frame<'m>], depth: &mut usize, schema: &'m Schema) {
    frames[*depth] = Frame::Array { schema, items: 0 };
    *depth += 1;
}

/// Closes the innermost frame, and takes its step off the path. Between values, a frame at
/// depth `d` has `d - 1` steps: its own, and one for each frame around it but the root.
fn close<const N: usize>(depth: &mut usize, path: &mut Path<'_, N>) {
    *depth -= 1;
    path.len = depth.saturating_sub(1);
}

/// The most properties [`property_index`] tries one by one rather than by halves.
const FEW_PROPERTIES: usize = 16;

/// The index in `schema.properties` of the property that the key literal names. Properties are
/// sorted, and their names are plain ASCII, so a key without escapes is found by its bytes.
#[inline]
pub(crate) fn property_index(model: Model<'_>, schema: &Schema, key: &[u8]) -> Option<usize> {
    let inner = key.get(1..key.len().saturating_sub(1))?;
    if !inner.contains(&b'\\') {
        return property_named(model, schema, inner);
    }
    model
        .properties(schema)
        .iter()
        .position(|property| string_eq(key, model.str(property.name)))
}

/// The index in `schema.properties` of the property named `name`, as bytes (a key without
/// escapes). A few names are tried in turn with an inline compare: a binary search's `memcmp`
/// calls were a quarter of a nested call's time (perf, issue 17).
#[inline(always)]
pub(crate) fn property_named(model: Model<'_>, schema: &Schema, name: &[u8]) -> Option<usize> {
    let properties = model.properties(schema);
    if properties.len() <= FEW_PROPERTIES {
        return properties
            .iter()
            .position(|property| same(model.bytes(property.name), name));
    }
    properties
        .binary_search_by(|property| model.bytes(property.name).cmp(name))
        .ok()
}

/// What is wrong with a scalar (or `null`) against its schema node, if anything: its type, then
/// whether it is a number at all, then the enum, then the bounds.
#[inline]
pub(crate) fn scalar<'a>(
    model: Model<'a>,
    token: Token<'a>,
    schema: &'a Schema,
    nullable: bool,
) -> Option<What<'a>> {
    let found = Found::of(token);
    let wrong_type = What::WrongType {
        expected: schema,
        nullable,
        found,
    };
    let out_of_range = |bound| Some(What::OutOfRange { bound, found });
    match (schema.ty, token.kind) {
        (_, Kind::Null) if nullable => None,
        (Type::String, Kind::String) => {
            if let Some(values) = schema.enumeration {
                let values = model.values(values);
                let listed = values.iter().any(|value| {
                    matches!(value, Scalar::String(text) if string_eq(token.raw, model.str(*text)))
                });
                if !listed {
                    return Some(What::NotInEnum { values, found });
                }
            }
            if schema.keywords.rare == 0 {
                return None;
            }
            let rare = model.rare(schema);
            if rare.min_length.is_none() && rare.max_length.is_none() {
                return None;
            }
            let length = characters(token.raw);
            match (rare.min_length, rare.max_length) {
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
            let value = number(token.raw);
            if !value.is_finite() {
                return out_of_range(Bound::Float);
            }
            if schema.ty == Type::Integer {
                if value.fract() != 0.0 {
                    return Some(wrong_type);
                }
                if value.abs() > MAX_SAFE_INTEGER {
                    return out_of_range(Bound::SafeInteger);
                }
            }
            if let Some(values) = schema.enumeration {
                let values = model.values(values);
                let listed = values
                    .iter()
                    .any(|listed| matches!(listed, Scalar::Number(n) if n.value == value));
                if !listed {
                    return Some(What::NotInEnum { values, found });
                }
            }
            let rare = model.rare(schema);
            match (rare.minimum, rare.maximum) {
                (Some(min), _) if value < min.value => {
                    out_of_range(Bound::Minimum(model.str(min.text)))
                }
                (_, Some(max)) if value > max.value => {
                    out_of_range(Bound::Maximum(model.str(max.text)))
                }
                _ => None,
            }
        }
        (Type::Boolean, Kind::True | Kind::False) => None,
        _ => Some(wrong_type),
    }
}

/// The value of a number literal from a valid document: infinite when it overflows a 64-bit
/// float (which the caller refuses).
#[inline]
pub(crate) fn number(raw: &[u8]) -> f64 {
    // The usual literal, an integer of at most 15 digits, is below 2^53: exact as a float, and
    // read here without the float parser, which was a tenth of a nested call's check (perf,
    // `todo_write`'s `level`). The sign is the float's, so `-0` is still `-0.0`.
    let (negative, digits) = match raw {
        [b'-', digits @ ..] => (true, digits),
        digits => (false, digits),
    };
    if !digits.is_empty() && digits.len() <= 15 && digits.iter().all(u8::is_ascii_digit) {
        let whole = digits
            .iter()
            .fold(0u64, |whole, &digit| whole * 10 + u64::from(digit - b'0'));
        let value = whole as f64;
        return if negative { -value } else { value };
    }
    // Number literals are ASCII, and every JSON number is a valid Rust float literal.
    crate::number::float(raw)
}

/// How many characters (Unicode code points) a string literal from a valid document holds.
fn characters(literal: &[u8]) -> usize {
    let inner = literal
        .get(1..literal.len().saturating_sub(1))
        .unwrap_or(b"");
    if !inner.contains(&b'\\') {
        // Every character starts with exactly one byte that is not a continuation byte.
        return inner.iter().filter(|&&byte| byte & 0xC0 != 0x80).count();
    }
    let mut count = 0;
    decode(literal, |_| count += 1);
    count
}

#[cfg(test)]
mod tests {
    /// The integer reading of [`super::number`] gives the float parser's value, to the bit,
    /// `-0` included; what it does not read goes to the parser.
    #[test]
    fn integers_read_without_the_float_parser_are_the_parsers_values() {
        let mut literals: Vec<String> = [
            "0",
            "-0",
            "7",
            "-7",
            "10",
            "999999999999999",
            "-999999999999999",
            "9007199254740993",
            "1000000000000000",
            "1.5",
            "-0.0",
            "1e2",
            "1E400",
        ]
        .map(String::from)
        .to_vec();
        let mut x = 1u64;
        for _ in 0..2000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let digits = (x >> 60) as usize + 1;
            let value = (x >> 8) % 10u64.pow(digits.min(15) as u32);
            literals.push(format!("{}{value}", if x & 1 == 0 { "-" } else { "" }));
        }
        for literal in literals {
            let parsed: f64 = literal.parse().unwrap();
            let read = super::number(literal.as_bytes());
            assert_eq!(read.to_bits(), parsed.to_bits(), "{literal}");
        }
    }
}
