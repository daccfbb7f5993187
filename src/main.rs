#![forbid(unsafe_code)]
//! The `tool-schema` command: one request on standard input, one declaration on standard output.
//!
//! A thin shell over [`tool_schema::respond`]: it reads at most [`MAX_INPUT`] + 1 bytes into a
//! stack buffer (a small one first, so that an ordinary request touches little memory) and
//! writes the answer it gets once, in a single `write` when it is at most 2 KiB. Errors go to
//! standard error as one line, `tool-schema: <code>: <message>`, with exit status 1; a bad
//! command line is exit status 2.

use std::fmt::Write as _;
use std::io::{self, Read, Write};
use std::path::Path;
use std::process::ExitCode;
use tool_schema::{
    serve_catalog, serve_refused_catalog, BadTool, CallStreams, Error, RuntimeCatalog, MAX_INPUT,
};

const USAGE: &str = "\
usage: tool-schema [--catalog PATH [--catalog-strict]] [--stream] < request.json
       tool-schema [--catalog PATH [--catalog-strict]] --review [--strict]
       tool-schema --help | --version

Reads one JSON request on standard input and writes one response on standard output: compact
JSON, object keys sorted at every level, non-ASCII as raw UTF-8, one trailing newline.

requests:
  {\"op\":\"tool_schema\",\"tool\":TOOL}   one declaration; TOOL is a tool of the catalog
                                        this binary was built with
  {\"op\":\"tool_list\"}                  every declaration, as one JSON array; with
                                        \"skip_unsupported\":true, {\"skipped\":[...],
                                        \"tools\":[...]}: the declarations the format
                                        can give, and the tools it cannot, with why
  {\"op\":\"check_call\",\"call\":CALL}     the verdict on a tool call a model sent back, as
                                        the provider returned it: the arguments in
                                        canonical form, or the problems and the reply
                                        for the model (exit 0 either way)
  {\"op\":\"check_turn\",\"turn\":TURN}     check_call's verdict on each call of one
                                        assistant turn, as the provider returned it:
                                        {\"calls\":[VERDICT,...]}
  {\"op\":\"tool_choice\",\"choice\":C}    the provider's request fields for C: \"auto\",
                                        \"none\", \"required\" or {\"tool\":TOOL}; and
                                        \"parallel\":B, optional, for parallel calls
  optional in all six (call_delta's below):
    \"format\":F    openai (default), openai_responses, anthropic, gemini,
                  gemini_json_schema or mcp
    \"strict\":B    false (default) or true; true needs openai, openai_responses or anthropic

--catalog PATH: read the tools from the catalog file PATH (an MCP tools/list array or
  result) instead of the compiled-in catalog, by the build's rules. A tool that breaks one is
  left out, one line on standard error for each (tool-schema: left_out: PATH: its refusal),
  and a call to it is told why; a file that is no catalog at all, or whose every tool breaks
  a rule, is bad_catalog, exit 1. --catalog-strict: refuse the whole file for any tool, as a
  build does.

--review: the catalog review instead of a request: risky or vague design (commands, privilege
  flags, secrets, open URLs and paths, permissive objects, missing bounds, choices without an
  enum, descriptions that never say when not to use a tool, unsaid side effects), one line per
  finding, TOOL POINTER RULE: message, sorted. Exit 0; with --strict, exit 1 on any finding.
  With --catalog, the file's tools; otherwise the compiled-in catalog's.

--stream: one request per line, one response line per request, until end of input; an error
  is the line {\"error\":{\"code\":C,\"message\":M}} and the stream goes on. Blank lines are
  skipped. A request with \"id\":ID (a string or number) is answered {\"answer\":A,\"id\":ID},
  or its error line with \"id\":ID beside \"error\". {\"op\":\"use_catalog\",\"path\":P}
  reads the catalog file P for the lines after it, as --catalog does, answering
  {\"ok\":true,\"refused\":[R,...],\"tools\":N}, each R a tool left out
  ({\"code\":\"bad_catalog\",\"message\":M,\"pointer\":P,\"tool\":T}), or bad_catalog and the
  catalog stays; with \"strict\":true, all or nothing. A --catalog file that is refused does
  not end the stream: each line is answered bad_catalog until a use_catalog succeeds.
  {\"op\":\"call_delta\",\"format\":F,\"strict\":B,\"stream\":S,\"event\":E} gives one
  event E of a provider's stream S (named by the caller) and answers the calls it settled,
  {\"calls\":[{\"index\":I,\"verdict\":V}]}, V as check_call's; \"end\":true ends the
  stream S, its open calls truncated_arguments. One-shot mode answers it as its stream's
  only event, and ends the stream with it. Exit status 0 at end of input, 1 if reading or
  writing fails.

errors: nothing on standard output, one line on standard error, exit status 1:
  tool-schema: <code>: <message>
  malformed_json   not RFC 8259 JSON (offset, line and column given)
  too_deep         arrays and objects nested deeper than 64
  too_large        more than 65536 bytes of input, a turn of more than 128 calls, or a
                   streamed call over its limits (16 calls a stream, 64 KiB of arguments)
  too_many_streams a call_delta opening a 17th stream
  not_an_object    the request is not a JSON object
  duplicate_field  a field appears twice
  unknown_field    a field this request does not have
  missing_field    a field this request (or the call's envelope) needs is absent
  wrong_type       a field's value has the wrong JSON type
  unknown_op       op is not tool_schema, tool_list, check_call, check_turn,
                   tool_choice or call_delta
  unknown_tool     tool is not in the catalog (the message names the closest one)
  unknown_format   format is not one of the formats above
  unsupported      strict is true for a format without a strict mode, the
                   provider's strict mode refuses this many tools or optional
                   properties, or the format cannot say what is asked (a tool_choice
                   with mcp, parallel with gemini, a check_turn with mcp)
  wrong_format     a call_delta event that is not one of its format's (the message
                   names the format it looks like)
  io               standard input or output failed
  internal         a fault inside tool-schema, not in the request (please report it);
                   in --stream mode the stream goes on
  bad_catalog      the catalog file cannot be read or breaks a rule (the build's line)
A bad command line is exit status 2.
";

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let Some(first) = args.next() else {
        return finish(run(None));
    };
    let text = match first.to_str() {
        Some("-h" | "--help") => Some(USAGE),
        Some("-V" | "--version") => Some(concat!("tool-schema ", env!("CARGO_PKG_VERSION"), "\n")),
        _ => None,
    };
    if let Some(text) = text {
        if args.next().is_some() {
            return usage_error();
        }
        return finish(write_stdout(text.as_bytes()));
    }
    // [--catalog PATH [--catalog-strict]] [--stream | --review [--strict]], in any order,
    // each at most once.
    let (mut stream, mut catalog, mut review, mut strict) = (false, None, false, false);
    let mut catalog_strict = false;
    let mut next = Some(first);
    while let Some(arg) = next {
        match arg.to_str() {
            Some("--stream") if !stream => stream = true,
            Some("--review") if !review => review = true,
            Some("--strict") if !strict => strict = true,
            Some("--catalog-strict") if !catalog_strict => catalog_strict = true,
            Some("--catalog") if catalog.is_none() => match args.next() {
                Some(path) => catalog = Some(path),
                None => return usage("--catalog needs the path of a catalog file"),
            },
            _ => return usage_error(),
        }
        next = args.next();
    }
    if (review && stream) || (strict && !review) || (catalog_strict && catalog.is_none()) {
        return usage_error();
    }
    let bad_tool = match catalog_strict {
        true => BadTool::RefusesTheFile,
        false => BadTool::IsLeftOut,
    };
    let catalog = match catalog {
        None => None,
        Some(path) => match RuntimeCatalog::load_path(Path::new(&path), bad_tool) {
            Ok(catalog) => {
                // Each tool left out, on its own line: the client still gets the others.
                let mut stderr = io::stderr().lock();
                for refusal in catalog.refused() {
                    let shown = Path::new(&path).display();
                    let _ = writeln!(stderr, "tool-schema: left_out: {shown}: {refusal}");
                }
                Some(catalog)
            }
            Err(refusal) => {
                // The build's line, whole, after the path: nothing on standard output.
                let line = format!("{}: {refusal}", Path::new(&path).display());
                let _ = writeln!(io::stderr(), "tool-schema: bad_catalog: {line}");
                if stream {
                    // A stream answers every line: bad_catalog, until a use_catalog succeeds.
                    return finish(serve_refused_catalog(
                        &mut io::stdin().lock(),
                        &mut io::stdout().lock(),
                        &line,
                    ));
                }
                return ExitCode::FAILURE;
            }
        },
    };
    if review {
        return review_catalog(catalog.as_ref(), strict);
    }
    if stream {
        return finish(serve_catalog(
            &mut io::stdin().lock(),
            &mut io::stdout().lock(),
            catalog,
        ));
    }
    finish(run(catalog.as_ref()))
}

/// `--review`: the catalog review's findings, one line each, on standard output. Exit status 0,
/// or 1 with `--strict` when there is any finding (or when standard output fails).
fn review_catalog(catalog: Option<&RuntimeCatalog>, strict: bool) -> ExitCode {
    let findings = match catalog {
        Some(catalog) => catalog.review(),
        None => tool_schema::review::review(tool_schema::catalog::MODEL),
    };
    let mut text = String::new();
    for finding in &findings {
        text.push_str(&finding.to_string());
        text.push('\n');
    }
    if let Err(err) = write_stdout(text.as_bytes()) {
        return finish(Err(err));
    }
    if strict && !findings.is_empty() {
        let _ = writeln!(
            io::stderr(),
            "tool-schema: review: {} findings (--strict)",
            findings.len()
        );
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

fn usage_error() -> ExitCode {
    usage("unexpected arguments")
}

/// A bad command line: one line saying what is wrong, exit status 2.
fn usage(what: &str) -> ExitCode {
    let _ = writeln!(
        io::stderr(),
        "tool-schema: usage: {what}; see tool-schema --help"
    );
    ExitCode::from(2)
}

const SMALL_INPUT: usize = 1024;

fn run(catalog: Option<&RuntimeCatalog>) -> Result<(), Failure> {
    let mut small = [0; SMALL_INPUT];
    let len = read_stdin(&mut small)?;
    if len < small.len() {
        return answer(&small[..len], catalog);
    }
    run_large(&small, catalog)
}

/// A request that filled the small buffer: read the rest into one of [`MAX_INPUT`] + 1 bytes,
/// so a longer input is `too_large` exactly as before.
#[inline(never)]
fn run_large(start: &[u8], catalog: Option<&RuntimeCatalog>) -> Result<(), Failure> {
    let mut request = [0; MAX_INPUT + 1];
    request[..start.len()].copy_from_slice(start);
    let len = start.len() + read_stdin(&mut request[start.len()..])?;
    answer(&request[..len], catalog)
}

/// Answers once, through [`Out`]: every byte `respond` writes goes to standard output once, in
/// order, whatever the answer is made of.
fn answer(request: &[u8], catalog: Option<&RuntimeCatalog>) -> Result<(), Failure> {
    let mut out = Out {
        buf: [0; OUT],
        len: 0,
    };
    // A call_delta here is its stream's only event, and its stream ends with it: a call left
    // open is truncated_arguments, not lost with the process.
    let mut streams = CallStreams::one_event_each();
    let answered = match catalog {
        Some(catalog) => streams.respond_over(catalog, request, &mut out),
        None => streams.respond(request, &mut out),
    };
    if let Err(err) = answered {
        return Err(with_stream_hint(err, request));
    }
    Ok(write_stdout(&out.buf[..out.len])?)
}

/// Several requests, one a line, piped without `--stream` stop at the second: the error says
/// how to send them.
#[cold]
fn with_stream_hint(err: Error, request: &[u8]) -> Failure {
    let second_line = request
        .iter()
        .position(|&b| b == b'\n')
        .is_some_and(|newline| request[newline..].iter().any(|b| !b.is_ascii_whitespace()));
    let hint = match second_line && err.code() == "malformed_json" {
        true => "; for one request a line, run tool-schema --stream",
        false => "",
    };
    Failure { err, hint }
}

/// An error for the error line, and what to add to its message.
struct Failure {
    err: Error,
    hint: &'static str,
}

impl From<Error> for Failure {
    fn from(err: Error) -> Failure {
        Failure { err, hint: "" }
    }
}

/// Room for an ordinary answer: a declaration, a default catalog's list, a short check_call
/// verdict. Each page of stack a spawn touches is a page fault: with 4 KiB here a one-shot
/// declaration took 39 faults instead of 38 (`cargo bench --bench spawn`), with 2 KiB 38.
const OUT: usize = 2048;

/// An answer on its way to standard output: gathered here and written in one `write` at the
/// end when it fits, a buffer at a time when it does not. A piece that does not fit in the
/// empty buffer (a long declaration, a long argument) goes straight out from
/// where it is, with no copy.
struct Out {
    buf: [u8; OUT],
    len: usize,
}

impl Write for Out {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if OUT - self.len < bytes.len() {
            let mut stdout = io::stdout().lock();
            stdout.write_all(&self.buf[..self.len])?;
            self.len = 0;
            if bytes.len() > OUT {
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

fn finish(result: Result<(), impl Into<Failure>>) -> ExitCode {
    let Err(failure) = result else {
        return ExitCode::SUCCESS;
    };
    let Failure { err, hint } = failure.into();
    // One line, one write, no heap: a truncating stack buffer.
    let mut line = Line {
        buf: [0; 1024],
        len: 0,
    };
    let _ = write!(line, "tool-schema: {}: {err}", err.code());
    let _ = line.write_str(hint);
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
