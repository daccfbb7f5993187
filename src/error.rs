//! The one error type: a stable code for machines, a one-line message for people.
//!
//! Every variant carries what its message needs, copied out of the input, so an `Error` owns
//! nothing on the heap and outlives the request it describes; the one exception is the name of
//! a tool (and why a shape cannot express it) of a catalog read at run time, which a stream may
//! replace while the error lives: that is copied. Errors are built through `#[cold]`
//! functions, off the hot path: line and column are counted only once something has gone wrong.

use crate::spelling;
use std::borrow::Cow;
use std::fmt;

/// Why a request was refused. [`Error::code`] is the stable part; the message may improve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: Kind,
    /// Byte offset into the request where the problem was seen, when there is one.
    at: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// Not RFC 8259 JSON. `what` says what went wrong; `found` is the byte there, if any.
    Malformed {
        what: &'static str,
        found: Option<u8>,
        line: usize,
        column: usize,
    },
    TooDeep,
    TooLarge,
    /// A turn with more calls than one request checks.
    TooManyCalls {
        most: usize,
    },
    /// A `call_delta` went over one of a stream's limits (`call_stream.rs`).
    StreamLimit {
        what: &'static str,
        most: usize,
    },
    TooManyStreams {
        most: usize,
    },
    NotAnObject {
        found: &'static str,
    },
    DuplicateField {
        field: &'static str,
    },
    UnknownField {
        name: Snippet,
        expected: &'static str,
    },
    MissingField {
        field: &'static str,
    },
    WrongType {
        field: &'static str,
        expected: &'static str,
        found: &'static str,
        /// What to do, after the message (`"; send ..."`), or nothing.
        advice: &'static str,
    },
    UnknownOp {
        value: Snippet,
        expected: &'static str,
    },
    UnknownTool {
        value: Snippet,
        closest: Cow<'static, str>,
    },
    UnknownFormat {
        value: Snippet,
        expected: &'static str,
    },
    Unsupported {
        format: &'static str,
    },
    /// A request the format has no way to say (a `tool_choice` MCP has none of, say).
    Refused {
        format: &'static str,
        reason: &'static str,
    },
    /// A tool the shape cannot express: a keyword the provider documents no equivalent for.
    NotExpressible {
        tool: Cow<'static, str>,
        format: &'static str,
        strict: bool,
        reason: Cow<'static, str>,
    },
    /// A shape the provider refuses for this catalog as a whole: too many tools, say.
    OverLimit {
        limit: &'static str,
        allowed: usize,
        found: usize,
        advice: &'static str,
    },
    Io {
        action: &'static str,
        kind: std::io::ErrorKind,
    },
    /// A streamed event that is not one of the named format's.
    WrongFormat {
        format: &'static str,
        looks: Option<&'static str>,
    },
    /// A fault inside the crate while answering a request that was understood: never the
    /// request's doing. `op` names the request.
    Internal {
        op: &'static str,
    },
}

/// Which error a request got: one variant per stable code of `docs/errors.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// `malformed_json`: not RFC 8259 JSON.
    MalformedJson,
    /// `too_deep`: nested deeper than [`MAX_DEPTH`].
    TooDeep,
    /// `too_large`: over a size or count limit.
    TooLarge,
    /// `too_many_streams`: a `call_delta` opening one stream too many.
    TooManyStreams,
    /// `not_an_object`: the request is not a JSON object.
    NotAnObject,
    /// `duplicate_field`: a field given twice.
    DuplicateField,
    /// `unknown_field`: a field the request does not have.
    UnknownField,
    /// `missing_field`: a field the request needs is absent.
    MissingField,
    /// `wrong_type`: a field's value has the wrong JSON type.
    WrongType,
    /// `unknown_op`: not an op.
    UnknownOp,
    /// `unknown_tool`: not a tool of the catalog.
    UnknownTool,
    /// `unknown_format`: not a format.
    UnknownFormat,
    /// `unsupported`: the format cannot say what is asked.
    Unsupported,
    /// `wrong_format`: a streamed event of another format.
    WrongFormat,
    /// `io`: reading or writing failed.
    Io,
    /// `internal`: a fault inside the crate.
    Internal,
}

impl ErrorCode {
    /// The stable code, as the command line and stream mode write it.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorCode::MalformedJson => "malformed_json",
            ErrorCode::TooDeep => "too_deep",
            ErrorCode::TooLarge => "too_large",
            ErrorCode::TooManyStreams => "too_many_streams",
            ErrorCode::NotAnObject => "not_an_object",
            ErrorCode::DuplicateField => "duplicate_field",
            ErrorCode::UnknownField => "unknown_field",
            ErrorCode::MissingField => "missing_field",
            ErrorCode::WrongType => "wrong_type",
            ErrorCode::UnknownOp => "unknown_op",
            ErrorCode::UnknownTool => "unknown_tool",
            ErrorCode::UnknownFormat => "unknown_format",
            ErrorCode::Unsupported => "unsupported",
            ErrorCode::WrongFormat => "wrong_format",
            ErrorCode::Io => "io",
            ErrorCode::Internal => "internal",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The largest request read, in bytes (64 KiB). A longer one is `too_large`.
pub const MAX_INPUT: usize = 64 * 1024;

/// The deepest nesting of arrays and objects accepted. Deeper is `too_deep`.
pub const MAX_DEPTH: usize = 64;

impl Error {
    /// The stable, machine-readable code, e.g. `"unknown_tool"`: [`ErrorCode::as_str`] of
    /// [`Error::kind`]. `docs/errors.md` lists them.
    pub fn code(&self) -> &'static str {
        self.kind().as_str()
    }

    /// Which error this is, for a caller that matches on it.
    pub fn kind(&self) -> ErrorCode {
        match self.kind {
            Kind::Malformed { .. } => ErrorCode::MalformedJson,
            Kind::TooDeep => ErrorCode::TooDeep,
            Kind::TooLarge | Kind::TooManyCalls { .. } | Kind::StreamLimit { .. } => {
                ErrorCode::TooLarge
            }
            Kind::TooManyStreams { .. } => ErrorCode::TooManyStreams,
            Kind::NotAnObject { .. } => ErrorCode::NotAnObject,
            Kind::DuplicateField { .. } => ErrorCode::DuplicateField,
            Kind::UnknownField { .. } => ErrorCode::UnknownField,
            Kind::MissingField { .. } => ErrorCode::MissingField,
            Kind::WrongType { .. } => ErrorCode::WrongType,
            Kind::UnknownOp { .. } => ErrorCode::UnknownOp,
            Kind::UnknownTool { .. } => ErrorCode::UnknownTool,
            Kind::UnknownFormat { .. } => ErrorCode::UnknownFormat,
            Kind::Unsupported { .. }
            | Kind::Refused { .. }
            | Kind::OverLimit { .. }
            | Kind::NotExpressible { .. } => ErrorCode::Unsupported,
            Kind::Io { .. } => ErrorCode::Io,
            Kind::WrongFormat { .. } => ErrorCode::WrongFormat,
            Kind::Internal { .. } => ErrorCode::Internal,
        }
    }

    /// Byte offset into the request where the problem was seen (`None` for `io`).
    pub fn offset(&self) -> Option<usize> {
        self.at
    }

    /// Whether the input was refused before its meaning was looked at: not JSON, too deep or
    /// too large. These win over every other error in the same request.
    pub(crate) fn is_syntax(&self) -> bool {
        matches!(
            self.kind,
            Kind::Malformed { .. } | Kind::TooDeep | Kind::TooLarge
        )
    }

    #[cold]
    pub(crate) fn malformed(input: &[u8], at: usize, what: &'static str) -> Error {
        let before = &input[..at.min(input.len())];
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let column = at - line_start + 1;
        let found = input.get(at).copied();
        Error::at(
            at,
            Kind::Malformed {
                what,
                found,
                line,
                column,
            },
        )
    }

    /// The same error for a document that starts `base` bytes into a larger one.
    #[cold]
    pub(crate) fn shifted(mut self, base: usize) -> Error {
        self.at = self.at.map(|at| at + base);
        self
    }

    /// Every constructor below comes through here, off the hot path.
    #[cold]
    fn at(at: usize, kind: Kind) -> Error {
        Error { kind, at: Some(at) }
    }

    pub(crate) fn too_deep(at: usize) -> Error {
        Error::at(at, Kind::TooDeep)
    }

    pub(crate) fn too_large() -> Error {
        Error::at(MAX_INPUT, Kind::TooLarge)
    }

    /// A turn holds more than `most` calls; the first over is at `at`.
    #[cold]
    pub(crate) fn too_many_calls(at: usize, most: usize) -> Error {
        Error::at(at, Kind::TooManyCalls { most })
    }

    /// A stream's call went over `most` of `what` (calls open, bytes of arguments).
    #[cold]
    pub(crate) fn stream_limit(at: usize, what: &'static str, most: usize) -> Error {
        Error::at(at, Kind::StreamLimit { what, most })
    }

    /// A `call_delta` would open one stream more than `most`.
    #[cold]
    pub(crate) fn too_many_streams(at: usize, most: usize) -> Error {
        Error::at(at, Kind::TooManyStreams { most })
    }

    pub(crate) fn not_an_object(at: usize, found: &'static str) -> Error {
        Error::at(at, Kind::NotAnObject { found })
    }

    pub(crate) fn duplicate_field(at: usize, field: &'static str) -> Error {
        Error::at(at, Kind::DuplicateField { field })
    }

    pub(crate) fn unknown_field(at: usize, literal: &[u8], expected: &'static str) -> Error {
        let name = Snippet::of(literal);
        Error::at(at, Kind::UnknownField { name, expected })
    }

    pub(crate) fn missing_field(at: usize, field: &'static str) -> Error {
        Error::at(at, Kind::MissingField { field })
    }

    pub(crate) fn wrong_type(
        at: usize,
        field: &'static str,
        expected: &'static str,
        found: &'static str,
    ) -> Error {
        Error::wrong_type_advised(at, field, expected, (found, ""))
    }

    /// [`Error::wrong_type`], and what to do about it.
    #[cold]
    pub(crate) fn wrong_type_advised(
        at: usize,
        field: &'static str,
        expected: &'static str,
        (found, advice): (&'static str, &'static str),
    ) -> Error {
        Error::at(
            at,
            Kind::WrongType {
                field,
                expected,
                found,
                advice,
            },
        )
    }

    /// `expected` is the message's advice: the closest op, or the ops there are.
    pub(crate) fn unknown_op(at: usize, literal: &[u8], expected: &'static str) -> Error {
        let value = Snippet::of(literal);
        Error::at(at, Kind::UnknownOp { value, expected })
    }

    /// `closest` is the catalog's name nearest to what was asked for: the message names it
    /// instead of every tool, so it stays one short line however large the catalog.
    /// `closest` is the compiled-in catalog's own name, or a copy of a run-time catalog's,
    /// which a stream may replace while the error lives.
    pub(crate) fn unknown_tool(at: usize, literal: &[u8], closest: Cow<'static, str>) -> Error {
        let value = Snippet::of(literal);
        Error::at(at, Kind::UnknownTool { value, closest })
    }

    /// `expected` lists the formats, for the message.
    pub(crate) fn unknown_format(at: usize, literal: &[u8], expected: &'static str) -> Error {
        let value = Snippet::of(literal);
        Error::at(at, Kind::UnknownFormat { value, expected })
    }

    /// The request is well formed, but the shape it asks for breaks one of the provider's limits
    /// for this catalog: `limit` names the limit, `advice` says what to ask for instead.
    pub(crate) fn over_limit(
        at: usize,
        limit: &'static str,
        allowed: usize,
        found: usize,
        advice: &'static str,
    ) -> Error {
        let kind = Kind::OverLimit {
            limit,
            allowed,
            found,
            advice,
        };
        Error::at(at, kind)
    }

    pub(crate) fn unsupported(at: usize, format: &'static str) -> Error {
        Error::at(at, Kind::Unsupported { format })
    }

    /// `format` has no way to say what the request at `at` asks, for `reason`.
    #[cold]
    pub(crate) fn refused(at: usize, format: &'static str, reason: &'static str) -> Error {
        Error::at(at, Kind::Refused { format, reason })
    }

    /// `tool` cannot be declared in `format` (strict or not), for `reason`.
    #[cold]
    /// `tool` and `reason`, as `closest` in [`Error::unknown_tool`].
    pub(crate) fn not_expressible(
        tool: Cow<'static, str>,
        format: &'static str,
        strict: bool,
        reason: Cow<'static, str>,
    ) -> Error {
        Error::at(
            0,
            Kind::NotExpressible {
                tool,
                format,
                strict,
                reason,
            },
        )
    }

    /// The event at `at` is not one of `format`'s; `looks` is the format it looks like.
    #[cold]
    pub(crate) fn wrong_format(
        at: usize,
        format: &'static str,
        looks: Option<&'static str>,
    ) -> Error {
        Error::at(at, Kind::WrongFormat { format, looks })
    }

    /// A fault of the crate's own while answering a `op` request: its answer's writer failed
    /// where the request was not at fault and the output took every byte. Tests fail on it.
    #[cold]
    pub(crate) fn internal(op: &'static str) -> Error {
        Error {
            kind: Kind::Internal { op },
            at: None,
        }
    }

    /// A failed read or write. `action` says which, e.g. `"cannot write standard output"`.
    #[cold]
    pub fn io(action: &'static str, err: &std::io::Error) -> Error {
        let kind = Kind::Io {
            action,
            kind: err.kind(),
        };
        Error { kind, at: None }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = self.at.unwrap_or(0);
        match &self.kind {
            Kind::Malformed {
                what,
                found,
                line,
                column,
            } => {
                f.write_str(what)?;
                match found {
                    Some(b @ b' '..=b'~') => write!(f, ", found '{}'", *b as char)?,
                    Some(b) => write!(f, ", found byte 0x{b:02x}")?,
                    None => f.write_str(", found end of input")?,
                }
                write!(f, " at byte {at} (line {line}, column {column})")
            }
            Kind::TooDeep => write!(
                f,
                "nesting deeper than {MAX_DEPTH} arrays and objects at byte {at}"
            ),
            Kind::TooLarge => write!(
                f,
                "input longer than {MAX_INPUT} bytes; reading stopped at byte {at}"
            ),
            Kind::StreamLimit { what, most } => write!(
                f,
                "a streamed call over the limit of {most} {what} (byte {at}); the call is \
                 dropped, and the other calls and streams go on"
            ),
            Kind::TooManyStreams { most } => write!(
                f,
                "a stream more than the {most} open at once (byte {at}); finish or drop one \
                 first (a stream ends with its provider's end event)"
            ),
            Kind::TooManyCalls { most } => write!(
                f,
                "a turn with more than {most} calls (call {} at byte {at}); check its calls in \
                 parts, or one at a time with check_call",
                most + 1
            ),
            Kind::NotAnObject { found } => write!(
                f,
                "the request must be a JSON object, found {found} at byte {at}"
            ),
            Kind::DuplicateField { field } => {
                write!(f, "field \"{field}\" appears again at byte {at}")
            }
            Kind::UnknownField { name, expected } => write!(
                f,
                "{name} at byte {at} is not a field of this request; {}expected {expected}",
                DidYouMean(name, expected)
            ),
            Kind::MissingField { field } => write!(
                f,
                "missing field \"{field}\" in the request object ending at byte {at}"
            ),
            Kind::WrongType {
                field,
                expected,
                found,
                advice,
            } => write!(
                f,
                "field \"{field}\" must be {expected}, found {found} at byte {at}{advice}"
            ),
            Kind::UnknownOp { value, expected } => {
                write!(f, "{value} at byte {at} is not an op; {expected}")
            }
            Kind::UnknownTool { value, closest } => write!(
                f,
                "{value} at byte {at} is not a tool; did you mean \"{closest}\"? \
                 ({{\"op\":\"tool_list\"}} lists them all)"
            ),
            Kind::UnknownFormat { value, expected } => write!(
                f,
                "{value} at byte {at} is not a format; {}expected one of {expected}",
                DidYouMean(value, expected)
            ),
            Kind::Unsupported { format } => write!(
                f,
                "format {format} has no strict mode (\"strict\":true at byte {at}); \
                 use openai, openai_responses or anthropic, or \"strict\":false"
            ),
            Kind::Refused { format, reason } => {
                write!(f, "format {format} cannot say this (byte {at}): {reason}")
            }
            Kind::NotExpressible {
                tool,
                format,
                strict,
                reason,
            } => write!(
                f,
                "tool \"{tool}\" cannot be declared in format {format}{}: {reason}; the \
                 catalog's schema is still what check_call enforces",
                if *strict { " with \"strict\":true" } else { "" }
            ),
            Kind::OverLimit {
                limit,
                allowed,
                found,
                advice,
            } => write!(
                f,
                "{limit}: at most {allowed}, and this request would carry {found}; {advice}"
            ),
            Kind::Io { action, kind } => write!(f, "{action}: {kind}"),
            Kind::WrongFormat {
                format,
                looks: Some(looks),
            } => write!(
                f,
                "this event is not one of {format}'s; it looks like one of {looks}'s: send \
                 \"format\":\"{looks}\" with it (the format defaults to openai)"
            ),
            Kind::WrongFormat {
                format,
                looks: None,
            } => write!(
                f,
                "this event is not one of {format}'s, nor of another format's; give \
                 call_delta the event as the provider sent it, parsed from its SSE data: line"
            ),
            Kind::Internal { op } => write!(
                f,
                "the {op} request could not be answered: a fault inside tool-schema, not in the \
                 request; please report it with the request"
            ),
        }
    }
}

impl std::error::Error for Error {}

/// The longest reason a shape cannot express a tool, in bytes: `wire.rs` cuts a reason to it
/// when it renders (a `$ref` it names may be long), so that an error message stays short.
pub const MAX_REASON: usize = 320;

/// A string literal as it was written in the request, quotes and escapes included, cut to fit.
///
/// Held inline so that building and printing an error never touches the heap.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Snippet {
    bytes: [u8; Snippet::CAP],
    len: u8,
    cut: bool,
}

impl Snippet {
    const CAP: usize = 48;

    fn of(literal: &[u8]) -> Snippet {
        let mut len = literal.len().min(Snippet::CAP);
        // Never split a UTF-8 sequence: back up to the start of a character.
        while len < literal.len() && len > 0 && literal[len] & 0xC0 == 0x80 {
            len -= 1;
        }
        let mut bytes = [0; Snippet::CAP];
        bytes[..len].copy_from_slice(&literal[..len]);
        Snippet {
            bytes,
            len: len as u8,
            cut: len < literal.len(),
        }
    }
}

impl fmt::Display for Snippet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = &self.bytes[..usize::from(self.len)];
        // Literals come from validated JSON, so they are UTF-8; the fallback is only for safety.
        f.write_str(std::str::from_utf8(text).unwrap_or("<string>"))?;
        if self.cut {
            f.write_str("...")?;
        }
        Ok(())
    }
}

/// `did you mean "W"? ` when one word of `expected` (a list such as `op, tool, format`) is
/// close to the literal the request gave; nothing otherwise.
struct DidYouMean<'a>(&'a Snippet, &'static str);

impl fmt::Display for DidYouMean<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let DidYouMean(literal, expected) = *self;
        let text = std::str::from_utf8(&literal.bytes[..usize::from(literal.len)]).unwrap_or("");
        let inner = text.strip_prefix('"').and_then(|t| t.strip_suffix('"'));
        let words = expected.split(", ");
        match inner.and_then(|asked| spelling::closest_word(asked, words)) {
            Some(meant) => write!(f, "did you mean \"{meant}\"? "),
            None => Ok(()),
        }
    }
}

impl fmt::Debug for Snippet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
