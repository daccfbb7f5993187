//! Arbitrary bytes through the catalog reader, as `build.rs` runs it: it never panics; every
//! refusal carries an RFC 6901 JSON Pointer and a one-line rule; a catalog it accepts can be
//! turned into tables, and what it accepted obeys the rules it checks. Reading each tool
//! alone (`read_each_tool`, as build.rs does) lists the strict read's refusal first, every
//! violation on one line with its pointer, and accepts what the strict read accepts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tool_schema::catalog_file::{read, read_each_tool, rust_tables, MAX_VIOLATIONS};
use tool_schema::schema::{Model, Type};

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
            match read_each_tool(data) {
                Ok((catalog, refused)) => {
                    // A refusal names its tool, but for an entry that is no object, which has
                    // none (its pointer is then the entry's, within the document).
                    assert!(
                        (err.tool.is_some() || err.rule.starts_with("a tool must be an object"))
                            && refused[0] == err,
                        "{err} / {refused:?}"
                    );
                    assert!(refused.len() <= MAX_VIOLATIONS * 1024 && !catalog.tools.is_empty());
                    for refusal in &refused {
                        assert!(refusal.pointer.is_empty() || refusal.pointer.starts_with('/'));
                        assert!(!refusal.rule.is_empty() && !refusal.to_string().contains('\n'));
                    }
                }
                // No tool passed (the first one's first violation), no catalog at all, or two
                // of the tools that pass share a name, which the strict read never reached.
                Err(each) => assert!(
                    each == err || each.rule.contains("is already the name of"),
                    "{each} / {err}"
                ),
            }
        }
        Ok(catalog) => {
            let (each, refused) = read_each_tool(data).expect("the strict read took it");
            assert!(refused.is_empty() && each.tools.len() == catalog.tools.len());
            let model = catalog.model();
            assert!(!model.tools.is_empty());
            for (i, tool) in model.tools.iter().enumerate() {
                assert!(!(tool.hints.read_only && tool.hints.destructive));
                assert!((0..i).all(|t| model.name(t) != model.name(i)));
                assert!(model.input(tool).types.has(Type::Object));
            }
            for node in 0..model.nodes.len() {
                check(model, node);
            }
            let tables = rust_tables(&catalog, "fuzz");
            assert!(tables.starts_with("// Generated"));
        }
    }
});

/// Properties sorted and unique, every node a node names within the table.
fn check(model: Model<'_>, node: usize) {
    let node = &model.nodes[node];
    let properties = model.properties(node);
    assert!(properties
        .windows(2)
        .all(|pair| model.str(pair[0].name).as_bytes() < model.str(pair[1].name).as_bytes()));
    for child in model.children(node) {
        assert!((child as usize) < model.nodes.len());
    }
}
