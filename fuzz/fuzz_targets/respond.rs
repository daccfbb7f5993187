//! Arbitrary bytes through `respond`: it never panics; a declaration or a tool choice is one of
//! the golden files, byte for byte (a `tool_list` that skips what its shape cannot declare
//! holds one), and a `check_call` (or `check_turn`) answer is one line of
//! JSON with a verdict (or a list of them); an error wrote nothing and carries a documented
//! code. (Debug builds also check every call that the quick
//! path answers against the general path, byte for byte.)
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

/// Every answer there is, read once from the repository's golden files: the declarations
/// (`tests/golden`) and the tool choices (`tests/tool_choice`, whose `.error` files hold a code,
/// which no answer equals).
fn goldens() -> &'static Vec<Vec<u8>> {
    static GOLDENS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    GOLDENS.get_or_init(|| {
        let mut all = Vec::new();
        for (dir, files) in [("golden", 36), ("tool_choice", 108)] {
            let dir = format!("{}/../tests/{dir}", env!("CARGO_MANIFEST_DIR"));
            let before = all.len();
            for format in std::fs::read_dir(&dir).expect(&dir) {
                for file in std::fs::read_dir(format.unwrap().path()).unwrap() {
                    all.push(std::fs::read(file.unwrap().path()).unwrap());
                }
            }
            assert_eq!(all.len() - before, files, "the golden files in {dir}");
        }
        all
    })
}

const CODES: &[&str] = &[
    "malformed_json",
    "too_deep",
    "too_large",
    "not_an_object",
    "duplicate_field",
    "unknown_field",
    "missing_field",
    "wrong_type",
    "unknown_op",
    "unknown_tool",
    "unknown_format",
    "unsupported",
];

fuzz_target!(|data: &[u8]| {
    let mut out = Vec::new();
    match tool_schema::respond(data, &mut out) {
        Ok(()) if out.starts_with(b"{\"arguments\":") || out.starts_with(b"{\"errors\":") => {
            assert!(out.ends_with(b"}\n"), "one line");
            assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 1, "one line");
            let answer: serde_json::Value = serde_json::from_slice(&out).expect("JSON");
            let ok = answer["ok"].as_bool().expect("a verdict");
            assert_eq!(ok, answer.get("arguments").is_some());
            assert_eq!(
                !ok,
                answer.get("errors").is_some() && answer.get("reply").is_some()
            );
        }
        Ok(()) if out.starts_with(b"{\"calls\":[") => {
            // A turn's verdicts: one line, each element a verdict.
            assert!(out.ends_with(b"]}\n"), "one line");
            assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 1, "one line");
            let answer: serde_json::Value = serde_json::from_slice(&out).expect("JSON");
            for verdict in answer["calls"].as_array().expect("calls") {
                let ok = verdict["ok"].as_bool().expect("a verdict");
                assert_eq!(ok, verdict.get("arguments").is_some());
            }
        }
        Ok(()) if out.starts_with(b"{\"skipped\":[") => {
            // `skip_unsupported`: the default catalog's shapes declare every tool, so the
            // list is the plain list's golden, as a member.
            let list = out
                .strip_prefix(b"{\"skipped\":[],\"tools\":")
                .and_then(|rest| rest.strip_suffix(b"}\n"))
                .expect("nothing skipped, one line");
            let mut list = list.to_vec();
            list.push(b'\n');
            assert!(goldens().contains(&list), "a list that is no golden file");
        }
        Ok(()) => assert!(goldens().contains(&out), "an answer that is no golden file"),
        Err(err) => {
            assert!(out.is_empty(), "wrote before failing");
            assert!(
                CODES.contains(&err.code()),
                "undocumented code {}",
                err.code()
            );
            let message = err.to_string();
            assert!(
                !message.is_empty() && !message.contains('\n'),
                "one-line message"
            );
        }
    }
});
