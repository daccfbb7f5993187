//! The tokenizer's verdict (valid JSON or not) against serde_json's, on every input.
//!
//! serde_json parses into a `Value`, not `IgnoredAny`: it skips UTF-8 and surrogate checks in
//! strings it ignores.
//!
//! The differences allowed are the two sides' documented limits, nothing else:
//! - this crate's `too_deep`: nesting deeper than 64 (serde_json allows 128);
//! - this crate's `too_large`: input over 64 KiB (serde_json has no limit);
//! - serde_json's number range: it refuses a number whose value overflows an f64 ("number out
//!   of range", e.g. `1e400`), a limit RFC 8259 section 9 allows a parser to set. This crate
//!   never reads a number's value, so it accepts every number the grammar allows.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let ours = tool_schema::tokenizer::validate(data);
    let theirs = serde_json::from_slice::<serde_json::Value>(data);
    match (&ours, &theirs) {
        (Ok(()), Ok(_)) | (Err(_), Err(_)) => {}
        (Err(err), Ok(_)) if matches!(err.code(), "too_deep" | "too_large") => {}
        (Ok(()), Err(err)) if err.to_string().starts_with("number out of range") => {}
        _ => panic!(
            "verdicts differ on {:?}: ours {ours:?}, serde_json {:?}",
            String::from_utf8_lossy(data),
            theirs.map(|_| ())
        ),
    }
});
