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
/// catalog read at run time. Copy it freely; it is a few slices.
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
    /// Every enum's values, each enum's a run in the catalog's order; and the values of `const`,
    /// `default` and the number keywords, each a [`Keyword`]'s.
    pub values: &'a [Scalar],
    /// The branches of every `anyOf`, `oneOf` and `allOf`, and every tuple's elements: runs.
    pub subschemas: &'a [NodeId],
    /// Every root's definitions, each root's a run sorted by name.
    pub definitions: &'a [Definition],
    /// The keywords that most nodes lack, and the annotations, one entry each: each node's a
    /// run ([`Keywords`]), its [`Rare`] ones first.
    pub keywords: &'a [Keyword],
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

    /// The bytes that `text` spans: [`Model::str`] without the check that it starts and ends on
    /// a character's boundary, for comparing names on the call path.
    #[inline(always)]
    pub fn bytes(self, text: Text) -> &'a [u8] {
        let start = text.start as usize;
        self.text
            .as_bytes()
            .get(start..start + text.len as usize)
            .unwrap_or(b"")
    }

    /// The node with index `id`.
    #[inline]
    pub fn node(self, id: NodeId) -> &'a Schema {
        &self.nodes[id as usize]
    }

    /// The keywords that most nodes lack, of `node`, gathered from its entries. A node with
    /// none (most) gets [`Rare::NONE`] where it is called, not a copy of a gathered one.
    #[inline(always)]
    pub fn rare(self, node: &Schema) -> Rare {
        if node.keywords.rare == 0 {
            return Rare::NONE;
        }
        self.const_rare(node)
    }

    /// The first of the node's rare [`Keyword`]s that `pick` takes: one keyword read without
    /// gathering the rest, for the getters below.
    #[inline(always)]
    fn rare_keyword<T>(self, node: &Schema, pick: impl Fn(Keyword) -> Option<T>) -> Option<T> {
        let start = node.keywords.start as usize;
        let entries = &self.keywords[start..start + usize::from(node.keywords.rare)];
        entries.iter().find_map(|&keyword| pick(keyword))
    }

    /// [`Rare::reference`] of `node`.
    #[inline]
    pub fn reference(self, node: &Schema) -> Option<(Text, NodeId)> {
        self.rare_keyword(node, |keyword| match keyword {
            Keyword::Reference(text, id) => Some((text, id)),
            _ => None,
        })
    }

    /// [`Rare::pattern`] of `node`.
    #[inline]
    pub fn pattern(self, node: &Schema) -> Option<Text> {
        self.rare_keyword(node, |keyword| match keyword {
            Keyword::Pattern(text) => Some(text),
            _ => None,
        })
    }

    /// [`Rare::format`] of `node`.
    #[inline]
    pub fn format(self, node: &Schema) -> Option<Text> {
        self.rare_keyword(node, |keyword| match keyword {
            Keyword::Format(text) => Some(text),
            _ => None,
        })
    }

    /// The annotations of `node`, gathered from its entries.
    pub fn annotations(self, node: &Schema) -> Annotations {
        let start = (node.keywords.start + u32::from(node.keywords.rare)) as usize;
        let end = start + usize::from(node.keywords.annotations);
        let mut annotations = Annotations::NONE;
        for keyword in &self.keywords[start..end] {
            match *keyword {
                Keyword::Title(text) => annotations.title = Some(text),
                Keyword::Comment(text) => annotations.comment = Some(text),
                Keyword::Default(at) => annotations.default = Some(self.values[at as usize]),
                Keyword::UnfitDefault(at) => {
                    annotations.unfit_default = Some(self.values[at as usize])
                }
                Keyword::Examples(text) => annotations.examples = Some(text),
                Keyword::UnfitExamples(text) => annotations.unfit_examples = Some(text),
                Keyword::ContentEncoding(text) => annotations.content_encoding = Some(text),
                Keyword::ContentMediaType(text) => annotations.content_media_type = Some(text),
                Keyword::ContentSchema(text) => annotations.content_schema = Some(text),
                Keyword::Deprecated(flag) => annotations.deprecated = Some(flag),
                Keyword::ReadOnly(flag) => annotations.read_only = Some(flag),
                Keyword::WriteOnly(flag) => annotations.write_only = Some(flag),
                Keyword::Dialect(text) => annotations.dialect = Some(text),
                _ => {}
            }
        }
        annotations
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

    /// Every name an object node's `required` gives, in byte order: its properties marked
    /// required and its [`Rare::undeclared_required`], merged.
    pub fn required(self, node: &Schema) -> impl Iterator<Item = Text> + 'a {
        let mut declared = (self.properties(node).iter())
            .filter(|property| property.required)
            .map(|property| property.name)
            .peekable();
        let undeclared = self.rare(node).undeclared_required;
        let mut undeclared = (undeclared.map_or(&[][..], |run| self.values(run)).iter())
            .filter_map(|name| match name {
                Scalar::String(name) => Some(*name),
                _ => None,
            })
            .peekable();
        std::iter::from_fn(move || match (declared.peek(), undeclared.peek()) {
            (Some(&first), Some(&other)) if self.bytes(other) < self.bytes(first) => {
                undeclared.next()
            }
            (Some(_), _) => declared.next(),
            (None, _) => undeclared.next(),
        })
    }

    /// The values of an enum run.
    #[inline]
    pub fn values(self, run: Run) -> &'a [Scalar] {
        let start = run.start as usize;
        &self.values[start..start + run.len as usize]
    }

    /// The nodes of a run of subschemas.
    #[inline]
    pub fn subschemas(self, run: Run) -> &'a [NodeId] {
        let start = run.start as usize;
        &self.subschemas[start..start + run.len as usize]
    }

    /// The definitions of a run.
    #[inline]
    pub fn definitions(self, run: Run) -> &'a [Definition] {
        let start = run.start as usize;
        &self.definitions[start..start + run.len as usize]
    }

    /// A tool's name.
    #[inline]
    pub fn name(self, tool: usize) -> &'a str {
        self.str(self.tools[tool].name)
    }

    /// Every node a node names: its properties' schemas, `items`, `additionalProperties`,
    /// draft-07's `additionalItems`, `propertyNames`, the `$ref` target, and the branches of
    /// `anyOf`, `oneOf`, `allOf` and a tuple. What a walk of the schema's graph follows.
    pub fn children(self, node: &Schema) -> impl Iterator<Item = NodeId> + 'a {
        let rare = self.rare(node);
        let singles = [
            node.items,
            node.additional,
            rare.additional_items,
            rare.property_names,
            rare.reference.map(|(_, target)| target),
        ];
        let runs = [
            node.any_of,
            rare.one_of,
            rare.all_of,
            rare.prefix_items.map(|(_, run)| run),
        ];
        self.properties(node)
            .iter()
            .map(|property| property.schema)
            .chain(singles.into_iter().flatten())
            .chain(
                runs.into_iter()
                    .flatten()
                    .flat_map(move |run| self.subschemas(run).iter().copied()),
            )
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

    /// The number at `at` in [`Model::values`], where a number keyword keeps its value.
    const fn number(self, at: u32) -> Option<Number> {
        match self.values[at as usize] {
            Scalar::Number(number) => Some(number),
            _ => None,
        }
    }

    /// [`Model::rare`], for the compiler too.
    pub const fn const_rare(self, node: &Schema) -> Rare {
        let mut rare = Rare::NONE;
        let mut entry = node.keywords.start as usize;
        let end = entry + node.keywords.rare as usize;
        while entry < end {
            match self.keywords[entry] {
                Keyword::Reference(text, id) => rare.reference = Some((text, id)),
                Keyword::Pattern(text) => rare.pattern = Some(text),
                Keyword::Format(text) => rare.format = Some(text),
                Keyword::Constant(at) => rare.constant = Some(self.values[at as usize]),
                Keyword::OneOf(run) => rare.one_of = Some(run),
                Keyword::AllOf(run) => rare.all_of = Some(run),
                Keyword::Discriminator(text) => rare.discriminator = Some(text),
                Keyword::Definitions(form, run) => rare.definitions = Some((form, run)),
                Keyword::PropertyNames(id) => rare.property_names = Some(id),
                Keyword::UndeclaredRequired(run) => rare.undeclared_required = Some(run),
                Keyword::MinProperties(count) => rare.min_properties = Some(count),
                Keyword::MaxProperties(count) => rare.max_properties = Some(count),
                Keyword::PrefixItems(form, run) => rare.prefix_items = Some((form, run)),
                Keyword::AdditionalItems(id) => rare.additional_items = Some(id),
                Keyword::MinItems(count) => rare.min_items = Some(count),
                Keyword::MaxItems(count) => rare.max_items = Some(count),
                Keyword::MinLength(count) => rare.min_length = Some(count),
                Keyword::MaxLength(count) => rare.max_length = Some(count),
                Keyword::Minimum(at) => rare.minimum = self.number(at),
                Keyword::Maximum(at) => rare.maximum = self.number(at),
                Keyword::ExclusiveMinimum(at) => rare.exclusive_minimum = self.number(at),
                Keyword::ExclusiveMaximum(at) => rare.exclusive_maximum = self.number(at),
                Keyword::MultipleOf(at) => rare.multiple_of = self.number(at),
                _ => {}
            }
            entry += 1;
        }
        rare
    }

    /// [`Model::properties`], for the compiler.
    pub const fn const_properties(self, node: &Schema) -> &'a [Property] {
        let (start, len) = (node.properties.start as usize, node.properties.len as usize);
        self.properties.split_at(start).1.split_at(len).0
    }
}

/// The length of each of an [`OwnedModel`]'s tables, at one moment.
#[derive(Clone, Copy, Debug)]
pub struct Mark([usize; 8]);

/// A model that owns its tables: what the catalog reader makes, at run time or in `build.rs`.
#[derive(Clone, Debug)]
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
    /// See [`Model::subschemas`].
    pub subschemas: Vec<NodeId>,
    /// See [`Model::definitions`].
    pub definitions: Vec<Definition>,
    /// See [`Model::keywords`].
    pub keywords: Vec<Keyword>,
}

impl Default for OwnedModel {
    /// No tools.
    fn default() -> OwnedModel {
        OwnedModel {
            text: String::new(),
            tools: Vec::new(),
            nodes: Vec::new(),
            properties: Vec::new(),
            values: Vec::new(),
            subschemas: Vec::new(),
            definitions: Vec::new(),
            keywords: Vec::new(),
        }
    }
}

impl OwnedModel {
    /// Gives back the tables' spare capacity, for a model that is kept (a catalog read at run
    /// time is kept until it is replaced).
    pub fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.tools.shrink_to_fit();
        self.nodes.shrink_to_fit();
        self.properties.shrink_to_fit();
        self.values.shrink_to_fit();
        self.subschemas.shrink_to_fit();
        self.definitions.shrink_to_fit();
        self.keywords.shrink_to_fit();
    }

    /// Where each table ends now, for [`OwnedModel::rewind`].
    pub fn mark(&self) -> Mark {
        Mark([
            self.text.len(),
            self.tools.len(),
            self.nodes.len(),
            self.properties.len(),
            self.values.len(),
            self.subschemas.len(),
            self.definitions.len(),
            self.keywords.len(),
        ])
    }

    /// Takes back everything added since `mark`: a tool the reader refused after reading part
    /// of it, so that a catalog that leaves it out holds what one without it would.
    pub fn rewind(&mut self, mark: Mark) {
        let [text, tools, nodes, properties, values, subschemas, definitions, keywords] = mark.0;
        self.text.truncate(text);
        self.tools.truncate(tools);
        self.nodes.truncate(nodes);
        self.properties.truncate(properties);
        self.values.truncate(values);
        self.subschemas.truncate(subschemas);
        self.definitions.truncate(definitions);
        self.keywords.truncate(keywords);
    }

    /// Stores node `id`'s rare keywords and annotations as its run of [`Model::keywords`].
    pub fn set_keywords(&mut self, id: NodeId, rare: &Rare, annotations: &Annotations) {
        let start = self.keywords.len() as u32;
        rare.store(&mut self.keywords, &mut self.values);
        let rare = (self.keywords.len() as u32 - start) as u16;
        annotations.store(&mut self.keywords, &mut self.values);
        let annotations = (self.keywords.len() as u32 - start) as u16 - rare;
        self.nodes[id as usize].keywords = Keywords {
            start,
            rare,
            annotations,
        };
    }

    /// The model, borrowed.
    #[inline]
    pub fn model(&self) -> Model<'_> {
        Model {
            text: &self.text,
            tools: &self.tools,
            nodes: &self.nodes,
            properties: &self.properties,
            values: &self.values,
            subschemas: &self.subschemas,
            definitions: &self.definitions,
            keywords: &self.keywords,
        }
    }

    /// Appends `entries` to `table` (one of the model's tables) and returns their run.
    pub fn append<T>(table: &mut Vec<T>, entries: impl IntoIterator<Item = T>) -> Run {
        let start = table.len() as u32;
        table.extend(entries);
        Run {
            start,
            len: table.len() as u32 - start,
        }
    }

    /// Adds `text` to the text and returns its span. Equal strings are not shared: the text is
    /// at most the catalog's size, which the reader bounds.
    pub fn text(&mut self, text: &str) -> Text {
        OwnedModel::push_text(&mut self.text, text)
    }

    /// Adds `text` to the end of `to`, and returns its span there.
    pub fn push_text(to: &mut String, text: &str) -> Text {
        let start = to.len() as u32;
        to.push_str(text);
        Text {
            start,
            len: text.len() as u32,
        }
    }

    /// This model without what only the renderer reads: every node's annotations (`title`,
    /// `default`...) but the review's marks of unfit ones, the nodes no tool's arguments reach (`outputSchema`'s), and the tools'
    /// fields that only MCP's declaration writes. What is left is what the call checkers, the
    /// review and the name lookup read, in the same order, so they walk it as they walked the
    /// whole. A catalog read at run time keeps this once it is rendered: a framework's catalog
    /// gives every node a `title`, and pydantic's annotations and output schemas were a sixth of
    /// the memory it kept.
    ///
    /// The kept text starts with `text`, and `intern` keeps each string in it, where it may
    /// find the string already ([`OwnedModel::push_text`] copies every one): a run-time catalog
    /// passes its rendered answers, which hold most of the model's strings between quotes, so
    /// that a description is kept once, not twice.
    pub fn for_checking(
        &self,
        text: String,
        intern: impl FnMut(&mut String, &str) -> Text,
    ) -> OwnedModel {
        let whole = self.model();
        // The nodes the arguments reach, and the definitions' (a `$defs` stays with its node).
        let mut reached = vec![false; self.nodes.len()];
        let mut stack: Vec<NodeId> = self.tools.iter().map(|tool| tool.input).collect();
        while let Some(id) = stack.pop() {
            if std::mem::replace(&mut reached[id as usize], true) {
                continue;
            }
            let node = whole.node(id);
            stack.extend(whole.children(node));
            if let Some((_, run)) = whole.rare(node).definitions {
                stack.extend(whole.definitions(run).iter().map(|each| each.schema));
            }
        }
        let mut kept = 0;
        let new_id: Vec<NodeId> = reached
            .iter()
            .map(|&reached| {
                kept += u32::from(reached);
                if reached {
                    kept - 1
                } else {
                    NodeId::MAX
                }
            })
            .collect();
        let mut to = OwnedModel {
            text,
            nodes: Vec::with_capacity(kept as usize),
            ..OwnedModel::default()
        };
        let id = |old: NodeId| new_id[old as usize];
        let intern = std::cell::RefCell::new(intern);
        let text =
            |to: &mut OwnedModel, old: Text| (intern.borrow_mut())(&mut to.text, whole.str(old));
        let scalar = |to: &mut OwnedModel, old: Scalar| match old {
            Scalar::String(old) => Scalar::String(text(to, old)),
            Scalar::Number(Number { text: old, value }) => Scalar::Number(Number {
                text: text(to, old),
                value,
            }),
            Scalar::Json(old) => Scalar::Json(text(to, old)),
            Scalar::Boolean(_) | Scalar::Null => old,
        };
        let value = |to: &mut OwnedModel, at: u32| {
            let copied = scalar(to, self.values[at as usize]);
            OwnedModel::append(&mut to.values, [copied]).start
        };
        let subschemas = |to: &mut OwnedModel, run: Run| {
            let ids = whole.subschemas(run).iter().map(|&old| id(old));
            OwnedModel::append(&mut to.subschemas, ids)
        };
        for (old, _) in reached.iter().enumerate().filter(|(_, &reached)| reached) {
            let Schema {
                ty,
                types,
                type_form,
                boolean,
                description,
                nullable,
                enumeration,
                any_of,
                properties,
                has_properties,
                has_required,
                additional,
                items,
                unique_items,
                keywords,
            } = self.nodes[old];
            let description = description.map(|old| text(&mut to, old));
            let enumeration = enumeration.map(|run| {
                let copied: Vec<Scalar> = (whole.values(run).iter())
                    .map(|&old| scalar(&mut to, old))
                    .collect();
                OwnedModel::append(&mut to.values, copied)
            });
            let any_of = any_of.map(|run| subschemas(&mut to, run));
            let properties = {
                let start = properties.start as usize;
                let copied: Vec<Property> = self.properties[start..][..properties.len as usize]
                    .iter()
                    .map(
                        |&Property {
                             name,
                             required,
                             schema,
                         }| Property {
                            name: text(&mut to, name),
                            required,
                            schema: id(schema),
                        },
                    )
                    .collect();
                OwnedModel::append(&mut to.properties, copied)
            };
            let start = to.keywords.len() as u32;
            let rare = &self.keywords[keywords.start as usize..][..usize::from(keywords.rare)];
            for &keyword in rare {
                let copied = match keyword {
                    Keyword::Reference(old, target) => {
                        Keyword::Reference(text(&mut to, old), id(target))
                    }
                    Keyword::Pattern(old) => Keyword::Pattern(text(&mut to, old)),
                    Keyword::Format(old) => Keyword::Format(text(&mut to, old)),
                    Keyword::Discriminator(old) => Keyword::Discriminator(text(&mut to, old)),
                    Keyword::Constant(at) => Keyword::Constant(value(&mut to, at)),
                    Keyword::Minimum(at) => Keyword::Minimum(value(&mut to, at)),
                    Keyword::Maximum(at) => Keyword::Maximum(value(&mut to, at)),
                    Keyword::ExclusiveMinimum(at) => Keyword::ExclusiveMinimum(value(&mut to, at)),
                    Keyword::ExclusiveMaximum(at) => Keyword::ExclusiveMaximum(value(&mut to, at)),
                    Keyword::MultipleOf(at) => Keyword::MultipleOf(value(&mut to, at)),
                    Keyword::OneOf(run) => Keyword::OneOf(subschemas(&mut to, run)),
                    Keyword::AllOf(run) => Keyword::AllOf(subschemas(&mut to, run)),
                    Keyword::PrefixItems(form, run) => {
                        Keyword::PrefixItems(form, subschemas(&mut to, run))
                    }
                    Keyword::Definitions(form, run) => {
                        let copied: Vec<Definition> = (whole.definitions(run).iter())
                            .map(|&Definition { name, schema }| Definition {
                                name: text(&mut to, name),
                                schema: id(schema),
                            })
                            .collect();
                        Keyword::Definitions(form, OwnedModel::append(&mut to.definitions, copied))
                    }
                    Keyword::PropertyNames(target) => Keyword::PropertyNames(id(target)),
                    Keyword::UndeclaredRequired(run) => {
                        let copied: Vec<Scalar> = (whole.values(run).iter())
                            .map(|&old| scalar(&mut to, old))
                            .collect();
                        Keyword::UndeclaredRequired(OwnedModel::append(&mut to.values, copied))
                    }
                    Keyword::AdditionalItems(target) => Keyword::AdditionalItems(id(target)),
                    Keyword::MinProperties(_)
                    | Keyword::MaxProperties(_)
                    | Keyword::MinItems(_)
                    | Keyword::MaxItems(_)
                    | Keyword::MinLength(_)
                    | Keyword::MaxLength(_) => keyword,
                    // Annotations are stored after the rare keywords, never among them.
                    Keyword::Title(_)
                    | Keyword::Comment(_)
                    | Keyword::Default(_)
                    | Keyword::UnfitDefault(_)
                    | Keyword::UnfitExamples(_)
                    | Keyword::ContentEncoding(_)
                    | Keyword::ContentMediaType(_)
                    | Keyword::ContentSchema(_)
                    | Keyword::Examples(_)
                    | Keyword::Deprecated(_)
                    | Keyword::ReadOnly(_)
                    | Keyword::WriteOnly(_)
                    | Keyword::Dialect(_) => continue,
                };
                to.keywords.push(copied);
            }
            let rare = (to.keywords.len() as u32 - start) as u16;
            // Of the annotations, only the marks the review reads: a `default` or `examples`
            // that the node refuses (rare, and never read by a checker).
            let annotations = &self.keywords
                [(keywords.start + u32::from(keywords.rare)) as usize..]
                [..usize::from(keywords.annotations)];
            for &keyword in annotations {
                match keyword {
                    Keyword::UnfitDefault(at) => {
                        let at = value(&mut to, at);
                        to.keywords.push(Keyword::UnfitDefault(at));
                    }
                    Keyword::UnfitExamples(old) => {
                        let text = text(&mut to, old);
                        to.keywords.push(Keyword::UnfitExamples(text));
                    }
                    _ => {}
                }
            }
            let marks = (to.keywords.len() as u32 - start) as u16 - rare;
            to.nodes.push(Schema {
                ty,
                types,
                type_form,
                boolean,
                description,
                nullable,
                enumeration,
                any_of,
                properties,
                has_properties,
                has_required,
                additional: additional.map(id),
                items: items.map(id),
                unique_items,
                keywords: match rare + marks {
                    0 => Keywords::NONE,
                    _ => Keywords {
                        start,
                        rare,
                        annotations: marks,
                    },
                },
            });
        }
        for &tool in &self.tools {
            let Tool {
                name,
                description,
                input,
                hints,
                title: _,
                annotations_title: _,
                output: _,
                icons: _,
                execution: _,
                meta: _,
                flat,
                scalar_unions,
            } = tool;
            let tool = Tool {
                name: text(&mut to, name),
                description: text(&mut to, description),
                input: id(input),
                hints,
                title: None,
                annotations_title: None,
                output: None,
                icons: None,
                execution: None,
                meta: None,
                flat,
                scalar_unions,
            };
            to.tools.push(tool);
        }
        to.shrink_to_fit();
        to
    }
}

/// A tool: what the model sees of it.
#[derive(Clone, Copy, Debug)]
pub struct Tool {
    /// `^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`, unique in the catalog.
    pub name: Text,
    /// Any length; OpenAI's shapes declare at most [`MAX_DESCRIPTION`] characters of it.
    pub description: Text,
    /// The arguments: always an [`Type::Object`] node, possibly without properties.
    pub input: NodeId,
    /// What the tool does to its environment, for MCP's annotations.
    pub hints: Hints,
    /// MCP's `title`: a name for people.
    pub title: Option<Text>,
    /// MCP's `annotations.title`.
    pub annotations_title: Option<Text>,
    /// MCP's `outputSchema`: what the tool's structured result holds.
    pub output: Option<NodeId>,
    /// MCP's `icons`, as canonical JSON.
    pub icons: Option<Text>,
    /// MCP's `execution`, as canonical JSON.
    pub execution: Option<Text>,
    /// MCP's `_meta`, as canonical JSON.
    pub meta: Option<Text>,
    /// Every node of the arguments' schema is in the flat subset that check_call's first reader
    /// (`check.rs`, with its quick path) judges in one pass; otherwise `validate.rs` judges.
    pub flat: bool,
    /// Flat but for top-level properties that are unions of plain scalars (`anyOf` of
    /// `{"type":"string"}` and `{"type":"null"}`, pydantic's `Optional`): `validate.rs` judges
    /// such a tool's calls, and check_call's quick path reads their usual, valid calls too.
    pub scalar_unions: bool,
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
    /// Whether the catalog stated any of the four, rather than leaving all to MCP's defaults:
    /// what the catalog review's `side-effects` rule asks.
    pub stated: bool,
}

/// One schema node: every keyword the catalog gave it, resolved to the model's tables. A keyword
/// the catalog left out is `None` (or an empty run), and is written back only if given.
#[derive(Clone, Copy, Debug)]
pub struct Schema {
    /// The node's one type when it has exactly one (the usual case, which the call checker's
    /// fast paths read); otherwise the first of [`Schema::types`] in [`Type`]'s order, or
    /// [`Type::Object`] for a node with no type at all.
    pub ty: Type,
    /// Every type a value may have: the `type` keyword's, or all of them when it is absent.
    pub types: Types,
    /// How `type` was given: absent, one name, or a list (written back as a list).
    pub type_form: TypeForm,
    /// The schema `true` or `false` itself (`items: false`, `additionalProperties: true`).
    pub boolean: Option<bool>,
    /// Text for the model about this value, written as the catalog gave it.
    pub description: Option<Text>,
    /// OpenAPI's `nullable: true` (Gemini's own schema has it): `null` is allowed too.
    pub nullable: Option<bool>,
    /// The allowed values (`enum`), in the catalog's order: a run of [`Model::values`].
    pub enumeration: Option<Run>,
    /// `anyOf`: a run of [`Model::subschemas`].
    pub any_of: Option<Run>,
    /// An object's properties ([`Model::properties`]), sorted by name in byte order: the order
    /// they are written in.
    pub properties: Run,
    /// The catalog gave `properties`, even `{}`.
    pub has_properties: bool,
    /// Whether the catalog gave `required` for this object (possibly empty). Which properties are
    /// required is on each [`Property`].
    pub has_required: bool,
    /// `additionalProperties`: a node, often the schema `false` or `true`.
    pub additional: Option<NodeId>,
    /// An array's element schema (`items` as one schema).
    pub items: Option<NodeId>,
    /// `uniqueItems`, as given.
    pub unique_items: Option<bool>,
    /// The keywords that most nodes lack (bounds, `$ref`, `pattern`, `const`) and the annotations
    /// (`title`, `default` and the like): a run of [`Model::keywords`].
    pub keywords: Keywords,
}

/// Where a node's [`Keyword`]s sit in [`Model::keywords`]: `rare` of them from `start`, then
/// `annotations` more. A node has each keyword at most once, so both counts are small.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keywords {
    /// Index of the first entry.
    pub start: u32,
    /// How many [`Rare`] keywords: 0 for most nodes, which the checker's fast paths test.
    pub rare: u16,
    /// How many annotations, after those.
    pub annotations: u16,
}

impl Keywords {
    /// None: most nodes'.
    pub const NONE: Keywords = Keywords {
        start: 0,
        rare: 0,
        annotations: 0,
    };
}

/// One keyword that most nodes lack, with its value: an entry of [`Model::keywords`]. A node
/// keeps only the ones it has, so a catalog that gives most nodes a `title` or one bound (as
/// pydantic and zod do) pays for those alone, not for a struct of every rare keyword. The
/// walkers read them gathered back: [`Model::rare`] and [`Model::annotations`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Keyword {
    /// [`Rare::reference`].
    Reference(Text, NodeId),
    /// [`Rare::pattern`].
    Pattern(Text),
    /// [`Rare::format`].
    Format(Text),
    /// [`Rare::constant`]: its index in [`Model::values`], where the values are, so that an
    /// entry is 16 bytes, not 32.
    Constant(u32),
    /// [`Rare::one_of`].
    OneOf(Run),
    /// [`Rare::all_of`].
    AllOf(Run),
    /// [`Rare::discriminator`].
    Discriminator(Text),
    /// [`Rare::definitions`].
    Definitions(DefsKeyword, Run),
    /// [`Rare::property_names`].
    PropertyNames(NodeId),
    /// [`Rare::undeclared_required`].
    UndeclaredRequired(Run),
    /// [`Rare::min_properties`].
    MinProperties(u64),
    /// [`Rare::max_properties`].
    MaxProperties(u64),
    /// [`Rare::prefix_items`].
    PrefixItems(TupleForm, Run),
    /// [`Rare::additional_items`].
    AdditionalItems(NodeId),
    /// [`Rare::min_items`].
    MinItems(u64),
    /// [`Rare::max_items`].
    MaxItems(u64),
    /// [`Rare::min_length`].
    MinLength(u64),
    /// [`Rare::max_length`].
    MaxLength(u64),
    /// [`Rare::minimum`], a number of [`Model::values`].
    Minimum(u32),
    /// [`Rare::maximum`], a number of [`Model::values`].
    Maximum(u32),
    /// [`Rare::exclusive_minimum`], a number of [`Model::values`].
    ExclusiveMinimum(u32),
    /// [`Rare::exclusive_maximum`], a number of [`Model::values`].
    ExclusiveMaximum(u32),
    /// [`Rare::multiple_of`], a number of [`Model::values`].
    MultipleOf(u32),
    /// [`Annotations::title`].
    Title(Text),
    /// [`Annotations::comment`].
    Comment(Text),
    /// [`Annotations::default`], a value of [`Model::values`].
    Default(u32),
    /// [`Annotations::unfit_default`], a value of [`Model::values`].
    UnfitDefault(u32),
    /// [`Annotations::examples`].
    Examples(Text),
    /// [`Annotations::unfit_examples`].
    UnfitExamples(Text),
    /// [`Annotations::content_encoding`].
    ContentEncoding(Text),
    /// [`Annotations::content_media_type`].
    ContentMediaType(Text),
    /// [`Annotations::content_schema`].
    ContentSchema(Text),
    /// [`Annotations::deprecated`].
    Deprecated(bool),
    /// [`Annotations::read_only`].
    ReadOnly(bool),
    /// [`Annotations::write_only`].
    WriteOnly(bool),
    /// [`Annotations::dialect`].
    Dialect(Text),
}

/// The annotations of a [`Schema`] node: what tells a reader about the value, never what it
/// may be. Stored as
/// [`Keyword`]s after the node's [`Rare`] ones, and gathered into this for the renderer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Annotations {
    /// `title`: a short label. Providers' shapes may drop it (it costs tokens and often repeats
    /// the property's name); MCP keeps it.
    pub title: Option<Text>,
    /// `$comment`: for the catalog's readers, never for a model.
    pub comment: Option<Text>,
    /// `default`: a JSON value that fits this node, as check_call would judge it. Never applied
    /// to a call: JSON Schema makes it an annotation, "not used to fill in missing values during
    /// the validation process", whose value "should validate against the schema in which it
    /// resides, but that isn't required" (json-schema.org/understanding-json-schema/reference/
    /// annotations).
    pub default: Option<Scalar>,
    /// A `default` that this node refuses, as FastMCP writes `limit: int = None` (`"default":
    /// null` on an integer). Kept where a shape keeps what the catalog says (MCP), dropped from
    /// the providers' shapes, where a model would read it as a value to send, and reported by
    /// the review (`default-mismatch`).
    pub unfit_default: Option<Scalar>,
    /// `examples`: a JSON array, kept as canonical JSON, each of them fitting this node.
    pub examples: Option<Text>,
    /// `examples` of which one at least does not fit this node: kept as [`Self::unfit_default`]
    /// is, and reported by the review (`example-mismatch`).
    pub unfit_examples: Option<Text>,
    /// `deprecated`, `readOnly` and `writeOnly`, as given.
    pub deprecated: Option<bool>,
    /// `readOnly`.
    pub read_only: Option<bool>,
    /// `writeOnly`.
    pub write_only: Option<bool>,
    /// `$schema`, at the root only.
    pub dialect: Option<Text>,
    /// `contentEncoding`, `contentMediaType` and `contentSchema` (kept as canonical JSON): how
    /// a string encodes other data, as pydantic writes `Json[...]`. Annotations only: a call's
    /// string is never decoded (JSON-Schema-Test-Suite's draft 2020-12 `content.json`).
    pub content_encoding: Option<Text>,
    /// `contentMediaType`.
    pub content_media_type: Option<Text>,
    /// `contentSchema`.
    pub content_schema: Option<Text>,
}

impl Annotations {
    /// Each one given, as an entry of [`Model::keywords`].
    /// Appends each one given to `keywords`, and `default`'s value to `values`.
    pub fn store(&self, keywords: &mut Vec<Keyword>, values: &mut Vec<Scalar>) {
        let mut value = |scalar| OwnedModel::append(values, [scalar]).start;
        let entries = [
            self.title.map(Keyword::Title),
            self.comment.map(Keyword::Comment),
            self.default.map(|scalar| Keyword::Default(value(scalar))),
            self.unfit_default
                .map(|scalar| Keyword::UnfitDefault(value(scalar))),
            self.examples.map(Keyword::Examples),
            self.unfit_examples.map(Keyword::UnfitExamples),
            self.deprecated.map(Keyword::Deprecated),
            self.read_only.map(Keyword::ReadOnly),
            self.write_only.map(Keyword::WriteOnly),
            self.dialect.map(Keyword::Dialect),
            self.content_encoding.map(Keyword::ContentEncoding),
            self.content_media_type.map(Keyword::ContentMediaType),
            self.content_schema.map(Keyword::ContentSchema),
        ];
        keywords.extend(entries.into_iter().flatten());
    }

    /// None of them: most nodes'.
    pub const NONE: Annotations = Annotations {
        title: None,
        comment: None,
        default: None,
        unfit_default: None,
        examples: None,
        unfit_examples: None,
        deprecated: None,
        read_only: None,
        write_only: None,
        dialect: None,
        content_encoding: None,
        content_media_type: None,
        content_schema: None,
    };
}

/// The keywords of a [`Schema`] node that most nodes lack, kept apart so that a node is small:
/// a catalog read at run time holds every node, and a compiled-in one carries them in the
/// program. Stored as the [`Keyword`]s a node has ([`Schema::keywords`]), and gathered into
/// this for the walkers ([`Model::rare`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rare {
    /// `$ref` as written, and the node it resolves to.
    pub reference: Option<(Text, NodeId)>,
    /// `pattern`, an ECMA-262 regular expression that `regex.rs` compiles.
    pub pattern: Option<Text>,
    /// `format`, as given: checked for the names `format.rs` knows, an annotation otherwise.
    pub format: Option<Text>,
    /// `const`: the one allowed value.
    pub constant: Option<Scalar>,
    /// `oneOf`: a run of [`Model::subschemas`].
    pub one_of: Option<Run>,
    /// `allOf`: a run of [`Model::subschemas`].
    pub all_of: Option<Run>,
    /// OpenAPI's `discriminator` beside `oneOf` (pydantic writes it): canonical JSON.
    pub discriminator: Option<Text>,
    /// The root's `$defs` or `definitions`: a run of [`Model::definitions`].
    pub definitions: Option<(DefsKeyword, Run)>,
    /// `propertyNames`: what every key must be, as a string schema.
    pub property_names: Option<NodeId>,
    /// The names `required` gives that `properties` does not declare, in byte order: a run of
    /// [`Model::values`], each a string. An open object may require a member it takes through
    /// `additionalProperties` (zod's record of an enum's keys, `z.record(z.enum([..]), ..)`,
    /// requires each key); the names `properties` declares are marked on each [`Property`].
    pub undeclared_required: Option<Run>,
    /// An object's fewest members.
    pub min_properties: Option<u64>,
    /// An object's most members.
    pub max_properties: Option<u64>,
    /// A tuple's leading elements: `prefixItems`, or draft-07's `items` given as a list.
    pub prefix_items: Option<(TupleForm, Run)>,
    /// Draft-07's `additionalItems`, the elements after a tuple given as an `items` list.
    pub additional_items: Option<NodeId>,
    /// An array's fewest elements; Anthropic strict keeps it only when it is 0 or 1.
    pub min_items: Option<u64>,
    /// An array's most elements; Anthropic strict leaves it out, the checker still applies it.
    pub max_items: Option<u64>,
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
    /// The exclusive lower bound.
    pub exclusive_minimum: Option<Number>,
    /// The exclusive upper bound.
    pub exclusive_maximum: Option<Number>,
    /// `multipleOf`, above zero.
    pub multiple_of: Option<Number>,
}

impl Rare {
    /// Each one given, as an entry of [`Model::keywords`].
    /// Appends each one given to `keywords`, and the values of `const` and the number keywords
    /// to `values`.
    pub fn store(&self, keywords: &mut Vec<Keyword>, values: &mut Vec<Scalar>) {
        let mut value = |scalar| OwnedModel::append(values, [scalar]).start;
        let entries = [
            self.reference
                .map(|(text, id)| Keyword::Reference(text, id)),
            self.pattern.map(Keyword::Pattern),
            self.format.map(Keyword::Format),
            self.constant.map(|scalar| Keyword::Constant(value(scalar))),
            self.one_of.map(Keyword::OneOf),
            self.all_of.map(Keyword::AllOf),
            self.discriminator.map(Keyword::Discriminator),
            self.definitions
                .map(|(form, run)| Keyword::Definitions(form, run)),
            self.property_names.map(Keyword::PropertyNames),
            self.undeclared_required.map(Keyword::UndeclaredRequired),
            self.min_properties.map(Keyword::MinProperties),
            self.max_properties.map(Keyword::MaxProperties),
            self.prefix_items
                .map(|(form, run)| Keyword::PrefixItems(form, run)),
            self.additional_items.map(Keyword::AdditionalItems),
            self.min_items.map(Keyword::MinItems),
            self.max_items.map(Keyword::MaxItems),
            self.min_length.map(Keyword::MinLength),
            self.max_length.map(Keyword::MaxLength),
            self.minimum
                .map(|number| Keyword::Minimum(value(Scalar::Number(number)))),
            self.maximum
                .map(|number| Keyword::Maximum(value(Scalar::Number(number)))),
            self.exclusive_minimum
                .map(|number| Keyword::ExclusiveMinimum(value(Scalar::Number(number)))),
            self.exclusive_maximum
                .map(|number| Keyword::ExclusiveMaximum(value(Scalar::Number(number)))),
            self.multiple_of
                .map(|number| Keyword::MultipleOf(value(Scalar::Number(number)))),
        ];
        keywords.extend(entries.into_iter().flatten());
    }

    /// None of the keywords: most nodes'.
    pub const NONE: Rare = Rare {
        reference: None,
        pattern: None,
        format: None,
        constant: None,
        one_of: None,
        all_of: None,
        discriminator: None,
        definitions: None,
        property_names: None,
        undeclared_required: None,
        min_properties: None,
        max_properties: None,
        prefix_items: None,
        additional_items: None,
        min_items: None,
        max_items: None,
        min_length: None,
        max_length: None,
        minimum: None,
        maximum: None,
        exclusive_minimum: None,
        exclusive_maximum: None,
        multiple_of: None,
    };
}

impl Schema {
    /// A node of type `ty` with no keywords: what generated tables fill in with `..`.
    pub const fn of(ty: Type) -> Schema {
        Schema {
            ty,
            types: Types::of(ty),
            type_form: TypeForm::One,
            boolean: None,
            description: None,
            nullable: None,
            enumeration: None,
            any_of: None,
            properties: Run::EMPTY,
            has_properties: false,
            has_required: false,
            additional: None,
            items: None,
            unique_items: None,
            keywords: Keywords::NONE,
        }
    }
}

/// A set of JSON Schema types, a bit each in [`Type`]'s order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Types(pub u8);

impl Types {
    /// Every type: a node without `type`.
    pub const ANY: Types = Types(0x7f);

    /// Just `ty`.
    pub const fn of(ty: Type) -> Types {
        Types(1 << ty as u8)
    }

    /// Whether `ty` is in the set.
    pub const fn has(self, ty: Type) -> bool {
        self.0 & (1 << ty as u8) != 0
    }

    /// The set with `ty` added.
    pub const fn with(self, ty: Type) -> Types {
        Types(self.0 | 1 << ty as u8)
    }
}

/// How a node's `type` was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeForm {
    /// No `type`: any value.
    Absent,
    /// One name.
    One,
    /// A list of names, written back as a list in [`Type`]'s order.
    List,
}

/// Which keyword holds the root's definitions: 2020-12's, or draft-07's (which the MCP
/// TypeScript SDK writes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefsKeyword {
    /// `$defs`.
    Defs,
    /// `definitions`.
    Definitions,
}

/// How a tuple was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TupleForm {
    /// 2020-12's `prefixItems`.
    PrefixItems,
    /// Draft-07's `items` as a list.
    ItemsList,
}

/// One named definition of the root's `$defs` (or `definitions`).
#[derive(Clone, Copy, Debug)]
pub struct Definition {
    /// The name a `$ref` gives after `#/$defs/`.
    pub name: Text,
    /// The definition's node.
    pub schema: NodeId,
}

/// One named property of an object node.
#[derive(Clone, Copy, Debug)]
pub struct Property {
    /// `^[a-zA-Z0-9_.-]{1,64}$`, Anthropic's rule for a property key; Gemini's is narrower
    /// ([`is_gemini_parameter_name`]), and that shape answers `unsupported` past it.
    pub name: Text,
    /// Listed in the object's `required`.
    pub required: bool,
    /// What the property's value must be. In OpenAI strict an optional property is written as
    /// required but nullable, since that mode requires every property.
    pub schema: NodeId,
}

/// A value of the catalog: a default, a `const` or an enum value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    /// The string's text, decoded: what a call's string is compared with.
    String(Text),
    /// A number, kept as spelled so that declarations repeat the catalog's bytes.
    Number(Number),
    /// `true` or `false`.
    Boolean(bool),
    /// `null`.
    Null,
    /// An array or an object, as canonical JSON: keys sorted, compact, numbers as spelled.
    Json(Text),
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
    /// `null`: in a list of types, or a union's branch.
    Null,
}

impl Type {
    /// Every type, in the order a list of types is written.
    pub const ALL: [Type; 7] = [
        Type::Object,
        Type::Array,
        Type::String,
        Type::Integer,
        Type::Number,
        Type::Boolean,
        Type::Null,
    ];

    /// The type as what a value must be, in messages: "an integer", "null".
    pub const fn article(self) -> &'static str {
        match self {
            Type::Object => "an object",
            Type::Array => "an array",
            Type::String => "a string",
            Type::Integer => "an integer",
            Type::Number => "a number",
            Type::Boolean => "a boolean",
            Type::Null => "null",
        }
    }

    /// The JSON Schema spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Type::Object => "object",
            Type::Array => "array",
            Type::String => "string",
            Type::Integer => "integer",
            Type::Number => "number",
            Type::Boolean => "boolean",
            Type::Null => "null",
        }
    }
}

/// `^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`: OpenAI's and Anthropic's `^[a-zA-Z0-9_-]{1,64}$`, starting
/// with a letter or underscore as Gemini also asks.
pub const fn is_tool_name(name: &[u8]) -> bool {
    is_name(name, true)
}

/// `^[a-zA-Z0-9_.-]{1,64}$`: the property keys Anthropic's Messages API accepts, the strictest
/// rule of the providers but Gemini's. Past it the API answers `tools.14.custom.input_schema.
/// properties: Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'` (github.com/
/// anthropics/claude-code/issues/79418). MCP servers made from HTTP APIs use dashes (Brave
/// Search's `x-loc-lat`, `user-agent`); none of these characters needs an escape in JSON or in
/// a JSON Pointer. Gemini's narrower rule is [`is_gemini_parameter_name`].
pub const fn is_property_name(name: &[u8]) -> bool {
    let mut i = 0;
    while i < name.len() {
        if !matches!(name[i], b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_' | b'.' | b'-') {
            return false;
        }
        i += 1;
    }
    !name.is_empty() && name.len() <= 64
}

/// `^[a-zA-Z_][a-zA-Z0-9_]{0,63}$`: Vertex AI's FunctionDeclaration reference (cloud.google.com/
/// vertex-ai/generative-ai/docs/reference/java/latest/com.google.cloud.vertexai.api.
/// FunctionDeclarationOrBuilder): "Parameter names must start with a letter or an underscore
/// and must only contain chars a-z, A-Z, 0-9, or underscores with a maximum length of 64". The
/// `gemini` shape cannot declare a tool with another property name.
pub const fn is_gemini_parameter_name(name: &[u8]) -> bool {
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

/// The longest tool description OpenAI's shapes declare, in characters: past it, Chat
/// Completions has answered `Invalid 'tools[5].function.description': string too long.
/// Expected a string with maximum length 1024, but got a string with length 2357 instead.`
/// (github.com/rusiaaman/wcgw/issues/51, github.com/getsentry/sentry-mcp/issues/106). Reports
/// since mid-2025 find it no longer enforced (github.com/run-llama/llama_index/pull/18784,
/// github.com/OpenHands/OpenHands/pull/10184), and no API reference page states it, so it is
/// not a rule of the catalog: MCP servers publish longer descriptions (Anthropic's
/// sequential-thinking server, 2,781), and Anthropic, Gemini and MCP declare them. OpenAI's
/// two shapes, failing closed, call such a tool `unsupported`.
pub const MAX_DESCRIPTION: usize = 1024;

#[cfg(test)]
mod tests {
    use super::{Keyword, Schema};

    /// A catalog read at run time keeps every node and every keyword entry, so their sizes are
    /// what its heap rests on (`docs/performance.md`): a second `Scalar` in an entry, or a
    /// field that most nodes lack put back in the node, shows here first.
    #[test]
    fn nodes_and_keyword_entries_stay_small() {
        assert!(std::mem::size_of::<Keyword>() <= 16);
        assert!(std::mem::size_of::<Schema>() <= 76);
    }
}
