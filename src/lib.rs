#![forbid(unsafe_code)]
#![deny(missing_docs)]
//! Both halves of an agent's tool contract: the function-calling declarations of a catalog of
//! tools, byte for byte the same every time, and the check of the calls a model sends back.
//!
//! A harness sends one JSON request, `{"op":"tool_schema","tool":"read_file"}`, and gets back the
//! declaration to put in the `tools` list of an OpenAI / OpenRouter request (or, with `format`,
//! of an OpenAI Responses, Anthropic, Gemini or MCP one): compact JSON, object keys sorted at
//! every level, non-ASCII as raw UTF-8, one trailing newline. Providers cache prompts by exact
//! prefix, and tool declarations sit at the front of it, so the bytes never vary.
//!
//! `{"op":"check_call","call":C}` takes a tool call as the provider returned it and answers with
//! its arguments in canonical (RFC 8785) form, or with what is wrong with them and the message
//! that tells the model so, in the provider's shape.
//!
//! [`respond()`] answers one request and [`serve`] a stream of them; the `tool-schema` binary is
//! a thin shell around the two. [`Tools`] is the typed face of the same engine, for a Rust
//! harness: declarations and tool lists by [`Shape`], a call's [`Verdict`], a [`CallStream`]
//! per streamed response. `examples/harness.rs` is a whole harness loop.
//!
//! ```
//! use tool_schema::{Format, Shape, Tools};
//! let anthropic = Shape::new(Format::Anthropic, false).unwrap();
//! let call = br#"{"type":"tool_use","id":"t1","name":"read_file","input":{"path":"a.md"}}"#;
//! let verdict = Tools::Compiled.check_call(anthropic, call)?;
//! assert_eq!(verdict.arguments.as_deref(), Some(r#"{"path":"a.md"}"#));
//! # Ok::<(), tool_schema::Error>(())
//! ```
//!
//! ```
//! let mut out = Vec::new();
//! tool_schema::respond(br#"{"op":"tool_list","format":"mcp"}"#, &mut out)?;
//! // `out` holds exactly what the CLI prints: one JSON array and a newline.
//! assert!(out.starts_with(b"[") && out.ends_with(b"]\n"));
//! # Ok::<(), tool_schema::Error>(())
//! ```
//!
//! The tools come from a catalog file, an MCP `tools/list` array (`src/catalog.json` by default,
//! or the file named by `TOOL_SCHEMA_CATALOG` when the crate is built), which `build.rs` checks
//! against every provider's rules and turns into static tables. A catalog known only at run time
//! (an MCP client's) goes through the same reader and renderer as a [`RuntimeCatalog`].
//!
//! Non-goals: this is not a general JSON library (the tokenizer validates and borrows; it builds
//! no values), not a general JSON Schema validator (a catalog uses a stated subset, and a call is
//! checked against its own tool's schema only, with unknown arguments always refused), and not
//! a way to change a catalog per request: a catalog is checked and rendered once, when the crate
//! is compiled or when a [`RuntimeCatalog`] is read, so a bad catalog is refused there, never by
//! a request.
//!
//! # Documentation
//!
//! The repository's `README.md` is the front page. Its `docs/` directory has one page per
//! subject, and every request example in them is run by the tests:
//!
//! - `docs/protocol.md`: requests and answers, the ops, stream mode, the command line and this
//!   library;
//! - `docs/formats.md`: the six formats and strict mode;
//! - `docs/catalogs.md`: the catalog file, its rules, the schema subset and the rendering per
//!   provider;
//! - `docs/checking-calls.md`: `check_call`, its answers, problem codes and rules;
//! - `docs/errors.md`: every error code, as [`Error::code`] returns it;
//! - `docs/security.md`: the threat model and the limits ([`MAX_INPUT`], [`MAX_DEPTH`],
//!   [`MAX_OUTPUT`]);
//! - `docs/performance.md`, `docs/conformance.md` and `docs/fuzzing.md`: the figures, the
//!   conformance tests and the fuzz targets.
//!
//! `DESIGN.md` says why the parts are shaped as they are.

mod call;
mod call_stream;
mod canonical;
#[doc(hidden)]
pub mod catalog;
#[doc(hidden)]
pub mod catalog_file;
mod check;
mod error;
mod escaped_value;
#[doc(hidden)]
pub mod format;
mod harness;
mod layout;
mod nested_value;
#[doc(hidden)]
pub mod number;
mod partial_arguments;
mod quick_call;
#[doc(hidden)]
pub mod regex;
mod request;
mod respond;
#[doc(hidden)]
pub mod review;
mod runtime;
#[doc(hidden)]
pub mod schema;
mod sink;
mod spelling;
mod stream;
#[doc(hidden)]
pub mod tokenizer;
mod tool_choice;
mod turn;
mod validate;
mod verdict;
#[doc(hidden)]
pub mod wire;
#[doc(hidden)]
pub mod writer;

pub use call_stream::{CallStreams, MAX_CALL_ARGUMENTS, MAX_STREAMS, MAX_STREAM_CALLS};
pub use catalog_file::CatalogError;
pub use error::{Error, ErrorCode, MAX_DEPTH, MAX_INPUT};
pub use harness::{CallStream, Choice, Problem, ProblemCode, Settled, Tools, Verdict};
pub use respond::respond;
pub use review::Finding;
pub use runtime::{BadTool, RuntimeCatalog};
pub use stream::{serve, serve_catalog, serve_refused_catalog};
pub use wire::{Format, Shape};
pub use writer::MAX_OUTPUT;
