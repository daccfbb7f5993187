//! The catalog's model: a tool, and the tree of JSON Schema nodes that describes its arguments.
//!
//! One model serves both halves of the tool contract. The renderer (`wire.rs`) walks it to write
//! each provider's declaration, and a call checker walks the same tree to judge a model's
//! arguments. `build.rs` fills it from the catalog file, after checking every rule, as `static`
//! data. Each node holds only the keywords of the subset that the catalog reader accepts (see
//! the README's "Catalog" section), and the renderer writes them in byte order.

/// A tool: what the model sees of it.
#[derive(Debug)]
pub struct Tool {
    /// `^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`, unique in the catalog.
    pub name: &'static str,
    /// At most [`MAX_DESCRIPTION`] bytes.
    pub description: &'static str,
    /// The arguments: always an [`Type::Object`] node, possibly without properties.
    pub input: Schema,
    /// What the tool does to its environment, for MCP's annotations.
    pub hints: Hints,
}

/// MCP's behaviour hints (`ToolAnnotations` in the MCP schema), resolved: a hint the catalog
/// leaves out has MCP's default here, and every hint is written out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hints {
    /// `readOnlyHint`: the tool does not change its environment, so a client can judge whether
    /// to ask before running it.
    pub read_only: bool,
    /// `destructiveHint`: the tool may overwrite or delete, not only add. Never set together with
    /// `read_only`.
    pub destructive: bool,
    /// `idempotentHint`: repeating a call with the same arguments has no further effect, so a
    /// client may retry it.
    pub idempotent: bool,
    /// `openWorldHint`: the tool reaches an open world of outside entities (the web, say), not
    /// only a closed domain.
    pub open_world: bool,
}

/// One schema node. Keywords that do not apply to its type are `None` or empty: the catalog
/// reader refuses them.
#[derive(Debug)]
pub struct Schema {
    /// The node's one type: decides which keywords it may have and what a call's value must be.
    pub ty: Type,
    /// Text for the model about this value, written as the catalog gave it.
    pub description: Option<&'static str>,
    /// A scalar node's default, of its own type.
    pub default: Option<Scalar>,
    /// An object's properties, sorted by name in byte order: the order they are written in.
    pub properties: &'static [Property],
    /// Whether the catalog gave `required` for this object (possibly empty). Which properties are
    /// required is on each [`Property`].
    pub has_required: bool,
    /// The catalog gave `additionalProperties: false`.
    pub closed: bool,
    /// An array's element schema.
    pub items: Option<&'static Schema>,
    /// An array's fewest elements; Anthropic strict keeps it only when it is 0 or 1.
    pub min_items: Option<u64>,
    /// An array's most elements; Anthropic strict leaves it out, the checker still applies it.
    pub max_items: Option<u64>,
    /// The allowed values of a string, integer or number, in the catalog's order.
    pub enumeration: Option<&'static [Scalar]>,
    /// A string's fewest characters (Unicode code points, not bytes). Both strict modes leave it
    /// out of the declaration; the checker still applies it.
    pub min_length: Option<u64>,
    /// A string's most characters (Unicode code points, not bytes), left out and applied like
    /// `min_length`.
    pub max_length: Option<u64>,
    /// Bounds of an integer or number, inclusive. Anthropic strict leaves them out of the
    /// declaration; the checker still applies them.
    pub minimum: Option<Number>,
    /// The inclusive upper bound, as for `minimum`.
    pub maximum: Option<Number>,
}

impl Schema {
    /// A node of type `ty` with no keywords: what generated tables fill in with `..`.
    pub const fn of(ty: Type) -> Schema {
        Schema {
            ty,
            description: None,
            default: None,
            properties: &[],
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
        }
    }
}

/// One named property of an object node.
#[derive(Debug)]
pub struct Property {
    /// `^[a-zA-Z_][a-zA-Z0-9_]{0,63}$`, a name every provider accepts as a property key.
    pub name: &'static str,
    /// Listed in the object's `required`.
    pub required: bool,
    /// What the property's value must be. In OpenAI strict an optional property is written as
    /// required but nullable, since that mode requires every property.
    pub schema: Schema,
}

/// A scalar value of the catalog: a default or an enum value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    /// The string's text, decoded: what a call's string is compared with.
    String(&'static str),
    /// A number, kept as spelled so that declarations repeat the catalog's bytes.
    Number(Number),
    /// `true` or `false`.
    Boolean(bool),
}

/// A number of the catalog, twice: as the catalog spelled it, which is how every declaration
/// writes it, and its value, which is what a call's arguments are compared with (the reader
/// refuses a number that does not fit a 64-bit float).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Number {
    /// The literal as the catalog wrote it: what declarations write, so the bytes never vary.
    pub text: &'static str,
    /// The literal's value: what a call's number is compared with.
    pub value: f64,
}

/// The JSON Schema types a node can have: exactly one each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    /// A JSON object: has properties, and is the type of every tool's arguments.
    Object,
    /// A JSON array: has an `items` schema for its elements.
    Array,
    /// A JSON string.
    String,
    /// A number with no fractional part, refused by the checker beyond 2^53 - 1, where a 64-bit
    /// float stops being exact.
    Integer,
    /// Any JSON number that fits a 64-bit float.
    Number,
    /// `true` or `false`.
    Boolean,
}

impl Type {
    /// The JSON Schema spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Type::Object => "object",
            Type::Array => "array",
            Type::String => "string",
            Type::Integer => "integer",
            Type::Number => "number",
            Type::Boolean => "boolean",
        }
    }
}

/// `^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`: OpenAI's and Anthropic's `^[a-zA-Z0-9_-]{1,64}$`, starting
/// with a letter or underscore as Gemini also asks.
pub const fn is_tool_name(name: &[u8]) -> bool {
    is_name(name, true)
}

/// `^[a-zA-Z_][a-zA-Z0-9_]{0,63}$`, a name every provider accepts as a property key.
pub const fn is_property_name(name: &[u8]) -> bool {
    is_name(name, false)
}

const fn is_name(name: &[u8], dash: bool) -> bool {
    let mut i = 0;
    while i < name.len() {
        let ok = match name[i] {
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => true,
            b'0'..=b'9' => i > 0,
            b'-' => dash && i > 0,
            _ => false,
        };
        if !ok {
            return false;
        }
        i += 1;
    }
    !name.is_empty() && name.len() <= 64
}

/// The longest tool description accepted, in bytes: OpenAI's limit for `function.description`
/// (its API answers `string_above_max_length` past it).
pub const MAX_DESCRIPTION: usize = 1024;
