#![forbid(unsafe_code)]
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
//! a thin shell around the two. [`catalog_file`] is the catalog reader that the build runs,
//! exposed for tests and fuzzing.
//!
//! The tools come from a catalog file, an MCP `tools/list` array (`src/catalog.json` by default,
//! or the file named by `TOOL_SCHEMA_CATALOG` when the crate is built), which `build.rs` checks
//! against every provider's rules and turns into static tables.
//!
//! Non-goals: this is not a general JSON library (the tokenizer validates and borrows; it builds
//! no values), not a general JSON Schema validator (a catalog uses a stated subset, and a call is
//! checked against its own tool's schema only, with unknown arguments always refused), and not
//! a way to declare tools at run time: the catalog is checked and rendered when the crate is
//! compiled, so a bad catalog fails the build, not a request.

mod call;
mod canonical;
pub mod catalog;
pub mod catalog_file;
mod check;
mod error;
mod quick_call;
mod request;
mod respond;
pub mod schema;
mod sink;
mod stream;
pub mod tokenizer;
mod verdict;
pub mod wire;
pub mod writer;

pub use error::{Error, MAX_DEPTH, MAX_INPUT};
pub use respond::respond;
pub use stream::serve;
pub use wire::{Format, Shape};
pub use writer::MAX_OUTPUT;
