//! `tool_choice`: the request fields that tell a provider whether the model may, must or must
//! not call a tool, or which one, and whether it may call several in one turn.
//!
//! One answer per format, spelled as each provider's documentation spells it; the rule beside
//! each spelling cites the stored page (`docs/sources/tool-choice.md` holds the quotes). A
//! combination the provider has no way to say is refused with `unsupported`, naming why,
//! rather than answered with fields the provider would reject or ignore.

use crate::wire::Format;
use std::io::{self, Write};

/// What the model may do with the catalog's tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Call any tools, or none: the providers' default when tools are sent.
    Auto,
    /// Call no tool.
    None,
    /// Call one or more tools.
    Required,
    /// Call this tool (an index of the catalog).
    Tool(usize),
}

/// The words `choice` may be, in the order of [`Choice`]'s first three.
pub(crate) const CHOICE_WORDS: [&str; 3] = ["auto", "none", "required"];

/// What `choice` may be, for an error's message.
pub(crate) const CHOICE_EXPECTED: &str = "\"auto\", \"none\", \"required\" or {\"tool\":NAME}";

/// Why a format cannot say what was asked: the one-line reason an `unsupported` error gives.
pub(crate) type Refusal = &'static str;

/// Refuses what a format cannot say, before anything is written: MCP has no tool choice, and
/// Gemini no switch for parallel calls.
pub(crate) fn refusal(format: Format, parallel: Option<bool>) -> Option<Refusal> {
    match (format, parallel) {
        // MCP's tools/list and tools/call carry no tool choice: which tools a model may call is
        // the host's decision, in the provider request it makes.
        (Format::Mcp, _) => Some(
            "MCP has no tool choice (tools/list and tools/call carry none); ask for the \
             format of the provider the host sends its request to",
        ),
        // Gemini's FunctionCallingConfig has only `mode` and `allowedFunctionNames`: no field
        // for parallel calls, which the model may make in any mode
        // (https://ai.google.dev/api/python/google/generativeai/protos/FunctionCallingConfig;
        // Google's own SDK has it as an open feature request,
        // https://github.com/googleapis/python-genai/issues/1831).
        (Format::Gemini | Format::GeminiJsonSchema, Some(_)) => Some(
            "Gemini has no switch for parallel calls (functionCallingConfig has only mode and \
             allowedFunctionNames); leave \"parallel\" out",
        ),
        _ => None,
    }
}

/// Writes the request fields for `choice` in `format`, one canonical line: keys sorted, compact,
/// a trailing newline. `name` is the forced tool's name, when there is one: a catalog name,
/// which the reader allows only in `[a-zA-Z0-9_-]`, so it is written as it is. The caller has
/// asked [`refusal`] first.
pub(crate) fn write(
    out: &mut impl Write,
    format: Format,
    choice: Choice,
    name: &str,
    parallel: Option<bool>,
) -> io::Result<()> {
    match format {
        Format::OpenAi | Format::OpenAiResponses => {
            // Chat Completions: `tool_choice` is "none", "auto", "required" or
            // {"type":"function","function":{"name":...}}, and `parallel_tool_calls` a boolean
            // beside it (https://github.com/openai/openai-python/blob/04448952820aa3029e61907c1785a7293c3ddbc2/src/openai/types/chat/completion_create_params.py).
            // Responses: the same words, the named form flat, {"type":"function","name":...}
            // (https://github.com/openai/openai-python/blob/3e19420bd6d58a7c6795b1233e0e2f0477010898/src/openai/types/responses/tool_choice_function_param.py),
            // and `parallel_tool_calls` too (response_create_params.py, same repository).
            out.write_all(b"{")?;
            if let Some(parallel) = parallel {
                out.write_all(b"\"parallel_tool_calls\":")?;
                out.write_all(if parallel { b"true," } else { b"false," })?;
            }
            out.write_all(b"\"tool_choice\":")?;
            match (choice, format) {
                (Choice::Tool(_), Format::OpenAi) => named(
                    out,
                    b"{\"function\":{\"name\":\"",
                    name,
                    b"\"},\"type\":\"function\"}",
                )?,
                (Choice::Tool(_), _) => {
                    named(out, b"{\"name\":\"", name, b"\",\"type\":\"function\"}")?
                }
                (Choice::Auto, _) => out.write_all(b"\"auto\"")?,
                (Choice::None, _) => out.write_all(b"\"none\"")?,
                (Choice::Required, _) => out.write_all(b"\"required\"")?,
            }
            out.write_all(b"}\n")
        }
        Format::Anthropic => {
            // {"type":"auto"|"any"|"tool"|"none"}, `name` with "tool"
            // (https://github.com/anthropics/skills/blob/0b1d39a490d978c872d26c537a2d16fc96df7c9c/skills/claude-api/shared/tool-use-concepts.md).
            // Parallel use is the default; `disable_parallel_tool_use: true` on auto, any or
            // tool makes it at most one call, or exactly one
            // (https://platform.claude.com/docs/en/agents-and-tools/tool-use/parallel-tool-use.md).
            // "none" has no such field (anthropic-sdk-python's tool_choice_none_param.py), and
            // needs none: it allows no call at all.
            out.write_all(b"{\"tool_choice\":{")?;
            if parallel == Some(false) && choice != Choice::None {
                out.write_all(b"\"disable_parallel_tool_use\":true,")?;
            }
            match choice {
                Choice::Auto => out.write_all(b"\"type\":\"auto\"")?,
                Choice::None => out.write_all(b"\"type\":\"none\"")?,
                Choice::Required => out.write_all(b"\"type\":\"any\"")?,
                Choice::Tool(_) => named(out, b"\"name\":\"", name, b"\",\"type\":\"tool\"")?,
            }
            out.write_all(b"}}\n")
        }
        Format::Gemini | Format::GeminiJsonSchema => {
            // toolConfig.functionCallingConfig: `mode` AUTO (the default), ANY or NONE, and
            // `allowedFunctionNames`, "only set when the Mode is ANY"
            // (https://ai.google.dev/api/python/google/generativeai/protos/FunctionCallingConfig).
            out.write_all(b"{\"toolConfig\":{\"functionCallingConfig\":{")?;
            match choice {
                Choice::Auto => out.write_all(b"\"mode\":\"AUTO\"")?,
                Choice::None => out.write_all(b"\"mode\":\"NONE\"")?,
                Choice::Required => out.write_all(b"\"mode\":\"ANY\"")?,
                Choice::Tool(_) => named(
                    out,
                    b"\"allowedFunctionNames\":[\"",
                    name,
                    b"\"],\"mode\":\"ANY\"",
                )?,
            }
            out.write_all(b"}}}\n")
        }
        // Refused by `refusal`; nothing is written.
        Format::Mcp => Ok(()),
    }
}

/// A forced tool's form: its name between the format's bytes before and after it.
fn named(out: &mut impl Write, before: &[u8], name: &str, after: &[u8]) -> io::Result<()> {
    out.write_all(before)?;
    out.write_all(name.as_bytes())?;
    out.write_all(after)
}
