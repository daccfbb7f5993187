//! Arbitrary bytes as a catalog read at run time (`RuntimeCatalog`, what `--catalog` and a
//! stream's `use_catalog` read), then answered: it never panics; a refusal is the reader's one
//! line; a catalog it reads answers every `tool_schema`, `tool_list` and a `check_call` of each
//! tool in every shape with one line of JSON or an error of one line; each `tool_list` is its tools' `tool_schema` answers joined; and the
//! catalog's own `mcp` list, read again, gives every answer byte for byte.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use tool_schema::{RuntimeCatalog, Shape};

fuzz_target!(|data: &[u8]| {
    let catalog = match RuntimeCatalog::from_bytes(data) {
        Ok(catalog) => catalog,
        Err(err) => {
            let line = err.to_string();
            assert!(!line.contains('\n') && !err.rule.is_empty(), "{line:?}");
            return;
        }
    };
    let answers = every_answer(&catalog);
    let mut list = Vec::new();
    catalog
        .respond(br#"{"op":"tool_list","format":"mcp"}"#, &mut list)
        .expect("the mcp shape writes every tool");
    let again = RuntimeCatalog::from_bytes(&list).expect("the mcp list is a catalog");
    let answers_again = every_answer(&again);
    assert_eq!(answers.len(), answers_again.len());
    for ((request, a), (_, b)) in answers.iter().zip(&answers_again) {
        assert!(a == b, "{request}: the mcp list gives other bytes");
    }
});

/// Every request over `catalog` and its answer: the answer's bytes, or the error's code and
/// message.
fn every_answer(catalog: &RuntimeCatalog) -> Vec<(String, Result<Vec<u8>, String>)> {
    let mut names = Vec::new();
    let mut list = Vec::new();
    catalog
        .respond(br#"{"op":"tool_list","format":"mcp"}"#, &mut list)
        .unwrap();
    let tools: Value = serde_json::from_slice(&list).unwrap();
    for tool in tools.as_array().unwrap() {
        names.push(tool["name"].as_str().unwrap().to_string());
    }
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
        "gemini" => format!(r#"{{"name":"{name}","args":{{}}}}"#),
        _ => format!(r#"{{"name":"{name}","arguments":{{}}}}"#),
    }
}
