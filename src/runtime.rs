//! A catalog read at run time: an MCP client's tools, known only when it connects, or a
//! gateway's, or a harness's without a Rust toolchain.
//!
//! It goes through what the build goes through: the reader (`catalog_file.rs`, the one home of
//! the rules, so a refusal is the build's own line), the model, and the renderer (`wire.rs`),
//! run once when the catalog is read. A request is then answered by the same request reader
//! and the same dispatch as the compiled-in catalog, as slices of what was rendered, with no
//! allocation; calls by the same checkers (`quick_call.rs` and `check.rs` for flat tools,
//! `validate.rs` for the rest), `quick_call.rs` over tables made here as the build makes the
//! compiled-in catalog's. Once rendered, only what those read of the model is kept
//! ([`OwnedModel::for_checking`]): annotations and output schemas are the renderer's alone. And
//! the kept model's text starts with the rendered answers, so a string they hold whole (a
//! description, a property's name) is read from them, not kept twice (`layout::Strings`).

use crate::catalog::{self, Measure, Names, QuickTables};
use crate::catalog_file::{self, CatalogError, MAX_CATALOG};
use crate::error::Error;
use crate::layout::{self, Layout};
use crate::quick_call;
use crate::request;
use crate::respond;
use crate::schema::{Model, OwnedModel, Text};
use crate::verdict;
use crate::wire;
use crate::writer::Declarations;
use std::borrow::Cow;
use std::io::{Read, Write};
use std::path::Path;

/// A catalog file read, checked and rendered at run time, answering requests as
/// [`respond()`](crate::respond()) does for the compiled-in one.
///
/// ```
/// let file = br#"[{"name":"read_file","description":"Reads a file.",
///   "inputSchema":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}]"#;
/// let catalog = tool_schema::RuntimeCatalog::from_bytes(file).unwrap();
/// let mut out = Vec::new();
/// catalog.respond(br#"{"op":"tool_schema","tool":"read_file","format":"anthropic"}"#, &mut out)?;
/// assert_eq!(
///     out,
///     b"{\"description\":\"Reads a file.\",\"input_schema\":{\"properties\":{\"path\":{\"type\":\"string\"}},\"required\":[\"path\"],\"type\":\"object\"},\"name\":\"read_file\"}\n"
/// );
/// # Ok::<(), tool_schema::Error>(())
/// ```
pub struct RuntimeCatalog {
    /// What the checkers read. Its text starts with the answers: every declaration in every
    /// shape, or why a shape cannot express it, laid out by `layout.rs`. The model's strings
    /// that the answers hold whole are read from there.
    model: OwnedModel,
    /// How many bytes of the model's text are the answers.
    answers: usize,
    /// The answers' pieces, and where each slot's run of them starts ([`wire::Rendered`]).
    pieces: Vec<layout::Piece>,
    spans: Vec<u32>,
    /// The tools' names, hashed as the compiled-in catalog's are.
    index: Vec<(u32, u32)>,
    /// Each tool's optional properties, for Anthropic strict's limits, and their sum.
    optional: Vec<usize>,
    optional_in_all: usize,
    /// Every `pattern`, compiled once.
    patterns: verdict::Patterns,
    /// The longest answer to a `tool_list`, over every shape.
    longest: usize,
    /// For each tool, whether `check.rs` reads its calls: a flat tool within the run-time sizes
    /// (`verdict::RUN_TIME_NESTING` and the others); `validate.rs` reads the rest.
    flat: Vec<bool>,
    /// What the quick path reads of each tool ([`QuickTables`]), in one place per tool.
    quick: Vec<QuickTool>,
    /// Every tool's top-level keys as the valid answer writes them, one after another; `key_at`
    /// says where each starts (and the last ends).
    keys: Vec<u8>,
    key_at: Vec<u32>,
    /// Every tool's valid answer's ending, one after another.
    valid_ends: Vec<u8>,
    /// The tools left out, each with its refusal ([`BadTool::IsLeftOut`]).
    refused: Vec<CatalogError>,
}

/// What a harness logging its catalogs wants to see: how many tools, and which were left out
/// and why. The tables themselves are many thousands of entries of no use in a log.
impl std::fmt::Debug for RuntimeCatalog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RuntimeCatalog")
            .field("tools", &self.len())
            .field("refused", &self.refused)
            .finish_non_exhaustive()
    }
}

/// What reading a catalog at run time does with a tool that breaks one of the reader's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BadTool {
    /// The whole file is refused, as a build refuses it ([`RuntimeCatalog::from_bytes`]): for a
    /// catalog one owns, where a broken tool is a mistake to fix.
    RefusesTheFile,
    /// The tool is left out and its refusal kept ([`RuntimeCatalog::refused`]); the others are
    /// read as a file without it would be. For an MCP client, which takes servers it does not
    /// control. A file that is no catalog at all is still refused
    /// ([`catalog_file::read_each_tool`]).
    IsLeftOut,
}

/// What the quick path reads of one tool of a run-time catalog.
struct QuickTool {
    /// Whether the quick path reads its calls ([`QuickTables::quick`]).
    quick: bool,
    /// Whether the compact reading is tried first ([`QuickTables::compact_first`]).
    compact_first: bool,
    /// Its top-level properties' plain and required masks.
    masks: (u64, u64),
    /// Where its first key is in `key_at`.
    first_key: u32,
    /// Where its valid answer's ending is in `valid_ends`.
    valid_end: (u32, u32),
}

impl RuntimeCatalog {
    /// Reads a catalog file's bytes (an MCP `tools/list` array) by the build's rules; a
    /// refusal is the build's line (tool, JSON Pointer, rule). At most
    /// [`MAX_CATALOG`](crate::catalog_file::MAX_CATALOG) bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<RuntimeCatalog, CatalogError> {
        RuntimeCatalog::load(bytes, BadTool::RefusesTheFile)
    }

    /// Reads a catalog file's bytes, a tool that breaks a rule taken as `bad_tool` says.
    ///
    /// ```
    /// use tool_schema::BadTool;
    /// let file = br#"[{"name":"good","description":"Fine.","inputSchema":{"type":"object"}},
    ///   {"name":"bad","description":"Broken.","inputSchema":{"type":"object","propertes":{}}}]"#;
    /// let catalog = tool_schema::RuntimeCatalog::load(file, BadTool::IsLeftOut).unwrap();
    /// assert_eq!(catalog.len(), 1);
    /// assert_eq!(catalog.refused()[0].tool.as_deref(), Some("\"bad\""));
    /// assert_eq!(catalog.refused()[0].pointer, "/inputSchema/propertes");
    /// assert!(tool_schema::RuntimeCatalog::load(file, BadTool::RefusesTheFile).is_err());
    /// ```
    pub fn load(bytes: &[u8], bad_tool: BadTool) -> Result<RuntimeCatalog, CatalogError> {
        let (whole, refused) = match bad_tool {
            BadTool::RefusesTheFile => (catalog_file::read(bytes)?, Vec::new()),
            BadTool::IsLeftOut => catalog_file::read_each_tool(bytes)?,
        };
        let rendered = wire::render(whole.model(), Layout::shared(2 * bytes.len()));
        let longest = rendered.longest_list(whole.tools.len());
        let wire::Rendered {
            bytes: answers,
            pieces,
            spans,
        } = rendered;
        // The renderer writes UTF-8, and cuts its answers into pieces at ASCII bytes only.
        let Ok(answers) = String::from_utf8(answers) else {
            return Err(CatalogError {
                tool: None,
                pointer: String::new(),
                rule: "rendered answers that are not UTF-8: a bug of this program".to_string(),
            });
        };
        // Once rendered, only what the checkers and the review read is kept, and the answers
        // are the start of its text: a string they hold is not kept again.
        let mut strings = layout::Strings::of(answers.as_bytes());
        let answers_len = answers.len();
        let model = whole.for_checking(answers, |text, wanted| strings.intern(text, wanted));
        drop((whole, strings));
        let view = model.model();
        let tools = view.tools.len();
        let index = catalog::index((0..tools).map(|tool| view.name(tool)));
        let optional: Vec<usize> = view
            .tools
            .iter()
            .map(|tool| catalog::optional_properties(view, view.input(tool)))
            .collect();
        let optional_in_all = optional.iter().sum();
        let patterns = verdict::patterns(view);
        let within = |tool: &crate::schema::Tool, measure, most| {
            catalog::along(view, view.input(tool), measure) <= most
        };
        let flat: Vec<bool> = view
            .tools
            .iter()
            .map(|tool| {
                tool.flat
                    && within(tool, Measure::Nesting, verdict::RUN_TIME_NESTING)
                    && within(tool, Measure::Words, verdict::RUN_TIME_WORDS)
                    && within(tool, Measure::Properties, verdict::RUN_TIME_PROPERTIES)
            })
            .collect();
        let (mut keys, mut key_at, mut valid_ends) = (Vec::new(), Vec::new(), Vec::new());
        let mut quick = Vec::with_capacity(tools);
        for (tool, &checked_flat) in flat.iter().enumerate() {
            let properties = view.properties(view.input(&view.tools[tool]));
            let mut masks = (0, 0);
            let first_key = key_at.len() as u32;
            for (i, property) in properties.iter().enumerate() {
                let schema = view.node(property.schema);
                if i < 64 {
                    masks.0 |= u64::from(catalog::is_plain(view, schema)) << i;
                    masks.1 |= u64::from(property.required) << i;
                }
                key_at.push(keys.len() as u32);
                for piece in catalog::root_key_pieces(view, property) {
                    keys.extend_from_slice(piece);
                }
            }
            let start = valid_ends.len() as u32;
            for piece in catalog::valid_end_pieces(view.name(tool)) {
                valid_ends.extend_from_slice(piece);
            }
            quick.push(QuickTool {
                quick: checked_flat || view.tools[tool].scalar_unions,
                compact_first: !view.tools[tool].scalar_unions,
                masks,
                first_key,
                valid_end: (start, valid_ends.len() as u32),
            });
        }
        key_at.push(keys.len() as u32);
        keys.shrink_to_fit();
        valid_ends.shrink_to_fit();
        key_at.shrink_to_fit();
        Ok(RuntimeCatalog {
            quick,
            keys,
            key_at,
            valid_ends,
            flat,
            model,
            answers: answers_len,
            pieces,
            spans,
            index,
            optional,
            optional_in_all,
            patterns,
            longest,
            refused,
        })
    }

    /// The tools that [`BadTool::IsLeftOut`] left out, each with its refusal, in file order:
    /// none for a catalog read whole.
    pub fn refused(&self) -> &[CatalogError] {
        &self.refused
    }

    /// Reads the catalog file at `path`, as given: at most
    /// [`MAX_CATALOG`](crate::catalog_file::MAX_CATALOG) bytes, no `$ref` outside it followed,
    /// nothing fetched. A file that cannot be read is a refusal of the whole document, with the
    /// operating system's reason; the path is the caller's to show.
    pub fn from_path(path: &Path) -> Result<RuntimeCatalog, CatalogError> {
        RuntimeCatalog::load_path(path, BadTool::RefusesTheFile)
    }

    /// [`RuntimeCatalog::from_path`], a tool that breaks a rule taken as `bad_tool` says.
    pub fn load_path(path: &Path, bad_tool: BadTool) -> Result<RuntimeCatalog, CatalogError> {
        let unreadable = |err: std::io::Error| CatalogError {
            tool: None,
            pointer: String::new(),
            rule: format!("cannot read the file: {err}"),
        };
        let file = std::fs::File::open(path).map_err(unreadable)?;
        let mut bytes = Vec::new();
        (file.take(MAX_CATALOG as u64 + 1))
            .read_to_end(&mut bytes)
            .map_err(unreadable)?;
        RuntimeCatalog::load(&bytes, bad_tool)
    }

    /// The catalog review's findings (`review.rs`), sorted by tool, then pointer, then rule.
    pub fn review(&self) -> Vec<crate::review::Finding> {
        crate::review::review(self.view())
    }

    /// How many tools.
    pub fn len(&self) -> usize {
        self.model.tools.len()
    }

    /// Whether the catalog has no tools (the reader refuses such a file, so never).
    pub fn is_empty(&self) -> bool {
        self.model.tools.is_empty()
    }

    /// No answer of this catalog is longer than this many bytes: what
    /// [`MAX_OUTPUT`](crate::MAX_OUTPUT) is for the compiled-in one.
    pub fn max_output(&self) -> usize {
        self.longest
    }

    /// Answers one request over this catalog: the bytes [`respond()`](crate::respond()) writes
    /// for a binary compiled with the same file. Allocates nothing.
    pub fn respond(&self, input: &[u8], out: &mut impl Write) -> Result<(), Error> {
        respond::watched(input, out, |out| self.respond_unwatched(input, out))
    }

    /// [`RuntimeCatalog::respond`] without the watch on `out`.
    #[inline(always)]
    fn respond_unwatched(&self, input: &[u8], out: &mut impl Write) -> Result<(), Error> {
        // A call goes to its quick path as `respond()` sends it: first when it looks like one.
        let call_first = input.get(7) == Some(&b'c');
        if call_first {
            // Matched here, as `respond()` does: an `Error` passed up whole is a copy per call.
            match self.quick_call(input, out) {
                Some(Ok(())) => return Ok(()),
                Some(Err(err)) => return Err(respond::write_failed(err)),
                None => {}
            }
        }
        let request = match request::parse_quick(input, self) {
            Some(request) => request?,
            None => {
                if !call_first {
                    if let Some(answer) = self.quick_call(input, out) {
                        return answer.map_err(respond::write_failed);
                    }
                }
                request::parse_general(input, self)?
            }
        };
        let declarations = Declarations {
            bytes: &self.model.text.as_bytes()[..self.answers],
            pieces: &self.pieces,
            spans: &self.spans,
            tools: self.len(),
        };
        let patterns = |pattern: Text, text: &str| verdict::matches(&self.patterns, pattern, text);
        // A reason is copied into the error that reports it: this catalog may be replaced
        // (a stream's `use_catalog`) while the error lives.
        let keep = |reason: &str| Cow::Owned(reason.to_owned());
        respond::answer(
            input,
            request,
            self,
            declarations,
            keep,
            out,
            |call, shape, out| {
                let model = self.view();
                verdict::answer_any(input, call, shape, out, self, model, &patterns, &self.flat)
            },
            |call, shape, out| {
                let model = self.view();
                verdict::answer_any(input, call, shape, out, self, model, &patterns, &self.flat)
            },
        )
    }

    /// Whether `check.rs` reads tool `tool`'s calls (`validate.rs` reads the rest).
    pub(crate) fn checked_flat(&self, tool: usize) -> bool {
        self.flat[tool]
    }

    /// `check_call`'s verdict on `call`, whose spans are in `request`: for a call assembled
    /// from a stream's fragments (`call_stream.rs`).
    pub(crate) fn check<W: Write>(
        &self,
        request: &[u8],
        call: &crate::call::Call,
        shape: crate::wire::Shape,
        out: &mut W,
    ) -> std::io::Result<()> {
        let patterns = |pattern: Text, text: &str| verdict::matches(&self.patterns, pattern, text);
        let model = self.view();
        verdict::answer_any(
            request, call, shape, out, self, model, &patterns, &self.flat,
        )
    }

    // Inlined, so that a caller building the view for one table loads only that table's
    // pointer: out of line, the view is nine slices written out per call (perf, check_call).
    #[inline(always)]
    fn view(&self) -> Model<'_> {
        self.model.model()
    }

    /// `check_call`'s quick path, checked against the general one in debug builds.
    #[inline]
    fn quick_call(&self, input: &[u8], out: &mut impl Write) -> Option<std::io::Result<()>> {
        let answer = quick_call::answer(input, out, self)?;
        #[cfg(debug_assertions)]
        {
            let model = self.view();
            let patterns =
                |pattern: Text, text: &str| verdict::matches(&self.patterns, pattern, text);
            quick_call::agrees_with_general(input, self, |call, shape, window| {
                verdict::answer_any(
                    input, call, shape, window, self, model, &patterns, &self.flat,
                )
            });
        }
        Some(answer)
    }
}

impl QuickTables for RuntimeCatalog {
    #[inline(always)]
    fn model(&self) -> Model<'_> {
        self.view()
    }

    #[inline]
    fn quick(&self, tool: usize) -> bool {
        self.quick[tool].quick
    }

    #[inline]
    fn compact_first(&self, tool: usize) -> bool {
        self.quick[tool].compact_first
    }

    #[inline]
    fn root_masks(&self, tool: usize) -> (u64, u64) {
        self.quick[tool].masks
    }

    #[inline]
    fn root_key(&self, tool: usize, property: usize) -> &[u8] {
        let k = self.quick[tool].first_key as usize + property;
        &self.keys[self.key_at[k] as usize..self.key_at[k + 1] as usize]
    }

    #[inline]
    fn valid_end(&self, tool: usize) -> &[u8] {
        let (start, end) = self.quick[tool].valid_end;
        &self.valid_ends[start as usize..end as usize]
    }
}

impl Names for RuntimeCatalog {
    #[inline]
    fn count(&self) -> usize {
        self.len()
    }

    #[inline]
    fn name(&self, tool: usize) -> &str {
        self.view().name(tool)
    }

    #[inline(always)]
    fn name_bytes(&self, tool: usize) -> &[u8] {
        let model = self.view();
        model.bytes(model.tools[tool].name)
    }

    fn held_name(&self, tool: usize) -> Cow<'static, str> {
        Cow::Owned(self.name(tool).to_owned())
    }

    #[inline]
    fn find_name(&self, name: &[u8]) -> Option<usize> {
        let name_of = |tool: usize| self.name_bytes(tool);
        catalog::find_indexed(&self.index, self.len(), name_of, name)
    }

    #[inline]
    fn optional(&self, tool: usize) -> usize {
        self.optional[tool]
    }

    #[inline]
    fn optional_in_all(&self) -> usize {
        self.optional_in_all
    }

    #[cold]
    fn refusal(&self, literal: &[u8]) -> Option<&CatalogError> {
        // A refused tool's label is its name as a JSON string, as a call's literal is.
        (self.refused.iter())
            .find(|refusal| refusal.tool.as_deref().map(str::as_bytes) == Some(literal))
    }
}
