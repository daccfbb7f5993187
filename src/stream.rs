//! Stream mode: newline-delimited requests in, one line out per request, for callers that keep
//! one process open (a coprocess) instead of paying for a spawn per request.
//!
//! Both buffers are fixed arrays, so a request costs no allocation. Output is flushed just
//! before a read that may block, that is, whenever every request already received has been
//! answered: an interactive caller gets each answer at once, and a piped batch is written in
//! blocks of up to [`OUT_CAP`] bytes.

use crate::call_stream::{CallStreams, CALL_DELTA_START};
use crate::error::{Error, MAX_INPUT};
use crate::respond::respond;
use crate::runtime::{BadTool, RuntimeCatalog};
use crate::sink::escaped;
use crate::tokenizer::{decode, string_eq, Kind, Tokenizer};
use crate::writer::MAX_OUTPUT;
use std::fmt::{self, Write as _};
use std::io::{self, Read, Write};
use std::ops::Range;
use std::path::Path;

/// Room for one whole line at the limit, plus as much again so that reads stay large.
const IN_CAP: usize = 2 * (MAX_INPUT + 1);
/// The longest error line: a code and a message of a few hundred bytes, escaped.
const MAX_ERROR_LINE: usize = 2 * 1024;
/// The largest block written at once: 64 KiB, or room for two of the catalog's longest answers
/// when that is more. Derived from the catalog when the crate is compiled.
const OUT_CAP: usize = if 2 * ROOM > 64 * 1024 {
    2 * ROOM
} else {
    64 * 1024
};
/// Room that one line's answer needs: a response or an error line.
const ROOM: usize = if MAX_OUTPUT > MAX_ERROR_LINE {
    MAX_OUTPUT
} else {
    MAX_ERROR_LINE
};

/// Answers every line of `input` on `output`, in order, until end of input.
///
/// Each non-blank line is one request and gets exactly one line back: the response, or
/// `{"error":{"code":C,"message":M}}` with the one-shot mode's codes. A line longer than
/// [`MAX_INPUT`] bytes gets `too_large`, and what is left of it is skipped, unread into memory.
/// Lines holding only spaces, tabs or carriage returns (within the limit) are skipped. The last line needs no
/// newline.
///
/// A request may carry an `"id"`, a string or a number: its line is answered
/// `{"answer":A,"id":ID}`, or the error line with `"id":ID` beside `"error"`.
///
/// Only a failure to read or write ends the stream early; it is returned as an `io` error.
pub fn serve(input: &mut impl Read, output: &mut impl Write) -> Result<(), Error> {
    serve_catalog(input, output, None)
}

/// [`serve`], over `catalog` when one is given (read at run time, as `--catalog` does), else the
/// compiled-in one; and one more request, stream mode's own, for an MCP client's
/// `notifications/tools/list_changed`: `{"op":"use_catalog","path":P}` reads the catalog file
/// at `P` as `--catalog` does (a tool that breaks a rule left out, `"strict":true` for all or
/// nothing) and answers `{"ok":true,"refused":[...],"tools":N}`, and every later line is
/// answered over it. A file
/// that is refused gets the error line `bad_catalog`, with the reader's line, and the catalog in
/// use stays. Lines are answered one after the other, so no answer mixes two catalogs.
pub fn serve_catalog(
    input: &mut impl Read,
    output: &mut impl Write,
    catalog: Option<RuntimeCatalog>,
) -> Result<(), Error> {
    serve_lines(input, &mut Output::new(output, catalog))
}

/// [`serve_catalog`] when the catalog file it was to start with was refused (`refusal`, the
/// reader's line): the stream still answers every line, so a caller matching answers to
/// requests stays in step, and stays fail-closed. Until a `use_catalog` succeeds, every other
/// line is answered `bad_catalog` with that refusal, never over the compiled-in catalog, which
/// is not the one asked for.
pub fn serve_refused_catalog(
    input: &mut impl Read,
    output: &mut impl Write,
    refusal: &str,
) -> Result<(), Error> {
    let mut out = Output::new(output, None);
    out.refused = Some(refusal.to_string());
    serve_lines(input, &mut out)
}

fn serve_lines<W: Write>(input: &mut impl Read, out: &mut Output<'_, W>) -> Result<(), Error> {
    let mut buf = [0; IN_CAP];
    // buf[start..end] is input not yet answered; it never holds a newline between reads.
    let (mut start, mut end) = (0, 0);
    // Inside a line already answered as too_large: drop input up to its newline.
    let mut skipping = false;
    loop {
        while let Some(newline) = buf[start..end].iter().position(|&b| b == b'\n') {
            if !skipping {
                out.answer(&mut buf[start..start + newline])?;
            }
            skipping = false;
            start += newline + 1;
        }
        if skipping {
            start = end;
        } else if end - start > MAX_INPUT {
            out.answer(&mut buf[start..end])?; // too_large, whatever follows
            start = end;
            skipping = true;
        }
        buf.copy_within(start..end, 0);
        (start, end) = (0, end - start);

        out.flush()?; // everything received is answered; the next read may block
        let read = loop {
            match input.read(&mut buf[end..]) {
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                result => {
                    break result.map_err(|err| Error::io("cannot read standard input", &err))?
                }
            }
        };
        if read == 0 {
            if end > 0 && !skipping {
                out.answer(&mut buf[..end])?;
            }
            return out.flush();
        }
        end += read;
    }
}

/// The output block being filled. It takes an answer in as many writes as its writer makes,
/// and passes whole answers on, so an answer that fails midway can be taken back: the block
/// keeps the answer being written from its start, and an answer that outgrows the block is
/// gathered in `spill` (kept, so it grows once to the longest answer) until it is whole.
struct Output<'a, W: Write> {
    /// The catalog read at run time, if one is in use.
    catalog: Option<RuntimeCatalog>,
    /// Why the catalog file the stream started with was refused, until a `use_catalog`
    /// succeeds: no catalog is in use meanwhile.
    refused: Option<String>,
    /// The `"id"` of the line being answered, as the caller wrote it (`id[..id_len]`), to be
    /// echoed beside its answer or error; `id_len` 0 when it has none.
    id: [u8; MAX_ID],
    id_len: usize,
    /// The line's answer is an error line this stream wrote itself (`use_catalog`'s), whole.
    wrote_error: bool,
    /// The calls being streamed (`call_delta`).
    streams: CallStreams,
    sink: &'a mut W,
    buf: [u8; OUT_CAP],
    len: usize,
    /// Where the answer being written starts in `buf`: before it are whole answers.
    answer_at: usize,
    /// An answer too long for the block, while it is written; empty otherwise.
    spill: Vec<u8>,
    spilling: bool,
    /// The sink refused a write: our own output failed, which ends the stream.
    sink_failed: bool,
}

impl<'a, W: Write> Output<'a, W> {
    fn new(sink: &'a mut W, catalog: Option<RuntimeCatalog>) -> Output<'a, W> {
        Output {
            catalog,
            refused: None,
            id: [0; MAX_ID],
            id_len: 0,
            wrote_error: false,
            streams: CallStreams::default(),
            sink,
            buf: [0; OUT_CAP],
            len: 0,
            answer_at: 0,
            spill: Vec::new(),
            spilling: false,
            sink_failed: false,
        }
    }

    /// Appends the answer to one line, unless it is blank. Being over the limit comes first:
    /// a long line of spaces is `too_large`, not blank. Only a failure of the sink is an
    /// error: whatever else goes wrong, the line gets its error line and the stream goes on.
    fn answer(&mut self, line: &mut [u8]) -> Result<(), Error> {
        let blank = line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r'));
        if blank && line.len() <= MAX_INPUT {
            return Ok(());
        }
        if OUT_CAP - self.len < ROOM {
            self.flush()?;
        }
        self.answer_at = self.len;
        (self.id_len, self.wrote_error) = (0, false);
        let mut answered = self.respond(line);
        // No request reader knows `"id"`, so a line with one is refused for it, before anything
        // is done (a request is read whole before it acts); then it is answered again without
        // it, wrapped. A line without one pays nothing for this.
        if answered.is_err() || self.wrote_error {
            answered = self.answer_with_id(line).unwrap_or(answered);
        }
        self.settle(answered)
    }

    /// The answer to a line with an `"id"` member at the top of an object, as the line with
    /// that member (and a comma beside it) blanked with spaces, so every byte offset in a
    /// message stays true: `{"answer":A,"id":ID}`, or the error line with `"id":ID` beside
    /// `"error"`. `None` for a line without one, whose first answer stands.
    #[cold]
    fn answer_with_id(&mut self, line: &mut [u8]) -> Option<Result<(), Error>> {
        if !line.windows(4).any(|window| window == b"\"id\"") {
            return None;
        }
        let (member, value) = match id_member(line) {
            Ok(found) => found?,
            Err(err) => return Some(Err(err)),
        };
        self.take_back();
        self.wrote_error = false;
        self.id[..value.len()].copy_from_slice(&line[value.clone()]);
        self.id_len = value.len();
        line[member].fill(b' ');
        let answer = self
            .write_all(b"{\"answer\":")
            .map_err(|err| Error::io("cannot write standard output", &err))
            .and_then(|()| self.respond(line))
            .and_then(|()| match self.wrote_error {
                true => Ok(()),
                false => self.close_answer(),
            });
        Some(answer)
    }

    /// Ends a successful answer written after `{"answer":`: its newline becomes `,"id":ID}`
    /// and the newline.
    fn close_answer(&mut self) -> Result<(), Error> {
        let newline = if self.spilling {
            self.spill.pop()
        } else {
            self.len -= 1;
            Some(self.buf[self.len])
        };
        if newline != Some(b'\n') {
            return Err(Error::internal("an answer that does not end its line"));
        }
        self.write_id_and_close()
    }

    /// `,"id":ID}` and the newline, ending an answer or an error line.
    fn write_id_and_close(&mut self) -> Result<(), Error> {
        let fail = |err: io::Error| Error::io("cannot write standard output", &err);
        let id = self.id;
        self.write_all(b",\"id\":").map_err(fail)?;
        self.write_all(&id[..self.id_len]).map_err(fail)?;
        self.write_all(b"}\n").map_err(fail)
    }

    /// The answer to a line that is not blank, written into `self`; `Err` is an error not yet
    /// written, the line's own or a failed write.
    fn respond(&mut self, line: &[u8]) -> Result<(), Error> {
        // A call_delta goes to the streams; any other line to `respond`, as before they were
        // kept, so that other lines pay nothing for them.
        if let Some(refusal) = &self.refused {
            if let Some(path) = use_catalog(line) {
                return self.use_catalog(path);
            }
            let message = format!(
                "no catalog is in use, since the --catalog file was refused ({refusal}); send \
                 {{\"op\":\"use_catalog\",\"path\":P}} with a catalog file"
            );
            return self.write_error("bad_catalog", &message);
        }
        let call_delta = line.starts_with(CALL_DELTA_START);
        let answer = match (call_delta, self.catalog.take()) {
            (true, catalog) => {
                self.catalog = catalog;
                self.call_delta(line)
            }
            (false, Some(catalog)) => {
                let answer = catalog.respond(line, self);
                self.catalog = Some(catalog);
                answer
            }
            (false, None) => respond(line, self),
        };
        let Err(err) = answer else {
            return Ok(());
        };
        // `use_catalog` is an op only here, and a call_delta may name its op after another
        // field: both are looked for once the request reader has refused the line for an op
        // or a field it does not know (`path`, `stream`), so other lines pay nothing.
        if !call_delta && matches!(err.code(), "unknown_op" | "unknown_field") {
            if let Some(path) = use_catalog(line) {
                return self.use_catalog(path);
            }
            return self.call_delta(line);
        }
        Err(err)
    }

    /// Ends an answer: passes on a whole answer that outgrew the block, or takes back whatever
    /// a failed answer wrote and writes its error line instead, `internal` included (a fault of
    /// the crate's own, which `respond` tells from a failure of the sink): only the sink's
    /// failure ends the stream.
    fn settle(&mut self, answered: Result<(), Error>) -> Result<(), Error> {
        if self.sink_failed {
            return Err(answered.err().unwrap_or_else(|| {
                Error::io("cannot write standard output", &io::ErrorKind::Other.into())
            }));
        }
        let spilled = std::mem::replace(&mut self.spilling, false);
        let err = match answered {
            Ok(()) if spilled => {
                let result = self.sink.write_all(&self.spill);
                self.spill.clear();
                return result.map_err(|err| {
                    self.sink_failed = true;
                    Error::io("cannot write standard output", &err)
                });
            }
            Ok(()) => return Ok(()),
            Err(err) => err,
        };
        self.take_back();
        self.error_line(err)
    }

    /// Takes back what the answer being written has written so far (an answer that spilled
    /// has moved to the block's start, so `answer_at` is 0 then).
    fn take_back(&mut self) {
        self.spill.clear();
        self.spilling = false;
        self.len = self.answer_at;
    }

    /// Answers a `call_delta` (or, for a line that is not one, `respond`'s error) through the
    /// streams, which are taken out while the answer is written into `self`.
    fn call_delta(&mut self, line: &[u8]) -> Result<(), Error> {
        let mut streams = std::mem::take(&mut self.streams);
        let answer = match self.catalog.take() {
            Some(catalog) => {
                let answer = streams.respond_over(&catalog, line, self);
                self.catalog = Some(catalog);
                answer
            }
            None => streams.respond(line, self),
        };
        self.streams = streams;
        answer
    }

    /// Writes the error line for `err`.
    fn error_line(&mut self, err: Error) -> Result<(), Error> {
        // The error line is short (the test suite checks it fits).
        self.write_error(err.code(), &err)
    }

    /// Answers `use_catalog`: the new catalog and the tools it left out, or the reason it was
    /// refused.
    fn use_catalog(&mut self, path: Result<(String, BadTool), Error>) -> Result<(), Error> {
        let fail = |err: io::Error| Error::io("cannot write standard output", &err);
        let load = |(path, bad_tool): (String, BadTool)| {
            let shown = Path::new(&path).display().to_string();
            RuntimeCatalog::load_path(path.as_ref(), bad_tool)
                .map_err(|err| format!("{shown}: {err}"))
        };
        let refusal = match path.map(load) {
            Ok(Ok(catalog)) => {
                self.write_all(b"{\"ok\":true,\"refused\":[")
                    .map_err(fail)?;
                for (i, refused) in catalog.refused().iter().enumerate() {
                    let comma = if i > 0 { "," } else { "" };
                    write!(self, "{comma}{{\"code\":\"bad_catalog\",\"message\":\"")
                        .map_err(fail)?;
                    escaped(self, |text| text.write_str(&refused.rule)).map_err(fail)?;
                    self.write_all(b"\",\"pointer\":\"").map_err(fail)?;
                    escaped(self, |text| text.write_str(&refused.pointer)).map_err(fail)?;
                    self.write_all(b"\",\"tool\":").map_err(fail)?;
                    // A tool is named by its name, already a JSON string; one with no usable
                    // name by its place in the file.
                    match refused.tool.as_deref() {
                        Some(name) if name.starts_with('"') => self.write_all(name.as_bytes()),
                        Some(place) => write!(self, "\"{place}\""),
                        None => self.write_all(b"null"),
                    }
                    .map_err(fail)?;
                    self.write_all(b"}").map_err(fail)?;
                }
                let tools = catalog.len();
                self.catalog = Some(catalog);
                self.refused = None;
                return writeln!(self, "],\"tools\":{tools}}}").map_err(fail);
            }
            Ok(Err(line)) => ("bad_catalog", line),
            Err(err) => (err.code(), err.to_string()),
        };
        self.write_error(refusal.0, &refusal.1)
    }

    /// The error line `{"error":{"code":C,"message":M}}` (with `"id":ID` after `error` when the
    /// line had one), the one writer of every error line: it replaces whatever the answer had
    /// written.
    fn write_error(&mut self, code: &str, message: &dyn fmt::Display) -> Result<(), Error> {
        let fail = |err: io::Error| Error::io("cannot write standard output", &err);
        self.take_back();
        self.wrote_error = true;
        self.write_all(b"{\"error\":{\"code\":\"").map_err(fail)?;
        self.write_all(code.as_bytes()).map_err(fail)?;
        self.write_all(b"\",\"message\":\"").map_err(fail)?;
        escaped(self, |text| write!(text, "{message}")).map_err(fail)?;
        if self.id_len == 0 {
            return self.write_all(b"\"}}\n").map_err(fail);
        }
        self.write_all(b"\"}").map_err(fail)?;
        self.write_id_and_close()
    }

    /// Passes every whole answer on, and the sink's own buffer with it.
    fn flush(&mut self) -> Result<(), Error> {
        let fail = |err: io::Error| Error::io("cannot write standard output", &err);
        let result = self.sink.write_all(&self.buf[..self.len]);
        self.len = 0;
        self.answer_at = 0;
        result.and_then(|()| self.sink.flush()).map_err(|err| {
            self.sink_failed = true;
            fail(err)
        })
    }
}

impl<W: Write> Write for Output<'_, W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if self.spilling {
            self.spill.extend_from_slice(bytes);
            return Ok(bytes.len());
        }
        if OUT_CAP - self.len < bytes.len() {
            // The whole answers go on; the one being written moves to the block's start.
            if let Err(err) = self.sink.write_all(&self.buf[..self.answer_at]) {
                self.sink_failed = true;
                return Err(err);
            }
            self.buf.copy_within(self.answer_at..self.len, 0);
            self.len -= self.answer_at;
            self.answer_at = 0;
            if OUT_CAP - self.len < bytes.len() {
                // This answer alone outgrows the block: gathered aside until it is whole.
                self.spill.extend_from_slice(&self.buf[..self.len]);
                self.spill.extend_from_slice(bytes);
                self.len = 0;
                self.spilling = true;
                return Ok(bytes.len());
            }
        }
        self.buf[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
        Ok(bytes.len())
    }

    /// Only [`Output::flush`] passes the block on: the stream decides when.
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The longest `"id"` a line may have, in bytes as written.
const MAX_ID: usize = 128;

/// An `"id"` member's bytes in its line (key, value, and a comma), and its value's.
type IdMember = (Range<usize>, Range<usize>);

/// Where a line's top-level `"id"` member is (from its key to its value, with the comma that
/// separates it from a neighbour) and where its value is; `None` when the line is not an object
/// with one, or is not JSON (the request reader then says why). An id is a string or a number,
/// as JSON-RPC's is, of at most [`MAX_ID`] bytes.
fn id_member(line: &[u8]) -> Result<Option<IdMember>, Error> {
    let mut tokens = Tokenizer::new(line);
    let Ok(first) = tokens.expect_token() else {
        return Ok(None);
    };
    if first.kind != Kind::ObjectStart {
        return Ok(None);
    }
    let mut found = None;
    loop {
        let Ok(key) = tokens.expect_token() else {
            return Ok(None);
        };
        if key.kind == Kind::ObjectEnd {
            break;
        }
        let Ok(value) = tokens.expect_token() else {
            return Ok(None);
        };
        let Ok(end) = tokens.skip(value) else {
            return Ok(None);
        };
        if !string_eq(key.raw, "id") {
            continue;
        }
        if found.is_some() {
            return Err(Error::duplicate_field(key.at, "id"));
        }
        if !matches!(value.kind, Kind::String | Kind::Number) || end - value.at > MAX_ID {
            return Err(Error::wrong_type(
                value.at,
                "id",
                "a string or a number of at most 128 bytes",
                value.kind.described(),
            ));
        }
        found = Some((key.at, value.at..end));
    }
    if tokens.drain().is_err() {
        return Ok(None);
    }
    let Some((key_at, value)) = found else {
        return Ok(None);
    };
    // The comma after the member, or else the one before it.
    let is_space = |b: &u8| matches!(b, b' ' | b'\t' | b'\r' | b'\n');
    let after = value.end + line[value.end..].iter().take_while(|b| is_space(b)).count();
    let member = if line.get(after) == Some(&b',') {
        key_at..after + 1
    } else {
        let before = key_at
            - line[..key_at]
                .iter()
                .rev()
                .take_while(|b| is_space(b))
                .count();
        match line[..before].last() {
            Some(b',') => before - 1..value.end,
            _ => key_at..value.end,
        }
    };
    Ok(Some((member, value)))
}

/// The path of a `{"op":"use_catalog","path":P}` request and what a tool that breaks a rule
/// does (`"strict":true` refuses the file), or what is wrong with one; `None` when the line is
/// not one (any other request, or not JSON), for `respond` to answer.
fn use_catalog(line: &[u8]) -> Option<Result<(String, BadTool), Error>> {
    let mut tokens = Tokenizer::new(line);
    if tokens.expect_token().ok()?.kind != Kind::ObjectStart {
        return None;
    }
    let (mut op, mut path, mut strict, mut other) = (None, None, None, None);
    let close = loop {
        let key = tokens.expect_token().ok()?;
        if key.kind == Kind::ObjectEnd {
            break key;
        }
        let value = tokens.expect_token().ok()?;
        tokens.skip(value).ok()?;
        if string_eq(key.raw, "op") && op.is_none() {
            op = Some(value);
        } else if string_eq(key.raw, "path") && path.is_none() {
            path = Some((key, value));
        } else if string_eq(key.raw, "strict") && strict.is_none() {
            strict = Some(value);
        } else if other.is_none() {
            other = Some(key);
        }
    };
    tokens.drain().ok()?;
    if !op.is_some_and(|op| op.kind == Kind::String && string_eq(op.raw, "use_catalog")) {
        return None;
    }
    if let Some(key) = other {
        return Some(Err(Error::unknown_field(
            key.at,
            key.raw,
            "op, path, strict",
        )));
    }
    let Some((_, value)) = path else {
        return Some(Err(Error::missing_field(close.at, "path")));
    };
    if value.kind != Kind::String {
        return Some(Err(Error::wrong_type(
            value.at,
            "path",
            Kind::String.described(),
            value.kind.described(),
        )));
    }
    let bad_tool = match strict.map(|value| value.kind) {
        None | Some(Kind::False) => BadTool::IsLeftOut,
        Some(Kind::True) => BadTool::RefusesTheFile,
        Some(other) => {
            let at = strict.map_or(0, |value| value.at);
            let found = other.described();
            return Some(Err(Error::wrong_type(at, "strict", "a boolean", found)));
        }
    };
    let mut text = String::new();
    decode(value.raw, |c| text.push(c));
    Some(Ok((text, bad_tool)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An answer whose writer fails though the sink took every byte (a fault of the crate's
    /// own) is taken back, in the block or spilled, and its line becomes an `internal` error
    /// that names the op; the answers before and after it stand.
    #[test]
    fn a_failed_answer_is_taken_back_and_the_stream_goes_on() {
        for length in [10, OUT_CAP + 10] {
            let mut sink = Vec::new();
            let mut out = Output::new(&mut sink, None);
            out.answer(&mut br#"{"op":"tool_list","format":"mcp"}"#.to_owned())
                .unwrap();
            out.answer_at = out.len;
            let half = vec![b'x'; length];
            out.write_all(&half).unwrap();
            out.settle(Err(Error::internal("check_call"))).unwrap();
            out.answer(&mut br#"{"op":"tool_list","format":"mcp"}"#.to_owned())
                .unwrap();
            out.flush().unwrap();
            drop(out);
            let mut list = Vec::new();
            respond(br#"{"op":"tool_list","format":"mcp"}"#, &mut list).unwrap();
            let text = String::from_utf8(sink).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines.len(), 3, "{length}");
            assert_eq!(format!("{}\n", lines[0]).as_bytes(), list);
            assert_eq!(format!("{}\n", lines[2]).as_bytes(), list);
            assert!(lines[1].starts_with(
                r#"{"error":{"code":"internal","message":"the check_call request could not be answered"#
            ), "{}", lines[1]);
        }
    }
}
