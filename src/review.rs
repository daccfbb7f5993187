//! The catalog review: seed 002's design findings, for any catalog, run only when asked
//! (`tool-schema --review`, or a build with `TOOL_SCHEMA_REVIEW`).
//!
//! The reader (`catalog_file.rs`) refuses what breaks a rule; this reports what is allowed but
//! risky or vague, after seed 002, the tool-schema design guide: free-form command execution,
//! caller-controlled privilege flags, credential parameters, arbitrary URL or path surfaces,
//! permissive unknown fields, missing bounds, closed choices without an enum, descriptions that
//! never say when not to use a tool, and tools that leave their side effects unsaid.
//!
//! It walks the model, the same one the renderer and the checker walk, so a compiled-in catalog
//! and one read at run time are reviewed alike. Each finding is one line,
//! `TOOL POINTER RULE: message`, its pointer into the catalog file's tool entry; the lines are
//! sorted by tool, then pointer, then rule. The name-based rules match words of a name (split
//! at `_`, `-` and lower-to-upper case changes, compared in lower case) against the tables
//! below, which `docs/review.md` lists; they are heuristics, and English.

use crate::schema::{Model, NodeId, Schema, Type, TypeForm};
use std::fmt;

/// A rule's stable id: what a finding names, and what a catalog's author may search for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rule {
    /// A string run as a command, a script or code, with neither `enum` nor `pattern`.
    CommandExecution,
    /// A boolean that lets the caller raise its own rights or skip a check.
    PrivilegeFlag,
    /// A parameter that carries a secret.
    CredentialParameter,
    /// A URL with neither `enum` nor `pattern`.
    OpenUrl,
    /// A filesystem path with neither `enum` nor `pattern`.
    OpenPath,
    /// An object that admits members it does not name.
    PermissiveObject,
    /// A number, string or array with no bound.
    MissingBound,
    /// A string whose description lists its values, without an `enum`.
    ClosedChoice,
    /// A tool description that never says when not to use the tool.
    UsageConditions,
    /// A tool whose annotations state none of MCP's hints.
    SideEffects,
    /// A `default` that its own node refuses.
    DefaultMismatch,
    /// An `examples` entry that its own node refuses.
    ExampleMismatch,
}

impl Rule {
    /// Every rule, in the order of [`Rule::id`]'s table in `docs/review.md`.
    pub const ALL: [Rule; 12] = [
        Rule::CommandExecution,
        Rule::PrivilegeFlag,
        Rule::CredentialParameter,
        Rule::OpenUrl,
        Rule::OpenPath,
        Rule::PermissiveObject,
        Rule::MissingBound,
        Rule::ClosedChoice,
        Rule::UsageConditions,
        Rule::SideEffects,
        Rule::DefaultMismatch,
        Rule::ExampleMismatch,
    ];

    /// The rule's stable id.
    pub const fn id(self) -> &'static str {
        match self {
            Rule::CommandExecution => "command-execution",
            Rule::PrivilegeFlag => "privilege-flag",
            Rule::CredentialParameter => "credential-parameter",
            Rule::OpenUrl => "open-url",
            Rule::OpenPath => "open-path",
            Rule::PermissiveObject => "permissive-object",
            Rule::MissingBound => "missing-bound",
            Rule::ClosedChoice => "closed-choice",
            Rule::UsageConditions => "usage-conditions",
            Rule::SideEffects => "side-effects",
            Rule::DefaultMismatch => "default-mismatch",
            Rule::ExampleMismatch => "example-mismatch",
        }
    }
}

/// Words of a name that say its string is run as a command, a script or code.
pub const COMMAND_WORDS: &[&str] = &["command", "cmd", "script", "shell", "exec", "eval"];
/// Phrases of a description that say the same of a string (`code` alone is too common a word
/// in a name to say it).
pub const COMMAND_PHRASES: &[&str] = &[
    "shell command",
    "command to run",
    "command to execute",
    "command line to",
    "script to run",
    "script to execute",
    "code to run",
    "code to execute",
    "code to eval",
    "to be executed",
    "is executed",
];
/// Words of a boolean's name that let the caller raise its own rights or skip a check; `skip`
/// counts as the first word (`skip_checks`, `skipVerify`), and `no` before `verify`.
pub const PRIVILEGE_WORDS: &[&str] = &["admin", "sudo", "force", "privileged", "unsafe"];
/// Whole names (as words) of the same.
pub const PRIVILEGE_NAMES: &[&[&str]] = &[&["allow", "dangerous"], &["no", "verify"]];
/// Words of a name that carry a secret.
pub const CREDENTIAL_WORDS: &[&str] = &[
    "password",
    "passwd",
    "token",
    "secret",
    "credential",
    "credentials",
    "authorization",
];
/// Runs of words of a name that carry a secret.
pub const CREDENTIAL_NAMES: &[&[&str]] = &[&["api", "key"], &["private", "key"]];
/// Words of a string's name that make it a URL.
pub const URL_WORDS: &[&str] = &["url", "uri", "endpoint", "webhook"];
/// `format`s that make a string a URL.
pub const URL_FORMATS: &[&str] = &["uri", "uri-reference", "iri", "iri-reference", "url"];
/// Words of a string's name that make it a filesystem path.
pub const PATH_WORDS: &[&str] = &[
    "path",
    "paths",
    "file",
    "files",
    "filename",
    "filepath",
    "dir",
    "dirs",
    "directory",
    "folder",
];
/// Phrases of a description that list alternatives for a string to choose from.
pub const CHOICE_PHRASES: &[&str] = &[" | ", "one of", "either "];
/// Phrases of a tool's description that say when not to use it.
pub const USAGE_PHRASES: &[&str] = &["do not", "don't", "only", "instead", "never", "unless"];

/// One finding: where, which rule, and what to change.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Finding {
    /// The tool's name.
    pub tool: String,
    /// A JSON Pointer into the tool's entry in the catalog file (`/inputSchema/properties/cmd`).
    pub pointer: String,
    /// Which rule found it.
    pub rule: Rule,
    /// What is wrong, and what to change.
    pub message: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (tool, pointer, rule) = (&self.tool, &self.pointer, self.rule.id());
        write!(f, "{tool} {pointer} {rule}: {}", self.message)
    }
}

/// Every finding of the catalog's tools, sorted by tool, then pointer, then rule.
pub fn review(model: Model<'_>) -> Vec<Finding> {
    let mut findings = Vec::new();
    for tool in 0..model.tools.len() {
        review_tool(model, tool, &mut findings);
    }
    findings.sort();
    findings
}

fn review_tool(model: Model<'_>, index: usize, findings: &mut Vec<Finding>) {
    let tool = &model.tools[index];
    let name = model.name(index);
    let mut found = |pointer: String, rule: Rule, message: String| {
        findings.push(Finding {
            tool: name.to_string(),
            pointer,
            rule,
            message,
        })
    };
    let description = model.str(tool.description).to_lowercase();
    if !USAGE_PHRASES
        .iter()
        .any(|phrase| has_phrase(&description, phrase))
    {
        found(
            "/description".into(),
            Rule::UsageConditions,
            "says what the tool does but not when not to use it; add when another tool fits \
             better, or what it must not be used for (advisory: English words only)"
                .into(),
        );
    }
    if !tool.hints.stated {
        found(
            "/annotations".into(),
            Rule::SideEffects,
            "no annotations say what the tool does to its environment, so a client takes MCP's \
             defaults (it may change things, destructively, not idempotently, in an open world); \
             set readOnlyHint, destructiveHint, idempotentHint and openWorldHint"
                .into(),
        );
    }
    // Every node under the arguments' root, with its pointer and the name it is known by (a
    // property's, or its array's for the elements). `$ref`s are not followed: a definition is
    // reviewed once, under `$defs`.
    let mut stack: Vec<(NodeId, String, String)> =
        vec![(tool.input, "/inputSchema".into(), String::new())];
    while let Some((id, pointer, label)) = stack.pop() {
        let node = model.node(id);
        review_node(model, node, &pointer, &label, &mut found);
        let rare = model.rare(node);
        for property in model.properties(node) {
            let name = model.str(property.name);
            let child = format!("{pointer}/properties/{}", escape(name));
            stack.push((property.schema, child, name.to_string()));
        }
        if let Some(items) = node.items {
            stack.push((items, format!("{pointer}/items"), label.clone()));
        }
        if let Some(additional) = node.additional {
            if model.node(additional).boolean.is_none() {
                let child = format!("{pointer}/additionalProperties");
                stack.push((additional, child, String::new()));
            }
        }
        // A draft-07 tuple is an `items` list; 2020-12's is `prefixItems`.
        let tuple = match rare.prefix_items {
            Some((crate::schema::TupleForm::ItemsList, _)) => "items",
            _ => "prefixItems",
        };
        let runs = [
            ("anyOf", node.any_of),
            ("oneOf", rare.one_of),
            ("allOf", rare.all_of),
            (tuple, rare.prefix_items.map(|(_, run)| run)),
        ];
        for (key, run) in runs {
            for (i, &branch) in run
                .map_or(&[][..], |run| model.subschemas(run))
                .iter()
                .enumerate()
            {
                stack.push((branch, format!("{pointer}/{key}/{i}"), label.clone()));
            }
        }
        if let Some((keyword, run)) = rare.definitions {
            let key = match keyword {
                crate::schema::DefsKeyword::Defs => "$defs",
                crate::schema::DefsKeyword::Definitions => "definitions",
            };
            for definition in model.definitions(run) {
                let name = model.str(definition.name);
                let child = format!("{pointer}/{key}/{}", escape(name));
                stack.push((definition.schema, child, String::new()));
            }
        }
    }
}

/// The rules that look at one node.
fn review_node(
    model: Model<'_>,
    node: &Schema,
    pointer: &str,
    label: &str,
    found: &mut impl FnMut(String, Rule, String),
) {
    // The reader keeps a `default` or `examples` that the node refuses (JSON Schema allows
    // them), and marks it so.
    let annotations = model.annotations(node);
    if annotations.unfit_default.is_some() {
        found(
            format!("{pointer}/default"),
            Rule::DefaultMismatch,
            "a default that this schema refuses: it is never applied, kept only in the MCP \
             shape and dropped from the providers', where a model would send it; make it fit \
             (for `limit: int = None`, type the parameter `Optional[int]`), or remove it"
                .into(),
        );
    }
    if annotations.unfit_examples.is_some() {
        found(
            format!("{pointer}/examples"),
            Rule::ExampleMismatch,
            "an example that this schema refuses: the examples are kept only in the MCP shape; \
             make each fit, or remove it"
                .into(),
        );
    }
    if node.boolean.is_some() || node.type_form == TypeForm::Absent {
        return;
    }
    let rare = model.rare(node);
    let words = words(label);
    let description = node
        .description
        .map(|text| model.str(text).to_lowercase())
        .unwrap_or_default();
    let closed = node.enumeration.is_some() || rare.constant.is_some();
    let constrained = closed || rare.pattern.is_some();
    let at = || pointer.to_string();
    if node.types.has(Type::String) && !constrained {
        let format = rare.format.map(|text| model.str(text)).unwrap_or("");
        let command = words
            .iter()
            .any(|word| COMMAND_WORDS.contains(&word.as_str()))
            || COMMAND_PHRASES
                .iter()
                .any(|phrase| description.contains(phrase));
        if command {
            found(
                at(),
                Rule::CommandExecution,
                "a string run as a command, a script or code: give it an enum of what may run, \
                 or a pattern, or split it into typed parameters the host assembles"
                    .into(),
            );
        }
        if words.iter().any(|word| URL_WORDS.contains(&word.as_str()))
            || URL_FORMATS.contains(&format)
        {
            found(
                at(),
                Rule::OpenUrl,
                "a URL the caller picks: restrict it with an enum, or a pattern of the hosts and \
                 schemes allowed"
                    .into(),
            );
        } else if words.iter().any(|word| PATH_WORDS.contains(&word.as_str())) {
            found(
                at(),
                Rule::OpenPath,
                "a filesystem path the caller picks: restrict it with a pattern (a root, no \
                 `..`), or resolve it under a root in the host"
                    .into(),
            );
        }
        if CHOICE_PHRASES
            .iter()
            .any(|phrase| description.contains(phrase))
        {
            found(
                at(),
                Rule::ClosedChoice,
                "the description lists the values to choose from: give them as an enum".into(),
            );
        }
        if rare.max_length.is_none() {
            found(
                at(),
                Rule::MissingBound,
                "a string with no maxLength, enum or pattern: bound its length".into(),
            );
        }
    }
    if node.types.has(Type::Boolean) && !closed {
        let privilege = words
            .iter()
            .any(|word| PRIVILEGE_WORDS.contains(&word.as_str()))
            || words.first().is_some_and(|word| word == "skip")
            || PRIVILEGE_NAMES
                .iter()
                .any(|name| contains_run(&words, name));
        if privilege {
            found(
                at(),
                Rule::PrivilegeFlag,
                "a boolean that lets the caller raise its own rights or skip a check: decide it \
                 in the host, not in the model's arguments"
                    .into(),
            );
        }
    }
    let credential = words
        .iter()
        .any(|word| CREDENTIAL_WORDS.contains(&word.as_str()))
        || CREDENTIAL_NAMES
            .iter()
            .any(|name| contains_run(&words, name));
    if credential && !closed {
        found(
            at(),
            Rule::CredentialParameter,
            "a parameter that carries a secret, which the model then sees and repeats: let the \
             host supply it"
                .into(),
        );
    }
    let number = node.types.has(Type::Integer) || node.types.has(Type::Number);
    let bounded = rare.minimum.is_some()
        || rare.maximum.is_some()
        || rare.exclusive_minimum.is_some()
        || rare.exclusive_maximum.is_some();
    if number && !closed && !bounded {
        found(
            at(),
            Rule::MissingBound,
            "a number with no minimum or maximum: bound it".into(),
        );
    }
    if node.types.has(Type::Array) && !closed && rare.max_items.is_none() {
        found(
            at(),
            Rule::MissingBound,
            "an array with no maxItems: bound how many elements it takes".into(),
        );
    }
    if node.types.has(Type::Object) && !closed {
        let admits = match node.additional {
            None => true,
            Some(additional) => model.node(additional).boolean != Some(false),
        };
        if admits {
            found(
                at(),
                Rule::PermissiveObject,
                "an object that admits members it does not name: set additionalProperties to \
                 false, or name them"
                    .into(),
            );
        }
    }
}

/// The words of a name, in lower case: split at `_`, `-`, spaces and where a lower-case letter
/// or a digit is followed by an upper-case one.
fn words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if matches!(c, '_' | '-' | ' ' | '.') {
            words.extend((!word.is_empty()).then(|| std::mem::take(&mut word)));
            previous_lower = false;
            continue;
        }
        if c.is_uppercase() && previous_lower {
            words.push(std::mem::take(&mut word));
        }
        previous_lower = c.is_lowercase() || c.is_ascii_digit();
        word.extend(c.to_lowercase());
    }
    words.extend((!word.is_empty()).then_some(word));
    words
}

/// Whether `words` holds `run`, one word after another.
fn contains_run(words: &[String], run: &[&str]) -> bool {
    words
        .windows(run.len())
        .any(|window| window.iter().zip(run).all(|(word, want)| word == want))
}

/// Whether `text` holds `phrase` as whole words: not inside a longer word.
fn has_phrase(text: &str, phrase: &str) -> bool {
    let bytes = text.as_bytes();
    text.match_indices(phrase).any(|(at, _)| {
        let before = at.checked_sub(1).map(|i| bytes[i]);
        let after = bytes.get(at + phrase.len()).copied();
        let word = |byte: Option<u8>| byte.is_some_and(|b| b.is_ascii_alphanumeric());
        !word(before) && !word(after)
    })
}

/// A name as a JSON Pointer token (RFC 6901: `~` as `~0`, `/` as `~1`).
fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_into_words() {
        assert_eq!(words("allowDangerous"), ["allow", "dangerous"]);
        assert_eq!(words("skip_hooks"), ["skip", "hooks"]);
        assert_eq!(words("API_KEY"), ["api", "key"]);
        assert_eq!(words("webhookURL"), ["webhook", "url"]);
        assert_eq!(words("file-path"), ["file", "path"]);
        assert!(contains_run(&words("my_api_key"), &["api", "key"]));
        assert!(!contains_run(&words("keyApi"), &["api", "key"]));
    }

    #[test]
    fn phrases_are_whole_words() {
        assert!(has_phrase("use it only for builds", "only"));
        assert!(!has_phrase("the commonly used one", "only"));
        assert!(has_phrase("don't use it for files", "don't"));
    }
}
