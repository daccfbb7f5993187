#![forbid(unsafe_code)]
//! The `tool-schema` command: one request on standard input, one declaration on standard output.
//!
//! A thin shell over [`tool_schema::respond`]: it reads at most [`MAX_INPUT`] + 1 bytes into a
//! stack buffer (a small one first, so that an ordinary request touches little memory) and
//! writes the answer with a single `write`, straight from the static bytes where it can. Errors go to
//! standard error as one line, `tool-schema: <code>: <message>`, with exit status 1; a bad
//! command line is exit status 2.

use std::fmt::Write as _;
use std::io::{self, Read, Write};
use std::process::ExitCode;
use tool_schema::{respond, serve, Error, MAX_INPUT, MAX_OUTPUT};

const USAGE: &str = "\
usage: tool-schema [--stream | --help | --version] < request.json

Reads one JSON request on standard input and writes one response on standard output: compact
JSON, object keys sorted at every level, non-ASCII as raw UTF-8, one trailing newline.

requests:
  {\"op\":\"tool_schema\",\"tool\":TOOL}   one declaration; TOOL is a tool of the catalog
                                        this binary was built with
  {\"op\":\"tool_list\"}                  every declaration, as one JSON array
  {\"op\":\"check_call\",\"call\":CALL}     the verdict on a tool call a model sent back, as
                                        the provider returned it: the arguments in
                                        canonical form, or the problems and the reply
                                        for the model (exit 0 either way)
  optional in all three:
    \"format\":F    openai (default), openai_responses, anthropic, gemini or mcp
    \"strict\":B    false (default) or true; true needs openai, openai_responses or anthropic

--stream: one request per line, one response line per request, until end of input; an error
  is the line {\"error\":{\"code\":C,\"message\":M}} and the stream goes on. Blank lines are
  skipped. Exit status 0 at end of input, 1 if reading or writing fails.

errors: nothing on standard output, one line on standard error, exit status 1:
  tool-schema: <code>: <message>
  malformed_json   not RFC 8259 JSON (offset, line and column given)
  too_deep         arrays and objects nested deeper than 64
  too_large        more than 65536 bytes of input
  not_an_object    the request is not a JSON object
  duplicate_field  a field appears twice
  unknown_field    a field this request does not have
  missing_field    a field this request (or the call's envelope) needs is absent
  wrong_type       a field's value has the wrong JSON type
  unknown_op       op is not tool_schema, tool_list or check_call
  unknown_tool     tool is not in the catalog (the message names the closest one)
  unknown_format   format is not one of the formats above
  unsupported      strict is true for a format without a strict mode, or the
                   provider's strict mode refuses this many tools or optional properties
  io               standard input or output failed
A bad command line is exit status 2.
";

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    if let Some(arg) = args.next() {
        let text = match arg.to_str() {
            _ if args.next().is_some() => None,
            Some("--stream") => {
                return finish(serve(&mut io::stdin().lock(), &mut io::stdout().lock()))
            }
            Some("-h" | "--help") => Some(USAGE),
            Some("-V" | "--version") => {
                Some(concat!("tool-schema ", env!("CARGO_PKG_VERSION"), "\n"))
            }
            _ => None,
        };
        return match text {
            Some(text) => finish(write_stdout(text.as_bytes())),
            None => {
                let _ = io::stderr().write_all(
                    b"tool-schema: usage: unexpected arguments; see tool-schema --help\n",
                );
                ExitCode::from(2)
            }
        };
    }
    finish(run())
}

/// How much of a request is read before the full-size buffer is needed. Requests as harnesses
/// send them are a few dozen bytes, and each 4 KiB page of stack that a spawn touches costs a
/// page fault, which is a measurable part of the whole process (see `benches/spawn.rs`).
const SMALL_INPUT: usize = 1024;

fn run() -> Result<(), Error> {
    let mut small = [0; SMALL_INPUT];
    let len = read_stdin(&mut small)?;
    if len < small.len() {
        return answer(&small[..len]);
    }
    run_large(&small)
}

/// A request that filled the small buffer: read the rest into one of [`MAX_INPUT`] + 1 bytes,
/// so a longer input is `too_large` exactly as before.
#[inline(never)]
fn run_large(start: &[u8]) -> Result<(), Error> {
    let mut request = [0; MAX_INPUT + 1];
    request[..start.len()].copy_from_slice(start);
    let len = start.len() + read_stdin(&mut request[start.len()..])?;
    answer(&request[..len])
}

/// Writes the answer to standard output in one `write`. A `tool_schema` answer is one static
/// slice rendered when the crate was compiled, and goes straight out with no copy; any other
/// (a list, several slices) is answered again into a buffer and written from there.
fn answer(request: &[u8]) -> Result<(), Error> {
    let mut direct = Direct::Waiting;
    match (respond(request, &mut direct), direct) {
        (Ok(()), _) => Ok(()),
        (Err(_), Direct::Declined) => answer_buffered(request),
        (Err(_), Direct::Failed(err)) => Err(Error::io("cannot write standard output", &err)),
        (Err(err), _) => Err(err),
    }
}

#[inline(never)]
fn answer_buffered(request: &[u8]) -> Result<(), Error> {
    let mut block = Block {
        buf: [0; BLOCK],
        len: 0,
    };
    respond(request, &mut block)?;
    write_stdout(&block.buf[..block.len])
}

/// The block an answer is gathered in: room for the longest declaration list, so that one is
/// written in one piece. A longer answer (a `check_call` echoes its arguments) goes out a block
/// at a time.
const BLOCK: usize = if MAX_OUTPUT > 16 * 1024 {
    MAX_OUTPUT
} else {
    16 * 1024
};

struct Block {
    buf: [u8; BLOCK],
    len: usize,
}

impl Write for Block {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if BLOCK - self.len < bytes.len() {
            let mut stdout = io::stdout().lock();
            stdout.write_all(&self.buf[..self.len])?;
            self.len = 0;
            if bytes.len() > BLOCK {
                stdout.write_all(bytes)?;
                return Ok(bytes.len());
            }
        }
        self.buf[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A writer that takes an answer only when it comes whole, in one piece ending in a newline,
/// and passes it to standard output as it is. Anything else it declines before writing a byte,
/// so [`answer`] can give the request to a buffer instead.
enum Direct {
    Waiting,
    Written,
    Declined,
    Failed(io::Error),
}

impl Write for Direct {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if !matches!(self, Direct::Waiting) || !bytes.ends_with(b"\n") {
            *self = Direct::Declined;
            return Err(io::ErrorKind::Unsupported.into());
        }
        // Std's line writer passes a slice ending in a newline straight to the descriptor.
        let mut stdout = io::stdout().lock();
        match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
            Ok(()) => {
                *self = Direct::Written;
                Ok(bytes.len())
            }
            Err(err) => {
                let kind = err.kind();
                *self = Direct::Failed(err);
                Err(kind.into())
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Fills `buf` from standard input until end of input or the buffer is full; a full buffer is
/// one byte over the limit, which the tokenizer reports as `too_large` without reading more.
///
/// A standard input closed by the caller reads as empty: std reopens closed standard
/// descriptors on `/dev/null` before `main`, so that case is `malformed_json`, like any empty
/// input.
fn read_stdin(buf: &mut [u8]) -> Result<usize, Error> {
    let fail = |err: io::Error| Error::io("cannot read standard input", &err);
    let mut stdin = io::stdin().lock();
    let mut len = 0;
    while len < buf.len() {
        match stdin.read(&mut buf[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => return Err(fail(err)),
        }
    }
    Ok(len)
}

/// Writes all of `bytes` to standard output. Every response ends in a newline, so std's line
/// buffer passes it straight through as one `write`; the flush is for `--help`'s sake.
fn write_stdout(bytes: &[u8]) -> Result<(), Error> {
    let fail = |err: io::Error| Error::io("cannot write standard output", &err);
    let mut stdout = io::stdout().lock();
    stdout
        .write_all(bytes)
        .and_then(|()| stdout.flush())
        .map_err(fail)
}

fn finish(result: Result<(), Error>) -> ExitCode {
    let Err(err) = result else {
        return ExitCode::SUCCESS;
    };
    // One line, one write, no heap: a truncating stack buffer.
    let mut line = Line {
        buf: [0; 1024],
        len: 0,
    };
    let _ = write!(line, "tool-schema: {}: {err}", err.code());
    let end = line.len.min(line.buf.len() - 1);
    line.buf[end] = b'\n';
    let _ = io::stderr().write_all(&line.buf[..=end]);
    ExitCode::FAILURE
}

/// A line of at most 1 KiB; what does not fit is dropped at a character boundary.
struct Line {
    buf: [u8; 1024],
    len: usize,
}

impl std::fmt::Write for Line {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let room = self.buf.len() - 1 - self.len;
        let mut take = s.len().min(room);
        while !s.is_char_boundary(take) {
            take -= 1;
        }
        self.buf[self.len..self.len + take].copy_from_slice(&s.as_bytes()[..take]);
        self.len += take;
        Ok(())
    }
}
