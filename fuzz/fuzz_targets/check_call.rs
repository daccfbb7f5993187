//! `check_call`'s verdict against the `jsonschema` crate's, over the compiled-in catalog
//! (`TOOL_SCHEMA_CATALOG` when the target is built): the generator, the reference and every
//! rule compared are in `calls_shared.rs`.
#![no_main]

#[path = "calls_shared.rs"]
mod shared;

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use tool_schema::catalog::TOOLS;

fn subject() -> &'static shared::Subject {
    static SUBJECT: OnceLock<shared::Subject> = OnceLock::new();
    SUBJECT.get_or_init(|| {
        shared::Subject::new(
            "the compiled-in catalog",
            &|tool| TOOLS[tool].flat,
            Box::new(tool_schema::respond),
        )
    })
}

fuzz_target!(|data: &[u8]| shared::check(subject(), data));
