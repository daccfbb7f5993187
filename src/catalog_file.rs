//! Reads a catalog file, checks it against every provider's rules, and writes the Rust tables
//! that `catalog.rs` includes.
//!
//! The file is exactly an MCP `tools/list` result's `tools` array:
//! `[{"name","description","inputSchema","annotations"?}]`. `build.rs` includes this module by
//! path (with the tokenizer and the error type beneath it), so a catalog that breaks a rule
//! fails the build, not a request, with one line that names the tool, the JSON Pointer
//! (RFC 6901) of the offending value and the rule. The library exposes it too, so that the
//! rules can be tested one by one and fuzzed.
//!
//! Unlike the request path, this code allocates freely: it runs once, when the crate is built.
//! It reads the document into a tree without recursion (an explicit stack), then walks the tree;
//! the walk recurses once per schema level, and the tokenizer's depth limit bounds that.

use crate::schema::{
    is_property_name, is_tool_name, Hints, NodeId, Number, OwnedModel, Property, Run, Scalar,
    Schema, Text, Tool, Type,
};
use crate::tokenizer::{decode, Kind, Tokenizer};
use std::fmt::{self, Write as _};

/// The largest catalog file read, in bytes.
pub const MAX_CATALOG: usize = 16 * 1024 * 1024;

pub use crate::schema::MAX_DESCRIPTION;

/// OpenAI strict's limits on a schema
/// (developers.openai.com/api/docs/guides/structured-outputs#supported-schemas): at most 10
/// levels of object nesting, 5,000 object properties and 1,000 enum values. They are applied to
/// the whole catalog, so that any tool list can be sent in strict mode.
pub const MAX_OBJECT_NESTING: usize = 10;
/// The most object properties in the whole catalog, all tools counted: OpenAI strict's limit.
pub const MAX_PROPERTIES: usize = 5_000;
/// The most enum values in the whole catalog, all tools counted: OpenAI strict's limit.
pub const MAX_ENUM_VALUES: usize = 1_000;

/// A catalog read and checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Catalog {
    /// In the file's order, which is the order `TOOLS` and every tool list keep.
    pub tools: Vec<ToolSpec>,
}

/// One tool as the catalog gives it, with MCP's defaults filled in for absent hints.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSpec {
    /// Checked against the name rule every provider accepts, and unique in the catalog.
    pub name: String,
    /// At most [`MAX_DESCRIPTION`] bytes, OpenAI's limit.
    pub description: String,
    /// `readOnlyHint`, `false` when absent.
    pub read_only: bool,
    /// `destructiveHint`, `true` when absent unless the tool is read-only; never set together
    /// with `read_only`.
    pub destructive: bool,
    /// `idempotentHint`, `false` when absent.
    pub idempotent: bool,
    /// `openWorldHint`, `true` when absent.
    pub open_world: bool,
    /// The `inputSchema`: always an `object` node.
    pub input: NodeSpec,
}

/// One schema node as the catalog gives it; see `schema.rs` for what each field means.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeSpec {
    /// The JSON Schema type name, one of the subset's six: decides which keywords are allowed.
    pub ty: &'static str,
    /// Text for the model, decoded.
    pub description: Option<String>,
    /// A scalar node's default, checked to be of its type and within its own constraints.
    pub default: Option<ScalarSpec>,
    /// Sorted by name, byte order, with whether each is required.
    pub properties: Vec<(String, bool, NodeSpec)>,
    /// The catalog gave `required`, even an empty one, so the declaration writes it back.
    pub has_required: bool,
    /// The catalog gave `additionalProperties: false`.
    pub closed: bool,
    /// An array's element schema; every array has one.
    pub items: Option<Box<NodeSpec>>,
    /// `minItems`, not above `max_items`.
    pub min_items: Option<u64>,
    /// `maxItems`.
    pub max_items: Option<u64>,
    /// `enum`, in the catalog's order, each value of the node's type.
    pub enumeration: Option<Vec<ScalarSpec>>,
    /// `minLength`, in characters, not above `max_length`.
    pub min_length: Option<u64>,
    /// `maxLength`, in characters.
    pub max_length: Option<u64>,
    /// `minimum`, as written (so declarations repeat its bytes), not above `maximum`.
    pub minimum: Option<String>,
    /// `maximum`, as written.
    pub maximum: Option<String>,
}

/// A scalar value, a default or an enum value: a string (decoded), a number (as written) or a
/// boolean.
#[derive(Debug, Clone, PartialEq)]
pub enum ScalarSpec {
    /// The string's text, escapes decoded.
    String(String),
    /// The literal as written, so that declarations repeat the catalog's bytes.
    Number(String),
    /// `true` or `false`.
    Boolean(bool),
}

/// Why a catalog was refused: which tool, where in it, and which rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogError {
    /// `"name"` (quoted) or `#index` when the tool has no usable name; `None` for the document.
    pub tool: Option<String>,
    /// RFC 6901 JSON Pointer of the offending value: within the tool when `tool` is set, else
    /// within the document (`""` is the whole document).
    pub pointer: String,
    /// The rule, with what was found.
    pub rule: String,
}

impl fmt::Display for CatalogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(tool) = &self.tool {
            write!(f, "tool {tool}: ")?;
        }
        // A key may hold any character, a newline too: shown escaped, so the line stays one.
        let pointer = if self.pointer.is_empty() {
            "\"\"".to_string()
        } else {
            escaped(&self.pointer)
        };
        write!(f, "{pointer}: {}", self.rule)
    }
}

impl std::error::Error for CatalogError {}

/// Reads and checks a catalog file.
pub fn read(bytes: &[u8]) -> Result<Catalog, CatalogError> {
    let document = parse(bytes)?;
    let Value::Array(entries) = &document.value else {
        return Err(document_error(
            "",
            format!(
                "the catalog must be a JSON array of tools, found {}",
                describe(&document.value)
            ),
        ));
    };
    if entries.is_empty() {
        return Err(document_error(
            "",
            "the catalog has no tools; give at least one".into(),
        ));
    }
    let mut totals = Totals::default();
    let mut tools: Vec<ToolSpec> = Vec::with_capacity(entries.len());
    for (index, entry) in entries.iter().enumerate() {
        let tool = read_tool(index, entry, &mut totals)?;
        if let Some(earlier) = tools.iter().position(|t| t.name == tool.name) {
            return Err(tool_error(
                &quote(&tool.name),
                "/name",
                format!(
                    "{} is already the name of tool #{earlier}",
                    quote(&tool.name)
                ),
            ));
        }
        tools.push(tool);
    }
    Ok(Catalog { tools })
}

// ---------------------------------------------------------------------------------------------
// The document as a tree.

struct Node<'a> {
    value: Value<'a>,
}

enum Value<'a> {
    /// Members in document order, duplicates kept (the walk refuses them, with a pointer).
    Object(Vec<(String, Node<'a>)>),
    Array(Vec<Node<'a>>),
    String(String),
    /// As written.
    Number(&'a str),
    Bool(bool),
    Null,
}

/// A container being read, and the key its next member goes under.
struct Frame<'a> {
    node: Node<'a>,
    key: Option<String>,
}

fn parse(bytes: &[u8]) -> Result<Node<'_>, CatalogError> {
    let mut tokens = Tokenizer::with_limit(bytes, MAX_CATALOG);
    let mut stack: Vec<Frame<'_>> = Vec::new();
    loop {
        let token = match tokens.next() {
            Ok(Some(token)) => token,
            Ok(None) => unreachable_end(),
            Err(err) => {
                let rule = if err.code() == "too_large" {
                    format!("the file is over {MAX_CATALOG} bytes")
                } else if err.code() == "too_deep" {
                    format!("not a catalog: {err}")
                } else {
                    format!("not JSON: {err}")
                };
                return Err(document_error("", rule));
            }
        };
        let value = match token.kind {
            Kind::ObjectStart | Kind::ArrayStart => {
                let value = if token.kind == Kind::ObjectStart {
                    Value::Object(Vec::new())
                } else {
                    Value::Array(Vec::new())
                };
                stack.push(Frame {
                    node: Node { value },
                    key: None,
                });
                continue;
            }
            Kind::Key => {
                if let Some(frame) = stack.last_mut() {
                    frame.key = Some(text(token.raw));
                }
                continue;
            }
            Kind::ObjectEnd | Kind::ArrayEnd => match stack.pop() {
                Some(frame) => frame.node,
                None => unreachable_end(),
            },
            Kind::String => Node {
                value: Value::String(text(token.raw)),
            },
            Kind::Number => Node {
                // Number tokens are ASCII by the grammar.
                value: Value::Number(std::str::from_utf8(token.raw).unwrap_or("0")),
            },
            Kind::True | Kind::False => Node {
                value: Value::Bool(token.kind == Kind::True),
            },
            Kind::Null => Node { value: Value::Null },
        };
        match stack.last_mut() {
            None => {
                // The document's one value is complete: the rest must be whitespace.
                return match tokens.finish() {
                    Ok(()) => Ok(value),
                    Err(err) => Err(document_error("", format!("not JSON: {err}"))),
                };
            }
            Some(frame) => match &mut frame.node.value {
                Value::Object(members) => {
                    members.push((frame.key.take().unwrap_or_default(), value))
                }
                Value::Array(elements) => elements.push(value),
                _ => unreachable_end(),
            },
        }
    }
}

/// The tokenizer never ends a document, or closes a container, that was not opened: a
/// well-formed token stream cannot get here.
fn unreachable_end() -> ! {
    unreachable!("the tokenizer ended a document it had not started")
}

fn text(literal: &[u8]) -> String {
    let mut out = String::new();
    decode(literal, |c| out.push(c));
    out
}

fn describe(value: &Value<'_>) -> &'static str {
    match value {
        Value::Object(_) => "an object",
        Value::Array(_) => "an array",
        Value::String(_) => "a string",
        Value::Number(_) => "a number",
        Value::Bool(_) => "a boolean",
        Value::Null => "null",
    }
}

// ---------------------------------------------------------------------------------------------
// Errors and pointers.

fn document_error(pointer: &str, rule: String) -> CatalogError {
    CatalogError {
        tool: None,
        pointer: pointer.into(),
        rule,
    }
}

fn tool_error(tool: &str, pointer: &str, rule: String) -> CatalogError {
    CatalogError {
        tool: Some(tool.into()),
        pointer: pointer.into(),
        rule,
    }
}

/// `pointer` extended by one reference token, escaped as RFC 6901 section 3 asks.
fn child(pointer: &str, token: &str) -> String {
    let mut out = String::with_capacity(pointer.len() + token.len() + 1);
    out.push_str(pointer);
    out.push('/');
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
    out
}

/// A name or value as messages show it: in double quotes, escaped so it stays on one line.
fn quote(text: &str) -> String {
    format!("\"{}\"", escaped(text))
}

/// `text` with quotes, backslashes and anything that could break a line escaped, as in JSON.
fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() || c == '\u{2028}' || c == '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// The first key that appears twice in an object's members, if any.
fn duplicate<'m>(members: &'m [(String, Node<'_>)]) -> Option<&'m str> {
    let mut seen: Vec<&str> = Vec::with_capacity(members.len());
    for (key, _) in members {
        if seen.contains(&key.as_str()) {
            return Some(key);
        }
        seen.push(key);
    }
    None
}

// ---------------------------------------------------------------------------------------------
// Tools.

const TOOL_FIELDS: &str = "name, description, inputSchema, annotations";

fn read_tool(
    index: usize,
    entry: &Node<'_>,
    totals: &mut Totals,
) -> Result<ToolSpec, CatalogError> {
    let Value::Object(members) = &entry.value else {
        return Err(document_error(
            &format!("/{index}"),
            format!("a tool must be an object, found {}", describe(&entry.value)),
        ));
    };
    let label = match members.iter().find(|(key, _)| key == "name") {
        Some((
            _,
            Node {
                value: Value::String(name),
                ..
            },
        )) => quote(name),
        _ => format!("#{index}"),
    };
    read_tool_fields(members, totals).map_err(|(pointer, rule)| tool_error(&label, &pointer, rule))
}

/// A tool's fields, each checked in turn; a refusal's pointer is within the tool.
fn read_tool_fields(
    members: &[(String, Node<'_>)],
    totals: &mut Totals,
) -> Result<ToolSpec, SchemaError> {
    if let Some(key) = duplicate(members) {
        return Err((child("", key), format!("{} appears twice", quote(key))));
    }
    if let Some((key, _)) = members.iter().find(|(key, _)| {
        !matches!(
            key.as_str(),
            "name" | "description" | "inputSchema" | "annotations"
        )
    }) {
        return Err((
            child("", key),
            format!(
                "{} is not a field of a catalog tool; expected {TOOL_FIELDS}",
                quote(key)
            ),
        ));
    }
    let field = |name: &str| members.iter().find(|(key, _)| key == name).map(|(_, v)| v);
    let name = required_string(field("name"), "name")?;
    if !is_tool_name(name.as_bytes()) {
        return Err((
            "/name".into(),
            format!(
                "{} must match ^[a-zA-Z_][a-zA-Z0-9_-]{{0,63}}$ (OpenAI's and Anthropic's \
                 ^[a-zA-Z0-9_-]{{1,64}}$, starting with a letter or underscore as Gemini asks)",
                quote(&name)
            ),
        ));
    }
    let description = required_string(field("description"), "description")?;
    if description.len() > MAX_DESCRIPTION {
        return Err((
            "/description".into(),
            format!(
                "{} bytes; OpenAI allows at most {MAX_DESCRIPTION}",
                description.len()
            ),
        ));
    }
    let [read_only, destructive, idempotent, open_world] = read_hints(field("annotations"))?;
    let Some(input) = field("inputSchema") else {
        return Err((
            "".into(),
            "missing \"inputSchema\"; every tool needs one".into(),
        ));
    };
    let input = read_schema(input, "/inputSchema", 1, true, totals)?;
    Ok(ToolSpec {
        name,
        description,
        read_only,
        destructive,
        idempotent,
        open_world,
        input,
    })
}

/// A tool field that must be there and hold a string.
fn required_string(node: Option<&Node<'_>>, key: &str) -> Result<String, SchemaError> {
    match node {
        None => Err((
            "".into(),
            format!("missing \"{key}\"; every tool needs one"),
        )),
        Some(Node {
            value: Value::String(text),
            ..
        }) => Ok(text.clone()),
        Some(other) => Err((
            format!("/{key}"),
            format!("must be a string, found {}", describe(&other.value)),
        )),
    }
}

/// MCP's four hints, as `readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint`,
/// with MCP's defaults (modelcontextprotocol.io/specification, schema.ts `ToolAnnotations`):
/// readOnlyHint false, destructiveHint true, idempotentHint false, openWorldHint true.
/// destructiveHint is "meaningful only when readOnlyHint == false", so a read-only tool's
/// absent destructiveHint is false here, and an explicit true is refused.
fn read_hints(annotations: Option<&Node<'_>>) -> Result<[bool; 4], SchemaError> {
    const HINTS: [&str; 4] = [
        "readOnlyHint",
        "destructiveHint",
        "idempotentHint",
        "openWorldHint",
    ];
    let mut hints: [Option<bool>; 4] = [None; 4];
    if let Some(annotations) = annotations {
        let Value::Object(members) = &annotations.value else {
            return Err((
                "/annotations".into(),
                format!("must be an object, found {}", describe(&annotations.value)),
            ));
        };
        if let Some(key) = duplicate(members) {
            return Err((
                child("/annotations", key),
                format!("{} appears twice", quote(key)),
            ));
        }
        for (key, value) in members {
            let pointer = child("/annotations", key);
            let Some(slot) = HINTS.iter().position(|hint| hint == key) else {
                return Err((
                    pointer,
                    format!(
                        "{} is not a hint this catalog keeps; expected readOnlyHint, \
                         destructiveHint, idempotentHint, openWorldHint",
                        quote(key)
                    ),
                ));
            };
            let Value::Bool(flag) = value.value else {
                return Err((
                    pointer,
                    format!("must be a boolean, found {}", describe(&value.value)),
                ));
            };
            hints[slot] = Some(flag);
        }
    }
    let read_only = hints[0].unwrap_or(false);
    if read_only && hints[1] == Some(true) {
        return Err((
            "/annotations/destructiveHint".into(),
            "true, but readOnlyHint is true: MCP gives destructiveHint meaning only when \
             readOnlyHint is false, so a read-only tool cannot be destructive"
                .into(),
        ));
    }
    Ok([
        read_only,
        hints[1].unwrap_or(!read_only),
        hints[2].unwrap_or(false),
        hints[3].unwrap_or(true),
    ])
}

// ---------------------------------------------------------------------------------------------
// Schemas.

/// Counts kept across the whole catalog, for OpenAI strict's limits.
#[derive(Default)]
struct Totals {
    properties: usize,
    enum_values: usize,
}

/// A refusal inside a schema: the pointer (within the tool) and the rule.
type SchemaError = (String, String);

const TYPES: &str = "object, array, string, integer, number, boolean";

/// Which types each keyword of the subset applies to; `type` and `description` apply to all.
const KEYWORDS: [(&str, &[&str]); 11] = [
    ("properties", &["object"]),
    ("required", &["object"]),
    ("additionalProperties", &["object"]),
    ("items", &["array"]),
    ("minItems", &["array"]),
    ("maxItems", &["array"]),
    ("enum", &["string", "integer", "number"]),
    ("minLength", &["string"]),
    ("maxLength", &["string"]),
    ("minimum", &["integer", "number"]),
    ("maximum", &["integer", "number"]),
];

fn read_schema(
    node: &Node<'_>,
    pointer: &str,
    object_depth: usize,
    root: bool,
    totals: &mut Totals,
) -> Result<NodeSpec, SchemaError> {
    let Value::Object(members) = &node.value else {
        return Err((
            pointer.into(),
            format!(
                "a schema must be an object, found {}",
                describe(&node.value)
            ),
        ));
    };
    if let Some(key) = duplicate(members) {
        return Err((child(pointer, key), format!("{} appears twice", quote(key))));
    }
    let field = |name: &str| members.iter().find(|(key, _)| key == name).map(|(_, v)| v);
    let ty = read_type(field("type"), pointer, root)?;
    if ty == "object" && object_depth > MAX_OBJECT_NESTING {
        return Err((
            pointer.into(),
            format!(
                "{object_depth} levels of object nesting; OpenAI strict allows at most \
                 {MAX_OBJECT_NESTING}"
            ),
        ));
    }
    for (key, _) in members {
        check_keyword(key, ty, pointer, root)?;
    }

    let mut spec = NodeSpec {
        ty,
        description: None,
        default: None,
        properties: Vec::new(),
        has_required: false,
        closed: false,
        items: None,
        min_items: None,
        max_items: None,
        enumeration: None,
        min_length: None,
        max_length: None,
        minimum: None,
        maximum: None,
    };
    let string_of = |key: &str| -> Result<Option<String>, SchemaError> {
        match field(key) {
            None => Ok(None),
            Some(Node {
                value: Value::String(text),
                ..
            }) => Ok(Some(text.clone())),
            Some(other) => Err((
                child(pointer, key),
                format!("must be a string, found {}", describe(&other.value)),
            )),
        }
    };
    spec.description = string_of("description")?;
    string_of("$schema")?;

    match ty {
        "object" => read_object(&mut spec, &field, pointer, object_depth, root, totals)?,
        "array" => read_array(&mut spec, &field, pointer, object_depth, totals)?,
        "string" => {
            (spec.min_length, spec.max_length) = counts(&field, pointer, "minLength", "maxLength")?;
        }
        "integer" | "number" => (spec.minimum, spec.maximum) = bounds(&field, pointer)?,
        _ => {}
    }
    if let Some(values) = field("enum") {
        spec.enumeration = Some(read_enum(values, ty, pointer, totals)?);
    }
    if let Some(default) = field("default") {
        spec.default = Some(read_default(default, &spec, pointer)?);
    }
    Ok(spec)
}

/// The node's one type, of those the subset has; the root's must be `object`.
fn read_type(
    node: Option<&Node<'_>>,
    pointer: &str,
    root: bool,
) -> Result<&'static str, SchemaError> {
    let ty: &'static str = match node {
        None => {
            return Err((
                pointer.into(),
                format!("missing \"type\"; give exactly one of {TYPES}"),
            ))
        }
        Some(Node {
            value: Value::String(ty),
            ..
        }) => match ["object", "array", "string", "integer", "number", "boolean"]
            .into_iter()
            .find(|known| known == ty)
        {
            Some(known) => known,
            None => {
                return Err((
                    child(pointer, "type"),
                    format!(
                        "{} is not a supported type; expected one of {TYPES}",
                        quote(ty)
                    ),
                ))
            }
        },
        Some(Node {
            value: Value::Array(_),
            ..
        }) => {
            return Err((
                child(pointer, "type"),
                format!("a list of types is not supported; give exactly one of {TYPES}"),
            ))
        }
        Some(other) => {
            return Err((
                child(pointer, "type"),
                format!("must be a string, found {}", describe(&other.value)),
            ))
        }
    };
    if root && ty != "object" {
        return Err((
            child(pointer, "type"),
            format!("the arguments must be an object, found {}", quote(ty)),
        ));
    }
    Ok(ty)
}

/// That `key` is a keyword of the subset and applies to a node of type `ty`.
fn check_keyword(key: &str, ty: &str, pointer: &str, root: bool) -> Result<(), SchemaError> {
    let applies = match key {
        "type" | "description" => true,
        "$schema" if root => true,
        "$schema" => {
            return Err((
                child(pointer, key),
                "only the root of inputSchema may have \"$schema\"".into(),
            ))
        }
        "default" if matches!(ty, "object" | "array") => {
            return Err((
                child(pointer, key),
                format!(
                    "\"default\" applies to string, integer, number and boolean schemas, \
                     not {ty}"
                ),
            ))
        }
        "default" => true,
        other => match KEYWORDS.iter().find(|(keyword, _)| *keyword == other) {
            Some((_, types)) if types.contains(&ty) => true,
            Some((keyword, types)) => {
                return Err((
                    child(pointer, key),
                    format!(
                        "\"{keyword}\" applies to {} schemas, not {ty}",
                        types.join(" and ")
                    ),
                ))
            }
            None => false,
        },
    };
    if applies {
        return Ok(());
    }
    Err((
        child(pointer, key),
        format!(
            "keyword {} is not supported; the catalog's schema subset is type, description, \
             properties, required, additionalProperties, items, minItems, maxItems, enum, \
             minLength, maxLength, minimum, maximum, default, and $schema at the root",
            quote(key)
        ),
    ))
}

/// An array's `items`, one schema, and its counts.
fn read_array<'n>(
    spec: &mut NodeSpec,
    field: &dyn Fn(&str) -> Option<&'n Node<'n>>,
    pointer: &str,
    object_depth: usize,
    totals: &mut Totals,
) -> Result<(), SchemaError> {
    let Some(items) = field("items") else {
        return Err((
            pointer.into(),
            "an array schema needs \"items\", one schema for every element".into(),
        ));
    };
    let items_pointer = child(pointer, "items");
    if let Value::Array(_) = items.value {
        return Err((
            items_pointer,
            "must be one schema object; a list of schemas (a tuple) is not supported".into(),
        ));
    }
    spec.items = Some(Box::new(read_schema(
        items,
        &items_pointer,
        object_depth + 1,
        false,
        totals,
    )?));
    (spec.min_items, spec.max_items) = counts(field, pointer, "minItems", "maxItems")?;
    Ok(())
}

/// A number's `minimum` and `maximum`, as written: finite 64-bit floats, the first not above
/// the second.
fn bounds<'n>(
    field: &dyn Fn(&str) -> Option<&'n Node<'n>>,
    pointer: &str,
) -> Result<(Option<String>, Option<String>), SchemaError> {
    let bound = |key: &str| -> Result<Option<(String, f64)>, SchemaError> {
        match field(key) {
            None => Ok(None),
            Some(Node {
                value: Value::Number(text),
                ..
            }) => match text.parse::<f64>() {
                Ok(value) if value.is_finite() => Ok(Some((text.to_string(), value))),
                _ => Err((
                    child(pointer, key),
                    format!("{text} is out of range for a 64-bit float"),
                )),
            },
            Some(other) => Err((
                child(pointer, key),
                format!("must be a number, found {}", describe(&other.value)),
            )),
        }
    };
    let (minimum, maximum) = (bound("minimum")?, bound("maximum")?);
    if let (Some((low, low_value)), Some((high, high_value))) = (&minimum, &maximum) {
        if low_value > high_value {
            return Err((
                child(pointer, "minimum"),
                format!("{low} is more than maximum {high}"),
            ));
        }
    }
    Ok((minimum.map(|(text, _)| text), maximum.map(|(text, _)| text)))
}

fn read_object<'n>(
    spec: &mut NodeSpec,
    field: &dyn Fn(&str) -> Option<&'n Node<'n>>,
    pointer: &str,
    object_depth: usize,
    root: bool,
    totals: &mut Totals,
) -> Result<(), SchemaError> {
    let properties_pointer = child(pointer, "properties");
    match field("properties") {
        None => {}
        Some(Node {
            value: Value::Object(members),
            ..
        }) => {
            if let Some(key) = duplicate(members) {
                return Err((
                    child(&properties_pointer, key),
                    format!("{} appears twice", quote(key)),
                ));
            }
            for (name, node) in members {
                let property_pointer = child(&properties_pointer, name);
                if !is_property_name(name.as_bytes()) {
                    return Err((
                        property_pointer,
                        format!(
                            "property name {} must match ^[a-zA-Z_][a-zA-Z0-9_]{{0,63}}$",
                            quote(name)
                        ),
                    ));
                }
                totals.properties += 1;
                if totals.properties > MAX_PROPERTIES {
                    return Err((
                        property_pointer,
                        format!(
                            "property {} of the catalog; OpenAI strict allows at most \
                             {MAX_PROPERTIES} in all",
                            totals.properties
                        ),
                    ));
                }
                let schema = read_schema(node, &property_pointer, object_depth + 1, false, totals)?;
                spec.properties.push((name.clone(), false, schema));
            }
        }
        Some(other) => {
            return Err((
                properties_pointer,
                format!("must be an object, found {}", describe(&other.value)),
            ))
        }
    }
    // A nested object that gives no `properties` (and is not closed) is free-form: any object.
    // One that declares none, or closes itself with none, admits only `{}`, which no tool means.
    // `required` counts too: the compiled-in check refuses a nested object that has it and no
    // properties, and every rule of that check must be refused here first, with one line.
    let declared = field("properties").is_some()
        || field("additionalProperties").is_some()
        || field("required").is_some();
    if !root && spec.properties.is_empty() && declared {
        let at = if field("properties").is_some() {
            properties_pointer
        } else {
            pointer.to_string()
        };
        return Err((
            at,
            "a nested object must have at least one property (or give none of properties, \
             required and additionalProperties, for a free-form object)"
                .into(),
        ));
    }
    spec.properties
        .sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));

    if let Some(required) = field("required") {
        let required_pointer = child(pointer, "required");
        let Value::Array(names) = &required.value else {
            return Err((
                required_pointer,
                format!(
                    "must be an array of property names, found {}",
                    describe(&required.value)
                ),
            ));
        };
        spec.has_required = true;
        for (i, name) in names.iter().enumerate() {
            let at = child(&required_pointer, &i.to_string());
            let Value::String(name) = &name.value else {
                return Err((
                    at,
                    format!("must be a property name, found {}", describe(&name.value)),
                ));
            };
            let Some(property) = spec.properties.iter_mut().find(|p| &p.0 == name) else {
                return Err((
                    at,
                    format!("{} is not a property of this object", quote(name)),
                ));
            };
            if property.1 {
                return Err((at, format!("{} appears twice", quote(name))));
            }
            property.1 = true;
        }
    }
    match field("additionalProperties") {
        None => {}
        Some(Node {
            value: Value::Bool(false),
            ..
        }) => spec.closed = true,
        Some(other) => {
            let found = match other.value {
                Value::Bool(true) => "true",
                _ => describe(&other.value),
            };
            return Err((
                child(pointer, "additionalProperties"),
                format!(
                    "only false is supported, found {found}: an open object can be neither \
                     declared strictly nor checked"
                ),
            ));
        }
    }
    Ok(())
}

/// A pair of count keywords (`minItems`/`maxItems`, `minLength`/`maxLength`): non-negative
/// integers, the first not above the second.
fn counts<'n>(
    field: &dyn Fn(&str) -> Option<&'n Node<'n>>,
    pointer: &str,
    low: &str,
    high: &str,
) -> Result<(Option<u64>, Option<u64>), SchemaError> {
    let count = |key: &str| -> Result<Option<u64>, SchemaError> {
        let Some(node) = field(key) else {
            return Ok(None);
        };
        let found = match node.value {
            Value::Number(text) => text.to_string(),
            _ => describe(&node.value).to_string(),
        };
        match node.value {
            Value::Number(text) if text.bytes().all(|b| b.is_ascii_digit()) => {
                text.parse::<u64>().map(Some).map_err(|_| {
                    (
                        child(pointer, key),
                        format!("{text} is too large for a count"),
                    )
                })
            }
            _ => Err((
                child(pointer, key),
                format!("must be a non-negative integer, found {found}"),
            )),
        }
    };
    let (min, max) = (count(low)?, count(high)?);
    if let (Some(min), Some(max)) = (min, max) {
        if min > max {
            return Err((
                child(pointer, low),
                format!("{min} is more than {high} {max}"),
            ));
        }
    }
    Ok((min, max))
}

/// An enum: at least one value, each of the node's type, none twice (numbers compared by value,
/// so `1` and `1.0` are the same value, as JSON Schema says).
fn read_enum(
    values: &Node<'_>,
    ty: &str,
    pointer: &str,
    totals: &mut Totals,
) -> Result<Vec<ScalarSpec>, SchemaError> {
    let enum_pointer = child(pointer, "enum");
    let Value::Array(elements) = &values.value else {
        return Err((
            enum_pointer,
            format!(
                "must be an array of values, found {}",
                describe(&values.value)
            ),
        ));
    };
    if elements.is_empty() {
        return Err((enum_pointer, "must list at least one value".into()));
    }
    let mut out: Vec<ScalarSpec> = Vec::with_capacity(elements.len());
    for (i, element) in elements.iter().enumerate() {
        let at = child(&enum_pointer, &i.to_string());
        let value = scalar_of(element, ty).map_err(|rule| (at.clone(), rule))?;
        if out.iter().any(|seen| same_value(seen, &value)) {
            return Err((at, "the same value appears twice".into()));
        }
        totals.enum_values += 1;
        if totals.enum_values > MAX_ENUM_VALUES {
            return Err((
                at,
                format!(
                    "enum value {} of the catalog; OpenAI strict allows at most \
                     {MAX_ENUM_VALUES} in all",
                    totals.enum_values
                ),
            ));
        }
        out.push(value);
    }
    Ok(out)
}

/// A value of type `ty`, or why it is not one.
fn scalar_of(node: &Node<'_>, ty: &str) -> Result<ScalarSpec, String> {
    let wrong = |what: &str| {
        Err(format!(
            "must be {what}, as the schema's type says; found {}",
            describe(&node.value)
        ))
    };
    match (ty, &node.value) {
        ("string", Value::String(text)) => Ok(ScalarSpec::String(text.clone())),
        ("string", _) => wrong("a string"),
        ("integer" | "number", Value::Number(text)) => {
            let value: f64 = text.parse().unwrap_or(f64::NAN);
            if !value.is_finite() {
                return Err(format!("{text} is out of range for a 64-bit float"));
            }
            if ty == "integer" && value.fract() != 0.0 {
                return Err(format!("{text} is not an integer"));
            }
            Ok(ScalarSpec::Number(text.to_string()))
        }
        ("integer", _) => wrong("an integer"),
        ("number", _) => wrong("a number"),
        ("boolean", Value::Bool(flag)) => Ok(ScalarSpec::Boolean(*flag)),
        _ => wrong("a boolean"),
    }
}

fn same_value(a: &ScalarSpec, b: &ScalarSpec) -> bool {
    match (a, b) {
        (ScalarSpec::Number(a), ScalarSpec::Number(b)) => {
            a.parse::<f64>().ok() == b.parse::<f64>().ok()
        }
        _ => a == b,
    }
}

/// A default of the node's own type, within its enum and bounds.
fn read_default(
    node: &Node<'_>,
    spec: &NodeSpec,
    pointer: &str,
) -> Result<ScalarSpec, SchemaError> {
    let at = child(pointer, "default");
    let value = scalar_of(node, spec.ty).map_err(|rule| (at.clone(), rule))?;
    if let Some(values) = &spec.enumeration {
        if !values.iter().any(|allowed| same_value(allowed, &value)) {
            return Err((at, "not one of the enum's values".into()));
        }
    }
    match &value {
        ScalarSpec::String(text) => {
            let length = text.chars().count() as u64;
            if spec.min_length.is_some_and(|min| length < min)
                || spec.max_length.is_some_and(|max| length > max)
            {
                return Err((
                    at,
                    format!(
                        "{} has {length} characters, outside minLength/maxLength",
                        quote(text)
                    ),
                ));
            }
        }
        ScalarSpec::Number(text) => {
            let value: f64 = text.parse().unwrap_or(f64::NAN);
            let below = spec
                .minimum
                .as_ref()
                .is_some_and(|min| value < min.parse().unwrap_or(f64::NEG_INFINITY));
            let above = spec
                .maximum
                .as_ref()
                .is_some_and(|max| value > max.parse().unwrap_or(f64::INFINITY));
            if below || above {
                return Err((at, format!("{text} is outside minimum/maximum")));
            }
        }
        ScalarSpec::Boolean(_) => {}
    }
    Ok(value)
}

// ---------------------------------------------------------------------------------------------
// The Rust tables.

/// The catalog as the model's flat tables: what the renderer and the checker walk, whether the
/// catalog was compiled in or read at run time.
pub fn model(catalog: &Catalog) -> OwnedModel {
    let mut model = OwnedModel::default();
    for tool in &catalog.tools {
        let name = model.text(&tool.name);
        let description = model.text(&tool.description);
        let input = lower(&mut model, &tool.input);
        model.tools.push(Tool {
            name,
            description,
            input,
            hints: Hints {
                read_only: tool.read_only,
                destructive: tool.destructive,
                idempotent: tool.idempotent,
                open_world: tool.open_world,
            },
        });
    }
    model
}

/// Adds `spec` and everything under it to `model`, and returns its index. Children come before
/// their parent, and an object's properties are one run.
fn lower(model: &mut OwnedModel, spec: &NodeSpec) -> NodeId {
    let ty = match spec.ty {
        "object" => Type::Object,
        "array" => Type::Array,
        "string" => Type::String,
        "integer" => Type::Integer,
        "number" => Type::Number,
        _ => Type::Boolean,
    };
    let children: Vec<(Text, bool, NodeId)> = spec
        .properties
        .iter()
        .map(|(name, required, child)| {
            let node = lower(model, child);
            (model.text(name), *required, node)
        })
        .collect();
    let items = spec.items.as_ref().map(|items| lower(model, items));
    let properties = Run {
        start: model.properties.len() as u32,
        len: children.len() as u32,
    };
    for (name, required, schema) in children {
        model.properties.push(Property {
            name,
            required,
            schema,
        });
    }
    let enumeration = spec.enumeration.as_ref().map(|values| {
        let values: Vec<Scalar> = values.iter().map(|v| scalar(model, v)).collect();
        let run = Run {
            start: model.values.len() as u32,
            len: values.len() as u32,
        };
        model.values.extend(values);
        run
    });
    let node = Schema {
        ty,
        description: spec.description.as_deref().map(|text| model.text(text)),
        default: spec.default.as_ref().map(|value| scalar(model, value)),
        properties,
        has_required: spec.has_required,
        closed: spec.closed,
        items,
        min_items: spec.min_items,
        max_items: spec.max_items,
        enumeration,
        min_length: spec.min_length,
        max_length: spec.max_length,
        minimum: spec.minimum.as_deref().map(|text| number(model, text)),
        maximum: spec.maximum.as_deref().map(|text| number(model, text)),
    };
    model.nodes.push(node);
    model.nodes.len() as NodeId - 1
}

fn scalar(model: &mut OwnedModel, value: &ScalarSpec) -> Scalar {
    match value {
        ScalarSpec::String(text) => Scalar::String(model.text(text)),
        ScalarSpec::Number(text) => Scalar::Number(number(model, text)),
        ScalarSpec::Boolean(flag) => Scalar::Boolean(*flag),
    }
}

/// The reader has checked that the text is a finite 64-bit float.
fn number(model: &mut OwnedModel, text: &str) -> Number {
    Number {
        text: model.text(text),
        value: text.parse().unwrap_or(f64::NAN),
    }
}

/// The Rust source of the model's tables, as constants that `catalog.rs` includes. `source`
/// names the file in a comment. `{:?}` writes an `f64` as a Rust literal that reads back to the
/// same value, and a string as a literal of the same text.
pub fn rust_tables(model: &OwnedModel, source: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// Generated by build.rs from {source:?}. Do not edit."
    );
    let _ = writeln!(out, "const TEXT: &str = {:?};", model.text);
    let _ = writeln!(out, "const TOOL_TABLE: [Tool; {}] = [", model.tools.len());
    for tool in &model.tools {
        let hints = tool.hints;
        let _ = writeln!(
            out,
            "Tool {{ name: {}, description: {}, input: {}, hints: Hints {{ read_only: {}, \
             destructive: {}, idempotent: {}, open_world: {} }} }},",
            span(tool.name),
            span(tool.description),
            tool.input,
            hints.read_only,
            hints.destructive,
            hints.idempotent,
            hints.open_world,
        );
    }
    let _ = writeln!(out, "];");
    let _ = writeln!(out, "const NODE_TABLE: [Schema; {}] = [", model.nodes.len());
    for node in &model.nodes {
        let _ = writeln!(out, "{},", node_expression(node));
    }
    let _ = writeln!(out, "];");
    let _ = writeln!(
        out,
        "const PROPERTY_TABLE: [Property; {}] = [",
        model.properties.len()
    );
    for property in &model.properties {
        let _ = writeln!(
            out,
            "Property {{ name: {}, required: {}, schema: {} }},",
            span(property.name),
            property.required,
            property.schema
        );
    }
    let _ = writeln!(out, "];");
    let _ = writeln!(
        out,
        "const VALUE_TABLE: [Scalar; {}] = [",
        model.values.len()
    );
    for value in &model.values {
        let _ = writeln!(out, "{},", scalar_expression(value));
    }
    let _ = writeln!(out, "];");
    out
}

fn span(text: Text) -> String {
    format!("Text {{ start: {}, len: {} }}", text.start, text.len)
}

fn run(run: Run) -> String {
    format!("Run {{ start: {}, len: {} }}", run.start, run.len)
}

fn node_expression(node: &Schema) -> String {
    let mut out = String::from("Schema { ");
    if let Some(description) = node.description {
        let _ = write!(out, "description: Some({}), ", span(description));
    }
    if let Some(value) = &node.default {
        let _ = write!(out, "default: Some({}), ", scalar_expression(value));
    }
    if node.properties.len > 0 {
        let _ = write!(out, "properties: {}, ", run(node.properties));
    }
    if node.has_required {
        out.push_str("has_required: true, ");
    }
    if node.closed {
        out.push_str("closed: true, ");
    }
    if let Some(items) = node.items {
        let _ = write!(out, "items: Some({items}), ");
    }
    for (key, value) in [
        ("min_items", node.min_items),
        ("max_items", node.max_items),
        ("min_length", node.min_length),
        ("max_length", node.max_length),
    ] {
        if let Some(count) = value {
            let _ = write!(out, "{key}: Some({count}), ");
        }
    }
    if let Some(values) = node.enumeration {
        let _ = write!(out, "enumeration: Some({}), ", run(values));
    }
    for (key, value) in [("minimum", node.minimum), ("maximum", node.maximum)] {
        if let Some(number) = value {
            let _ = write!(out, "{key}: Some({}), ", number_expression(number));
        }
    }
    let _ = write!(out, "..Schema::of(Type::{:?}) }}", node.ty);
    out
}

fn scalar_expression(value: &Scalar) -> String {
    match value {
        Scalar::String(text) => format!("Scalar::String({})", span(*text)),
        Scalar::Number(number) => format!("Scalar::Number({})", number_expression(*number)),
        Scalar::Boolean(flag) => format!("Scalar::Boolean({flag})"),
    }
}

fn number_expression(number: Number) -> String {
    format!(
        "Number {{ text: {}, value: {:?} }}",
        span(number.text),
        number.value
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The generated literal keeps the spelling for writing and the value for comparing.
    #[test]
    fn numbers_keep_their_spelling_and_their_value() {
        let mut model = OwnedModel::default();
        for (literal, value) in [("1E2", "100.0"), ("-0.50", "-0.5"), ("1e300", "1e300")] {
            let number = number(&mut model, literal);
            assert_eq!(model.model().str(number.text), literal);
            assert!(number_expression(number).ends_with(&format!("value: {value} }}")));
        }
    }
}
