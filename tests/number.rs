//! `src/number.rs` against two references.
//!
//! Python's exact arithmetic: every case of `tests/number/cases.json`, which
//! `tests/number/reference.py` wrote with `decimal` and Python integers (see its header). Each
//! pair is checked both ways round, so `same_value` and `compare` are also seen to be symmetric.
//!
//! The JSON Schema Test Suite (draft 2020-12, read from
//! `../shared/conformance/JSON-Schema-Test-Suite/tests/draft2020-12`, or from the directory
//! named by `TOOL_SCHEMA_JSON_SCHEMA_TEST_SUITE`; never copied here): every test whose data is a
//! number, in a group whose schema uses only the numeric keywords, decided with this module
//! alone. `#[ignore]`d like tests/jsontestsuite.rs, and run by CI (`.ci/run`).

mod common;

use common::json::{array, get, parse, suite_dir, Value};
use std::cmp::Ordering;
use tool_schema::number::{compare, same_value, Divisor};

fn number(value: &Value) -> &[u8] {
    match value {
        Value::Number(literal) => literal,
        other => panic!("not a number: {other:?}"),
    }
}

#[test]
fn every_case_agrees_with_python() {
    let cases = parse(include_bytes!("number/cases.json"));

    let pairs = array(get(&cases, "pairs"));
    let mut same_count = 0;
    for pair in pairs {
        let [a, b, Value::Bool(same), order] = array(Some(pair)) else {
            panic!("a pair is [a, b, same, order]: {pair:?}");
        };
        let (a, b) = (number(a), number(b));
        let order = match number(order) {
            b"-1" => Ordering::Less,
            b"0" => Ordering::Equal,
            b"1" => Ordering::Greater,
            other => panic!("an order is -1, 0 or 1: {other:?}"),
        };
        let shown = |s: &[u8]| String::from_utf8_lossy(&s[..s.len().min(80)]).into_owned();
        let (sa, sb) = (shown(a), shown(b));
        assert_eq!(same_value(a, b), *same, "same_value({sa}, {sb})");
        assert_eq!(same_value(b, a), *same, "same_value({sb}, {sa})");
        assert_eq!(compare(a, b), order, "compare({sa}, {sb})");
        assert_eq!(compare(b, a), order.reverse(), "compare({sb}, {sa})");
        same_count += usize::from(*same);
    }

    let divides = array(get(&cases, "divides"));
    let mut multiples = 0;
    for triple in divides {
        let [x, d, Value::Bool(verdict)] = array(Some(triple)) else {
            panic!("a division is [x, d, verdict]: {triple:?}");
        };
        let (x, d) = (number(x), number(d));
        let shown = String::from_utf8_lossy(&x[..x.len().min(80)]).into_owned();
        let divisor = Divisor::parse(d).unwrap_or_else(|why| panic!("{d:?}: {why}"));
        assert_eq!(
            divisor.divides(x),
            *verdict,
            "{shown} (len {}) multipleOf {}",
            x.len(),
            String::from_utf8_lossy(d)
        );
        multiples += usize::from(*verdict);
    }

    let refused = array(get(&cases, "refused"));
    for d in refused {
        let d = number(d);
        let shown = String::from_utf8_lossy(&d[..d.len().min(80)]).into_owned();
        assert!(Divisor::parse(d).is_err(), "{shown} is accepted");
    }

    // The counts tests/number/reference.py prints.
    assert_eq!(
        (
            pairs.len(),
            same_count,
            divides.len(),
            multiples,
            refused.len()
        ),
        (2427, 1351, 3006, 1413, 59)
    );
}

/// A literal of 64 KiB of digits, the longest the crate reads, with the same value spelled
/// two ways, and divided: 65,536 ones are 11 times 0101...01 (an even count of ones).
#[test]
fn sixty_four_kib_of_digits() {
    let ones = "1".repeat(65536);
    let shifted = format!("{}.1e1", &ones[1..]);
    assert!(same_value(ones.as_bytes(), shifted.as_bytes()));
    let larger = format!("{}2", &ones[1..]);
    assert_eq!(compare(ones.as_bytes(), larger.as_bytes()), Ordering::Less);
    let eleven = Divisor::parse(b"11").unwrap();
    assert!(eleven.divides(ones.as_bytes()));
    assert!(!eleven.divides(&ones.as_bytes()[1..]));
    assert!(!Divisor::parse(b"1e-65535")
        .unwrap()
        .divides(format!("{ones}e-65536").as_bytes()));
    assert!(Divisor::parse(b"1e-65536")
        .unwrap()
        .divides(format!("{ones}e-65536").as_bytes()));
}

/// Whether `schema` holds a number `data`, by this module alone: `Some` when every keyword is
/// one it decides, `None` otherwise.
fn numeric_verdict(schema: &Value, data: &[u8]) -> Option<bool> {
    let Value::Object(members) = schema else {
        return None;
    };
    let mut valid = true;
    for (key, bound) in members {
        let bound_number = || match bound {
            Value::Number(literal) => Some(literal.as_slice()),
            _ => None,
        };
        valid &= match key.as_str() {
            "$schema" => true,
            "type" => match bound {
                Value::String(t) if t == "number" => true,
                Value::String(t) if t == "integer" => Divisor::parse(b"1").ok()?.divides(data),
                Value::String(_) => false,
                _ => return None,
            },
            "const" => bound_number().is_some_and(|c| same_value(c, data)),
            "enum" => match bound {
                Value::Array(items) => items
                    .iter()
                    .any(|item| matches!(item, Value::Number(n) if same_value(n, data))),
                _ => return None,
            },
            "minimum" => compare(data, bound_number()?) != Ordering::Less,
            "maximum" => compare(data, bound_number()?) != Ordering::Greater,
            "exclusiveMinimum" => compare(data, bound_number()?) == Ordering::Greater,
            "exclusiveMaximum" => compare(data, bound_number()?) == Ordering::Less,
            "multipleOf" => Divisor::parse(bound_number()?).ok()?.divides(data),
            _ => return None,
        };
    }
    Some(valid)
}

/// Every suite test whose data is a number, in a group of only numeric keywords (`type`,
/// `const`, `enum`, bounds, `multipleOf`), gets the suite's verdict; `multipleOf.json` and
/// `optional/float-overflow.json` are decided whole (their non-number data is ignored by
/// `multipleOf`, as the suite says).
#[test]
#[ignore = "reads ../shared: CI runs it"]
fn json_schema_test_suite_numbers() {
    let dir = suite_dir();
    let mut checked = Vec::new();
    let mut failures = Vec::new();
    for file in [
        "multipleOf.json",
        "optional/float-overflow.json",
        "const.json",
        "enum.json",
        "minimum.json",
        "maximum.json",
        "exclusiveMinimum.json",
        "exclusiveMaximum.json",
        "optional/bignum.json",
    ] {
        let path = dir.join(file);
        let text = std::fs::read(&path).unwrap_or_else(|err| {
            panic!(
                "JSON Schema Test Suite not found at {} ({err}); set \
                 TOOL_SCHEMA_JSON_SCHEMA_TEST_SUITE to its tests/draft2020-12 directory",
                path.display()
            )
        });
        let whole = matches!(file, "multipleOf.json" | "optional/float-overflow.json");
        let mut count = 0;
        for group in array(Some(&parse(&text))) {
            let schema = get(group, "schema").expect("a schema");
            for test in array(get(group, "tests")) {
                let Some(Value::Bool(valid)) = get(test, "valid") else {
                    panic!("a test without a verdict");
                };
                let verdict = match get(test, "data") {
                    Some(Value::Number(data)) => numeric_verdict(schema, data),
                    // multipleOf ignores what is not a number.
                    Some(_) if whole => Some(true),
                    _ => None,
                };
                let Some(verdict) = verdict else {
                    assert!(!whole, "{file}: a test not decided");
                    continue;
                };
                count += 1;
                if verdict != *valid {
                    failures.push(format!("{file}: {group:?} on {test:?}"));
                }
            }
        }
        checked.push((file, count));
    }
    assert!(
        failures.is_empty(),
        "wrong verdicts:\n{}",
        failures.join("\n")
    );
    assert_eq!(
        checked,
        [
            ("multipleOf.json", 11),
            ("optional/float-overflow.json", 1),
            ("const.json", 20),
            ("enum.json", 12),
            ("minimum.json", 9),
            ("maximum.json", 7),
            ("exclusiveMinimum.json", 3),
            ("exclusiveMaximum.json", 3),
            ("optional/bignum.json", 9),
        ],
        "not the suite's draft 2020-12 tests, or they changed"
    );
}
