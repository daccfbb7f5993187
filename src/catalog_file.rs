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

use crate::number::{self, Count};
use crate::schema::{
    is_property_name, is_tool_name, Annotations, Definition, DefsKeyword, Hints, Keyword, Keywords,
    Model, NodeId, Number, OwnedModel, Property, Rare, Run, Scalar, Schema, Text, Tool, TupleForm,
    Type, TypeForm, Types,
};
use crate::sink::{escape, escape_run_end};
use crate::spelling;
use crate::tokenizer::{pieces, Kind, Piece, Token, Tokenizer};
use std::borrow::Cow;
use std::fmt::{self, Write as _};
use std::ops::Range;

/// The largest catalog file read, in bytes.
pub const MAX_CATALOG: usize = 16 * 1024 * 1024;

/// OpenAI strict's limits on a schema
/// (developers.openai.com/api/docs/guides/structured-outputs#supported-schemas): at most 10
/// levels of object nesting, 5,000 object properties and 1,000 enum values. They are applied to
/// the whole catalog, so that any tool list can be sent in strict mode.
pub const MAX_OBJECT_NESTING: usize = 10;
/// The most object properties in the whole catalog, all tools counted: OpenAI strict's limit.
pub const MAX_PROPERTIES: usize = 5_000;
/// The most enum values in the whole catalog, all tools counted: OpenAI strict's limit.
pub const MAX_ENUM_VALUES: usize = 1_000;
/// The most tools in a catalog: eight times what OpenAI takes in one request ("A max of 128
/// functions are supported", platform.openai.com/docs/api-reference/chat/create#tools, as the
/// stored copy of that reference in Aspose's `CompletionCreateRequest.Tools` restates it), so
/// that a gateway's catalog of several servers fits, and a hostile file of 100,000 tools is
/// refused before any is read.
pub const MAX_TOOLS: usize = 1_024;

/// The most violations reported of one refused tool; the last line of a longer list counts
/// the rest. A tool's every violation is reported so that it can be fixed in one go, but a
/// file of a million bad keywords must not make a million lines.
pub const MAX_VIOLATIONS: usize = 20;

/// A catalog read and checked: the model's tables, which the renderer and the checker walk.
pub type Catalog = OwnedModel;

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

/// Reads and checks a catalog file: a JSON array of tools, or what an MCP server answers to
/// `tools/list`, whose `tools` member is that array. Any tool that breaks a rule refuses the
/// whole file, as a build must, with the first violation found; [`read_each_tool`] gives every
/// one.
pub fn read(bytes: &[u8]) -> Result<Catalog, CatalogError> {
    read_tools(bytes, false).map(|(catalog, _)| catalog)
}

/// [`read`], but a tool that breaks a rule is left out, and its refusal kept, as an MCP client
/// must take a server it does not control: one sloppy tool must not cost it the others. A
/// refusal is every violation of the tool, one [`CatalogError`] each (at most
/// [`MAX_VIOLATIONS`]), in the order the reader meets them. What
/// is no catalog at all is still refused whole: not JSON, no tools array, more than
/// [`MAX_TOOLS`] tools, two tools of one name, or no tool that passes (then the refusal is the
/// first tool's).
pub fn read_each_tool(bytes: &[u8]) -> Result<(Catalog, Vec<CatalogError>), CatalogError> {
    read_tools(bytes, true)
}

fn read_tools(bytes: &[u8], each_tool: bool) -> Result<(Catalog, Vec<CatalogError>), CatalogError> {
    let document = parse(bytes)?;
    let (entries, array) = tools_of(&document)?;
    if entries.is_empty() {
        return Err(document_error(
            "",
            "the catalog has no tools; give at least one".into(),
        ));
    }
    if entries.len() > MAX_TOOLS {
        return Err(document_error(
            "",
            format!(
                "the catalog has {} tools, over the limit of {MAX_TOOLS}",
                entries.len()
            ),
        ));
    }
    let mut totals = Totals::default();
    let mut model = OwnedModel::default();
    // The entry each kept tool was read from, and the refusals of the others.
    let (mut entry_of, mut refused) = (Vec::new(), Vec::new());
    for (index, entry) in entries.iter().enumerate() {
        let (mark, totals_before) = (model.mark(), totals);
        if let Err(mut violations) = read_tool(array, index, entry, &mut model, &mut totals) {
            if !each_tool {
                return Err(violations.swap_remove(0));
            }
            model.rewind(mark);
            totals = totals_before;
            refused.extend(violations);
            continue;
        }
        let tool = model.tools.len() - 1;
        let name = model.model().name(tool);
        if let Some(earlier) = (0..tool).find(|&t| model.model().name(t) == name) {
            return Err(tool_error(
                &quote(name),
                "/name",
                format!(
                    "{} is already the name of tool #{}",
                    quote(name),
                    entry_of[earlier]
                ),
            ));
        }
        entry_of.push(index);
    }
    if model.tools.is_empty() {
        // Every tool was refused: the file is, with the first one's first violation.
        return Err(refused.swap_remove(0));
    }
    Ok((model, refused))
}

/// The tools array of a catalog file. An MCP server's `tools/list` result
/// (modelcontextprotocol.io/specification/2026-07-28/server/tools, "Listing Tools") is an
/// object whose `tools` member is the array. Its other members say nothing of a tool and are
/// ignored: `nextCursor` (one page of a longer list: utilities/pagination), `_meta`,
/// `resultType`, and the cache hints `ttlMs` and `cacheScope` (2026-07-28's
/// server/utilities/caching). So is the JSON-RPC response around a result (`jsonrpc`, `id`).
/// Gives the array and its pointer in the file.
fn tools_of<'d>(document: &'d Node<'d>) -> Result<(&'d [Node<'d>], &'static str), CatalogError> {
    let member = |node: &'d Node<'d>, key: &str| match &node.value {
        Value::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
        _ => None,
    };
    // A key twice is read as its first by one parser and its last by another: which tools the
    // file holds would depend on who reads it.
    let once = |node: &'d Node<'d>, at: &str| match &node.value {
        Value::Object(members) => match duplicate(members) {
            Some(key) => Err(document_error(
                &Path::At(at).key(key).pointer(),
                format!("{} appears twice", quote(key)),
            )),
            None => Ok(()),
        },
        _ => Ok(()),
    };
    once(document, "")?;
    let (found, pointer) = match member(document, "result") {
        Some(result) if member(document, "jsonrpc").is_some() => {
            once(result, "/result")?;
            (member(result, "tools"), "/result/tools")
        }
        _ => (member(document, "tools"), "/tools"),
    };
    match (&document.value, found) {
        (Value::Array(entries), _) => Ok((entries, "")),
        (
            Value::Object(_),
            Some(Node {
                value: Value::Array(entries),
            }),
        ) => Ok((entries, pointer)),
        (Value::Object(_), Some(other)) => Err(document_error(
            pointer,
            format!(
                "a tools/list result's tools must be a JSON array of tools, found {}",
                describe(&other.value)
            ),
        )),
        _ => Err(document_error(
            "",
            format!(
                "the catalog must be a JSON array of tools, or a tools/list result with one as \
                 its \"tools\", found {}",
                describe(&document.value)
            ),
        )),
    }
}

// ---------------------------------------------------------------------------------------------
// The document as a tree.

struct Node<'a> {
    value: Value<'a>,
}

enum Value<'a> {
    /// Members in document order, duplicates kept (the walk refuses them, with a pointer).
    Object(Vec<(Cow<'a, str>, Node<'a>)>),
    Array(Vec<Node<'a>>),
    String(Cow<'a, str>),
    /// As written.
    Number(&'a str),
    Bool(bool),
    Null,
}

/// A container being read, and the key its next member goes under.
struct Frame<'a> {
    node: Node<'a>,
    key: Option<Cow<'a, str>>,
}

fn parse(bytes: &[u8]) -> Result<Node<'_>, CatalogError> {
    // The whole document's UTF-8 checked once, a word at a time, so that a string without
    // escapes is a slice of it. The tokenizer checks it too, and says where it fails: a
    // document that is not UTF-8 is refused by it, with its position.
    let document = std::str::from_utf8(bytes).unwrap_or_default();
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
                    frame.key = Some(text(document, &token));
                }
                continue;
            }
            Kind::ObjectEnd | Kind::ArrayEnd => match stack.pop() {
                Some(frame) => frame.node,
                None => unreachable_end(),
            },
            Kind::String => Node {
                value: Value::String(text(document, &token)),
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

/// A string literal's text, decoded: borrowed from the document when it has no escapes, else
/// with runs without escapes copied whole.
fn text<'a>(document: &'a str, token: &Token<'a>) -> Cow<'a, str> {
    let literal = token.raw;
    let inner = literal
        .get(1..literal.len().saturating_sub(1))
        .unwrap_or(b"");
    if !inner.contains(&b'\\') {
        let place = token.at + 1..token.at + 1 + inner.len();
        return Cow::Borrowed(document.get(place).unwrap_or_else(|| utf8(inner)));
    }
    let mut out = String::with_capacity(inner.len());
    let _ = pieces(literal, |piece| {
        match piece {
            Piece::Plain(run) => out.push_str(utf8(run)),
            Piece::Escaped(c) => out.push(c),
        }
        Ok::<(), ()>(())
    });
    Cow::Owned(out)
}

/// Bytes the tokenizer has checked as UTF-8, as a `str`: the runs of a string with escapes,
/// checked again, as safe code must. It cannot fail; if it did, the text would be empty, never
/// a panic.
fn utf8(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap_or_default()
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

/// `/` and one reference token, escaped as RFC 6901 section 3 asks.
fn push_token(out: &mut String, token: &str) {
    out.push('/');
    if !token.bytes().any(|byte| byte == b'~' || byte == b'/') {
        out.push_str(token);
        return;
    }
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

/// Where a schema value is within its tool: links back to a pointer already written out,
/// each adding one reference token. Only a refusal writes it out (RFC 6901), as serde_json
/// computes an error's position only on the error path: a load makes no string for the
/// thousands of places that are fine.
#[derive(Clone, Copy)]
enum Path<'a> {
    /// A pointer already written out (a tool's `/inputSchema`).
    At(&'a str),
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl<'a> Path<'a> {
    fn key(&'a self, key: &'a str) -> Path<'a> {
        Path::Key(self, key)
    }

    fn index(&'a self, index: usize) -> Path<'a> {
        Path::Index(self, index)
    }

    #[cold]
    fn pointer(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    /// Appends the pointer to `out`. It recurses once a link, and the links are frames of the
    /// schema walk, which the tokenizer's depth limit bounds (the module's doc).
    fn write(&self, out: &mut String) {
        match self {
            Path::At(text) => out.push_str(text),
            Path::Key(parent, key) => {
                parent.write(out);
                push_token(out, key);
            }
            Path::Index(parent, index) => {
                parent.write(out);
                let _ = write!(out, "/{index}");
            }
        }
    }
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
fn duplicate<'m>(members: &'m [(Cow<'_, str>, Node<'_>)]) -> Option<&'m str> {
    // Most objects are small (a schema's keywords, a tool's fields): each key is compared with
    // those before it, with no list of them made. A large one is sorted, so a hostile object's
    // 100,000 keys cost n log n, not n squared.
    const SMALL: usize = 16;
    if members.len() <= SMALL {
        return members
            .iter()
            .enumerate()
            .find(|(i, (key, _))| members[..*i].iter().any(|(seen, _)| seen == key))
            .map(|(_, (key, _))| key.as_ref());
    }
    // Sorted by key, then by place: within a key's run the second entry is where that key
    // first appears again, and the earliest of those is the one the scan above would find.
    let mut order: Vec<usize> = (0..members.len()).collect();
    order.sort_unstable_by(|&a, &b| members[a].0.cmp(&members[b].0).then(a.cmp(&b)));
    order
        .windows(2)
        .filter(|pair| members[pair[0]].0 == members[pair[1]].0)
        .map(|pair| pair[1])
        .min()
        .map(|again| members[again].0.as_ref())
}

// ---------------------------------------------------------------------------------------------
// Tools.

const TOOL_FIELDS: &str =
    "name, title, description, inputSchema, outputSchema, annotations, icons, execution, _meta";

fn read_tool(
    array: &str,
    index: usize,
    entry: &Node<'_>,
    model: &mut OwnedModel,
    totals: &mut Totals,
) -> Result<(), Vec<CatalogError>> {
    let Value::Object(members) = &entry.value else {
        return Err(vec![document_error(
            &format!("{array}/{index}"),
            format!("a tool must be an object, found {}", describe(&entry.value)),
        )]);
    };
    read_tool_fields(members, model, totals).map_err(|mut problems| {
        // The tool is named by its name where it has one, made only for a refusal.
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
        if problems.len() > MAX_VIOLATIONS {
            let more = problems.len() - (MAX_VIOLATIONS - 1);
            problems.truncate(MAX_VIOLATIONS - 1);
            problems.push((
                String::new(),
                format!("{more} more violations in this tool, not listed"),
            ));
        }
        (problems.into_iter())
            .map(|(pointer, rule)| tool_error(&label, &pointer, rule))
            .collect()
    })
}

/// A tool's fields, each checked in turn; a refusal's pointer is within the tool. MCP's `Tool`
/// (modelcontextprotocol.io/specification, schema.ts): name, title, description, inputSchema,
/// outputSchema, annotations, icons, execution and _meta. Every violation is reported, as a
/// compiler reports every error of a file, so that a server's author fixes them in one go:
/// the fields are independent, and [`read_root`] goes on past a schema that breaks a rule.
fn read_tool_fields(
    members: &[(Cow<'_, str>, Node<'_>)],
    model: &mut OwnedModel,
    totals: &mut Totals,
) -> Result<(), Vec<SchemaError>> {
    if let Some(key) = duplicate(members) {
        return Err(vec![(
            Path::At("").key(key).pointer(),
            format!("{} appears twice", quote(key)),
        )]);
    }
    let mut problems = Vec::new();
    for (key, _) in members.iter().filter(|(key, _)| {
        !matches!(
            key.as_ref(),
            "name"
                | "title"
                | "description"
                | "inputSchema"
                | "outputSchema"
                | "annotations"
                | "icons"
                | "execution"
                | "_meta"
        )
    }) {
        problems.push((
            Path::At("").key(key).pointer(),
            format!(
                "{} is not a field of a catalog tool; expected {TOOL_FIELDS}",
                quote(key)
            ),
        ));
    }
    let field = |name: &str| members.iter().find(|(key, _)| key == name).map(|(_, v)| v);
    let name = kept(&mut problems, required_string(field("name"), "name"));
    if let Some(name) = name.filter(|name| !is_tool_name(name.as_bytes())) {
        problems.push((
            "/name".into(),
            format!(
                "{} must match ^[a-zA-Z_][a-zA-Z0-9_-]{{0,63}}$ (OpenAI's and Anthropic's \
                 ^[a-zA-Z0-9_-]{{1,64}}$, starting with a letter or underscore as Gemini asks)",
                quote(name)
            ),
        ));
    }
    let description = kept(
        &mut problems,
        required_string(field("description"), "description"),
    );
    let title = kept(
        &mut problems,
        optional_string(field("title"), || "/title".into()),
    );
    let hints = kept(&mut problems, read_hints(field("annotations")));
    let json_field = |key: &str, want: &str| -> Result<Option<String>, SchemaError> {
        match field(key) {
            None => Ok(None),
            Some(node) => match (&node.value, want) {
                (Value::Array(_), "array") | (Value::Object(_), "object") => {
                    Ok(Some(canonical(node)))
                }
                (other, _) => Err((
                    Path::At("").key(key).pointer(),
                    format!("must be an {want}, found {}", describe(other)),
                )),
            },
        }
    };
    let icons = kept(&mut problems, json_field("icons", "array"));
    let execution = kept(&mut problems, json_field("execution", "object"));
    let meta = kept(&mut problems, json_field("_meta", "object"));
    let input = match field("inputSchema") {
        None => {
            problems.push((
                "".into(),
                "missing \"inputSchema\"; every tool needs one".into(),
            ));
            None
        }
        Some(input) => match read_root(model, totals, input, "/inputSchema", true) {
            Ok(input) => Some(input),
            Err(found) => {
                problems.extend(found);
                None
            }
        },
    };
    let output = match field("outputSchema") {
        None => None,
        Some(output) => match read_root(model, totals, output, "/outputSchema", false) {
            Ok(output) => Some(output),
            Err(found) => {
                problems.extend(found);
                None
            }
        },
    };
    let (
        Some(name),
        Some(description),
        Some(title),
        Some((hints, stated, annotations_title)),
        Some(icons),
        Some(execution),
        Some(meta),
        Some(input),
        true,
    ) = (
        name,
        description,
        title,
        hints,
        icons,
        execution,
        meta,
        input,
        problems.is_empty(),
    )
    else {
        return Err(problems);
    };
    let [read_only, destructive, idempotent, open_world] = hints;
    let flat = flat(model.model(), input);
    let scalar_unions = !flat && scalar_unions(model.model(), input);
    let tool = Tool {
        name: model.text(name),
        description: model.text(description),
        input,
        hints: Hints {
            read_only,
            destructive,
            idempotent,
            open_world,
            stated,
        },
        title: title.map(|text| model.text(text)),
        annotations_title: annotations_title.map(|text| model.text(&text)),
        output,
        icons: icons.map(|text| model.text(&text)),
        execution: execution.map(|text| model.text(&text)),
        meta: meta.map(|text| model.text(&text)),
        flat,
        scalar_unions,
    };
    model.tools.push(tool);
    Ok(())
}

/// What `result` holds, or `None` with its refusal added to `problems`: for checks that do not
/// depend on each other, each of which is reported.
fn kept<T>(problems: &mut Vec<SchemaError>, result: Result<T, SchemaError>) -> Option<T> {
    result.map_err(|problem| problems.push(problem)).ok()
}

/// A tool field that must be there and hold a string.
fn required_string<'n>(node: Option<&'n Node<'_>>, key: &str) -> Result<&'n str, SchemaError> {
    match node {
        None => Err((
            "".into(),
            format!("missing \"{key}\"; every tool needs one"),
        )),
        Some(node) => Ok(optional_string(Some(node), || format!("/{key}"))?.unwrap_or_default()),
    }
}

/// A field that, when given, holds a string: borrowed from the document. Its pointer is made
/// only for a refusal.
fn optional_string<'n>(
    node: Option<&'n Node<'_>>,
    pointer: impl FnOnce() -> String,
) -> Result<Option<&'n str>, SchemaError> {
    match node {
        None => Ok(None),
        Some(Node {
            value: Value::String(text),
            ..
        }) => Ok(Some(text)),
        Some(other) => Err((
            pointer(),
            format!("must be a string, found {}", describe(&other.value)),
        )),
    }
}

/// MCP's four hints, as `readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint`,
/// with MCP's defaults (modelcontextprotocol.io/specification, schema.ts `ToolAnnotations`):
/// readOnlyHint false, destructiveHint true, idempotentHint false, openWorldHint true.
/// destructiveHint is "meaningful only when readOnlyHint == false", so a read-only tool's
/// absent destructiveHint is false here, and an explicit true is refused. `ToolAnnotations`
/// also has a `title`, kept as given.
fn read_hints(
    annotations: Option<&Node<'_>>,
) -> Result<([bool; 4], bool, Option<String>), SchemaError> {
    const HINTS: [&str; 4] = [
        "readOnlyHint",
        "destructiveHint",
        "idempotentHint",
        "openWorldHint",
    ];
    let mut hints: [Option<bool>; 4] = [None; 4];
    let mut title = None;
    if let Some(annotations) = annotations {
        let Value::Object(members) = &annotations.value else {
            return Err((
                "/annotations".into(),
                format!("must be an object, found {}", describe(&annotations.value)),
            ));
        };
        let at = Path::At("/annotations");
        if let Some(key) = duplicate(members) {
            return Err((
                at.key(key).pointer(),
                format!("{} appears twice", quote(key)),
            ));
        }
        for (key, value) in members {
            if key == "title" {
                title = optional_string(Some(value), || at.key(key).pointer())?.map(str::to_string);
                continue;
            }
            // A member MCP's ToolAnnotations does not define is left out, not refused: Google's
            // chrome-devtools-mcp gives each tool a `category` there. Annotations are hints, which
            // no check reads, and only the mcp shape writes them.
            let Some(slot) = HINTS.iter().position(|hint| hint == key) else {
                continue;
            };
            let Value::Bool(flag) = value.value else {
                return Err((
                    at.key(key).pointer(),
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
    Ok((
        [
            read_only,
            hints[1].unwrap_or(!read_only),
            hints[2].unwrap_or(false),
            hints[3].unwrap_or(true),
        ],
        hints.iter().any(Option::is_some),
        title,
    ))
}

/// A JSON value as canonical JSON: compact, object keys sorted by their UTF-16 code units
/// (RFC 8785's order), strings escaped as the writer escapes them, numbers as spelled.
fn canonical(node: &Node<'_>) -> String {
    let mut out = String::new();
    write_canonical(&mut out, node);
    out
}

fn write_canonical(out: &mut String, node: &Node<'_>) {
    match &node.value {
        Value::Object(members) => {
            let mut sorted: Vec<&(Cow<'_, str>, Node<'_>)> = members.iter().collect();
            sorted.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
            out.push('{');
            for (i, (key, value)) in sorted.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(out, key);
                out.push(':');
                write_canonical(out, value);
            }
            out.push('}');
        }
        Value::Array(elements) => {
            out.push('[');
            for (i, element) in elements.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(out, element);
            }
            out.push(']');
        }
        Value::String(text) => write_string(out, text),
        Value::Number(text) => out.push_str(text),
        Value::Bool(flag) => out.push_str(if *flag { "true" } else { "false" }),
        Value::Null => out.push_str("null"),
    }
}

/// A JSON string literal with the writer's escapes (`sink.rs`, which only escapes ASCII bytes,
/// so the text stays UTF-8).
fn write_string(out: &mut String, text: &str) {
    out.push('"');
    let bytes = text.as_bytes();
    let mut start = 0;
    loop {
        let end = escape_run_end(bytes, start);
        // Only ASCII bytes are escaped, so `end` falls between characters.
        out.push_str(&text[start..end]);
        let Some(&byte) = bytes.get(end) else { break };
        let (escape, len) = escape(byte);
        out.extend(escape[..len].iter().map(|&b| char::from(b)));
        start = end + 1;
    }
    out.push('"');
}

// ---------------------------------------------------------------------------------------------
// Schemas.

/// Counts kept across the whole catalog, for OpenAI strict's limits.
#[derive(Default, Clone, Copy)]
struct Totals {
    properties: usize,
    enum_values: usize,
}

/// A refusal inside a schema: the pointer (within the tool) and the rule.
type SchemaError = (String, String);

/// The type names a `type` may give.
const TYPES: &str = "object, array, string, integer, number, boolean, null";

/// Every keyword a schema may have, and the types it applies to (empty: any node). A keyword
/// whose node gives `type` without any of them is refused, since it could never apply.
const KEYWORDS: [(&str, &[Type]); 44] = [
    ("type", &[]),
    ("title", &[]),
    ("description", &[]),
    ("$comment", &[]),
    ("default", &[]),
    ("examples", &[]),
    ("deprecated", &[]),
    ("readOnly", &[]),
    ("writeOnly", &[]),
    ("nullable", &[]),
    ("$schema", &[]),
    ("enum", &[]),
    ("const", &[]),
    ("anyOf", &[]),
    ("oneOf", &[]),
    ("allOf", &[]),
    ("discriminator", &[]),
    ("$ref", &[]),
    ("$defs", &[]),
    ("definitions", &[]),
    ("properties", &[Type::Object]),
    ("required", &[Type::Object]),
    ("additionalProperties", &[Type::Object]),
    ("propertyNames", &[Type::Object]),
    ("minProperties", &[Type::Object]),
    ("maxProperties", &[Type::Object]),
    ("items", &[Type::Array]),
    ("prefixItems", &[Type::Array]),
    ("additionalItems", &[Type::Array]),
    ("minItems", &[Type::Array]),
    ("maxItems", &[Type::Array]),
    ("uniqueItems", &[Type::Array]),
    ("minLength", &[Type::String]),
    ("maxLength", &[Type::String]),
    ("pattern", &[Type::String]),
    // The content vocabulary: annotations, which 2020-12 never asserts (JSON-Schema-Test-Suite's
    // `content.json` finds every instance valid), written by pydantic for `Json[...]`.
    ("contentEncoding", &[Type::String]),
    ("contentMediaType", &[Type::String]),
    ("contentSchema", &[Type::String]),
    // Any node: JSON Schema 2020-12's validation vocabulary (section 7.1) has a format validate
    // only the types it is defined for, and an instance of another type passes. OpenAPI-made
    // catalogs put formats on numbers (Notion's MCP server: `"type":"integer","format":"int32"`),
    // and JSON-Schema-Test-Suite's `optional/format/*.json` checks that every string format
    // ignores integers, floats, objects, arrays, booleans and null. check_call asserts a format
    // on strings only (`validate.rs`).
    ("format", &[]),
    ("minimum", &[Type::Integer, Type::Number]),
    ("maximum", &[Type::Integer, Type::Number]),
    ("exclusiveMinimum", &[Type::Integer, Type::Number]),
    ("exclusiveMaximum", &[Type::Integer, Type::Number]),
    ("multipleOf", &[Type::Integer, Type::Number]),
];

/// Reads one tool's `inputSchema` (or `outputSchema`) into `model`: its definitions first, so
/// that a `$ref` anywhere can name any of them, then the root. `input` says the root must be
/// an object schema (a tool's arguments).
fn read_root(
    model: &mut OwnedModel,
    totals: &mut Totals,
    node: &Node<'_>,
    pointer: &str,
    input: bool,
) -> Result<NodeId, Vec<SchemaError>> {
    let path = Path::At(pointer);
    let root = reserve(model);
    let mut reader = SchemaReader {
        model,
        totals,
        root,
        defs: Vec::new(),
        defs_keyword: None,
        edges: Vec::new(),
        values: Vec::new(),
        value_texts: String::new(),
        problems: Vec::new(),
    };
    let members: &[(Cow<'_, str>, Node<'_>)] = match &node.value {
        Value::Object(members) => members,
        _ => &[],
    };
    let field = |name: &str| members.iter().find(|(key, _)| key == name).map(|(_, v)| v);
    let defs = match (field("$defs"), field("definitions")) {
        (Some(_), Some(_)) => {
            return Err(vec![(
                path.key("definitions").pointer(),
                "give one of \"$defs\" and \"definitions\", not both".into(),
            )])
        }
        (Some(defs), None) => Some(("$defs", defs)),
        (None, Some(defs)) => Some(("definitions", defs)),
        (None, None) => None,
    };
    let mut definitions = Vec::new();
    if let Some((keyword, defs)) = defs {
        let defs_path = path.key(keyword);
        let Value::Object(entries) = &defs.value else {
            return Err(vec![(
                defs_path.pointer(),
                format!(
                    "must be an object of schemas, found {}",
                    describe(&defs.value)
                ),
            )]);
        };
        if let Some(key) = duplicate(entries) {
            return Err(vec![(
                defs_path.key(key).pointer(),
                format!("{} appears twice", quote(key)),
            )]);
        }
        reader.defs_keyword = Some(keyword);
        for (name, _) in entries {
            let id = reserve(reader.model);
            reader.defs.push((name.to_string(), id));
        }
        for ((name, schema), (_, id)) in entries.iter().zip(reader.defs.clone()) {
            reader.fill_or_note(id, schema, &defs_path.key(name), false);
            definitions.push((name.clone(), id));
        }
    }
    reader.fill_or_note(root, node, &path, input);
    // The checks of the whole schema need every node read: a node that broke a rule is only
    // its reserved placeholder, and would make them report what is not in the file.
    if !reader.problems.is_empty() {
        return Err(reader.problems);
    }
    if let Some((keyword, _)) = defs {
        definitions.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        let definitions: Vec<Definition> = definitions
            .into_iter()
            .map(|(name, schema)| Definition {
                name: reader.model.text(&name),
                schema,
            })
            .collect();
        let run = OwnedModel::append(&mut reader.model.definitions, definitions);
        let keyword = if keyword == "$defs" {
            DefsKeyword::Defs
        } else {
            DefsKeyword::Definitions
        };
        // The root's other keywords were stored when it was read, before its definitions were:
        // its run is stored again with them (a few entries a tool).
        let model = reader.model.model();
        let node = model.node(root);
        let mut rare = model.rare(node);
        let annotations = model.annotations(node);
        rare.definitions = Some((keyword, run));
        reader.model.set_keywords(root, &rare, &annotations);
    }
    for whole in [reader.no_endless_references(), reader.limits(pointer)] {
        kept(&mut reader.problems, whole);
    }
    reader.values_fit();
    if !reader.problems.is_empty() {
        return Err(reader.problems);
    }
    Ok(root)
}

/// A node index taken before its node is read, so that references to it can be made first.
fn reserve(model: &mut OwnedModel) -> NodeId {
    model.nodes.push(Schema::of(Type::Object));
    model.nodes.len() as NodeId - 1
}

struct SchemaReader<'m> {
    model: &'m mut OwnedModel,
    totals: &'m mut Totals,
    /// The schema's root, which `"$ref": "#"` names.
    root: NodeId,
    /// The root's definitions by name, for `$ref`.
    defs: Vec<(String, NodeId)>,
    /// `"$defs"` or `"definitions"`, whichever the root gave.
    defs_keyword: Option<&'static str>,
    /// The references that do not step into a value (`$ref` and the branches of `anyOf`,
    /// `oneOf` and `allOf`): a cycle of them would have a checker go round for ever.
    edges: Vec<(NodeId, NodeId, String)>,
    /// Values that must fit their node (`default`, `const`, `enum`, `examples`), checked once
    /// every node is read: the node, the value as canonical JSON in `value_texts` (one
    /// buffer, not a string a value), and where it is.
    values: Vec<(NodeId, Range<usize>, Place)>,
    value_texts: String,
    /// The rules broken so far, in the order the walk meets them. A node that breaks one is left as
    /// its placeholder and the walk goes on to the next, so that every bad node is reported.
    problems: Vec<SchemaError>,
}

/// Where a value checked after the walk is: its keyword's pointer in `value_texts`, written
/// once for all of an `enum`'s or `examples`' values, its index there, and what a value that
/// does not fit is.
#[derive(Clone)]
struct Place {
    keyword: Range<usize>,
    index: Option<usize>,
    fit: Fit,
}

/// What becomes of a value that its node refuses.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fit {
    /// `const` and `enum`: it says what a call may hold, so one that no call could hold is a
    /// broken catalog, refused.
    Required,
    /// `default` and `examples`: annotations, which JSON Schema asks to fit but does not
    /// require (json-schema.org/understanding-json-schema/reference/annotations: "should
    /// validate against the schema in which it resides, but that isn't required"). Kept as an
    /// unfit annotation ([`Keyword::UnfitDefault`], [`Keyword::UnfitExamples`]).
    Annotation,
}

impl SchemaReader<'_> {
    /// Reads the schema `node` into a new index: a node that breaks a rule is noted in
    /// `problems` and left as its placeholder, and its parent goes on.
    fn read(&mut self, node: &Node<'_>, path: &Path<'_>) -> NodeId {
        let id = reserve(self.model);
        self.fill_or_note(id, node, path, false);
        id
    }

    /// [`Self::fill`], its refusal noted in `problems` (after any its subschemas noted).
    fn fill_or_note(&mut self, id: NodeId, node: &Node<'_>, path: &Path<'_>, input: bool) {
        if let Err(problem) = self.fill(id, node, path, input) {
            self.problems.push(problem);
        }
    }

    /// A list of schemas (`anyOf`, `oneOf`, `allOf`, `prefixItems`) as a run of subschemas.
    fn read_list(
        &mut self,
        node: &Node<'_>,
        path: &Path<'_>,
        from: Option<NodeId>,
    ) -> Result<Run, SchemaError> {
        let Value::Array(elements) = &node.value else {
            return Err((
                path.pointer(),
                format!(
                    "must be an array of schemas, found {}",
                    describe(&node.value)
                ),
            ));
        };
        if elements.is_empty() {
            return Err((path.pointer(), "must list at least one schema".into()));
        }
        let mut ids = Vec::with_capacity(elements.len());
        for (i, element) in elements.iter().enumerate() {
            let at = path.index(i);
            let id = self.read(element, &at);
            if let Some(from) = from {
                self.edges.push((from, id, at.pointer()));
            }
            ids.push(id);
        }
        Ok(OwnedModel::append(&mut self.model.subschemas, ids))
    }

    fn fill(
        &mut self,
        id: NodeId,
        node: &Node<'_>,
        path: &Path<'_>,
        input: bool,
    ) -> Result<(), SchemaError> {
        let members = match &node.value {
            Value::Object(members) => members,
            Value::Bool(flag) if !input => {
                let mut schema = Schema::of(Type::Object);
                schema.boolean = Some(*flag);
                schema.types = if *flag { Types::ANY } else { Types(0) };
                schema.type_form = TypeForm::Absent;
                self.model.nodes[id as usize] = schema;
                return Ok(());
            }
            other => {
                return Err((
                    path.pointer(),
                    format!("a schema must be an object, found {}", describe(other)),
                ))
            }
        };
        if let Some(key) = duplicate(members) {
            return Err((
                path.key(key).pointer(),
                format!("{} appears twice", quote(key)),
            ));
        }
        // Most of the keywords asked for are absent: one bit for each key's length and first
        // byte rules them out without comparing a key.
        let sign = |key: &str| {
            let first = key.as_bytes().first().map_or(0, |&byte| usize::from(byte));
            1u64 << ((key.len() * 7 + first) % 64)
        };
        let present = members.iter().fold(0, |mask, (key, _)| mask | sign(key));
        let field = |name: &str| {
            (present & sign(name) != 0)
                .then(|| members.iter().find(|(key, _)| key == name).map(|(_, v)| v))
                .flatten()
        };
        // A refusal's pointer to one of this node's keywords.
        let at = |key: &str| path.key(key).pointer();
        let (types, type_form) = read_types(field("type"), path)?;
        if input && type_form != TypeForm::Absent && types != Types::of(Type::Object) {
            return Err((
                at("type"),
                "the arguments must be an object: give \"type\": \"object\", or no type".into(),
            ));
        }
        // A root without `type` is an object (below), so its keywords and values must apply to
        // objects: every shape writes `"type": "object"` there, MCP's `outputSchema` too, and
        // the `mcp` shape must read again (an output root's `examples` of strings did not).
        let object_root = input || (id == self.root && type_form == TypeForm::Absent);
        let (types, type_form) = if object_root {
            (Types::of(Type::Object), TypeForm::One)
        } else {
            (types, type_form)
        };
        for (key, _) in members {
            // An extension, as OpenAPI names them ("The field name MUST begin with x-":
            // github.com/OAI/OpenAPI-Specification/blob/main/versions/3.1.0.md#specification-
            // extensions), which FastMCP writes in every output schema
            // (`x-fastmcp-wrap-result`): for its own tools, never for a model or a check, so
            // it is dropped from every shape.
            if key.starts_with("x-") {
                continue;
            }
            // Each keyword is judged alone, so every one that breaks a rule is reported.
            let Some((_, applies)) = KEYWORDS.iter().find(|(keyword, _)| keyword == key) else {
                let hint = match spelling::closest_word(key, KEYWORDS.map(|(keyword, _)| keyword)) {
                    Some(meant) => format!("did you mean \"{meant}\"?"),
                    None => "docs/catalogs.md lists those a catalog may use".to_string(),
                };
                self.problems.push((
                    at(key),
                    format!("keyword {} is not supported; {hint}", quote(key)),
                ));
                continue;
            };
            if type_form != TypeForm::Absent
                && !applies.is_empty()
                && !applies.iter().any(|ty| types.has(*ty))
            {
                let names: Vec<&str> = applies.iter().map(|ty| ty.as_str()).collect();
                self.problems.push((
                    at(key),
                    format!(
                        "\"{key}\" applies to {} schemas, not {}",
                        names.join(" and "),
                        type_names(types)
                    ),
                ));
            }
        }
        if id != self.root && (field("$defs").is_some() || field("definitions").is_some()) {
            let key = if field("$defs").is_some() {
                "$defs"
            } else {
                "definitions"
            };
            return Err((
                at(key),
                format!("only the root of a tool's schema may have \"{key}\""),
            ));
        }
        if field("$schema").is_some() && id != self.root {
            return Err((
                at("$schema"),
                "only the root of a tool's schema may have \"$schema\"".into(),
            ));
        }

        let mut schema = Schema::of(Type::Object);
        let mut rare = Rare::NONE;
        let mut annotations = Annotations::NONE;
        schema.types = types;
        schema.type_form = type_form;
        schema.ty = Type::ALL
            .into_iter()
            .find(|ty| types.has(*ty) && type_form != TypeForm::Absent)
            .unwrap_or(Type::Object);
        // A keyword's pointer is made only when it is there (most are not).
        let text = |reader: &mut Self, key: &str| -> Result<Option<Text>, SchemaError> {
            let Some(value) = field(key) else {
                return Ok(None);
            };
            Ok(optional_string(Some(value), || at(key))?.map(|text| reader.model.text(text)))
        };
        annotations.title = text(self, "title")?;
        schema.description = text(self, "description")?;
        annotations.comment = text(self, "$comment")?;
        annotations.dialect = text(self, "$schema")?;
        annotations.content_encoding = text(self, "contentEncoding")?;
        annotations.content_media_type = text(self, "contentMediaType")?;
        if let Some(content) = field("contentSchema") {
            let (Value::Object(_) | Value::Bool(_)) = content.value else {
                return Err((
                    at("contentSchema"),
                    format!(
                        "must be a schema (an object or a boolean), found {}",
                        describe(&content.value)
                    ),
                ));
            };
            annotations.content_schema = Some(self.model.text(&canonical(content)));
        }
        rare.format = text(self, "format")?;
        for (key, slot) in [
            ("deprecated", &mut annotations.deprecated),
            ("readOnly", &mut annotations.read_only),
            ("writeOnly", &mut annotations.write_only),
            ("nullable", &mut schema.nullable),
            ("uniqueItems", &mut schema.unique_items),
        ] {
            *slot = match field(key) {
                None => None,
                Some(Node {
                    value: Value::Bool(flag),
                }) => Some(*flag),
                Some(other) => {
                    return Err((
                        at(key),
                        format!("must be a boolean, found {}", describe(&other.value)),
                    ))
                }
            };
        }
        if let Some(examples) = field("examples") {
            let Value::Array(_) = examples.value else {
                return Err((
                    at("examples"),
                    format!(
                        "must be an array of values, found {}",
                        describe(&examples.value)
                    ),
                ));
            };
            annotations.examples = Some(self.model.text(&canonical(examples)));
        }
        if let Some(pattern) = field("pattern") {
            let pattern = schema.pattern_text(Some(pattern), &path.key("pattern"))?;
            rare.pattern = pattern.map(|pattern| self.model.text(pattern));
        }

        // Combinations and references.
        for (key, slot) in [
            ("anyOf", &mut schema.any_of),
            ("oneOf", &mut rare.one_of),
            ("allOf", &mut rare.all_of),
        ] {
            if let Some(list) = field(key) {
                *slot = Some(self.read_list(list, &path.key(key), Some(id))?);
            }
        }
        if let Some(discriminator) = field("discriminator") {
            read_discriminator(discriminator, &path.key("discriminator"))?;
            if rare.one_of.is_none() && schema.any_of.is_none() {
                return Err((
                    at("discriminator"),
                    "a discriminator names which branch of a \"oneOf\" (or \"anyOf\") beside it \
                     applies, and there is none"
                        .into(),
                ));
            }
            rare.discriminator = Some(self.model.text(&canonical(discriminator)));
        }
        if let Some(reference) = field("$ref") {
            let Value::String(target) = &reference.value else {
                return Err((
                    at("$ref"),
                    format!("must be a string, found {}", describe(&reference.value)),
                ));
            };
            let resolved = self.resolve(target).ok_or_else(|| {
                let keyword = self.defs_keyword.unwrap_or("$defs");
                let defs = match self.defs_keyword {
                    Some(_) => "",
                    None => " (this schema has no \"$defs\")",
                };
                (
                    at("$ref"),
                    format!(
                        "{} does not resolve{defs}; a reference must be local: \"#\" or \
                         \"#/{keyword}/NAME\" of this schema",
                        quote(target)
                    ),
                )
            })?;
            self.edges.push((id, resolved, at("$ref")));
            rare.reference = Some((self.model.text(target), resolved));
        }

        // Values.
        if let Some(values) = field("enum") {
            let at = path.key("enum");
            schema.enumeration = Some(self.read_enum(values, id, types, type_form, &at)?);
        }
        if let Some(value) = field("const") {
            let at = path.key("const");
            let place = Place {
                keyword: self.pointer_text(&at),
                index: None,
                fit: Fit::Required,
            };
            rare.constant = Some(self.value_of(value, id, types, type_form, &at, place)?);
        }
        if let Some(value) = field("default") {
            annotations.default = Some(self.scalar(value));
            let keyword = self.pointer_text(&path.key("default"));
            self.fit_later(
                id,
                value,
                Place {
                    keyword,
                    index: None,
                    fit: Fit::Annotation,
                },
            );
        }
        if let Some(Node {
            value: Value::Array(examples),
        }) = field("examples")
        {
            let keyword = self.pointer_text(&path.key("examples"));
            for (i, example) in examples.iter().enumerate() {
                let place = Place {
                    keyword: keyword.clone(),
                    index: Some(i),
                    fit: Fit::Annotation,
                };
                self.fit_later(id, example, place);
            }
        }

        // Objects.
        let properties_path = path.key("properties");
        let mut properties: Vec<(String, bool, NodeId)> = Vec::new();
        // Names `required` gives that `properties` does not declare, with their index there.
        let mut undeclared: Vec<(usize, &str)> = Vec::new();
        match field("properties") {
            None => {}
            Some(Node {
                value: Value::Object(entries),
            }) => {
                schema.has_properties = true;
                if let Some(key) = duplicate(entries) {
                    return Err((
                        properties_path.key(key).pointer(),
                        format!("{} appears twice", quote(key)),
                    ));
                }
                for (name, node) in entries {
                    let property_path = properties_path.key(name);
                    if !is_property_name(name.as_bytes()) {
                        return Err((
                            property_path.pointer(),
                            format!(
                                "property name {} must match ^[a-zA-Z0-9_.-]{{1,64}}$ (Anthropic's rule for \
                                 property keys)",
                                quote(name)
                            ),
                        ));
                    }
                    let child_id = self.read(node, &property_path);
                    properties.push((name.to_string(), false, child_id));
                }
            }
            Some(other) => {
                return Err((
                    properties_path.pointer(),
                    format!("must be an object, found {}", describe(&other.value)),
                ))
            }
        }
        properties.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        if let Some(required) = field("required") {
            let required_path = path.key("required");
            let Value::Array(names) = &required.value else {
                return Err((
                    required_path.pointer(),
                    format!(
                        "must be an array of property names, found {}",
                        describe(&required.value)
                    ),
                ));
            };
            schema.has_required = true;
            for (i, name) in names.iter().enumerate() {
                let at = || required_path.index(i).pointer();
                let Value::String(name) = &name.value else {
                    return Err((
                        at(),
                        format!("must be a property name, found {}", describe(&name.value)),
                    ));
                };
                let twice = match properties.iter_mut().find(|p| &p.0 == name) {
                    Some(property) => std::mem::replace(&mut property.1, true),
                    None if undeclared.iter().any(|(_, earlier)| earlier == name) => true,
                    None => {
                        undeclared.push((i, &name[..]));
                        false
                    }
                };
                if twice {
                    return Err((at(), format!("{} appears twice", quote(name))));
                }
            }
        }
        let properties: Vec<Property> = properties
            .into_iter()
            .map(|(name, required, schema)| Property {
                name: self.model.text(&name),
                required,
                schema,
            })
            .collect();
        schema.properties = OwnedModel::append(&mut self.model.properties, properties);
        if let Some(node) = field("additionalProperties") {
            schema.additional = Some(self.read(node, &path.key("additionalProperties")));
        }
        if let Some(&(i, name)) = undeclared.first() {
            // What check_call would refuse as a member (validate.rs's `closed`, and the schema
            // `false`) cannot be required: no call could be valid.
            let closed = match schema.additional {
                None => schema.has_properties || id == self.root,
                Some(extra) => self.model.model().node(extra).boolean == Some(false),
            };
            if closed {
                return Err((
                    path.key("required").index(i).pointer(),
                    format!(
                        "{} is not a property of this object, which takes no other members: \
                         declare it in properties, or let additionalProperties take it",
                        quote(name)
                    ),
                ));
            }
            let mut names: Vec<&str> = undeclared.iter().map(|&(_, name)| name).collect();
            names.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
            let names: Vec<Scalar> = (names.into_iter())
                .map(|name| Scalar::String(self.model.text(name)))
                .collect();
            rare.undeclared_required = Some(OwnedModel::append(&mut self.model.values, names));
        }
        if let Some(node) = field("propertyNames") {
            rare.property_names = Some(self.read(node, &path.key("propertyNames")));
        }
        (rare.min_properties, rare.max_properties) =
            counts(&field, path, "minProperties", "maxProperties")?;

        // Arrays.
        match field("items") {
            None => {}
            Some(
                list @ Node {
                    value: Value::Array(_),
                },
            ) => {
                if field("prefixItems").is_some() {
                    return Err((
                        at("items"),
                        "a list of schemas here is draft-07's tuple; give it as \
                         \"prefixItems\" instead, beside a single-schema \"items\""
                            .into(),
                    ));
                }
                let run = self.read_list(list, &path.key("items"), None)?;
                rare.prefix_items = Some((TupleForm::ItemsList, run));
            }
            Some(node) => schema.items = Some(self.read(node, &path.key("items"))),
        }
        if let Some(list) = field("prefixItems") {
            let run = self.read_list(list, &path.key("prefixItems"), None)?;
            rare.prefix_items = Some((TupleForm::PrefixItems, run));
        }
        if let Some(node) = field("additionalItems") {
            if !matches!(rare.prefix_items, Some((TupleForm::ItemsList, _))) {
                return Err((
                    at("additionalItems"),
                    "\"additionalItems\" follows a tuple given as an \"items\" list \
                     (draft-07), and there is none; give \"items\" instead"
                        .into(),
                ));
            }
            rare.additional_items = Some(self.read(node, &path.key("additionalItems")));
        }
        (rare.min_items, rare.max_items) = counts(&field, path, "minItems", "maxItems")?;

        // Strings and numbers.
        (rare.min_length, rare.max_length) = counts(&field, path, "minLength", "maxLength")?;
        let number = |reader: &mut Self, key: &str| -> Result<Option<Number>, SchemaError> {
            let Some(value) = field(key) else {
                return Ok(None);
            };
            Ok(number_field(Some(value), &path.key(key))?.map(|text| number(reader.model, text)))
        };
        rare.minimum = number(self, "minimum")?;
        rare.maximum = number(self, "maximum")?;
        rare.exclusive_minimum = number(self, "exclusiveMinimum")?;
        rare.exclusive_maximum = number(self, "exclusiveMaximum")?;
        rare.multiple_of = number(self, "multipleOf")?;
        if rare.multiple_of.is_some_and(|divisor| divisor.value <= 0.0) {
            return Err((
                at("multipleOf"),
                "must be more than 0, as JSON Schema requires".into(),
            ));
        }
        no_empty_range(&rare, path)?;
        self.model.nodes[id as usize] = schema;
        self.model.set_keywords(id, &rare, &annotations);
        Ok(())
    }

    /// The node that a local `$ref` names: `#` (the root), or `#/$defs/NAME` (with the root's
    /// own keyword), the name JSON-Pointer-escaped (RFC 6901: `~1` is `/`, `~0` is `~`).
    fn resolve(&self, target: &str) -> Option<NodeId> {
        if target == "#" {
            return Some(self.root);
        }
        let keyword = self.defs_keyword?;
        let name = target
            .strip_prefix("#/")?
            .strip_prefix(keyword)?
            .strip_prefix('/')?;
        let name = name.replace("~1", "/").replace("~0", "~");
        self.defs
            .iter()
            .find(|(defined, _)| *defined == name)
            .map(|(_, id)| *id)
    }

    fn read_enum(
        &mut self,
        values: &Node<'_>,
        id: NodeId,
        types: Types,
        form: TypeForm,
        path: &Path<'_>,
    ) -> Result<Run, SchemaError> {
        let Value::Array(elements) = &values.value else {
            return Err((
                path.pointer(),
                format!(
                    "must be an array of values, found {}",
                    describe(&values.value)
                ),
            ));
        };
        if elements.is_empty() {
            return Err((
                path.pointer(),
                "must list at least one value: an empty enum admits nothing".into(),
            ));
        }
        let mut seen: Vec<Comparable<'_>> = Vec::with_capacity(elements.len());
        let mut out = Vec::with_capacity(elements.len());
        let keyword = self.pointer_text(path);
        for (i, element) in elements.iter().enumerate() {
            let at = path.index(i);
            let place = Place {
                keyword: keyword.clone(),
                index: Some(i),
                fit: Fit::Required,
            };
            let key = match &element.value {
                Value::String(text) => Comparable::Text(text),
                _ => Comparable::Other(comparable(element)),
            };
            // A value of the wrong type is refused as that, before it is found twice.
            if seen.contains(&key) {
                self.value_of(element, id, types, form, &at, place)?;
                return Err((at.pointer(), "the same value appears twice".into()));
            }
            out.push(self.value_of(element, id, types, form, &at, place)?);
            seen.push(key);
        }
        Ok(OwnedModel::append(&mut self.model.values, out))
    }

    /// An `enum` or `const` value: of one of the node's types when it gives any (the value
    /// must fit the node's other keywords too, checked once every node is read).
    fn value_of(
        &mut self,
        node: &Node<'_>,
        id: NodeId,
        types: Types,
        form: TypeForm,
        path: &Path<'_>,
        place: Place,
    ) -> Result<Scalar, SchemaError> {
        if form != TypeForm::Absent && !types_admit(types, node) {
            return Err((
                path.pointer(),
                format!(
                    "must be {}, as the schema's type says; found {}",
                    type_phrase(types),
                    describe(&node.value)
                ),
            ));
        }
        self.fit_later(id, node, place);
        Ok(self.scalar(node))
    }

    /// Keeps a value to check against its node once every node is read (`values_fit`).
    fn fit_later(&mut self, id: NodeId, node: &Node<'_>, place: Place) {
        let start = self.value_texts.len();
        write_canonical(&mut self.value_texts, node);
        self.values.push((id, start..self.value_texts.len(), place));
    }

    /// A keyword's pointer, written in `value_texts` once for all of its values.
    fn pointer_text(&mut self, keyword: &Path<'_>) -> Range<usize> {
        let start = self.value_texts.len();
        keyword.write(&mut self.value_texts);
        start..self.value_texts.len()
    }

    fn scalar(&mut self, node: &Node<'_>) -> Scalar {
        match &node.value {
            Value::String(text) => Scalar::String(self.model.text(text)),
            Value::Number(text) => Scalar::Number(number(self.model, text)),
            Value::Bool(flag) => Scalar::Boolean(*flag),
            Value::Null => Scalar::Null,
            Value::Object(_) | Value::Array(_) => Scalar::Json(self.model.text(&canonical(node))),
        }
    }

    /// Refuses a cycle of references that never steps into a value (`{"$ref": "#"}` at the
    /// root, or two definitions that are each other's `allOf`): no value could end it.
    fn no_endless_references(&self) -> Result<(), SchemaError> {
        // Depth-first over the edges, colouring nodes: 1 on the path, 2 done.
        let mut colour: std::collections::HashMap<NodeId, u8> = Default::default();
        for (start, _, _) in &self.edges {
            let mut stack: Vec<(NodeId, usize)> = vec![(*start, 0)];
            if colour.get(start).copied().unwrap_or(0) == 2 {
                continue;
            }
            colour.insert(*start, 1);
            while let Some((node, next)) = stack.last().copied() {
                let out: Vec<&(NodeId, NodeId, String)> =
                    self.edges.iter().filter(|edge| edge.0 == node).collect();
                match out.get(next) {
                    None => {
                        colour.insert(node, 2);
                        stack.pop();
                    }
                    Some((_, to, pointer)) => {
                        stack.last_mut().expect("not empty").1 += 1;
                        match colour.get(to).copied().unwrap_or(0) {
                            1 => {
                                return Err((
                                    pointer.clone(),
                                    "this reference leads back to itself without stepping \
                                     into a property or an item: no value could end it"
                                        .into(),
                                ))
                            }
                            2 => {}
                            _ => {
                                colour.insert(*to, 1);
                                stack.push((*to, 0));
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// OpenAI strict's limits (nesting, properties, enum values), counted over what the
    /// schema expands to: a `$ref` counts what it names each time it is used, except where it
    /// recurses, which no count can expand.
    fn limits(&mut self, pointer: &str) -> Result<(), SchemaError> {
        let model = self.model.model();
        let mut path = Vec::new();
        let (depth, properties, values) = expand(model, self.root, &mut path);
        self.totals.properties += properties;
        if depth > MAX_OBJECT_NESTING {
            return Err((
                pointer.into(),
                format!(
                    "{depth} levels of object nesting; OpenAI strict allows at most \
                     {MAX_OBJECT_NESTING}"
                ),
            ));
        }
        if self.totals.properties > MAX_PROPERTIES {
            return Err((
                pointer.into(),
                format!(
                    "{} object properties in the catalog so far; OpenAI strict allows at most \
                     {MAX_PROPERTIES} in all",
                    self.totals.properties
                ),
            ));
        }
        self.totals.enum_values += values;
        if self.totals.enum_values > MAX_ENUM_VALUES {
            return Err((
                pointer.into(),
                format!(
                    "{} enum values in the catalog so far; OpenAI strict allows at most \
                     {MAX_ENUM_VALUES} in all",
                    self.totals.enum_values
                ),
            ));
        }
        Ok(())
    }

    /// Every `const` and `enum` value fits its node, as check_call would judge it; a `default`
    /// or an example that does not is kept as an unfit annotation. Each value that does not
    /// fit is noted in `problems`.
    fn values_fit(&mut self) {
        let mut unfit = Vec::new();
        let model = self.model.model();
        for (id, value, place) in &self.values {
            let value = &self.value_texts[value.clone()];
            // The root closes as a call's arguments close: the `mcp` shape writes
            // `"properties":{}` there, and the file it makes must read again.
            if let Some(problem) =
                crate::validate::first_problem(model, self.root, *id, value.as_bytes())
            {
                if place.fit == Fit::Annotation {
                    unfit.push((*id, place.index.is_some()));
                    continue;
                }
                let mut pointer = self.value_texts[place.keyword.clone()].to_string();
                if let Some(index) = place.index {
                    let _ = write!(pointer, "/{index}");
                }
                self.problems
                    .push((pointer, format!("does not fit its own schema: {problem}")));
            }
        }
        for (id, example) in unfit {
            let run = self.model.nodes[id as usize].keywords;
            let start = (run.start + u32::from(run.rare)) as usize;
            let annotations = start..start + usize::from(run.annotations);
            for keyword in &mut self.model.keywords[annotations] {
                *keyword = match *keyword {
                    Keyword::Default(at) if !example => Keyword::UnfitDefault(at),
                    Keyword::Examples(text) if example => Keyword::UnfitExamples(text),
                    other => other,
                };
            }
        }
    }
}

/// Depth of object nesting, properties and enum values along what `id` expands to, stopping
/// where a reference recurses (`path` holds the nodes being expanded).
fn expand(model: Model<'_>, id: NodeId, path: &mut Vec<NodeId>) -> (usize, usize, usize) {
    if path.contains(&id) || path.len() > 64 {
        return (0, 0, 0);
    }
    path.push(id);
    let node = model.node(id);
    let mut deepest = 0;
    let mut properties = model.properties(node).len();
    let mut values = node.enumeration.map_or(0, |run| run.len as usize);
    for child in model.children(node) {
        let (depth, p, v) = expand(model, child, path);
        deepest = deepest.max(depth);
        properties += p;
        values += v;
    }
    path.pop();
    let own = usize::from(node.has_properties && node.types.has(Type::Object));
    (own + deepest, properties, values)
}

/// The `type` keyword: absent (any value), one name, or a list of distinct names.
fn read_types(node: Option<&Node<'_>>, path: &Path<'_>) -> Result<(Types, TypeForm), SchemaError> {
    let at = path.key("type");
    let name = |node: &Node<'_>, at: &Path<'_>| -> Result<Type, SchemaError> {
        let Value::String(name) = &node.value else {
            return Err((
                at.pointer(),
                format!("must be a type name, found {}", describe(&node.value)),
            ));
        };
        Type::ALL
            .into_iter()
            .find(|ty| ty.as_str() == name)
            .ok_or_else(|| {
                (
                    at.pointer(),
                    format!("{} is not a type; expected one of {TYPES}", quote(name)),
                )
            })
    };
    match node {
        None => Ok((Types::ANY, TypeForm::Absent)),
        Some(
            list @ Node {
                value: Value::Array(names),
            },
        ) => {
            if names.is_empty() {
                return Err((at.pointer(), "must list at least one type".into()));
            }
            let mut types = Types(0);
            for (i, node) in names.iter().enumerate() {
                let at = at.index(i);
                let ty = name(node, &at)?;
                if types.has(ty) {
                    return Err((
                        at.pointer(),
                        format!("{} appears twice", quote(ty.as_str())),
                    ));
                }
                types = types.with(ty);
            }
            let _ = list;
            Ok((types, TypeForm::List))
        }
        Some(node) => Ok((Types::of(name(node, &at)?), TypeForm::One)),
    }
}

/// `string`, `integer or null`: a set of types for messages.
fn type_names(types: Types) -> String {
    let names: Vec<&str> = Type::ALL
        .into_iter()
        .filter(|ty| types.has(*ty))
        .map(Type::as_str)
        .collect();
    names.join(" or ")
}

/// `a string`, `an integer or null`: a set of types as what a value must be.
fn type_phrase(types: Types) -> String {
    let names: Vec<&str> = Type::ALL
        .into_iter()
        .filter(|ty| types.has(*ty))
        .map(Type::article)
        .collect();
    names.join(" or ")
}

/// Whether a value's JSON type is one of `types` (an integral number is an integer).
fn types_admit(types: Types, node: &Node<'_>) -> bool {
    match &node.value {
        Value::Object(_) => types.has(Type::Object),
        Value::Array(_) => types.has(Type::Array),
        Value::String(_) => types.has(Type::String),
        Value::Bool(_) => types.has(Type::Boolean),
        Value::Null => types.has(Type::Null),
        Value::Number(text) => {
            types.has(Type::Number)
                || (types.has(Type::Integer) && number::is_integer(text.as_bytes()))
        }
    }
}

/// A value's canonical form for telling values apart, with numbers by value (`1` and `1.0`
/// are the same value, as JSON Schema says).
/// An `enum` value as two values that are the same compare: a string by its text, anything
/// else by [`comparable`].
#[derive(PartialEq)]
enum Comparable<'n> {
    Text(&'n str),
    Other(String),
}

fn comparable(node: &Node<'_>) -> String {
    match &node.value {
        Value::Number(text) => format!("{:?}", text.parse::<f64>().unwrap_or(f64::NAN)),
        Value::Array(elements) => {
            let parts: Vec<String> = elements.iter().map(comparable).collect();
            format!("[{}]", parts.join(","))
        }
        Value::Object(members) => {
            let mut parts: Vec<String> = members
                .iter()
                .map(|(key, value)| format!("{key:?}:{}", comparable(value)))
                .collect();
            parts.sort();
            format!("{{{}}}", parts.join(","))
        }
        _ => canonical(node),
    }
}

/// pydantic's `discriminator` (OpenAPI's): `propertyName`, and optionally a `mapping` of
/// values to references.
fn read_discriminator(node: &Node<'_>, path: &Path<'_>) -> Result<(), SchemaError> {
    let Value::Object(members) = &node.value else {
        return Err((
            path.pointer(),
            format!("must be an object, found {}", describe(&node.value)),
        ));
    };
    for (key, value) in members {
        let ok = match (key.as_ref(), &value.value) {
            ("propertyName", Value::String(_)) => true,
            ("mapping", Value::Object(entries)) => entries
                .iter()
                .all(|(_, target)| matches!(target.value, Value::String(_))),
            _ => false,
        };
        if !ok {
            return Err((
                path.key(key).pointer(),
                "a discriminator has \"propertyName\" (a string) and optionally \"mapping\" \
                 (an object of strings)"
                    .into(),
            ));
        }
    }
    if !members.iter().any(|(key, _)| key == "propertyName") {
        return Err((path.pointer(), "missing \"propertyName\"".into()));
    }
    Ok(())
}

impl Schema {
    /// `pattern`, checked by the engine that check_call will match it with.
    fn pattern_text<'n>(
        &self,
        node: Option<&'n Node<'_>>,
        path: &Path<'_>,
    ) -> Result<Option<&'n str>, SchemaError> {
        let Some(pattern) = optional_string(node, || path.pointer())? else {
            return Ok(None);
        };
        crate::regex::Regex::new(pattern).map_err(|err| {
            (
                path.pointer(),
                format!(
                    "{} is not a pattern this checker can match: {err}",
                    quote(pattern)
                ),
            )
        })?;
        Ok(Some(pattern))
    }
}

/// A number keyword, as written: a finite 64-bit float.
fn number_field<'n>(
    node: Option<&'n Node<'_>>,
    path: &Path<'_>,
) -> Result<Option<&'n str>, SchemaError> {
    match node {
        None => Ok(None),
        Some(Node {
            value: Value::Number(text),
        }) => match text.parse::<f64>() {
            Ok(value) if value.is_finite() => Ok(Some(text)),
            _ => Err((
                path.pointer(),
                format!("{text} is out of range for a 64-bit float"),
            )),
        },
        Some(other) => Err((
            path.pointer(),
            format!("must be a number, found {}", describe(&other.value)),
        )),
    }
}

/// Refuses bounds that no number meets: a lower bound above an upper one, or exclusive bounds
/// that meet.
fn no_empty_range(rare: &Rare, path: &Path<'_>) -> Result<(), SchemaError> {
    let lows = [
        ("minimum", rare.minimum, false),
        ("exclusiveMinimum", rare.exclusive_minimum, true),
    ];
    let highs = [
        ("maximum", rare.maximum, false),
        ("exclusiveMaximum", rare.exclusive_maximum, true),
    ];
    for (low_key, low, low_open) in lows {
        for (high_key, high, high_open) in highs {
            let (Some(low), Some(high)) = (low, high) else {
                continue;
            };
            let empty = if low_open || high_open {
                low.value >= high.value
            } else {
                low.value > high.value
            };
            if empty {
                return Err((
                    path.key(low_key).pointer(),
                    format!("no number is within {low_key} and {high_key}: the range is empty"),
                ));
            }
        }
    }
    Ok(())
}

/// A pair of count keywords (`minItems`/`maxItems`, `minLength`/`maxLength`,
/// `minProperties`/`maxProperties`): non-negative integers, the first not above the second.
fn counts<'n>(
    field: &dyn Fn(&str) -> Option<&'n Node<'n>>,
    path: &Path<'_>,
    low: &str,
    high: &str,
) -> Result<(Option<u64>, Option<u64>), SchemaError> {
    let count = |key: &str| -> Result<Option<u64>, SchemaError> {
        let Some(node) = field(key) else {
            return Ok(None);
        };
        // The value as a refusal shows it, made only for one.
        let found = || match node.value {
            Value::Number(text) => text.to_string(),
            _ => describe(&node.value).to_string(),
        };
        match node.value {
            Value::Number(text) => match number::count(text.as_bytes()) {
                Count::Of(count) => Ok(Some(count)),
                Count::TooLarge => Err((
                    path.key(key).pointer(),
                    format!("{text} is too large for a count"),
                )),
                Count::Refused => Err((
                    path.key(key).pointer(),
                    format!("must be a non-negative integer, found {}", found()),
                )),
            },
            _ => Err((
                path.key(key).pointer(),
                format!("must be a non-negative integer, found {}", found()),
            )),
        }
    };
    let (min, max) = (count(low)?, count(high)?);
    if let (Some(min), Some(max)) = (min, max) {
        if min > max {
            return Err((
                path.key(low).pointer(),
                format!("{min} is more than {high} {max}"),
            ));
        }
    }
    Ok((min, max))
}

/// The reader has checked that the text is a finite 64-bit float.
fn number(model: &mut OwnedModel, text: &str) -> Number {
    Number {
        text: model.text(text),
        value: text.parse().unwrap_or(f64::NAN),
    }
}

/// Whether every node from `id` down is in the flat subset that `check.rs` reads: one type
/// (not `null`), `items` on arrays, and of the rest only `enum` (of its own type), the
/// inclusive bounds and counts, `additionalProperties: false`, and annotations (`format` too,
/// when it names none that `format.rs` checks). A nested object without `properties` is
/// free-form: any members.
fn flat(model: Model<'_>, id: NodeId) -> bool {
    let node = model.node(id);
    flat_alone(model, node)
        && model
            .properties(node)
            .iter()
            .all(|property| flat(model, property.schema))
        && node.items.is_none_or(|items| flat(model, items))
}

/// A node in [`flat`]'s subset, the nodes below it apart.
fn flat_alone(model: Model<'_>, node: &Schema) -> bool {
    let enum_fits = node.enumeration.is_none_or(|run| {
        model.values(run).iter().all(|value| {
            matches!(
                (node.ty, value),
                (Type::String, Scalar::String(_))
                    | (Type::Integer | Type::Number, Scalar::Number(_))
            )
        })
    });
    let closed_only = node
        .additional
        .is_none_or(|extra| model.node(extra).boolean == Some(false));
    let rare = model.rare(node);
    let checked_format = rare
        .format
        .is_some_and(|name| crate::format::StringFormat::from_name(model.str(name)).is_some());
    node.boolean.is_none()
        && node.type_form == TypeForm::One
        && node.ty != Type::Null
        && node.nullable != Some(true)
        && rare.constant.is_none()
        && node.any_of.is_none()
        && rare.one_of.is_none()
        && rare.all_of.is_none()
        && rare.reference.is_none()
        && rare.definitions.is_none()
        && closed_only
        && rare.property_names.is_none()
        && rare.undeclared_required.is_none()
        && rare.min_properties.is_none()
        && rare.max_properties.is_none()
        && rare.prefix_items.is_none()
        && rare.additional_items.is_none()
        && node.unique_items != Some(true)
        && rare.pattern.is_none()
        && !checked_format
        && rare.exclusive_minimum.is_none()
        && rare.exclusive_maximum.is_none()
        && rare.multiple_of.is_none()
        && enum_fits
        && (node.ty != Type::Array || node.items.is_some())
}

/// Whether the object node `id` is in [`flat`]'s subset but for some of its properties, each
/// of which is a union of plain scalars: `anyOf` alone (with annotations), each branch one type
/// (`null` too) and nothing else. check_call's quick path reads such calls (`Tool::scalar_unions`).
fn scalar_unions(model: Model<'_>, id: NodeId) -> bool {
    let node = model.node(id);
    node.ty == Type::Object
        && flat_alone(model, node)
        && model
            .properties(node)
            .iter()
            .all(|property| flat(model, property.schema) || scalar_union(model, property.schema))
}

/// A union of plain scalars: `anyOf` and annotations only, each branch a single type with no
/// other keyword that judges a value.
fn scalar_union(model: Model<'_>, id: NodeId) -> bool {
    let node = model.node(id);
    let Some(branches) = node.any_of else {
        return false;
    };
    let alone = node.keywords.rare == 0
        && node.boolean.is_none()
        && node.type_form == TypeForm::Absent
        && node.nullable.is_none()
        && node.enumeration.is_none()
        && node.properties.len == 0
        && !node.has_properties
        && node.items.is_none()
        && node.additional.is_none();
    alone
        && model.subschemas(branches).iter().all(|&branch| {
            let branch = model.node(branch);
            branch.keywords.rare == 0
                && branch.boolean.is_none()
                && branch.type_form == TypeForm::One
                && matches!(
                    branch.ty,
                    Type::String | Type::Integer | Type::Number | Type::Boolean | Type::Null
                )
                && branch.nullable.is_none()
                && branch.any_of.is_none()
                && branch.enumeration.is_none()
        })
}

// ---------------------------------------------------------------------------------------------
// The Rust tables.

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
             destructive: {}, idempotent: {}, open_world: {}, stated: {} }}, title: {}, \
             annotations_title: {}, output: {:?}, icons: {}, execution: {}, meta: {}, \
             flat: {}, scalar_unions: {} }},",
            span(tool.name),
            span(tool.description),
            tool.input,
            hints.read_only,
            hints.destructive,
            hints.idempotent,
            hints.open_world,
            hints.stated,
            option(tool.title, span),
            option(tool.annotations_title, span),
            tool.output,
            option(tool.icons, span),
            option(tool.execution, span),
            option(tool.meta, span),
            tool.flat,
            tool.scalar_unions,
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
    let _ = writeln!(
        out,
        "const SUBSCHEMA_TABLE: [NodeId; {}] = {:?};",
        model.subschemas.len(),
        model.subschemas
    );
    let _ = writeln!(
        out,
        "const DEFINITION_TABLE: [Definition; {}] = [",
        model.definitions.len()
    );
    for definition in &model.definitions {
        let _ = writeln!(
            out,
            "Definition {{ name: {}, schema: {} }},",
            span(definition.name),
            definition.schema
        );
    }
    let _ = writeln!(out, "];");
    let _ = writeln!(
        out,
        "const KEYWORD_TABLE: [Keyword; {}] = [",
        model.keywords.len()
    );
    for keyword in &model.keywords {
        let _ = writeln!(out, "Keyword::{},", keyword_expression(keyword));
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

fn option<T: Copy>(value: Option<T>, write: impl Fn(T) -> String) -> String {
    match value {
        Some(value) => format!("Some({})", write(value)),
        None => "None".into(),
    }
}

fn node_expression(node: &Schema) -> String {
    let mut out = format!(
        "Schema {{ types: Types({}), type_form: TypeForm::{:?}, boolean: {:?}, ",
        node.types.0, node.type_form, node.boolean
    );
    field(&mut out, "description", option(node.description, span));
    field(&mut out, "nullable", format!("{:?}", node.nullable));
    field(&mut out, "enumeration", option(node.enumeration, run));
    field(&mut out, "any_of", option(node.any_of, run));
    field(&mut out, "properties", run(node.properties));
    field(
        &mut out,
        "has_properties",
        format!("{}", node.has_properties),
    );
    field(&mut out, "has_required", format!("{}", node.has_required));
    field(&mut out, "additional", format!("{:?}", node.additional));
    field(&mut out, "items", format!("{:?}", node.items));
    field(&mut out, "unique_items", format!("{:?}", node.unique_items));
    let keywords = node.keywords;
    if keywords != Keywords::NONE {
        let _ = write!(
            out,
            "keywords: Keywords {{ start: {}, rare: {}, annotations: {} }}, ",
            keywords.start, keywords.rare, keywords.annotations
        );
    }
    let _ = write!(out, "..Schema::of(Type::{:?}) }}", node.ty);
    out
}

/// One entry of the keyword table, after `Keyword::`.
fn keyword_expression(keyword: &Keyword) -> String {
    let count = |name: &str, count: u64| format!("{name}({count})");
    let node = |name: &str, id: NodeId| format!("{name}({id})");
    let text = |name: &str, text: Text| format!("{name}({})", span(text));
    let value = |name: &str, at: u32| format!("{name}({at})");
    let flag = |name: &str, flag: bool| format!("{name}({flag})");
    match *keyword {
        Keyword::Reference(target, id) => format!("Reference({}, {id})", span(target)),
        Keyword::Pattern(pattern) => text("Pattern", pattern),
        Keyword::Format(format) => text("Format", format),
        Keyword::Constant(at) => value("Constant", at),
        Keyword::OneOf(branches) => format!("OneOf({})", run(branches)),
        Keyword::AllOf(branches) => format!("AllOf({})", run(branches)),
        Keyword::Discriminator(json) => text("Discriminator", json),
        Keyword::Definitions(form, defs) => {
            format!("Definitions(DefsKeyword::{form:?}, {})", run(defs))
        }
        Keyword::PropertyNames(id) => node("PropertyNames", id),
        Keyword::UndeclaredRequired(names) => format!("UndeclaredRequired({})", run(names)),
        Keyword::MinProperties(n) => count("MinProperties", n),
        Keyword::MaxProperties(n) => count("MaxProperties", n),
        Keyword::PrefixItems(form, items) => {
            format!("PrefixItems(TupleForm::{form:?}, {})", run(items))
        }
        Keyword::AdditionalItems(id) => node("AdditionalItems", id),
        Keyword::MinItems(n) => count("MinItems", n),
        Keyword::MaxItems(n) => count("MaxItems", n),
        Keyword::MinLength(n) => count("MinLength", n),
        Keyword::MaxLength(n) => count("MaxLength", n),
        Keyword::Minimum(at) => value("Minimum", at),
        Keyword::Maximum(at) => value("Maximum", at),
        Keyword::ExclusiveMinimum(at) => value("ExclusiveMinimum", at),
        Keyword::ExclusiveMaximum(at) => value("ExclusiveMaximum", at),
        Keyword::MultipleOf(at) => value("MultipleOf", at),
        Keyword::Title(title) => text("Title", title),
        Keyword::Comment(comment) => text("Comment", comment),
        Keyword::Default(at) => value("Default", at),
        Keyword::UnfitDefault(at) => value("UnfitDefault", at),
        Keyword::UnfitExamples(examples) => text("UnfitExamples", examples),
        Keyword::ContentEncoding(encoding) => text("ContentEncoding", encoding),
        Keyword::ContentMediaType(media) => text("ContentMediaType", media),
        Keyword::ContentSchema(schema) => text("ContentSchema", schema),
        Keyword::Examples(json) => text("Examples", json),
        Keyword::Deprecated(given) => flag("Deprecated", given),
        Keyword::ReadOnly(given) => flag("ReadOnly", given),
        Keyword::WriteOnly(given) => flag("WriteOnly", given),
        Keyword::Dialect(dialect) => text("Dialect", dialect),
    }
}

/// One field of a struct literal, `name: value, `, unless the value is `None` (the default that
/// `..Schema::of` gives).
fn field(out: &mut String, name: &str, value: String) {
    if value != "None" {
        let _ = write!(out, "{name}: {value}, ");
    }
}

fn scalar_expression(value: &Scalar) -> String {
    match value {
        Scalar::String(text) => format!("Scalar::String({})", span(*text)),
        Scalar::Number(number) => format!("Scalar::Number({})", number_expression(*number)),
        Scalar::Boolean(flag) => format!("Scalar::Boolean({flag})"),
        Scalar::Null => "Scalar::Null".into(),
        Scalar::Json(text) => format!("Scalar::Json({})", span(*text)),
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

    /// Both ways of finding a repeated key (compared pairs for a small object, sorted for a
    /// large one) name the key a scan in document order meets first, over objects of 0 to 40
    /// members drawn from 3 to 24 keys: the sizes on both sides of the switch.
    #[test]
    fn duplicate_names_the_first_key_seen_again() {
        let mut state = 0x2545_f491_u64;
        for round in 0..4_000 {
            let len = round % 41;
            let keys = 3 + round % 22;
            let members: Vec<(Cow<'_, str>, Node<'_>)> = (0..len)
                .map(|_| {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    let key = format!("k{}", (state >> 33) as usize % keys);
                    let node = Node { value: Value::Null };
                    (Cow::Owned(key), node)
                })
                .collect();
            let scan = (0..len)
                .find(|&i| members[..i].iter().any(|(key, _)| *key == members[i].0))
                .map(|i| members[i].0.as_ref());
            assert_eq!(duplicate(&members), scan, "{len} members of {keys} keys");
        }
    }
}
