//! The library's entry point: one request in, one response out.

use crate::error::Error;
use crate::quick_call;
use crate::request::{self, Op};
use crate::verdict;
use crate::writer;
use std::io::Write;

/// Answers one request: writes exactly the bytes the CLI prints for it, trailing newline
/// included.
///
/// On error nothing has been written, except for `io` errors from `out` itself. Allocates
/// nothing.
///
/// ```
/// let mut out = Vec::new();
/// tool_schema::respond(br#"{"op":"tool_schema","tool":"read_file"}"#, &mut out).unwrap();
/// assert!(out.starts_with(br#"{"function":{"description":"Lee el contenido"#));
/// assert!(out.ends_with(b"}\n"));
///
/// let err = tool_schema::respond(br#"{"op":"tool_schema","tool":"rm"}"#, &mut out).unwrap_err();
/// assert_eq!(err.code(), "unknown_tool");
/// ```
pub fn respond(input: &[u8], out: &mut impl Write) -> Result<(), Error> {
    let request = match request::parse_quick(input) {
        Some(request) => request?,
        None => {
            if let Some(answer) = quick_call::answer(input, out) {
                #[cfg(debug_assertions)]
                quick_call::agrees_with_general(input);
                return answer.map_err(|err| Error::io("cannot write the response", &err));
            }
            request::parse_general(input)?
        }
    };
    match request.op {
        Op::ToolSchema { tool } => writer::write_tool(out, tool, request.shape),
        Op::ToolList => writer::write_list(out, request.shape),
        Op::CheckCall { call } => verdict::answer(input, &call, request.shape, out),
    }
    .map_err(|err| Error::io("cannot write the response", &err))
}
