//! What a request asks for, read from the tokenizer's tokens in one pass.
//!
//! Meaning comes second to syntax: the first problem with what the request *means* is held while
//! the rest of the document is still tokenized, and a syntax error anywhere wins over it. So a
//! malformed document always reports `malformed_json`, whatever else is wrong with it.
//!
//! Among meaning errors, the order is: the object's members in document order (`unknown_field`,
//! `duplicate_field`, `wrong_type`), then `missing_field` for `op`, then `unknown_op`, then the
//! fields the op needs.

use crate::catalog::{self, Tool};
use crate::error::Error;
use crate::tokenizer::{string_eq, Kind, Token, Tokenizer};

/// A request understood.
#[derive(Debug)]
pub struct Request {
    pub tool: &'static Tool,
}

/// The ops there are, for error messages.
pub(crate) const OPS: &str = "tool_schema";

/// The fields a request may have, in the order `unknown_field` lists them.
const FIELDS: [&str; 2] = ["op", "tool"];
const FIELD_LIST: &str = "op, tool";

/// Reads one request. Allocates nothing: strings stay as borrowed literals until compared.
pub fn parse(input: &[u8]) -> Result<Request, Error> {
    let mut tokens = Tokenizer::new(input);
    let meaning = read(&mut tokens);
    match meaning {
        Err(error) if error.is_syntax() => Err(error),
        _ => tokens.finish().and(meaning),
    }
}

fn read(tokens: &mut Tokenizer<'_>) -> Result<Request, Error> {
    let open = tokens.expect_token()?;
    if open.kind != Kind::ObjectStart {
        return Err(Error::not_an_object(open.at, describe(open.kind)));
    }
    let mut values: [Option<Token<'_>>; FIELDS.len()] = [None; FIELDS.len()];
    let close = loop {
        let key = tokens.expect_token()?;
        if key.kind == Kind::ObjectEnd {
            break key;
        }
        let Some(field) = FIELDS.iter().position(|name| string_eq(key.raw, name)) else {
            return Err(Error::unknown_field(key.at, key.raw, FIELD_LIST));
        };
        if values[field].is_some() {
            return Err(Error::duplicate_field(key.at, FIELDS[field]));
        }
        let value = tokens.expect_token()?;
        if value.kind != Kind::String {
            let found = describe(value.kind);
            return Err(Error::wrong_type(
                value.at,
                FIELDS[field],
                "a string",
                found,
            ));
        }
        values[field] = Some(value);
    };
    let [op, tool] = values;
    let op = op.ok_or_else(|| Error::missing_field(close.at, "op"))?;
    if !string_eq(op.raw, "tool_schema") {
        return Err(Error::unknown_op(op.at, op.raw));
    }
    let tool = tool.ok_or_else(|| Error::missing_field(close.at, "tool"))?;
    let tool = catalog::find(tool.raw).ok_or_else(|| Error::unknown_tool(tool.at, tool.raw))?;
    Ok(Request { tool })
}

/// How a value of this kind is named in messages.
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
