//! The providers' wire shapes: the envelope around a tool's parameter schema, and what strict
//! mode changes, for each format.
//!
//! Every shape is written into a JSON sink (`sink.rs`) once per catalog, when it is read (see
//! `writer.rs`). Keys are written in byte order by hand; the tests check the output.
//! Each rule below was checked against the provider's own documentation, cited beside it.

use crate::error::MAX_REASON;
use crate::layout::{Laid, Layout};
use crate::schema::{
    is_gemini_parameter_name, DefsKeyword, Model, NodeId, Scalar, Schema, Text, Tool, TupleForm,
    Type, TypeForm, Types, MAX_DESCRIPTION,
};
use crate::sink::{EscapeMap, Json};
use std::ops::Range;

/// Which provider's shape to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// OpenAI / OpenRouter Chat Completions `tools` entry. The default.
    OpenAi,
    /// OpenAI Responses API `tools` entry.
    OpenAiResponses,
    /// Anthropic Messages API `tools` entry.
    Anthropic,
    /// One entry of Google Gemini's `functionDeclarations`, its `parameters` in Gemini's own
    /// `Schema` (an OpenAPI 3.0 subset).
    Gemini,
    /// The same entry with `parametersJsonSchema`, which takes JSON Schema: references,
    /// definitions, unions and maps stay as they are. Calls come back as Gemini's.
    GeminiJsonSchema,
    /// One entry of an MCP server's `tools/list` result.
    Mcp,
}

impl Format {
    /// Every format, in the order error messages list them.
    pub const ALL: [Format; 6] = [
        Format::OpenAi,
        Format::OpenAiResponses,
        Format::Anthropic,
        Format::Gemini,
        Format::GeminiJsonSchema,
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
            Format::GeminiJsonSchema => "gemini_json_schema",
            Format::Mcp => "mcp",
        }
    }

    /// The format whose envelopes this one's calls, turns, streams and tool choice come in:
    /// itself, but for `gemini_json_schema`, whose declarations alone differ from `gemini`'s.
    pub const fn calls(self) -> Format {
        match self {
            Format::GeminiJsonSchema => Format::Gemini,
            other => other,
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
pub(crate) const FORMAT_LIST: &str =
    "openai, openai_responses, anthropic, gemini, gemini_json_schema, mcp";

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

/// How many [`Rules`] there are.
const RULES: usize = 6;

/// Which provider's schema rules a node is written under.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Rules {
    /// MCP's: everything the catalog gave, as given (canonical).
    Mcp,
    /// OpenAI's and Anthropic's without strict: the schema as given, less what only costs
    /// tokens (`title`, `$comment`, `$schema`), with OpenAPI's `nullable` as a `null` type.
    Plain,
    /// Gemini's `Schema`, an OpenAPI 3.0 subset: references inlined, no `additionalProperties`.
    Gemini,
    /// Gemini's `parametersJsonSchema`: JSON Schema, less the keywords it does not list.
    GeminiJsonSchema,
    /// Anthropic strict's: every object closed, unsupported constraints dropped.
    AnthropicStrict,
    /// OpenAI strict's: every object closed with every property required, optional ones
    /// nullable, unsupported keywords dropped.
    OpenAiStrict,
}

/// Why a tool cannot be declared in a shape: its `unsupported` answer.
pub(crate) type NotExpressible = String;

/// One tool's declaration in `shape`, without a trailing newline, and where in it `parameters`
/// sit (when the shape writes them); or why the shape cannot express it.
///
/// `parameters` is the tool's argument schema under the shape's [`Rules`]: what
/// [`parameters`] wrote, once for every shape that shares those rules.
fn declaration(
    out: &mut Json,
    model: Model<'_>,
    escapes: &EscapeMap,
    tool: &Tool,
    shape: Shape,
    parameters: &[u8],
) -> Result<Option<Range<usize>>, NotExpressible> {
    let mut parameters_at = None;
    let mut write_parameters = |out: &mut Json| {
        let start = out.bytes.len();
        out.raw(parameters);
        parameters_at = Some(start..out.bytes.len());
    };
    let strict = shape.strict;
    let input = model.input(tool);
    if matches!(shape.format, Format::OpenAi | Format::OpenAiResponses) {
        // OpenAI's limit, counted as its error counts (characters): `schema::MAX_DESCRIPTION`
        // says where it comes from.
        let characters = model.str(tool.description).chars().count();
        if characters > MAX_DESCRIPTION {
            return Err(format!(
                "its description is {characters} characters, and OpenAI takes at most \
                 {MAX_DESCRIPTION}"
            ));
        }
    }
    match shape.format {
        // platform.openai.com/docs/api-reference/chat/create#tools: {"type":"function",
        // "function":{"name","description","parameters","strict"}}. `strict` is written only
        // when true, so a plain request keeps its bytes.
        Format::OpenAi => {
            out.raw(b"{\"function\":{");
            description_name(out, model, escapes, tool);
            out.raw(b",\"parameters\":");
            write_parameters(out);
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
            description_name(out, model, escapes, tool);
            out.raw(b",\"parameters\":");
            write_parameters(out);
            out.raw(b",\"strict\":");
            out.boolean(strict);
            out.raw(b",\"type\":\"function\"}");
        }
        // platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use: `strict: true`
        // sits beside name, description and input_schema.
        Format::Anthropic => {
            out.raw(b"{\"description\":");
            string(out, model, escapes, tool.description);
            out.raw(b",\"input_schema\":");
            write_parameters(out);
            out.raw(b",\"name\":");
            string(out, model, escapes, tool.name);
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
            description_name(out, model, escapes, tool);
            if input.properties.len > 0 {
                out.raw(b",\"parameters\":");
                write_parameters(out);
            }
            out.raw(b"}");
        }
        // The same FunctionDeclaration's `parametersJsonSchema` ("Describes the parameters to
        // the function in JSON Schema format. The schema must describe an object where the
        // properties are the parameters to the function. ... This field is mutually exclusive
        // with parameters": the API's reference, as pub.dev/documentation/
        // google_cloud_ai_generativelanguage_v1beta/latest/generativelanguage/
        // FunctionDeclaration/parametersJsonSchema.html stores it; google-genai's
        // `FunctionDeclaration.parameters_json_schema`). A tool that takes no arguments (no
        // properties, no other members) has none, as with `parameters`.
        Format::GeminiJsonSchema => {
            out.raw(b"{");
            description_name(out, model, escapes, tool);
            let takes_members = input
                .additional
                .is_some_and(|extra| model.node(extra).boolean != Some(false));
            if input.properties.len > 0 || takes_members {
                out.raw(b",\"parametersJsonSchema\":");
                write_parameters(out);
            }
            out.raw(b"}");
        }
        // modelcontextprotocol.io/specification/2025-11-25 (schema.ts, `Tool` and
        // `ToolAnnotations`): name, title, description, inputSchema, outputSchema, annotations
        // (title and the four hints), icons, execution and _meta. All four hints are written
        // out, resolved from MCP's defaults where the catalog leaves one out, so a client need
        // not know them; everything else is written when the catalog gave it.
        Format::Mcp => {
            let hints = &tool.hints;
            out.raw(b"{");
            if let Some(meta) = tool.meta {
                out.raw(b"\"_meta\":");
                out.raw(model.str(meta).as_bytes());
                out.raw(b",");
            }
            out.raw(b"\"annotations\":{\"destructiveHint\":");
            out.boolean(hints.destructive);
            out.raw(b",\"idempotentHint\":");
            out.boolean(hints.idempotent);
            out.raw(b",\"openWorldHint\":");
            out.boolean(hints.open_world);
            out.raw(b",\"readOnlyHint\":");
            out.boolean(hints.read_only);
            if let Some(title) = tool.annotations_title {
                out.raw(b",\"title\":");
                string(out, model, escapes, title);
            }
            out.raw(b"},\"description\":");
            string(out, model, escapes, tool.description);
            if let Some(execution) = tool.execution {
                out.raw(b",\"execution\":");
                out.raw(model.str(execution).as_bytes());
            }
            if let Some(icons) = tool.icons {
                out.raw(b",\"icons\":");
                out.raw(model.str(icons).as_bytes());
            }
            out.raw(b",\"inputSchema\":");
            write_parameters(out);
            out.raw(b",\"name\":");
            string(out, model, escapes, tool.name);
            if let Some(output) = tool.output {
                let mut schema = Json::default();
                let mut writer = Writer {
                    model,
                    escapes,
                    rules: Rules::Mcp,
                    inlining: Vec::new(),
                    spare: Vec::new(),
                };
                writer.node(&mut schema, output, Place::Root)?;
                out.raw(b",\"outputSchema\":");
                out.raw(&schema.bytes);
            }
            if let Some(title) = tool.title {
                out.raw(b",\"title\":");
                string(out, model, escapes, title);
            }
            out.raw(b"}");
        }
    }
    Ok(parameters_at)
}

/// The rules a shape's schemas are written under: several shapes share each.
fn rules(shape: Shape) -> Rules {
    match (shape.format, shape.strict) {
        (Format::OpenAi | Format::OpenAiResponses, true) => Rules::OpenAiStrict,
        (Format::Anthropic, true) => Rules::AnthropicStrict,
        (Format::Gemini, _) => Rules::Gemini,
        (Format::GeminiJsonSchema, _) => Rules::GeminiJsonSchema,
        (Format::Mcp, _) => Rules::Mcp,
        _ => Rules::Plain,
    }
}

/// A tool's argument schema under `rules`, or why they cannot express it. `spare` holds
/// members that earlier tools' nodes were written with, to be used again.
fn parameters(
    model: Model<'_>,
    escapes: &EscapeMap,
    tool: &Tool,
    rules: Rules,
    spare: &mut Vec<Members>,
) -> Result<Vec<u8>, NotExpressible> {
    let mut parameters = Json::default();
    let mut writer = Writer {
        model,
        escapes,
        rules,
        inlining: Vec::new(),
        spare: std::mem::take(spare),
    };
    let written = writer.node(&mut parameters, tool.input, Place::Root);
    *spare = writer.spare;
    written.map(|()| parameters.bytes)
}

/// `"description":D,"name":N`, the run of keys that OpenAI's two shapes and Gemini's share.
fn description_name(out: &mut Json, model: Model<'_>, escapes: &EscapeMap, tool: &Tool) {
    out.raw(b"\"description\":");
    string(out, model, escapes, tool.description);
    out.raw(b",\"name\":");
    string(out, model, escapes, tool.name);
}

/// One of the model's strings as a JSON string literal: copied as it is where `escapes` (the
/// model's text's map) says it has nothing to escape.
#[inline]
fn string(out: &mut Json, model: Model<'_>, escapes: &EscapeMap, text: Text) {
    if escapes.none_in(text.start as usize, text.len as usize) {
        out.plain_string(model.bytes(text));
    } else {
        out.string(model.str(text));
    }
}

/// A catalog value: a string (escaped), a number (as the catalog spelled it), a boolean, null,
/// or an array or object (already canonical).
fn scalar(out: &mut Json, model: Model<'_>, escapes: &EscapeMap, value: Scalar) {
    match value {
        Scalar::String(text) => string(out, model, escapes, text),
        Scalar::Number(number) => out.raw(model.str(number.text).as_bytes()),
        Scalar::Boolean(value) => out.boolean(value),
        Scalar::Null => out.raw(b"null"),
        Scalar::Json(text) => out.raw(model.str(text).as_bytes()),
    }
}

/// `values`, comma-separated: an `enum`'s list without its brackets.
fn scalars<'v>(
    out: &mut Json,
    model: Model<'_>,
    escapes: &EscapeMap,
    values: impl IntoIterator<Item = &'v Scalar>,
) {
    for (i, value) in values.into_iter().enumerate() {
        if i > 0 {
            out.raw(b",");
        }
        scalar(out, model, escapes, *value);
    }
}

/// Where a node sits: the root of the arguments, a property its object requires, one it does
/// not (which OpenAI strict makes nullable), or inside another node.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Root,
    Required,
    Optional,
    Inside,
}

/// The formats each strict mode documents. OpenAI: developers.openai.com/api/docs/guides/
/// structured-outputs, "Supported schemas": "Predefined formats for strings. Currently
/// supported: date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid". Anthropic
/// (Claude's structured outputs, as docs.aws.amazon.com/bedrock/latest/userguide/
/// structured-output.html gives them): "String formats: date-time, time, date, duration, email,
/// hostname, uri, ipv4, ipv6, uuid". Gemini's own `Schema` (firebase.google.com/docs/reference/
/// js/ai.schemashared): format "must be either 'enum' or 'date-time', otherwise requests will
/// fail".
const OPENAI_FORMATS: [&str; 9] = [
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];
const ANTHROPIC_FORMATS: [&str; 10] = [
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
];
const GEMINI_FORMATS: [&str; 1] = ["date-time"];

/// Writes schema nodes under one shape's rules.
struct Writer<'m> {
    model: Model<'m>,
    /// The model's text's [`EscapeMap`].
    escapes: &'m EscapeMap,
    rules: Rules,
    /// The references being inlined (Gemini), to tell recursion.
    inlining: Vec<NodeId>,
    /// Members no node holds now, for the next node to write into.
    spare: Vec<Members>,
}

/// A node's members before they are sorted: each key, and where its value sits in one buffer.
/// The renderer keeps the ones it has used (`Writer::spare`), so that a catalog's thousands of
/// nodes do not each allocate their own.
#[derive(Default)]
struct Members {
    values: Json,
    entries: Vec<(&'static str, u32, u32)>,
}

impl Members {
    /// A member whose value `write` writes.
    fn put(&mut self, key: &'static str, write: impl FnOnce(&mut Json)) {
        let start = self.values.bytes.len() as u32;
        write(&mut self.values);
        self.entries
            .push((key, start, self.values.bytes.len() as u32));
    }

    /// A member whose value `write` writes, or fails to.
    fn try_put(
        &mut self,
        key: &'static str,
        write: impl FnOnce(&mut Json) -> Result<(), NotExpressible>,
    ) -> Result<(), NotExpressible> {
        let start = self.values.bytes.len() as u32;
        write(&mut self.values)?;
        self.entries
            .push((key, start, self.values.bytes.len() as u32));
        Ok(())
    }

    /// A member whose value is `value`, already JSON.
    fn push(&mut self, key: &'static str, value: &[u8]) {
        self.put(key, |out| out.raw(value));
    }

    fn has(&self, key: &str) -> bool {
        self.entries.iter().any(|entry| entry.0 == key)
    }

    /// Takes the member `key` out, and gives its value.
    fn take(&mut self, key: &str) -> Option<Vec<u8>> {
        let at = self.entries.iter().position(|entry| entry.0 == key)?;
        let (_, start, end) = self.entries.remove(at);
        Some(self.values.bytes[start as usize..end as usize].to_vec())
    }

    fn clear(&mut self) {
        self.values.bytes.clear();
        self.entries.clear();
    }
}

impl Writer<'_> {
    /// One schema node, its keys in byte order.
    ///
    /// What each provider's rules change, with their sources:
    /// - OpenAI strict (developers.openai.com/api/docs/guides/structured-outputs, "Supported
    ///   schemas"; developers.openai.com/api/docs/guides/function-calling#strict-mode):
    ///   `additionalProperties: false` "must be set to false for each object", "all fields or
    ///   function parameters must be specified as required", an optional property emulated "by
    ///   using a union type with null". Supported: `anyOf` (not at the root), definitions and
    ///   `$ref` ("Recursive schemas are supported"), `enum`, `const`, `pattern`, the formats
    ///   above, the number bounds and `multipleOf`, `minItems` and `maxItems`. Not supported:
    ///   "Composition: allOf, not, ..."; `oneOf` is written as `anyOf`, as OpenAI's own agents
    ///   SDK does (openai-agents-python, strict_schema.py). `minLength`, `maxLength` and
    ///   `default` are removed as issue 10 found (`default` is refused: "'default' is not
    ///   permitted"). Keywords the guide does not list are dropped; check_call still applies
    ///   them.
    /// - Anthropic strict (Claude's structured outputs, "JSON Schema limitations", as
    ///   docs.aws.amazon.com/bedrock/latest/userguide/structured-output.html gives them): all
    ///   basic types, `enum` of primitives, `const`, `anyOf`, `allOf`, internal `$ref` and
    ///   definitions; not supported: "Recursive schemas", "Numerical constraints (minimum,
    ///   maximum, multipleOf)", "String constraints (minLength, maxLength)",
    ///   `additionalProperties` "set to anything other than false", "Array minItems (only
    ///   values 0 and 1)". Anthropic's SDK (anthropic-sdk-python, lib/_parse/_transform.py)
    ///   also drops `pattern`, the exclusive bounds, `maxItems`, `uniqueItems`, `default` and
    ///   `examples`, and writes `oneOf` as `anyOf`; so does this.
    /// - Gemini (the `Schema` object, "a select subset of an OpenAPI 3.0 schema object":
    ///   googleapis.github.io/js-genai/release_docs/interfaces/types.Schema.html): its fields
    ///   are anyOf, default, description, enum, example, format, items, maximum, maxItems,
    ///   maxLength, maxProperties, minimum, minItems, minLength, minProperties, nullable,
    ///   pattern, properties, propertyOrdering, required, title and type. So no
    ///   `additionalProperties` (google-genai's `_transformers.py`: "additionalProperties is not
    ///   supported in the Gemini API"), references inlined (as google-genai does; a recursive
    ///   one cannot be), an `enum` only of strings (below), `const` as a one-value `enum` and a
    ///   `null` type as `nullable` (both as google-genai does), `oneOf` as `anyOf`, an integer's
    ///   exclusive bound as an inclusive one, and the rest dropped.
    /// - Gemini's JSON Schema (`parametersJsonSchema`). The API lists what it supports where
    ///   it takes JSON Schema for a response, and the function's field takes the same JSON
    ///   Schema (GenerationConfig.responseJsonSchema, as pub.dev/documentation/
    ///   google_cloud_aiplatform_v1beta1/latest/aiplatform/GenerationConfig/
    ///   responseJsonSchema.html stores it): "only the following properties are supported:
    ///   $id, $defs, $ref, $anchor, type, format, title, description, enum (for strings and
    ///   numbers), items, prefixItems, minItems, maxItems, minimum, maximum, anyOf, oneOf
    ///   (interpreted the same as anyOf), properties, additionalProperties, required"; "If
    ///   $ref is set on a sub-schema, no other properties, except for than those starting as a
    ///   $, may be set"; "Cyclic references are unrolled to a limited degree and, as such, may
    ///   only be used within non-required properties". The structured-output guide
    ///   (ai.google.dev/gemini-api/docs/structured-output) adds a `null` in a type list, and
    ///   "The model ignores unsupported properties". So: those kept as given (a `null` type and
    ///   OpenAPI's `nullable` as a type list, a draft-07 tuple as `prefixItems`); a `$ref`
    ///   with other keywords beside it as the one branch of an `anyOf`; an `enum` or `const`
    ///   of anything but strings and numbers dropped, a `const` written as a one-value `enum`;
    ///   an integer's exclusive bound as the inclusive one; a recursive reference refused
    ///   where a property requires it; `allOf` refused, as it cannot be dropped without
    ///   changing what the schema says; the rest dropped. check_call still applies all.
    /// - Plain (OpenAI's and Anthropic's non-strict `parameters`/`input_schema`: "A JSON
    ///   Schema object"): as given, less `title`, `$comment` and `$schema`, which cost tokens
    ///   and tell the model nothing the description does not, with OpenAPI's `nullable` as a
    ///   `null` type.
    /// - MCP: everything, as given.
    fn node(&mut self, out: &mut Json, id: NodeId, place: Place) -> Result<(), NotExpressible> {
        let (model, escapes) = (self.model, self.escapes);
        let node = model.node(id);
        let rare = model.rare(node);
        let annotations = model.annotations(node);
        if let Some(flag) = node.boolean {
            match self.rules {
                Rules::Mcp | Rules::Plain | Rules::GeminiJsonSchema => {
                    out.boolean(flag);
                    return Ok(());
                }
                _ => {
                    return Err(format!(
                        "the schema {flag} (at a node of the tool's schema) has no equivalent in \
                         this shape"
                    ))
                }
            }
        }
        let rules = self.rules;
        let (mcp, plain, gemini, openai, anthropic) = (
            rules == Rules::Mcp,
            rules == Rules::Plain,
            rules == Rules::Gemini,
            rules == Rules::OpenAiStrict,
            rules == Rules::AnthropicStrict,
        );
        let gemini_json = rules == Rules::GeminiJsonSchema;
        let strict = openai || anthropic;
        let root = place == Place::Root;
        let optional_nullable = openai && place == Place::Optional;
        let mut members = self.spare.pop().unwrap_or_default();
        let text = |members: &mut Members, key: &'static str, text: Option<Text>| {
            if let Some(text) = text {
                members.put(key, |out| string(out, model, escapes, text));
            }
        };

        // References: kept where the shape has them, inlined for Gemini.
        if let Some((reference, target)) = rare.reference {
            if gemini {
                if self.inlining.contains(&target) {
                    return Err(format!(
                        "the schema is recursive ({} refers back to itself), and Gemini's \
                         schema must be written out in full",
                        model.str(reference)
                    ));
                }
                if self.only_reference(node) {
                    // The target written in place, with what sits beside the `$ref`
                    // (`description`, `default`: pydantic writes an enum's default there)
                    // taking the place of the target's own.
                    self.inlining.push(target);
                    let mut inlined = Json::default();
                    let result = self.node(&mut inlined, target, place);
                    self.inlining.pop();
                    result?;
                    members.clear();
                    if let Some(text) = node.description {
                        members.put("description", |out| string(out, model, escapes, text));
                    }
                    if let Some(default) = annotations.default {
                        members.put("default", |out| scalar(out, model, escapes, default));
                    }
                    merge(&mut members, &inlined.bytes);
                    self.finish(out, members);
                    return Ok(());
                }
                return Err(format!(
                    "{} has keywords beside it, which Gemini's inlined schema cannot merge",
                    model.str(reference)
                ));
            }
            if gemini_json && self.cycle_of_required(target) {
                return Err(format!(
                    "the schema is recursive ({}) through required properties only, and Gemini \
                     unrolls a cyclic reference only \"within non-required properties\"",
                    model.str(reference)
                ));
            }
            if anthropic && self.recursive(target) {
                return Err(format!(
                    "the schema is recursive ({}), which Anthropic's strict mode does not \
                     support (\"Recursive schemas\" are not supported)",
                    model.str(reference)
                ));
            }
            members.put("$ref", |out| string(out, model, escapes, reference));
        }
        if let Some((keyword, run)) = rare.definitions {
            if !gemini {
                let key = match keyword {
                    DefsKeyword::Defs => "$defs",
                    DefsKeyword::Definitions => "definitions",
                };
                members.try_put(key, |defs| {
                    defs.raw(b"{");
                    for (i, definition) in model.definitions(run).iter().enumerate() {
                        if i > 0 {
                            defs.raw(b",");
                        }
                        string(defs, model, escapes, definition.name);
                        defs.raw(b":");
                        self.node(defs, definition.schema, Place::Inside)?;
                    }
                    defs.raw(b"}");
                    Ok(())
                })?;
            }
        }

        // Annotations.
        if mcp {
            text(&mut members, "title", annotations.title);
            text(&mut members, "$comment", annotations.comment);
            text(&mut members, "$schema", annotations.dialect);
            text(
                &mut members,
                "contentEncoding",
                annotations.content_encoding,
            );
            text(
                &mut members,
                "contentMediaType",
                annotations.content_media_type,
            );
            if let Some(schema) = annotations.content_schema {
                members.put("contentSchema", |out| out.raw(model.str(schema).as_bytes()));
            }
        }
        if gemini_json {
            text(&mut members, "title", annotations.title);
        }
        text(&mut members, "description", node.description);
        // A `default` or `examples` that the node refuses is the catalog's own word, kept for
        // MCP's readers; a provider's model would take it for a value to send.
        let default = match mcp {
            true => annotations.default.or(annotations.unfit_default),
            false => annotations.default,
        };
        if let Some(default) = default {
            if !openai && !anthropic && !gemini_json {
                members.put("default", |out| scalar(out, model, escapes, default));
            }
        }
        let examples = match mcp {
            true => annotations.examples.or(annotations.unfit_examples),
            false => annotations.examples,
        };
        if mcp || plain {
            if let Some(examples) = examples {
                members.put("examples", |out| out.raw(model.str(examples).as_bytes()));
            }
            for (key, flag) in [
                ("deprecated", annotations.deprecated),
                ("readOnly", annotations.read_only),
                ("writeOnly", annotations.write_only),
            ] {
                if let Some(flag) = flag {
                    members.put(key, |out| out.boolean(flag));
                }
            }
            if let Some(discriminator) = rare.discriminator {
                members.put("discriminator", |out| {
                    out.raw(model.str(discriminator).as_bytes())
                });
            }
        }

        // Types, and where `null` comes from.
        let nullable_given = node.nullable == Some(true);
        let mut types = TypeList::default();
        if node.type_form != TypeForm::Absent {
            Type::ALL
                .into_iter()
                .filter(|ty| node.types.has(*ty))
                .for_each(|ty| types.push(ty));
        } else if root {
            types.push(Type::Object);
        }
        let mut null_branch = false;
        if mcp {
            match node.type_form {
                TypeForm::Absent if !root => {}
                TypeForm::List => members.put("type", |out| type_list(out, &types)),
                _ => members.put("type", |out| out.word(types[0].as_str())),
            }
            if let Some(flag) = node.nullable {
                members.put("nullable", |out| out.boolean(flag));
            }
        } else if gemini {
            let null = types.contains(&Type::Null) || nullable_given;
            types.retain(|ty| *ty != Type::Null);
            match types.len() {
                0 => {}
                1 => members.put("type", |out| out.word(types[0].as_str())),
                _ => {
                    // Several types: one branch each.
                    members.put("anyOf", |out| {
                        out.raw(b"[");
                        for (i, ty) in types.iter().enumerate() {
                            if i > 0 {
                                out.raw(b",");
                            }
                            out.raw(b"{\"type\":");
                            out.word(ty.as_str());
                            out.raw(b"}");
                        }
                        out.raw(b"]");
                    })
                }
            }
            if null {
                members.put("nullable", |out| out.boolean(true));
            }
        } else {
            if nullable_given && !types.is_empty() && !types.contains(&Type::Null) {
                types.push(Type::Null);
            }
            if optional_nullable {
                if types.is_empty() {
                    null_branch = true;
                } else if !types.contains(&Type::Null) {
                    types.push(Type::Null);
                }
            }
            if strict && types.is_empty() && !self.union_or_reference(node) {
                return Err(
                    "a schema with no type (any value) cannot be declared in strict \
                            mode"
                        .into(),
                );
            }
            match types.len() {
                0 => {}
                1 => members.put("type", |out| out.word(types[0].as_str())),
                _ => members.put("type", |out| type_list(out, &types)),
            }
        }

        // Values. Gemini's `enum` is a list of strings, on a string: the API's `Schema.enum` is
        // "Possible values of the element of Type.STRING with enum format" (a `List<String>`:
        // pub.dev/documentation/google_cloud_ai_generativelanguage_v1beta/latest/generativelanguage/Schema/enum$.html),
        // and it answers an integer enum "enum: only allowed for STRING type"
        // (github.com/diegosouzapw/OmniRoute/pull/760) or "Invalid value at '...enum[0]'
        // (TYPE_STRING), 0" (github.com/microsoft/azure-devops-mcp/issues/139). So an enum or a
        // `const` of strings is written on a string, or on a node without a type, which is then
        // typed string (its values say no more), a `null` among them as `nullable`; any other is
        // dropped, and check_call still applies it. A `const` is a one-value `enum` there, as
        // google-genai writes it.
        if gemini {
            let constant = rare.constant.map(|value| [value]);
            let values: &[Scalar] = match (node.enumeration, &constant) {
                (Some(run), _) => model.values(run),
                (None, Some(one)) => one,
                (None, None) => &[],
            };
            let strings = values
                .iter()
                .any(|value| matches!(value, Scalar::String(_)))
                && (values.iter()).all(|value| matches!(value, Scalar::String(_) | Scalar::Null));
            let typeless = node.type_form == TypeForm::Absent
                && !root
                && node.any_of.is_none()
                && rare.one_of.is_none();
            if strings && (typeless || types[..] == [Type::String]) {
                if typeless {
                    members.put("type", |out| out.word(Type::String.as_str()));
                    if values.contains(&Scalar::Null) && !nullable_given {
                        members.put("nullable", |out| out.boolean(true));
                    }
                }
                members.put("enum", |out| {
                    out.raw(b"[");
                    let strings = values.iter().filter(|value| **value != Scalar::Null);
                    scalars(out, model, escapes, strings);
                    out.raw(b"]");
                });
            }
        } else if gemini_json {
            let constant = rare.constant.map(|value| [value]);
            let values: &[Scalar] = match (node.enumeration, &constant) {
                (Some(run), _) => model.values(run),
                (None, Some(one)) => one,
                (None, None) => &[],
            };
            let kept =
                (values.iter()).all(|value| matches!(value, Scalar::String(_) | Scalar::Number(_)));
            if !values.is_empty() && kept {
                members.put("enum", |out| {
                    out.raw(b"[");
                    scalars(out, model, escapes, values);
                    out.raw(b"]");
                });
            }
        } else if let Some(run) = node.enumeration {
            let values = model.values(run);
            if anthropic && values.iter().any(|value| matches!(value, Scalar::Json(_))) {
                return Err(
                    "an enum of arrays or objects, which Anthropic's strict mode does \
                            not support (\"enum (strings, numbers, booleans, or nulls only)\")"
                        .into(),
                );
            }
            let add_null =
                optional_nullable && !values.iter().any(|value| matches!(value, Scalar::Null));
            members.put("enum", |out| {
                out.raw(b"[");
                scalars(out, model, escapes, values);
                if add_null {
                    out.raw(b",null");
                }
                out.raw(b"]");
            });
        }
        if let Some(value) = rare.constant.filter(|_| !gemini && !gemini_json) {
            if optional_nullable {
                // A one-value enum: OpenAI strict's optional value needs `null` beside it.
                members.put("enum", |out| {
                    out.raw(b"[");
                    scalar(out, model, escapes, value);
                    if optional_nullable && value != Scalar::Null {
                        out.raw(b",null");
                    }
                    out.raw(b"]");
                });
            } else {
                members.put("const", |out| scalar(out, model, escapes, value));
            }
        }

        // Combinations.
        let mut any_of: Vec<NodeId> = Vec::new();
        let mut any_of_key = "anyOf";
        if let Some(run) = node.any_of {
            any_of.extend(model.subschemas(run));
        }
        if let Some(run) = rare.one_of {
            if mcp || plain || gemini_json {
                self.list(&mut members, "oneOf", model.subschemas(run), false)?;
            } else {
                if !any_of.is_empty() {
                    return Err(
                        "both anyOf and oneOf on one node, which this shape can only \
                                write as one anyOf"
                            .into(),
                    );
                }
                any_of.extend(model.subschemas(run));
            }
        }
        let root_union = !any_of.is_empty() || (gemini_json && rare.one_of.is_some());
        if (openai || gemini || gemini_json) && root && root_union {
            return Err(
                "the arguments' schema is a union at its root; this shape needs an \
                        object there (\"the root level object of a schema must be an object, \
                        and not use anyOf\")"
                    .into(),
            );
        }
        if gemini {
            // Gemini writes a `null` branch as `nullable`, as google-genai does.
            let before = any_of.len();
            any_of.retain(|&branch| !self.null_only(branch));
            if any_of.len() < before && !members.has("nullable") {
                members.put("nullable", |out| out.boolean(true));
            }
            if any_of.len() == 1 && !self.has_shape_keywords(node) {
                // One branch left: the node is that branch.
                let branch = any_of[0];
                let mut inner = Json::default();
                self.node(&mut inner, branch, place)?;
                merge(&mut members, &inner.bytes);
                any_of.clear();
            }
        }
        if null_branch || (optional_nullable && !any_of.is_empty() && types.is_empty()) {
            null_branch = true;
        }
        if !any_of.is_empty() || null_branch {
            if rare.reference.is_some() && null_branch && any_of.is_empty() {
                // `{"$ref": ...}` made nullable: `anyOf` of the reference and `null`.
                if let Some(target) = members.take("$ref") {
                    members.put(any_of_key, |list| {
                        list.raw(b"[{\"$ref\":");
                        list.raw(&target);
                        list.raw(b"},{\"type\":\"null\"}]");
                    });
                }
            } else {
                let with_null = null_branch && !any_of.iter().any(|&branch| self.null_only(branch));
                self.list(&mut members, any_of_key, &any_of, with_null)?;
            }
        }
        any_of_key = "allOf";
        if let Some(run) = rare.all_of {
            let branches = model.subschemas(run);
            if openai || gemini || gemini_json {
                return Err(format!(
                    "allOf, which {} does not support",
                    if openai {
                        "OpenAI's strict mode (\"Composition: allOf, not, ...\")"
                    } else if gemini {
                        "Gemini's schema"
                    } else {
                        "Gemini's JSON Schema (it is not among the keywords the API lists)"
                    }
                ));
            }
            self.list(&mut members, any_of_key, branches, false)?;
        }

        // Objects.
        let is_object =
            node.types.has(Type::Object) && (node.type_form != TypeForm::Absent || root);
        let open = node
            .additional
            .is_some_and(|extra| model.node(extra).boolean != Some(false));
        if strict && open {
            return Err(format!(
                "an object that takes other members (additionalProperties), which {} cannot \
                 declare: it requires additionalProperties false on every object",
                if openai {
                    "OpenAI's strict mode"
                } else {
                    "Anthropic's strict mode"
                }
            ));
        }
        let closed_given = node
            .additional
            .is_some_and(|extra| model.node(extra).boolean == Some(false));
        let properties = model.properties(node);
        let with_properties = node.has_properties
            || (is_object && (root || strict) && node.additional.is_none_or(|_| closed_given));
        if with_properties {
            members.try_put("properties", |map| {
                map.raw(b"{");
                for (i, property) in properties.iter().enumerate() {
                    if i > 0 {
                        map.raw(b",");
                    }
                    let name = model.str(property.name);
                    if rules == Rules::Gemini && !is_gemini_parameter_name(name.as_bytes()) {
                        return Err(format!(
                            "property name {name:?} is not one Gemini takes (a letter or \
                             underscore, then letters, digits and underscores)"
                        ));
                    }
                    string(map, model, escapes, property.name);
                    map.raw(b":");
                    let place = if property.required {
                        Place::Required
                    } else {
                        Place::Optional
                    };
                    self.node(map, property.schema, place)?;
                }
                map.raw(b"}");
                Ok(())
            })?;
        }
        // Names `required` gives that `properties` does not declare (an open object's members,
        // zod's record of an enum's keys). Gemini refuses them: "parameters.required[0]:
        // property is not defined" (github.com/iBUHub/AIStudioToAPI/issues/154, the API's answer
        // to a `required` name missing from `properties`), so its declaration leaves them out;
        // check_call still requires them. A strict mode closes every object, where no call
        // could give one.
        let undeclared = rare.undeclared_required.filter(|_| !gemini);
        if let Some(&Scalar::String(name)) = undeclared
            .filter(|_| strict)
            .and_then(|run| model.values(run).first())
        {
            return Err(format!(
                "the required member {:?}, which properties does not declare: {} closes every \
                 object",
                model.str(name),
                if openai {
                    "OpenAI's strict mode"
                } else {
                    "Anthropic's strict mode"
                }
            ));
        }
        if (with_properties && (openai || node.has_required)) || undeclared.is_some() {
            members.put("required", |out| {
                out.raw(b"[");
                let mut written = 0;
                let mut name = |out: &mut Json, name| {
                    if written > 0 {
                        out.raw(b",");
                    }
                    string(out, model, escapes, name);
                    written += 1;
                };
                if undeclared.is_some() {
                    model
                        .required(node)
                        .for_each(|required| name(out, required));
                } else {
                    (properties.iter())
                        .filter(|property| openai || property.required)
                        .for_each(|property| name(out, property.name));
                }
                out.raw(b"]");
            });
        }
        if is_object && strict {
            members.put("additionalProperties", |out| out.boolean(false));
        } else if let Some(extra) = node.additional {
            if !gemini {
                members.try_put("additionalProperties", |value| {
                    self.node(value, extra, Place::Inside)
                })?;
            }
        }
        if let Some(names) = rare.property_names {
            if mcp || plain {
                members.try_put("propertyNames", |value| {
                    self.node(value, names, Place::Inside)
                })?;
            }
        }
        if mcp || plain || gemini {
            count(&mut members, "minProperties", rare.min_properties);
            count(&mut members, "maxProperties", rare.max_properties);
        }

        // Arrays. Gemini's schema has no tuple: its elements' schemas are dropped (check_call
        // still applies them), and with them the `items` after them, whose schema is only the
        // rest's: written alone, it would say every element is of the rest's type.
        let tuple_dropped = gemini && rare.prefix_items.is_some();
        if let Some(items) = node.items.filter(|_| !tuple_dropped) {
            members.try_put("items", |value| self.node(value, items, Place::Inside))?;
        }
        if let Some((form, run)) = rare.prefix_items.filter(|_| !tuple_dropped) {
            if !(mcp || plain || gemini_json) {
                return Err(format!(
                    "a tuple (prefixItems), which {} does not document",
                    if openai {
                        "OpenAI's strict mode"
                    } else {
                        "Anthropic's strict mode"
                    }
                ));
            }
            // Draft-07's `items` list is 2020-12's `prefixItems` (and its `additionalItems` the
            // 2020-12 `items`): every shape but mcp, which keeps the catalog's own words beside
            // its `$schema`, writes 2020-12, as their parameters are read.
            let key = match form {
                TupleForm::ItemsList if mcp => "items",
                _ => "prefixItems",
            };
            self.list(&mut members, key, model.subschemas(run), false)?;
        }
        if let Some(extra) = rare.additional_items.filter(|_| !tuple_dropped) {
            let key = if mcp { "additionalItems" } else { "items" };
            members.try_put(key, |value| self.node(value, extra, Place::Inside))?;
        }
        if let Some(min) = rare.min_items {
            if !anthropic || min <= 1 {
                count(&mut members, "minItems", Some(min));
            }
        }
        if !anthropic {
            count(&mut members, "maxItems", rare.max_items);
        }
        if mcp || plain {
            if let Some(flag) = node.unique_items {
                members.put("uniqueItems", |out| out.boolean(flag));
            }
        }

        // Strings.
        if !strict && !gemini_json {
            count(&mut members, "minLength", rare.min_length);
            count(&mut members, "maxLength", rare.max_length);
        }
        if !anthropic && !gemini_json {
            text(&mut members, "pattern", rare.pattern);
        }
        if let Some(format) = rare.format {
            let name = model.str(format);
            let kept = match rules {
                Rules::Mcp | Rules::Plain => true,
                // The strict modes' and Gemini's lists are formats of strings: on a node that
                // cannot be one (`"type":"integer","format":"int32"`), the format goes.
                _ if !node.types.has(Type::String) => false,
                Rules::OpenAiStrict => OPENAI_FORMATS.contains(&name),
                Rules::AnthropicStrict => ANTHROPIC_FORMATS.contains(&name),
                Rules::Gemini => GEMINI_FORMATS.contains(&name),
                Rules::GeminiJsonSchema => true,
            };
            if kept {
                text(&mut members, "format", Some(format));
            }
        }

        // Numbers.
        let integer = types.len() == 1 && types[0] == Type::Integer;
        if !anthropic {
            let number =
                |members: &mut Members, key: &'static str, bound: Option<crate::schema::Number>| {
                    if let Some(bound) = bound {
                        members.put(key, |out| out.raw(model.str(bound.text).as_bytes()));
                    }
                };
            let mut minimum = rare.minimum;
            let mut maximum = rare.maximum;
            if gemini || gemini_json {
                // An integer's exclusive bound is the inclusive one next to it; a number's has
                // no equivalent in Gemini's schemas, and check_call still applies it.
                if integer {
                    if let Some(bound) = rare.exclusive_minimum.filter(|b| b.value.fract() == 0.0) {
                        if minimum.is_none_or(|min| min.value <= bound.value) {
                            minimum = None;
                            let next = format!("{}", bound.value as i64 + 1);
                            members.put("minimum", |out| out.raw(next.as_bytes()));
                        }
                    }
                    if let Some(bound) = rare.exclusive_maximum.filter(|b| b.value.fract() == 0.0) {
                        if maximum.is_none_or(|max| max.value >= bound.value) {
                            maximum = None;
                            let next = format!("{}", bound.value as i64 - 1);
                            members.put("maximum", |out| out.raw(next.as_bytes()));
                        }
                    }
                }
            } else {
                number(&mut members, "exclusiveMinimum", rare.exclusive_minimum);
                number(&mut members, "exclusiveMaximum", rare.exclusive_maximum);
                number(&mut members, "multipleOf", rare.multiple_of);
            }
            number(&mut members, "minimum", minimum);
            number(&mut members, "maximum", maximum);
        }

        // Gemini's JSON Schema takes nothing beside a `$ref` but `$` keywords: the reference
        // becomes the one branch of an `anyOf`, which means the same.
        if gemini_json && members.has("$ref") {
            let beside = (members.entries.iter()).any(|entry| !entry.0.starts_with('$'));
            if beside {
                if members.has("anyOf") || members.has("oneOf") {
                    return Err(format!(
                        "{} has a union beside it, and Gemini's JSON Schema takes nothing \
                         beside a $ref",
                        rare.reference
                            .map_or("the reference", |(text, _)| model.str(text))
                    ));
                }
                if let Some(target) = members.take("$ref") {
                    members.put("anyOf", |list| {
                        list.raw(b"[{\"$ref\":");
                        list.raw(&target);
                        list.raw(b"}]");
                    });
                }
            }
        }

        self.finish(out, members);
        Ok(())
    }

    /// Writes a node's `members` into `out`, and keeps them for another node.
    fn finish(&mut self, out: &mut Json, mut members: Members) {
        write_members(out, &mut members);
        members.clear();
        self.spare.push(members);
    }

    /// `key: [branch, ...]`, each branch a node, and a last `{"type":"null"}` when `null`.
    fn list(
        &mut self,
        members: &mut Members,
        key: &'static str,
        branches: &[NodeId],
        null: bool,
    ) -> Result<(), NotExpressible> {
        members.try_put(key, |list| {
            list.raw(b"[");
            for (i, &branch) in branches.iter().enumerate() {
                if i > 0 {
                    list.raw(b",");
                }
                self.node(list, branch, Place::Inside)?;
            }
            if null {
                if !branches.is_empty() {
                    list.raw(b",");
                }
                list.raw(b"{\"type\":\"null\"}");
            }
            list.raw(b"]");
            Ok(())
        })
    }

    /// Whether `target` reaches itself without passing through a member a call may leave
    /// out (a property that is not required, or a member of a map): a cycle that Gemini, which
    /// unrolls a cyclic reference "to a limited degree", could not end.
    fn cycle_of_required(&self, target: NodeId) -> bool {
        let model = self.model;
        let next = |id: NodeId| {
            let node = model.node(id);
            let optional: Vec<NodeId> = (model.properties(node).iter())
                .filter(|property| !property.required)
                .map(|property| property.schema)
                .chain(node.additional)
                .collect();
            model
                .children(node)
                .filter(move |child| !optional.contains(child))
        };
        let mut stack: Vec<NodeId> = next(target).collect();
        let mut seen = vec![];
        while let Some(id) = stack.pop() {
            if id == target {
                return true;
            }
            if !seen.contains(&id) {
                seen.push(id);
                stack.extend(next(id));
            }
        }
        false
    }

    /// Whether a node is `{"type":"null"}` and nothing else that matters.
    fn null_only(&self, id: NodeId) -> bool {
        let node = self.model.node(id);
        let rare = self.model.rare(node);
        node.type_form != TypeForm::Absent
            && node.types == Types::of(Type::Null)
            && node.enumeration.is_none()
            && rare.constant.is_none()
    }

    /// Whether a node holds a union or a reference, which carry their own types.
    fn union_or_reference(&self, node: &Schema) -> bool {
        let rare = self.model.rare(node);
        node.any_of.is_some()
            || rare.one_of.is_some()
            || rare.all_of.is_some()
            || rare.reference.is_some()
    }

    /// Whether a node's `$ref` stands alone but for annotations (which the inlined target takes
    /// on), so that inlining it loses nothing.
    fn only_reference(&self, node: &Schema) -> bool {
        let rare = self.model.rare(node);
        node.type_form == TypeForm::Absent
            && !node.has_properties
            && node.nullable.is_none()
            && node.enumeration.is_none()
            && rare.constant.is_none()
            && node.any_of.is_none()
            && rare.one_of.is_none()
            && rare.all_of.is_none()
            && rare.discriminator.is_none()
            && node.items.is_none()
            && rare.prefix_items.is_none()
            && rare.additional_items.is_none()
            && node.additional.is_none()
            && rare.property_names.is_none()
            && rare.min_properties.is_none()
            && rare.max_properties.is_none()
            && rare.min_items.is_none()
            && rare.max_items.is_none()
            && node.unique_items.is_none()
            && rare.min_length.is_none()
            && rare.max_length.is_none()
            && rare.pattern.is_none()
            && rare.format.is_none()
            && rare.minimum.is_none()
            && rare.maximum.is_none()
            && rare.exclusive_minimum.is_none()
            && rare.exclusive_maximum.is_none()
            && rare.multiple_of.is_none()
    }

    /// Whether a node has keywords of its own beyond a union (so its one branch cannot simply
    /// replace it).
    fn has_shape_keywords(&self, node: &Schema) -> bool {
        let rare = self.model.rare(node);
        node.type_form != TypeForm::Absent
            || node.has_properties
            || node.enumeration.is_some()
            || rare.constant.is_some()
            || node.items.is_some()
            || rare.reference.is_some()
    }

    /// Whether `target` can reach itself through references (a recursive schema).
    fn recursive(&self, target: NodeId) -> bool {
        // Only a reference leads back to a node: everything else is a tree.
        let model = self.model;
        let mut stack: Vec<NodeId> = model.children(model.node(target)).collect();
        let mut seen = vec![];
        while let Some(id) = stack.pop() {
            if id == target {
                return true;
            }
            if !seen.contains(&id) {
                seen.push(id);
                stack.extend(model.children(model.node(id)));
            }
        }
        false
    }
}

/// A node's types, in [`Type`]'s order but for a `null` added last: on the stack, as every node
/// has its list.
#[derive(Clone, Copy)]
struct TypeList {
    types: [Type; Type::ALL.len()],
    len: usize,
}

impl Default for TypeList {
    fn default() -> TypeList {
        TypeList {
            types: [Type::Object; Type::ALL.len()],
            len: 0,
        }
    }
}

impl TypeList {
    /// Adds a type the list does not hold yet.
    fn push(&mut self, ty: Type) {
        if !self.contains(&ty) && self.len < self.types.len() {
            self.types[self.len] = ty;
            self.len += 1;
        }
    }

    fn retain(&mut self, keep: impl Fn(&Type) -> bool) {
        let mut kept = TypeList::default();
        self.iter()
            .filter(|ty| keep(ty))
            .for_each(|&ty| kept.push(ty));
        *self = kept;
    }
}

impl std::ops::Deref for TypeList {
    type Target = [Type];

    fn deref(&self) -> &[Type] {
        &self.types[..self.len]
    }
}

/// An object of `members`, its keys in byte order.
fn write_members(out: &mut Json, members: &mut Members) {
    // Keys in byte order. The keys of one node seldom share a first byte, and comparing that
    // first saves calling the library's comparison for most pairs.
    fn order(key: &str) -> (Option<u8>, &[u8]) {
        (key.as_bytes().first().copied(), key.as_bytes())
    }
    members.entries.sort_by(|a, b| order(a.0).cmp(&order(b.0)));
    // Room for the whole object at once: a tool's parameters are written into a new buffer
    // by their root's members, which grew it a doubling at a time.
    let size: usize = (members.entries.iter())
        .map(|&(key, start, end)| key.len() + 4 + (end - start) as usize)
        .sum();
    out.bytes.reserve(size + 2);
    out.raw(b"{");
    for (i, &(key, start, end)) in members.entries.iter().enumerate() {
        if i > 0 {
            out.raw(b",");
        }
        out.word(key);
        out.raw(b":");
        out.raw(&members.values.bytes[start as usize..end as usize]);
    }
    out.raw(b"}");
}

/// A count keyword, when given.
fn count(members: &mut Members, key: &'static str, value: Option<u64>) {
    if let Some(value) = value {
        members.put(key, |out| out.unsigned(value));
    }
}

/// A list of types, in [`Type`]'s order.
fn type_list(out: &mut Json, types: &[Type]) {
    out.raw(b"[");
    for (i, ty) in types.iter().enumerate() {
        if i > 0 {
            out.raw(b",");
        }
        out.word(ty.as_str());
    }
    out.raw(b"]");
}

/// Adds the members of a rendered object to `members`, keeping any key already there.
fn merge(members: &mut Members, object: &[u8]) {
    let mut tokens = crate::tokenizer::Tokenizer::new(object);
    let _ = tokens.next();
    while let Ok(Some(key)) = tokens.next() {
        if key.kind != crate::tokenizer::Kind::Key {
            break;
        }
        let Ok(Some(value)) = tokens.next() else {
            break;
        };
        let Ok(end) = tokens.skip(value) else {
            break;
        };
        let name = &key.raw[1..key.raw.len() - 1];
        let known = KNOWN_KEYS.iter().find(|known| known.as_bytes() == name);
        if let Some(known) = known {
            if !members.has(known) {
                members.push(known, &object[value.at..end]);
            }
        }
    }
}

/// Every key the renderer writes, for [`merge`].
const KNOWN_KEYS: [&str; 30] = [
    "$ref",
    "additionalProperties",
    "anyOf",
    "const",
    "default",
    "description",
    "enum",
    "exclusiveMaximum",
    "exclusiveMinimum",
    "format",
    "items",
    "maxItems",
    "maxLength",
    "maxProperties",
    "maximum",
    "minItems",
    "minLength",
    "minProperties",
    "minimum",
    "multipleOf",
    "nullable",
    "pattern",
    "properties",
    "propertyNames",
    "required",
    "type",
    "uniqueItems",
    "prefixItems",
    "allOf",
    "oneOf",
];

/// Every declaration of a catalog, each followed by its newline, and where each sits: rendered
/// once, when the catalog is read, so that a request is a copy of one or a few slices.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) struct Rendered {
    /// The bytes of every answer, laid out by `layout.rs`: whole, or shared between shapes.
    pub(crate) bytes: Vec<u8>,
    /// Runs of `bytes`; each answer is one or more in a row.
    pub(crate) pieces: Vec<crate::layout::Piece>,
    /// Where each declaration's run of `pieces` (its newline at the end) starts, at its
    /// [`slot`], with [`REASON`] set when its one piece is why it cannot be declared; it ends
    /// where the next slot's starts, and one more entry ends the last. Answers are laid out in
    /// slot order, so a start is all a slot needs: four bytes, where a `(first, end, declared)`
    /// was twelve, a tenth of the memory a run-time catalog of many tools keeps. Slots for strict
    /// in a format without it are empty runs.
    pub(crate) spans: Vec<u32>,
}

/// The bit of a [`Rendered::spans`] entry that says its one piece is a reason, not an answer.
pub(crate) const REASON: u32 = 1 << 31;

/// A reason no longer than [`MAX_REASON`] bytes (a `$ref` it names may be long), ending in
/// `...` where it was cut, so that an error can hold it whole.
fn cut_reason(reason: &str) -> std::borrow::Cow<'_, str> {
    if reason.len() <= MAX_REASON {
        return reason.into();
    }
    let mut end = MAX_REASON - 3;
    while !reason.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &reason[..end]).into()
}

impl Rendered {
    /// The longest `tool_list` answer over every shape, for `tools` tools: `[` and `]`, each
    /// declaration's newline paying for its comma, the last one's for the list's own newline.
    pub(crate) fn longest_list(&self, tools: usize) -> usize {
        let length = |slot: usize| -> usize {
            let (first, end) = (self.spans[slot] & !REASON, self.spans[slot + 1] & !REASON);
            self.pieces[first as usize..end as usize]
                .iter()
                .map(|piece| (piece.end() - piece.start()) as usize)
                .sum()
        };
        (0..Format::ALL.len() * 2)
            .map(|shape| {
                2 + (0..tools)
                    .map(|tool| length(shape * tools + tool))
                    .sum::<usize>()
            })
            .max()
            .unwrap_or(0)
    }
}

/// Renders every tool of `model` in every shape, into `layout`: whole for the compiled-in
/// catalog (`build.rs` runs it, and the library carries the bytes; a test renders the generated
/// tables again), shared for a catalog read at run time. A tool's argument schema is written
/// once for each set of rules, and each shape that shares them wraps the same bytes.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn render(model: Model<'_>, mut layout: Layout) -> Rendered {
    let tools = model.tools.len();
    let mut spans = Vec::with_capacity(Format::ALL.len() * 2 * tools + 1);
    let mut schemas: Vec<Option<Result<Vec<u8>, NotExpressible>>> = vec![None; RULES * tools];
    // Where each of those was laid out, for the next shape that writes it.
    let mut laid = vec![Laid::default(); RULES * tools];
    let mut declared = Json::default();
    let mut spare = Vec::new();
    let escapes = &EscapeMap::of(model.text.as_bytes());
    // In slot order: every format, non-strict then strict.
    for shape in Format::ALL
        .into_iter()
        .flat_map(|format| [false, true].map(|strict| (format, strict)))
    {
        let Some(shape) = Shape::new(shape.0, shape.1) else {
            let at = layout.pieces.len() as u32;
            spans.extend(std::iter::repeat_n(at, tools));
            continue;
        };
        let rules = rules(shape);
        for (index, tool) in model.tools.iter().enumerate() {
            let at = rules as usize * tools + index;
            let schema = schemas[at]
                .get_or_insert_with(|| parameters(model, escapes, tool, rules, &mut spare));
            declared.bytes.clear();
            let result = match schema {
                Ok(schema) => declaration(&mut declared, model, escapes, tool, shape, schema),
                Err(reason) => Err(reason.clone()),
            };
            debug_assert_eq!(spans.len(), slot(shape, index, tools));
            let span = match result {
                Ok(parameters_at) => {
                    declared.raw(b"\n");
                    layout
                        .add_declaration(&declared.bytes, parameters_at, &mut laid[at])
                        .0
                }
                Err(reason) => layout.add(cut_reason(&reason).as_bytes(), true).0 | REASON,
            };
            spans.push(span);
        }
    }
    spans.push(layout.pieces.len() as u32);
    let (bytes, pieces) = layout.finish();
    Rendered {
        bytes,
        pieces,
        spans,
    }
}
