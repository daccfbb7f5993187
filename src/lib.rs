#![forbid(unsafe_code)]
//! Function-calling declarations for an agent's file tools, byte for byte the same every time.
//!
//! A harness sends one JSON request, `{"op":"tool_schema","tool":"read_file"}`, and gets back the
//! declaration to put in the `tools` list of an OpenAI / OpenRouter request (or, with `format`,
//! of an OpenAI Responses, Anthropic, Gemini or MCP one): compact JSON, object keys sorted at
//! every level, non-ASCII as raw UTF-8, one trailing newline. Providers cache prompts by exact
//! prefix, and tool declarations sit at the front of it, so the bytes never vary.
//!
//! [`respond`] is the whole library; the `tool-schema` binary is a thin shell around it.
//!
//! Non-goals: this is not a general JSON library (the tokenizer validates and borrows; it builds
//! no values), not a JSON Schema validator, and not a way to declare tools at run time: the
//! catalog is static data, checked and rendered when the crate is compiled.

pub mod catalog;
mod error;
mod request;
mod respond;
mod stream;
pub mod tokenizer;
pub mod wire;
pub mod writer;

pub use error::{Error, MAX_DEPTH, MAX_INPUT};
pub use respond::{respond, MAX_OUTPUT};
pub use stream::serve;
pub use wire::{Format, Shape};
