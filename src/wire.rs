//! The providers' wire shapes: the envelope around a tool's parameter schema, and what strict
//! mode changes, for each format.
//!
//! Every shape is written into a JSON sink (`sink.rs`) once per catalog, when it is read (see
//! `writer.rs`). Keys are written in byte order by hand; the tests check the output.
//! Each rule below was checked against the provider's own documentation, cited beside it.

use crate::schema::{Model, Scalar, Schema, Tool, Type};
use crate::sink::Json;

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

/// The names of all formats, for error messages; checked against [`Format::NAMES`] below.
pub(crate) const FORMAT_LIST: &str = "openai, openai_responses, anthropic, gemini, mcp";

const _: () = {
    let list = FORMAT_LIST.as_bytes();
    let mut at = 0;
    let mut f = 0;
    while f < Format::NAMES.len() {
        let name = Format::NAMES[f].as_bytes();
        if f > 0 {
            assert!(list[at] == b',' && list[at + 1] == b' ');
            at += 2;
        }
        let mut i = 0;
        while i < name.len() {
            assert!(list[at + i] == name[i], "FORMAT_LIST is out of date");
            i += 1;
        }
        at += name.len();
        f += 1;
    }
    assert!(at == list.len(), "FORMAT_LIST is out of date");
};

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

    /// The provider: it picks the declaration's envelope, and the shape of the message that
    /// `check_call` writes back to the model.
    pub const fn format(self) -> Format {
        self.format
    }

    /// Whether strict mode is on: the declaration follows the provider's strict rules, and under
    /// OpenAI's a call may send `null` for an optional property.
    pub const fn strict(self) -> bool {
        self.strict
    }

    /// Every shape there is, strict after non-strict within a format.
    pub fn all() -> impl Iterator<Item = Shape> {
        let both = |format| [false, true].map(move |strict| Shape::new(format, strict));
        Format::ALL.into_iter().flat_map(both).flatten()
    }
}

/// Where the declaration of tool `tool` (of `tools`) in `shape` sits in the rendered layout: by
/// format, then strict, then tool. Slots for strict in a format without it stay empty; a
/// [`Shape`] never names them.
#[inline]
pub(crate) const fn slot(shape: Shape, tool: usize, tools: usize) -> usize {
    ((shape.format as usize) * 2 + shape.strict as usize) * tools + tool
}

/// Which provider's schema rules a node is written under.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rules {
    /// As the catalog has it (OpenAI and Anthropic without strict, MCP).
    Plain,
    /// Gemini's: no `additionalProperties`.
    Gemini,
    /// Anthropic strict's: every object closed, unsupported bounds dropped.
    AnthropicStrict,
    /// OpenAI strict's: every object closed with every property required, optional ones
    /// nullable, unsupported keywords dropped.
    OpenAiStrict,
}

/// One tool's declaration in `shape`, without a trailing newline.
pub(crate) fn declaration(out: &mut Json, model: Model<'_>, tool: &Tool, shape: Shape) {
    let strict = shape.strict;
    let openai_rules = if strict {
        Rules::OpenAiStrict
    } else {
        Rules::Plain
    };
    match shape.format {
        // platform.openai.com/docs/api-reference/chat/create#tools: {"type":"function",
        // "function":{"name","description","parameters","strict"}}. `strict` is written only
        // when true, so a plain request keeps its bytes.
        Format::OpenAi => {
            out.raw(b"{\"function\":{");
            description_name(out, model, tool);
            out.raw(b",\"parameters\":");
            root(out, model, tool, openai_rules);
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
            description_name(out, model, tool);
            out.raw(b",\"parameters\":");
            root(out, model, tool, openai_rules);
            out.raw(b",\"strict\":");
            out.boolean(strict);
            out.raw(b",\"type\":\"function\"}");
        }
        // platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use: `strict: true`
        // sits beside name, description and input_schema.
        Format::Anthropic => {
            out.raw(b"{\"description\":");
            out.string(model.str(tool.description));
            out.raw(b",\"input_schema\":");
            let rules = if strict {
                Rules::AnthropicStrict
            } else {
                Rules::Plain
            };
            root(out, model, tool, rules);
            out.raw(b",\"name\":");
            out.string(model.str(tool.name));
            if strict {
                out.raw(b",\"strict\":true");
            }
            out.raw(b"}");
        }
        // ai.google.dev/api/caching#FunctionDeclaration: name, description, parameters. Names
        // must start with a letter or underscore (checked in the catalog). Vertex AI's
        // FunctionDeclaration reference (cloud.google.com/vertex-ai/docs/reference/rest/v1beta1/
        // FunctionDeclaration): "For function with no parameters, this can be left unset", so
        // a tool without properties has no `parameters` key at all.
        Format::Gemini => {
            out.raw(b"{");
            description_name(out, model, tool);
            if model.input(tool).properties.len > 0 {
                out.raw(b",\"parameters\":");
                root(out, model, tool, Rules::Gemini);
            }
            out.raw(b"}");
        }
        // modelcontextprotocol.io/specification (schema.ts, `Tool` and `ToolAnnotations`):
        // name, description, inputSchema, annotations. All four hints are written out, resolved
        // from MCP's defaults where the catalog leaves one out, so a client need not know them.
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
            out.string(model.str(tool.description));
            out.raw(b",\"inputSchema\":");
            root(out, model, tool, Rules::Plain);
            out.raw(b",\"name\":");
            out.string(model.str(tool.name));
            out.raw(b"}");
        }
    }
}

/// `"description":D,"name":N`, the run of keys that OpenAI's two shapes and Gemini's share.
fn description_name(out: &mut Json, model: Model<'_>, tool: &Tool) {
    out.raw(b"\"description\":");
    out.string(model.str(tool.description));
    out.raw(b",\"name\":");
    out.string(model.str(tool.name));
}

/// A string (escaped), a number (as the catalog spelled it) or a boolean.
fn scalar(out: &mut Json, model: Model<'_>, value: Scalar) {
    match value {
        Scalar::String(text) => out.string(model.str(text)),
        Scalar::Number(number) => out.raw(model.str(number.text).as_bytes()),
        Scalar::Boolean(value) => out.boolean(value),
    }
}

/// A tool's argument schema: the root node, which always has `properties`, empty for a tool
/// without arguments.
fn root(out: &mut Json, model: Model<'_>, tool: &Tool, rules: Rules) {
    node(out, model, model.input(tool), rules, Place::Root);
}

/// Where a node sits: the root of the arguments, a property its object requires, one it does
/// not (which OpenAI strict makes nullable), or an array's items.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Root,
    Required,
    Optional,
    Items,
}

/// Writes `"key":` with the comma that separates it from an earlier key.
fn key(out: &mut Json, first: &mut bool, key: &[u8]) {
    if !*first {
        out.raw(b",");
    }
    *first = false;
    out.raw(key);
}

/// One schema node under `rules`, its keys in byte order.
///
/// What each provider's rules change, with their sources:
/// - OpenAI strict (developers.openai.com/api/docs/guides/structured-outputs#supported-schemas,
///   "Additional properties" and "All fields must be required"; platform.openai.com/docs/
///   guides/function-calling, "Strict mode"): `additionalProperties: false` on every object,
///   every property in `required`, an optional property denoted by adding `null` to its
///   `type`, and so to its `enum` when it has one. `minLength`, `maxLength` and `default` are
///   removed as issue 10 specifies; of those, only `default` was confirmed here, by OpenAI's
///   own refusal quoted at zenn.dev/nicopin/scraps/a8d8f53f5faebb ("'default' is not
///   permitted"). The stored copies searched did not show the page's per-type keyword table.
///   The whole-schema limits (10 levels of nesting, 5,000 properties, 1,000 enum values) are
///   checked by the catalog reader.
/// - Anthropic strict (platform.claude.com/docs/en/build-with-claude/structured-outputs,
///   "JSON Schema limitations", as quoted in the stored copies searched):
///   `additionalProperties: false` on objects; numerical
///   constraints (`minimum`, `maximum`), string constraints (`minLength`, `maxLength`) and array
///   constraints beyond `minItems` of 0 or 1 are not supported. `required` stays as given.
/// - Gemini (ai.google.dev/api/caching#Schema, an OpenAPI 3.0 subset): its `Schema` object has
///   no `additionalProperties`.
///
/// Recursion is bounded: the catalog reader refuses more than 10 levels of object nesting.
fn node(out: &mut Json, model: Model<'_>, node: &Schema, rules: Rules, place: Place) {
    let is_object = matches!(node.ty, Type::Object);
    let strict_openai = matches!(rules, Rules::OpenAiStrict);
    let strict_anthropic = matches!(rules, Rules::AnthropicStrict);
    let nullable = strict_openai && matches!(place, Place::Optional);
    // A nested object without properties is free-form and written as the catalog gave it, with
    // no `properties`, unless a strict mode closes it (and then states that it has none).
    let with_properties = is_object
        && (node.properties.len > 0
            || matches!(place, Place::Root)
            || strict_openai
            || strict_anthropic);
    let mut first = true;
    out.raw(b"{");
    let closed = match rules {
        Rules::Plain => node.closed,
        Rules::Gemini => false,
        Rules::AnthropicStrict | Rules::OpenAiStrict => true,
    };
    if is_object && closed {
        key(out, &mut first, b"\"additionalProperties\":false");
    }
    if let Some(default) = node.default {
        if !strict_openai {
            key(out, &mut first, b"\"default\":");
            scalar(out, model, default);
        }
    }
    if let Some(text) = node.description {
        key(out, &mut first, b"\"description\":");
        out.string(model.str(text));
    }
    if let Some(values) = node.enumeration {
        let values = model.values(values);
        key(out, &mut first, b"\"enum\":[");
        let mut i = 0;
        while i < values.len() {
            if i > 0 {
                out.raw(b",");
            }
            scalar(out, model, values[i]);
            i += 1;
        }
        if nullable {
            out.raw(b",null");
        }
        out.raw(b"]");
    }
    if let Some(items) = node.items {
        key(out, &mut first, b"\"items\":");
        self::node(out, model, model.node(items), rules, Place::Items);
    }
    if let Some(count) = node.max_items {
        if !strict_anthropic {
            key(out, &mut first, b"\"maxItems\":");
            out.unsigned(count);
        }
    }
    if let Some(count) = node.max_length {
        if !strict_anthropic && !strict_openai {
            key(out, &mut first, b"\"maxLength\":");
            out.unsigned(count);
        }
    }
    if let Some(number) = node.maximum {
        if !strict_anthropic {
            key(out, &mut first, b"\"maximum\":");
            out.raw(model.str(number.text).as_bytes());
        }
    }
    if let Some(count) = node.min_items {
        if !strict_anthropic || count <= 1 {
            key(out, &mut first, b"\"minItems\":");
            out.unsigned(count);
        }
    }
    if let Some(count) = node.min_length {
        if !strict_anthropic && !strict_openai {
            key(out, &mut first, b"\"minLength\":");
            out.unsigned(count);
        }
    }
    if let Some(number) = node.minimum {
        if !strict_anthropic {
            key(out, &mut first, b"\"minimum\":");
            out.raw(model.str(number.text).as_bytes());
        }
    }
    if with_properties {
        key(out, &mut first, b"\"properties\":{");
        let properties = model.properties(node);
        let mut i = 0;
        while i < properties.len() {
            if i > 0 {
                out.raw(b",");
            }
            out.string(model.str(properties[i].name));
            out.raw(b":");
            let place = if properties[i].required {
                Place::Required
            } else {
                Place::Optional
            };
            self::node(out, model, model.node(properties[i].schema), rules, place);
            i += 1;
        }
        out.raw(b"}");
        // Properties are sorted, so "every property" and the required ones are in order.
        if strict_openai || node.has_required {
            key(out, &mut first, b"\"required\":[");
            let mut written = 0;
            let mut i = 0;
            while i < properties.len() {
                if strict_openai || properties[i].required {
                    if written > 0 {
                        out.raw(b",");
                    }
                    out.string(model.str(properties[i].name));
                    written += 1;
                }
                i += 1;
            }
            out.raw(b"]");
        }
    }
    key(out, &mut first, b"\"type\":");
    if nullable {
        out.raw(b"[");
        out.string(node.ty.as_str());
        out.raw(b",\"null\"]");
    } else {
        out.string(node.ty.as_str());
    }
    out.raw(b"}");
}

/// Every declaration of a catalog, each followed by its newline, and where each sits: rendered
/// once, when the catalog is read, so that a request is a slice copy.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) struct Rendered {
    /// The declarations, by format, then strict, then tool (see [`slot`]).
    pub(crate) bytes: Vec<u8>,
    /// Each declaration's start and end (after its newline) in `bytes`, at its [`slot`]; slots
    /// for strict in a format without it stay `(0, 0)`.
    pub(crate) spans: Vec<(usize, usize)>,
}

/// Renders every tool of `model` in every shape. `build.rs` runs it for the compiled-in
/// catalog, whose bytes the library then carries; a test renders the generated tables again.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn render(model: Model<'_>) -> Rendered {
    let tools = model.tools.len();
    let mut out = Json::default();
    let mut spans = vec![(0, 0); Format::ALL.len() * 2 * tools];
    for shape in Shape::all() {
        for (index, tool) in model.tools.iter().enumerate() {
            let start = out.len();
            declaration(&mut out, model, tool, shape);
            out.raw(b"\n");
            spans[slot(shape, index, tools)] = (start, out.len());
        }
    }
    Rendered {
        bytes: out.bytes,
        spans,
    }
}
