//! Zero heap allocations: `respond` for every response and every error (formatting the message
//! included), and `serve` for a whole stream.
//!
//! A counting global allocator; the `unsafe impl` lives here, outside the crate roots, which
//! keep `forbid(unsafe_code)`. The count is per thread, so tests running beside this one do
//! not disturb it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::Write;
use tool_schema::catalog::NAMES;
use tool_schema::{respond, serve, Shape};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    /// Bytes allocated and not yet freed by this thread.
    static LIVE: Cell<isize> = const { Cell::new(0) };
}

// SAFETY: every call is passed straight to the system allocator; counting touches only
// thread-local `Cell`s with const initializers, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|count| count.set(count.get() + 1));
        let _ = LIVE.try_with(|live| live.set(live.get() + layout.size() as isize));
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let _ = LIVE.try_with(|live| live.set(live.get() - layout.size() as isize));
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

fn requests() -> Vec<Vec<u8>> {
    let mut all = Vec::new();
    for shape in Shape::all() {
        let (format, strict) = (shape.format().name(), shape.strict());
        for tool in NAMES {
            let request = format!(
                r#"{{"op":"tool_schema","tool":"{}","format":"{format}","strict":{strict}}}"#,
                tool
            );
            all.push(request.into_bytes());
        }
        all.push(
            format!(r#"{{"op":"tool_list","format":"{format}","strict":{strict}}}"#).into_bytes(),
        );
    }
    let errors: &[&[u8]] = &[
        b"",
        b"{\"op\":\"tool_schema\",\"tool\":\"read_file\"",
        b"\"\\uD800\"",
        b"\"\xFF\"",
        br#"{"op":"tool_schema","tool":"read_file"} x"#,
        b"[]",
        br#"{"op":"tool_schema","op":"tool_schema"}"#,
        br#"{"op":"tool_schema","tool":"read_file","x":1}"#,
        br#"{"op":"tool_schema"}"#,
        br#"{"op":1}"#,
        br#"{"op":"nope"}"#,
        br#"{"op":"tool_schema","tool":"a very long name that is cut short in the message because it goes on"}"#,
        br#"{"op":"tool_list","format":"nope"}"#,
        br#"{"op":"tool_list","format":"gemini","strict":true}"#,
        br#"{"op":"tool_choice","choice":{"tool":"read_fil"}}"#,
        br#"{"op":"tool_choice","choice":"any"}"#,
        br#"{"op":"tool_choice","format":"mcp","choice":"auto"}"#,
        br#"{"op":"tool_choice","format":"gemini","choice":"auto","parallel":true}"#,
    ];
    all.extend(errors.iter().map(|e| e.to_vec()));
    let turns = [
        r#"{"op":"check_turn","turn":{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"x\"}"}},{"id":"b","type":"function","function":{"name":"write_file","arguments":"{\"path\":1}"}}]}}"#,
        r#"{"op":"check_turn","format":"openai_responses","turn":[{"type":"reasoning"},{"type":"function_call","call_id":"c","name":"patch_file","arguments":"{}"}]}"#,
        r#"{"op":"check_turn","format":"anthropic","strict":true,"turn":[{"type":"text","text":"x"},{"type":"tool_use","id":"t","name":"read_file","input":{"path":"é"}}]}"#,
        r#"{"op":"check_turn","format":"gemini","turn":{"parts":[{"functionCall":{"name":"nope"}}]}}"#,
        r#"{"op":"check_turn","format":"anthropic","turn":[{"type":"tool_use","id":"t","name":"read_file"}]}"#,
    ];
    all.extend(turns.iter().map(|turn| turn.as_bytes().to_vec()));
    for format in ["openai", "openai_responses", "anthropic", "gemini"] {
        for choice in [
            r#""auto""#,
            r#""none""#,
            r#""required""#,
            r#"{"tool":"patch_file"}"#,
        ] {
            let request = format!(
                r#"{{"op":"tool_choice","format":"{format}","choice":{choice},"parallel":false}}"#
            );
            // Gemini refuses `parallel`: the request without it is answered.
            all.push(request.replace(r#","parallel":false"#, "").into_bytes());
            all.push(request.into_bytes());
        }
    }
    all.extend(calls());
    all.push(format!("{}{}", "[".repeat(65), "]".repeat(65)).into_bytes());
    all.push(vec![b' '; tool_schema::MAX_INPUT + 1]);
    all
}

/// `check_call` requests: valid and invalid, in every format, through the quick path and the
/// general one (escapes, nesting, whitespace), and one with more problems than are reported.
fn calls() -> Vec<Vec<u8>> {
    let tool = NAMES[0];
    let many: String = (0..20).map(|i| format!(r#"\"x{i}\":{i},"#)).collect();
    let many = format!(r#"{{{}\"y\":null}}"#, many);
    // Messages too long for the room they are rendered into ahead (each key is 40 quotes), and
    // a pointer too long for its own: both are rendered again straight into the answer.
    let long: Vec<String> = (0..16)
        .map(|i| format!(r#"\"{}{i}\":1"#, r#"\\\""#.repeat(40)))
        .collect();
    let long_messages = format!("{{{}}}", long.join(","));
    let long_pointer = format!(r#"{{\"{}\":1}}"#, "a".repeat(600));
    // Deeper than the tokenizer's limit where the schema has ended: read on through, with the
    // levels past 64 kept on the stack, not the heap.
    let deep = format!(r#"{{\"path\":{}{}}}"#, "[".repeat(3000), "]".repeat(3000));
    // A file's contents, as a model writes them: escapes spelled twice, read and written in
    // place (`escaped_value.rs`), 34 KB of them.
    let contents = format!(
        r#"{{\"path\":\"{}\"}}"#,
        r#"fn f() {\\n\\tprintln!(\\\"é\\\");\\n}\\n"#.repeat(1000)
    );
    let texts = [
        r#"{\"path\":\"a\"}"#.to_string(),
        r#"{ \"path\" : \"\u00e9\\n\" , \"extra\" : [1, {\"a\": 2.5e3}] }"#.to_string(),
        r#"\"{\\\"path\\\":1}\""#.to_string(),
        r#"{\"path\":"#.to_string(),
        r#"{\"path\" 1}"#.to_string(),
        String::new(),
        many,
        long_messages,
        long_pointer,
        deep,
        contents,
        r#"{\"path\":\"a\\n\\t\\\"b\\\" é \\u00e9 \\ud83d\\ude00 \\\\ \\/ \/\"}"#.to_string(),
    ];
    let mut all = Vec::new();
    for text in &texts {
        let envelopes = [
            (
                "openai",
                format!(
                    r#"{{"id":"c1","type":"function","function":{{"name":"{tool}","arguments":"{text}"}}}}"#
                ),
            ),
            (
                "openai_responses",
                format!(
                    r#"{{"type":"function_call","call_id":"c1","name":"{tool}","arguments":"{text}"}}"#
                ),
            ),
        ];
        for (format, call) in envelopes {
            for strict in [false, true] {
                all.push(format!(r#"{{"op":"check_call","format":"{format}","strict":{strict},"call":{call}}}"#).into_bytes());
            }
            all.push(format!(r#"{{"op":"check_call","call":{call}}}"#).into_bytes());
        }
    }
    let values = [
        r#"{"path":"a"}"#,
        r#"{"path":"a","x":{"y":[1,2,{"z":null}]},"start_line":"5","end_line":1.5}"#,
        r#"[1]"#,
        r#""{\"path\":\"a\"}""#,
        r#"{"path":"a\n\t\"b\" é \u00e9 \ud83d\ude00 \\ \/"}"#,
    ];
    for value in values {
        let envelopes = [
            (
                "anthropic",
                format!(r#"{{"type":"tool_use","id":"t1","name":"{tool}","input":{value}}}"#),
            ),
            (
                "gemini",
                format!(r#"{{"name":"{tool}","args":{value},"id":"g1"}}"#),
            ),
            ("mcp", format!(r#"{{"name":"{tool}","arguments":{value}}}"#)),
        ];
        for (format, call) in envelopes {
            all.push(
                format!(r#"{{"op":"check_call","format":"{format}","call":{call}}}"#).into_bytes(),
            );
        }
    }
    all.push(br#"{"op":"check_call","format":"mcp","call":{"name":"no_such_tool"}}"#.to_vec());
    all.push(br#"{"op":"check_call","format":"gemini","call":{"name":"read_file"}}"#.to_vec());
    all
}

#[test]
fn check_call_reports_at_most_sixteen_problems() {
    let request = calls()
        .into_iter()
        .find(|r| r.windows(4).any(|w| w == b"x19\\"))
        .unwrap();
    let mut out = Vec::new();
    respond(&request, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.matches("\"code\":").count(), 16, "{text}");
}

#[test]
fn respond_and_serve_allocate_nothing() {
    // The counter counts: one boxed byte is one allocation.
    assert_eq!(allocations(|| drop(std::hint::black_box(Box::new(1u8)))), 1);
    let requests = requests();
    let mut codes = std::collections::BTreeSet::new();
    // Room for the longest answer here (a check_call with 16 problems is a few KB).
    let mut out = Vec::with_capacity(64 * 1024);
    let mut message = [0u8; 1024];
    for request in &requests {
        let mut code = None;
        let count = allocations(|| {
            out.clear();
            if let Err(err) = respond(request, &mut out) {
                code = Some(err.code());
                write!(&mut message[..], "{err}").unwrap();
            }
        });
        codes.extend(code);
        assert_eq!(
            count,
            0,
            "{}",
            String::from_utf8_lossy(&request[..request.len().min(80)])
        );
    }
    assert_eq!(
        codes.len(),
        12,
        "every error code but io was exercised: {codes:?}"
    );

    // A whole stream, good and bad lines mixed, over and over: no allocation at all.
    let stream: Vec<u8> = requests
        .iter()
        .cycle()
        .take(2000)
        .flat_map(|r| [&r[..], b"\n"].concat())
        .collect();
    let mut answers = Vec::with_capacity(64 << 20);
    let count = allocations(|| serve(&mut &stream[..], &mut answers).unwrap());
    assert!(answers.len() > 100_000);
    assert_eq!(count, 0, "serve allocated");
}

/// A catalog read at run time (the default one, and seed 003's with its nested schemas) is
/// answered without allocating too, every request and call above: after loading, only an
/// error that names one of its tools (`unknown_tool`'s closest name, `unsupported`'s tool)
/// copies that name, since a stream may replace the catalog while the error lives.
#[test]
fn a_catalog_read_at_run_time_allocates_nothing_per_request() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut answered = 0;
    for file in ["src/catalog.json", "tests/catalogs/reasonix/catalog.json"] {
        let bytes = std::fs::read(format!("{root}/{file}")).unwrap();
        let catalog = tool_schema::RuntimeCatalog::from_bytes(&bytes).unwrap();
        let mut out = Vec::with_capacity(64 * 1024);
        for request in requests().iter().chain(&calls()) {
            let mut code = None;
            let count = allocations(|| {
                out.clear();
                code = catalog
                    .respond(request, &mut out)
                    .err()
                    .map(|err| err.code());
            });
            if matches!(code, Some("unknown_tool" | "unsupported")) {
                continue;
            }
            assert_eq!(
                count,
                0,
                "{file}: {}",
                String::from_utf8_lossy(&request[..request.len().min(80)])
            );
            answered += 1;
        }
    }
    assert!(answered > 100, "{answered}");
}

/// Issue 19's memory line: a catalog read at run time keeps at most 4x its file's bytes on the
/// heap, 4.25x since a sixth format's declarations are kept too (4.0x the most). Every published catalog of `tests/catalogs` and the framework catalogs, as committed
/// (pretty-printed, as a dump of `tools/list` usually is) and written compactly (as an MCP
/// client receives it). The closest is zod's `catalog-direct.json` written compactly
/// (`docs/performance.md`). Bytes kept do not depend on the machine or its load.
#[test]
fn a_catalog_read_at_run_time_keeps_at_most_four_and_a_quarter_times_its_file() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut files = vec![];
    for folder in [
        "mcp-servers",
        "mcp-servers-2026-12",
        "pydantic",
        "zod",
        "reasonix",
    ] {
        for entry in std::fs::read_dir(format!("{root}/tests/catalogs/{folder}")).unwrap() {
            let path = entry.unwrap().path();
            // reasonix/full.json has a tool OpenAI cannot declare, and loads as well.
            if path.extension().is_some_and(|ext| ext == "json") {
                files.push(path);
            }
        }
    }
    assert!(files.len() >= 17, "{files:?}");
    for path in files {
        let committed = std::fs::read(&path).unwrap();
        let compact = compact_json(&committed);
        for bytes in [&committed, &compact] {
            let before = LIVE.with(Cell::get);
            let catalog = tool_schema::RuntimeCatalog::from_bytes(bytes).unwrap();
            let kept = LIVE.with(Cell::get) - before;
            drop(catalog);
            let ratio = kept as f64 / bytes.len() as f64;
            assert!(
                ratio <= 4.25,
                "{}: {} bytes keep {kept} ({ratio:.2}x)",
                path.display(),
                bytes.len()
            );
        }
        assert!(compact.len() < committed.len(), "{}", path.display());
    }
}

/// `bytes` (JSON) with the whitespace between tokens left out.
fn compact_json(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let (mut in_string, mut escaped) = (false, false);
    for &byte in bytes {
        if in_string {
            out.push(byte);
            match (escaped, byte) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
        } else if !matches!(byte, b' ' | b'\n' | b'\r' | b'\t') {
            in_string = byte == b'"';
            out.push(byte);
        }
    }
    out
}

/// Issue 17's nested and union calls, as the quick path reads them: seed 003's `todo_write`
/// (an array of objects with enums), an MCP filesystem server's `edit_file` (an array of
/// objects of multi-line text) and an MCP git server's `git_log` (`anyOf` of a string and
/// null), valid, in order and not, escapes spelled twice. Nothing is allocated.
#[test]
fn nested_and_union_calls_allocate_nothing() {
    let root = env!("CARGO_MANIFEST_DIR");
    let cases = [
        (
            "tests/catalogs/reasonix/catalog.json",
            "todo_write",
            r#"{"todos":[{"content":"Run the \"json\" suite","status":"pending","level":1},{"status":"completed","content":"é\n\tü"}]}"#,
        ),
        (
            "tests/catalogs/mcp-servers/server-filesystem.json",
            "edit_file",
            r#"{"path":"/a.rs","edits":[{"newText":"fn main() {\n\tprintln!(\"hi\");\n}\n","oldText":"fn main() {}\n"}],"dryRun":false}"#,
        ),
        (
            "tests/catalogs/mcp-servers/mcp-server-git.json",
            "git_log",
            r#"{"repo_path":"/srv/app","max_count":25,"start_timestamp":"2 weeks ago","end_timestamp":null}"#,
        ),
    ];
    for (file, tool, arguments) in cases {
        let bytes = std::fs::read(format!("{root}/{file}")).unwrap();
        let catalog = tool_schema::RuntimeCatalog::from_bytes(&bytes).unwrap();
        let arguments = format!("{arguments:?}");
        let request = format!(
            r#"{{"op":"check_call","format":"openai","call":{{"id":"c1","type":"function","function":{{"name":"{tool}","arguments":{arguments}}}}}}}"#
        );
        let mut out = Vec::with_capacity(64 * 1024);
        let count = allocations(|| catalog.respond(request.as_bytes(), &mut out).unwrap());
        let answer = String::from_utf8(out).unwrap();
        assert!(answer.contains(r#""ok":true"#), "{answer}");
        assert_eq!(count, 0, "{tool}");
    }
}

#[test]
fn streamed_calls_allocate_nothing_once_the_pool_has_grown() {
    let root = env!("CARGO_MANIFEST_DIR");
    let catalog = tool_schema::RuntimeCatalog::from_path(
        format!("{root}/tests/streams/catalog.json").as_ref(),
    )
    .unwrap();
    let mut lines = Vec::new();
    for (file, format) in [
        ("openai_multiply", "openai"),
        ("responses_multiply", "openai_responses"),
        ("anthropic_get_weather", "anthropic"),
        ("gemini_weather", "gemini"),
    ] {
        let events = std::fs::read_to_string(format!("{root}/tests/streams/{file}.jsonl")).unwrap();
        // Two streams at once, their events interleaved.
        for event in events.lines() {
            for stream in ["one", "two"] {
                lines.push(format!(
                    r#"{{"op":"call_delta","format":"{format}","stream":"{stream}","event":{event}}}"#
                ));
            }
        }
    }
    let mut streams = tool_schema::CallStreams::default();
    let mut out = Vec::with_capacity(64 * 1024);
    let mut replay = |out: &mut Vec<u8>| {
        for line in &lines {
            streams
                .respond_over(&catalog, line.as_bytes(), out)
                .unwrap();
        }
    };
    replay(&mut out); // the pool grows to two streams' calls
    let settled = out.windows(8).filter(|w| w == br#""ok":tru"#).count();
    assert_eq!(settled, 8, "{}", String::from_utf8_lossy(&out));
    out.clear();
    assert_eq!(allocations(|| replay(&mut out)), 0);
    assert_eq!(out.windows(8).filter(|w| w == br#""ok":tru"#).count(), 8);
}
