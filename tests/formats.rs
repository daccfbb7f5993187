//! `src/format.rs`, the `format` checks: against JSON-Schema-Test-Suite (github.com/json-schema-
//! org/JSON-Schema-Test-Suite, MIT), draft 2020-12, `optional/format/<name>.json` for the ten
//! asserted formats, and against examples from each format's RFC and the edges between valid
//! and not.
//!
//! The suite is read from `../shared/conformance/JSON-Schema-Test-Suite/tests/draft2020-12/
//! optional/format`, or from the directory named by `TOOL_SCHEMA_FORMAT_SUITE`, and is never
//! copied into this repository. As with JSONTestSuite (`tests/jsontestsuite.rs`), a fresh clone
//! has no suite beside it, so that test is `#[ignore]`d, and CI (`.ci/run`) runs it with
//! `--include-ignored`, where a missing directory fails it. The RFC examples need nothing and
//! always run.

use std::path::PathBuf;
use tool_schema::format::StringFormat;
use tool_schema::tokenizer::{decode, Kind, Tokenizer};

/// The suite's cases whose `data` is a string, per format: `format` ignores other types, which
/// are valid whatever they hold. Counted on the suite's commit 44401e0 (its `COMMIT` file).
const CASES: [(&str, usize); 10] = [
    ("date-time", 27),
    ("date", 75),
    ("time", 41),
    ("duration", 46),
    ("email", 21),
    ("hostname", 58),
    ("ipv4", 35),
    ("ipv6", 36),
    ("uri", 40),
    ("uuid", 22),
];

/// Where this crate's verdict differs from the suite's, on purpose: the format, the text, and
/// why. The suite calls each of these invalid; they are accepted here.
const DIFFERENCES: [(&str, &str, &str); 3] = [
    ("hostname", "xn--hello-txk", LEADING_MARK),
    ("hostname", "xn--hello-zed", LEADING_MARK),
    ("hostname", "xn--hello-6bf", LEADING_MARK),
];

const LEADING_MARK: &str = "an A-label whose U-label begins with a combining mark (RFC 5891 \
    4.2.3.2): telling needs Unicode's General_Category, a table of some 260 ranges, larger than \
    the rest of the module's data, for a rule no tool argument is likely to meet";

/// One case: the text and whether the suite calls it valid.
type Case = (String, bool);

/// The string cases of `optional/format/<name>.json`, read with the crate's own tokenizer. Each
/// group's schema must be `format: <name>` and nothing else that asserts.
fn suite_cases(name: &str) -> Vec<Case> {
    let dir = match std::env::var_os("TOOL_SCHEMA_FORMAT_SUITE") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(
            "../shared/conformance/JSON-Schema-Test-Suite/tests/draft2020-12/optional/format",
        ),
    };
    let path = dir.join(format!("{name}.json"));
    let bytes = std::fs::read(&path).unwrap_or_else(|err| {
        panic!(
            "JSON-Schema-Test-Suite not found at {} ({err}); set TOOL_SCHEMA_FORMAT_SUITE to its \
             tests/draft2020-12/optional/format directory",
            path.display()
        )
    });
    let string = |raw: &[u8]| {
        let mut out = String::new();
        decode(raw, |c| out.push(c));
        out
    };
    // Depths: the file's array is 1, a group 2, its schema and its tests array 3, a test 4.
    let mut tokens = Tokenizer::with_limit(&bytes, bytes.len());
    let (mut key, mut cases) = (String::new(), Vec::new());
    let (mut data, mut valid): (Option<String>, Option<bool>) = (None, None);
    while let Some(token) = tokens.next().expect("a suite file is JSON") {
        let depth = tokens.depth();
        match token.kind {
            Kind::Key => {
                key = string(token.raw);
                let schema_key = matches!(&key[..], "$schema" | "format");
                assert!(depth != 3 || schema_key, "{}: {key:?}", path.display());
            }
            Kind::String if depth == 3 && key == "format" => {
                assert_eq!(
                    string(token.raw),
                    name,
                    "{}: a schema's format",
                    path.display()
                );
            }
            Kind::ObjectStart if depth == 4 => (data, valid) = (None, None),
            Kind::String if depth == 4 && key == "data" => data = Some(string(token.raw)),
            Kind::True | Kind::False if depth == 4 && key == "valid" => {
                valid = Some(token.kind == Kind::True)
            }
            Kind::ObjectEnd if depth == 3 && valid.is_some() => {
                if let Some(text) = data.take() {
                    cases.push((text, valid.unwrap()));
                }
                valid = None;
            }
            _ => {}
        }
    }
    cases
}

#[test]
#[ignore = "needs JSON-Schema-Test-Suite: set TOOL_SCHEMA_FORMAT_SUITE or run .ci/run"]
fn every_string_case_of_the_suite_agrees() {
    let (mut compared, mut seen, mut failures) = (0, Vec::new(), Vec::new());
    for (name, count) in CASES {
        let format = StringFormat::from_name(name).unwrap();
        let cases = suite_cases(name);
        assert_eq!(cases.len(), count, "{name}: string cases in the suite");
        for (text, valid) in cases {
            compared += 1;
            if format.accepts(&text) == valid {
                continue;
            }
            match DIFFERENCES.iter().find(|d| (d.0, d.1) == (name, &text)) {
                Some(difference) if !valid => seen.push(difference.1),
                _ => failures.push(format!("{name} {text:?}: the suite says valid={valid}")),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "wrong verdicts:\n{}",
        failures.join("\n")
    );
    let listed: Vec<_> = DIFFERENCES.iter().map(|d| d.1).collect();
    assert_eq!(seen, listed, "every listed difference is met, in order");
    assert_eq!(compared, 401, "string cases compared");
}

/// Asserts that `format` accepts every text of `valid` and none of `invalid`.
fn check(format: StringFormat, valid: &[&str], invalid: &[&str]) {
    for text in valid {
        assert!(format.accepts(text), "{} refuses {text:?}", format.name());
    }
    for text in invalid {
        assert!(!format.accepts(text), "{} accepts {text:?}", format.name());
    }
}

#[test]
fn names_round_trip_and_only_the_ten_assert() {
    for format in StringFormat::ALL {
        assert_eq!(StringFormat::from_name(format.name()), Some(format));
    }
    for annotation in [
        "regex",
        "uri-reference",
        "iri",
        "idn-email",
        "int32",
        "Date-Time",
        "",
    ] {
        assert_eq!(StringFormat::from_name(annotation), None, "{annotation}");
    }
}

/// Each message's examples are themselves accepted: a model told "such as X" can copy X.
#[test]
fn every_expected_phrase_shows_valid_examples() {
    for format in StringFormat::ALL {
        let phrase = format.expected();
        let (_, examples) = phrase.split_once(" such as ").expect(phrase);
        for example in examples.split(" or ") {
            assert!(format.accepts(example), "{}: {phrase}", format.name());
        }
    }
}

#[test]
fn date_time_date_and_time() {
    // RFC 3339 5.8's examples.
    let rfc = [
        "1985-04-12T23:20:50.52Z",
        "1996-12-19T16:39:57-08:00",
        "1990-12-31T23:59:60Z",
        "1990-12-31T15:59:60-08:00",
        "1937-01-01T12:00:27.87+00:20",
    ];
    check(StringFormat::DateTime, &rfc, &[]);
    check(
        StringFormat::DateTime,
        &["2024-02-29t00:00:00z", "0000-01-01T00:00:00Z"],
        &[
            "2024-02-29 00:00:00Z",
            "2024-02-29T00:00:00",
            "1990-12-31T23:59:60+01:00",
            "2024-02-29T00:00Z",
            "2024-02-29",
            "",
        ],
    );
    check(
        StringFormat::Date,
        &[
            "2024-02-29",
            "2000-02-29",
            "2023-02-28",
            "2023-12-31",
            "9999-12-31",
        ],
        &[
            "2023-02-29",
            "1900-02-29",
            "2023-04-31",
            "2023-00-10",
            "2023-13-01",
            "2023-1-01",
            "2023-01-01T00:00:00Z",
            "+2023-01-01",
        ],
    );
    // A leap second is 23:59:60 UTC, whatever the offset.
    check(
        StringFormat::Time,
        &[
            "23:59:60Z",
            "23:59:60-00:00",
            "00:59:60+01:00",
            "18:29:60-05:30",
            "12:00:00.5z",
            "12:00:00+23:59",
        ],
        &[
            "23:59:60+01:00",
            "00:59:60-01:00",
            "23:58:60Z",
            "12:00:00",
            "12:00:00.Z",
            "12:00:00+24:00",
            "12:00:00+01",
            "12:00Z",
            "24:00:00Z",
        ],
    );
}

#[test]
fn duration() {
    check(
        StringFormat::Duration,
        &[
            "P1W",
            "P1Y2M",
            "P3Y6M4DT12H30M5S",
            "P1M",
            "PT1M",
            "P0D",
            "PT36H",
            "P1DT2S",
            "p1dt2h",
        ],
        &[
            "PT", "P", "P1Y2D", "P1W2D", "P1WT1H", "PT1H2S", "PT1.5S", "P1YT", "P1D2H", "1D",
            "P-1D", "",
        ],
    );
}

#[test]
fn email() {
    let local_64 = format!("{}@example.com", "a".repeat(64));
    let local_65 = format!("{}@example.com", "a".repeat(65));
    check(
        StringFormat::Email,
        &[
            "user@example.com",
            "first.last+tag@sub.example.org",
            "!#$%&'*+-/=?^_`{|}~@example.com",
            "\"john..doe\"@example.com",
            "\"quoted \\\" and \\\\ pair\"@example.com",
            "\"\"@example.com",
            "\"a@b\"@example.com",
            "user@localhost",
            "user@[192.0.2.1]",
            "user@[IPv6:2001:db8::1]",
            "user@[ipv6:::ffff:192.0.2.1]",
            &local_64,
        ],
        &[
            &local_65,
            "user@example.com.",
            "user@-example.com",
            "user@[IPv6:192.0.2.1]",
            "user@[tag:anything]",
            "user@[192.0.2.256]",
            "\"unterminated@example.com",
            "\"a\"b@example.com",
            "\"tab\there\"@example.com",
            "\"bad \\\u{7f} pair\"@example.com",
            "a@b@example.com",
            "a..b@example.com",
            "jöe@example.com",
            "user@",
            "@example.com",
            "user",
        ],
    );
}

#[test]
fn hostname() {
    let label_63 = "a".repeat(63);
    let label_64 = "a".repeat(64);
    let name_253 = [
        &*"a".repeat(63),
        &"b".repeat(63),
        &"c".repeat(63),
        &"d".repeat(61),
    ]
    .join(".");
    let name_254 = format!("{name_253}e");
    check(
        StringFormat::Hostname,
        &[
            "example.com",
            "localhost",
            "3com.com",
            "a-b--c.d",
            &label_63,
            &name_253,
            // Punycode's own example label, and "bücher" (RFC 3492 7.1; RFC 5891's examples).
            "xn--egbpdaj6bu4bxfgehfvwxn",
            "XN--BCHER-KVA.example",
            // RFC 5892 A.3, MIDDLE DOT between two `l`s, and A.8's Arabic-Indic digits alone.
            "xn--ll-0ea",
            "xn--ngba1o",
        ],
        &[
            &label_64,
            &name_254,
            "",
            "example.com.",
            ".example.com",
            "-example.com",
            "example-.com",
            "exa_mple.com",
            "exa mple.com",
            "192.0.2.1",
            "xn--",
            // Punycode that does not decode, or decodes to ASCII only.
            "xn--X",
            "xn--abc-",
            "xn--zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
            // "--" in the U-label's third and fourth positions (RFC 5891 4.2.3.1).
            "xn--aa---o47jg78q",
            // ZERO WIDTH JOINER with no virama before it (RFC 5892 A.2).
            "xn--02b508i",
        ],
    );
}

#[test]
fn ipv4_and_ipv6() {
    check(
        StringFormat::Ipv4,
        &["192.0.2.1", "0.0.0.0", "255.255.255.255", "10.0.0.10"],
        &[
            "01.2.3.4",
            "1.2.3.04",
            "256.1.1.1",
            "1.2.3",
            "1.2.3.4.5",
            "1.2.3.",
            "99999999999999999999.1.1.1",
            "1.2.3.4 ",
            "0x7f.0.0.1",
        ],
    );
    // RFC 4291 2.2's examples, and the edges of `::`.
    check(
        StringFormat::Ipv6,
        &[
            "2001:DB8:0:0:8:800:200C:417A",
            "FF01:0:0:0:0:0:0:101",
            "2001:DB8::8:800:200C:417A",
            "FF01::101",
            "::1",
            "::",
            "0:0:0:0:0:0:13.1.68.3",
            "0:0:0:0:0:FFFF:129.144.52.38",
            "::13.1.68.3",
            "::ffff:1.2.3.4",
            "1:2:3:4:5:6:7::",
            "::2:3:4:5:6:7:8",
            "0001:02:3::",
        ],
        &[
            "1::2::3",
            ":::",
            "::ffff:1.2.3.04",
            "1:2:3:4:5:6:7:8:9",
            "1:2:3:4:5:6:7:8::",
            "::1:2:3:4:5:6:7:8",
            "1:2:3:4:5:6:7",
            "::1.2.3.4:1",
            "1.2.3.4::",
            "fe80::1%eth0",
            "12345::",
            "[::1]",
            "",
        ],
    );
}

#[test]
fn uri() {
    // RFC 3986 1.1.2's examples, then the edges.
    check(
        StringFormat::Uri,
        &[
            "ftp://ftp.is.co.za/rfc/rfc1808.txt",
            "http://www.ietf.org/rfc/rfc2396.txt",
            "ldap://[2001:db8::7]/c=GB?objectClass?one",
            "mailto:John.Doe@example.com",
            "news:comp.infosystems.www.servers.unix",
            "tel:+1-816-555-1212",
            "telnet://192.0.2.16:80/",
            "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
            "https://example.com/a%2Fb%20c?q=1&r=a/b?#frag/?",
            "http://[::1]:8080/x",
            "http://[v1.fe:80]/",
            "http://user:pass@host:/",
            "http://",
            "foo:",
            "a+b.c-d:x",
        ],
        &[
            "https://example.com/%zz",
            "https://example.com/%2",
            "https://example.com/a b",
            "https://example.com/ü",
            "http://a/b#c#d",
            "http://[::1",
            "http://[::1]x/",
            "http://[1.2.3.4]/",
            "http://[v1.%41]/",
            "http://host:8a/",
            "http://a@b@c/",
            "//example.com/",
            "/path",
            "1a:b",
            "",
        ],
    );
}

#[test]
fn uuid() {
    check(
        StringFormat::Uuid,
        &[
            "f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
            "F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6",
            "00000000-0000-0000-0000-000000000000",
        ],
        &[
            "{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}",
            "f81d4fae7dec11d0a76500a0c91e6bf6",
            "f81d4fae-7dec-11d0-a765-00a0c91e6bf",
            "g81d4fae-7dec-11d0-a765-00a0c91e6bf6",
            "f81d4fae-7dec-11d0-a765_00a0c91e6bf6",
        ],
    );
}

/// Hostile texts, long and odd, answered without a panic (time is for benchmarks, not tests).
#[test]
fn odd_and_long_texts() {
    let long = [
        "9".repeat(100_000),
        ":".repeat(100_000),
        "a.".repeat(50_000),
        "%".repeat(100_000),
        format!("a:{}", "/".repeat(100_000)),
        format!("P{}D", "1".repeat(100_000)),
        format!("\"{}\"@a", "\\\\".repeat(50_000)),
        format!("xn--{}", "z".repeat(100_000)),
        "é".repeat(50_000),
    ];
    let odd = [
        "",
        "\0",
        "[",
        "]",
        "@",
        "\"",
        "xn--",
        "xn---",
        "P",
        "T",
        "::",
        "%",
        "a:[",
        "a://[",
        "a://@",
        "1.",
        "..",
        "\u{FFFF}",
        "0000-00-00",
        "99:99:99Z",
    ];
    for format in StringFormat::ALL {
        for text in long.iter().map(String::as_str).chain(odd) {
            format.accepts(text);
        }
    }
}
