//! `src/regex.rs` against Node's own RegExp, the independent reference: every pattern and text
//! of `tests/regex/cases.json`, which `tests/regex/reference.mjs` wrote (ECMA-262 with the `u`
//! flag). A pattern RegExp compiles must compile here and match exactly the same texts, unless
//! it uses what a linear-time engine refuses (lookaround, backreferences; also Unicode property
//! escapes, not implemented); a pattern RegExp refuses must be refused here too, unless it only
//! uses an identity escape of Annex B (`\-` outside a class), which this engine reads as
//! engines without the `u` flag do.

use tool_schema::regex::Regex;
use tool_schema::tokenizer::{decode, Kind, Tokenizer};

/// A pattern and, where RegExp compiles it, one verdict per text.
type Case = (String, Option<Vec<bool>>);

/// The reference's texts, and its cases.
fn cases() -> (Vec<String>, Vec<Case>) {
    let text = include_str!("regex/cases.json");
    let mut tokens = Tokenizer::with_limit(text.as_bytes(), text.len());
    let string = |raw: &[u8]| {
        let mut out = String::new();
        decode(raw, |c| out.push(c));
        out
    };
    let (mut texts, mut cases) = (Vec::new(), Vec::new());
    let mut key = String::new();
    let mut pattern: Option<String> = None;
    while let Some(token) = tokens.next().expect("tests/regex/cases.json is JSON") {
        match token.kind {
            Kind::Key => key = string(token.raw),
            Kind::String if key == "texts" => texts.push(string(token.raw)),
            Kind::String | Kind::Null if key == "cases" => match pattern.take() {
                None => pattern = Some(string(token.raw)),
                Some(p) => {
                    let verdicts = (token.kind == Kind::String)
                        .then(|| string(token.raw).bytes().map(|b| b == b'1').collect());
                    cases.push((p, verdicts));
                }
            },
            _ => {}
        }
    }
    (texts, cases)
}

/// Whether `pattern` uses an escape that a linear-time engine refuses, or one not implemented.
fn refused_by_design(pattern: &str) -> bool {
    ["(?=", "(?!", "(?<=", "(?<!", "\\k", "\\p", "\\P"]
        .iter()
        .any(|construct| pattern.contains(construct))
        || pattern
            .as_bytes()
            .windows(2)
            .any(|pair| pair[0] == b'\\' && pair[1].is_ascii_digit() && pair[1] != b'0')
}

/// Whether `pattern` has a `\` before a character that is neither a letter, a digit, `_`, nor
/// one of the pattern's own syntax characters: Annex B's identity escape.
fn identity_escape(pattern: &str) -> bool {
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some(e)
                    if !e.is_ascii_alphanumeric()
                        && e != '_'
                        && !"^$\\.*+?()[]{}|/".contains(e) =>
                {
                    return true
                }
                _ => {}
            }
        }
    }
    false
}

#[test]
fn every_pattern_agrees_with_ecmascript() {
    let (texts, cases) = cases();
    assert!(cases.len() > 2000, "{} cases", cases.len());
    let (mut compared, mut refused) = (0, 0);
    for (pattern, verdicts) in &cases {
        let ours = Regex::new(pattern);
        match (verdicts, &ours) {
            (None, Err(_)) => refused += 1,
            (None, Ok(_)) => assert!(
                identity_escape(pattern),
                "{pattern:?}: RegExp refuses it, this engine compiles it"
            ),
            (Some(_), Err(err)) => assert!(
                refused_by_design(pattern),
                "{pattern:?}: RegExp compiles it, this engine refuses it: {err}"
            ),
            (Some(verdicts), Ok(regex)) => {
                for (text, &want) in texts.iter().zip(verdicts) {
                    assert_eq!(regex.is_match(text), want, "{pattern:?} on {text:?}");
                    compared += 1;
                }
            }
        }
    }
    eprintln!("{compared} verdicts compared, {refused} patterns refused by both");
    assert!(
        compared > 20_000 && refused > 100,
        "{compared} verdicts, {refused} refusals"
    );
}

/// Each construct the engine refuses is named in its message, at its place.
#[test]
fn refusals_name_the_construct() {
    for (pattern, at, words) in [
        ("a(?=b)", 1, "lookahead (?="),
        ("(?!b)", 0, "negative lookahead (?!"),
        ("x(?<=b)", 1, "lookbehind (?<="),
        ("(?<!b)", 0, "negative lookbehind (?<!"),
        ("(a)\\1", 3, "backreference \\1"),
        ("(?<n>a)\\k<n>", 7, "backreference \\k<name>"),
        ("\\p{L}", 0, "Unicode property escape"),
        ("a{", 1, "a lone '{'"),
        ("(a", 0, "never closed"),
        ("[ab", 0, "never closed"),
        ("a**", 2, "cannot follow another"),
        ("a{3,2}", 6, "m less than n"),
        ("a{9999}", 6, "a count above"),
    ] {
        let err = Regex::new(pattern).expect_err(pattern);
        assert_eq!(err.at, at, "{pattern}: {err}");
        assert!(err.what.contains(words), "{pattern}: {err}");
    }
    assert!(
        Regex::new(&"a{1000}".repeat(3)).is_err(),
        "over the program's size"
    );
    // A class of one range too many: every other code point from U+0100, none adjacent, so
    // none merge. One fewer compiles, and matches its last.
    let class = |ranges: u32| -> String {
        let chars = (0..ranges).filter_map(|i| char::from_u32(0x100 + 2 * i));
        format!("[{}]", chars.collect::<String>())
    };
    let most = tool_schema::regex::MAX_CLASS as u32;
    // The surrogates (U+D800 to U+DFFF) are not chars: skip as many as fall among them.
    let skipped = (0..most + 1)
        .filter(|i| char::from_u32(0x100 + 2 * i).is_none())
        .count() as u32;
    let err = Regex::new(&class(most + 1 + skipped)).expect_err("a class too large");
    assert!(err.what.contains("more than 65535 ranges"), "{err}");
    let largest = Regex::new(&class(most + skipped)).expect("the largest class");
    let last = char::from_u32(0x100 + 2 * (most + skipped - 1)).unwrap();
    assert!(largest.is_match(&last.to_string()) && !largest.is_match("\u{ff}"));
}
