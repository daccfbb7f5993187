//! Arbitrary bytes as a catalog read at run time (`RuntimeCatalog`, what `--catalog` and a
//! stream's `use_catalog` read), then answered: it never panics; a refusal is the reader's one
//! line; a catalog it reads answers every `tool_schema`, `tool_list` and a `check_call` of each
//! tool in every shape with one line of JSON or an error of one line; each `tool_list` is its
//! tools' `tool_schema` answers joined; and the catalog's own `mcp` list, read again, gives
//! every answer byte for byte. A file that the strict read refuses for a tool is read again
//! with bad tools left out (`BadTool::IsLeftOut`): every refusal is a line of that tool's, and
//! what is left answers byte for byte what the file of the kept tools alone answers.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::value::RawValue;
use serde_json::Value;
use std::collections::BTreeMap;
use tool_schema::{BadTool, RuntimeCatalog, Shape};

fuzz_target!(|data: &[u8]| {
    let catalog = match RuntimeCatalog::from_bytes(data) {
        Ok(catalog) => catalog,
        Err(err) => {
            let line = err.to_string();
            assert!(!line.contains('\n') && !err.rule.is_empty(), "{line:?}");
            left_out(data, &err);
            return;
        }
    };
    let loose = RuntimeCatalog::load(data, BadTool::IsLeftOut).expect("the strict read took it");
    assert!(loose.refused().is_empty() && loose.len() == catalog.len());
    let answers = every_answer(&catalog);
    let mut list = Vec::new();
    catalog
        .respond(br#"{"op":"tool_list","format":"mcp"}"#, &mut list)
        .expect("the mcp shape writes every tool");
    let again = RuntimeCatalog::from_bytes(&list).expect("the mcp list is a catalog");
    same_answers(&answers, &every_answer(&again), "the mcp list");
});

/// A file the strict read refused with `strict`, read with bad tools left out.
fn left_out(data: &[u8], strict: &tool_schema::CatalogError) {
    let loose = match RuntimeCatalog::load(data, BadTool::IsLeftOut) {
        Ok(loose) => loose,
        Err(err) => {
            // No catalog at all: the same refusal as the strict read's where it is the
            // document's, or the first tool's first violation when every tool was refused.
            if strict.tool.is_none() {
                assert_eq!(&err, strict);
            }
            return;
        }
    };
    // The strict read stops at the first violation, which the loose one lists first.
    let refused = loose.refused();
    assert!(
        !refused.is_empty() && &refused[0] == strict,
        "{strict} / {refused:?}"
    );
    for refusal in refused {
        assert!(refusal.tool.is_some() && !refusal.to_string().contains('\n'));
    }
    assert!(refused.len() <= 1024 * tool_schema::catalog_file::MAX_VIOLATIONS);
    // The kept tools alone, as their own bytes, where serde_json can say which they are: every
    // entry named, each name once.
    let Some(entries) = tools_array(data) else {
        return;
    };
    let names: Vec<Option<String>> = (entries.iter())
        .map(|entry| {
            let value: Value = serde_json::from_str(entry.get()).ok()?;
            value.get("name")?.as_str().map(str::to_string)
        })
        .collect();
    let kept = kept_names(&loose);
    let named_once = names.iter().enumerate().all(|(i, name)| {
        name.as_ref()
            .is_some_and(|n| !names[..i].contains(&Some(n.clone())))
    });
    if !named_once {
        return;
    }
    let kept_entries: Vec<&str> = (entries.iter().zip(&names))
        .filter(|(_, name)| kept.contains(name.as_ref().unwrap()))
        .map(|(entry, _)| entry.get())
        .collect();
    assert_eq!(kept_entries.len(), loose.len());
    let file = format!("[{}]", kept_entries.join(","));
    let alone = RuntimeCatalog::from_bytes(file.as_bytes()).expect("the kept tools pass alone");
    same_answers(
        &every_answer(&loose),
        &every_answer(&alone),
        "the kept tools alone",
    );
}

/// The tools array of a catalog file, each tool as its bytes: an array, a `tools/list` result,
/// or the JSON-RPC response around one (the reader refuses a key twice at those levels).
fn tools_array(data: &[u8]) -> Option<Vec<&RawValue>> {
    type Members<'a> = BTreeMap<String, &'a RawValue>;
    if let Ok(entries) = serde_json::from_slice::<Vec<&RawValue>>(data) {
        return Some(entries);
    }
    let mut object: Members = serde_json::from_slice(data).ok()?;
    if object.contains_key("jsonrpc") {
        object = serde_json::from_str(object.get("result")?.get()).ok()?;
    }
    serde_json::from_str(object.get("tools")?.get()).ok()
}

/// The names of `catalog`'s tools, from its `mcp` list.
fn kept_names(catalog: &RuntimeCatalog) -> Vec<String> {
    let mut list = Vec::new();
    catalog
        .respond(br#"{"op":"tool_list","format":"mcp"}"#, &mut list)
        .unwrap();
    let tools: Value = serde_json::from_slice(&list).unwrap();
    (tools.as_array().unwrap().iter())
        .map(|tool| tool["name"].as_str().unwrap().to_string())
        .collect()
}

type Answers = Vec<(String, Result<Vec<u8>, String>)>;

fn same_answers(a: &Answers, b: &Answers, what: &str) {
    assert_eq!(a.len(), b.len(), "{what}");
    for ((request, a), (_, b)) in a.iter().zip(b) {
        assert!(a == b, "{request}: {what} gives other bytes");
    }
}

/// Every request over `catalog` and its answer: the answer's bytes, or the error's code and
/// message.
fn every_answer(catalog: &RuntimeCatalog) -> Answers {
    let names = kept_names(catalog);
    assert_eq!(names.len(), catalog.len());
    let mut answers = Vec::new();
    for shape in Shape::all() {
        let (format, strict) = (shape.format().name(), shape.strict());
        let mut declarations = Vec::new();
        for name in &names {
            let request = format!(
                r#"{{"op":"tool_schema","tool":"{name}","format":"{format}","strict":{strict}}}"#
            );
            let answer = ask(catalog, &request);
            if let Ok(bytes) = &answer {
                declarations.push(bytes[..bytes.len() - 1].to_vec());
            }
            answers.push((request, answer));
            let call = format!(
                r#"{{"op":"check_call","format":"{format}","strict":{strict},"call":{}}}"#,
                call(format, name)
            );
            let answer = ask(catalog, &call);
            let bytes = answer.as_ref().expect("a call is always answered");
            let verdict: Value = serde_json::from_slice(bytes).unwrap();
            assert!(verdict["ok"].is_boolean(), "{call}");
            answers.push((call, answer));
        }
        let request = format!(r#"{{"op":"tool_list","format":"{format}","strict":{strict}}}"#);
        let answer = ask(catalog, &request);
        if let Ok(bytes) = &answer {
            assert_eq!(declarations.len(), names.len(), "{request}");
            let joined = [b"[".to_vec(), declarations.join(&b","[..]), b"]\n".to_vec()].concat();
            assert!(bytes == &joined, "{request}: not its tools' declarations");
            assert!(bytes.len() <= catalog.max_output(), "{request}");
        }
        answers.push((request, answer));
    }
    answers
}

/// `catalog`'s answer to `request`: one line of JSON, or an error of one line.
fn ask(catalog: &RuntimeCatalog, request: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    match catalog.respond(request.as_bytes(), &mut out) {
        Ok(()) => {
            assert!(out.ends_with(b"\n"), "{request}");
            let body = &out[..out.len() - 1];
            assert!(!body.contains(&b'\n'), "{request}");
            serde_json::from_slice::<Value>(body).expect("an answer is JSON");
            Ok(out)
        }
        Err(err) => {
            assert!(out.is_empty(), "{request}");
            let line = format!("{}: {err}", err.code());
            assert!(!line.contains('\n'), "{line:?}");
            Err(line)
        }
    }
}

/// A call of `name` with `{}` for its arguments, in `format`'s envelope.
fn call(format: &str, name: &str) -> String {
    match format {
        "openai" => format!(
            r#"{{"id":"c1","type":"function","function":{{"name":"{name}","arguments":"{{}}"}}}}"#
        ),
        "openai_responses" => format!(
            r#"{{"type":"function_call","call_id":"c1","name":"{name}","arguments":"{{}}"}}"#
        ),
        "anthropic" => format!(r#"{{"type":"tool_use","id":"c1","name":"{name}","input":{{}}}}"#),
        "gemini" | "gemini_json_schema" => format!(r#"{{"name":"{name}","args":{{}}}}"#),
        _ => format!(r#"{{"name":"{name}","arguments":{{}}}}"#),
    }
}
