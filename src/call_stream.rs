//! `call_delta`: tool calls as a provider streams them, assembled and judged as they come.
//!
//! A harness that streams a turn gets each call in fragments: OpenAI's chat chunks key them by
//! a tool-call `index`, the Responses API and Anthropic by the position of the output item or
//! content block (shared with text and reasoning), and Gemini sends each call whole. Each
//! `{"op":"call_delta","format":F,"strict":B,"stream":S,"event":E}` gives one event `E` as the
//! provider sent it, and is answered `{"calls":[{"index":I,"verdict":V},...]}`: the calls that
//! this event settled, often none.
//!
//! - A call that completes gets `V`, byte for byte what `check_call` answers for the call
//!   assembled: the same checker reads it, the arguments' fragments joined as sent. Fragments
//!   are JSON string literals, and the escapes of each are whole, so the literals' insides
//!   joined are the inside of the whole arguments' literal: nothing is decoded here.
//! - A call that is certainly wrong before it completes is settled at the event that makes it
//!   certain, `ok:false`, and its later fragments are ignored: a tool name the catalog lacks
//!   (as soon as the name is whole: `check_call`'s verdict), arguments that can no longer be
//!   JSON (`check_call`'s verdict on the text so far, which breaks where the whole would), and,
//!   for a tool `check.rs` reads, a top-level key unknown or given twice, or a value of the
//!   wrong type or out of range (that one problem, in `check_call`'s words, as `check.rs`
//!   finds it). `partial_arguments.rs` reads the fragments for these.
//! - A call that never got a name or an id (where its format has ids) is settled when it
//!   completes with `missing_name` or `missing_id`, and a call still open when its stream ends
//!   (OpenAI's `length`, a message stopped without its block's stop) with
//!   `truncated_arguments`. None is dropped in silence.
//!
//! A stream is kept from its first call to its provider's end event: at most [`MAX_STREAMS`]
//! at once, each with at most [`MAX_STREAM_CALLS`] calls, each call's arguments at most
//! [`MAX_CALL_ARGUMENTS`] bytes as the events carry them (escaped). Going over is an error for
//! that event (`too_many_streams`, `too_large`), and other streams go on. Buffers are kept when
//! a stream ends and reused by the next: once the pool has grown to a caller's largest streams,
//! an event allocates nothing.

use crate::call::{self, Arguments, Call, Span};
use crate::catalog::{self, QuickTables};
use crate::check::{self, Path, Problems, Segment, What};
use crate::error::Error;
use crate::partial_arguments::{self, Certain, Partial, KEPT};
use crate::schema::Model;
use crate::tokenizer::{string_eq, Kind, Token, Tokenizer};
use crate::turn::WithoutNewline;
use crate::verdict::{self, Parts};
use crate::wire::{Format, Shape, FORMAT_LIST};
use std::io::{self, Write};

/// How a catalog judges a call assembled from a stream: `check_call`'s checker, writing
/// through a writer that drops the verdict's newline.
type Check<'c> =
    dyn FnMut(&[u8], &Call, Shape, &mut WithoutNewline<'_, dyn Write + '_>) -> io::Result<()> + 'c;

/// The most streams open at once; one more is `too_many_streams`.
pub const MAX_STREAMS: usize = 16;
/// The most calls open in one stream; one more is `too_large`.
pub const MAX_STREAM_CALLS: usize = 16;
/// The most bytes of one call's arguments, as the events carry them (escaped).
pub const MAX_CALL_ARGUMENTS: usize = 64 * 1024;
/// The most bytes of a stream's name, a call's id or its name, as sent.
const MAX_LABEL: usize = 256;

const FIELDS: &str = "op, format, strict, stream, event, end";

/// How a `call_delta` starts when it names its op first, as harnesses write one: such a line
/// goes to the streams without `respond` reading it first. Any other line is `respond`'s, and
/// one that `respond` does not know (`unknown_op`, `unknown_field`) may still be a call_delta.
pub(crate) const CALL_DELTA_START: &[u8] = br#"{"op":"call_delta""#;

/// Every stream a caller has open: the state `call_delta` keeps between events. One per
/// process (stream mode keeps one), or one per connection in a library.
///
/// ```
/// let mut streams = tool_schema::CallStreams::default();
/// let mut out = Vec::new();
/// let event = |e: &str| format!(r#"{{"op":"call_delta","format":"anthropic","stream":"s","event":{e}}}"#);
/// streams.respond(event(r#"{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t1","name":"read_file","input":{}}}"#).as_bytes(), &mut out)?;
/// streams.respond(event(r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"path\":\"a.rs\"}"}}"#).as_bytes(), &mut out)?;
/// streams.respond(event(r#"{"type":"content_block_stop","index":1}"#).as_bytes(), &mut out)?;
/// assert_eq!(
///     String::from_utf8(out).unwrap(),
///     "{\"calls\":[]}\n{\"calls\":[]}\n{\"calls\":[{\"index\":1,\"verdict\":{\"arguments\":{\"path\":\"a.rs\"},\"id\":\"t1\",\"name\":\"read_file\",\"ok\":true}}]}\n"
/// );
/// # Ok::<(), tool_schema::Error>(())
/// ```
#[derive(Default)]
pub struct CallStreams {
    /// Streams, live or kept for their buffers.
    streams: Vec<Stream>,
    /// Each stream ends after its one event ([`CallStreams::one_event_each`]).
    one_event: bool,
    /// A settled call's envelope, as `check_call` reads one: its id, name and arguments as
    /// string literals one after another.
    envelope: Vec<u8>,
}

#[derive(Default)]
struct Stream {
    live: bool,
    /// The stream's name, as sent (the inside of its literal).
    name: Vec<u8>,
    calls: Vec<OpenCall>,
    /// Gemini's calls come whole and unnumbered: the index the next one gets.
    next_index: u64,
    /// Blocks open that carry input but are not the client's calls (Anthropic's server
    /// tools): their fragments are skipped.
    skipped: Vec<u64>,
}

struct OpenCall {
    live: bool,
    /// The provider's index: a tool-call index, an output or a content-block index.
    index: u64,
    /// Answered already (an unknown tool): what follows of it is ignored.
    settled: bool,
    /// The insides of the literals that gave its id and name, as sent, and whether any came.
    id: Vec<u8>,
    has_id: bool,
    name: Vec<u8>,
    has_name: bool,
    /// The name is whole: OpenAI's chunks may carry it in pieces until arguments begin.
    name_whole: bool,
    /// The insides of the arguments' literals, joined.
    arguments: Vec<u8>,
    /// The arguments came whole, in place, when the call started (Anthropic's `input`).
    whole_input: bool,
    /// The stream gave the call two different sets of arguments.
    conflict: bool,
    /// The arguments read so far, for what makes the call certainly wrong early.
    partial: Partial,
    /// The tool, once the name is whole and the catalog has it.
    tool: Option<usize>,
    /// The top-level properties given so far (the first 64), and the one whose value is being
    /// read.
    given: u64,
    property: Option<usize>,
    /// The top-level key whose value is being read, as the arguments spell it.
    key: [u8; KEPT],
    key_len: usize,
    /// What made the call certainly wrong before it completed, when it is a problem with one
    /// argument: its kind, the key's literal, and the value's literal and kind.
    early: Option<Early>,
}

/// A problem with one top-level argument, found before the call completed, kept to be
/// judged again by `check.rs` when its verdict is written.
#[derive(Clone, Copy)]
struct Early {
    what: EarlyWhat,
    key: [u8; KEPT],
    key_len: usize,
    value: [u8; KEPT],
    value_len: usize,
    kind: Kind,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum EarlyWhat {
    Unknown,
    Duplicate,
    /// The value is wrong for the property at this index.
    Value(usize),
}

impl Default for OpenCall {
    fn default() -> OpenCall {
        OpenCall {
            live: false,
            index: 0,
            settled: false,
            id: Vec::new(),
            has_id: false,
            name: Vec::new(),
            has_name: false,
            name_whole: false,
            arguments: Vec::new(),
            whole_input: false,
            conflict: false,
            partial: Partial::default(),
            tool: None,
            given: 0,
            property: None,
            key: [0; KEPT],
            key_len: 0,
            early: None,
        }
    }
}

impl OpenCall {
    fn open(&mut self, index: u64) {
        self.live = true;
        self.index = index;
        self.settled = false;
        self.id.clear();
        self.has_id = false;
        self.name.clear();
        self.has_name = false;
        self.name_whole = false;
        self.arguments.clear();
        self.whole_input = false;
        self.conflict = false;
        self.partial = Partial::default();
        self.tool = None;
        self.given = 0;
        self.property = None;
        self.key_len = 0;
        self.early = None;
    }
}

/// How a call is settled.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Settle {
    /// Completed: `check_call`'s verdict.
    Check,
    /// The stream ended with it open.
    Truncated,
    /// One argument is certainly wrong (`OpenCall::early`): that problem alone.
    Early,
    /// The stream gave it two different sets of arguments (`OpenCall::conflict`).
    Conflict,
}

/// A value in the request: its kind and where it is.
#[derive(Clone, Copy)]
struct Value {
    kind: Kind,
    at: usize,
    end: usize,
}

impl CallStreams {
    /// Streams that end after their one event, for a caller that sends each stream one event
    /// (the CLI's one-shot mode): every call an event leaves open is answered
    /// `truncated_arguments` in the same answer, never lost with the process.
    pub fn one_event_each() -> CallStreams {
        CallStreams {
            one_event: true,
            ..CallStreams::default()
        }
    }

    /// Answers one request over the compiled-in catalog: a `call_delta`, or any other request
    /// as [`respond()`](crate::respond()) answers it.
    pub fn respond(&mut self, input: &[u8], out: &mut impl Write) -> Result<(), Error> {
        self.respond_with(
            input,
            out,
            &catalog::Compiled,
            &|tool| catalog::TOOLS[tool].flat,
            crate::respond::respond,
            &mut |request, call, shape, out| crate::verdict::answer(request, call, shape, out),
        )
    }

    /// [`CallStreams::respond`] over a catalog read at run time.
    pub fn respond_over(
        &mut self,
        catalog: &crate::runtime::RuntimeCatalog,
        input: &[u8],
        out: &mut impl Write,
    ) -> Result<(), Error> {
        self.respond_with(
            input,
            out,
            catalog,
            &|tool| catalog.checked_flat(tool),
            |input, out| catalog.respond(input, out),
            &mut |request, call, shape, out| catalog.check(request, call, shape, out),
        )
    }

    /// How many streams are open.
    pub fn open(&self) -> usize {
        self.streams.iter().filter(|stream| stream.live).count()
    }

    fn respond_with<W: Write>(
        &mut self,
        input: &[u8],
        out: &mut W,
        names: &impl QuickTables,
        checked_flat: &dyn Fn(usize) -> bool,
        respond: impl FnOnce(&[u8], &mut W) -> Result<(), Error>,
        check: &mut Check<'_>,
    ) -> Result<(), Error> {
        if !input.starts_with(CALL_DELTA_START) {
            match respond(input, out) {
                Err(err) if matches!(err.code(), "unknown_op" | "unknown_field") => {}
                answer => return answer,
            }
        }
        match read_request(input) {
            Some(request) => crate::respond::watched(input, out, |out| {
                self.delta(input, request?, out, names, checked_flat, check)
            }),
            None => respond_error(input),
        }
    }

    /// Applies one event, then writes the calls it settled.
    /// One code for every writer: the checker under it is large, and an instance of it per
    /// writer type made the program a seventh larger.
    fn delta(
        &mut self,
        input: &[u8],
        request: Request,
        out: &mut dyn Write,
        names: &impl QuickTables,
        checked_flat: &dyn Fn(usize) -> bool,
        check: &mut Check<'_>,
    ) -> Result<(), Error> {
        let Request {
            shape,
            stream: name,
            event,
            end,
        } = request;
        let end = end || self.one_event;
        let format = shape.format();
        // Read once without touching any state, so that an event refused for its shape
        // changes nothing, and a stream's slot is taken only by an event that opens a call.
        // What the event does is kept, and applied once it is known to be right.
        let mut plan = Plan::default();
        if let Some(event) = event {
            visit(input, event, format, &mut plan)?;
        }
        if end {
            plan.end(true);
        }
        let inside = &input[name.at + 1..name.end - 1];
        let mut at = self
            .streams
            .iter()
            .position(|stream| stream.live && stream.name == inside);
        if at.is_none() && plan.opens {
            at = Some(self.take_slot(inside, name.at)?);
        }
        let mut apply = Apply {
            input,
            stream: at.map(|at| &mut self.streams[at]),
            names,
            checked_flat,
            nullable_optionals: verdict::nullable_optionals(shape),
            settled: [(0, Settle::Check); MAX_STREAM_CALLS],
            count: 0,
            whole: [(0, Span { at: 0, end: 0 }); MAX_STREAM_CALLS],
            wholes: 0,
            ended: false,
        };
        let applied = match (plan.overflow, event) {
            (true, Some(event)) => visit(input, event, format, &mut apply).map(|()| {
                if end {
                    apply.end(true);
                }
            }),
            _ => plan.replay(&mut apply),
        };
        let (settled, count, whole, wholes, ended) = (
            apply.settled,
            apply.count,
            apply.whole,
            apply.wholes,
            apply.ended,
        );
        let stream = at.map(|at| &mut self.streams[at]);
        let envelope = &mut self.envelope;
        let model = names.model();
        let mut write = |out: &mut dyn Write| -> io::Result<()> {
            out.write_all(b"{\"calls\":[")?;
            let mut first = true;
            for &(index, span) in &whole[..wholes] {
                if !std::mem::take(&mut first) {
                    out.write_all(b",")?;
                }
                write!(out, "{{\"index\":{index},\"verdict\":")?;
                // The visitor read this envelope already.
                if let Ok(call) = call::read(input, span, Format::Gemini) {
                    check(input, &call, shape, &mut WithoutNewline::new(out))?;
                }
                out.write_all(b"}")?;
            }
            if let Some(stream) = &stream {
                for &(call, how) in &settled[..count] {
                    if !std::mem::take(&mut first) {
                        out.write_all(b",")?;
                    }
                    let open = &stream.calls[call];
                    write!(out, "{{\"index\":{},\"verdict\":", open.index)?;
                    verdict(model, open, how, shape, envelope, out, check)?;
                    out.write_all(b"}")?;
                }
            }
            out.write_all(b"]}\n")
        };
        // An event refused part way (a limit) is an error line, and settles nothing.
        applied?;
        let written = write(out);
        if let Some(stream) = stream {
            for &(call, _) in &settled[..count] {
                stream.calls[call].settled = true;
            }
            if ended {
                stream.live = false;
                for call in &mut stream.calls {
                    call.live = false;
                }
            }
        }
        written.map_err(crate::respond::write_failed)
    }

    /// A free slot for the stream `name` (a freed one, with its buffers, first).
    fn take_slot(&mut self, name: &[u8], at: usize) -> Result<usize, Error> {
        let slot = match self.streams.iter().position(|stream| !stream.live) {
            Some(slot) => slot,
            None if self.streams.len() < MAX_STREAMS => {
                self.streams.push(Stream::default());
                self.streams.len() - 1
            }
            None => return Err(Error::too_many_streams(at, MAX_STREAMS)),
        };
        let stream = &mut self.streams[slot];
        stream.live = true;
        stream.name.clear();
        stream.name.extend_from_slice(name);
        stream.next_index = 0;
        stream.skipped.clear();
        for call in &mut stream.calls {
            call.live = false;
        }
        Ok(slot)
    }
}

/// A `call_delta` request understood.
#[derive(Clone, Copy)]
struct Request {
    shape: Shape,
    /// The stream's name: a string literal, quotes included.
    stream: Span,
    /// The event: an object; none in a request that only ends its stream.
    event: Option<Value>,
    /// `"end":true`: the stream ends after the event, as at its provider's end event, and
    /// the calls still open are cut (`truncated_arguments`).
    end: bool,
}

/// Reads a `call_delta` request, or `None` when the line is not one.
fn read_request(input: &[u8]) -> Option<Result<Request, Error>> {
    let mut tokens = Tokenizer::new(input);
    let open = tokens.expect_token().ok()?;
    if open.kind != Kind::ObjectStart {
        return None;
    }
    let mut fields: [Option<(Token<'_>, Value)>; 6] = [None; 6];
    let mut other = None;
    let close = loop {
        let key = tokens.expect_token().ok()?;
        if key.kind == Kind::ObjectEnd {
            break key;
        }
        let value = tokens.expect_token().ok()?;
        let end = tokens.skip(value).ok()?;
        let found = Value {
            kind: value.kind,
            at: value.at,
            end,
        };
        match ["op", "format", "strict", "stream", "event", "end"]
            .iter()
            .position(|name| string_eq(key.raw, name))
        {
            Some(field) if fields[field].is_none() => fields[field] = Some((key, found)),
            Some(_) => {
                other.get_or_insert(Err(Error::duplicate_field(key.at, "a call_delta field")));
            }
            None => {
                other.get_or_insert(Ok(key));
            }
        }
    };
    tokens.drain().ok()?;
    let [op, format, strict, stream, event, end] = fields;
    let op = op?.1;
    if op.kind != Kind::String || !string_eq(&input[op.at..op.end], "call_delta") {
        return None;
    }
    Some((|| {
        if let Some(other) = other {
            let key = other?;
            return Err(Error::unknown_field(key.at, key.raw, FIELDS));
        }
        let wrong = |value: Value, field, want: Kind| {
            Error::wrong_type(value.at, field, want.described(), value.kind.described())
        };
        let format = match format {
            None => Format::OpenAi,
            Some((_, value)) if value.kind != Kind::String => {
                return Err(wrong(value, "format", Kind::String))
            }
            Some((_, value)) => {
                let literal = &input[value.at..value.end];
                Format::ALL
                    .into_iter()
                    .find(|format| string_eq(literal, format.name()))
                    .ok_or_else(|| Error::unknown_format(value.at, literal, FORMAT_LIST))?
            }
        };
        let (strict, strict_at) = match strict {
            None => (false, 0),
            Some((_, value)) => match value.kind {
                Kind::True => (true, value.at),
                Kind::False => (false, value.at),
                _ => return Err(wrong(value, "strict", Kind::True)),
            },
        };
        let Some(shape) = Shape::new(format, strict) else {
            return Err(Error::unsupported(strict_at, format.name()));
        };
        if format == Format::Mcp {
            return Err(Error::refused(
                0,
                "mcp",
                "MCP's tools/call carries a call whole; there is nothing to stream",
            ));
        }
        let Some((_, stream)) = stream else {
            return Err(Error::missing_field(close.at, "stream"));
        };
        if stream.kind != Kind::String {
            return Err(wrong(stream, "stream", Kind::String));
        }
        if stream.end - stream.at - 2 > MAX_LABEL {
            return Err(Error::stream_limit(
                stream.at,
                "bytes of a stream's name",
                MAX_LABEL,
            ));
        }
        let end = match end {
            None => false,
            Some((_, value)) => match value.kind {
                Kind::True => true,
                Kind::False => false,
                _ => return Err(wrong(value, "end", Kind::True)),
            },
        };
        let event = match event {
            None if end => None,
            None => return Err(Error::missing_field(close.at, "event")),
            Some((_, event)) if event.kind != Kind::ObjectStart => {
                return Err(wrong(event, "event", Kind::ObjectStart))
            }
            Some((_, event)) => Some(event),
        };
        Ok(Request {
            shape,
            stream: Span {
                at: stream.at,
                end: stream.end,
            },
            event,
            end,
        })
    })())
}

/// The error for a line that is neither a request `respond` knows nor a `call_delta`:
/// `respond`'s own.
#[cold]
fn respond_error(input: &[u8]) -> Result<(), Error> {
    crate::respond::respond(input, &mut io::sink())
}

/// What an event does, as [`visit`] reads it from each format's events.
trait Events {
    /// A call starts at `index`: Anthropic's `content_block_start`, the Responses API's
    /// `output_item.added`. A call already at `index` starts again.
    fn start(&mut self, index: u64, at: usize) -> Result<(), Error>;
    /// A fragment of the call at `index` (started if it was not): each part given is a string
    /// literal of the request.
    fn part(&mut self, index: u64, at: usize, part: Part) -> Result<(), Error>;
    /// The call at `index` is complete.
    fn complete(&mut self, index: u64);
    /// The call at `index` is given whole by this event: started with `whole` when no call
    /// was open at `index`; otherwise what it lacks (an id, a name) is taken from `whole`,
    /// and `whole`'s arguments are its arguments, which arguments streamed before must equal
    /// (they are `conflicting_arguments` otherwise). Completes it when `complete`.
    fn done(&mut self, index: u64, at: usize, whole: Part, complete: bool) -> Result<(), Error>;
    /// The block at `index` carries input but is not a call of the client's (an Anthropic
    /// server tool's): its fragments are skipped until its `stop`.
    fn skip(&mut self, index: u64, at: usize) -> Result<(), Error>;
    /// The block at `index` stops: if it was skipped, no longer; otherwise its call completes.
    fn stop(&mut self, index: u64);
    /// The stream ends: its open calls are complete (`truncated` false) or cut.
    fn end(&mut self, truncated: bool);
    /// A call that came whole (Gemini's `functionCall`), at `span`.
    fn whole(&mut self, span: Span, at: usize) -> Result<(), Error>;
}

/// The literals of one fragment: an id, a name, arguments; any may be absent. `name_whole`:
/// this fragment ends the name (it came with arguments, or in a format that sends it whole).
/// `input`: arguments given whole as a JSON object in place (Anthropic's `input`), not as a
/// string literal.
#[derive(Clone, Copy, Default)]
struct Part {
    id: Option<Span>,
    name: Option<Span>,
    arguments: Option<Span>,
    input: Option<Span>,
    name_whole: bool,
}

/// The most an event does that [`Plan`] keeps: an event of each format does one or two things
/// (a call started and its first fragment, or a fragment, or an end), and a chunk that starts
/// parallel calls one for each.
const PLANNED: usize = 8;

/// One thing an event does: a call of [`Events`], with its arguments.
#[derive(Clone, Copy)]
enum Action {
    Start(u64, usize),
    Part(u64, usize, Part),
    Complete(u64),
    Done(u64, usize, Part, bool),
    Skip(u64, usize),
    Stop(u64),
    End(bool),
    Whole(Span, usize),
}

/// The first reading: what the event does, kept to be applied once the whole event is read
/// and right, and whether it opens a call. An event that does more than [`PLANNED`] things
/// sets `overflow`, and is read a second time to be applied.
struct Plan {
    actions: [Action; PLANNED],
    count: usize,
    overflow: bool,
    opens: bool,
}

impl Default for Plan {
    fn default() -> Plan {
        Plan {
            actions: [Action::End(false); PLANNED],
            count: 0,
            overflow: false,
            opens: false,
        }
    }
}

impl Plan {
    fn keep(&mut self, action: Action) {
        self.opens |= !matches!(
            action,
            Action::Complete(_) | Action::Stop(_) | Action::End(_)
        );
        match self.actions.get_mut(self.count) {
            Some(slot) => {
                *slot = action;
                self.count += 1;
            }
            None => self.overflow = true,
        }
    }

    /// Does to `events` what the event did, in its order, stopping at the first refusal.
    fn replay(&self, events: &mut impl Events) -> Result<(), Error> {
        for &action in &self.actions[..self.count] {
            match action {
                Action::Start(index, at) => events.start(index, at)?,
                Action::Part(index, at, part) => events.part(index, at, part)?,
                Action::Complete(index) => events.complete(index),
                Action::Done(index, at, whole, complete) => {
                    events.done(index, at, whole, complete)?
                }
                Action::Skip(index, at) => events.skip(index, at)?,
                Action::Stop(index) => events.stop(index),
                Action::End(truncated) => events.end(truncated),
                Action::Whole(span, at) => events.whole(span, at)?,
            }
        }
        Ok(())
    }
}

impl Events for Plan {
    fn start(&mut self, index: u64, at: usize) -> Result<(), Error> {
        self.keep(Action::Start(index, at));
        Ok(())
    }
    fn part(&mut self, index: u64, at: usize, part: Part) -> Result<(), Error> {
        self.keep(Action::Part(index, at, part));
        Ok(())
    }
    fn complete(&mut self, index: u64) {
        self.keep(Action::Complete(index));
    }
    fn done(&mut self, index: u64, at: usize, whole: Part, complete: bool) -> Result<(), Error> {
        self.keep(Action::Done(index, at, whole, complete));
        Ok(())
    }
    fn skip(&mut self, index: u64, at: usize) -> Result<(), Error> {
        self.keep(Action::Skip(index, at));
        Ok(())
    }
    fn stop(&mut self, index: u64) {
        self.keep(Action::Stop(index));
    }
    fn end(&mut self, truncated: bool) {
        self.keep(Action::End(truncated));
    }
    fn whole(&mut self, span: Span, at: usize) -> Result<(), Error> {
        self.keep(Action::Whole(span, at));
        Ok(())
    }
}

/// The second reading: the event applied to its stream, and what it settled.
struct Apply<'s, N: QuickTables> {
    input: &'s [u8],
    stream: Option<&'s mut Stream>,
    names: &'s N,
    /// Whether `check.rs` reads tool `t`'s calls, and optional properties may be `null`.
    checked_flat: &'s dyn Fn(usize) -> bool,
    nullable_optionals: bool,
    /// Calls settled, as indices of the stream's calls, in the order they are answered.
    settled: [(usize, Settle); MAX_STREAM_CALLS],
    count: usize,
    /// Gemini's whole calls: each one's index and envelope.
    whole: [(u64, Span); MAX_STREAM_CALLS],
    wholes: usize,
    ended: bool,
}

impl<'s, N: QuickTables> Apply<'s, N> {
    fn settle(&mut self, call: usize, how: Settle) {
        if self.settled[..self.count].iter().any(|&(c, _)| c == call) {
            return;
        }
        if let Some(slot) = self.settled.get_mut(self.count) {
            *slot = (call, how);
            self.count += 1;
        }
    }

    /// Reads a fragment of call `call`'s arguments for what makes it certainly wrong: how it
    /// is settled, if it is.
    fn read_arguments(&mut self, call: usize, fragment: &[u8]) -> Option<Settle> {
        let model = self.names.model();
        let checked_flat = self.checked_flat;
        let nullable_optionals = self.nullable_optionals;
        let open = &mut self.stream.as_deref_mut()?.calls[call];
        let mut settle = None;
        partial_arguments::decode(fragment, |byte, escaped| {
            let certain = open.partial.step(byte, escaped);
            settle = match certain {
                Certain::No => None,
                // The checker's own verdict on the text so far: it ends where it broke.
                Certain::Malformed if open.has_name => Some(Settle::Check),
                Certain::Malformed => None,
                _ => match open.tool.filter(|&tool| checked_flat(tool)) {
                    Some(tool) => judge(open, model, tool, certain, nullable_optionals),
                    None => None,
                },
            };
            if settle.is_some() || certain == Certain::Malformed {
                open.partial.stop();
            }
            settle.is_none()
        });
        settle
    }

    /// The call at `index`, started if it is not open.
    fn call(&mut self, index: u64, at: usize) -> Result<usize, Error> {
        let Some(stream) = self.stream.as_deref_mut() else {
            return Err(Error::stream_limit(at, "streams", MAX_STREAMS));
        };
        if let Some(found) = stream
            .calls
            .iter()
            .position(|call| call.live && call.index == index)
        {
            return Ok(found);
        }
        let slot = match stream.calls.iter().position(|call| !call.live) {
            Some(slot) => slot,
            None if stream.calls.len() < MAX_STREAM_CALLS => {
                stream.calls.push(OpenCall::default());
                stream.calls.len() - 1
            }
            None => return Err(Error::stream_limit(at, "calls open", MAX_STREAM_CALLS)),
        };
        stream.calls[slot].open(index);
        Ok(slot)
    }
}

impl<N: QuickTables> Events for Apply<'_, N> {
    fn start(&mut self, index: u64, at: usize) -> Result<(), Error> {
        let call = self.call(index, at)?;
        if let Some(stream) = self.stream.as_deref_mut() {
            stream.calls[call].open(index);
        }
        Ok(())
    }

    fn part(&mut self, index: u64, at: usize, part: Part) -> Result<(), Error> {
        if self
            .stream
            .as_deref()
            .is_some_and(|stream| stream.skipped.contains(&index))
        {
            return Ok(());
        }
        let call = self.call(index, at)?;
        let already = self.settled[..self.count].iter().any(|&(c, _)| c == call);
        let (input, names) = (self.input, self.names);
        let Some(stream) = self.stream.as_deref_mut() else {
            return Ok(());
        };
        let open = &mut stream.calls[call];
        if open.settled || already {
            return Ok(());
        }
        let inside = |span: Span| &input[span.at + 1..span.end - 1];
        if let Some(id) = part.id {
            open.has_id = true;
            if open.id.len() + id.end - id.at > MAX_LABEL {
                open.settled = true;
                return Err(Error::stream_limit(
                    id.at,
                    "bytes of a call's id",
                    MAX_LABEL,
                ));
            }
            open.id.extend_from_slice(inside(id));
        }
        if let Some(name) = part.name {
            open.has_name = true;
            if open.name.len() + name.end - name.at > MAX_LABEL {
                open.settled = true;
                return Err(Error::stream_limit(
                    name.at,
                    "bytes of a tool's name",
                    MAX_LABEL,
                ));
            }
            open.name.extend_from_slice(inside(name));
        }
        let whole = part.name_whole || (open.has_name && part.arguments.is_some());
        if whole && !open.name_whole {
            open.name_whole = true;
            // Certain as soon as the name is whole: no tool has it.
            let mut literal = [0u8; MAX_LABEL + 2];
            let len = open.name.len();
            literal[0] = b'"';
            literal[1..=len].copy_from_slice(&open.name);
            literal[len + 1] = b'"';
            open.tool = catalog::find(names, &literal[..len + 2]);
            if open.tool.is_none() {
                open.partial.stop();
                self.settle(call, Settle::Check);
                return Ok(());
            }
        }
        let from = open.arguments.len();
        let what = "bytes of a call's arguments";
        if let Some(input) = part.input {
            // Arguments given whole, in place: written as a literal's inside, as the
            // fragments are, so the one checker reads both alike.
            if input.end - input.at > MAX_CALL_ARGUMENTS {
                open.settled = true;
                return Err(Error::stream_limit(input.at, what, MAX_CALL_ARGUMENTS));
            }
            escape_into(&mut open.arguments, &self.input[input.at..input.end]);
            open.whole_input = true;
        }
        if let Some(arguments) = part.arguments.filter(|span| span.end - span.at > 2) {
            if open.whole_input {
                // Given whole at the start, and again in pieces: which is meant is unknown.
                open.conflict = true;
                self.settle(call, Settle::Conflict);
                return Ok(());
            }
            if open.arguments.len() + arguments.end - arguments.at > MAX_CALL_ARGUMENTS {
                open.settled = true;
                return Err(Error::stream_limit(arguments.at, what, MAX_CALL_ARGUMENTS));
            }
            open.arguments.extend_from_slice(inside(arguments));
        }
        if open.arguments.len() == from {
            return Ok(());
        }
        let appended = std::mem::take(&mut open.arguments);
        let how = self.read_arguments(call, &appended[from..]);
        if let Some(stream) = self.stream.as_deref_mut() {
            stream.calls[call].arguments = appended;
        }
        if let Some(how) = how {
            self.settle(call, how);
        }
        Ok(())
    }

    fn complete(&mut self, index: u64) {
        let Some(stream) = self.stream.as_deref() else {
            return;
        };
        let found = stream
            .calls
            .iter()
            .position(|call| call.live && call.index == index && !call.settled);
        let Some(call) = found else {
            return;
        };
        // A call found certainly wrong by the event that also completes it (arguments given
        // whole) is complete: it gets check_call's whole verdict, not the early one.
        let count = self.count;
        match self.settled[..count].iter_mut().find(|(c, _)| *c == call) {
            Some(entry) if entry.1 == Settle::Early => entry.1 = Settle::Check,
            Some(_) => {}
            None => self.settle(call, Settle::Check),
        }
    }

    fn done(&mut self, index: u64, at: usize, whole: Part, complete: bool) -> Result<(), Error> {
        let found = self.stream.as_deref().and_then(|stream| {
            stream
                .calls
                .iter()
                .position(|call| call.live && call.index == index)
        });
        let Some(call) = found else {
            self.start(index, at)?;
            self.part(index, at, whole)?;
            if complete {
                self.complete(index);
            }
            return Ok(());
        };
        let input = self.input;
        let open = &mut self.stream.as_deref_mut().expect("found in it").calls[call];
        let inside = |span: Span| &input[span.at + 1..span.end - 1];
        // What the call lacks is taken; arguments given whole are its arguments, unless
        // those streamed before differ.
        let mut lacking = Part {
            id: whole.id.filter(|_| !open.has_id),
            name: whole.name.filter(|_| !open.has_name),
            name_whole: whole.name_whole,
            ..Part::default()
        };
        if let Some(arguments) = whole.arguments {
            if open.arguments.is_empty() {
                lacking.arguments = Some(arguments);
            } else if !same_text(&open.arguments, inside(arguments)) {
                open.conflict = true;
            }
        }
        let conflict = open.conflict && !open.settled;
        self.part(index, at, lacking)?;
        if conflict {
            self.settle(call, Settle::Conflict);
        }
        if complete {
            self.complete(index);
        }
        Ok(())
    }

    fn skip(&mut self, index: u64, at: usize) -> Result<(), Error> {
        let Some(stream) = self.stream.as_deref_mut() else {
            return Err(Error::stream_limit(at, "streams", MAX_STREAMS));
        };
        if !stream.skipped.contains(&index) {
            if stream.skipped.len() == MAX_STREAM_CALLS {
                return Err(Error::stream_limit(
                    at,
                    "blocks skipped open",
                    MAX_STREAM_CALLS,
                ));
            }
            stream.skipped.push(index);
        }
        Ok(())
    }

    fn stop(&mut self, index: u64) {
        if let Some(stream) = self.stream.as_deref_mut() {
            if let Some(at) = stream.skipped.iter().position(|&i| i == index) {
                stream.skipped.swap_remove(at);
                return;
            }
        }
        self.complete(index);
    }

    fn end(&mut self, truncated: bool) {
        self.ended = true;
        let Some(stream) = self.stream.as_deref() else {
            return;
        };
        let mut open: [(u64, usize); MAX_STREAM_CALLS] = [(0, 0); MAX_STREAM_CALLS];
        let mut count = 0;
        for (at, call) in stream.calls.iter().enumerate() {
            if call.live && !call.settled && count < MAX_STREAM_CALLS {
                open[count] = (call.index, at);
                count += 1;
            }
        }
        open[..count].sort_unstable();
        let how = match truncated {
            true => Settle::Truncated,
            false => Settle::Check,
        };
        for &(_, call) in &open[..count] {
            self.settle(call, how);
        }
    }

    fn whole(&mut self, span: Span, at: usize) -> Result<(), Error> {
        let Some(stream) = self.stream.as_deref_mut() else {
            return Err(Error::stream_limit(at, "streams", MAX_STREAMS));
        };
        let slot = self
            .whole
            .get_mut(self.wholes)
            .ok_or_else(|| Error::stream_limit(at, "calls in one event", MAX_STREAM_CALLS))?;
        *slot = (stream.next_index, span);
        stream.next_index += 1;
        self.wholes += 1;
        Ok(())
    }
}

/// Reads one event of `format` and tells `events` what it does. Members the table below does
/// not name are skipped, and so are events that are not about a call (text, thinking,
/// reasoning, `ping`, usage).
fn visit(
    input: &[u8],
    event: Value,
    format: Format,
    events: &mut impl Events,
) -> Result<(), Error> {
    match format {
        // A `chat.completion.chunk`: `choices[].delta.tool_calls[]`, each fragment with its
        // `index` (required), and `id`, `function.name` and `function.arguments` when given;
        // `finish_reason` ends the stream: "stop | length | tool_calls | content_filter |
        // function_call" (the enum of openai.yaml, quoted at
        // https://docs.rs/openai-struct/latest/openai_struct/models/finish_reason/enum.FinishReason.html;
        // `ToolCallDelta { index: usize, id: Option<String>, .. }`,
        // https://docs.rs/crate/artificial-openai/0.7.0/source/src/api_v1/chat_completion_stream.rs).
        Format::OpenAi => {
            check_format(input, event, format)?;
            // A stream that fails midway sends `{"error":{...}}` for its last chunk: "This
            // error format is used by vLLM, SGLang, Exo, and OpenAI itself. The official OpenAI
            // Python client handles it by checking `data.get("error")`"
            // (https://github.com/aaif-goose/goose/pull/8027).
            if member(input, event, "error")? && !member(input, event, "choices")? {
                events.end(true);
                return Ok(());
            }
            let Some(choices) = get(input, event, "choices", Kind::ArrayStart, "event.choices")?
            else {
                return Ok(());
            };
            for choice in elements(input, choices, "event.choices[]")? {
                let choice = choice?;
                // One choice is followed: a harness that asks for n > 1 is told so.
                if let Some(index) = get(
                    input,
                    choice,
                    "index",
                    Kind::Number,
                    "event.choices[].index",
                )? {
                    if &input[index.at..index.end] != b"0" {
                        let reason = "call_delta follows choice 0; ask for one choice (n=1)";
                        return Err(Error::refused(index.at, "openai", reason));
                    }
                }
                let label = "event.choices[].delta";
                if let Some(delta) = get(input, choice, "delta", Kind::ObjectStart, label)? {
                    let label = "event.choices[].delta.tool_calls";
                    if let Some(calls) =
                        get_or_null(input, delta, "tool_calls", Kind::ArrayStart, label)?
                    {
                        for fragment in
                            elements(input, calls, "event.choices[].delta.tool_calls[]")?
                        {
                            openai_fragment(input, fragment?, events)?;
                        }
                    }
                }
                let label = "event.choices[].finish_reason";
                if let Some(reason) =
                    get_or_null(input, choice, "finish_reason", Kind::String, label)?
                {
                    let literal = &input[reason.at..reason.end];
                    events
                        .end(string_eq(literal, "length") || string_eq(literal, "content_filter"));
                }
            }
            Ok(())
        }
        // Semantic events, told apart by `type`: a function call's item is added
        // (`output_item.added`, `item.type` "function_call", with `call_id` and `name`), its
        // arguments come in `function_call_arguments.delta` events keyed by `output_index`,
        // `function_call_arguments.done` gives them whole, and `output_item.done` gives the
        // item whole and completes it; `response.completed`, `.incomplete` and `.failed` end
        // the response, and so does `error` (openai-node's types, mirrored at
        // https://v03.api.js.langchain.com/interfaces/_langchain_openai.OpenAIClient.Responses.ResponseFunctionCallArgumentsDeltaEvent.html
        // and ResponseOutputItemAddedEvent.html, ResponseOutputItemDoneEvent.html and
        // ResponseIncompleteEvent.html beside it; "Emitted when function-call arguments are
        // finalized",
        // https://learn.microsoft.com/en-ie/dotnet/api/azure.ai.agentserver.responses.models.responsefunctioncallargumentsdoneevent?view=azure-dotnet;
        // "ResponseErrorEvent : Emitted when an error occurs",
        // https://docs.rs/crate/openai-client-base/0.12.0/source/src/models/response_error_event.rs).
        // The last whole text a provider gives is the call's arguments: OpenAI-compatible
        // servers send them only in the finished item (recorded in
        // tests/streams/recorded/openai_responses_lmstudio_function_call_no_delta.jsonl).
        Format::OpenAiResponses => {
            let kind = event_type(input, event, format)?;
            let index = || event_index(input, event, "output_index", "event.output_index");
            if string_eq(kind, "response.output_item.added")
                || string_eq(kind, "response.output_item.done")
            {
                let Some(item) = get(input, event, "item", Kind::ObjectStart, "event.item")? else {
                    return Err(Error::missing_field(event.end - 1, "event.item"));
                };
                let item_type = get(input, item, "type", Kind::String, "event.item.type")?;
                if !item_type.is_some_and(|t| string_eq(&input[t.at..t.end], "function_call")) {
                    return Ok(());
                }
                let (index, at) = index()?;
                let part = Part {
                    id: string(input, item, "call_id", "event.item.call_id")?,
                    name: string(input, item, "name", "event.item.name")?,
                    arguments: string(input, item, "arguments", "event.item.arguments")?,
                    input: None,
                    name_whole: true,
                };
                if string_eq(kind, "response.output_item.added") {
                    events.start(index, at)?;
                    events.part(index, at, part)?;
                } else {
                    events.done(index, at, part, true)?;
                }
            } else if string_eq(kind, "response.function_call_arguments.delta") {
                let (index, at) = index()?;
                let delta = string(input, event, "delta", "event.delta")?
                    .ok_or_else(|| Error::missing_field(event.end - 1, "event.delta"))?;
                let part = Part {
                    arguments: Some(delta),
                    ..Part::default()
                };
                events.part(index, at, part)?;
            } else if string_eq(kind, "response.function_call_arguments.done") {
                let (index, at) = index()?;
                let part = Part {
                    arguments: string(input, event, "arguments", "event.arguments")?,
                    ..Part::default()
                };
                events.done(index, at, part, false)?;
            } else if string_eq(kind, "response.completed")
                || string_eq(kind, "response.incomplete")
                || string_eq(kind, "response.failed")
                || string_eq(kind, "error")
            {
                events.end(true);
            }
            Ok(())
        }
        // Blocks, each with its `index`, "its index in the final Message content array":
        // `content_block_start` gives the block, `content_block_delta` its pieces
        // (`input_json_delta`'s `partial_json` for a block with input), `content_block_stop`
        // ends it; `message_start` gives the message, whose `content` may already hold whole
        // blocks; `message_stop` ends the message, and `error` ends it too
        // (https://docs.anthropic.com/it/docs/build-with-claude/streaming, and the English text
        // in docs/sources/streams.md). Only a `tool_use` block is a call of the client's: a
        // `server_tool_use` (web search, web fetch, code execution, tool search) or an
        // `mcp_tool_use` block is run by Anthropic, and its input is skipped ("Der
        // `server_tool_use`-Block erscheint in Claudes Antwort",
        // https://platform.claude.com/docs/de/agents-and-tools/tool-use/server-tools.md;
        // `mcp_tool_use` has no stored page, and is seen in the recorded
        // tests/streams/recorded/anthropic_mcp_tool_use.jsonl). A `tool_use` block may come
        // with its `input` whole (a call with a `caller`, programmatic tool calling, recorded
        // in tests/streams/recorded/anthropic_programmatic_tool_calling.jsonl), and then no
        // delta follows. docs/sources/stream-events.md quotes each page.
        Format::Anthropic => {
            let kind = event_type(input, event, format)?;
            let index = || event_index(input, event, "index", "event.index");
            if string_eq(kind, "content_block_start") {
                let label = "event.content_block";
                let Some(block) = get(input, event, "content_block", Kind::ObjectStart, label)?
                else {
                    return Err(Error::missing_field(event.end - 1, label));
                };
                let (index, at) = index()?;
                anthropic_block(input, block, index, at, false, events)?;
            } else if string_eq(kind, "message_start") {
                let label = "event.message";
                let Some(message) = get(input, event, "message", Kind::ObjectStart, label)? else {
                    return Err(Error::missing_field(event.end - 1, label));
                };
                let label = "event.message.content";
                if let Some(content) = get(input, message, "content", Kind::ArrayStart, label)? {
                    for (index, block) in
                        elements(input, content, "event.message.content[]")?.enumerate()
                    {
                        let block = block?;
                        anthropic_block(input, block, index as u64, block.at, true, events)?;
                    }
                }
            } else if string_eq(kind, "content_block_delta") {
                let Some(delta) = get(input, event, "delta", Kind::ObjectStart, "event.delta")?
                else {
                    return Err(Error::missing_field(event.end - 1, "event.delta"));
                };
                let delta_type = get(input, delta, "type", Kind::String, "event.delta.type")?;
                if delta_type.is_some_and(|t| string_eq(&input[t.at..t.end], "input_json_delta")) {
                    let (index, at) = index()?;
                    let part = Part {
                        arguments: string(
                            input,
                            delta,
                            "partial_json",
                            "event.delta.partial_json",
                        )?,
                        ..Part::default()
                    };
                    events.part(index, at, part)?;
                }
            } else if string_eq(kind, "content_block_stop") {
                events.stop(index()?.0);
            } else if string_eq(kind, "message_stop") || string_eq(kind, "error") {
                events.end(true);
            }
            Ok(())
        }
        // A streamed `GenerateContentResponse`: `candidates[].content.parts[].functionCall`,
        // each call whole; a candidate's `finishReason` ends it
        // (https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1beta1/Content).
        Format::Gemini | Format::GeminiJsonSchema => {
            check_format(input, event, format)?;
            // "Gemini emits `{"error":{...}}` on a **200** partway through an SSE response"
            // (https://github.com/ankit373/hydra/pull/874; the same 503 chunk is quoted at
            // https://github.com/diegosouzapw/OmniRoute/pull/4182): it ends the stream.
            if member(input, event, "error")? && !member(input, event, "candidates")? {
                events.end(true);
                return Ok(());
            }
            let label = "event.candidates";
            let Some(candidates) = get(input, event, "candidates", Kind::ArrayStart, label)? else {
                return Ok(());
            };
            for candidate in elements(input, candidates, "event.candidates[]")? {
                let candidate = candidate?;
                let label = "event.candidates[].content";
                if let Some(content) = get(input, candidate, "content", Kind::ObjectStart, label)? {
                    let label = "event.candidates[].content.parts";
                    if let Some(parts) = get(input, content, "parts", Kind::ArrayStart, label)? {
                        for part in elements(input, parts, "event.candidates[].content.parts[]")? {
                            let label = "event.candidates[].content.parts[].functionCall";
                            if let Some(call) =
                                get(input, part?, "functionCall", Kind::ObjectStart, label)?
                            {
                                let span = Span {
                                    at: call.at,
                                    end: call.end,
                                };
                                // Vertex can stream one call's arguments in pieces
                                // (`streamFunctionCallArguments`: "Partial parameter results
                                // will be returned in the [FunctionCall.partial_args] field",
                                // https://googleapis.github.io/java-genai/javadoc/google-genai/com.google.genai.types/-function-calling-config/stream-function-call-arguments.html);
                                // such a piece is not a call, and is refused, not misjudged.
                                // The empty functionCall that ends such a call too.
                                let empty = call.end - call.at == 2;
                                for key in ["partialArgs", "willContinue", ""] {
                                    if (key.is_empty() && empty) || member(input, call, key)? {
                                        let reason = "a functionCall in pieces (partialArgs, \
                                                      willContinue) is not read; turn off \
                                                      streamFunctionCallArguments";
                                        return Err(Error::refused(call.at, "gemini", reason));
                                    }
                                }
                                // The envelope's own errors are the request's, as check_call's.
                                call::read(input, span, Format::Gemini)?;
                                events.whole(span, call.at)?;
                            }
                        }
                    }
                }
                let label = "event.candidates[].finishReason";
                if get(input, candidate, "finishReason", Kind::String, label)?.is_some() {
                    events.end(false);
                }
            }
            Ok(())
        }
        Format::Mcp => Ok(()),
    }
}

/// One Anthropic content block that starts, at `index`: a `tool_use` block starts a call
/// (with its `input` as its arguments when that is not empty; `whole`, in `message_start`,
/// the block is complete); another block that carries `input` is skipped.
fn anthropic_block(
    input: &[u8],
    block: Value,
    index: u64,
    at: usize,
    whole: bool,
    events: &mut impl Events,
) -> Result<(), Error> {
    let block_type = get(
        input,
        block,
        "type",
        Kind::String,
        "event.content_block.type",
    )?;
    let tool_use = block_type.is_some_and(|t| string_eq(&input[t.at..t.end], "tool_use"));
    let arguments = get(
        input,
        block,
        "input",
        Kind::ObjectStart,
        "event.content_block.input",
    )?;
    if !tool_use {
        if arguments.is_some() && !whole {
            events.skip(index, at)?;
        }
        return Ok(());
    }
    events.start(index, at)?;
    let given = arguments.filter(|object| {
        let mut tokens = Tokenizer::new(&input[object.at..object.end]);
        let _open = tokens.expect_token();
        !matches!(tokens.expect_token(), Ok(token) if token.kind == Kind::ObjectEnd)
    });
    let part = Part {
        id: string(input, block, "id", "event.content_block.id")?,
        name: string(input, block, "name", "event.content_block.name")?,
        arguments: None,
        input: given.map(|object| Span {
            at: object.at,
            end: object.end,
        }),
        name_whole: true,
    };
    events.part(index, at, part)?;
    if whole {
        events.complete(index);
    }
    Ok(())
}

/// Whether `event` is one of `format`'s, or the error that names the format it looks like:
/// an event of another format is not read as nothing in silence. An OpenAI chunk has
/// `choices` (or `object` "chat.completion.chunk", or an `error`); a Responses event a `type`
/// that starts `response.`, or `error`; an Anthropic event one of its `type`s; a Gemini
/// response `candidates`, `usageMetadata`, `promptFeedback`, `modelVersion`, `responseId` or an
/// `error`.
fn check_format(input: &[u8], event: Value, format: Format) -> Result<(), Error> {
    let has = |key| member(input, event, key);
    let kind = get(input, event, "type", Kind::String, "event.type")
        .ok()
        .flatten()
        .map(|t| &input[t.at..t.end]);
    let anthropic =
        kind.is_some_and(|kind| ANTHROPIC_EVENTS.iter().any(|known| string_eq(kind, known)));
    let responses =
        kind.is_some_and(|kind| kind.starts_with(b"\"response.") || string_eq(kind, "error"));
    let openai = has("choices")? || has("object")?;
    let gemini = has("candidates")?
        || has("usageMetadata")?
        || has("promptFeedback")?
        || has("modelVersion")?
        || has("responseId")?;
    let fits = match format {
        Format::OpenAi => openai || (kind.is_none() && has("error")?),
        Format::OpenAiResponses => responses,
        Format::Anthropic => anthropic,
        Format::Gemini | Format::GeminiJsonSchema => gemini || (kind.is_none() && has("error")?),
        Format::Mcp => true,
    };
    if fits {
        return Ok(());
    }
    let looks = if anthropic {
        Some(Format::Anthropic)
    } else if responses {
        Some(Format::OpenAiResponses)
    } else if openai {
        Some(Format::OpenAi)
    } else if gemini {
        Some(Format::Gemini)
    } else {
        None
    };
    Err(Error::wrong_format(
        event.at,
        format.name(),
        looks.map(Format::name),
    ))
}

/// The `type`s of Anthropic's stream events
/// (https://docs.anthropic.com/it/docs/build-with-claude/streaming).
const ANTHROPIC_EVENTS: [&str; 8] = [
    "message_start",
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
    "ping",
    "error",
];

/// One of OpenAI's `delta.tool_calls[]` fragments.
fn openai_fragment(input: &[u8], fragment: Value, events: &mut impl Events) -> Result<(), Error> {
    let label = "event.choices[].delta.tool_calls[].index";
    let value = get(input, fragment, "index", Kind::Number, label)?
        .ok_or_else(|| Error::missing_field(fragment.end - 1, label))?;
    let index = number(input, value, label)?;
    let mut part = Part {
        id: string(
            input,
            fragment,
            "id",
            "event.choices[].delta.tool_calls[].id",
        )?,
        ..Part::default()
    };
    let label = "event.choices[].delta.tool_calls[].function";
    if let Some(function) = get_or_null(input, fragment, "function", Kind::ObjectStart, label)? {
        part.name = string(
            input,
            function,
            "name",
            "event.choices[].delta.tool_calls[].function.name",
        )?;
        let label = "event.choices[].delta.tool_calls[].function.arguments";
        part.arguments = string(input, function, "arguments", label)?;
    }
    events.part(index, value.at, part)
}

/// The member `key` of the object `object`, which must be of `kind` (`True` for a boolean).
fn get(
    input: &[u8],
    object: Value,
    key: &str,
    kind: Kind,
    label: &'static str,
) -> Result<Option<Value>, Error> {
    get_or_null(input, object, key, kind, label)
}

/// [`get`], where `null` stands for absent: OpenAI writes `"finish_reason":null` and
/// `"tool_calls":null`.
fn get_or_null(
    input: &[u8],
    object: Value,
    key: &str,
    kind: Kind,
    label: &'static str,
) -> Result<Option<Value>, Error> {
    let base = object.at;
    let mut tokens = Tokenizer::new(&input[base..object.end]);
    let malformed = |tokens: &Tokenizer<'_>| tokens.error().shifted(base);
    let open = tokens.expect_token().map_err(|_| malformed(&tokens))?;
    debug_assert_eq!(open.kind, Kind::ObjectStart);
    loop {
        let name = tokens.expect_token().map_err(|_| malformed(&tokens))?;
        if name.kind == Kind::ObjectEnd {
            return Ok(None);
        }
        let value = tokens.expect_token().map_err(|_| malformed(&tokens))?;
        let end = tokens.skip(value).map_err(|_| malformed(&tokens))?;
        if string_eq(name.raw, key) {
            if value.kind == Kind::Null {
                return Ok(None);
            }
            let same = value.kind == kind || (kind == Kind::True && value.kind == Kind::False);
            if !same {
                return Err(Error::wrong_type(
                    base + value.at,
                    label,
                    kind.described(),
                    value.kind.described(),
                ));
            }
            return Ok(Some(Value {
                kind: value.kind,
                at: base + value.at,
                end: base + end,
            }));
        }
    }
}

/// Whether `object` has the member `key`, whatever its value.
fn member(input: &[u8], object: Value, key: &str) -> Result<bool, Error> {
    let mut tokens = Tokenizer::new(&input[object.at..object.end]);
    let malformed = |tokens: &Tokenizer<'_>| tokens.error().shifted(object.at);
    tokens.expect_token().map_err(|_| malformed(&tokens))?;
    loop {
        let name = tokens.expect_token().map_err(|_| malformed(&tokens))?;
        if name.kind == Kind::ObjectEnd {
            return Ok(false);
        }
        if string_eq(name.raw, key) {
            return Ok(true);
        }
        let value = tokens.expect_token().map_err(|_| malformed(&tokens))?;
        tokens.skip(value).map_err(|_| malformed(&tokens))?;
    }
}

/// The member `key` of `object`, a string literal when given.
fn string(
    input: &[u8],
    object: Value,
    key: &str,
    label: &'static str,
) -> Result<Option<Span>, Error> {
    Ok(
        get_or_null(input, object, key, Kind::String, label)?.map(|value| Span {
            at: value.at,
            end: value.end,
        }),
    )
}

/// An event's `type`, which the Responses API's events and Anthropic's carry: the literal,
/// once [`check_format`] has found it one of `format`'s.
fn event_type(input: &[u8], event: Value, format: Format) -> Result<&[u8], Error> {
    check_format(input, event, format)?;
    match get(input, event, "type", Kind::String, "event.type")? {
        Some(kind) => Ok(&input[kind.at..kind.end]),
        None => Err(Error::missing_field(event.end - 1, "event.type")),
    }
}

/// The index an event about a call must carry, in its member `key`, and where it is.
fn event_index(
    input: &[u8],
    event: Value,
    key: &str,
    label: &'static str,
) -> Result<(u64, usize), Error> {
    let value = get(input, event, key, Kind::Number, label)?
        .ok_or_else(|| Error::missing_field(event.end - 1, label))?;
    Ok((number(input, value, label)?, value.at))
}

/// An index: a whole number that fits in a `u64`.
fn number(input: &[u8], value: Value, label: &'static str) -> Result<u64, Error> {
    std::str::from_utf8(&input[value.at..value.end])
        .ok()
        .and_then(|text| text.parse().ok())
        .ok_or_else(|| Error::wrong_type(value.at, label, "a whole number", "a number"))
}

/// The elements of the array `array`, each an object.
fn elements<'i>(
    input: &'i [u8],
    array: Value,
    label: &'static str,
) -> Result<impl Iterator<Item = Result<Value, Error>> + 'i, Error> {
    let base = array.at;
    let mut tokens = Tokenizer::new(&input[base..array.end]);
    tokens
        .expect_token()
        .map_err(|_| tokens.error().shifted(base))?;
    let mut done = false;
    Ok(std::iter::from_fn(move || {
        if done {
            return None;
        }
        let element = match tokens.expect_token() {
            Ok(element) => element,
            Err(_) => {
                done = true;
                return Some(Err(tokens.error().shifted(base)));
            }
        };
        if element.kind == Kind::ArrayEnd {
            done = true;
            return None;
        }
        if element.kind != Kind::ObjectStart {
            done = true;
            let found = element.kind.described();
            let at = base + element.at;
            return Some(Err(Error::wrong_type(at, label, "an object", found)));
        }
        match tokens.skip(element) {
            Ok(end) => Some(Ok(Value {
                kind: element.kind,
                at: base + element.at,
                end: base + end,
            })),
            Err(_) => {
                done = true;
                Some(Err(tokens.error().shifted(base)))
            }
        }
    }))
}

/// Appends the JSON text `json` to `out` as the inside of a string literal holding it: the
/// form fragments of arguments come in.
fn escape_into(out: &mut Vec<u8>, json: &[u8]) {
    for &byte in json {
        match byte {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            _ => out.push(byte),
        }
    }
}

/// Whether two literals' insides (valid, each escape whole) hold the same text.
fn same_text(a: &[u8], b: &[u8]) -> bool {
    a == b || crate::validate::inside_chars(a).eq(crate::validate::inside_chars(b))
}

/// Writes the verdict on one settled call: `check_call`'s on the call assembled, or the
/// stream's own when it could not be assembled (no name, no id, cut).
#[allow(clippy::too_many_arguments)] // the call, and what judging it needs
fn verdict(
    model: Model<'_>,
    open: &OpenCall,
    how: Settle,
    shape: Shape,
    envelope: &mut Vec<u8>,
    out: &mut dyn Write,
    check: &mut Check<'_>,
) -> io::Result<()> {
    let format = shape.format();
    let needs_id = matches!(
        format,
        Format::OpenAi | Format::OpenAiResponses | Format::Anthropic
    );
    let problem = match how {
        Settle::Truncated => Some((
            "truncated_arguments",
            "the stream ended before this call's arguments did",
        )),
        Settle::Conflict => Some((
            "conflicting_arguments",
            "the stream gave this call's arguments twice, and they differ (whole, and in \
             pieces); neither was judged",
        )),
        _ if !open.has_name => Some(("missing_name", "the stream gave this call no name")),
        _ if needs_id && !open.has_id => Some(("missing_id", "the stream gave this call no id")),
        Settle::Check | Settle::Early => None,
    };
    if let Some((code, message)) = problem {
        write!(
            out,
            "{{\"errors\":[{{\"code\":\"{code}\",\"message\":\"{message}\",\"path\":\"\"}}],"
        )?;
        if open.has_id {
            out.write_all(b"\"id\":\"")?;
            out.write_all(&open.id)?;
            out.write_all(b"\",")?;
        }
        if open.has_name {
            out.write_all(b"\"name\":\"")?;
            out.write_all(&open.name)?;
            out.write_all(b"\",")?;
        }
        return out.write_all(b"\"ok\":false}");
    }
    envelope.clear();
    let mut literal = |bytes: &[u8]| {
        let at = envelope.len();
        envelope.push(b'"');
        envelope.extend_from_slice(bytes);
        envelope.push(b'"');
        Span {
            at,
            end: envelope.len(),
        }
    };
    let id = open.has_id.then(|| literal(&open.id));
    let name = literal(&open.name);
    // Anthropic's input starts as `{}` and a tool without parameters may stream nothing of it.
    let arguments = match (format, open.arguments.is_empty()) {
        (Format::Anthropic, true) => literal(b"{}"),
        _ => literal(&open.arguments),
    };
    let call = Call {
        name,
        id: id.filter(|_| needs_id),
        arguments: Arguments::Text(arguments),
    };
    if let (Settle::Early, Some(early), Some(tool)) = (how, &open.early, open.tool) {
        let text = |span: Span| &envelope[span.at..span.end];
        let parts = Parts {
            format,
            name: text(call.name),
            id: call.id.map(text),
        };
        let nullable = verdict::nullable_optionals(shape);
        let mut out = WithoutNewline::new(out);
        return early_verdict(&mut out, &parts, model, tool, early, nullable);
    }
    check(envelope, &call, shape, &mut WithoutNewline::new(out))
}

/// Judges a top-level key, container or scalar that the reader found whole, by `check.rs`'s
/// own rules for a flat tool's arguments; keeps what it found wrong in `open.early`.
fn judge(
    open: &mut OpenCall,
    model: Model<'_>,
    tool: usize,
    certain: Certain,
    nullable_optionals: bool,
) -> Option<Settle> {
    let root = model.input(&model.tools[tool]);
    let found = |open: &OpenCall, what, kind, value: &[u8]| {
        let mut early = Early {
            what,
            key: open.key,
            key_len: open.key_len,
            value: [0; KEPT],
            value_len: value.len(),
            kind,
        };
        early.value[..value.len()].copy_from_slice(value);
        early
    };
    match certain {
        Certain::Key => {
            open.property = None;
            let literal = open.partial.literal()?;
            open.key[..literal.len()].copy_from_slice(literal);
            open.key_len = literal.len();
            let Some(index) = check::property_index(model, root, literal) else {
                open.early = Some(found(open, EarlyWhat::Unknown, Kind::String, b""));
                return Some(Settle::Early);
            };
            if index < 64 {
                if open.given & (1 << index) != 0 {
                    open.early = Some(found(open, EarlyWhat::Duplicate, Kind::String, b""));
                    return Some(Settle::Early);
                }
                open.given |= 1 << index;
            }
            open.property = Some(index);
            None
        }
        Certain::Container(kind) => {
            let index = open.property.take()?;
            let schema = model.node(model.properties(root)[index].schema);
            check::container(schema, kind)
                .is_none()
                .then(|| open.early = Some(found(open, EarlyWhat::Value(index), kind, b"")))
                .map(|()| Settle::Early)
        }
        Certain::Scalar(kind) => {
            let index = open.property.take()?;
            let literal = open.partial.literal()?;
            let property = &model.properties(root)[index];
            let schema = model.node(property.schema);
            let token = Token {
                kind,
                at: 0,
                raw: literal,
            };
            let nullable = nullable_optionals && !property.required;
            check::scalar(model, token, schema, nullable)?;
            open.early = Some(found(open, EarlyWhat::Value(index), kind, literal));
            Some(Settle::Early)
        }
        Certain::No | Certain::Malformed => None,
    }
}

/// Writes the verdict on a call with one argument certainly wrong: that problem, as `check.rs`
/// finds it again, in `check_call`'s words.
fn early_verdict(
    mut out: &mut dyn Write,
    parts: &Parts<'_>,
    model: Model<'_>,
    tool: usize,
    early: &Early,
    nullable_optionals: bool,
) -> io::Result<()> {
    let root = model.input(&model.tools[tool]);
    let key = &early.key[..early.key_len];
    let what = match early.what {
        EarlyWhat::Unknown => What::Unknown { object: root },
        EarlyWhat::Duplicate => What::Duplicate,
        EarlyWhat::Value(index) => {
            let property = &model.properties(root)[index];
            let schema = model.node(property.schema);
            let nullable = nullable_optionals && !property.required;
            match early.kind {
                Kind::ObjectStart | Kind::ArrayStart => {
                    check::wrong_container(schema, early.kind, nullable)
                }
                kind => {
                    let raw = &early.value[..early.value_len];
                    let token = Token { kind, at: 0, raw };
                    match check::scalar(model, token, schema, nullable) {
                        Some(what) => what,
                        None => check::wrong_container(schema, kind, nullable),
                    }
                }
            }
        }
    };
    let mut problems: Problems<'_, 2> = Problems::new();
    problems.met(&Path::EMPTY, Some(Segment::Key(key)), what);
    verdict::invalid(&mut out, parts, model, &model.tools[tool], &problems)
}
