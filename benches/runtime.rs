//! Catalogs read at run time (issue 19): what loading costs, what a loaded catalog holds, and
//! what a request costs over it against the compiled-in catalog. std only.
//!
//! `cargo bench --bench runtime`. Printed:
//! - loading (read, check, render, index, compile patterns) each test catalog, and 64 and 256
//!   tools cloned from the pydantic catalog: the median of LOADS loads, and the 256/64 ratio;
//! - the heap a loaded catalog keeps (a counting allocator: bytes live after loading, less
//!   before) against the file's size, and the process's resident set size before and after;
//! - per request, interleaved in one loop, the compiled-in catalog against the same file read
//!   at run time: `tool_schema` of read_file, a flat `check_call`, and the same call with
//!   escapes. Each answer is checked on every call, and the two sides' bytes compared.
//!
//! `TOOL_SCHEMA_LOAD_CLONES=N` only loads N tools cloned from pydantic's catalog five times,
//! for counting instructions under callgrind (`docs/performance.md` has the command).

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;
use tool_schema::{respond, RuntimeCatalog};

#[path = "common/counting.rs"]
mod counting;

const LOADS: usize = 41;
const SAMPLES: usize = 31;
const ITERS: usize = 20_000;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Only load COUNT tools cloned from pydantic's catalog, five times: a run to count
    // instructions in (valgrind --tool=callgrind), where time is too noisy to say whether
    // loading is linear in size.
    if let Ok(count) = std::env::var("TOOL_SCHEMA_LOAD_CLONES") {
        let pydantic = std::fs::read(root.join("tests/catalogs/pydantic/catalog.json")).unwrap();
        let bytes = clones(&pydantic, count.parse().expect("a number of tools"));
        for _ in 0..5 {
            black_box(RuntimeCatalog::from_bytes(&bytes).unwrap());
        }
        println!("{} bytes loaded five times", bytes.len());
        return;
    }
    println!("loading a catalog: median of {LOADS} loads");
    println!(
        "{:<44} {:>9} {:>6} {:>11} {:>10}",
        "catalog", "bytes", "tools", "load us", "heap kept"
    );
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for file in [
        "src/catalog.json",
        "tests/catalogs/reasonix/catalog.json",
        "tests/catalogs/bounds/catalog.json",
        "tests/catalogs/pydantic/catalog.json",
        "tests/catalogs/zod/catalog.json",
        "tests/catalogs/mcp-servers/server-everything.json",
        "tests/catalogs/mcp-servers/server-filesystem.json",
        "tests/catalogs/mcp-servers/github-mcp-server.json",
    ] {
        if let Ok(bytes) = std::fs::read(root.join(file)) {
            files.push((file.to_string(), bytes));
        }
    }
    let pydantic = std::fs::read(root.join("tests/catalogs/pydantic/catalog.json")).unwrap();
    for count in [64, 256] {
        files.push((
            format!("{count} tools cloned from pydantic"),
            clones(&pydantic, count),
        ));
    }
    let mut per_clone = Vec::new();
    for (name, bytes) in &files {
        let before = counting::live();
        let catalog =
            RuntimeCatalog::from_bytes(bytes).unwrap_or_else(|err| panic!("{name}: {err}"));
        let kept = counting::live() - before;
        let tools = catalog.len();
        drop(catalog);
        let mut times = Vec::new();
        for _ in 0..LOADS {
            let started = Instant::now();
            let catalog = RuntimeCatalog::from_bytes(black_box(bytes)).unwrap();
            times.push(started.elapsed().as_secs_f64() * 1e6);
            assert_eq!(black_box(catalog).len(), tools);
        }
        times.sort_by(f64::total_cmp);
        let median = times[LOADS / 2];
        if name.contains("cloned") {
            per_clone.push(median);
        }
        println!(
            "{name:<44} {:>9} {tools:>6} {median:>11.1} {:>9.2}x",
            bytes.len(),
            kept as f64 / bytes.len() as f64
        );
    }
    println!(
        "256 tools against 64: {:.2}x the load time",
        per_clone[1] / per_clone[0]
    );
    let rss_before = rss_kib();
    let kept: Vec<RuntimeCatalog> = files
        .iter()
        .map(|(_, bytes)| RuntimeCatalog::from_bytes(bytes).unwrap())
        .collect();
    println!(
        "resident set: {rss_before} KiB, {} KiB with all {} loaded at once",
        rss_kib(),
        kept.len()
    );
    drop(kept);

    let default = std::fs::read(root.join("src/catalog.json")).unwrap();
    let run_time = RuntimeCatalog::from_bytes(&default).unwrap();
    let cases: [(&str, &[u8]); 3] = [
        ("tool_schema read_file", br#"{"op":"tool_schema","tool":"read_file"}"#),
        (
            "check_call read_file",
            br#"{"op":"check_call","call":{"id":"call_1","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"src/main.rs\"}"}}}"#,
        ),
        (
            "check_call patch_file, escapes",
            br#"{"op":"check_call","call":{"id":"call_2","type":"function","function":{"name":"patch_file","arguments":"{\"path\":\"src/lib.rs\",\"old_str\":\"fn main() {\\n\\tprintln!(\\\"hi\\\");\\n}\",\"new_str\":\"fn main() {\\n\\tprintln!(\\\"hello, \\\\\\\"world\\\\\\\"\\\");\\n}\"}"}}}"#,
        ),
    ];
    println!();
    println!("per request, interleaved: min and median ns of {SAMPLES} samples of {ITERS} calls");
    println!(
        "{:<34} {:>14} {:>14} {:>8}",
        "request", "compiled", "run time", "ratio"
    );
    for (name, request) in cases {
        let (mut want, mut got) = (Vec::new(), Vec::new());
        respond(request, &mut want).unwrap();
        run_time.respond(request, &mut got).unwrap();
        assert_eq!(want, got, "{name}: the two sides differ");
        let mut out = Vec::with_capacity(4096);
        let (mut compiled, mut loaded) = (Vec::new(), Vec::new());
        for _ in 0..SAMPLES {
            compiled.push(time(|| {
                out.clear();
                respond(black_box(request), &mut out).unwrap();
                assert_eq!(out.len(), want.len());
            }));
            loaded.push(time(|| {
                out.clear();
                run_time.respond(black_box(request), &mut out).unwrap();
                assert_eq!(out.len(), want.len());
            }));
        }
        assert_eq!(out, want);
        compiled.sort_by(f64::total_cmp);
        loaded.sort_by(f64::total_cmp);
        let (c, l) = (compiled[SAMPLES / 2], loaded[SAMPLES / 2]);
        println!(
            "{name:<34} {:>6.1} {c:>7.1} {:>6.1} {l:>7.1} {:>7.2}x",
            compiled[0],
            loaded[0],
            l / c
        );
    }
}

/// ns per call of `f`, over ITERS calls.
fn time(mut f: impl FnMut()) -> f64 {
    let started = Instant::now();
    for _ in 0..ITERS {
        f();
    }
    started.elapsed().as_secs_f64() * 1e9 / ITERS as f64
}

/// `count` tools cloned from a catalog, renamed `name_i`.
fn clones(catalog: &[u8], count: usize) -> Vec<u8> {
    let text = std::str::from_utf8(catalog).unwrap();
    let tools = split_tools(text);
    let mut out = String::from("[");
    for i in 0..count {
        let tool = &tools[i % tools.len()];
        let at = tool.find("\"name\"").unwrap();
        let open = at + tool[at + 6..].find('"').unwrap() + 7;
        let close = open + tool[open..].find('"').unwrap();
        if i > 0 {
            out.push(',');
        }
        out.push_str(&tool[..close]);
        out.push_str(&format!("_{i}"));
        out.push_str(&tool[close..]);
    }
    out.push(']');
    out.into_bytes()
}

/// The top-level objects of a JSON array, as text (strings may hold brackets: they are skipped).
fn split_tools(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let (mut depth, mut start, mut in_string, mut escaped) = (0, 0, false, false);
    let mut tools = Vec::new();
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                if depth == 2 && b == b'{' {
                    start = i;
                }
            }
            b'}' | b']' => {
                if depth == 2 && b == b'}' {
                    tools.push(text[start..=i].to_string());
                }
                depth -= 1;
            }
            _ => {}
        }
    }
    tools
}

/// The process's resident set size, from /proc (Linux); 0 elsewhere.
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
            line.split_whitespace().nth(1)?.parse().ok()
        })
        .unwrap_or(0)
}
