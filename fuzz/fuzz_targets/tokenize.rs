//! Arbitrary bytes through the tokenizer: it never panics, and its tokens keep their promises.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tool_schema::tokenizer::{Kind, Tokenizer};
use tool_schema::MAX_DEPTH;

fuzz_target!(|data: &[u8]| {
    let mut tokens = Tokenizer::new(data);
    let mut end = 0;
    loop {
        match tokens.next() {
            Ok(Some(token)) => {
                // Tokens come in order, lie inside the input, and say what they are.
                assert!(token.at >= end);
                end = token.at + token.raw.len();
                assert_eq!(&data[token.at..end], token.raw);
                assert!(tokens.depth() <= MAX_DEPTH);
                match token.kind {
                    Kind::Key | Kind::String => {
                        assert!(
                            token.raw.len() >= 2
                                && token.raw[0] == b'"'
                                && token.raw[token.raw.len() - 1] == b'"'
                        );
                        assert!(
                            std::str::from_utf8(token.raw).is_ok(),
                            "a string token that is not UTF-8"
                        );
                    }
                    Kind::ObjectStart => assert_eq!(token.raw, b"{"),
                    Kind::ArrayStart => assert_eq!(token.raw, b"["),
                    _ => {}
                }
            }
            Ok(None) => {
                assert_eq!(tokens.depth(), 0);
                assert_eq!(tokens.next(), Ok(None), "an ended tokenizer stays ended");
                break;
            }
            Err(err) => {
                assert!(matches!(
                    err.code(),
                    "malformed_json" | "too_deep" | "too_large"
                ));
                assert!(err
                    .offset()
                    .is_some_and(|at| at <= data.len().max(tool_schema::MAX_INPUT)));
                assert_eq!(tokens.next(), Err(err), "an error is returned again");
                break;
            }
        }
    }
});
