//! The providers' wire shapes: the envelope around a tool's parameter schema, and what strict
//! mode changes, for each format.
//!
//! Every shape is a `const fn` over the writer's byte sink: the declarations are rendered when the crate is
//! compiled (see `writer.rs`). Keys are written in byte order by hand; the tests check the output.
//! Each rule below was checked against the provider's own documentation, cited beside it.

use crate::catalog::{self, Tool};
use crate::writer::Buf;

/// Which provider's shape to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// OpenAI / OpenRouter Chat Completions `tools` entry. The default.
    OpenAi,
    /// OpenAI Responses API `tools` entry.
    OpenAiResponses,
    /// Anthropic Messages API `tools` entry.
    Anthropic,
    /// One entry of Google Gemini's `functionDeclarations`.
    Gemini,
    /// One entry of an MCP server's `tools/list` result.
    Mcp,
}

impl Format {
    /// Every format, in the order error messages list them.
    pub const ALL: [Format; 5] = [
        Format::OpenAi,
        Format::OpenAiResponses,
        Format::Anthropic,
        Format::Gemini,
        Format::Mcp,
    ];

    /// Every format's name, in the order of [`Format::ALL`].
    pub const NAMES: [&'static str; Format::ALL.len()] = {
        let mut names = [""; Format::ALL.len()];
        let mut i = 0;
        while i < names.len() {
            names[i] = Format::ALL[i].name();
            i += 1;
        }
        names
    };

    /// The name a request gives it.
    pub const fn name(self) -> &'static str {
        match self {
            Format::OpenAi => "openai",
            Format::OpenAiResponses => "openai_responses",
            Format::Anthropic => "anthropic",
            Format::Gemini => "gemini",
            Format::Mcp => "mcp",
        }
    }

    /// Whether the provider has a strict mode that this program can express.
    ///
    /// Gemini's `FunctionDeclaration` has no strict flag (it is a subset of OpenAPI 3.0:
    /// ai.google.dev/api/caching#FunctionDeclaration), and MCP's `Tool` has none either
    /// (modelcontextprotocol.io/specification, schema.ts `Tool`), so both refuse `strict: true`
    /// rather than silently ignore it.
    pub const fn has_strict(self) -> bool {
        matches!(
            self,
            Format::OpenAi | Format::OpenAiResponses | Format::Anthropic
        )
    }
}

/// The names of all formats, for error messages: `openai, openai_responses, ...`.
pub(crate) struct FormatNames;

impl std::fmt::Display for FormatNames {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, format) in Format::ALL.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(format.name())?;
        }
        Ok(())
    }
}

/// A format and whether strict mode is on: everything besides the tool that decides the bytes.
/// Only combinations the format supports can be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    format: Format,
    strict: bool,
}

impl Shape {
    /// `None` when `strict` is asked of a format without a strict mode.
    #[inline]
    pub const fn new(format: Format, strict: bool) -> Option<Shape> {
        if strict && !format.has_strict() {
            None
        } else {
            Some(Shape { format, strict })
        }
    }

    pub const fn format(self) -> Format {
        self.format
    }

    pub const fn strict(self) -> bool {
        self.strict
    }

    /// Every shape there is, strict after non-strict within a format.
    pub fn all() -> impl Iterator<Item = Shape> {
        let both = |format| [false, true].map(move |strict| Shape::new(format, strict));
        Format::ALL.into_iter().flat_map(both).flatten()
    }
}

/// How the parameter schema is written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Schema {
    /// As the catalog has it.
    Plain,
    /// Closed with `additionalProperties: false`; `required` unchanged (Anthropic strict).
    Closed,
    /// Closed, every property required, optional ones nullable (OpenAI strict).
    AllRequired,
}

/// One tool's declaration in `shape`, without a trailing newline.
pub(crate) const fn declaration<const N: usize>(out: &mut Buf<N>, tool: &Tool, shape: Shape) {
    let strict = shape.strict;
    match shape.format {
        // platform.openai.com/docs/api-reference/chat/create#tools: {"type":"function",
        // "function":{"name","description","parameters","strict"}}. `strict` is written only
        // when true, so a plain request keeps its bytes.
        Format::OpenAi => {
            out.raw(b"{\"function\":{");
            description_name_parameters(out, tool, openai_schema(strict));
            if strict {
                out.raw(b",\"strict\":true");
            }
            out.raw(b"},\"type\":\"function\"}");
        }
        // platform.openai.com/docs/api-reference/responses/create#tools: a flat
        // {"type":"function","name","description","parameters","strict"}. The function-calling
        // guide says a Responses request that omits `strict` is normalised into strict mode,
        // while Chat Completions stays non-strict: the default differs, so it is always written.
        Format::OpenAiResponses => {
            out.raw(b"{");
            description_name_parameters(out, tool, openai_schema(strict));
            out.raw(b",\"strict\":");
            out.boolean(strict);
            out.raw(b",\"type\":\"function\"}");
        }
        // platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use: `strict: true`
        // sits beside name, description and input_schema, and the structured-outputs JSON Schema
        // limitations ask for `additionalProperties: false` on objects. Optional properties stay
        // optional: Anthropic's strict mode does not require every property to be listed.
        Format::Anthropic => {
            out.raw(b"{\"description\":");
            out.string(tool.description);
            out.raw(b",\"input_schema\":");
            parameters(
                out,
                tool,
                if strict {
                    Schema::Closed
                } else {
                    Schema::Plain
                },
            );
            out.raw(b",\"name\":");
            out.string(tool.name);
            if strict {
                out.raw(b",\"strict\":true");
            }
            out.raw(b"}");
        }
        // ai.google.dev/api/caching#FunctionDeclaration: name, description, parameters. Names
        // must start with a letter or underscore (checked in the catalog).
        Format::Gemini => {
            out.raw(b"{");
            description_name_parameters(out, tool, Schema::Plain);
            out.raw(b"}");
        }
        // modelcontextprotocol.io/specification (schema.ts, `Tool` and `ToolAnnotations`):
        // name, description, inputSchema, annotations. All four hints are written out, because
        // their defaults (destructive and open-world true) are the opposite of these tools.
        Format::Mcp => {
            let hints = &tool.hints;
            out.raw(b"{\"annotations\":{\"destructiveHint\":");
            out.boolean(hints.destructive);
            out.raw(b",\"idempotentHint\":");
            out.boolean(hints.idempotent);
            out.raw(b",\"openWorldHint\":");
            out.boolean(hints.open_world);
            out.raw(b",\"readOnlyHint\":");
            out.boolean(hints.read_only);
            out.raw(b"},\"description\":");
            out.string(tool.description);
            out.raw(b",\"inputSchema\":");
            parameters(out, tool, Schema::Plain);
            out.raw(b",\"name\":");
            out.string(tool.name);
            out.raw(b"}");
        }
    }
}

/// `"description":D,"name":N,"parameters":P`, the run of keys that OpenAI's two shapes and
/// Gemini's share.
const fn description_name_parameters<const N: usize>(
    out: &mut Buf<N>,
    tool: &Tool,
    schema: Schema,
) {
    out.raw(b"\"description\":");
    out.string(tool.description);
    out.raw(b",\"name\":");
    out.string(tool.name);
    out.raw(b",\"parameters\":");
    parameters(out, tool, schema);
}

/// OpenAI's schema rules: its strict mode requires every property.
const fn openai_schema(strict: bool) -> Schema {
    if strict {
        Schema::AllRequired
    } else {
        Schema::Plain
    }
}

/// The JSON Schema of the tool's arguments.
///
/// OpenAI strict (platform.openai.com/docs/guides/function-calling, "Strict mode"):
/// `additionalProperties` must be false, every field in `properties` must be in `required`, and
/// an optional field is denoted by adding `null` as a `type` option.
const fn parameters<const N: usize>(out: &mut Buf<N>, tool: &Tool, schema: Schema) {
    let closed = !matches!(schema, Schema::Plain);
    let all_required = matches!(schema, Schema::AllRequired);
    out.raw(if closed {
        b"{\"additionalProperties\":false,\"properties\":{"
    } else {
        b"{\"properties\":{"
    });
    let properties = tool.properties;
    let mut i = 0;
    while i < properties.len() {
        let property = &properties[i];
        if i > 0 {
            out.raw(b",");
        }
        out.string(property.name);
        out.raw(b":{\"description\":");
        out.string(property.description);
        out.raw(b",\"type\":");
        if all_required && !catalog::is_required(tool, property.name) {
            out.raw(b"[");
            out.string(property.ty.as_str());
            out.raw(b",\"null\"]");
        } else {
            out.string(property.ty.as_str());
        }
        out.raw(b"}");
        i += 1;
    }
    out.raw(b"},\"required\":[");
    // Both lists are sorted (the catalog checks it), so "every property" is already in order.
    let count = if all_required {
        properties.len()
    } else {
        tool.required.len()
    };
    let mut i = 0;
    while i < count {
        if i > 0 {
            out.raw(b",");
        }
        out.string(if all_required {
            properties[i].name
        } else {
            tool.required[i]
        });
        i += 1;
    }
    out.raw(b"],\"type\":\"object\"}");
}
