//! What a request asks for.
//!
//! Two readers, one answer. [`quick`] reads the request as harnesses send it straight through;
//! whatever it declines, every error included, [`general`] reads from the tokenizer's tokens in
//! one pass. Debug builds check that the two agree on everything the quick one accepts.
//!
//! Meaning comes second to syntax: the first problem with what the request *means* is held while
//! the rest of the document is still tokenized, and a syntax error anywhere wins over it. So a
//! malformed document always reports `malformed_json`, whatever else is wrong with it.
//!
//! Among meaning errors the order is: the object's members in document order (`unknown_field`,
//! `duplicate_field`, `wrong_type`); then `op` (`missing_field`, `unknown_op`); then the op's
//! fields in a fixed order: `tool` (`unknown_field` in a list, `missing_field`), `format`
//! (`unknown_format`), `strict` (`unsupported`), and last the tool's name (`unknown_tool`).
//! A `check_turn` goes on from `strict` with `turn` (`missing_field`, `unsupported` for `mcp`,
//! `wrong_type` for a turn of the wrong kind for the format), and its calls' envelopes.
//! A `tool_choice` goes on from `strict` with `choice` (`missing_field`, `wrong_type` for a word
//! it does not know), the name of the tool it forces (`unknown_tool`), and last what the format
//! cannot say (`unsupported`).

use crate::call::{self, Call, Span};
use crate::catalog::{self, Names};
use crate::error::Error;
use crate::error::MAX_INPUT;
use crate::spelling;
use crate::tokenizer::{
    plain_run_end, same, skip_whitespace, string_eq, Kind, Stop, Token, Tokenizer, PLAIN,
};
use crate::tool_choice::{self, Choice, CHOICE_EXPECTED, CHOICE_WORDS};
use crate::wire::{Format, Shape, FORMAT_LIST};

/// A request understood.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    pub op: Op,
    pub shape: Shape,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// One tool's declaration; the index is into [`catalog::TOOLS`].
    ToolSchema { tool: usize },
    /// Every tool's declaration, as one array; with `skip_unsupported`, the declarations the
    /// shape can give, and the tools it cannot, with why.
    ToolList { skip_unsupported: bool },
    /// Judge a tool call that a model sent back.
    CheckCall { call: Call },
    /// The provider's request fields for a tool choice, and for parallel calls when given.
    ToolChoice {
        choice: Choice,
        parallel: Option<bool>,
    },
    /// Judge every tool call of one assistant turn, as the provider returned it (`turn.rs`).
    CheckTurn { turn: Span },
}

/// The ops there are, for error messages.
macro_rules! ops {
    () => {
        "tool_schema, tool_list, check_call, tool_choice, check_turn, call_delta"
    };
}

/// What an `unknown_op` message advises for the op literal `literal`: the op it is closest to,
/// when one is near (a letter or two off, or a plural), or stream mode for the op only stream
/// mode has; and the ops there are.
#[cold]
fn op_advice(literal: &[u8]) -> &'static str {
    macro_rules! advice {
        ($($op:literal),*) => {
            [$(($op, concat!("did you mean \"", $op, "\"? The ops are ", ops!()))),*]
        };
    }
    const ADVICE: [(&str, &str); 6] = advice!(
        "tool_schema",
        "tool_list",
        "check_call",
        "tool_choice",
        "check_turn",
        "call_delta"
    );
    if string_eq(literal, "call_delta") {
        return "call_delta is answered by CallStreams, which keeps the streams between events \
                (the CLI uses it in both modes)";
    }
    if string_eq(literal, "use_catalog") {
        return "use_catalog is a request of stream mode only: run tool-schema --stream, \
                and send it there";
    }
    let inner = literal
        .get(1..literal.len().saturating_sub(1))
        .unwrap_or(b"");
    let near = ADVICE
        .iter()
        .map(|&(op, advice)| (spelling::edit_distance(inner, op.as_bytes()), advice))
        .min_by_key(|&(distance, _)| distance);
    match near {
        Some((distance, advice)) if distance <= 2 && inner.len() <= 64 => advice,
        _ => concat!("expected ", ops!()),
    }
}

/// The op a request line names, for a message about the line as a whole (an `internal`
/// error): one of the ops there are, or `"unnamed"` when the line names none of them.
#[cold]
pub(crate) fn op_named(line: &[u8]) -> &'static str {
    let mut tokens = Tokenizer::new(line);
    if !tokens
        .expect_token()
        .is_ok_and(|token| token.kind == Kind::ObjectStart)
    {
        return "unnamed";
    }
    while let (Ok(key), Ok(value)) = (tokens.expect_token(), tokens.expect_token()) {
        if key.kind != Kind::Key {
            break;
        }
        if string_eq(key.raw, "op") && value.kind == Kind::String {
            let ops = OP_NAMES.iter().chain(&["call_delta", "use_catalog"]);
            return ops
                .copied()
                .find(|op| string_eq(value.raw, op))
                .unwrap_or("unnamed");
        }
        if tokens.skip(value).is_err() {
            break;
        }
    }
    "unnamed"
}

/// A field no request has: `unknown_field`, unless the line is stream mode's `use_catalog`
/// (its `path`), which is `unknown_op` here, saying where it belongs.
#[cold]
fn unknown_field(input: &[u8], key: Token<'_>) -> Error {
    let mut tokens = Tokenizer::new(input);
    let _open = tokens.expect_token();
    while let (Ok(name), Ok(value)) = (tokens.expect_token(), tokens.expect_token()) {
        if name.kind != Kind::Key {
            break;
        }
        if string_eq(name.raw, "op") && string_eq(value.raw, "use_catalog") {
            return Error::unknown_op(value.at, value.raw, op_advice(value.raw));
        }
        if tokens.skip(value).is_err() {
            break;
        }
    }
    Error::unknown_field(key.at, key.raw, ANY_FIELD)
}

/// The ops' names; an op is known by its index here.
const OP_NAMES: [&str; 5] = [
    "tool_schema",
    "tool_list",
    "check_call",
    "tool_choice",
    "check_turn",
];
const TOOL_SCHEMA: usize = 0;
const TOOL_LIST: usize = 1;
const CHECK_CALL: usize = 2;
const TOOL_CHOICE: usize = 3;
/// The ops the quick path reads, as the first of [`OP_NAMES`]: each word more it tries costs
/// every request a comparison (a loop the compiler no longer unrolls at seven fields).
const QUICK_OPS: [&str; 2] = [OP_NAMES[TOOL_SCHEMA], OP_NAMES[TOOL_LIST]];
const CHECK_TURN: usize = 4;

/// The fields a request may have, and the JSON type each takes (`Kind::True` standing for
/// either boolean); a field is known by its index here. `choice` may be an object too, and
/// `turn` is an object or an array, as the format has it.
const FIELD_NAMES: [&str; 9] = [
    "op",
    "tool",
    "format",
    "strict",
    "call",
    "choice",
    "parallel",
    "turn",
    "skip_unsupported",
];
const FIELD_KINDS: [Kind; FIELD_NAMES.len()] = [
    Kind::String,
    Kind::String,
    Kind::String,
    Kind::True,
    Kind::ObjectStart,
    Kind::String,
    Kind::True,
    Kind::ObjectStart,
    Kind::True,
];
const OP: usize = 0;
const TOOL: usize = 1;
const FORMAT: usize = 2;
const STRICT: usize = 3;
const CALL: usize = 4;
const CHOICE: usize = 5;
const PARALLEL: usize = 6;
const TURN: usize = 7;
const SKIP_UNSUPPORTED: usize = 8;
/// The fields the quick path reads, the first of [`FIELD_NAMES`].
const QUICK_FIELDS: [&str; 4] = [
    FIELD_NAMES[OP],
    FIELD_NAMES[TOOL],
    FIELD_NAMES[FORMAT],
    FIELD_NAMES[STRICT],
];
const ANY_FIELD: &str = "op, tool, format, strict, call, choice, parallel, turn, skip_unsupported";
const SCHEMA_FIELD: &str = "op, tool, format, strict";
const LIST_FIELD: &str = "op, format, strict, skip_unsupported";
const CHECK_FIELD: &str = "op, format, strict, call";
const CHOICE_FIELD: &str = "op, format, strict, choice, parallel";
const TURN_FIELD: &str = "op, format, strict, turn";

/// Reads one request as harnesses send a `tool_schema` or `tool_list`, or `None`. Allocates
/// nothing: strings stay as borrowed literals until compared.
#[inline(always)]
pub(crate) fn parse_quick(input: &[u8], names: &impl Names) -> Option<Result<Request, Error>> {
    let request = quick(input, names)?;
    // Every debug build (tests, fuzzing) checks the quick path against the general one.
    debug_assert_eq!(
        general(input, names),
        Ok(request),
        "quick path disagrees on {input:?}"
    );
    Some(within_limits(request, names))
}

/// Any request, every error.
#[inline(never)]
pub(crate) fn parse_general(input: &[u8], names: &impl Names) -> Result<Request, Error> {
    within_limits(general(input, names)?, names)
}

/// Refuses a shape that the provider would refuse for this catalog: Anthropic strict mode's
/// limits on one request (see [`catalog::ANTHROPIC_STRICT_TOOLS`]). A list is one request with
/// every tool; a single declaration counts that tool's optional properties only.
#[inline]
fn within_limits(request: Request, names: &impl Names) -> Result<Request, Error> {
    let anthropic_strict =
        request.shape.strict() && matches!(request.shape.format(), Format::Anthropic);
    if !anthropic_strict {
        return Ok(request);
    }
    let (tools, optional) = match request.op {
        Op::ToolList { .. } => (names.count(), names.optional_in_all()),
        Op::ToolSchema { tool } => (1, names.optional(tool)),
        // A call is judged against the catalog, whatever the provider's limits on declaring it;
        // a tool choice declares nothing.
        Op::CheckCall { .. } | Op::ToolChoice { .. } | Op::CheckTurn { .. } => return Ok(request),
    };
    if tools > catalog::ANTHROPIC_STRICT_TOOLS {
        return Err(Error::over_limit(
            0,
            "Anthropic strict mode (\"format\":\"anthropic\",\"strict\":true) takes strict tools in one request",
            catalog::ANTHROPIC_STRICT_TOOLS,
            tools,
            "ask for the tools one at a time with tool_schema, or without strict",
        ));
    }
    if optional > catalog::ANTHROPIC_STRICT_OPTIONAL {
        return Err(Error::over_limit(
            0,
            "Anthropic strict mode (\"format\":\"anthropic\",\"strict\":true) takes optional properties across one request's tools",
            catalog::ANTHROPIC_STRICT_OPTIONAL,
            optional,
            "ask for fewer tools at once, or without strict",
        ));
    }
    Ok(request)
}

/// The general reader: any document, every error, through the tokenizer.
#[inline(never)]
fn general(input: &[u8], names: &impl Names) -> Result<Request, Error> {
    let mut tokens = Tokenizer::new(input);
    let meaning = read(input, &mut tokens, names);
    match meaning {
        Err(error) if error.is_syntax() => Err(error),
        _ => match tokens.drain() {
            Ok(()) => meaning,
            Err(Stop) => Err(tokens.error()),
        },
    }
}

/// The request as harnesses send it, read straight through: one flat object of known fields,
/// each at most once, whose values are spelled exactly as the vocabulary spells them (no
/// escapes) or are booleans, with whitespace wherever JSON allows it. Anything else, every error
/// included, is `None` and goes to [`general`], which gives the same answer for everything this
/// accepts (checked on every input by debug builds: the tests and the fuzz targets).
///
/// Why a second reader: the general one pays for a tokenizer state dispatch per token, a scan
/// for each string's end and a decoding comparison per name, which is most of an ordinary
/// request's cost. The vocabulary is closed and every word in it is plain ASCII, so a string
/// literal that starts with `"`, then a word, then `"` is that word, and needs no scan.
#[inline(always)]
fn quick(input: &[u8], names: &impl Names) -> Option<Request> {
    if input.len() > MAX_INPUT {
        return None;
    }
    let (mut list, mut tool, mut format, mut strict) = (None, None, None, None);
    let mut at = after(input, 0, b'{')?;
    loop {
        let (field, end) = spelled(input, at, &QUICK_FIELDS)?;
        at = after(input, end, b':')?;
        let end = match field {
            OP if list.is_none() => {
                // Any other op is not spelled here, and goes the general way.
                let (op, end) = spelled(input, at, &QUICK_OPS)?;
                list = Some(op == TOOL_LIST);
                end
            }
            TOOL if tool.is_none() => {
                let (index, end) = tool_name(input, at, names)?;
                tool = Some(index);
                end
            }
            FORMAT if format.is_none() => {
                let (index, end) = spelled(input, at, &Format::NAMES)?;
                format = Some(Format::ALL[index]);
                end
            }
            STRICT if strict.is_none() => {
                at = skip_whitespace(input, at);
                match input.get(at..) {
                    Some([b't', b'r', b'u', b'e', ..]) => {
                        strict = Some(true);
                        at + 4
                    }
                    Some([b'f', b'a', b'l', b's', b'e', ..]) => {
                        strict = Some(false);
                        at + 5
                    }
                    _ => return None,
                }
            }
            _ => return None,
        };
        at = skip_whitespace(input, end);
        match input.get(at) {
            Some(b',') => at += 1,
            Some(b'}') => break,
            _ => return None,
        }
    }
    if skip_whitespace(input, at + 1) != input.len() {
        return None;
    }
    let op = match (list?, tool) {
        (false, Some(tool)) => Op::ToolSchema { tool },
        (true, None) => Op::ToolList {
            skip_unsupported: false,
        },
        _ => return None,
    };
    let shape = Shape::new(format.unwrap_or(Format::OpenAi), strict.unwrap_or(false))?;
    Some(Request { op, shape })
}

// Every word `spelled` looks for stands for itself in a string literal: every byte is one the
// tokenizer calls plain.
const _: () = {
    const fn plain(words: &[&str]) {
        let mut w = 0;
        while w < words.len() {
            let word = words[w].as_bytes();
            let mut i = 0;
            while i < word.len() {
                assert!(PLAIN[word[i] as usize]);
                i += 1;
            }
            w += 1;
        }
    }
    plain(&FIELD_NAMES);
    plain(&OP_NAMES);
    plain(&catalog::NAMES);
    plain(&Format::NAMES);
};

/// The catalog's tool that the string literal at `at` (after any whitespace) names exactly,
/// without escapes, and the offset just past it.
#[inline(always)]
fn tool_name(input: &[u8], mut at: usize, names: &impl Names) -> Option<(usize, usize)> {
    if input.get(at) != Some(&b'"') {
        at = skip_whitespace(input, at);
    }
    let literal = input.get(at..)?;
    if literal.first() != Some(&b'"') {
        return None;
    }
    // A name is plain ASCII, so its end is the first byte that is not plain (eight at a time),
    // and that must be the closing quote; then one hash finds the tool.
    let end = plain_run_end(input, at + 1);
    if input.get(end) != Some(&b'"') {
        return None;
    }
    let index = names.find_name(&input[at + 1..end])?;
    Some((index, end + 1))
}

/// The offset just past `byte`, which must come at `at` or after whitespace.
#[inline(always)]
pub(crate) fn after(input: &[u8], at: usize, byte: u8) -> Option<usize> {
    if input.get(at) == Some(&byte) {
        return Some(at + 1);
    }
    let at = skip_whitespace(input, at);
    (input.get(at) == Some(&byte)).then_some(at + 1)
}

/// Which of `words` the string literal at `at` (after any whitespace) spells exactly, and the
/// offset just past it. Only for words of plain ASCII, which stand for themselves in a literal.
#[inline(always)]
pub(crate) fn spelled<const N: usize>(
    input: &[u8],
    mut at: usize,
    words: &[&str; N],
) -> Option<(usize, usize)> {
    if input.get(at) != Some(&b'"') {
        at = skip_whitespace(input, at);
    }
    let literal = input.get(at..)?;
    if literal.first() != Some(&b'"') {
        return None;
    }
    let mut index = 0;
    while index < N {
        let word = words[index].as_bytes();
        if let Some([_, inner @ .., b'"']) = literal.get(..word.len() + 2) {
            if same(inner, word) {
                return Some((index, at + word.len() + 2));
            }
        }
        index += 1;
    }
    None
}

/// The next token, where one must come, or the tokenizer's error.
#[inline]
fn next<'a>(tokens: &mut Tokenizer<'a>) -> Result<Token<'a>, Error> {
    tokens.expect_token().map_err(|Stop| tokens.error())
}

/// A field as the request gave it: its key and its value.
type Member<'a> = Option<(Token<'a>, Token<'a>)>;

#[inline]
fn read(input: &[u8], tokens: &mut Tokenizer<'_>, names: &impl Names) -> Result<Request, Error> {
    let open = next(tokens)?;
    if open.kind != Kind::ObjectStart {
        return Err(Error::not_an_object(open.at, open.kind.described()));
    }
    let mut members: [Member<'_>; FIELD_NAMES.len()] = [None; FIELD_NAMES.len()];
    let mut call_end = 0;
    let mut turn_end = 0;
    // The tool that `choice` names, when it is `{"tool":NAME}`.
    let mut forced = None;
    let close = loop {
        let key = next(tokens)?;
        if key.kind == Kind::ObjectEnd {
            break key;
        }
        let Some(field) = FIELD_NAMES.iter().position(|name| string_eq(key.raw, name)) else {
            return Err(unknown_field(input, key));
        };
        let (name, want) = (FIELD_NAMES[field], FIELD_KINDS[field]);
        if members[field].is_some() {
            return Err(Error::duplicate_field(key.at, name));
        }
        let value = next(tokens)?;
        if field == CHOICE && value.kind != Kind::String {
            if value.kind != Kind::ObjectStart {
                let found = value.kind.described();
                return Err(Error::wrong_type(value.at, name, CHOICE_EXPECTED, found));
            }
            forced = Some(read_forced(tokens)?);
        }
        if field == TURN && matches!(value.kind, Kind::ObjectStart | Kind::ArrayStart) {
            if members[field].is_some() {
                return Err(Error::duplicate_field(key.at, name));
            }
            turn_end = tokens.skip(value).map_err(|Stop| tokens.error())?;
            members[field] = Some((key, value));
            continue;
        }
        let kind = if value.kind == Kind::False {
            Kind::True
        } else {
            value.kind
        };
        if kind != want && field != CHOICE {
            let want = match field {
                TURN => "an object or an array",
                _ => want.described(),
            };
            return Err(Error::wrong_type(
                value.at,
                name,
                want,
                value.kind.described(),
            ));
        }
        if field == CALL {
            call_end = tokens.skip(value).map_err(|Stop| tokens.error())?;
        }
        members[field] = Some((key, value));
    };

    let ends = (call_end, turn_end);
    understand(input, &members, forced, ends, close.at, names)
}

/// Reads `choice`'s object after its `{`: one member, `tool`, a string. Returns that string.
fn read_forced<'a>(tokens: &mut Tokenizer<'a>) -> Result<Token<'a>, Error> {
    let mut tool = None;
    loop {
        let key = next(tokens)?;
        if key.kind == Kind::ObjectEnd {
            return tool.ok_or_else(|| Error::missing_field(key.at, "tool"));
        }
        if !string_eq(key.raw, "tool") {
            return Err(Error::unknown_field(key.at, key.raw, "tool"));
        }
        if tool.is_some() {
            return Err(Error::duplicate_field(key.at, "tool"));
        }
        let value = next(tokens)?;
        if value.kind != Kind::String {
            let found = value.kind.described();
            return Err(Error::wrong_type(value.at, "tool", "a string", found));
        }
        tool = Some(value);
    }
}

/// What the members of a well-formed request object ask for; `close` is the offset of its `}`,
/// and `call_end` the offset just past the `call` object, if there is one.
#[inline]
fn understand(
    input: &[u8],
    members: &[Member<'_>; FIELD_NAMES.len()],
    forced: Option<Token<'_>>,
    (call_end, turn_end): (usize, usize),
    close: usize,
    names: &impl Names,
) -> Result<Request, Error> {
    let (_, op) = members[OP].ok_or_else(|| Error::missing_field(close, "op"))?;
    let Some(op_index) = OP_NAMES.iter().position(|name| string_eq(op.raw, name)) else {
        return Err(Error::unknown_op(op.at, op.raw, op_advice(op.raw)));
    };
    let expected = match op_index {
        TOOL_SCHEMA => SCHEMA_FIELD,
        TOOL_LIST => LIST_FIELD,
        CHECK_CALL => CHECK_FIELD,
        TOOL_CHOICE => CHOICE_FIELD,
        _ => TURN_FIELD,
    };
    // `choice` and `parallel` belong to `tool_choice` alone.
    if op_index != TOOL_CHOICE {
        if let Some((key, _)) = members[CHOICE].or(members[PARALLEL]) {
            return Err(Error::unknown_field(key.at, key.raw, expected));
        }
    }
    // `skip_unsupported` belongs to `tool_list` alone.
    let skip_unsupported = match (op_index == TOOL_LIST, members[SKIP_UNSUPPORTED]) {
        (false, Some((key, _))) => return Err(Error::unknown_field(key.at, key.raw, expected)),
        (_, member) => member.is_some_and(|(_, value)| value.kind == Kind::True),
    };
    // `turn` belongs to `check_turn` alone.
    if let (true, Some((key, _))) = (op_index != CHECK_TURN, members[TURN]) {
        return Err(Error::unknown_field(key.at, key.raw, expected));
    }
    let tool = match (op_index == TOOL_SCHEMA, members[TOOL]) {
        (false, Some((key, _))) => return Err(Error::unknown_field(key.at, key.raw, expected)),
        (false, None) => None,
        (true, Some((_, value))) => Some(value),
        (true, None) => return Err(Error::missing_field(close, "tool")),
    };
    let call = match (op_index == CHECK_CALL, members[CALL]) {
        (false, Some((key, _))) => return Err(Error::unknown_field(key.at, key.raw, expected)),
        (false, None) => None,
        (true, Some((_, value))) => Some(Span {
            at: value.at,
            end: call_end,
        }),
        (true, None) => return Err(Error::missing_field(close, "call")),
    };
    let format = match members[FORMAT] {
        None => Format::OpenAi,
        Some((_, value)) => Format::ALL
            .into_iter()
            .find(|format| string_eq(value.raw, format.name()))
            .ok_or_else(|| Error::unknown_format(value.at, value.raw, FORMAT_LIST))?,
    };
    let strict = members[STRICT].is_some_and(|(_, value)| value.kind == Kind::True);
    let shape = Shape::new(format, strict).ok_or_else(|| {
        let at = members[STRICT].map_or(close, |(key, _)| key.at);
        Error::unsupported(at, format.name())
    })?;
    if op_index == CHECK_TURN {
        let (_, value) = members[TURN].ok_or_else(|| Error::missing_field(close, "turn"))?;
        if format == Format::Mcp {
            let at = members[FORMAT].map_or(close, |(key, _)| key.at);
            let reason = "an MCP tools/call carries one call; check it with check_call";
            return Err(Error::refused(at, format.name(), reason));
        }
        let want = crate::turn::expected(format);
        if value.kind != want {
            let found = value.kind.described();
            return Err(Error::wrong_type(value.at, "turn", want.described(), found));
        }
        let turn = Span {
            at: value.at,
            end: turn_end,
        };
        return Ok(Request {
            op: Op::CheckTurn { turn },
            shape,
        });
    }
    if op_index == TOOL_CHOICE {
        return tool_choice(members, forced, close, format, names).map(|op| Request { op, shape });
    }
    let op = match (tool, call) {
        (Some(value), _) => {
            let tool = catalog::find(names, value.raw).ok_or_else(|| {
                Error::unknown_tool(value.at, value.raw, catalog::closest(names, value.raw))
            })?;
            Op::ToolSchema { tool }
        }
        (None, Some(span)) => Op::CheckCall {
            call: call::read(input, span, format)?,
        },
        (None, None) => Op::ToolList { skip_unsupported },
    };
    Ok(Request { op, shape })
}

/// A `tool_choice` request's op, after `format` and `strict`: its `choice`, the tool it forces,
/// and what the format cannot say.
fn tool_choice(
    members: &[Member<'_>; FIELD_NAMES.len()],
    forced: Option<Token<'_>>,
    close: usize,
    format: Format,
    names: &impl Names,
) -> Result<Op, Error> {
    let (_, value) = members[CHOICE].ok_or_else(|| Error::missing_field(close, "choice"))?;
    let choice = match forced {
        Some(name) => {
            let tool = catalog::find(names, name.raw).ok_or_else(|| {
                Error::unknown_tool(name.at, name.raw, catalog::closest(names, name.raw))
            })?;
            Choice::Tool(tool)
        }
        None => match CHOICE_WORDS
            .iter()
            .position(|word| string_eq(value.raw, word))
        {
            Some(0) => Choice::Auto,
            Some(1) => Choice::None,
            Some(_) => Choice::Required,
            None => {
                return Err(Error::wrong_type(
                    value.at,
                    "choice",
                    CHOICE_EXPECTED,
                    "another string",
                ))
            }
        },
    };
    let parallel = members[PARALLEL].map(|(_, value)| value.kind == Kind::True);
    if let Some(reason) = tool_choice::refusal(format, parallel) {
        // Where the request asks for what cannot be said: `parallel`, or else `format`.
        let at = match (format, members[PARALLEL], members[FORMAT]) {
            (Format::Gemini | Format::GeminiJsonSchema, Some((key, _)), _)
            | (_, _, Some((key, _))) => key.at,
            _ => close,
        };
        return Err(Error::refused(at, format.name(), reason));
    }
    Ok(Op::ToolChoice { choice, parallel })
}
