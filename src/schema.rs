//! The catalog's model: its tools, and the JSON Schema nodes that describe their arguments, in
//! flat tables that refer to each other by index.
//!
//! One model serves both halves of the tool contract: the renderer (`wire.rs`) walks it to write
//! each provider's declaration, and the call checker walks the same nodes to judge a model's
//! arguments. The tables hold plain data (indices into each other, spans of one text), so the
//! same model is made two ways with nothing written twice: `build.rs` writes it as `static`
//! arrays for the compiled-in catalog, and a catalog read at run time keeps it in vectors. A
//! [`Model`] borrows either.
//!
//! Each node holds only the keywords of the subset that the catalog reader accepts (see
//! `docs/catalogs.md`), and the renderer writes them in byte order.

/// A run of [`Model::text`]: a string of the catalog, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Text {
    /// Byte offset in the text.
    pub start: u32,
    /// Length in bytes.
    pub len: u32,
}

/// A run of one of the model's tables (nodes' properties, or enum values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// Index of the first entry.
    pub start: u32,
    /// How many entries.
    pub len: u32,
}

impl Run {
    /// No entries.
    pub const EMPTY: Run = Run { start: 0, len: 0 };
}

/// A node's index in [`Model::nodes`].
pub type NodeId = u32;

/// The whole catalog, borrowed: from `static` tables for the compiled-in catalog, or from a
/// catalog read at run time. Copy it freely; it is five slices.
#[derive(Clone, Copy, Debug)]
pub struct Model<'a> {
    /// Every string the catalog holds, decoded, one after another; a [`Text`] is a run of it.
    pub text: &'a str,
    /// The tools, in catalog order: the order every tool list keeps.
    pub tools: &'a [Tool],
    /// Every schema node of every tool.
    pub nodes: &'a [Schema],
    /// Every object's properties, each object's a sorted run.
    pub properties: &'a [Property],
    /// Every enum's values, each enum's a run in the catalog's order.
    pub values: &'a [Scalar],
}

impl<'a> Model<'a> {
    /// The string that `text` spans.
    #[inline]
    pub fn str(self, text: Text) -> &'a str {
        let start = text.start as usize;
        self.text
            .get(start..start + text.len as usize)
            .unwrap_or("")
    }

    /// The node with index `id`.
    #[inline]
    pub fn node(self, id: NodeId) -> &'a Schema {
        &self.nodes[id as usize]
    }

    /// A tool's argument schema.
    #[inline]
    pub fn input(self, tool: &Tool) -> &'a Schema {
        self.node(tool.input)
    }

    /// An object node's properties, sorted by name in byte order.
    #[inline]
    pub fn properties(self, node: &Schema) -> &'a [Property] {
        let start = node.properties.start as usize;
        &self.properties[start..start + node.properties.len as usize]
    }

    /// The values of an enum run.
    #[inline]
    pub fn values(self, run: Run) -> &'a [Scalar] {
        let start = run.start as usize;
        &self.values[start..start + run.len as usize]
    }

    /// A tool's name.
    #[inline]
    pub fn name(self, tool: usize) -> &'a str {
        self.str(self.tools[tool].name)
    }

    /// [`Model::str`] for the compiler's evaluation of tables derived from the model.
    pub const fn const_str(self, text: Text) -> &'a str {
        let bytes = self.text.as_bytes();
        let (start, len) = (text.start as usize, text.len as usize);
        if start + len > bytes.len() {
            return "";
        }
        match std::str::from_utf8(bytes.split_at(start).1.split_at(len).0) {
            Ok(text) => text,
            Err(_) => "",
        }
    }

    /// [`Model::node`], for the compiler.
    pub const fn const_node(self, id: NodeId) -> &'a Schema {
        &self.nodes[id as usize]
    }

    /// [`Model::properties`], for the compiler.
    pub const fn const_properties(self, node: &Schema) -> &'a [Property] {
        let (start, len) = (node.properties.start as usize, node.properties.len as usize);
        self.properties.split_at(start).1.split_at(len).0
    }
}

/// A model that owns its tables: what the catalog reader makes, at run time or in `build.rs`.
#[derive(Clone, Debug, Default)]
pub struct OwnedModel {
    /// See [`Model::text`].
    pub text: String,
    /// See [`Model::tools`].
    pub tools: Vec<Tool>,
    /// See [`Model::nodes`].
    pub nodes: Vec<Schema>,
    /// See [`Model::properties`].
    pub properties: Vec<Property>,
    /// See [`Model::values`].
    pub values: Vec<Scalar>,
}

impl OwnedModel {
    /// The model, borrowed.
    pub fn model(&self) -> Model<'_> {
        Model {
            text: &self.text,
            tools: &self.tools,
            nodes: &self.nodes,
            properties: &self.properties,
            values: &self.values,
        }
    }

    /// Adds `text` to the text and returns its span. Equal strings are not shared: the text is
    /// at most the catalog's size, which the reader bounds.
    pub fn text(&mut self, text: &str) -> Text {
        let start = self.text.len() as u32;
        self.text.push_str(text);
        Text {
            start,
            len: text.len() as u32,
        }
    }
}

/// A tool: what the model sees of it.
#[derive(Clone, Copy, Debug)]
pub struct Tool {
    /// `^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`, unique in the catalog.
    pub name: Text,
    /// At most [`MAX_DESCRIPTION`] bytes.
    pub description: Text,
    /// The arguments: always an [`Type::Object`] node, possibly without properties.
    pub input: NodeId,
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
#[derive(Clone, Copy, Debug)]
pub struct Schema {
    /// The node's one type: decides which keywords it may have and what a call's value must be.
    pub ty: Type,
    /// Text for the model about this value, written as the catalog gave it.
    pub description: Option<Text>,
    /// A scalar node's default, of its own type.
    pub default: Option<Scalar>,
    /// An object's properties ([`Model::properties`]), sorted by name in byte order: the order
    /// they are written in.
    pub properties: Run,
    /// Whether the catalog gave `required` for this object (possibly empty). Which properties are
    /// required is on each [`Property`].
    pub has_required: bool,
    /// The catalog gave `additionalProperties: false`.
    pub closed: bool,
    /// An array's element schema.
    pub items: Option<NodeId>,
    /// An array's fewest elements; Anthropic strict keeps it only when it is 0 or 1.
    pub min_items: Option<u64>,
    /// An array's most elements; Anthropic strict leaves it out, the checker still applies it.
    pub max_items: Option<u64>,
    /// The allowed values of a string, integer or number, in the catalog's order.
    pub enumeration: Option<Run>,
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
            properties: Run::EMPTY,
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
#[derive(Clone, Copy, Debug)]
pub struct Property {
    /// `^[a-zA-Z_][a-zA-Z0-9_]{0,63}$`, a name every provider accepts as a property key.
    pub name: Text,
    /// Listed in the object's `required`.
    pub required: bool,
    /// What the property's value must be. In OpenAI strict an optional property is written as
    /// required but nullable, since that mode requires every property.
    pub schema: NodeId,
}

/// A scalar value of the catalog: a default or an enum value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    /// The string's text, decoded: what a call's string is compared with.
    String(Text),
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
    pub text: Text,
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
