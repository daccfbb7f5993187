//! A tool call as a provider returned it: where, in the request, its name, id and arguments are.
//!
//! Each format wraps a call in an envelope of its own (the table below). Only the fields that the
//! table names are read; providers add others (`status`, `caller`, `thoughtSignature`, `_meta`,
//! ...), and those are skipped. A named field that is missing, mistyped or given twice is the
//! harness's mistake, not the model's, so it is an [`Error`] with the request's own codes, at its
//! byte offset in the request. What the model wrote (the name it chose, the arguments) is judged
//! later, by `check.rs`, and goes back to the model instead.

use crate::error::Error;
use crate::tokenizer::{string_eq, Kind, Stop, Token, Tokenizer};
use crate::wire::Format;

/// Bytes of the request: `at..end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub at: usize,
    pub end: usize,
}

/// Where a call's arguments are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arguments {
    /// A string literal whose text is JSON: OpenAI's `arguments`, in both of its APIs.
    Text(Span),
    /// A JSON value in place: Anthropic's `input`, Gemini's `args`, MCP's `arguments`.
    Value(Span),
    /// Left out, which Gemini and MCP allow: the arguments are `{}`.
    Absent,
}

/// One call, read from its envelope. Every span is a string literal of the request, quotes
/// included, except a [`Arguments::Value`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Call {
    pub name: Span,
    pub id: Option<Span>,
    pub arguments: Arguments,
}

/// What an envelope field holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Name,
    Id,
    /// JSON text in a string.
    ArgumentsText,
    /// Any JSON value: the model's, judged later.
    ArgumentsValue,
    /// A string that must be exactly this, e.g. `"type":"function"`.
    Constant(&'static str),
    /// OpenAI chat's nested `function` object.
    Function,
}

/// A field of an envelope: its key, how messages name it, what it holds, and whether it must be
/// there.
struct Field {
    key: &'static str,
    label: &'static str,
    role: Role,
    required: bool,
}

const fn field(key: &'static str, label: &'static str, role: Role, required: bool) -> Field {
    Field {
        key,
        label,
        role,
        required,
    }
}

/// OpenAI chat completions, a `message.tool_calls[i]`: platform.openai.com/docs/api-reference/
/// chat/object. Checked against the stored copy of the OpenAI client's types
/// (`ChatCompletionMessageToolCall`: `id`, `type: "function"`, "Currently, only function is
/// supported", and `function` with `name` and `arguments`, a string of JSON).
const OPENAI: &[Field] = &[
    field("id", "call.id", Role::Id, true),
    field("type", "call.type", Role::Constant("function"), true),
    field("function", "call.function", Role::Function, true),
];
const OPENAI_FUNCTION: &[Field] = &[
    field("name", "call.function.name", Role::Name, true),
    field(
        "arguments",
        "call.function.arguments",
        Role::ArgumentsText,
        true,
    ),
];
/// OpenAI Responses, an output item: platform.openai.com/docs/api-reference/responses/object
/// (`function_call`: `type`, `call_id`, `name`, `arguments` as a JSON string; the stored copies
/// of SDK types checked show the same fields, `status` beside them). Its own `id` is the item's,
/// not the call's, and is skipped.
const OPENAI_RESPONSES: &[Field] = &[
    field("type", "call.type", Role::Constant("function_call"), true),
    field("call_id", "call.call_id", Role::Id, true),
    field("name", "call.name", Role::Name, true),
    field("arguments", "call.arguments", Role::ArgumentsText, true),
];
/// Anthropic, a content block: platform.claude.com/docs/en/agents-and-tools/tool-use/overview
/// (`tool_use` blocks carry `id`, `name` and `input`, an object).
const ANTHROPIC: &[Field] = &[
    field("type", "call.type", Role::Constant("tool_use"), true),
    field("id", "call.id", Role::Id, true),
    field("name", "call.name", Role::Name, true),
    field("input", "call.input", Role::ArgumentsValue, true),
];
/// Gemini, a part's `functionCall`: ai.google.dev/api/caching#FunctionCall (`name` required;
/// `args` "Optional. The function parameters and values in JSON object format"; `id` optional),
/// as the stored copy of ai.google.dev's `FunctionCall` reference and Google's js-genai types say.
const GEMINI: &[Field] = &[
    field("name", "call.name", Role::Name, true),
    field("args", "call.args", Role::ArgumentsValue, false),
    field("id", "call.id", Role::Id, false),
];
/// MCP, a `tools/call` request's `params`: modelcontextprotocol.io/specification/2025-06-18/
/// server/tools#calling-tools (`name`, and `arguments`, which the schema makes optional).
const MCP: &[Field] = &[
    field("name", "call.name", Role::Name, true),
    field("arguments", "call.arguments", Role::ArgumentsValue, false),
];

/// The most fields an envelope names: a bitmask of those seen fits in a byte.
const MOST_FIELDS: usize = 4;

/// Reads the envelope of `format` that spans `call` in `request` (a well-formed object, already
/// tokenized once by the request reader).
pub(crate) fn read(request: &[u8], call: Span, format: Format) -> Result<Call, Error> {
    let fields = match format {
        Format::OpenAi => OPENAI,
        Format::OpenAiResponses => OPENAI_RESPONSES,
        Format::Anthropic => ANTHROPIC,
        Format::Gemini | Format::GeminiJsonSchema => GEMINI,
        Format::Mcp => MCP,
    };
    // The call is a complete value, so it tokenizes alone; offsets are then `call.at` less than
    // the request's.
    let mut tokens = Tokenizer::new(&request[call.at..call.end]);
    let mut found = Call {
        name: Span { at: 0, end: 0 },
        id: None,
        arguments: Arguments::Absent,
    };
    next(&mut tokens, call.at)?;
    envelope(&mut tokens, call.at, fields, &mut found)?;
    Ok(found)
}

/// One envelope object, after its `{`: its named fields into `call`. `base` is the offset of
/// the tokenizer's input in the request.
fn envelope(
    tokens: &mut Tokenizer<'_>,
    base: usize,
    fields: &[Field],
    call: &mut Call,
) -> Result<(), Error> {
    debug_assert!(fields.len() <= MOST_FIELDS);
    let mut seen = 0u8;
    let close = loop {
        let key = next(tokens, base)?;
        if key.kind == Kind::ObjectEnd {
            break key;
        }
        let value = next(tokens, base)?;
        let Some(index) = fields
            .iter()
            .position(|field| string_eq(key.raw, field.key))
        else {
            tokens.skip(value).map_err(|Stop| error(tokens, base))?;
            continue;
        };
        let field = &fields[index];
        if seen & (1 << index) != 0 {
            return Err(Error::duplicate_field(base + key.at, field.label));
        }
        seen |= 1 << index;
        let want = match field.role {
            Role::ArgumentsValue => value.kind,
            Role::Function => Kind::ObjectStart,
            _ => Kind::String,
        };
        if want != value.kind {
            let want = match field.role {
                Role::Constant(constant) => quoted(constant),
                _ => want.described(),
            };
            return Err(Error::wrong_type(
                base + value.at,
                field.label,
                want,
                value.kind.described(),
            ));
        }
        if field.role == Role::Function {
            envelope(tokens, base, OPENAI_FUNCTION, call)?;
            continue;
        }
        let end = tokens.skip(value).map_err(|Stop| error(tokens, base))?;
        let span = Span {
            at: base + value.at,
            end: base + end,
        };
        match field.role {
            Role::Name => call.name = span,
            Role::Id => call.id = Some(span),
            Role::ArgumentsText => call.arguments = Arguments::Text(span),
            Role::ArgumentsValue => call.arguments = Arguments::Value(span),
            Role::Constant(constant) if !string_eq(value.raw, constant) => {
                return Err(Error::wrong_type_advised(
                    base + value.at,
                    field.label,
                    quoted(constant),
                    another_format(value.raw),
                ));
            }
            Role::Constant(_) | Role::Function => {}
        }
    };
    for (index, field) in fields.iter().enumerate() {
        if field.required && seen & (1 << index) == 0 {
            if let Some(hint) = whole_message(tokens, close.at) {
                return Err(Error::wrong_type_advised(
                    base,
                    "call",
                    "one tool call",
                    hint,
                ));
            }
            return Err(Error::missing_field(base + close.at, field.label));
        }
    }
    Ok(())
}

/// How a message names a call's `type` that is not its format's: the format whose calls have
/// that type, for a call sent with the wrong `format` (or none).
#[cold]
fn another_format(literal: &[u8]) -> (&'static str, &'static str) {
    const TYPES: [(&str, &str, &str); 3] = [
        (
            "function",
            "\"function\"",
            "; that is an OpenAI Chat Completions call: send \"format\":\"openai\" (the default)",
        ),
        (
            "function_call",
            "\"function_call\"",
            "; that is an OpenAI Responses call: send \"format\":\"openai_responses\"",
        ),
        (
            "tool_use",
            "\"tool_use\"",
            "; that is an Anthropic call: send \"format\":\"anthropic\"",
        ),
    ];
    TYPES
        .iter()
        .find(|(kind, _, _)| string_eq(literal, kind))
        .map_or(("another string", ""), |&(_, found, advice)| {
            (found, advice)
        })
}

/// Whether the envelope that closes at `close` in the tokenizer's input is a whole message
/// rather than one call (it has `tool_calls`, `content` or `parts`), and the advice for it.
#[cold]
fn whole_message(tokens: &Tokenizer<'_>, close: usize) -> Option<(&'static str, &'static str)> {
    let input = tokens.input();
    let text = input.get(..=close)?;
    let has = |key: &str| {
        let mut scan = Tokenizer::new(text);
        let _open = scan.expect_token();
        while let (Ok(name), Ok(value)) = (scan.expect_token(), scan.expect_token()) {
            if string_eq(name.raw, key) {
                return true;
            }
            if scan.skip(value).is_err() {
                break;
            }
        }
        false
    };
    if has("tool_calls") {
        return Some((
            "a whole message",
            "; pass one of its tool_calls[i] as call, or the message as turn to check_turn",
        ));
    }
    if has("content") || has("parts") || has("output") {
        return Some((
            "a whole message or response",
            "; pass one call of it as call, or it as turn to check_turn",
        ));
    }
    None
}

/// How messages name the one string a field may hold.
fn quoted(constant: &'static str) -> &'static str {
    match constant {
        "function" => "the string \"function\"",
        "function_call" => "the string \"function_call\"",
        "tool_use" => "the string \"tool_use\"",
        _ => "a string",
    }
}

fn next<'a>(tokens: &mut Tokenizer<'a>, base: usize) -> Result<Token<'a>, Error> {
    tokens.expect_token().map_err(|Stop| error(tokens, base))
}

/// The tokenizer's error, at its offset in the request. The request reader has already read
/// this span whole, so this is for completeness only.
#[cold]
fn error(tokens: &Tokenizer<'_>, base: usize) -> Error {
    tokens.error().shifted(base)
}
