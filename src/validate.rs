//! A JSON value against a schema node of the model, by JSON Schema 2020-12's validation
//! (draft 2020-12, "JSON Schema Validation", with the `format` assertion vocabulary on): every
//! keyword the catalog reader accepts, unions and references included.
//!
//! One checker for everything the older call checker (`check.rs`, the flat subset) does not
//! read: the catalog reader runs it on every `default`, `const`, `enum` value and example, and
//! check_call on the arguments of a tool whose schema goes beyond that subset. It reads a value's
//! bytes where they are, with the tokenizer, and reads a value again for each branch of a union
//! (time grows with the schema's nesting of unions, which the catalog bounds, and a budget stops
//! a walk that runs past it). Nothing is allocated; the walk recurses once per level of the
//! value that the schema descends into, and stops at [`MAX_DEPTH`] levels.
//!
//! The project's policy sits beside the standard's, as check_call documents it: an object that
//! declares `properties` and says nothing of `additionalProperties` is closed, and under OpenAI
//! strict an optional property may be `null`.

use crate::error::MAX_DEPTH;
use crate::format::StringFormat;
use crate::number::{
    compare, float, is_integer, overflowing_number, same_value, Divisor, MAX_SAFE_INTEGER,
};
use crate::schema::{Model, NodeId, Scalar, Schema, Text, Type, TypeForm};
use crate::tokenizer::{decode, Kind, Stop, Token, Tokenizer};
use std::cmp::Ordering;
use std::fmt;

/// How many node visits one value may cost before the walk gives up: unions re-read their value
/// once per branch, and a catalog could nest them deep.
const BUDGET: u32 = 1 << 20;

/// Why a value does not fit, at the deepest place the walk found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reason {
    /// The schema `false`.
    Nothing,
    /// Not one of the node's types.
    Type,
    /// Not one of the `enum` values.
    Enum,
    /// Not the `const`.
    Const,
    /// Below `minimum` (or `exclusiveMinimum`), above `maximum` (or `exclusiveMaximum`).
    Range,
    /// In a call, an integer beyond ±(2^53−1) where the schema wants an integer.
    SafeInteger,
    /// In a call, a number beyond a 64-bit float: it has no canonical form (RFC 8785).
    Float,
    /// Not a multiple of `multipleOf`.
    MultipleOf,
    /// Shorter than `minLength` or longer than `maxLength`: the length found, in characters.
    Length(u64),
    /// Does not match `pattern`.
    Pattern,
    /// Not of its `format`.
    Format,
    /// A required property is missing.
    Missing(Text),
    /// A member the object does not declare, where it takes no others.
    Unknown,
    /// A key given twice.
    Duplicate,
    /// Too few or too many members: how many.
    Members(u64),
    /// Too few or too many elements: how many.
    Items(u64),
    /// More elements than a closed tuple's `prefixItems`: how many.
    Beyond(u64),
    /// Two elements the same, under `uniqueItems`.
    Unique,
    /// No branch of an `anyOf` (or `oneOf`) fits.
    NoBranch,
    /// A discriminated union's property holds none of its branches' values.
    Discriminator,
    /// More than one branch of a `oneOf` fits.
    ManyBranches,
    /// Nested deeper than [`MAX_DEPTH`] where the schema goes on.
    TooDeep,
    /// The walk ran past its budget.
    TooComplex,
}

/// The deepest place a value failed: the path of keys (raw literals) and indexes that leads
/// there, and why. Deepest wins, because it says the most about what to change.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Failure<'a> {
    pub(crate) steps: [Step<'a>; MAX_DEPTH],
    pub(crate) depth: usize,
    pub(crate) node: NodeId,
    /// Where the value that failed starts in the text.
    pub(crate) at: usize,
    pub(crate) reason: Reason,
}

/// One step of a path: a key's literal, or an array index.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Step<'a> {
    Key(&'a [u8]),
    Index(usize),
}

/// How a `pattern` (a span of the model's text) is matched against a string: whoever owns the
/// model compiles its patterns once and answers here, so a call allocates nothing.
pub(crate) type Matcher<'p> = &'p dyn Fn(Text, &str) -> bool;

/// A [`Matcher`] that compiles the pattern on each use: for the catalog reader's own values,
/// where allocating is free.
fn compile_each_time(model: Model<'_>) -> impl Fn(Text, &str) -> bool + '_ {
    move |pattern, text| {
        crate::regex::Regex::new(model.str(pattern)).is_ok_and(|regex| regex.is_match(text))
    }
}

struct Walk<'m, 'a, 'p> {
    model: Model<'m>,
    /// Matches `pattern`.
    patterns: Matcher<'p>,
    text: &'a [u8],
    nullable_optionals: bool,
    /// Whether the walk checks a call's arguments (check_call): `format` is asserted, and a
    /// number must fit a 64-bit float and an integer be within ±(2^53−1), as the flat checker
    /// has them. The catalog's own values read `format` as an annotation and numbers exactly.
    call: bool,
    /// The node the walk started at: a tool's arguments are declared with their properties,
    /// even none, so that object is closed unless it says otherwise.
    root: Option<NodeId>,
    budget: u32,
    path: [Step<'a>; MAX_DEPTH],
    failure: Option<Failure<'a>>,
}

/// `None` when the JSON document `text` fits node `id`; where it does not, the deepest
/// failure.
/// `nullable_optionals`: an optional property may be `null` (OpenAI strict's declarations).
pub(crate) fn check<'a>(
    model: Model<'_>,
    patterns: Matcher<'_>,
    id: NodeId,
    text: &'a [u8],
    nullable_optionals: bool,
) -> Option<Failure<'a>> {
    check_with(
        model,
        patterns,
        id,
        text,
        nullable_optionals,
        true,
        Some(id),
    )
}

/// [`check`], for a call's arguments (`call`: `format` asserted, numbers within the checker's
/// range) or the catalog's own values, and `root` the node of a tool's arguments if the walk
/// starts there.
fn check_with<'a>(
    model: Model<'_>,
    patterns: Matcher<'_>,
    id: NodeId,
    text: &'a [u8],
    nullable_optionals: bool,
    call: bool,
    root: Option<NodeId>,
) -> Option<Failure<'a>> {
    let mut walk = Walk {
        model,
        patterns,
        text,
        nullable_optionals,
        call,
        root,
        budget: BUDGET,
        path: [Step::Index(0); MAX_DEPTH],
        failure: None,
    };
    let start = crate::tokenizer::skip_whitespace(text, 0);
    if walk.fits(id, start, 0) {
        return None;
    }
    Some(walk.failure.unwrap_or(Failure {
        steps: [Step::Index(0); MAX_DEPTH],
        depth: 0,
        node: id,
        at: start,
        reason: Reason::Type,
    }))
}

/// The first problem of a JSON document against node `id`, as a sentence: for the catalog
/// reader's own values (`default`, `const`, `enum`, `examples`). `format` is read as JSON
/// Schema 2020-12 reads it by default, as an annotation: generators write defaults that their
/// own language accepts (pydantic's `time` without an offset), and a catalog should not fail
/// to build over an annotation. check_call asserts it. `root` is the schema's root, which
/// takes no undeclared members, as a call's arguments take none.
pub fn first_problem(model: Model<'_>, root: NodeId, id: NodeId, text: &[u8]) -> Option<String> {
    let failure = check_with(
        model,
        &compile_each_time(model),
        id,
        text,
        false,
        false,
        Some(root),
    )?;
    let mut out = String::new();
    let _ = describe(&mut out, model, &failure);
    Some(out)
}

/// `at /a/0: must be a string`: a failure in words.
pub(crate) fn describe(
    out: &mut impl fmt::Write,
    model: Model<'_>,
    failure: &Failure<'_>,
) -> fmt::Result {
    if failure.depth > 0 {
        out.write_str("at ")?;
        for step in &failure.steps[..failure.depth] {
            match step {
                Step::Key(literal) => {
                    out.write_char('/')?;
                    let mut ok = Ok(());
                    // A key may hold any character: a control one is written as JSON writes
                    // it, so that the message stays one line.
                    decode(literal, |c| {
                        if ok.is_ok() {
                            ok = match c {
                                c if c.is_control() || c == '\u{2028}' || c == '\u{2029}' => {
                                    write!(out, "\\u{:04x}", c as u32)
                                }
                                c => out.write_char(c),
                            };
                        }
                    });
                    ok?;
                }
                Step::Index(index) => write!(out, "/{index}")?,
            }
        }
        out.write_str(": ")?;
    }
    reason(out, model, failure.node, failure.reason)
}

/// What a node wants, as a failure's reason says: `must be a string`, `must match ...`.
pub(crate) fn reason(
    out: &mut impl fmt::Write,
    model: Model<'_>,
    id: NodeId,
    reason: Reason,
) -> fmt::Result {
    let node = model.node(id);
    let rare = model.rare(node);
    match reason {
        Reason::Nothing => out.write_str("no value is allowed here"),
        Reason::Type => {
            out.write_str("must be ")?;
            let mut first = true;
            for ty in Type::ALL {
                let allowed =
                    node.types.has(ty) || (ty == Type::Null && node.nullable == Some(true));
                if allowed && node.type_form != TypeForm::Absent {
                    if !first {
                        out.write_str(" or ")?;
                    }
                    first = false;
                    out.write_str(ty.article())?;
                }
            }
            Ok(())
        }
        Reason::Enum => {
            out.write_str("must be one of ")?;
            if let Some(run) = node.enumeration {
                for (i, value) in model.values(run).iter().take(16).enumerate() {
                    if i > 0 {
                        out.write_str(", ")?;
                    }
                    value_text(out, model, value)?;
                }
            }
            Ok(())
        }
        Reason::Const => {
            out.write_str("must be ")?;
            match rare.constant {
                Some(value) => value_text(out, model, &value),
                None => Ok(()),
            }
        }
        Reason::Range => {
            out.write_str("must be")?;
            let bounds = [
                (" at least ", rare.minimum),
                (" more than ", rare.exclusive_minimum),
                (" at most ", rare.maximum),
                (" less than ", rare.exclusive_maximum),
            ];
            let mut first = true;
            for (words, bound) in bounds {
                if let Some(bound) = bound {
                    if !first {
                        out.write_str(" and")?;
                    }
                    first = false;
                    out.write_str(words)?;
                    out.write_str(model.str(bound.text))?;
                }
            }
            Ok(())
        }
        Reason::SafeInteger => write!(
            out,
            "must be an integer from -{MAX_SAFE_INTEGER} to {MAX_SAFE_INTEGER}"
        ),
        Reason::Float => out.write_str("must be a number that fits a 64-bit float"),
        Reason::MultipleOf => match rare.multiple_of {
            Some(divisor) => write!(out, "must be a multiple of {}", model.str(divisor.text)),
            None => Ok(()),
        },
        Reason::Length(found) => {
            if rare.min_length.is_some_and(|min| found < min) {
                let min = rare.min_length.unwrap_or(0);
                write!(
                    out,
                    "must be at least {min} character{} long, found {found}",
                    plural(min)
                )
            } else {
                let max = rare.max_length.unwrap_or(0);
                write!(
                    out,
                    "must be at most {max} character{} long, found {found}",
                    plural(max)
                )
            }
        }
        Reason::Pattern => match model.pattern(node) {
            Some(pattern) => {
                out.write_str("must match the pattern ")?;
                quoted(out, model.str(pattern))
            }
            None => Ok(()),
        },
        Reason::Format => match model.format(node) {
            Some(format) => {
                let name = model.str(format);
                match StringFormat::from_name(name) {
                    Some(format) => write!(out, "must be {}", format.expected()),
                    None => write!(out, "must be a {name}"),
                }
            }
            None => Ok(()),
        },
        Reason::Missing(name) => {
            out.write_str("missing required property ")?;
            quoted(out, model.str(name))
        }
        Reason::Unknown => out.write_str("is not a property this object takes"),
        Reason::Duplicate => out.write_str("is given more than once"),
        Reason::Members(found) => counted(
            out,
            "member",
            rare.min_properties,
            rare.max_properties,
            found,
        ),
        Reason::Items(found) => counted(out, "item", rare.min_items, rare.max_items, found),
        Reason::Beyond(found) => {
            let prefix = rare
                .prefix_items
                .map_or(0, |(_, run)| model.subschemas(run).len());
            let most = rare
                .max_items
                .map_or(prefix as u64, |max| max.min(prefix as u64));
            counted(out, "item", None, Some(most), found)
        }
        Reason::Unique => out.write_str("must not hold the same item twice"),
        Reason::NoBranch => out.write_str("fits none of the schema's alternatives"),
        Reason::Discriminator => {
            out.write_str("must be one of ")?;
            let mut first = true;
            let mut result = Ok(());
            if let Some((name, _)) = discriminator_name(model, node) {
                for_each_discriminator_value(model, node, name, |_, value| {
                    if result.is_ok() {
                        if !first {
                            result = out.write_str(", ");
                        }
                        first = false;
                        result = result.and_then(|()| value_text(out, model, value));
                    }
                });
            }
            result
        }
        Reason::ManyBranches => out.write_str("fits more than one of the schema's alternatives"),
        Reason::TooDeep => write!(out, "is nested deeper than {MAX_DEPTH} levels"),
        Reason::TooComplex => out.write_str("is too complex to check against this schema"),
    }
}

/// A catalog string in a message: quoted, with `"`, `\\` and control characters escaped as JSON
/// escapes them (and U+2028, U+2029), so that a message stays one line whatever the catalog's
/// strings hold (the catalog fuzz target found an enum value with a newline).
pub(crate) fn quoted(out: &mut impl fmt::Write, text: &str) -> fmt::Result {
    out.write_char('"')?;
    for c in text.chars() {
        match c {
            '"' => out.write_str("\\\"")?,
            '\\' => out.write_str("\\\\")?,
            '\n' => out.write_str("\\n")?,
            '\r' => out.write_str("\\r")?,
            '\t' => out.write_str("\\t")?,
            c if c.is_control() || c == '\u{2028}' || c == '\u{2029}' => {
                write!(out, "\\u{:04x}", c as u32)?
            }
            c => out.write_char(c)?,
        }
    }
    out.write_char('"')
}

fn counted(
    out: &mut impl fmt::Write,
    what: &str,
    min: Option<u64>,
    max: Option<u64>,
    found: u64,
) -> fmt::Result {
    match (min, max) {
        (Some(min), _) if found < min => {
            write!(
                out,
                "must have at least {min} {what}{}, found {found}",
                plural(min)
            )
        }
        (_, Some(max)) => write!(
            out,
            "must have at most {max} {what}{}, found {found}",
            plural(max)
        ),
        _ => Ok(()),
    }
}

fn plural(count: u64) -> &'static str {
    if count == 1 {
        ""
    } else {
        "s"
    }
}

fn value_text(out: &mut impl fmt::Write, model: Model<'_>, value: &Scalar) -> fmt::Result {
    match value {
        Scalar::String(text) => quoted(out, model.str(*text)),
        Scalar::Number(number) => out.write_str(model.str(number.text)),
        Scalar::Boolean(flag) => write!(out, "{flag}"),
        Scalar::Null => out.write_str("null"),
        Scalar::Json(text) => out.write_str(model.str(*text)),
    }
}

/// How deep a failure is, for the deepest to win. A missing property is a problem one step
/// below the object that lacks it: it outranks a sibling branch's failure, and the union's own,
/// at the object's depth.
fn rank(failure: &Failure<'_>) -> usize {
    2 * failure.depth + matches!(failure.reason, Reason::Missing(_)) as usize
}

impl<'a> Walk<'_, 'a, '_> {
    /// Notes a failure at the current path if it is the deepest yet.
    #[cold]
    fn fail(&mut self, depth: usize, node: NodeId, at: usize, reason: Reason) -> bool {
        let failure = Failure {
            steps: self.path,
            depth,
            node,
            at,
            reason,
        };
        if self
            .failure
            .is_none_or(|earlier| rank(&failure) >= rank(&earlier))
        {
            self.failure = Some(failure);
        }
        false
    }

    /// The token that starts the value at `at`.
    fn first(&self, at: usize) -> Option<(Token<'a>, Tokenizer<'a>)> {
        let mut tokens = Tokenizer::new(self.text.get(at..)?);
        let token = tokens.expect_token().ok()?;
        Some((token, tokens))
    }

    /// Whether the value at `at` (a byte offset in the text) fits node `id`; `depth` is the
    /// path's length.
    fn fits(&mut self, id: NodeId, at: usize, depth: usize) -> bool {
        if self.budget == 0 {
            return self.fail(depth, id, at, Reason::TooComplex);
        }
        self.budget -= 1;
        let node = self.model.node(id);
        if let Some(flag) = node.boolean {
            return match flag {
                true => self.numbers_fit(id, at, depth),
                false => self.fail(depth, id, at, Reason::Nothing),
            };
        }
        let Some((token, tokens)) = self.first(at) else {
            return self.fail(depth, id, at, Reason::Type);
        };
        if !self.type_fits(node, token) {
            return self.fail(depth, id, at, Reason::Type);
        }
        if let Some(run) = node.enumeration {
            let values = self.model.values(run);
            if !values.iter().any(|value| self.equals(token, at, value)) {
                return self.fail(depth, id, at, Reason::Enum);
            }
        }
        // Gathered once: every keyword below but `enum` and `anyOf` is one of them.
        let rare = self.model.rare(node);
        if let Some(value) = rare.constant {
            if !self.equals(token, at, &value) {
                return self.fail(depth, id, at, Reason::Const);
            }
        }
        if let Some((_, target)) = rare.reference {
            if !self.fits(target, at, depth) {
                return false;
            }
        }
        if let Some(run) = rare.all_of {
            for &branch in self.model.subschemas(run) {
                if !self.fits(branch, at, depth) {
                    return false;
                }
            }
        }
        if rare.discriminator.is_some() && token.kind == Kind::ObjectStart {
            if let Some(fits) = self.discriminated(node, id, at, depth) {
                return fits;
            }
        }
        if let Some(run) = node.any_of {
            if self.branches(run, at, depth) == 0 {
                return self.none_fits(run, token, id, at, depth);
            }
        }
        if let Some(run) = rare.one_of {
            match self.branches(run, at, depth) {
                1 => {}
                0 => return self.none_fits(run, token, id, at, depth),
                _ => return self.fail(depth, id, at, Reason::ManyBranches),
            }
        }
        match token.kind {
            Kind::String => self.string(node, id, at, token.raw, depth),
            Kind::Number => self.number(node, id, at, token.raw, depth),
            Kind::ObjectStart => self.object(node, id, at, tokens, depth),
            Kind::ArrayStart => self.array(node, id, at, tokens, depth),
            _ => true,
        }
    }

    /// A discriminated union (pydantic's `discriminator` beside a `oneOf`): when the value's
    /// discriminating property holds none of the branches' values, that is the problem, at that
    /// property, naming every value a branch takes ("must be one of "cat", "dog""), rather
    /// than whichever branch failed deepest. `None`: the branches decide.
    fn discriminated(
        &mut self,
        node: &Schema,
        id: NodeId,
        at: usize,
        depth: usize,
    ) -> Option<bool> {
        let (name, span) = discriminator_name(self.model, node)?;
        let mut found = None;
        self.keys(at, |key| {
            if literal_is(key.raw, name) {
                found = Some(key);
                return true;
            }
            false
        });
        let Some(key) = found else {
            // No discriminating property: that is what to send first.
            let mut listed = false;
            for_each_discriminator_value(self.model, node, name, |_, _| listed = true);
            return listed.then(|| self.fail(depth, id, at, Reason::Missing(span)));
        };
        let value_at = find_member(self.text, at, key.raw)?;
        let (token, _) = self.first(value_at)?;
        let (mut listed, mut matched) = (false, None);
        let mut branches = 0;
        for_each_discriminator_value(self.model, node, name, |branch, value| {
            listed = true;
            if self.equals(token, value_at, value) {
                matched = Some(branch);
                branches += 1;
            }
        });
        if !listed || depth + 1 >= MAX_DEPTH {
            return None;
        }
        match (matched, branches) {
            // The branch the discriminator names is the one whose problem to report.
            (Some(branch), 1) => (!self.fits(branch, at, depth)).then_some(false),
            (Some(_), _) => None,
            (None, _) => {
                self.path[depth] = Step::Key(key.raw);
                Some(self.fail(depth + 1, id, value_at, Reason::Discriminator))
            }
        }
    }

    /// How many branches of `run` fit the value at `at`. A failure inside a branch stays
    /// noted only when no branch fits, as the closest alternative (the deepest failure).
    fn branches(&mut self, run: crate::schema::Run, at: usize, depth: usize) -> usize {
        let before = self.failure;
        let mut fitting = 0;
        for &branch in self.model.subschemas(run) {
            if self.fits(branch, at, depth) {
                fitting += 1;
            }
        }
        if fitting > 0 {
            self.failure = before;
        }
        fitting
    }

    /// No branch of the union `run` fits the value at `at`, which starts with `token`. Where
    /// one branch alone takes the value's JSON type (pydantic's `Optional[X]` is `X` or
    /// `null`), that branch's problem is the one to report ("must be at least 1"), not that
    /// no alternative fits; else the union's.
    fn none_fits(
        &mut self,
        run: crate::schema::Run,
        token: Token<'_>,
        id: NodeId,
        at: usize,
        depth: usize,
    ) -> bool {
        let branches = self.model.subschemas(run);
        let mut typed = branches
            .iter()
            .filter(|&&branch| self.type_fits(self.model.node(branch), token));
        if let (Some(&only), None) = (typed.next(), typed.next()) {
            let before = self.failure.take();
            self.fits(only, at, depth);
            match (self.failure, before) {
                // As `fail` ranks them: one found before this union and deeper stays.
                (Some(found), Some(earlier)) if rank(&earlier) > rank(&found) => {
                    self.failure = Some(earlier);
                    return false;
                }
                (Some(_), _) => return false,
                (None, _) => self.failure = before,
            }
        }
        self.fail(depth, id, at, Reason::NoBranch)
    }

    /// Whether the token's JSON type is one the node allows: its `type` (an integer is a
    /// number with no fraction), and `null` under OpenAPI's `nullable`.
    fn type_fits(&self, node: &Schema, token: Token<'_>) -> bool {
        let types = node.types;
        match token.kind {
            Kind::ObjectStart => types.has(Type::Object),
            Kind::ArrayStart => types.has(Type::Array),
            Kind::String => types.has(Type::String),
            Kind::True | Kind::False => types.has(Type::Boolean),
            Kind::Null => types.has(Type::Null) || node.nullable == Some(true),
            Kind::Number => {
                types.has(Type::Number) || (types.has(Type::Integer) && is_integer(token.raw))
            }
            _ => false,
        }
    }

    /// Whether the value at `at` (starting with `token`) equals a catalog value, by JSON value.
    fn equals(&self, token: Token<'_>, at: usize, value: &Scalar) -> bool {
        match (value, token.kind) {
            (Scalar::String(text), Kind::String) => literal_is(token.raw, self.model.str(*text)),
            (Scalar::Number(number), Kind::Number) => {
                same_value(token.raw, self.model.str(number.text).as_bytes())
            }
            (Scalar::Boolean(flag), Kind::True | Kind::False) => {
                *flag == (token.kind == Kind::True)
            }
            (Scalar::Null, Kind::Null) => true,
            (Scalar::Json(text), Kind::ObjectStart | Kind::ArrayStart) => {
                same_json(&self.text[at..], self.model.str(*text).as_bytes())
            }
            _ => false,
        }
    }

    fn string(
        &mut self,
        node: &Schema,
        id: NodeId,
        at: usize,
        literal: &[u8],
        depth: usize,
    ) -> bool {
        let rare = self.model.rare(node);
        if rare.min_length.is_some() || rare.max_length.is_some() {
            let mut length = 0u64;
            decode(literal, |_| length += 1);
            if rare.min_length.is_some_and(|min| length < min)
                || rare.max_length.is_some_and(|max| length > max)
            {
                return self.fail(depth, id, at, Reason::Length(length));
            }
        }
        if rare.pattern.is_none() && rare.format.is_none() {
            return true;
        }
        with_text(literal, |text| {
            if let Some(pattern) = rare.pattern {
                if !(self.patterns)(pattern, text) {
                    return self.fail(depth, id, at, Reason::Pattern);
                }
            }
            let asserted = rare.format.filter(|_| self.call);
            if let Some(format) =
                asserted.and_then(|name| StringFormat::from_name(self.model.str(name)))
            {
                if !format.accepts(text) {
                    return self.fail(depth, id, at, Reason::Format);
                }
            }
            true
        })
    }

    fn number(
        &mut self,
        node: &Schema,
        id: NodeId,
        at: usize,
        literal: &[u8],
        depth: usize,
    ) -> bool {
        if self.call {
            // As the flat checker reads a call's numbers (`check::scalar`): a harness parses
            // them into 64-bit floats, and the answer writes them as one (RFC 8785).
            let value = float(literal);
            if !value.is_finite() {
                return self.fail(depth, id, at, Reason::Float);
            }
            let integer = node.types.has(Type::Integer) && !node.types.has(Type::Number);
            if integer && value.abs() > MAX_SAFE_INTEGER {
                return self.fail(depth, id, at, Reason::SafeInteger);
            }
        }
        let bound = |number: Option<crate::schema::Number>, ok: fn(Ordering) -> bool| {
            number.is_none_or(|bound| ok(compare(literal, self.model.str(bound.text).as_bytes())))
        };
        let rare = self.model.rare(node);
        let within = bound(rare.minimum, |o| o != Ordering::Less)
            && bound(rare.exclusive_minimum, |o| o == Ordering::Greater)
            && bound(rare.maximum, |o| o != Ordering::Greater)
            && bound(rare.exclusive_maximum, |o| o == Ordering::Less);
        if !within {
            return self.fail(depth, id, at, Reason::Range);
        }
        if let Some(divisor) = rare.multiple_of {
            let divides = Divisor::parse(self.model.str(divisor.text).as_bytes())
                .is_ok_and(|divisor| divisor.divides(literal));
            if !divides {
                return self.fail(depth, id, at, Reason::MultipleOf);
            }
        }
        true
    }

    fn object(
        &mut self,
        node: &Schema,
        id: NodeId,
        at: usize,
        mut tokens: Tokenizer<'a>,
        depth: usize,
    ) -> bool {
        let properties = self.model.properties(node);
        let rare = self.model.rare(node);
        // The project's policy: an object that declares its properties takes no others unless
        // it says so.
        let closed = node.additional.is_none() && (node.has_properties || Some(id) == self.root);
        let mut members = 0u64;
        let mut ok = true;
        loop {
            let Ok(key) = tokens.expect_token() else {
                return self.fail(depth, id, at, Reason::Type);
            };
            if key.kind == Kind::ObjectEnd {
                break;
            }
            let Ok(value) = tokens.expect_token() else {
                return self.fail(depth, id, at, Reason::Type);
            };
            let value_at = at + value.at;
            members += 1;
            if depth + 1 >= MAX_DEPTH {
                return self.fail(depth, id, at, Reason::TooDeep);
            }
            self.path[depth] = Step::Key(key.raw);
            let property = properties
                .iter()
                .find(|property| literal_is(key.raw, self.model.str(property.name)));
            if self.duplicate_key(at, key) {
                ok = self.fail(depth + 1, id, value_at, Reason::Duplicate);
            } else if let Some(property) = property {
                let null_allowed =
                    self.nullable_optionals && !property.required && value.kind == Kind::Null;
                if !null_allowed && !self.fits(property.schema, value_at, depth + 1) {
                    ok = false;
                }
            } else if closed || self.refuses_all(node.additional) {
                // `additionalProperties: false` (zod's every object, pydantic's `forbid`) is
                // the closing rule spelled out: the same problem, not "no value is allowed".
                ok = self.fail(depth + 1, id, value_at, Reason::Unknown);
            } else if let Some(additional) = node.additional {
                if !self.fits(additional, value_at, depth + 1) {
                    ok = false;
                }
            } else if !self.numbers_fit(id, value_at, depth + 1) {
                ok = false;
            }
            if let Some(names) = rare.property_names {
                if !self.fits(names, at + key.at, depth + 1) {
                    ok = false;
                }
            }
            if tokens.skip_any_depth(value).is_err() {
                return self.fail(depth, id, at, Reason::Type);
            }
        }
        for name in self.model.required(node) {
            if !self.has_key(at, self.model.str(name)) {
                ok = self.fail(depth, id, at, Reason::Missing(name));
            }
        }
        if rare.min_properties.is_some_and(|min| members < min)
            || rare.max_properties.is_some_and(|max| members > max)
        {
            ok = self.fail(depth, id, at, Reason::Members(members));
        }
        ok
    }

    /// Whether the object at `at` has a member named `name`.
    fn has_key(&self, at: usize, name: &str) -> bool {
        self.keys(at, |key| literal_is(key.raw, name))
    }

    /// Whether a member before `key` in the object at `at` has the same name.
    fn duplicate_key(&self, at: usize, key: Token<'_>) -> bool {
        let mut earlier = false;
        self.keys(at, |other| {
            if at + other.at >= at + key.at {
                return true;
            }
            if same_literal(other.raw, key.raw) {
                earlier = true;
                return true;
            }
            false
        });
        earlier
    }

    /// Calls `each` on the keys of the object at `at` until it says stop; whether it did.
    fn keys(&self, at: usize, mut each: impl FnMut(Token<'a>) -> bool) -> bool {
        let Some((_, mut tokens)) = self.first(at) else {
            return false;
        };
        while let Ok(key) = tokens.expect_token() {
            if key.kind != Kind::Key {
                return false;
            }
            if each(key) {
                return true;
            }
            let Ok(value) = tokens.expect_token() else {
                return false;
            };
            if tokens.skip_any_depth(value).is_err() {
                return false;
            }
        }
        false
    }

    fn array(
        &mut self,
        node: &Schema,
        id: NodeId,
        at: usize,
        mut tokens: Tokenizer<'a>,
        depth: usize,
    ) -> bool {
        let rare = self.model.rare(node);
        let prefix = (rare.prefix_items).map_or(&[][..], |(_, run)| self.model.subschemas(run));
        let rest = node.items.or(rare.additional_items);
        let mut count = 0usize;
        let mut beyond = false;
        let mut ok = true;
        loop {
            let Ok(element) = tokens.expect_token() else {
                return self.fail(depth, id, at, Reason::Type);
            };
            if element.kind == Kind::ArrayEnd {
                break;
            }
            let element_at = at + element.at;
            if depth + 1 >= MAX_DEPTH {
                return self.fail(depth, id, at, Reason::TooDeep);
            }
            self.path[depth] = Step::Index(count);
            let schema = prefix.get(count).copied().or(rest);
            if count >= prefix.len() && !prefix.is_empty() && self.refuses_all(rest) {
                // A closed tuple (`items: false` after `prefixItems`): too many elements,
                // said of the array.
                beyond = true;
            } else if let Some(schema) = schema {
                if !self.fits(schema, element_at, depth + 1) {
                    ok = false;
                }
            } else if !self.numbers_fit(id, element_at, depth + 1) {
                ok = false;
            }
            if node.unique_items == Some(true) && self.seen_before(at, element_at, count) {
                ok = self.fail(depth + 1, id, element_at, Reason::Unique);
            }
            count += 1;
            if tokens.skip_any_depth(element).is_err() {
                return self.fail(depth, id, at, Reason::Type);
            }
        }
        let count = count as u64;
        if beyond {
            ok = self.fail(depth, id, at, Reason::Beyond(count));
        } else if rare.min_items.is_some_and(|min| count < min)
            || rare.max_items.is_some_and(|max| count > max)
        {
            ok = self.fail(depth, id, at, Reason::Items(count));
        }
        ok
    }

    /// Whether the numbers of a value that no node reads (a free-form object's members, the
    /// schema `true`) fit a 64-bit float, in a call: its answer writes them as floats, and
    /// `1e400` has no such form.
    fn numbers_fit(&mut self, id: NodeId, at: usize, depth: usize) -> bool {
        // The catalog's own values keep JSON Schema's exact reading: only a call's are floats.
        if !self.call {
            return true;
        }
        match overflowing_number(self.text, at) {
            Some(number_at) => self.fail(depth, id, number_at, Reason::Float),
            None => true,
        }
    }

    /// Whether `node` is the schema `false`, which no value fits.
    fn refuses_all(&self, node: Option<NodeId>) -> bool {
        node.is_some_and(|id| self.model.node(id).boolean == Some(false))
    }

    /// Whether an element before the `index`th (at `element_at`) of the array at `at` equals it.
    fn seen_before(&self, at: usize, element_at: usize, index: usize) -> bool {
        let Some((_, mut tokens)) = self.first(at) else {
            return false;
        };
        for _ in 0..index {
            let Ok(earlier) = tokens.expect_token() else {
                return false;
            };
            if same_json(&self.text[at + earlier.at..], &self.text[element_at..]) {
                return true;
            }
            if tokens.skip_any_depth(earlier).is_err() {
                return false;
            }
        }
        false
    }
}

/// The property a discriminator names (`propertyName` in its canonical JSON), as the model's
/// text holds it.
fn discriminator_name<'m>(model: Model<'m>, node: &Schema) -> Option<(&'m str, Text)> {
    let span = model.rare(node).discriminator?;
    let json = model.str(span);
    let at = json.find("\"propertyName\":\"")? + "\"propertyName\":\"".len();
    let rest = json.get(at..)?;
    // The reader keeps names as given; one with an escape is not looked for.
    let name = &rest[..rest.find('"')?];
    let text = Text {
        start: span.start + at as u32,
        len: name.len() as u32,
    };
    (!name.contains('\\')).then_some((name, text))
}

/// Calls `each` with every branch of `node`'s union and a value it allows for property `name`
/// (its `const`, or each of its `enum`), following references.
fn for_each_discriminator_value(
    model: Model<'_>,
    node: &Schema,
    name: &str,
    mut each: impl FnMut(NodeId, &Scalar),
) {
    let follow = |mut id: NodeId| {
        for _ in 0..MAX_DEPTH {
            match model.reference(model.node(id)) {
                Some((_, target)) => id = target,
                None => break,
            }
        }
        id
    };
    for run in [model.rare(node).one_of, node.any_of].into_iter().flatten() {
        for &id in model.subschemas(run) {
            let branch = model.node(follow(id));
            let Some(property) = model
                .properties(branch)
                .iter()
                .find(|property| model.str(property.name) == name)
            else {
                continue;
            };
            let property = model.node(follow(property.schema));
            if let Some(value) = &model.rare(property).constant {
                each(id, value);
            }
            if let Some(run) = property.enumeration {
                for value in model.values(run) {
                    each(id, value);
                }
            }
        }
    }
}

/// Whether a string literal (quotes and escapes included) decodes to `want`. A literal without
/// a backslash is its text, compared as bytes: decoding every key char by char was a fifth of a
/// union's call (perf, issue 17).
fn literal_is(literal: &[u8], want: &str) -> bool {
    match plain_inside(literal) {
        Some(text) => text == want.as_bytes(),
        None => chars(literal).eq(want.chars()),
    }
}

/// Whether two string literals decode to the same text.
fn same_literal(a: &[u8], b: &[u8]) -> bool {
    if a == b {
        return true;
    }
    match (plain_inside(a), plain_inside(b)) {
        (Some(_), Some(_)) => false,
        _ => chars(a).eq(chars(b)),
    }
}

/// A string literal's text between its quotes, when it holds no escape: then the text is the
/// bytes themselves.
pub(crate) fn plain_inside(literal: &[u8]) -> Option<&[u8]> {
    let inside = literal.get(1..literal.len().checked_sub(1)?)?;
    (!inside.contains(&b'\\')).then_some(inside)
}

/// The characters of a string literal from a valid document, decoded one by one (RFC 8259
/// section 7: the two-character escapes, and `\uXXXX`, surrogate pairs joined).
pub(crate) fn chars(literal: &[u8]) -> impl Iterator<Item = char> + '_ {
    inside_chars(
        literal
            .get(1..literal.len().saturating_sub(1))
            .unwrap_or(b""),
    )
}

/// [`chars`] of a literal's inside, without its quotes.
pub(crate) fn inside_chars(inner: &[u8]) -> impl Iterator<Item = char> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        let rest = inner.get(at..)?;
        let first = *rest.first()?;
        if first != b'\\' {
            // One UTF-8 sequence: its length from the lead byte.
            let len = match first {
                0x00..=0x7f => 1,
                0xc0..=0xdf => 2,
                0xe0..=0xef => 3,
                _ => 4,
            };
            at += len;
            return std::str::from_utf8(rest.get(..len)?).ok()?.chars().next();
        }
        let escape = *rest.get(1)?;
        at += 2;
        Some(match escape {
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let unit = |from: usize| {
                    let digits = std::str::from_utf8(inner.get(from..from + 4)?).ok()?;
                    u32::from_str_radix(digits, 16).ok()
                };
                let high = unit(at)?;
                at += 4;
                if (0xd800..0xdc00).contains(&high) && inner.get(at..at + 2) == Some(b"\\u") {
                    if let Some(low) = unit(at + 2).filter(|low| (0xdc00..0xe000).contains(low)) {
                        at += 6;
                        let code = 0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00);
                        return char::from_u32(code);
                    }
                }
                char::from_u32(high).unwrap_or('\u{fffd}')
            }
            other => other as char,
        })
    })
}

/// Whether the JSON values that start `a` and `b` are equal: numbers by value, objects whatever
/// their members' order.
fn same_json(a: &[u8], b: &[u8]) -> bool {
    let (mut left, mut right) = (Tokenizer::new(a), Tokenizer::new(b));
    let (Ok(x), Ok(y)) = (left.expect_token(), right.expect_token()) else {
        return false;
    };
    same_value_at(a, x, &mut left, b, y, &mut right).unwrap_or(false)
}

fn same_value_at(
    a: &[u8],
    x: Token<'_>,
    left: &mut Tokenizer<'_>,
    b: &[u8],
    y: Token<'_>,
    right: &mut Tokenizer<'_>,
) -> Result<bool, Stop> {
    Ok(match (x.kind, y.kind) {
        (Kind::String, Kind::String) => same_literal(x.raw, y.raw),
        (Kind::Number, Kind::Number) => same_value(x.raw, y.raw),
        (Kind::ArrayStart, Kind::ArrayStart) => loop {
            let (p, q) = (left.expect_token()?, right.expect_token()?);
            match (p.kind, q.kind) {
                (Kind::ArrayEnd, Kind::ArrayEnd) => break true,
                (Kind::ArrayEnd, _) | (_, Kind::ArrayEnd) => break false,
                _ => {
                    if !same_value_at(a, p, left, b, q, right)? {
                        break false;
                    }
                }
            }
        },
        (Kind::ObjectStart, Kind::ObjectStart) => {
            // Same count of members, and each of `a`'s found in `b` with an equal value.
            let mut count = 0usize;
            loop {
                let key = left.expect_token()?;
                if key.kind == Kind::ObjectEnd {
                    break;
                }
                let value = left.expect_token()?;
                count += 1;
                let found = find_member(b, y.at, key.raw)
                    .is_some_and(|at| same_json(&a[value.at..], &b[at..]));
                if !found {
                    return Ok(false);
                }
                left.skip_any_depth(value)?;
            }
            let mut other = 0usize;
            loop {
                let key = right.expect_token()?;
                if key.kind == Kind::ObjectEnd {
                    break;
                }
                let value = right.expect_token()?;
                other += 1;
                right.skip_any_depth(value)?;
            }
            count == other
        }
        (p, q) => p == q && matches!(p, Kind::True | Kind::False | Kind::Null),
    })
}

/// Where the value of the member named like `key` sits in the object at `at` of `text`.
fn find_member(text: &[u8], at: usize, key: &[u8]) -> Option<usize> {
    let mut tokens = Tokenizer::new(&text[at..]);
    tokens.expect_token().ok()?;
    loop {
        let other = tokens.expect_token().ok()?;
        if other.kind != Kind::Key {
            return None;
        }
        let value = tokens.expect_token().ok()?;
        if same_literal(other.raw, key) {
            return Some(at + value.at);
        }
        tokens.skip_any_depth(value).ok()?;
    }
}

/// Runs `check` on a string literal's text, decoded: in place when it has no escapes, else
/// through the smallest of three stack buffers that holds it (a string is at most the
/// request's size, and zeroing 64 KiB for a short string would cost more than checking it).
fn with_text(literal: &[u8], check: impl FnOnce(&str) -> bool) -> bool {
    let inner = literal
        .get(1..literal.len().saturating_sub(1))
        .unwrap_or(b"");
    if !inner.contains(&b'\\') {
        return std::str::from_utf8(inner).is_ok_and(check);
    }
    // A literal's text is never longer than the literal.
    if literal.len() <= 512 {
        decoded::<512>(literal, check)
    } else if literal.len() <= 8192 {
        decoded::<8192>(literal, check)
    } else {
        decoded::<{ crate::error::MAX_INPUT }>(literal, check)
    }
}

/// [`with_text`] through a buffer of `N` bytes.
fn decoded<const N: usize>(literal: &[u8], check: impl FnOnce(&str) -> bool) -> bool {
    let mut buffer = [0u8; N];
    let mut len = 0;
    decode(literal, |c| {
        let mut utf8 = [0; 4];
        let bytes = c.encode_utf8(&mut utf8).as_bytes();
        if let Some(room) = buffer.get_mut(len..len + bytes.len()) {
            room.copy_from_slice(bytes);
            len += bytes.len();
        }
    });
    std::str::from_utf8(&buffer[..len]).is_ok_and(check)
}

/// The node that says what the parts of the value `text` are: `id`, or where its reference
/// leads, or the first branch of its union that `text` fits (the value was checked already,
/// with `nullable_optionals`, and a branch fits by the same rule: under OpenAI strict an object
/// whose optional property is `null` still fits its own branch).
pub(crate) fn resolve(
    model: Model<'_>,
    patterns: Matcher<'_>,
    mut id: NodeId,
    text: &[u8],
    nullable_optionals: bool,
) -> NodeId {
    for _ in 0..MAX_DEPTH {
        let node = model.node(id);
        let rare = model.rare(node);
        let own = node.has_properties || node.items.is_some() || rare.prefix_items.is_some();
        if let (Some((_, target)), false) = (rare.reference, own) {
            id = target;
            continue;
        }
        let union = node.any_of.or(rare.one_of);
        if let (Some(run), false) = (union, own) {
            let fits = model.subschemas(run).iter().find(|&&branch| {
                check_with(
                    model,
                    patterns,
                    branch,
                    text,
                    nullable_optionals,
                    true,
                    None,
                )
                .is_none()
            });
            if let Some(&branch) = fits {
                id = branch;
                continue;
            }
        }
        break;
    }
    id
}

/// The node of element `index` of an array of node `id`.
pub(crate) fn item_node(model: Model<'_>, id: NodeId, index: usize) -> Option<NodeId> {
    let node = model.node(id);
    let rare = model.rare(node);
    let prefix = rare.prefix_items.map(|(_, run)| model.subschemas(run));
    prefix
        .and_then(|prefix| prefix.get(index).copied())
        .or(node.items)
        .or(rare.additional_items)
}

/// The node of the member named by `key` (a literal) of an object of node `id`, and whether it
/// is an optional declared property.
pub(crate) fn member_node(model: Model<'_>, id: NodeId, key: &[u8]) -> (Option<NodeId>, bool) {
    let node = model.node(id);
    match model
        .properties(node)
        .iter()
        .find(|property| literal_is(key, model.str(property.name)))
    {
        Some(property) => (Some(property.schema), !property.required),
        None => (node.additional, false),
    }
}

/// Whether node `id` takes `null` of its own accord.
pub(crate) fn admits_null(model: Model<'_>, patterns: Matcher<'_>, id: NodeId) -> bool {
    check_with(model, patterns, id, b"null", false, true, None).is_none()
}
