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
use serde_json::Value;
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
        // Named by its tool, but for an entry that is no object (it has none).
        let named = refusal.tool.is_some() || refusal.rule.starts_with("a tool must be an object");
        assert!(named && !refusal.to_string().contains('\n'));
    }
    assert!(refused.len() <= 1024 * tool_schema::catalog_file::MAX_VIOLATIONS);
    // The kept tools alone, as their own bytes, where serde_json can say which they are: every
    // entry named, each name once.
    let Some(entries) = tools_array(data) else {
        return;
    };
    let names: Vec<Option<String>> = (entries.iter())
        .map(|entry| {
            let value: Value = serde_json::from_slice(entry).ok()?;
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
    let kept_entries: Vec<&[u8]> = (entries.iter().zip(&names))
        .filter(|(_, name)| kept.contains(name.as_ref().unwrap()))
        .map(|(entry, _)| *entry)
        .collect();
    assert_eq!(kept_entries.len(), loose.len());
    let file = [b"[", kept_entries.join(&b","[..]).as_slice(), b"]"].concat();
    let alone = RuntimeCatalog::from_bytes(&file).expect("the kept tools pass alone");
    same_answers(
        &every_answer(&loose),
        &every_answer(&alone),
        "the kept tools alone",
    );
}

/// The tools array of a catalog file, each tool as its bytes (numbers as spelled): an array, a
/// `tools/list` result, or the JSON-RPC response around one (the reader refuses a key twice at
/// those levels).
fn tools_array(data: &[u8]) -> Option<Vec<&[u8]>> {
    let value: Value = serde_json::from_slice(data).ok()?;
    let (mut text, mut tools) = (data.trim_ascii(), &value);
    if value.is_object() {
        if value.get("jsonrpc").is_some() {
            (text, tools) = (member(text, "result")?, &tools["result"]);
        }
        (text, tools) = (member(text, "tools")?, &tools["tools"]);
    }
    let entries = text.starts_with(b"[").then(|| pieces(text))?;
    assert_eq!(
        entries.len(),
        tools.as_array().unwrap().len(),
        "the pieces of the array"
    );
    Some(entries)
}

/// The value of `key` in `text`, a JSON object.
fn member<'a>(text: &'a [u8], key: &str) -> Option<&'a [u8]> {
    if !text.starts_with(b"{") {
        return None;
    }
    (pieces(text).chunks(2))
        .find(|pair| serde_json::from_slice::<String>(pair[0]).is_ok_and(|k| k == key))
        .map(|pair| pair[1])
}

/// The top-level pieces of `text`, a JSON array or object that serde_json has read: an array's
/// elements, or an object's keys and values in turn, each as its bytes.
fn pieces(text: &[u8]) -> Vec<&[u8]> {
    let (mut pieces, mut depth, mut start) = (Vec::new(), 0, 1);
    let (mut in_string, mut escaped) = (false, false);
    for (i, &byte) in text.iter().enumerate() {
        if in_string {
            (in_string, escaped) = match byte {
                _ if escaped => (true, false),
                b'\\' => (true, true),
                b'"' => (false, false),
                _ => (true, false),
            };
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => depth += 1,
            b']' | b'}' => depth -= 1,
            _ => {}
        }
        let end = matches!(byte, b',' | b':') && depth == 1 || depth == 0;
        if end {
            let piece = text[start..i].trim_ascii();
            if !piece.is_empty() {
                pieces.push(piece);
            }
            start = i + 1;
        }
    }
    pieces
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
