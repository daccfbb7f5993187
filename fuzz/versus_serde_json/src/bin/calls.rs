//! `check_call` on the calls agents really send, next to the same work done with serde_json and
//! the `jsonschema` crate (issue 17's table): parse the request and its envelope, parse the
//! arguments, validate them with a validator compiled once, and write the answer with the
//! arguments in RFC 8785 form (serde_json's writer with ECMAScript floats, the fastest
//! canonical serde writer we could write; see `check_call.rs` beside this file).
//!
//! The calls, all in the `openai` format, not strict:
//! - read_file, flat and ASCII, valid; and invalid with three problems (the default catalog);
//! - patch_file and write_file (the default catalog) with real source code as their strings:
//!   excerpts of this repository's own files at a fixed commit ([`SOURCE_COMMIT`]), read with
//!   `git show`, so every run and every checkout times the same bytes;
//! - seed 003's `todo_write`, five todos with enums (`tests/catalogs/reasonix/catalog.json`);
//! - real MCP servers' tools: server-filesystem's `edit_file` (an array of objects holding
//!   multi-line text) and mcp-server-git's `git_log` (`anyOf` unions of a string and null).
//!
//! A call whose tool is in the compiled-in catalog is answered by `tool_schema::respond`;
//! otherwise by a [`tool_schema::RuntimeCatalog`] read from the catalog's file, unless the crate
//! was built over that file (`TOOL_SCHEMA_CATALOG`), which the bench finds by comparing the two
//! catalogs' `tool_list` answers. Each row says which.
//!
//! The sides alternate sample by sample; every call's answer is checked by length, and each
//! sample's last answer byte for byte (the valid ones against the serde side's own bytes; an
//! invalid one's messages differ, so there only the verdict is compared). Printed: each side's
//! median, the ratio, and check_call's request bytes per second.
//!
//! Both sides are in one binary, built with this package's release profile (fat LTO, one
//! codegen unit):
//!
//!     cd fuzz/versus_serde_json && RUSTFLAGS= cargo run --release --bin calls [FILTER]
use serde_json::{json, Map, Value};

#[path = "../serde_side.rs"]
mod serde_side;
use serde_side::{serde_side, Writer};
use std::hint::black_box;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// The commit whose source files are the write and patch calls' contents.
const SOURCE_COMMIT: &str = "f72dfd0";
const SAMPLES: usize = 21;
const WARM_UP: usize = 3;
/// Each sample runs about this long (its call count is set from a first timing).
const SAMPLE_NS: f64 = 4e6;

/// A repository file at [`SOURCE_COMMIT`], lines `from..to` (1-based, inclusive).
fn source(path: &str, from: usize, to: usize) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let shown = Command::new("git")
        .arg("-C")
        .arg(&root)
        .args(["show", &format!("{SOURCE_COMMIT}:{path}")])
        .output()
        .expect("git show: the bench reads its source excerpts from the repository's history");
    assert!(
        shown.status.success(),
        "git show {SOURCE_COMMIT}:{path} failed (a shallow clone?)"
    );
    let text = String::from_utf8(shown.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut excerpt = lines[from - 1..to].join("\n");
    excerpt.push('\n');
    excerpt
}

/// The request an OpenAI chat completion's tool call makes: `arguments` is the model's JSON
/// text, keys in the order the model wrote them.
fn openai_call(id: &str, tool: &str, arguments: &str) -> Vec<u8> {
    format!(
        r#"{{"op":"check_call","format":"openai","call":{{"id":"{id}","type":"function","function":{{"name":"{tool}","arguments":{}}}}}}}"#,
        serde_json::to_string(arguments).unwrap()
    )
    .into_bytes()
}

/// `{"k1":v1,"k2":v2,...}` in the given order, the values written by serde_json.
fn object(members: &[(&str, Value)]) -> String {
    let members: Vec<String> = members
        .iter()
        .map(|(key, value)| format!("{}:{}", json!(key), value))
        .collect();
    format!("{{{}}}", members.join(","))
}

struct Case {
    label: &'static str,
    /// The catalog file, from the repository's root.
    catalog: &'static str,
    tool: &'static str,
    request: Vec<u8>,
    valid: bool,
}

fn cases() -> Vec<Case> {
    let default = "src/catalog.json";
    // A patch as an agent sends it: a real function's body, indented with tabs (as Go or a
    // Makefile is), quotes and backslashes in its strings.
    let old = source("src/number.rs", 330, 345).replace("    ", "\t");
    let new = old.replace("significand,", "significand: significand.max(1),");
    let write_2k = source("src/number.rs", 318, 356);
    let write_60k = source("src/catalog_file.rs", 1, 1480);
    let todos: Vec<Value> = [
        ("Read the failing test", "completed", 0),
        ("Find where the parser drops the escape", "completed", 1),
        ("Fix the escape table", "in_progress", 1),
        ("Run the \"json\" suite again", "pending", 1),
        ("Write the changelog entry", "pending", 0),
    ]
    .iter()
    .enumerate()
    .map(|(i, (content, status, level))| {
        json!({
            "content": content,
            "status": status,
            "level": level,
            "activeForm": format!("Working on: {}", content.to_lowercase()),
            "step_id": format!("plan_step_{:02}", i + 1),
        })
    })
    .collect();
    let edits = json!([
        {"oldText": source("src/number.rs", 330, 337), "newText": source("src/number.rs", 330, 333)},
        {"oldText": "const MAX: u32 = 64;\n", "newText": "const MAX: u32 = 128; // ± the stack’s room\n"},
    ]);
    let id = "call_QK5dM0iB4Yc1hN2rW7xPz9Ls";
    vec![
        Case {
            label: "read_file, flat, ASCII",
            catalog: default,
            tool: "read_file",
            request: openai_call(
                id,
                "read_file",
                r#"{"path":"src/request/parse.rs","start_line":120,"end_line":180}"#,
            ),
            valid: true,
        },
        Case {
            label: "read_file, 3 problems",
            catalog: default,
            tool: "read_file",
            request: openai_call(
                id,
                "read_file",
                r#"{"path":7,"start_line":"120","limit":60}"#,
            ),
            valid: false,
        },
        Case {
            label: "patch_file, multi-line",
            catalog: default,
            tool: "patch_file",
            request: openai_call(
                id,
                "patch_file",
                &object(&[
                    ("path", json!("src/number.rs")),
                    ("old_str", json!(old)),
                    ("new_str", json!(new)),
                ]),
            ),
            valid: true,
        },
        Case {
            label: "write_file, 2 KB, non-ASCII",
            catalog: default,
            tool: "write_file",
            request: openai_call(
                id,
                "write_file",
                &object(&[
                    ("path", json!("src/number.rs")),
                    ("content", json!(write_2k)),
                ]),
            ),
            valid: true,
        },
        Case {
            label: "write_file, 60 KB",
            catalog: default,
            tool: "write_file",
            request: openai_call(
                id,
                "write_file",
                &object(&[
                    ("path", json!("src/catalog_file.rs")),
                    ("content", json!(write_60k)),
                ]),
            ),
            valid: true,
        },
        Case {
            label: "todo_write, 5 todos",
            catalog: "tests/catalogs/reasonix/catalog.json",
            tool: "todo_write",
            request: openai_call(id, "todo_write", &object(&[("todos", Value::Array(todos))])),
            valid: true,
        },
        Case {
            label: "edit_file (MCP filesystem)",
            catalog: "tests/catalogs/mcp-servers/server-filesystem.json",
            tool: "edit_file",
            request: openai_call(
                id,
                "edit_file",
                &object(&[("path", json!("/srv/app/src/number.rs")), ("edits", edits)]),
            ),
            valid: true,
        },
        Case {
            label: "git_log, unions (MCP git)",
            catalog: "tests/catalogs/mcp-servers/mcp-server-git.json",
            tool: "git_log",
            request: openai_call(
                id,
                "git_log",
                &object(&[
                    ("repo_path", json!("/srv/app")),
                    ("max_count", json!(25)),
                    ("start_timestamp", json!("2 weeks ago")),
                    ("end_timestamp", Value::Null),
                ]),
            ),
            valid: true,
        },
    ]
}

/// check_call's policy, for the validator: an object that declares properties and says nothing
/// of `additionalProperties` is closed.
fn closed(schema: &Value) -> Value {
    let Value::Object(given) = schema else {
        return schema.clone();
    };
    let mut node = Map::new();
    for (key, value) in given {
        let value = match (key.as_str(), value) {
            ("properties" | "$defs" | "definitions", Value::Object(members)) => Value::Object(
                members
                    .iter()
                    .map(|(name, member)| (name.clone(), closed(member)))
                    .collect(),
            ),
            ("anyOf" | "oneOf" | "allOf" | "prefixItems", Value::Array(items)) => {
                Value::Array(items.iter().map(closed).collect())
            }
            ("items" | "additionalProperties", member) => closed(member),
            _ => value.clone(),
        };
        node.insert(key.clone(), value);
    }
    if node.contains_key("properties") && !node.contains_key("additionalProperties") {
        node.insert("additionalProperties".into(), json!(false));
    }
    Value::Object(node)
}

/// Mean ns per call over `calls` calls.
fn sample(calls: usize, call: &mut dyn FnMut()) -> f64 {
    let started = Instant::now();
    for _ in 0..calls {
        call();
    }
    started.elapsed().as_nanos() as f64 / calls as f64
}

fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn main() {
    let filter = std::env::args().nth(1).unwrap_or_default();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let respond_list = |respond: &dyn Fn(&[u8], &mut Vec<u8>)| {
        let mut list = Vec::new();
        respond(br#"{"op":"tool_list","format":"mcp"}"#, &mut list);
        list
    };
    let compiled_list = respond_list(&|request, out| tool_schema::respond(request, out).unwrap());
    println!(
        "{:<28} {:>12} {:>12} {:>7} {:>9}  answered by",
        "call (bytes)", "check_call", "serde+js", "ratio", "MB/s"
    );
    for case in cases() {
        if !case.label.contains(&filter) {
            continue;
        }
        // For profiling one call outside the bench: each request as its own file.
        if let Some(dir) = std::env::var_os("CALLS_DUMP") {
            let name: String = case
                .label
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            std::fs::write(Path::new(&dir).join(format!("{name}.json")), &case.request).unwrap();
            continue;
        }
        let file = std::fs::read(root.join(case.catalog)).unwrap();
        let runtime = tool_schema::RuntimeCatalog::from_bytes(&file).unwrap();
        let compiled =
            respond_list(&|request, out| runtime.respond(request, out).unwrap()) == compiled_list;
        let ours = |request: &[u8], out: &mut Vec<u8>| {
            if compiled {
                tool_schema::respond(request, out).unwrap()
            } else {
                runtime.respond(request, out).unwrap()
            }
        };
        let mut declared = Vec::new();
        ours(
            format!(
                r#"{{"op":"tool_schema","tool":"{}","format":"mcp"}}"#,
                case.tool
            )
            .as_bytes(),
            &mut declared,
        );
        let declared: Value = serde_json::from_slice(&declared).unwrap();
        let validator = jsonschema::validator_for(&closed(&declared["inputSchema"])).unwrap();

        let request = &case.request[..];
        let mut want = Vec::new();
        ours(request, &mut want);
        let mut theirs = Vec::new();
        serde_side(
            &validator,
            Writer::JcsFormatter,
            case.tool,
            request,
            &mut theirs,
        );
        let verdict = |answer: &[u8]| {
            let answer: Value = serde_json::from_slice(answer).unwrap();
            answer["ok"].as_bool().unwrap()
        };
        assert_eq!(
            verdict(&want),
            case.valid,
            "{}",
            String::from_utf8_lossy(&want)
        );
        assert_eq!(
            verdict(&theirs),
            case.valid,
            "{}",
            String::from_utf8_lossy(&theirs)
        );
        if case.valid {
            assert_eq!(
                String::from_utf8_lossy(&want),
                String::from_utf8_lossy(&theirs),
                "{}: the answers differ",
                case.label
            );
        }

        let mut out = Vec::with_capacity(want.len().max(theirs.len()) * 2);
        let mut serde_call = || {
            out.clear();
            serde_side(
                &validator,
                Writer::JcsFormatter,
                case.tool,
                black_box(request),
                &mut out,
            );
            assert_eq!(black_box(&out).len(), theirs.len());
        };
        let serde_calls = (SAMPLE_NS / sample(3, &mut serde_call)).ceil() as usize;
        let mut serde_times = Vec::new();
        let mut our_times = Vec::new();
        let mut last_ours = Vec::with_capacity(want.len());
        for round in 0..WARM_UP + SAMPLES {
            let serde_ns = sample(serde_calls, &mut serde_call);
            let mut our_call = || {
                last_ours.clear();
                ours(black_box(request), &mut last_ours);
                assert_eq!(black_box(&last_ours).len(), want.len());
            };
            let our_calls = (SAMPLE_NS / sample(3, &mut our_call)).ceil() as usize;
            let our_ns = sample(our_calls, &mut our_call);
            assert_eq!(last_ours, want, "{}: a different answer", case.label);
            if round >= WARM_UP {
                serde_times.push(serde_ns);
                our_times.push(our_ns);
            }
        }
        let (ours_ns, serde_ns) = (median(our_times), median(serde_times));
        println!(
            "{:<28} {:>9.1} ns {:>9.1} ns {:>6.1}x {:>9.0}  {}",
            format!("{} ({})", case.label, request.len()),
            ours_ns,
            serde_ns,
            serde_ns / ours_ns,
            request.len() as f64 / ours_ns * 1e3,
            if compiled {
                "compiled in"
            } else {
                "read at run time"
            }
        );
    }
}
