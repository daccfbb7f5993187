//! The typed face of the crate, for a Rust harness: declarations, tool lists, tool choices,
//! verdicts on calls and on streamed calls, by [`Shape`] instead of request text.
//!
//! It is a thin layer over the one engine: each method writes the request that
//! [`respond()`](crate::respond()) takes and reads its answer, so every rule, byte and message
//! is the same as the command line's. A verdict's canonical arguments and the reply for the
//! model are kept as the engine wrote them, ready to send. It allocates its request and its
//! answer; a caller that must not allocate per request uses the bytes API, which does not.

use crate::call_stream::CallStreams;
use crate::catalog_file::CatalogError;
use crate::error::Error;
use crate::runtime::{BadTool, RuntimeCatalog};
use crate::sink::escaped;
use crate::tokenizer::{decode, Kind, Tokenizer};
use crate::wire::Shape;
use std::fmt::Write as _;
use std::io::Write as _;
use std::ops::Range;
use std::path::Path;

/// The tools a harness declares and checks calls against: the catalog compiled into the crate,
/// or one read at run time (an MCP server's `tools/list`).
#[derive(Debug)]
pub enum Tools {
    /// The catalog the crate was built with (`src/catalog.json`, or `TOOL_SCHEMA_CATALOG`).
    Compiled,
    /// A catalog read at run time.
    Loaded(Box<RuntimeCatalog>),
}

/// What a tool choice asks of the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice<'a> {
    /// The model decides.
    Auto,
    /// No tool.
    None,
    /// Some tool.
    Required,
    /// This tool.
    Tool(&'a str),
}

/// The verdict on one tool call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The tool the call names, as the model wrote it.
    pub name: String,
    /// The call's id, where the provider gives one.
    pub id: Option<String>,
    /// The arguments in canonical (RFC 8785) form, when the call is right.
    pub arguments: Option<String>,
    /// What is wrong with the call, when it is not: one problem or more.
    pub problems: Vec<Problem>,
    /// The message that tells the model what is wrong, in the provider's shape, ready to send.
    pub reply: Option<String>,
}

impl Verdict {
    /// Whether the call is right: then [`Verdict::arguments`] holds them.
    pub fn ok(&self) -> bool {
        self.arguments.is_some()
    }
}

/// One problem with a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// What is wrong, such as [`ProblemCode::MissingArgument`].
    pub code: ProblemCode,
    /// JSON Pointer of the argument, within the arguments (`""`: the arguments, or the call).
    pub path: String,
    /// One line, for the model: what was found and what to send.
    pub message: String,
}

/// What is wrong with a call: one variant per problem code of `docs/checking-calls.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProblemCode {
    /// `unknown_tool`: the name is not a tool of the catalog.
    UnknownTool,
    /// `malformed_arguments`: the arguments are not JSON.
    MalformedArguments,
    /// `truncated_arguments`: the arguments end inside a value.
    TruncatedArguments,
    /// `arguments_not_object`: the arguments are not an object.
    ArgumentsNotObject,
    /// `unknown_argument`: a key the object does not declare.
    UnknownArgument,
    /// `duplicate_argument`: a key given twice.
    DuplicateArgument,
    /// `missing_argument`: a required key left out.
    MissingArgument,
    /// `wrong_argument_type`: a value of the wrong JSON type.
    WrongArgumentType,
    /// `argument_out_of_range`: a bound, length or count missed.
    ArgumentOutOfRange,
    /// `argument_not_in_enum`: a value outside the enum, or not the const.
    ArgumentNotInEnum,
    /// `argument_not_matching`: a string off its pattern or format.
    ArgumentNotMatching,
    /// `argument_not_unique`: an array that holds one item twice.
    ArgumentNotUnique,
    /// `argument_fits_no_alternative`: a value that fits no branch of a union.
    ArgumentFitsNoAlternative,
    /// `arguments_too_complex`: nested too deep, or a union past its budget.
    ArgumentsTooComplex,
}

impl ProblemCode {
    /// Every problem code.
    pub const ALL: [ProblemCode; 14] = [
        ProblemCode::UnknownTool,
        ProblemCode::MalformedArguments,
        ProblemCode::TruncatedArguments,
        ProblemCode::ArgumentsNotObject,
        ProblemCode::UnknownArgument,
        ProblemCode::DuplicateArgument,
        ProblemCode::MissingArgument,
        ProblemCode::WrongArgumentType,
        ProblemCode::ArgumentOutOfRange,
        ProblemCode::ArgumentNotInEnum,
        ProblemCode::ArgumentNotMatching,
        ProblemCode::ArgumentNotUnique,
        ProblemCode::ArgumentFitsNoAlternative,
        ProblemCode::ArgumentsTooComplex,
    ];

    /// The stable code, as the answer writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            ProblemCode::UnknownTool => "unknown_tool",
            ProblemCode::MalformedArguments => "malformed_arguments",
            ProblemCode::TruncatedArguments => "truncated_arguments",
            ProblemCode::ArgumentsNotObject => "arguments_not_object",
            ProblemCode::UnknownArgument => "unknown_argument",
            ProblemCode::DuplicateArgument => "duplicate_argument",
            ProblemCode::MissingArgument => "missing_argument",
            ProblemCode::WrongArgumentType => "wrong_argument_type",
            ProblemCode::ArgumentOutOfRange => "argument_out_of_range",
            ProblemCode::ArgumentNotInEnum => "argument_not_in_enum",
            ProblemCode::ArgumentNotMatching => "argument_not_matching",
            ProblemCode::ArgumentNotUnique => "argument_not_unique",
            ProblemCode::ArgumentFitsNoAlternative => "argument_fits_no_alternative",
            ProblemCode::ArgumentsTooComplex => "arguments_too_complex",
        }
    }

    /// The code that `code` names, if it is one.
    pub fn from_code(code: &str) -> Option<ProblemCode> {
        ProblemCode::ALL
            .into_iter()
            .find(|known| known.as_str() == code)
    }
}

impl std::fmt::Display for ProblemCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A call settled by a streamed event: its index in the provider's stream, and its verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settled {
    /// The call's index, as the provider numbers it.
    pub index: usize,
    /// The verdict on the call.
    pub verdict: Verdict,
}

impl Tools {
    /// Reads a catalog file's bytes at run time; a tool that breaks a rule is left out (and in
    /// [`Tools::refused`]) or refuses the file, as `bad_tool` says.
    pub fn load(bytes: &[u8], bad_tool: BadTool) -> Result<Tools, CatalogError> {
        RuntimeCatalog::load(bytes, bad_tool).map(|catalog| Tools::Loaded(Box::new(catalog)))
    }

    /// [`Tools::load`] of the file at `path`, as [`RuntimeCatalog::load_path`] reads it.
    pub fn load_path(path: &Path, bad_tool: BadTool) -> Result<Tools, CatalogError> {
        RuntimeCatalog::load_path(path, bad_tool).map(|catalog| Tools::Loaded(Box::new(catalog)))
    }

    /// The tools left out when the catalog was read, one entry for each rule each breaks.
    pub fn refused(&self) -> &[CatalogError] {
        match self {
            Tools::Compiled => &[],
            Tools::Loaded(catalog) => catalog.refused(),
        }
    }

    /// The declaration of `tool` in `shape`: the bytes to put in a request's tools list, with
    /// the trailing newline the command line writes.
    pub fn declaration(&self, tool: &str, shape: Shape) -> Result<Vec<u8>, Error> {
        self.ask(|request| {
            request.push_str(r#"{"op":"tool_schema","tool":""#);
            push_escaped(request, tool);
            request.push('"');
            push_shape(request, shape);
        })
    }

    /// Every declaration in `shape`, as one JSON array.
    pub fn tool_list(&self, shape: Shape) -> Result<Vec<u8>, Error> {
        self.ask(|request| {
            request.push_str(r#"{"op":"tool_list""#);
            push_shape(request, shape);
        })
    }

    /// The provider's request fields for `choice`, and for parallel calls when `parallel` is
    /// given.
    pub fn tool_choice(
        &self,
        shape: Shape,
        choice: Choice<'_>,
        parallel: Option<bool>,
    ) -> Result<Vec<u8>, Error> {
        self.ask(|request| {
            request.push_str(r#"{"op":"tool_choice","choice":"#);
            match choice {
                Choice::Auto => request.push_str(r#""auto""#),
                Choice::None => request.push_str(r#""none""#),
                Choice::Required => request.push_str(r#""required""#),
                Choice::Tool(tool) => {
                    request.push_str(r#"{"tool":""#);
                    push_escaped(request, tool);
                    request.push_str(r#""}"#);
                }
            }
            if let Some(parallel) = parallel {
                let _ = write!(request, r#","parallel":{parallel}"#);
            }
            push_shape(request, shape);
        })
    }

    /// The verdict on one call, `call` as the provider returned it (an OpenAI `tool_calls[i]`,
    /// an Anthropic `tool_use` block, ...). An error is a request the engine refuses (the
    /// call's envelope is not the format's, say), never a wrong call: that is a verdict.
    pub fn check_call(&self, shape: Shape, call: &[u8]) -> Result<Verdict, Error> {
        let answer = self.ask_with(|request| {
            request.extend_from_slice(br#"{"op":"check_call","call":"#);
            request.extend_from_slice(call);
            push_shape_bytes(request, shape);
        })?;
        verdict(&answer, 0..answer.len())
    }

    /// The verdict on each call of one assistant turn, as the provider returned it.
    pub fn check_turn(&self, shape: Shape, turn: &[u8]) -> Result<Vec<Verdict>, Error> {
        let answer = self.ask_with(|request| {
            request.extend_from_slice(br#"{"op":"check_turn","turn":"#);
            request.extend_from_slice(turn);
            push_shape_bytes(request, shape);
        })?;
        let calls = member(&answer, 0..answer.len(), "calls")?;
        elements(&answer, calls)?
            .into_iter()
            .map(|call| verdict(&answer, call))
            .collect()
    }

    /// A stream of one provider's response, for the calls in it: give it each event as it
    /// comes, and it gives back the calls each event settles.
    pub fn call_stream(&self, shape: Shape) -> CallStream<'_> {
        CallStream {
            tools: self,
            shape,
            streams: CallStreams::default(),
        }
    }

    /// The engine's answer to the request that `write` writes.
    fn ask(&self, write: impl FnOnce(&mut String)) -> Result<Vec<u8>, Error> {
        let mut request = String::new();
        write(&mut request);
        self.respond(request.as_bytes())
    }

    /// [`Tools::ask`], for a request that holds the caller's bytes.
    fn ask_with(&self, write: impl FnOnce(&mut Vec<u8>)) -> Result<Vec<u8>, Error> {
        let mut request = Vec::new();
        write(&mut request);
        self.respond(&request)
    }

    fn respond(&self, request: &[u8]) -> Result<Vec<u8>, Error> {
        let mut answer = Vec::new();
        match self {
            Tools::Compiled => crate::respond(request, &mut answer)?,
            Tools::Loaded(catalog) => catalog.respond(request, &mut answer)?,
        }
        Ok(answer)
    }
}

/// One provider response streamed in events, from [`Tools::call_stream`].
pub struct CallStream<'t> {
    tools: &'t Tools,
    shape: Shape,
    streams: CallStreams,
}

impl std::fmt::Debug for CallStream<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let open = self.streams.open();
        (f.debug_struct("CallStream"))
            .field("shape", &self.shape)
            .field("open", &open)
            .finish_non_exhaustive()
    }
}

impl CallStream<'_> {
    /// One event of the provider's stream, as it came (the JSON of an SSE `data:` line, or of
    /// one chunk): the calls it settled, in order.
    pub fn event(&mut self, event: &[u8]) -> Result<Vec<Settled>, Error> {
        self.send(Some(event))
    }

    /// The end of the stream: the calls still open, each settled as `truncated_arguments`.
    pub fn end(&mut self) -> Result<Vec<Settled>, Error> {
        self.send(None)
    }

    fn send(&mut self, event: Option<&[u8]>) -> Result<Vec<Settled>, Error> {
        let mut request = br#"{"op":"call_delta","stream":"s""#.to_vec();
        push_shape_bytes(&mut request, self.shape);
        request.pop(); // the `}` push_shape_bytes closed with
        match event {
            Some(event) => {
                request.extend_from_slice(br#","event":"#);
                request.extend_from_slice(event);
            }
            None => request.extend_from_slice(br#","end":true"#),
        }
        request.push(b'}');
        let mut answer = Vec::new();
        match self.tools {
            Tools::Compiled => self.streams.respond(&request, &mut answer)?,
            Tools::Loaded(catalog) => self.streams.respond_over(catalog, &request, &mut answer)?,
        }
        let calls = member(&answer, 0..answer.len(), "calls")?;
        let mut settled = Vec::new();
        for call in elements(&answer, calls)? {
            let index = member(&answer, call.clone(), "index")?;
            let index = std::str::from_utf8(&answer[index])
                .ok()
                .and_then(|index| index.parse().ok())
                .ok_or_else(|| Error::internal("call_delta"))?;
            let verdict_at = member(&answer, call, "verdict")?;
            settled.push(Settled {
                index,
                verdict: verdict(&answer, verdict_at)?,
            });
        }
        Ok(settled)
    }
}

/// `,"format":F,"strict":B}`, the end of every request.
fn push_shape(request: &mut String, shape: Shape) {
    let (format, strict) = (shape.format().name(), shape.strict());
    let _ = write!(request, r#","format":"{format}","strict":{strict}}}"#);
}

fn push_shape_bytes(request: &mut Vec<u8>, shape: Shape) {
    let (format, strict) = (shape.format().name(), shape.strict());
    let _ = write!(request, r#","format":"{format}","strict":{strict}}}"#);
}

/// `text` as the inside of a JSON string, with the crate's own escapes.
fn push_escaped(request: &mut String, text: &str) {
    let mut bytes = Vec::new();
    let _ = escaped(&mut bytes, |out| out.write_str(text));
    request.push_str(&String::from_utf8_lossy(&bytes));
}

/// The verdict the engine wrote at `at` in `answer`.
fn verdict(answer: &[u8], at: Range<usize>) -> Result<Verdict, Error> {
    let text = |range: Range<usize>| string(&answer[range]);
    let raw = |range: Range<usize>| String::from_utf8_lossy(&answer[range]).into_owned();
    let mut verdict = Verdict {
        name: text(member(answer, at.clone(), "name")?),
        id: member(answer, at.clone(), "id").ok().map(text),
        arguments: member(answer, at.clone(), "arguments").ok().map(raw),
        problems: Vec::new(),
        reply: member(answer, at.clone(), "reply").ok().map(raw),
    };
    if let Ok(errors) = member(answer, at, "errors") {
        for problem in elements(answer, errors)? {
            verdict.problems.push(Problem {
                code: ProblemCode::from_code(&text(member(answer, problem.clone(), "code")?))
                    .ok_or_else(|| Error::internal("a verdict"))?,
                path: text(member(answer, problem.clone(), "path")?),
                message: text(member(answer, problem, "message")?),
            });
        }
    }
    Ok(verdict)
}

/// A JSON string literal's text.
fn string(literal: &[u8]) -> String {
    let mut text = String::new();
    decode(literal, |c| text.push(c));
    text
}

/// Where the value of `key` is in the object at `at` of the engine's own answer.
fn member(answer: &[u8], at: Range<usize>, key: &str) -> Result<Range<usize>, Error> {
    let object = &answer[at.clone()];
    let mut tokens = Tokenizer::with_limit(object, usize::MAX);
    let fault = || Error::internal("an answer");
    if tokens.expect_token().map_err(|_| fault())?.kind != Kind::ObjectStart {
        return Err(fault());
    }
    loop {
        let name = tokens.expect_token().map_err(|_| fault())?;
        if name.kind == Kind::ObjectEnd {
            return Err(fault());
        }
        let value = tokens.expect_token().map_err(|_| fault())?;
        let end = tokens.skip_any_depth(value).map_err(|_| fault())?;
        if string(name.raw) == key {
            return Ok(at.start + value.at..at.start + end);
        }
    }
}

/// Where each element of the array at `at` of the engine's own answer is.
fn elements(answer: &[u8], at: Range<usize>) -> Result<Vec<Range<usize>>, Error> {
    let array = &answer[at.clone()];
    let mut tokens = Tokenizer::with_limit(array, usize::MAX);
    let fault = || Error::internal("an answer");
    if tokens.expect_token().map_err(|_| fault())?.kind != Kind::ArrayStart {
        return Err(fault());
    }
    let mut found = Vec::new();
    loop {
        let value = tokens.expect_token().map_err(|_| fault())?;
        if value.kind == Kind::ArrayEnd {
            return Ok(found);
        }
        let end = tokens.skip_any_depth(value).map_err(|_| fault())?;
        found.push(at.start + value.at..at.start + end);
    }
}
