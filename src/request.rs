//! What a request asks for, read from the tokenizer's tokens in one pass.
//!
//! Meaning comes second to syntax: the first problem with what the request *means* is held while
//! the rest of the document is still tokenized, and a syntax error anywhere wins over it. So a
//! malformed document always reports `malformed_json`, whatever else is wrong with it.
//!
//! Among meaning errors the order is: the object's members in document order (`unknown_field`,
//! `duplicate_field`, `wrong_type`); then `op` (`missing_field`, `unknown_op`); then the op's
//! fields in a fixed order: `tool` (`unknown_field` in a list, `missing_field`), `format`
//! (`unknown_format`), `strict` (`unsupported`), and last the tool's name (`unknown_tool`).

use crate::catalog;
use crate::error::Error;
use crate::tokenizer::{string_eq, Kind, Stop, Token, Tokenizer};
use crate::wire::{Format, Shape};

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
    /// Every tool's declaration, as one array.
    ToolList,
}

/// The ops there are, for error messages.
pub(crate) const OPS: &str = "tool_schema, tool_list";

/// The fields a request may have, with the JSON type each takes (`Kind::True` standing for
/// either boolean).
const FIELDS: [(&str, Kind); 4] = [
    ("op", Kind::String),
    ("tool", Kind::String),
    ("format", Kind::String),
    ("strict", Kind::True),
];
const OP: usize = 0;
const TOOL: usize = 1;
const FORMAT: usize = 2;
const STRICT: usize = 3;
const ANY_FIELD: &str = "op, tool, format, strict";
const LIST_FIELD: &str = "op, format, strict";

/// Reads one request. Allocates nothing: strings stay as borrowed literals until compared.
#[inline]
pub fn parse(input: &[u8]) -> Result<Request, Error> {
    let mut tokens = Tokenizer::new(input);
    let meaning = read(&mut tokens);
    match meaning {
        Err(error) if error.is_syntax() => Err(error),
        _ => match tokens.drain() {
            Ok(()) => meaning,
            Err(Stop) => Err(tokens.error()),
        },
    }
}

/// The next token, where one must come, or the tokenizer's error.
#[inline]
fn next<'a>(tokens: &mut Tokenizer<'a>) -> Result<Token<'a>, Error> {
    tokens.expect_token().map_err(|Stop| tokens.error())
}

/// A field as the request gave it: its key and its value.
type Member<'a> = Option<(Token<'a>, Token<'a>)>;

#[inline]
fn read(tokens: &mut Tokenizer<'_>) -> Result<Request, Error> {
    let open = next(tokens)?;
    if open.kind != Kind::ObjectStart {
        return Err(Error::not_an_object(open.at, describe(open.kind)));
    }
    let mut members: [Member<'_>; FIELDS.len()] = [None; FIELDS.len()];
    let close = loop {
        let key = next(tokens)?;
        if key.kind == Kind::ObjectEnd {
            break key;
        }
        let Some(field) = FIELDS.iter().position(|(name, _)| string_eq(key.raw, name)) else {
            return Err(Error::unknown_field(key.at, key.raw, ANY_FIELD));
        };
        let (name, want) = FIELDS[field];
        if members[field].is_some() {
            return Err(Error::duplicate_field(key.at, name));
        }
        let value = next(tokens)?;
        let kind = if value.kind == Kind::False {
            Kind::True
        } else {
            value.kind
        };
        if kind != want {
            return Err(Error::wrong_type(
                value.at,
                name,
                describe(want),
                describe(value.kind),
            ));
        }
        members[field] = Some((key, value));
    };

    let (_, op) = members[OP].ok_or_else(|| Error::missing_field(close.at, "op"))?;
    let list = if string_eq(op.raw, "tool_schema") {
        false
    } else if string_eq(op.raw, "tool_list") {
        true
    } else {
        return Err(Error::unknown_op(op.at, op.raw));
    };
    let tool = match (list, members[TOOL]) {
        (true, Some((key, _))) => return Err(Error::unknown_field(key.at, key.raw, LIST_FIELD)),
        (true, None) => None,
        (false, Some((_, value))) => Some(value),
        (false, None) => return Err(Error::missing_field(close.at, "tool")),
    };
    let format = match members[FORMAT] {
        None => Format::OpenAi,
        Some((_, value)) => Format::ALL
            .into_iter()
            .find(|format| string_eq(value.raw, format.name()))
            .ok_or_else(|| Error::unknown_format(value.at, value.raw))?,
    };
    let strict = members[STRICT].is_some_and(|(_, value)| value.kind == Kind::True);
    let shape = Shape::new(format, strict).ok_or_else(|| {
        let at = members[STRICT].map_or(close.at, |(key, _)| key.at);
        Error::unsupported(at, format.name())
    })?;
    let op = match tool {
        None => Op::ToolList,
        Some(value) => {
            let tool =
                catalog::find(value.raw).ok_or_else(|| Error::unknown_tool(value.at, value.raw))?;
            Op::ToolSchema { tool }
        }
    };
    Ok(Request { op, shape })
}

/// How a value of this kind is named in messages.
#[inline]
fn describe(kind: Kind) -> &'static str {
    match kind {
        Kind::ObjectStart => "an object",
        Kind::ArrayStart => "an array",
        Kind::String => "a string",
        Kind::Number => "a number",
        Kind::True | Kind::False => "a boolean",
        Kind::Null => "null",
        Kind::ObjectEnd | Kind::ArrayEnd | Kind::Key => "a token",
    }
}
