//! The answer to `check_call`: the call's arguments in canonical form, or what is wrong with them
//! and the message that tells the model so, in the shape its provider reads.
//!
//! Everything here is the model's doing, so it is an answer (exit 0), never an [`Error`]: the
//! harness hands `reply` back to the model, which corrects itself. MCP's specification asks for
//! exactly that of input errors: modelcontextprotocol.io/specification/2025-06-18/server/tools
//! ("Error Handling": tool execution errors, such as invalid input data, are reported in the
//! result with `isError: true`), restated in the C# SDK's `CallToolResult` reference
//! (csharp.sdk.modelcontextprotocol.io/api/ModelContextProtocol.Protocol.CallToolResult.html).
//!
//! [`Error`]: crate::Error

use crate::call::{Arguments, Call, Span};
use crate::canonical;
use crate::catalog::{self, Tool};
use crate::check::{self, Bound, Found, Problem, Problems, Segment, What, MAX_SAFE_INTEGER};
use crate::error::{Error, MAX_INPUT};
use crate::schema::{Scalar, Schema, Type};
use crate::sink::{escaped, Escaped};
use crate::tokenizer::{decode, validate, Kind, Tokenizer};
use crate::wire::{Format, Shape};
use std::fmt::{self, Write as _};
use std::io::{self, Write};

/// What is wrong with the call as a whole, before its arguments are looked at one by one.
enum Whole<'a> {
    UnknownTool { closest: &'static str },
    Malformed(Error),
    Truncated { len: usize },
    NotObject { found: Found<'a>, holds_json: bool },
}

impl Whole<'_> {
    fn code(&self) -> &'static str {
        match self {
            Whole::UnknownTool { .. } => "unknown_tool",
            Whole::Malformed(_) => "malformed_arguments",
            Whole::Truncated { .. } => "truncated_arguments",
            Whole::NotObject { .. } => "arguments_not_object",
        }
    }
}

/// The call's parts, as the answer writes them.
pub(crate) struct Parts<'a> {
    pub(crate) format: Format,
    /// The name as the call spelled it: a string literal.
    pub(crate) name: &'a [u8],
    pub(crate) id: Option<&'a [u8]>,
}

/// Answers one `check_call`. Writes one line to `out`; only `out` can fail.
pub(crate) fn answer(
    request: &[u8],
    call: &Call,
    shape: Shape,
    out: &mut impl Write,
) -> io::Result<()> {
    let text = |span: Span| &request[span.at..span.end];
    let parts = Parts {
        format: shape.format(),
        name: text(call.name),
        id: call.id.map(text),
    };
    let Some(tool) = catalog::find(parts.name) else {
        let closest = catalog::closest(parts.name);
        return whole(out, &parts, None, Whole::UnknownTool { closest });
    };
    let tool = &catalog::TOOLS[tool];
    // OpenAI strict makes every optional property nullable (see `wire.rs`); nothing else does.
    let nullable_optionals =
        shape.strict() && matches!(shape.format(), Format::OpenAi | Format::OpenAiResponses);
    match call.arguments {
        Arguments::Absent => judge(out, &parts, tool, b"{}", nullable_optionals),
        Arguments::Value(span) => judge(out, &parts, tool, text(span), nullable_optionals),
        Arguments::Text(span) => {
            // Decoded into the smallest of three stack buffers that holds it: zeroing a buffer
            // costs in proportion to its size, and most arguments are short.
            let literal = text(span);
            if literal.len() <= 512 {
                decoded::<512, _>(out, &parts, tool, literal, nullable_optionals)
            } else if literal.len() <= 8192 {
                decoded::<8192, _>(out, &parts, tool, literal, nullable_optionals)
            } else {
                decoded::<MAX_INPUT, _>(out, &parts, tool, literal, nullable_optionals)
            }
        }
    }
}

/// Judges arguments given as JSON text in a string literal, decoded into a buffer of `N` bytes
/// (a literal's text is never longer than the literal).
#[inline(never)]
fn decoded<const N: usize, W: Write>(
    out: &mut W,
    parts: &Parts<'_>,
    tool: &'static Tool,
    literal: &[u8],
    nullable_optionals: bool,
) -> io::Result<()> {
    let mut buffer = [0u8; N];
    let len = unescape(literal, &mut buffer);
    let arguments = &buffer[..len];
    // Models send `""` (or whitespace) for a tool without arguments: that is `{}`.
    if arguments
        .iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
    {
        return judge(out, parts, tool, b"{}", nullable_optionals);
    }
    judge(out, parts, tool, arguments, nullable_optionals)
}

/// The text of a string literal from a valid document, into `buffer`; its length. The caller
/// gives a buffer at least as long as the literal.
fn unescape(literal: &[u8], buffer: &mut [u8]) -> usize {
    let mut len = 0;
    let mut put = |bytes: &[u8]| {
        if let Some(room) = buffer.get_mut(len..len + bytes.len()) {
            room.copy_from_slice(bytes);
            len += bytes.len();
        }
    };
    let inner = literal
        .get(1..literal.len().saturating_sub(1))
        .unwrap_or(b"");
    let mut plain = 0;
    let mut i = 0;
    while i < inner.len() {
        if inner[i] != b'\\' {
            i += 1;
            continue;
        }
        put(&inner[plain..i]);
        let (c, width) = crate::tokenizer::decode_escape(&inner[i..]);
        let mut utf8 = [0; 4];
        put(c.encode_utf8(&mut utf8).as_bytes());
        i += width;
        plain = i;
    }
    put(&inner[plain..]);
    len
}

/// Judges `arguments`, one JSON text, and writes the answer.
fn judge(
    out: &mut impl Write,
    parts: &Parts<'_>,
    tool: &'static Tool,
    arguments: &[u8],
    nullable_optionals: bool,
) -> io::Result<()> {
    let mut tokens = Tokenizer::new(arguments);
    let mut problems = Problems::new();
    let verdict = match tokens.expect_token() {
        Ok(open) if open.kind == Kind::ObjectStart => {
            check::check(&mut tokens, &tool.input, nullable_optionals, &mut problems)
        }
        Ok(first) => {
            return match call_skip_rest(&mut tokens, first) {
                Ok(()) => {
                    let holds_json = first.kind == Kind::String && holds_json(first.raw);
                    let found = Found {
                        kind: first.kind,
                        raw: first.raw,
                    };
                    whole(
                        out,
                        parts,
                        Some(tool),
                        Whole::NotObject { found, holds_json },
                    )
                }
                Err(()) => syntax(out, parts, tool, &tokens, arguments),
            };
        }
        Err(_) => Err(crate::tokenizer::Stop),
    };
    if verdict.is_err() {
        return syntax(out, parts, tool, &tokens, arguments);
    }
    if problems.is_empty() {
        out.write_all(b"{\"arguments\":")?;
        canonical::value(out, arguments, 0, &tool.input)?;
        id_and_name(out, parts)?;
        return out.write_all(b",\"ok\":true}\n");
    }
    invalid(out, parts, tool, &problems)
}

/// Reads past the first value and checks that nothing follows it.
fn call_skip_rest(
    tokens: &mut Tokenizer<'_>,
    first: crate::tokenizer::Token<'_>,
) -> Result<(), ()> {
    crate::call::skip(tokens, first).map_err(|_| ())?;
    tokens.drain().map_err(|_| ())
}

/// The tokenizer stopped: malformed, or cut short (the error is at the very end of the text).
#[cold]
fn syntax(
    out: &mut impl Write,
    parts: &Parts<'_>,
    tool: &'static Tool,
    tokens: &Tokenizer<'_>,
    arguments: &[u8],
) -> io::Result<()> {
    let error = tokens.error();
    let whole_problem =
        if error.code() == "malformed_json" && error.offset() == Some(arguments.len()) {
            Whole::Truncated {
                len: arguments.len(),
            }
        } else {
            Whole::Malformed(error)
        };
    whole(out, parts, Some(tool), whole_problem)
}

/// Whether a string literal's text is itself a JSON document: arguments encoded twice.
#[cold]
#[inline(never)]
fn holds_json(literal: &[u8]) -> bool {
    let mut buffer = [0u8; MAX_INPUT];
    let len = unescape(literal, &mut buffer);
    validate(&buffer[..len]).is_ok()
}

/// `,"id":I,"name":N` (no id when the call has none).
pub(crate) fn id_and_name(out: &mut impl Write, parts: &Parts<'_>) -> io::Result<()> {
    if let Some(id) = parts.id {
        out.write_all(b",\"id\":")?;
        canonical::string(out, id)?;
    }
    out.write_all(b",\"name\":")?;
    canonical::string(out, parts.name)
}

/// The answer for a problem with the call as a whole.
#[cold]
fn whole(
    out: &mut impl Write,
    parts: &Parts<'_>,
    tool: Option<&'static Tool>,
    problem: Whole<'_>,
) -> io::Result<()> {
    let _ = tool;
    out.write_all(b"{\"errors\":[{\"code\":\"")?;
    out.write_all(problem.code().as_bytes())?;
    out.write_all(b"\",\"message\":\"")?;
    escaped(out, |text| whole_message(text, parts, &problem))?;
    out.write_all(b"\",\"path\":\"\"}]")?;
    id_and_name(out, parts)?;
    out.write_all(b",\"ok\":false,\"reply\":")?;
    reply(out, parts, |text| whole_message(text, parts, &problem))?;
    out.write_all(b"}\n")
}

/// The answer for problems with particular arguments.
#[cold]
pub(crate) fn invalid(
    out: &mut impl Write,
    parts: &Parts<'_>,
    tool: &'static Tool,
    problems: &Problems<'_>,
) -> io::Result<()> {
    out.write_all(b"{\"errors\":[")?;
    for (i, problem) in problems.iter().enumerate() {
        out.write_all(if i == 0 {
            b"{\"code\":\""
        } else {
            b",{\"code\":\""
        })?;
        out.write_all(problem.what.code().as_bytes())?;
        out.write_all(b"\",\"message\":\"")?;
        escaped(out, |text| message(text, tool, problem))?;
        out.write_all(b"\",\"path\":\"")?;
        escaped(out, |text| pointer(text, problem))?;
        out.write_all(b"\"}")?;
    }
    out.write_all(b"]")?;
    id_and_name(out, parts)?;
    out.write_all(b",\"ok\":false,\"reply\":")?;
    reply(out, parts, |text| {
        for (i, problem) in problems.iter().enumerate() {
            if i > 0 {
                text.write_str("\n")?;
            }
            message(text, tool, problem)?;
        }
        Ok(())
    })?;
    out.write_all(b"}\n")
}

/// The message to append to the conversation, in the format's shape, with `text` as its text.
///
/// - openai: a `tool` message, platform.openai.com/docs/api-reference/chat/create (messages:
///   "Tool message": `role` "tool", `content`, `tool_call_id`).
/// - openai_responses: an input item, platform.openai.com/docs/api-reference/responses/create
///   (`function_call_output`: `call_id`, `output`).
/// - anthropic: a `tool_result` content block, platform.claude.com/docs/en/agents-and-tools/
///   tool-use/implement-tool-use (`tool_use_id`, `content`, and `is_error: true`).
/// - gemini: a part's `functionResponse`, ai.google.dev/api/caching#FunctionResponse (`id`,
///   `name`, and `response`, where "use 'output' key to specify function output and 'error'
///   key to specify error details").
/// - mcp: a `CallToolResult`, modelcontextprotocol.io/specification/2025-06-18/server/tools
///   (`content` of text items, `isError: true`).
fn reply<W: Write>(
    out: &mut W,
    parts: &Parts<'_>,
    text: impl Fn(&mut Escaped<'_, W>) -> fmt::Result,
) -> io::Result<()> {
    let id = |out: &mut W| match parts.id {
        Some(id) => canonical::string(out, id),
        None => out.write_all(b"\"\""),
    };
    match parts.format {
        Format::OpenAi => {
            out.write_all(b"{\"content\":\"")?;
            escaped(out, text)?;
            out.write_all(b"\",\"role\":\"tool\",\"tool_call_id\":")?;
            id(out)?;
            out.write_all(b"}")
        }
        Format::OpenAiResponses => {
            out.write_all(b"{\"call_id\":")?;
            id(out)?;
            out.write_all(b",\"output\":\"")?;
            escaped(out, text)?;
            out.write_all(b"\",\"type\":\"function_call_output\"}")
        }
        Format::Anthropic => {
            out.write_all(b"{\"content\":\"")?;
            escaped(out, text)?;
            out.write_all(b"\",\"is_error\":true,\"tool_use_id\":")?;
            id(out)?;
            out.write_all(b",\"type\":\"tool_result\"}")
        }
        Format::Gemini => {
            out.write_all(b"{\"functionResponse\":{")?;
            if let Some(id) = parts.id {
                out.write_all(b"\"id\":")?;
                canonical::string(out, id)?;
                out.write_all(b",")?;
            }
            out.write_all(b"\"name\":")?;
            canonical::string(out, parts.name)?;
            out.write_all(b",\"response\":{\"error\":\"")?;
            escaped(out, text)?;
            out.write_all(b"\"}}}")
        }
        Format::Mcp => {
            out.write_all(b"{\"content\":[{\"text\":\"")?;
            escaped(out, text)?;
            out.write_all(b"\",\"type\":\"text\"}],\"isError\":true}")
        }
    }
}

/// The longest stretch of the model's own text quoted in a message, in characters.
const QUOTE: usize = 64;

fn whole_message(
    text: &mut impl fmt::Write,
    parts: &Parts<'_>,
    problem: &Whole<'_>,
) -> fmt::Result {
    match problem {
        Whole::UnknownTool { closest } => {
            text.write_str("there is no tool ")?;
            quoted(text, parts.name)?;
            write!(text, "; did you mean \"{closest}\"?")
        }
        Whole::Malformed(error) => write!(text, "the arguments are not valid JSON: {error}"),
        Whole::Truncated { len } => write!(
            text,
            "the arguments end in the middle of a JSON value after {len} bytes; send the whole \
             call again"
        ),
        Whole::NotObject { found, holds_json } => {
            text.write_str("the arguments must be a JSON object, found ")?;
            if *holds_json {
                text.write_str(
                    "a string holding JSON; send the object itself, not encoded as a string",
                )
            } else {
                describe(text, found)
            }
        }
    }
}

/// One problem's message: a sentence for the model that names the argument, what was expected
/// and what was found.
fn message(text: &mut impl fmt::Write, tool: &Tool, problem: &Problem<'_>) -> fmt::Result {
    match problem.what {
        What::Unknown { object } => {
            text.write_str("unknown argument ")?;
            argument(text, problem)?;
            text.write_str("; ")?;
            let steps = problem.path.steps();
            if steps.len() <= 1 {
                text.write_str(tool.name)?;
            } else {
                text.write_str("\"")?;
                name(text, &steps[..steps.len() - 1])?;
                text.write_str("\"")?;
            }
            takes(text, object)
        }
        What::Duplicate => {
            text.write_str("argument ")?;
            argument(text, problem)?;
            text.write_str(" is given more than once")
        }
        What::Missing { property } => {
            text.write_str("missing required argument ")?;
            argument(text, problem)?;
            text.write_str(", which must be ")?;
            expected(text, &property.schema, false)
        }
        What::WrongType {
            expected: schema,
            nullable,
            found,
        } => {
            text.write_str("argument ")?;
            argument(text, problem)?;
            text.write_str(" must be ")?;
            expected(text, schema, nullable)?;
            text.write_str(", found ")?;
            describe(text, &found)
        }
        What::OutOfRange { bound, found } => {
            text.write_str("argument ")?;
            argument(text, problem)?;
            let plural = |n: u64| if n == 1 { "" } else { "s" };
            match bound {
                Bound::Minimum(min) => write!(text, " must be at least {min}")?,
                Bound::Maximum(max) => write!(text, " must be at most {max}")?,
                Bound::SafeInteger => write!(
                    text,
                    " must be an integer from -{MAX_SAFE_INTEGER} to {MAX_SAFE_INTEGER}"
                )?,
                Bound::Float => text.write_str(" must be a number that fits a 64-bit float")?,
                Bound::MinLength(min, length) => {
                    return write!(
                        text,
                        " must be at least {min} character{} long, found {length}",
                        plural(min)
                    )
                }
                Bound::MaxLength(max, length) => {
                    return write!(
                        text,
                        " must be at most {max} character{} long, found {length}",
                        plural(max)
                    )
                }
                Bound::MinItems(min, items) => {
                    return write!(
                        text,
                        " must have at least {min} item{}, found {items}",
                        plural(min)
                    )
                }
                Bound::MaxItems(max, items) => {
                    return write!(
                        text,
                        " must have at most {max} item{}, found {items}",
                        plural(max)
                    )
                }
            }
            text.write_str(", found ")?;
            describe(text, &found)
        }
        What::NotInEnum { values, found } => {
            text.write_str("argument ")?;
            argument(text, problem)?;
            text.write_str(" must be one of ")?;
            const LISTED: usize = 16;
            for (i, value) in values.iter().take(LISTED).enumerate() {
                if i > 0 {
                    text.write_str(", ")?;
                }
                match value {
                    Scalar::String(value) => write!(text, "\"{value}\"")?,
                    Scalar::Number(number) => text.write_str(number.text)?,
                    Scalar::Boolean(value) => write!(text, "{value}")?,
                }
            }
            if values.len() > LISTED {
                write!(text, " (or {} more)", values.len() - LISTED)?;
            }
            text.write_str(", found ")?;
            describe(text, &found)
        }
    }
}

/// `" takes a, b, c"`: the properties an object declares, or that it takes none.
fn takes(text: &mut impl fmt::Write, object: &Schema) -> fmt::Result {
    const LISTED: usize = 16;
    if object.properties.is_empty() {
        return text.write_str(" takes no arguments");
    }
    text.write_str(" takes ")?;
    for (i, property) in object.properties.iter().take(LISTED).enumerate() {
        if i > 0 {
            text.write_str(", ")?;
        }
        text.write_str(property.name)?;
    }
    if object.properties.len() > LISTED {
        write!(text, " and {} more", object.properties.len() - LISTED)?;
    }
    Ok(())
}

/// `"a/0/b"`: the argument a problem is about, quoted.
fn argument(text: &mut impl fmt::Write, problem: &Problem<'_>) -> fmt::Result {
    text.write_str("\"")?;
    name(text, problem.path.steps())?;
    text.write_str("\"")
}

/// The steps to an argument, joined by `/`; each key cut to [`QUOTE`] characters.
fn name(text: &mut impl fmt::Write, steps: &[Segment<'_>]) -> fmt::Result {
    for (i, step) in steps.iter().enumerate() {
        if i > 0 {
            text.write_str("/")?;
        }
        match step {
            Segment::Key(literal) => cut(text, literal, |c| c)?,
            Segment::Name(name) => text.write_str(name)?,
            Segment::Index(index) => write!(text, "{index}")?,
        }
    }
    Ok(())
}

/// The JSON Pointer (RFC 6901) of a problem: keys decoded, `~` as `~0` and `/` as `~1`.
fn pointer(text: &mut impl fmt::Write, problem: &Problem<'_>) -> fmt::Result {
    for step in problem.path.steps() {
        text.write_str("/")?;
        match step {
            Segment::Key(literal) => {
                let mut result = Ok(());
                decode(literal, |c| {
                    result = result.and_then(|()| match c {
                        '~' => text.write_str("~0"),
                        '/' => text.write_str("~1"),
                        c => text.write_char(c),
                    });
                });
                result?;
            }
            Segment::Name(name) => text.write_str(name)?,
            Segment::Index(index) => write!(text, "{index}")?,
        }
    }
    Ok(())
}

/// A string literal's text, quoted, cut to [`QUOTE`] characters.
fn quoted(text: &mut impl fmt::Write, literal: &[u8]) -> fmt::Result {
    text.write_str("\"")?;
    cut(text, literal, |c| c)?;
    text.write_str("\"")
}

/// A string literal's text, at most [`QUOTE`] characters of it, then `...` if there was more.
/// Control characters show as U+FFFD, so a message stays one line.
fn cut(text: &mut impl fmt::Write, literal: &[u8], map: impl Fn(char) -> char) -> fmt::Result {
    let mut count = 0;
    let mut result = Ok(());
    decode(literal, |c| {
        count += 1;
        if count <= QUOTE {
            let c = if c.is_control() { '\u{FFFD}' } else { map(c) };
            result = result.and_then(|()| text.write_char(c));
        }
    });
    result?;
    if count > QUOTE {
        text.write_str("...")?;
    }
    Ok(())
}

/// What the schema wants: "an integer", "a string or null".
fn expected(text: &mut impl fmt::Write, schema: &Schema, nullable: bool) -> fmt::Result {
    text.write_str(match schema.ty {
        Type::Object => "an object",
        Type::Array => "an array",
        Type::String => "a string",
        Type::Integer => "an integer",
        Type::Number => "a number",
        Type::Boolean => "a boolean",
    })?;
    if nullable {
        text.write_str(" or null")?;
    }
    Ok(())
}

/// What the model gave: "the string \"5\"", "the number 5.5", "an object".
fn describe(text: &mut impl fmt::Write, found: &Found<'_>) -> fmt::Result {
    match found.kind {
        Kind::String => {
            text.write_str("the string ")?;
            quoted(text, found.raw)
        }
        Kind::Number => {
            text.write_str("the number ")?;
            let raw = &found.raw[..found.raw.len().min(QUOTE)];
            text.write_str(std::str::from_utf8(raw).unwrap_or("?"))?;
            if found.raw.len() > QUOTE {
                text.write_str("...")?;
            }
            Ok(())
        }
        Kind::True => text.write_str("the boolean true"),
        Kind::False => text.write_str("the boolean false"),
        kind => text.write_str(kind.described()),
    }
}
