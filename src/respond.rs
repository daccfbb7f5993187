//! The library's entry point: one request in, one response out.

use crate::call::Call;
use crate::catalog::{Compiled, Names};
use crate::error::Error;
use crate::quick_call;
use crate::request::{self, Op, Request};
use crate::tool_choice::{self, Choice};
use crate::turn::{self, WithoutNewline};
use crate::verdict;
use crate::wire::Shape;
use crate::writer;
use crate::writer::Declarations;
use std::borrow::Cow;
use std::io::Write;

/// Answers one request: writes exactly the bytes the CLI prints for it, trailing newline
/// included.
///
/// On error nothing has been written, except for `io` errors from `out` itself and `internal`
/// ones (a fault of the crate's own, which no request should meet). Allocates nothing.
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
    watched(input, out, |out| respond_compiled(input, out))
}

/// [`respond`] without the watch on `out`.
#[inline(always)]
fn respond_compiled(input: &[u8], out: &mut impl Write) -> Result<(), Error> {
    // `{"op":"check_call"` has a `c` where `{"op":"tool_schema"` has a `t`: a compact call goes
    // to its own quick path first, without the declarations' trying it.
    let call_first = input.get(7) == Some(&b'c');
    if call_first {
        // Matched here rather than passed up whole: an `Error` is about 90 bytes, and copying
        // it out on every call was a tenth of a valid call's time (perf).
        match quick_call(input, out) {
            Some(Ok(())) => return Ok(()),
            Some(Err(err)) => return Err(write_failed(err)),
            None => {}
        }
    }
    let request = match request::parse_quick(input, &Compiled) {
        Some(request) => request?,
        None => {
            if !call_first {
                if let Some(answer) = quick_call(input, out) {
                    return answer.map_err(write_failed);
                }
            }
            request::parse_general(input, &Compiled)?
        }
    };
    answer(
        input,
        request,
        &Compiled,
        writer::COMPILED,
        Cow::Borrowed,
        out,
        |call, shape, out| verdict::answer(input, call, shape, out),
        |call, shape, out| verdict::answer(input, call, shape, out),
    )
}

/// Answers a request understood (`input`'s): a declaration or the list from `declarations`, a
/// call through `check`, each call of a turn through `check_in_turn` (the same checker, writing
/// through `turn.rs`'s writer), a tool choice through `tool_choice.rs`. The one dispatch, for the compiled-in catalog and for one read at run time.
/// `keep` turns a reason a shape cannot express a tool into one an error can hold: the
/// compiled-in catalog's are `'static`; a run-time catalog's are copied, the one allocation its
/// requests can make, and only for that refusal.
#[inline(always)]
#[allow(clippy::too_many_arguments)] // the one dispatch takes each catalog's own parts
pub(crate) fn answer<'d, W: Write>(
    input: &[u8],
    request: Request,
    names: &impl Names,
    declarations: Declarations<'d>,
    keep: impl Fn(&'d str) -> Cow<'static, str>,
    out: &mut W,
    check: impl FnOnce(&Call, Shape, &mut W) -> std::io::Result<()>,
    check_in_turn: impl FnMut(&Call, Shape, &mut WithoutNewline<'_, W>) -> std::io::Result<()>,
) -> Result<(), Error> {
    let not_expressible = |tool: usize, reason: &'d str| {
        let shape = request.shape;
        Error::not_expressible(
            names.held_name(tool),
            shape.format().name(),
            shape.strict(),
            keep(reason),
        )
    };
    match request.op {
        Op::ToolSchema { tool } => {
            if let Some(reason) = declarations.not_expressible(tool, request.shape) {
                return Err(not_expressible(tool, reason));
            }
            declarations.write_tool(out, tool, request.shape)
        }
        Op::ToolList {
            skip_unsupported: false,
        } => {
            if let Some((tool, reason)) = declarations.first_not_expressible(request.shape) {
                return Err(not_expressible(tool, reason));
            }
            declarations.write_list(out, request.shape)
        }
        Op::ToolList {
            skip_unsupported: true,
        } => declarations.write_declarable(out, request.shape, names),
        Op::CheckCall { call } => check(&call, request.shape, out),
        Op::CheckTurn { turn } => {
            let shape = request.shape;
            let mut check = check_in_turn;
            turn::answer(input, turn, shape.format(), out, |call, out| {
                check(call, shape, out)
            })?
        }
        Op::ToolChoice { choice, parallel } => {
            // A tool the shape cannot declare is not in the tools sent, and cannot be forced.
            let name = match choice {
                Choice::Tool(tool) => {
                    if let Some(reason) = declarations.not_expressible(tool, request.shape) {
                        return Err(not_expressible(tool, reason));
                    }
                    names.name(tool)
                }
                _ => "",
            };
            tool_choice::write(out, request.shape.format(), choice, name, parallel)
        }
    }
    .map_err(write_failed)
}

/// Answers through `answer`, into `out` watched: a write that failed though `out` refused
/// nothing (a writer of the crate's own that met what it cannot write) is the crate's fault,
/// not the caller's output's, and is reported as `internal`, naming the request's op.
#[inline(always)]
pub(crate) fn watched<W: Write>(
    input: &[u8],
    out: &mut W,
    answer: impl FnOnce(&mut Watched<'_, W>) -> Result<(), Error>,
) -> Result<(), Error> {
    let mut watched = Watched {
        out,
        refused: false,
    };
    match answer(&mut watched) {
        Err(err) if err.code() == "io" && !watched.refused => Err(internal(input)),
        answered => answered,
    }
}

#[cold]
#[inline(never)]
fn internal(input: &[u8]) -> Error {
    Error::internal(request::op_named(input))
}

/// A writer that remembers whether it refused a write.
pub(crate) struct Watched<'w, W: Write> {
    out: &'w mut W,
    refused: bool,
}

impl<W: Write> Write for Watched<'_, W> {
    #[inline(always)]
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let written = self.out.write(bytes);
        self.refused |= written.is_err();
        written
    }

    #[inline(always)]
    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        let written = self.out.write_all(bytes);
        self.refused |= written.is_err();
        written
    }

    #[inline(always)]
    fn flush(&mut self) -> std::io::Result<()> {
        let flushed = self.out.flush();
        self.refused |= flushed.is_err();
        flushed
    }
}

/// The error for an answer that `out` refused.
pub(crate) fn write_failed(err: std::io::Error) -> Error {
    Error::io("cannot write the response", &err)
}

/// `check_call`'s quick path, checked against the general one in debug builds.
#[inline]
fn quick_call(input: &[u8], out: &mut impl Write) -> Option<std::io::Result<()>> {
    let answer = quick_call::answer(input, out, &Compiled)?;
    #[cfg(debug_assertions)]
    quick_call::agrees_with_general(input, &Compiled, |call, shape, window| {
        verdict::answer(input, call, shape, window)
    });
    Some(answer)
}

#[cfg(test)]
mod tests {
    use std::io::{self, Write};

    /// A writer that fails with `kind` after `room` bytes.
    struct Failing {
        room: usize,
        kind: io::ErrorKind,
    }

    impl Write for Failing {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            if bytes.len() > self.room {
                return Err(self.kind.into());
            }
            self.room -= bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// A failure of the caller's writer is `io`; one of the crate's own writers, met where the
    /// caller's writer refused nothing, is `internal`, naming the op.
    #[test]
    fn the_callers_failure_is_io_and_the_crates_own_is_internal() {
        let request = br#"{"op":"tool_list"}"#;
        let mut broken = Failing {
            room: 10,
            kind: io::ErrorKind::BrokenPipe,
        };
        let err = super::respond(request, &mut broken).unwrap_err();
        assert_eq!(err.code(), "io");
        let err = super::watched(request, &mut Vec::new(), |out| {
            out.write_all(b"[")
                .and_then(|()| Err(io::ErrorKind::InvalidData.into()))
                .map_err(super::write_failed)
        })
        .unwrap_err();
        assert_eq!(err.code(), "internal");
        assert!(
            err.to_string().starts_with("the tool_list request"),
            "{err}"
        );
    }
}
