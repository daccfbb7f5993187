//! The tokenizer's verdict (valid JSON or not) against serde_json's, on every input.
//!
//! serde_json parses into a `Value`, not `IgnoredAny`: it skips UTF-8 and surrogate checks in
//! strings it ignores. Its `arbitrary_precision` feature is on, so numbers too large for an f64
//! are valid, as RFC 8259 says they are.
//!
//! The only differences allowed are this crate's documented limits, where it refuses what
//! serde_json accepts:
//! - `too_deep`: nesting deeper than 64 (serde_json allows 128);
//! - `too_large`: input over 64 KiB (serde_json has no limit).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let ours = tool_schema::tokenizer::validate(data);
    let theirs = serde_json::from_slice::<serde_json::Value>(data);
    match (&ours, &theirs) {
        (Ok(()), Ok(_)) | (Err(_), Err(_)) => {}
        (Err(err), Ok(_)) if matches!(err.code(), "too_deep" | "too_large") => {}
        _ => panic!(
            "verdicts differ on {:?}: ours {ours:?}, serde_json {:?}",
            String::from_utf8_lossy(data),
            theirs.map(|_| ())
        ),
    }
});
