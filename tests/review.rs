//! The catalog review (`src/review.rs`): its findings on real catalogs against the golden files
//! of `tests/review/`, which `tests/review_reference.py` writes from the rules alone; each rule
//! on a catalog that triggers it and one that does not; and the command line.

mod common;

use tool_schema::review::{review, Finding, Rule};
use tool_schema::RuntimeCatalog;

fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn lines(findings: &[Finding]) -> String {
    findings.iter().map(|f| format!("{f}\n")).collect()
}

#[test]
fn real_catalogs_get_the_reference_findings() {
    for (name, file) in [
        ("default", "src/catalog.json"),
        ("reasonix", "tests/catalogs/reasonix/catalog.json"),
        ("pydantic", "tests/catalogs/pydantic/catalog.json"),
        ("zod", "tests/catalogs/zod/catalog.json"),
        (
            "github-mcp-server",
            "tests/catalogs/mcp-servers/github-mcp-server.json",
        ),
        ("fastmcp", "tests/catalogs/fastmcp/tools-list.json"),
    ] {
        let bytes = std::fs::read(root().join(file)).unwrap();
        let catalog = RuntimeCatalog::from_bytes(&bytes).unwrap();
        let want = std::fs::read(root().join(format!("tests/review/{name}.txt"))).unwrap();
        let got = lines(&catalog.review());
        common::assert_same_bytes(got.as_bytes(), &want, name);
    }
    // The compiled-in catalog is reviewed as its file is.
    let compiled = lines(&review(tool_schema::catalog::MODEL));
    let want = std::fs::read(root().join("tests/review/default.txt")).unwrap();
    common::assert_same_bytes(compiled.as_bytes(), &want, "compiled-in");
}

/// The findings of one tool whose arguments are `schema` (and whose description and
/// annotations are given), as `(pointer, rule)` pairs.
fn findings(description: &str, annotations: &str, schema: &str) -> Vec<(String, Rule)> {
    let file = format!(
        r#"[{{"name":"t","description":{description:?},"annotations":{annotations},"inputSchema":{schema}}}]"#
    );
    let catalog =
        RuntimeCatalog::from_bytes(file.as_bytes()).unwrap_or_else(|err| panic!("{file}: {err}"));
    catalog
        .review()
        .into_iter()
        .map(|finding| (finding.pointer, finding.rule))
        .collect()
}

/// The findings of one property `p` of schema `property`, in an otherwise clean tool.
fn property(property: &str) -> Vec<Rule> {
    let schema = format!(
        r#"{{"type":"object","additionalProperties":false,"properties":{{"p":{property}}}}}"#
    );
    findings("Only for tests.", r#"{"readOnlyHint":true}"#, &schema)
        .into_iter()
        .map(|(pointer, rule)| {
            assert_eq!(pointer, "/inputSchema/properties/p");
            rule
        })
        .collect()
}

/// `property` with its name `p` replaced by `name`.
fn named(name: &str, schema: &str) -> Vec<Rule> {
    let wrapped = format!(
        r#"{{"type":"object","additionalProperties":false,"properties":{{"{name}":{schema}}}}}"#
    );
    findings("Only for tests.", r#"{"readOnlyHint":true}"#, &wrapped)
        .into_iter()
        .map(|(_, rule)| rule)
        .collect()
}

const BOUNDED: &str = r#""maxLength":100"#;

#[test]
fn a_clean_tool_has_no_findings() {
    let schema = r#"{"type":"object","additionalProperties":false,"properties":{
        "mode":{"type":"string","enum":["a","b"]},"n":{"type":"integer","minimum":0,"maximum":9},
        "tags":{"type":"array","maxItems":3,"items":{"type":"string","maxLength":10}},
        "verbose":{"type":"boolean"}}}"#;
    assert_eq!(
        findings(
            "Lists things. Do not use it to write.",
            r#"{"readOnlyHint":true}"#,
            schema
        ),
        vec![]
    );
}

#[test]
fn command_execution() {
    let rule = Rule::CommandExecution;
    for name in ["command", "cmd", "shell_script", "execCommand", "eval"] {
        let found = named(name, &format!(r#"{{"type":"string",{BOUNDED}}}"#));
        assert!(found.contains(&rule), "{name}: {found:?}");
    }
    let said = property(&format!(
        r#"{{"type":"string",{BOUNDED},"description":"Shell command to execute"}}"#
    ));
    assert!(said.contains(&rule));
    // An enum or a pattern closes it; other names and descriptions do not open it.
    assert!(!named("command", r#"{"type":"string","enum":["build","test"]}"#).contains(&rule));
    assert!(!named("command", r#"{"type":"string","pattern":"^git [a-z]+$"}"#).contains(&rule));
    assert!(!named("commander", &format!(r#"{{"type":"string",{BOUNDED}}}"#)).contains(&rule));
    assert!(!property(&format!(
        r#"{{"type":"string",{BOUNDED},"description":"A commit message"}}"#
    ))
    .contains(&rule));
}

#[test]
fn privilege_flag() {
    let rule = Rule::PrivilegeFlag;
    for name in [
        "admin",
        "sudo",
        "force",
        "privileged",
        "skip_checks",
        "skipVerify",
        "allow_dangerous",
        "allowDangerous",
        "no_verify",
        "unsafe",
    ] {
        assert_eq!(named(name, r#"{"type":"boolean"}"#), vec![rule], "{name}");
    }
    for name in ["verbose", "dry_run", "forceful_tone_ok_no"] {
        assert!(
            !named(name, r#"{"type":"boolean"}"#).contains(&rule),
            "{name}"
        );
    }
    // Only booleans: a string named force is something else.
    assert!(!named("force", &format!(r#"{{"type":"string",{BOUNDED}}}"#)).contains(&rule));
}

#[test]
fn credential_parameter() {
    let rule = Rule::CredentialParameter;
    for name in [
        "password",
        "api_key",
        "apiKey",
        "token",
        "client_secret",
        "credentials",
        "private_key",
        "authorization",
    ] {
        assert!(
            named(name, &format!(r#"{{"type":"string",{BOUNDED}}}"#)).contains(&rule),
            "{name}"
        );
    }
    for name in ["keyword", "author", "secretary", "max_tokens_x"] {
        let found = named(name, &format!(r#"{{"type":"string",{BOUNDED}}}"#));
        assert!(!found.contains(&rule), "{name}");
    }
    assert!(!named("api", &format!(r#"{{"type":"string",{BOUNDED}}}"#)).contains(&rule));
}

#[test]
fn open_url_and_open_path() {
    let string = format!(r#"{{"type":"string",{BOUNDED}}}"#);
    assert!(named("url", &string).contains(&Rule::OpenUrl));
    assert!(named("webhookEndpoint", &string).contains(&Rule::OpenUrl));
    assert!(
        property(&format!(r#"{{"type":"string",{BOUNDED},"format":"uri"}}"#))
            .contains(&Rule::OpenUrl)
    );
    assert!(!named(
        "url",
        r#"{"type":"string","pattern":"^https://example\\.com/"}"#
    )
    .contains(&Rule::OpenUrl));
    for name in ["path", "file_path", "dir", "outputDirectory", "filename"] {
        assert!(named(name, &string).contains(&Rule::OpenPath), "{name}");
    }
    assert!(!named("path", r#"{"type":"string","enum":["a.txt"]}"#).contains(&Rule::OpenPath));
    assert!(!named("xpath_query", &string).contains(&Rule::OpenPath));
    // The elements of an array named paths are paths.
    let paths = r#"{"type":"array","maxItems":4,"items":{"type":"string","maxLength":100}}"#;
    let found = findings(
        "Only for tests.",
        r#"{"readOnlyHint":true}"#,
        &format!(
            r#"{{"type":"object","additionalProperties":false,"properties":{{"paths":{paths}}}}}"#
        ),
    );
    assert_eq!(
        found,
        vec![("/inputSchema/properties/paths/items".into(), Rule::OpenPath)]
    );
}

#[test]
fn permissive_object() {
    let rule = Rule::PermissiveObject;
    for object in [
        r#"{"type":"object"}"#,
        r#"{"type":"object","additionalProperties":true}"#,
        r#"{"type":"object","additionalProperties":{"type":"string","maxLength":9}}"#,
    ] {
        assert_eq!(property(object), vec![rule], "{object}");
    }
    assert_eq!(
        property(r#"{"type":"object","additionalProperties":false}"#),
        vec![]
    );
    // The arguments' own object, once.
    let found = findings(
        "Only for tests.",
        r#"{"readOnlyHint":true}"#,
        r#"{"type":"object"}"#,
    );
    assert_eq!(found, vec![("/inputSchema".into(), rule)]);
}

#[test]
fn missing_bound() {
    let rule = Rule::MissingBound;
    for unbounded in [
        r#"{"type":"integer"}"#,
        r#"{"type":"number"}"#,
        r#"{"type":"string"}"#,
        r#"{"type":"array","items":{"type":"boolean"}}"#,
    ] {
        assert_eq!(property(unbounded), vec![rule], "{unbounded}");
    }
    for bounded in [
        r#"{"type":"integer","minimum":0}"#,
        r#"{"type":"number","exclusiveMaximum":1}"#,
        r#"{"type":"string","maxLength":5}"#,
        r#"{"type":"string","enum":["a"]}"#,
        r#"{"type":"string","pattern":"^a$"}"#,
        r#"{"type":"array","maxItems":2,"items":{"type":"boolean"}}"#,
        r#"{"type":"boolean"}"#,
    ] {
        assert_eq!(property(bounded), vec![], "{bounded}");
    }
}

#[test]
fn closed_choice() {
    let rule = Rule::ClosedChoice;
    for description in [
        "search | list | call",
        "One of: fast, slow.",
        "Either asc or desc.",
    ] {
        let schema = format!(r#"{{"type":"string",{BOUNDED},"description":{description:?}}}"#);
        assert_eq!(property(&schema), vec![rule], "{description}");
    }
    let plain = format!(r#"{{"type":"string",{BOUNDED},"description":"A name."}}"#);
    assert_eq!(property(&plain), vec![]);
    let listed = r#"{"type":"string","enum":["asc","desc"],"description":"Either asc or desc."}"#;
    assert_eq!(property(listed), vec![]);
}

#[test]
fn usage_conditions_and_side_effects() {
    let schema = r#"{"type":"object","additionalProperties":false}"#;
    let annotated = r#"{"readOnlyHint":true}"#;
    for description in [
        "Reads a file. Do not use it for directories.",
        "Use it only for logs.",
        "Prefer grep instead.",
        "Never for secrets.",
        "Unless asked, skip it.",
        "Don't guess.",
    ] {
        assert_eq!(
            findings(description, annotated, schema),
            vec![],
            "{description}"
        );
    }
    let vague = findings("Reads a file, commonly.", annotated, schema);
    assert_eq!(vague, vec![("/description".into(), Rule::UsageConditions)]);
    // No annotations, or annotations with a title and no hint: the hints are MCP's defaults.
    for annotations in ["{}", r#"{"title":"T"}"#] {
        let found = findings("Only for tests.", annotations, schema);
        assert_eq!(
            found,
            vec![("/annotations".into(), Rule::SideEffects)],
            "{annotations}"
        );
    }
    // One hint stated, even the default's value, says the author thought of it.
    assert_eq!(
        findings("Only for tests.", r#"{"readOnlyHint":false}"#, schema),
        vec![]
    );
}

#[test]
fn the_command_line_reviews_and_fails_only_when_strict() {
    let want = std::fs::read(root().join("tests/review/default.txt")).unwrap();
    let plain = common::run(&["--review"], b"");
    assert!(plain.status.success(), "{plain:?}");
    common::assert_same_bytes(&plain.stdout, &want, "--review");
    let strict = common::run(&["--review", "--strict"], b"");
    assert_eq!(strict.status.code(), Some(1));
    common::assert_same_bytes(&strict.stdout, &want, "--review --strict");
    assert_eq!(
        String::from_utf8_lossy(&strict.stderr),
        "tool-schema: review: 17 findings (--strict)\n"
    );
    let file = root().join("tests/catalogs/reasonix/catalog.json");
    let other = common::run(&["--catalog", file.to_str().unwrap(), "--review"], b"");
    assert!(other.status.success());
    let want = std::fs::read(root().join("tests/review/reasonix.txt")).unwrap();
    common::assert_same_bytes(&other.stdout, &want, "--review --catalog");
    // A catalog the reader refuses is refused as always: structural errors always fail.
    let bad = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("review-bad-name.json");
    std::fs::write(
        &bad,
        r#"[{"name":"read file","description":"d","inputSchema":{"type":"object"}}]"#,
    )
    .unwrap();
    let refused = common::run(&["--review", "--catalog", bad.to_str().unwrap()], b"");
    assert_eq!(refused.status.code(), Some(1));
    assert!(refused.stdout.is_empty());
    assert!(String::from_utf8_lossy(&refused.stderr).starts_with("tool-schema: bad_catalog: "));
    for args in [
        &["--strict"][..],
        &["--review", "--stream"],
        &["--review", "--review"],
    ] {
        assert_eq!(common::run(args, b"").status.code(), Some(2), "{args:?}");
    }
}
