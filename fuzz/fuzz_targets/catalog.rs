//! Arbitrary bytes through the catalog reader, as `build.rs` runs it: it never panics; every
//! refusal carries an RFC 6901 JSON Pointer and a one-line rule; a catalog it accepts can be
//! turned into tables, and what it accepted obeys the rules it checks.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tool_schema::catalog_file::{model, read, rust_tables, NodeSpec, MAX_DESCRIPTION};

fuzz_target!(|data: &[u8]| {
    match read(data) {
        Err(err) => {
            assert!(
                err.pointer.is_empty() || err.pointer.starts_with('/'),
                "not a JSON Pointer: {:?}",
                err.pointer
            );
            let message = err.to_string();
            assert!(
                !err.rule.is_empty() && !message.contains('\n'),
                "{message:?}"
            );
        }
        Ok(catalog) => {
            assert!(!catalog.tools.is_empty());
            for (i, tool) in catalog.tools.iter().enumerate() {
                assert!(tool.description.len() <= MAX_DESCRIPTION);
                assert!(!(tool.read_only && tool.destructive));
                assert!(catalog.tools[..i].iter().all(|t| t.name != tool.name));
                assert_eq!(tool.input.ty, "object");
                check(&tool.input);
            }
            let tables = rust_tables(&model(&catalog), "fuzz");
            assert!(tables.starts_with("// Generated"));
        }
    }
});

/// Properties sorted and unique, required ones among them, arrays with items.
fn check(node: &NodeSpec) {
    assert!(node
        .properties
        .windows(2)
        .all(|pair| pair[0].0.as_bytes() < pair[1].0.as_bytes()));
    assert_eq!(node.ty == "array", node.items.is_some());
    for (_, _, schema) in &node.properties {
        check(schema);
    }
    if let Some(items) = &node.items {
        check(items);
    }
}
