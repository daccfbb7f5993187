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
use crate::catalog::MODEL;
use crate::catalog::{self, Names, Tool, MAX_NESTING, PATH_PROPERTIES, PATH_WORDS};
use crate::check::{
    self, Bound, Found, Problem, Problems, Segment, What, MAX_PROBLEMS, MAX_SAFE_INTEGER, PATH_LEN,
    RUN_TIME_PATH_LEN,
};
use crate::error::{Error, MAX_INPUT};
use crate::regex::Regex;
use crate::schema::{Model, Scalar, Schema};
use crate::sink::{escape, escape_run_end};
use crate::tokenizer::{decode, pieces, validate, Kind, Piece, Tokenizer};
use crate::validate::Reason;
use crate::wire::{Format, Shape};
use std::fmt;
use std::io::{self, Write};

/// What is wrong with the call as a whole, before its arguments are looked at one by one.
enum Whole<'a> {
    UnknownTool {
        closest: &'a str,
        /// Why the catalog read at run time left out a tool of that name.
        refused: Option<&'a crate::catalog_file::CatalogError>,
    },
    Malformed(Error),
    Truncated {
        len: usize,
    },
    NotObject {
        found: Found<'a>,
        holds_json: bool,
    },
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

/// Answers one `check_call` over the compiled-in catalog. Writes one line to `out`; only `out`
/// can fail.
pub(crate) fn answer(
    request: &[u8],
    call: &Call,
    shape: Shape,
    out: &mut impl Write,
) -> io::Result<()> {
    answer_with(
        request,
        call,
        shape,
        out,
        &catalog::Compiled,
        &|out, parts, tool, arguments, nullable| {
            judge(out, parts, &catalog::TOOLS[tool], arguments, nullable)
        },
    )
}

/// Answers one `check_call` over a catalog read at run time, by the compiled-in catalog's own
/// readers: `check.rs` for a flat tool whose paths fit the sizes below (`flat[tool]`), and
/// `validate.rs` for the rest.
#[allow(clippy::too_many_arguments)]
pub(crate) fn answer_any<W: Write>(
    request: &[u8],
    call: &Call,
    shape: Shape,
    out: &mut W,
    names: &impl Names,
    model: Model<'_>,
    patterns: &dyn Fn(crate::schema::Text, &str) -> bool,
    flat: &[bool],
) -> io::Result<()> {
    let judge = |out: &mut W, parts: &Parts<'_>, tool: usize, arguments: &[u8], nullable| {
        let (checked_flat, tool) = (flat[tool], &model.tools[tool]);
        if !checked_flat {
            return judge_any::<RUN_TIME_PATH_LEN>(
                out, parts, model, patterns, tool, arguments, nullable,
            );
        }
        judge_flat::<RUN_TIME_NESTING, RUN_TIME_WORDS, RUN_TIME_PATH_LEN, _>(
            out,
            parts,
            model,
            tool,
            arguments,
            nullable,
            |out| {
                let input = model.input(tool);
                canonical::value::<RUN_TIME_PROPERTIES>(out, model, arguments, 0, input)
            },
        )
    };
    answer_with(request, call, shape, out, names, &judge)
}

/// What `check.rs` and the canonical writer are sized for over a catalog read at run time: the
/// deepest path, in nested containers; the words of seen-property marks along it; and the
/// properties along it. A flat tool beyond any of them is judged by `validate.rs` instead
/// (the same verdicts; one problem reported rather than up to 16).
pub(crate) const RUN_TIME_NESTING: usize = 16;
pub(crate) const RUN_TIME_WORDS: usize = 32;
pub(crate) const RUN_TIME_PROPERTIES: usize = 256;

/// How a catalog judges a call's arguments, one JSON text, for tool `tool` (an index), and
/// writes the answer; the last argument is whether optional properties may be `null`.
type Judge<'j, W> = dyn Fn(&mut W, &Parts<'_>, usize, &[u8], bool) -> io::Result<()> + 'j;

/// Finds the tool, reads the arguments as the format gives them, and has `judge` answer.
#[inline(always)]
fn answer_with<W: Write>(
    request: &[u8],
    call: &Call,
    shape: Shape,
    out: &mut W,
    names: &impl Names,
    judge: &Judge<'_, W>,
) -> io::Result<()> {
    let text = |span: Span| &request[span.at..span.end];
    let parts = Parts {
        format: shape.format(),
        name: text(call.name),
        id: call.id.map(text),
    };
    let Some(tool) = catalog::find(names, parts.name) else {
        let closest = names.name(catalog::closest_index(names, parts.name));
        let refused = names.refusal(parts.name);
        return whole(out, &parts, Whole::UnknownTool { closest, refused });
    };
    let nullable_optionals = nullable_optionals(shape);
    match call.arguments {
        Arguments::Absent => judge(out, &parts, tool, b"{}", nullable_optionals),
        Arguments::Value(span) => judge(out, &parts, tool, text(span), nullable_optionals),
        Arguments::Text(span) => {
            // Decoded into the smallest of three stack buffers that holds it: zeroing a buffer
            // costs in proportion to its size, and most arguments are short.
            let literal = text(span);
            if literal.len() <= 512 {
                decoded::<512, _>(out, &parts, tool, literal, nullable_optionals, judge)
            } else if literal.len() <= 8192 {
                decoded::<8192, _>(out, &parts, tool, literal, nullable_optionals, judge)
            } else {
                decoded::<MAX_INPUT, _>(out, &parts, tool, literal, nullable_optionals, judge)
            }
        }
    }
}

/// Whether `shape` lets an optional property be `null`: OpenAI strict makes every optional
/// property nullable (see `wire.rs`); nothing else does.
pub(crate) fn nullable_optionals(shape: Shape) -> bool {
    shape.strict() && matches!(shape.format(), Format::OpenAi | Format::OpenAiResponses)
}

/// Judges arguments given as JSON text in a string literal, decoded into a buffer of `N` bytes
/// (a literal's text is never longer than the literal).
#[inline(never)]
fn decoded<const N: usize, W: Write>(
    out: &mut W,
    parts: &Parts<'_>,
    tool: usize,
    literal: &[u8],
    nullable_optionals: bool,
    judge: &Judge<'_, W>,
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
    let _ = pieces(literal, |piece| {
        match piece {
            Piece::Plain(bytes) => put(bytes),
            Piece::Escaped(c) => put(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
        Ok::<(), ()>(())
    });
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
    if !tool.flat {
        return judge_any::<PATH_LEN>(
            out,
            parts,
            MODEL,
            &pattern_matches,
            tool,
            arguments,
            nullable_optionals,
        );
    }
    judge_flat::<MAX_NESTING, PATH_WORDS, PATH_LEN, _>(
        out,
        parts,
        MODEL,
        tool,
        arguments,
        nullable_optionals,
        |out| canonical::value::<PATH_PROPERTIES>(out, MODEL, arguments, 0, MODEL.input(tool)),
    )
}

/// Judges `arguments` against a flat tool's schema with `check.rs`, which lists up to
/// [`MAX_PROBLEMS`] problems; `NESTING` and `WORDS` bound the catalog's paths (see
/// [`check::check`]). `canonical` writes valid arguments.
#[inline(always)]
fn judge_flat<const NESTING: usize, const WORDS: usize, const PATH: usize, W: Write>(
    out: &mut W,
    parts: &Parts<'_>,
    model: Model<'_>,
    tool: &Tool,
    arguments: &[u8],
    nullable_optionals: bool,
    canonical: impl FnOnce(&mut W) -> io::Result<()>,
) -> io::Result<()> {
    let mut tokens = Tokenizer::new(arguments);
    let mut problems = Problems::new();
    let verdict = match tokens.expect_token() {
        Ok(open) if open.kind == Kind::ObjectStart => check::check::<NESTING, WORDS, PATH>(
            model,
            &mut tokens,
            model.input(tool),
            nullable_optionals,
            &mut problems,
        ),
        Ok(first) => {
            return match call_skip_rest(&mut tokens, first) {
                Ok(()) => {
                    let holds_json = first.kind == Kind::String && holds_json(first.raw);
                    let found = Found {
                        kind: first.kind,
                        raw: first.raw,
                    };
                    whole(out, parts, Whole::NotObject { found, holds_json })
                }
                Err(()) => syntax(out, parts, &tokens, arguments),
            };
        }
        Err(_) => Err(crate::tokenizer::Stop),
    };
    if verdict.is_err() {
        return syntax(out, parts, &tokens, arguments);
    }
    if problems.is_empty() {
        out.write_all(b"{\"arguments\":")?;
        canonical(out)?;
        id_and_name(out, parts)?;
        return out.write_all(b",\"ok\":true}\n");
    }
    invalid(out, parts, model, tool, &problems)
}

/// Judges `arguments` against a schema beyond the flat subset, with `validate.rs`: the syntax
/// first (the same answers as the flat reader gives), then the deepest problem, reported alone.
fn judge_any<const PATH: usize>(
    out: &mut impl Write,
    parts: &Parts<'_>,
    model: Model<'_>,
    patterns: &dyn Fn(crate::schema::Text, &str) -> bool,
    tool: &Tool,
    arguments: &[u8],
    nullable_optionals: bool,
) -> io::Result<()> {
    let mut tokens = Tokenizer::new(arguments);
    let first = match tokens.expect_token() {
        Ok(first) => first,
        Err(_) => return syntax(out, parts, &tokens, arguments),
    };
    if call_skip_rest(&mut tokens, first).is_err() {
        return syntax(out, parts, &tokens, arguments);
    }
    if first.kind != Kind::ObjectStart {
        let holds_json = first.kind == Kind::String && holds_json(first.raw);
        let found = Found {
            kind: first.kind,
            raw: first.raw,
        };
        return whole(out, parts, Whole::NotObject { found, holds_json });
    }
    match crate::validate::check(model, patterns, tool.input, arguments, nullable_optionals) {
        None => {
            out.write_all(b"{\"arguments\":")?;
            canonical::any_value(
                out,
                model,
                patterns,
                Some(tool.input),
                arguments,
                crate::tokenizer::skip_whitespace(arguments, 0),
                nullable_optionals,
            )?;
            id_and_name(out, parts)?;
            out.write_all(b",\"ok\":true}\n")
        }
        Some(failure) => {
            let mut problems = Problems::<PATH>::new();
            problems.schema(model, &failure, arguments);
            invalid(out, parts, model, tool, &problems)
        }
    }
}

/// Whether `text` matches the compiled-in catalog's `pattern`: every pattern of the catalog is
/// compiled once, on the first call that needs one, and kept for the process.
fn pattern_matches(pattern: crate::schema::Text, text: &str) -> bool {
    static COMPILED: std::sync::OnceLock<Patterns> = std::sync::OnceLock::new();
    matches(COMPILED.get_or_init(|| patterns(MODEL)), pattern, text)
}

/// Every `pattern` of a model, compiled: what [`matches`] reads.
pub(crate) struct Patterns {
    /// Where each pattern's text starts, sorted, and which of `compiled` it is.
    at: Vec<(u32, u32)>,
    /// Each distinct pattern, compiled once: generators repeat theirs (zod writes the same
    /// `uuid` and `datetime` patterns wherever the format appears).
    compiled: Vec<Regex>,
}

/// Compiles every `pattern` of `model`, once per distinct text.
pub(crate) fn patterns(model: Model<'_>) -> Patterns {
    let mut at: Vec<(u32, u32)> = Vec::new();
    let mut compiled = Vec::new();
    let mut by_text = std::collections::HashMap::new();
    for pattern in model.nodes.iter().filter_map(|node| model.pattern(node)) {
        let text = model.str(pattern);
        let index = match by_text.get(text) {
            Some(&index) => index,
            None => {
                let Ok(regex) = Regex::new(text) else {
                    continue;
                };
                compiled.push(regex);
                let index = compiled.len() as u32 - 1;
                by_text.insert(text, index);
                index
            }
        };
        at.push((pattern.start, index));
    }
    at.sort_unstable();
    at.dedup();
    at.shrink_to_fit();
    compiled.shrink_to_fit();
    Patterns { at, compiled }
}

/// Whether `text` matches `pattern`, one of `compiled` ([`patterns`]).
pub(crate) fn matches(compiled: &Patterns, pattern: crate::schema::Text, text: &str) -> bool {
    compiled
        .at
        .binary_search_by_key(&pattern.start, |&(start, _)| start)
        .is_ok_and(|i| compiled.compiled[compiled.at[i].1 as usize].is_match(text))
}

/// Reads past the first value and checks that nothing follows it.
fn call_skip_rest(
    tokens: &mut Tokenizer<'_>,
    first: crate::tokenizer::Token<'_>,
) -> Result<(), ()> {
    tokens.skip_any_depth(first).map_err(|_| ())?;
    tokens.drain().map_err(|_| ())
}

/// The tokenizer stopped: malformed, or cut short (the error is at the very end of the text).
#[cold]
fn syntax(
    out: &mut impl Write,
    parts: &Parts<'_>,
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
    whole(out, parts, whole_problem)
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
fn whole<W: Write>(out: &mut W, parts: &Parts<'_>, problem: Whole<'_>) -> io::Result<()> {
    out.write_all(b"{\"errors\":[{\"code\":\"")?;
    out.write_all(problem.code().as_bytes())?;
    out.write_all(b"\",\"message\":\"")?;
    let mut cache: Line = Line::new();
    let cached = whole_message(&mut cache, parts, &problem).is_ok();
    let write_message = |out: &mut W| {
        if cached {
            out.write_all(cache.text())
        } else {
            live(out, |text| whole_message(text, parts, &problem))
        }
    };
    write_message(out)?;
    out.write_all(b"\",\"path\":\"\"}]")?;
    id_and_name(out, parts)?;
    out.write_all(b",\"ok\":false,\"reply\":")?;
    reply(out, parts, write_message)?;
    out.write_all(b"}\n")
}

/// The answer for problems with particular arguments.
#[cold]
pub(crate) fn invalid<W: Write, const N: usize>(
    out: &mut W,
    parts: &Parts<'_>,
    model: Model<'_>,
    tool: &Tool,
    problems: &Problems<'_, N>,
) -> io::Result<()> {
    out.write_all(b"{\"errors\":[")?;
    // Each message goes out twice: rendered once into the cache, one after the other, while
    // they fit, and from the first that does not, rendered again each time it is written.
    let mut cache: Line = Line::new();
    let mut ends = [0; MAX_PROBLEMS];
    let mut cached = 0;
    for problem in problems.iter() {
        let start = cache.len;
        if message(&mut cache, model, tool, problem).is_err() {
            cache.len = start;
            break;
        }
        ends[cached] = cache.len;
        cached += 1;
    }
    let write_message = |out: &mut W, i: usize, problem: &Problem<'_, N>| {
        if i < cached {
            out.write_all(&cache.bytes[if i == 0 { 0 } else { ends[i - 1] }..ends[i]])
        } else {
            live(out, |text| message(text, model, tool, problem))
        }
    };
    let mut path = Line::<128>::new();
    // Fewer, longer writes: each error's opening is one constant, and its path goes out with
    // the text around it.
    for (i, problem) in problems.iter().enumerate() {
        let opening = opening(&problem.what);
        out.write_all(if i == 0 { &opening[1..] } else { opening })?;
        write_message(out, i, problem)?;
        path.len = 0;
        // A pointer must be whole, however long its keys.
        if path.raw(b"\",\"path\":\"").is_ok()
            && pointer(&mut path, problem).is_ok()
            && path.raw(b"\"}").is_ok()
        {
            out.write_all(path.text())?;
        } else {
            out.write_all(b"\",\"path\":\"")?;
            live(out, |text| pointer(text, problem))?;
            out.write_all(b"\"}")?;
        }
    }
    out.write_all(b"]")?;
    id_and_name(out, parts)?;
    out.write_all(b",\"ok\":false,\"reply\":")?;
    reply(out, parts, |out| {
        for (i, problem) in problems.iter().enumerate() {
            if i > 0 {
                out.write_all(b"\\n")?;
            }
            write_message(out, i, problem)?;
        }
        Ok(())
    })?;
    out.write_all(b"}\n")
}

/// `,{"code":"CODE","message":"`: an error's opening, up to its message. The only list of the
/// codes of problems with particular arguments.
fn opening(what: &What<'_>) -> &'static [u8] {
    macro_rules! opening {
        ($code:literal) => {
            concat!(",{\"code\":\"", $code, "\",\"message\":\"").as_bytes()
        };
    }
    match what {
        What::Unknown { .. } => opening!("unknown_argument"),
        What::Duplicate => opening!("duplicate_argument"),
        What::Missing { .. } => opening!("missing_argument"),
        What::WrongType { .. } => opening!("wrong_argument_type"),
        What::OutOfRange { .. } => opening!("argument_out_of_range"),
        What::NotInEnum { .. } => opening!("argument_not_in_enum"),
        What::Schema { reason, .. } => match reason {
            Reason::Type | Reason::Nothing => opening!("wrong_argument_type"),
            Reason::Enum | Reason::Const => opening!("argument_not_in_enum"),
            Reason::Range
            | Reason::SafeInteger
            | Reason::Float
            | Reason::MultipleOf
            | Reason::Length(_)
            | Reason::Members(_)
            | Reason::Items(_)
            | Reason::Beyond(_) => opening!("argument_out_of_range"),
            Reason::Pattern | Reason::Format => opening!("argument_not_matching"),
            Reason::Unique => opening!("argument_not_unique"),
            Reason::Missing(_) => opening!("missing_argument"),
            Reason::Unknown => opening!("unknown_argument"),
            Reason::Duplicate => opening!("duplicate_argument"),
            Reason::NoBranch | Reason::ManyBranches => opening!("argument_fits_no_alternative"),
            Reason::Discriminator => opening!("argument_not_in_enum"),
            Reason::TooDeep | Reason::TooComplex => opening!("arguments_too_complex"),
        },
    }
}

/// The message to append to the conversation, in the format's shape, with `text` as its text.
/// Each shape was checked against the stored copies named here:
///
/// - openai: a `tool` message, platform.openai.com/docs/api-reference/chat/create: `role`
///   "tool", `content`, `tool_call_id` (as in the Azure AI inference copy of the tool message).
/// - openai_responses: an input item, platform.openai.com/docs/api-reference/responses/create:
///   `function_call_output` with `call_id` and `output` (the openai gem's
///   `ResponseInputItem::FunctionCallOutput`: "call_id: The unique ID of the function tool call
///   generated by the model").
/// - anthropic: a `tool_result` content block, platform.claude.com/docs/en/agents-and-tools/
///   tool-use/implement-tool-use: `tool_use_id`, `content`, `is_error` ("Set to true if the tool
///   execution resulted in an error", in the stored `ToolResultBlockParam` schema).
/// - gemini: a part's `functionResponse`, ai.google.dev/api/caching#FunctionResponse: `id`,
///   `name`, and `response`: "Use \"output\" key to specify function output and \"error\" key
///   to specify error details" (Google's js-genai types).
/// - mcp: a `CallToolResult`, modelcontextprotocol.io/specification/2025-06-18/server/tools:
///   `content` of text items and `isError: true`; input validation errors belong there, "rather
///   than as a JsonRpcError", so that the model can correct itself (the C# SDK's reference).
fn reply<W: Write>(
    out: &mut W,
    parts: &Parts<'_>,
    mut text: impl FnMut(&mut W) -> io::Result<()>,
) -> io::Result<()> {
    let id = |out: &mut W| match parts.id {
        Some(id) => canonical::string(out, id),
        None => out.write_all(b"\"\""),
    };
    match parts.format {
        Format::OpenAi => {
            out.write_all(b"{\"content\":\"")?;
            text(out)?;
            out.write_all(b"\",\"role\":\"tool\",\"tool_call_id\":")?;
            id(out)?;
            out.write_all(b"}")
        }
        Format::OpenAiResponses => {
            out.write_all(b"{\"call_id\":")?;
            id(out)?;
            out.write_all(b",\"output\":\"")?;
            text(out)?;
            out.write_all(b"\",\"type\":\"function_call_output\"}")
        }
        Format::Anthropic => {
            out.write_all(b"{\"content\":\"")?;
            text(out)?;
            out.write_all(b"\",\"is_error\":true,\"tool_use_id\":")?;
            id(out)?;
            out.write_all(b",\"type\":\"tool_result\"}")
        }
        Format::Gemini | Format::GeminiJsonSchema => {
            out.write_all(b"{\"functionResponse\":{")?;
            if let Some(id) = parts.id {
                out.write_all(b"\"id\":")?;
                canonical::string(out, id)?;
                out.write_all(b",")?;
            }
            out.write_all(b"\"name\":")?;
            canonical::string(out, parts.name)?;
            out.write_all(b",\"response\":{\"error\":\"")?;
            text(out)?;
            out.write_all(b"\"}}}")
        }
        Format::Mcp => {
            out.write_all(b"{\"content\":[{\"text\":\"")?;
            text(out)?;
            out.write_all(b"\",\"type\":\"text\"}],\"isError\":true}")
        }
    }
}

/// Where a message or a pointer is rendered, escaped for a JSON string: `raw` takes text that
/// is escaped already, and `fmt::Write` (so `write!`) takes text to escape.
trait Text: fmt::Write {
    fn raw(&mut self, text: &[u8]) -> fmt::Result;

    /// Appends UTF-8 text (from a valid document, or the catalog), escaped.
    #[inline]
    fn push(&mut self, text: &[u8]) -> fmt::Result {
        let mut plain = 0;
        let mut i = 0;
        loop {
            i = escape_run_end(text, i);
            let Some(&byte) = text.get(i) else {
                return self.raw(&text[plain..]);
            };
            self.raw(&text[plain..i])?;
            let (escape, len) = escape(byte);
            self.raw(&escape[..len])?;
            i += 1;
            plain = i;
        }
    }
}

/// Text rendered ahead: messages, to be written twice, or a pointer, to be written in one piece.
/// The room is zeroed on every invalid call, so it is sized for the usual text (1 KiB of
/// messages, 128 bytes of pointer), not the longest: text that does not fit is refused (`raw`
/// fails), and is rendered again, [`live`], each time it is written.
struct Line<const N: usize = 1024> {
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> Line<N> {
    fn new() -> Line<N> {
        Line {
            bytes: [0; N],
            len: 0,
        }
    }

    fn text(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl<const N: usize> Text for Line<N> {
    #[inline]
    fn raw(&mut self, text: &[u8]) -> fmt::Result {
        let end = self.len + text.len();
        let room = self.bytes.get_mut(self.len..end).ok_or(fmt::Error)?;
        // Most pieces are a few bytes: two overlapping word copies, not a call to `memcpy`.
        let len = text.len();
        let word = |x: &[u8], at: usize| -> [u8; 8] { x[at..at + 8].try_into().unwrap_or([0; 8]) };
        if (8..=16).contains(&len) {
            room[..8].copy_from_slice(&word(text, 0));
            room[len - 8..].copy_from_slice(&word(text, len - 8));
        } else {
            room.copy_from_slice(text);
        }
        self.len = end;
        Ok(())
    }
}

impl<const N: usize> fmt::Write for Line<N> {
    #[inline]
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.push(text.as_bytes())
    }
}

/// Text written straight into the answer as it is rendered; keeps the first failed write's
/// error, since `fmt` errors carry none.
struct Live<'o> {
    out: &'o mut dyn Write,
    failed: Option<io::Error>,
}

impl Text for Live<'_> {
    fn raw(&mut self, text: &[u8]) -> fmt::Result {
        self.out.write_all(text).map_err(|err| {
            self.failed = Some(err);
            fmt::Error
        })
    }
}

impl fmt::Write for Live<'_> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.push(text.as_bytes())
    }
}

/// Renders with `render` straight into `out`, whatever the length.
fn live(out: &mut impl Write, render: impl FnOnce(&mut Live<'_>) -> fmt::Result) -> io::Result<()> {
    let mut text = Live { out, failed: None };
    let _ = render(&mut text);
    text.failed.map_or(Ok(()), Err)
}

/// The longest stretch of the model's own text quoted in a message, in characters.
const QUOTE: usize = 64;

fn whole_message(text: &mut impl Text, parts: &Parts<'_>, problem: &Whole<'_>) -> fmt::Result {
    match problem {
        Whole::UnknownTool {
            refused: Some(refusal),
            ..
        } => {
            text.raw(b"the tool ")?;
            quoted(text, parts.name)?;
            // The pointer and the rule: the tool's name is the call's own.
            let pointer = &refusal.pointer;
            write!(
                text,
                " cannot be called: the catalog left it out ({pointer}: {}); use another tool",
                refusal.rule
            )
        }
        Whole::UnknownTool { closest, .. } => {
            text.raw(b"there is no tool ")?;
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
            text.raw(b"the arguments must be a JSON object, found ")?;
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
fn message<const N: usize>(
    text: &mut impl Text,
    model: Model<'_>,
    tool: &Tool,
    problem: &Problem<'_, N>,
) -> fmt::Result {
    match problem.what {
        What::Unknown { object } => {
            text.raw(b"unknown argument ")?;
            argument(text, problem)?;
            text.raw(b"; ")?;
            let steps = problem.path.steps();
            if steps.len() <= 1 {
                text.write_str(model.str(tool.name))?;
            } else {
                text.raw(b"\\\"")?;
                name(text, &steps[..steps.len() - 1])?;
                text.raw(b"\\\"")?;
            }
            takes(text, model, object)
        }
        What::Duplicate => {
            text.raw(b"argument ")?;
            argument(text, problem)?;
            text.raw(b" is given more than once")
        }
        What::Missing { property } => {
            text.raw(b"missing required argument ")?;
            argument(text, problem)?;
            text.raw(b", which must be ")?;
            expected(text, model.node(property.schema), false)
        }
        What::WrongType {
            expected: schema,
            nullable,
            found,
        } => {
            text.raw(b"argument ")?;
            argument(text, problem)?;
            text.raw(b" must be ")?;
            expected(text, schema, nullable)?;
            text.raw(b", found ")?;
            describe(text, &found)
        }
        What::OutOfRange { bound, found } => {
            text.raw(b"argument ")?;
            argument(text, problem)?;
            let plural = |n: u64| if n == 1 { "" } else { "s" };
            match bound {
                Bound::Minimum(min) => write!(text, " must be at least {min}")?,
                Bound::Maximum(max) => write!(text, " must be at most {max}")?,
                Bound::SafeInteger => write!(
                    text,
                    " must be an integer from -{MAX_SAFE_INTEGER} to {MAX_SAFE_INTEGER}"
                )?,
                Bound::Float => text.raw(b" must be a number that fits a 64-bit float")?,
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
            text.raw(b", found ")?;
            describe(text, &found)
        }
        What::Schema {
            node,
            reason,
            found,
        } => match reason {
            Reason::Missing(_) => {
                text.raw(b"missing required argument ")?;
                argument(text, problem)
            }
            Reason::Unknown => {
                text.raw(b"unknown argument ")?;
                argument(text, problem)?;
                text.raw(b"; this object takes no other members")
            }
            Reason::Duplicate => {
                text.raw(b"argument ")?;
                argument(text, problem)?;
                text.raw(b" is given more than once")
            }
            _ => {
                text.raw(b"argument ")?;
                argument(text, problem)?;
                text.raw(b" ")?;
                crate::validate::reason(text, model, node, reason)?;
                // A count's reason says what it found already ("found 0").
                if !matches!(
                    reason,
                    Reason::TooDeep
                        | Reason::TooComplex
                        | Reason::Unique
                        | Reason::Length(_)
                        | Reason::Members(_)
                        | Reason::Items(_)
                        | Reason::Beyond(_)
                ) {
                    text.raw(b", found ")?;
                    describe(text, &found)?;
                }
                Ok(())
            }
        },
        What::NotInEnum { values, found } => {
            text.raw(b"argument ")?;
            argument(text, problem)?;
            text.raw(b" must be one of ")?;
            const LISTED: usize = 16;
            for (i, value) in values.iter().take(LISTED).enumerate() {
                if i > 0 {
                    text.raw(b", ")?;
                }
                match value {
                    Scalar::String(value) => crate::validate::quoted(text, model.str(*value))?,
                    Scalar::Number(number) => text.write_str(model.str(number.text))?,
                    Scalar::Boolean(value) => write!(text, "{value}")?,
                    Scalar::Null => text.raw(b"null")?,
                    Scalar::Json(json) => text.write_str(model.str(*json))?,
                }
            }
            if values.len() > LISTED {
                write!(text, " (or {} more)", values.len() - LISTED)?;
            }
            text.raw(b", found ")?;
            describe(text, &found)
        }
    }
}

/// `" takes a, b, c"`: the properties an object declares, or that it takes none.
fn takes(text: &mut impl Text, model: Model<'_>, object: &Schema) -> fmt::Result {
    const LISTED: usize = 16;
    let properties = model.properties(object);
    if properties.is_empty() {
        return text.raw(b" takes no arguments");
    }
    text.raw(b" takes ")?;
    for (i, property) in properties.iter().take(LISTED).enumerate() {
        if i > 0 {
            text.raw(b", ")?;
        }
        text.write_str(model.str(property.name))?;
    }
    if properties.len() > LISTED {
        write!(text, " and {} more", properties.len() - LISTED)?;
    }
    Ok(())
}

/// `"a/0/b"`: the argument a problem is about, quoted.
fn argument<const N: usize>(text: &mut impl Text, problem: &Problem<'_, N>) -> fmt::Result {
    text.raw(b"\\\"")?;
    name(text, problem.path.steps())?;
    text.raw(b"\\\"")
}

/// The steps to an argument, joined by `/`; each key cut to [`QUOTE`] characters.
fn name(text: &mut impl Text, steps: &[Segment<'_>]) -> fmt::Result {
    for (i, step) in steps.iter().enumerate() {
        if i > 0 {
            text.raw(b"/")?;
        }
        match step {
            Segment::Key(literal) => cut(text, literal)?,
            Segment::Name(name) => text.write_str(name)?,
            Segment::Index(index) => write!(text, "{index}")?,
        }
    }
    Ok(())
}

/// The JSON Pointer (RFC 6901) of a problem: keys decoded, `~` as `~0` and `/` as `~1`.
fn pointer<const N: usize>(text: &mut impl Text, problem: &Problem<'_, N>) -> fmt::Result {
    for step in problem.path.steps() {
        text.raw(b"/")?;
        match step {
            Segment::Key(literal) => {
                let inner = &literal[1..literal.len() - 1];
                if !inner.iter().any(|b| matches!(b, b'\\' | b'~' | b'/')) {
                    // A literal's inside holds no `"` or control character: with no escape,
                    // it is already as the answer spells it.
                    text.raw(inner)?;
                    continue;
                }
                let mut result = Ok(());
                decode(literal, |c| {
                    result = result.and_then(|()| match c {
                        '~' => text.raw(b"~0"),
                        '/' => text.raw(b"~1"),
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
fn quoted(text: &mut impl Text, literal: &[u8]) -> fmt::Result {
    text.raw(b"\\\"")?;
    cut(text, literal)?;
    text.raw(b"\\\"")
}

/// A string literal's text, at most [`QUOTE`] characters of it, then `...` if there was more.
/// Control characters show as U+FFFD, so a message stays one line.
fn cut(text: &mut impl Text, literal: &[u8]) -> fmt::Result {
    let inner = &literal[1..literal.len() - 1];
    // Short printable ASCII without escapes: the text is the literal's inside, to be shown as
    // it is. (DEL and the C1 controls can stand unescaped in a literal, so not all text can.)
    if inner.len() <= QUOTE
        && inner
            .iter()
            .all(|&b| (0x20..0x7f).contains(&b) && b != b'\\')
    {
        // Nor a `"`, inside a literal: nothing for `push` to escape.
        return text.raw(inner);
    }
    let mut count = 0;
    let mut result = Ok(());
    decode(literal, |c| {
        count += 1;
        if count <= QUOTE {
            let c = if c.is_control() { '\u{FFFD}' } else { c };
            result = result.and_then(|()| text.write_char(c));
        }
    });
    result?;
    if count > QUOTE {
        text.raw(b"...")?;
    }
    Ok(())
}

/// What the schema wants: "an integer", "a string or null".
fn expected(text: &mut impl Text, schema: &Schema, nullable: bool) -> fmt::Result {
    // Text with nothing to escape goes in as it is.
    text.raw(schema.ty.article().as_bytes())?;
    if nullable {
        text.raw(b" or null")?;
    }
    Ok(())
}

/// What the model gave: "the string \"5\"", "the number 5.5", "an object".
fn describe(text: &mut impl Text, found: &Found<'_>) -> fmt::Result {
    match found.kind {
        Kind::String => {
            text.raw(b"the string ")?;
            quoted(text, found.raw)
        }
        Kind::Number => {
            text.raw(b"the number ")?;
            // A number's literal is ASCII with nothing to escape.
            text.raw(&found.raw[..found.raw.len().min(QUOTE)])?;
            if found.raw.len() > QUOTE {
                text.raw(b"...")?;
            }
            Ok(())
        }
        Kind::True => text.raw(b"the boolean true"),
        Kind::False => text.raw(b"the boolean false"),
        kind => text.raw(kind.described().as_bytes()),
    }
}
