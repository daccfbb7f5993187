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

/// RFC 8259's grammar, production by production: what the tables above leave out, so that a
/// fresh clone, with no JSONTestSuite beside it, still checks every rule the grammar names.
/// Each row is `(document, Ok(()))` or `(document, Err(offset of the first bad byte))`.
const GRAMMAR: &[(&str, &[u8], Result<(), usize>)] = &[
    // JSON-text = ws value ws; every value may stand alone.
    ("text: a lone number", b" 7 ", Ok(())),
    ("text: a lone string", b"\t\"s\"\n", Ok(())),
    ("text: a lone literal", b"\r\nnull\r\n", Ok(())),
    ("text: two values", b"null null", Err(5)),
    ("text: a value after a container", b"[]0", Err(2)),
    // ws = *( %x20 / %x09 / %x0A / %x0D ), allowed around every structural character.
    ("ws: each byte before a value", b" \t\n\r1", Ok(())),
    ("ws: each byte after a value", b"1 \t\n\r", Ok(())),
    ("ws: around [ , ]", b" [ 1 , 2 ] ", Ok(())),
    ("ws: around { : , }", b" { \"a\" : 1 , \"b\" : 2 } ", Ok(())),
    ("ws: none at all", b"{\"a\":[1,{\"b\":null}]}", Ok(())),
    ("ws: vertical tab is not", b"\x0B1", Err(0)),
    ("ws: form feed inside", b"[1,\x0C2]", Err(3)),
    ("ws: U+00A0 encoded is not", b"[\xC2\xA01]", Err(1)),
    ("ws: U+2028 encoded is not", b"[1\xE2\x80\xA8]", Err(2)),
    ("ws: NUL is not", b"[1\x00]", Err(2)),
    // value = false / null / true / object / array / number / string; literals are lower case.
    ("literal: true", b"[true]", Ok(())),
    ("literal: false", b"[false]", Ok(())),
    ("literal: null", b"[null]", Ok(())),
    ("literal: upper case", b"[NULL]", Err(1)),
    ("literal: mixed case", b"[fAlse]", Err(2)),
    ("literal: cut short in an array", b"[nul]", Err(4)),
    ("literal: run on", b"[truex]", Err(5)),
    ("literal: run on at the end", b"nulll", Err(4)),
    ("literal: undefined is none", b"[undefined]", Err(1)),
    // object = begin-object [ member *( value-separator member ) ] end-object
    // member = string name-separator value
    ("object: empty", b"{}", Ok(())),
    ("object: one member", b"{\"a\":1}", Ok(())),
    (
        "object: members of every kind",
        br#"{"a":{},"b":[],"c":"","d":0,"e":true,"f":false,"g":null}"#,
        Ok(()),
    ),
    ("object: an empty key", b"{\"\":0}", Ok(())),
    ("object: an escaped key", b"{\"\\u0061\\n\":0}", Ok(())),
    ("object: a comma after the key", b"{\"a\",1}", Err(4)),
    ("object: two colons", b"{\"a\"::1}", Err(5)),
    (
        "object: a key without a value at the end",
        b"{\"a\"}",
        Err(4),
    ),
    (
        "object: a second key without a value",
        b"{\"a\":1,\"b\"}",
        Err(10),
    ),
    (
        "object: no comma between members",
        b"{\"a\":1 \"b\":2}",
        Err(7),
    ),
    ("object: two commas", b"{\"a\":1,,\"b\":2}", Err(7)),
    ("object: a comma first", b"{,}", Err(1)),
    ("object: a comma alone after a member", b"{\"a\":1,", Err(7)),
    ("object: an array key", b"{[]:1}", Err(1)),
    ("object: a literal key", b"{null:1}", Err(1)),
    ("object: closed by ]", b"{\"a\":1]", Err(6)),
    ("object: unclosed", b"{\"a\":1", Err(6)),
    // array = begin-array [ value *( value-separator value ) ] end-array
    ("array: empty", b"[]", Ok(())),
    (
        "array: values of every kind",
        br#"[{},[],"",0,true,false,null]"#,
        Ok(()),
    ),
    ("array: nested empties", b"[[],[[]],{}]", Ok(())),
    ("array: two commas", b"[1,,2]", Err(3)),
    ("array: a comma alone", b"[,]", Err(1)),
    ("array: a member inside", b"[\"a\":1]", Err(4)),
    ("array: closed by }", b"[1}", Err(2)),
    ("array: an inner one closed by }", b"[[}]", Err(2)),
    ("array: unclosed inside an object", b"{\"a\":[}", Err(6)),
    ("array: unclosed", b"[1,2", Err(4)),
    // number = [ minus ] int [ frac ] [ exp ]; int = zero / ( digit1-9 *DIGIT )
    ("number: zero", b"0", Ok(())),
    ("number: minus zero", b"-0", Ok(())),
    (
        "number: each digit 1-9 leading",
        b"[1,2,3,4,5,6,7,8,9]",
        Ok(()),
    ),
    ("number: digits after 1-9", b"[10,99,1234567890]", Ok(())),
    ("number: negative", b"[-1,-10,-0.5]", Ok(())),
    ("number: frac", b"[0.0,1.5,0.0001,10.01]", Ok(())),
    (
        "number: exp, each e and sign",
        b"[1e1,1E1,1e+1,1E+1,1e-1,1E-1,0e0,0E-0]",
        Ok(()),
    ),
    ("number: exp with leading zeros", b"1e007", Ok(())),
    ("number: frac and exp", b"-1.5e+10", Ok(())),
    ("number: a plus sign", b"+0", Err(0)),
    ("number: two minus signs", b"--1", Err(1)),
    ("number: minus then space", b"- 1", Err(1)),
    (
        "number: leading zero before frac is fine, two are not",
        b"00.5",
        Err(1),
    ),
    ("number: minus then a point", b"-.5", Err(1)),
    ("number: two points", b"1.5.5", Err(3)),
    ("number: a point in the exponent", b"1e5.0", Err(3)),
    ("number: two exponent signs", b"1e+-5", Err(3)),
    ("number: two e", b"1ee5", Err(2)),
    ("number: an exponent without int", b"e5", Err(0)),
    ("number: a frac without digits before e", b"1.e5", Err(2)),
    ("number: a digit separator", b"1_000", Err(1)),
    ("number: hex digits", b"0xFF", Err(1)),
    ("number: a letter after", b"[1a]", Err(2)),
    // string = quotation-mark *char quotation-mark
    // unescaped = %x20-21 / %x23-5B / %x5D-10FFFF
    ("string: the unescaped edges", b"\" !#[]~\x7F\"", Ok(())),
    (
        "string: U+0080, U+07FF, U+0800, U+FFFF",
        "\"\u{80}\u{7ff}\u{800}\u{ffff}\"".as_bytes(),
        Ok(()),
    ),
    (
        "string: U+E000, U+10000, U+10FFFF",
        "\"\u{e000}\u{10000}\u{10ffff}\"".as_bytes(),
        Ok(()),
    ),
    ("string: U+001F raw", b"\"\x1F\"", Err(1)),
    ("string: tab raw", b"[\"a\tb\"]", Err(3)),
    ("string: carriage return raw", b"\"\r\"", Err(1)),
    ("string: single quotes", b"'a'", Err(0)),
    ("string: unclosed at an escape", b"\"\\", Err(2)),
    // escape = %x5C ( %x22 / %x5C / %x2F / %x62 / %x66 / %x6E / %x72 / %x74 / %x75 4HEXDIG )
    ("escape: \\\"", b"\"\\\"\"", Ok(())),
    ("escape: \\\\", b"\"\\\\\"", Ok(())),
    ("escape: \\/", b"\"\\/\"", Ok(())),
    ("escape: \\b", b"\"\\b\"", Ok(())),
    ("escape: \\f", b"\"\\f\"", Ok(())),
    ("escape: \\n", b"\"\\n\"", Ok(())),
    ("escape: \\r", b"\"\\r\"", Ok(())),
    ("escape: \\t", b"\"\\t\"", Ok(())),
    (
        "escape: \\u, every hex digit in both cases",
        b"\"\\u0123\\u4567\\u89ab\\ucdef\\u89AB\\uCDEF\\uAbCd\"",
        Ok(()),
    ),
    ("escape: \\u0000", b"\"\\u0000\"", Ok(())),
    (
        "escape: a surrogate pair, mixed case",
        b"\"\\uD834\\udd1e\"",
        Ok(()),
    ),
    ("escape: \\a", b"\"\\a\"", Err(2)),
    ("escape: \\'", b"\"\\'\"", Err(2)),
    ("escape: \\0", b"\"\\0\"", Err(2)),
    ("escape: \\x41", b"\"\\x41\"", Err(2)),
    ("escape: \\U0041", b"\"\\U0041\"", Err(2)),
    ("escape: \\ then a space", b"\"\\ \"", Err(2)),
    ("escape: \\u with three digits", b"\"\\u004\"", Err(6)),
    ("escape: \\u with a non-hex digit", b"\"\\u00g0\"", Err(5)),
    ("escape: \\u cut by the end", b"\"\\u00", Err(5)),
    ("escape: \\u with a sign", b"\"\\u+041\"", Err(3)),
];

#[test]
fn every_production_of_the_grammar() {
    let mut wrong = Vec::new();
    for &(what, input, want) in GRAMMAR {
        let got = validate(input).map_err(|err| {
            assert_eq!(err.code(), "malformed_json", "{what}: {err}");
            err.offset().unwrap()
        });
        if got != want {
            let shown = String::from_utf8_lossy(input);
            wrong.push(format!("{what}: {shown:?}: got {got:?}, want {want:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Each escape and each hex digit is read as the character it names, not only accepted: a
/// key compared after decoding shows it.
#[test]
fn escapes_decode_to_what_they_name() {
    for (escaped, plain) in [
        (r#"{"op":"tool\u005flist"}"#, "tool_list"),
        (r#"{"op":"tool\u005Flist"}"#, "tool_list"),
        (r#"{"op":"\u0074ool_list"}"#, "tool_list"),
        (r#"{"op":"tool_lis\u0074"}"#, "tool_list"),
        (r#"{"\u006fp":"tool_list"}"#, "tool_list"),
    ] {
        let mut a = Vec::new();
        let mut b = Vec::new();
        tool_schema::respond(escaped.as_bytes(), &mut a).unwrap();
        tool_schema::respond(format!(r#"{{"op":"{plain}"}}"#).as_bytes(), &mut b).unwrap();
        assert_eq!(a, b, "{escaped}");
    }
    // The other short escapes never spell a name, so they must not match one.
    for escaped in [r#"{"op":"tool_list\/"}"#, r#"{"op":"tool_list\n"}"#] {
        let err = tool_schema::respond(escaped.as_bytes(), &mut Vec::new()).unwrap_err();
        assert_eq!(err.code(), "unknown_op", "{escaped}");
    }
}

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
