//! Accept and reject rows for the tokenizer, written by hand from RFC 8259's grammar.

use tool_schema::tokenizer::{validate, Kind, Tokenizer};

/// Documents the RFC accepts.
const ACCEPT: &[&[u8]] = &[
    b"{}",
    b"[]",
    b"0",
    b"-0",
    b"-0.0e-0",
    b"1e5",
    b"1E+5",
    b"123.456e-789",
    b"-9223372036854775809",
    b"1e99999",
    b"true",
    b"false",
    b"null",
    b"\"\"",
    b" \t\r\n{ \t\r\n\"a\" \t\r\n: \t\r\n[ 1 , 2 ] \t\r\n} \t\r\n",
    b"\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u0000 \\uFFFF \\uabcd\"",
    b"\"\\uD83D\\uDE00\"",
    b"\"\\ud800\\udc00\"",
    b"\"\\uDBFF\\uDFFF\"",
    "\"é ü 中 😀 \u{7f} \u{80} \u{7ff} \u{800} \u{ffff} \u{10000} \u{10ffff}\"".as_bytes(),
    b"\"\xEF\xBF\xBE\"", // U+FFFE: a noncharacter, but valid UTF-8 and valid JSON
    b"{\"a\":{\"a\":{\"a\":[]}},\"a\":1}", // duplicate keys are JSON; the request reader refuses them
    // Found by the differential fuzz target: serde_json with `arbitrary_precision` refuses this,
    // reading its internal number marker as a number. It is plain, valid JSON.
    b"{\"$serde_json::private::Number\":\"4e-/\"}",
    b"1e400",
    b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
];

/// Documents the RFC rejects, with the offset of the first bad byte.
const REJECT: &[(&[u8], usize)] = &[
    (b"", 0),
    (b"   ", 3),
    (b"{", 1),
    (b"[", 1),
    (b"}", 0),
    (b"]", 0),
    (b"{]", 1),
    (b"[}", 1),
    (b"[1,]", 3),
    (b"[,1]", 1),
    (b"{\"a\":1,}", 7),
    (b"{\"a\" 1}", 5),
    (b"{\"a\":}", 5),
    (b"{a:1}", 1),
    (b"{'a':1}", 1),
    (b"{1:1}", 1),
    (b"[1 2]", 3),
    (b"{}{}", 2),
    (b"{} x", 3),
    (b"1 2", 2),
    (b"01", 1),
    (b"-01", 2),
    (b"-", 1),
    (b"-a", 1),
    (b"+1", 0),
    (b".5", 0),
    (b"1.", 2),
    (b"1.e5", 2),
    (b"1e", 2),
    (b"1e+", 3),
    (b"0x10", 1),
    (b"NaN", 0),
    (b"Infinity", 0),
    (b"tru", 3),
    (b"truE", 3),
    (b"nul", 3),
    (b"fals", 4),
    (b"True", 0),
    (b"\"", 1),
    (b"\"abc", 4),
    (b"\"\\\"", 3),
    (b"\"\\x\"", 2),
    (b"\"\\u12\"", 5),
    (b"\"\\u12G4\"", 5),
    (b"\"\\uD800\"", 7),
    (b"\"\\uD800\\n\"", 7),
    (b"\"\\uD800\\uD800\"", 7),
    (b"\"\\uDC00\"", 1),
    (b"\"\\uDFFF\\uD800\"", 1),
    (b"\"a\nb\"", 2),
    (b"\"\t\"", 1),
    (b"\"\x00\"", 1),
    (b"\"\x1F\"", 1),
    (b"\"\x80\"", 1),             // a continuation byte alone
    (b"\"\xC0\xAF\"", 1),         // overlong '/'
    (b"\"\xC1\xBF\"", 1),         // overlong
    (b"\"\xE0\x80\xAF\"", 1),     // overlong, three bytes
    (b"\"\xF0\x80\x80\xAF\"", 1), // overlong, four bytes
    (b"\"\xED\xA0\x80\"", 1),     // an encoded high surrogate
    (b"\"\xED\xBF\xBF\"", 1),     // an encoded low surrogate
    (b"\"\xF4\x90\x80\x80\"", 1), // past U+10FFFF
    (b"\"\xF5\x80\x80\x80\"", 1), // a lead byte that never occurs
    (b"\"\xFF\"", 1),
    (b"\"\xC3\"", 1),       // truncated at the quote
    (b"\"\xE2\x82\"", 1),   // truncated
    (b"\xEF\xBB\xBF{}", 0), // a byte order mark
    (b"\xC3\xA9", 0),       // non-ASCII outside a string
    (b"{\"a\":1}\x00", 7),
    (b"\x00", 0),
    (b"\x0C{}", 0), // form feed is not JSON whitespace
    (b"\xA0{}", 0),
    (b"[1]]", 3),
    (b"/* */ {}", 0),
];

#[test]
fn accepts_what_the_rfc_accepts() {
    for &input in ACCEPT {
        if let Err(err) = validate(input) {
            panic!("{:?} rejected: {err}", String::from_utf8_lossy(input));
        }
    }
}

#[test]
fn rejects_what_the_rfc_rejects_at_the_first_bad_byte() {
    for &(input, offset) in REJECT {
        let shown = String::from_utf8_lossy(input);
        let err = validate(input).expect_err(&format!("{shown:?} accepted"));
        assert_eq!(err.code(), "malformed_json", "{shown:?}: {err}");
        assert_eq!(err.offset(), Some(offset), "{shown:?}: {err}");
    }
}

#[test]
fn depth_limit_is_64_for_arrays_objects_and_mixtures() {
    for depth in 1..=70 {
        let arrays = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let objects = format!("{}0{}", "{\"k\":".repeat(depth), "}".repeat(depth));
        let mixed: String = (0..depth)
            .map(|d| if d % 2 == 0 { "[" } else { "{\"k\":" })
            .collect::<String>()
            + "1"
            + &(0..depth)
                .rev()
                .map(|d| if d % 2 == 0 { "]" } else { "}" })
                .collect::<String>();
        for doc in [arrays, objects, mixed] {
            let verdict = validate(doc.as_bytes());
            if depth <= 64 {
                assert_eq!(verdict, Ok(()), "depth {depth}: {doc}");
            } else {
                let err = verdict.unwrap_err();
                assert_eq!(err.code(), "too_deep", "depth {depth}");
            }
        }
    }
}

#[test]
fn too_deep_is_reported_at_the_65th_opening() {
    let doc = format!("  {}", "[".repeat(60_000));
    let err = validate(doc.as_bytes()).unwrap_err();
    assert_eq!((err.code(), err.offset()), ("too_deep", Some(2 + 64)));
}

#[test]
fn size_limit_is_64_kib() {
    let fits = format!("\"{}\"", "a".repeat(tool_schema::MAX_INPUT - 2));
    assert_eq!(validate(fits.as_bytes()), Ok(()));
    let over = format!("\"{}\"", "a".repeat(tool_schema::MAX_INPUT - 1));
    assert_eq!(validate(over.as_bytes()).unwrap_err().code(), "too_large");
    // The limit is checked before anything is read: garbage over the limit is still too_large.
    let garbage = vec![0xFF; tool_schema::MAX_INPUT + 1];
    assert_eq!(validate(&garbage).unwrap_err().code(), "too_large");
}

#[test]
fn tokens_carry_kind_offset_and_raw_bytes() {
    let input = br#" {"a\n": [1, -2.5e3, "x", true, false, null, {}]} "#;
    let mut tokens = Tokenizer::new(input);
    let mut seen = Vec::new();
    while let Some(token) = tokens.next().unwrap() {
        seen.push((
            token.kind,
            token.at,
            String::from_utf8(token.raw.to_vec()).unwrap(),
        ));
    }
    let want = [
        (Kind::ObjectStart, 1, "{"),
        (Kind::Key, 2, r#""a\n""#),
        (Kind::ArrayStart, 9, "["),
        (Kind::Number, 10, "1"),
        (Kind::Number, 13, "-2.5e3"),
        (Kind::String, 21, "\"x\""),
        (Kind::True, 26, "true"),
        (Kind::False, 32, "false"),
        (Kind::Null, 39, "null"),
        (Kind::ObjectStart, 45, "{"),
        (Kind::ObjectEnd, 46, "}"),
        (Kind::ArrayEnd, 47, "]"),
        (Kind::ObjectEnd, 48, "}"),
    ];
    let want: Vec<_> = want
        .iter()
        .map(|&(k, at, raw)| (k, at, raw.to_string()))
        .collect();
    assert_eq!(seen, want);
    assert_eq!(tokens.next(), Ok(None), "stays ended");
}

#[test]
fn an_error_is_returned_again_not_skipped() {
    let mut tokens = Tokenizer::new(b"[1 x]");
    assert!(tokens.next().unwrap().is_some());
    assert!(tokens.next().unwrap().is_some());
    let first = tokens.next().unwrap_err();
    assert_eq!(tokens.next().unwrap_err(), first);
}

#[test]
fn messages_give_offset_line_column_and_what_was_found() {
    let err = validate(b"{\n  \"op\" \"x\"}").unwrap_err();
    assert_eq!(
        err.to_string(),
        "expected ':' after object key, found '\"' at byte 9 (line 2, column 8)"
    );
    let err = validate(b"[1,\n\xFF]").unwrap_err();
    assert_eq!(
        err.to_string(),
        "expected a value, found byte 0xff at byte 4 (line 2, column 1)"
    );
    let err = validate(b"[").unwrap_err();
    assert_eq!(
        err.to_string(),
        "expected a value or ']', found end of input at byte 1 (line 1, column 2)"
    );
}
