//! The binary built over other catalogs, as a user builds it: `TOOL_SCHEMA_CATALOG=... cargo
//! build`. Each catalog gets its own target directory under cargo's temporary directory for
//! tests, so the builds neither disturb this one nor each other.
//!
//! - seed 003's catalog (14 tools with nested objects, arrays, enums and bounds): every answer
//!   against the goldens that `tests/golden_reference.py` wrote;
//! - the same catalog with `ask`, whose description (1,100 characters) is past OpenAI's 1,024:
//!   it builds, and only OpenAI's shapes answer `unsupported` for `ask`;
//! - `{"op":"tool_list","format":"mcp"}` is itself a catalog: building from it reproduces every
//!   answer, byte for byte, for the default catalog and for seed 003's;
//! - check_call over a catalog of bounds, enums, nested objects and arrays of arrays: every case
//!   in `tests/calls/bounds/cases.json` against the goldens of `tests/call_reference.py`.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const MANIFEST: &str = env!("CARGO_MANIFEST_DIR");
use common::SHAPES;

/// The target directory of the builds named `name`.
fn target_dir(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("catalog-{name}"))
}

/// `cargo ARGS` on this package, in the target directory named `name`.
fn cargo(args: &[&str], name: &str) -> Command {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command
        .args(args)
        .arg("--manifest-path")
        .arg(Path::new(MANIFEST).join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", target_dir(name))
        .stdin(Stdio::null());
    command
}

const BUILD: [&str; 4] = ["build", "--quiet", "--bin", "tool-schema"];

/// `cargo build` of the binary over `catalog`, in the target directory named `name`.
fn build(catalog: &Path, name: &str) -> Output {
    cargo(&BUILD, name)
        .env("TOOL_SCHEMA_CATALOG", catalog)
        .output()
        .expect("cargo runs")
}

/// Panics with cargo's own output when a cargo command failed.
fn assert_cargo_succeeded(out: &Output, what: &str) {
    assert!(
        out.status.success(),
        "{what}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The binary over `catalog`; panics with cargo's output when the build fails.
fn binary(catalog: &Path, name: &str) -> PathBuf {
    let out = build(catalog, name);
    assert_cargo_succeeded(&out, &format!("building over {}", catalog.display()));
    target_dir(name).join("debug/tool-schema")
}

/// The binary's whole output for one request on standard input.
fn run(binary: &Path, request: &str) -> Output {
    run_with(Command::new(binary), request)
}

/// `command`'s whole output for one request on standard input.
fn run_with(mut command: Command, request: &str) -> Output {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(request.as_bytes())?;
            child.wait_with_output()
        })
        .expect("the binary runs")
}

/// What the binary prints for one request: stdout, or `error:<code>` when it refuses.
fn ask(binary: &Path, request: &str) -> Vec<u8> {
    let out = run(binary, request);
    if out.status.success() {
        out.stdout
    } else {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let code = stderr
            .strip_prefix("tool-schema: ")
            .and_then(|rest| rest.split(':').next())
            .unwrap_or("?");
        format!("error:{code}").into_bytes()
    }
}

fn request(tool: Option<&str>, format: &str, strict: bool) -> String {
    match tool {
        Some(tool) => format!(
            r#"{{"op":"tool_schema","tool":"{tool}","format":"{format}","strict":{strict}}}"#
        ),
        None => format!(r#"{{"op":"tool_list","format":"{format}","strict":{strict}}}"#),
    }
}

fn names(catalog: &Path) -> Vec<String> {
    let bytes = std::fs::read(catalog).unwrap();
    let catalog = tool_schema::catalog_file::read(&bytes).unwrap();
    let model = catalog.model();
    (0..model.tools.len())
        .map(|tool| model.name(tool).to_string())
        .collect()
}

/// Every whole output of the binary over a catalog (exit status, stdout, stderr): each tool and
/// the list, in every shape.
type Answer = (Option<i32>, Vec<u8>, Vec<u8>);
fn every_answer(binary: &Path, tools: &[String]) -> Vec<(String, Answer)> {
    let mut answers = Vec::new();
    for (format, strict) in SHAPES {
        for tool in tools.iter().map(Some).chain([None]) {
            let request = request(tool.map(String::as_str), format, strict);
            let out = run(binary, &request);
            answers.push((request, (out.status.code(), out.stdout, out.stderr)));
        }
    }
    answers
}

/// The default binary's whole output for one request, over `catalog` read at run time
/// (`--catalog`).
fn run_at_run_time(catalog: &Path, request: &str) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tool-schema"));
    command.arg("--catalog").arg(catalog);
    run_with(command, request)
}

/// Issue 19's exactness: the default binary given `catalog` with `--catalog` answers as
/// `binary`, built with it, does: exit status, stdout and stderr, byte for byte, for each tool
/// and the list in 9 shapes (refusals too), an unknown tool, a tool named with an escape, and
/// `check_call` with `{}` to each tool in every format, strict and not. How many answers.
fn assert_run_time_catalog_agrees(binary: &Path, catalog: &Path, tools: &[String]) -> usize {
    let mut requests: Vec<String> = Vec::new();
    for (format, strict) in SHAPES {
        for tool in tools.iter().map(Some).chain([None]) {
            requests.push(request(tool.map(String::as_str), format, strict));
        }
        let first = &tools[0];
        requests.push(request(Some(&first[1..]), format, strict));
        let escaped = format!("\\u{:04x}{}", first.as_bytes()[0], &first[1..]);
        requests.push(request(Some(&escaped), format, strict));
        for tool in tools {
            let call = match format {
                "openai" => format!(
                    r#"{{"id":"c1","type":"function","function":{{"name":"{tool}","arguments":"{{}}"}}}}"#
                ),
                "openai_responses" => format!(
                    r#"{{"type":"function_call","call_id":"c1","name":"{tool}","arguments":"{{}}"}}"#
                ),
                "anthropic" => {
                    format!(r#"{{"type":"tool_use","id":"c1","name":"{tool}","input":{{}}}}"#)
                }
                "gemini" | "gemini_json_schema" => format!(r#"{{"name":"{tool}","args":{{}}}}"#),
                _ => format!(r#"{{"name":"{tool}","arguments":{{}}}}"#),
            };
            requests.push(format!(
                r#"{{"op":"check_call","format":"{format}","strict":{strict},"call":{call}}}"#
            ));
        }
    }
    for request in &requests {
        let (compiled, run_time) = (run(binary, request), run_at_run_time(catalog, request));
        let what = format!("{}: {request}", catalog.display());
        assert_eq!(compiled.status.code(), run_time.status.code(), "{what}");
        common::assert_same_bytes(&run_time.stdout, &compiled.stdout, &what);
        common::assert_same_bytes(&run_time.stderr, &compiled.stderr, &what);
    }
    requests.len()
}

/// The golden answer of `tool` (or `tool_list`) in a shape, from `dir/<format>/`: the
/// `.json` file's bytes, or `error:<code>` from the `.error` file of a request that is refused.
fn golden(dir: &Path, format: &str, strict: bool, tool: &str) -> Vec<u8> {
    let suffix = if strict { ".strict" } else { "" };
    // Not Path::with_extension: it would take ".strict" for the extension.
    let golden = dir.join(format!("{format}/{tool}{suffix}"));
    let (json, error) = (
        format!("{}.json", golden.display()),
        format!("{}.error", golden.display()),
    );
    match std::fs::read(&json) {
        Ok(bytes) => bytes,
        Err(_) => {
            let code =
                std::fs::read_to_string(&error).unwrap_or_else(|err| panic!("{error}: {err}"));
            format!("error:{}", code.trim()).into_bytes()
        }
    }
}

/// Every answer of the binary over a catalog against its golden files in `dir`: how many were
/// compared, and a line for each that differs.
fn golden_differences(binary: &Path, tools: &[String], dir: &Path) -> (usize, Vec<String>) {
    let mut checked = 0;
    let mut differ = Vec::new();
    for (format, strict) in SHAPES {
        for tool in tools.iter().map(String::as_str).chain(["tool_list"]) {
            let which = (tool != "tool_list").then_some(tool);
            let answer = ask(binary, &request(which, format, strict));
            let want = golden(dir, format, strict, tool);
            if answer != want {
                differ.push(format!(
                    "{}: {tool} in {format} strict={strict}: the bytes differ\n  got: {}\n want: {}",
                    dir.display(),
                    String::from_utf8_lossy(&answer).trim_end(),
                    String::from_utf8_lossy(&want).trim_end()
                ));
            }
            checked += 1;
        }
    }
    (checked, differ)
}

/// Every answer of the binary over a catalog against its golden files in `dir`; how many. All
/// are compared before failing, and the failure lists each one that differs.
fn matches_golden_files(binary: &Path, tools: &[String], dir: &Path) -> usize {
    let (checked, differ) = golden_differences(binary, tools, dir);
    assert!(
        differ.is_empty(),
        "{} of {checked} answers differ from their golden files:\n{}",
        differ.len(),
        differ.join("\n")
    );
    checked
}

#[test]
fn seed_003_catalog_matches_its_golden_files() {
    let dir = Path::new(MANIFEST).join("tests/catalogs/reasonix");
    let catalog = dir.join("catalog.json");
    let tools = names(&catalog);
    assert_eq!(tools.len(), 14);
    let binary = binary(&catalog, "reasonix");
    let checked = matches_golden_files(&binary, &tools, &dir.join("golden"));
    assert_eq!(checked, 9 * 15, "14 tools and the list, in 9 shapes");
}

/// An unknown tool's message names the closest tool of whichever catalog was built, and stays
/// one line under 1 KiB whatever was asked for.
#[test]
fn an_unknown_tool_is_answered_with_the_closest_name_in_one_short_line() {
    let catalog = Path::new(MANIFEST).join("tests/catalogs/reasonix/catalog.json");
    let binary = binary(&catalog, "reasonix");
    let refuse = |tool: &str| {
        let out = run(
            &binary,
            &format!(r#"{{"op":"tool_schema","tool":"{tool}"}}"#),
        );
        assert_eq!(out.status.code(), Some(1));
        String::from_utf8(out.stderr).unwrap()
    };
    for (asked, closest) in [
        ("bash_outptu", "bash_output"),
        ("kill", "kill_shell"),
        ("todowrite", "todo_write"),
    ] {
        let message = refuse(asked);
        assert!(
            message.contains(&format!("did you mean \"{closest}\"?")),
            "{asked}: {message}"
        );
    }
    let message = refuse(&"x\\u0000".repeat(2000));
    assert!(message.len() < 1024, "{} bytes", message.len());
    assert_eq!(message.lines().count(), 1, "{message}");
}

/// Anthropic strict mode takes at most 20 tools in one request: a list of 21 is refused, naming
/// the limit, while each tool alone is still declared.
#[test]
fn a_strict_anthropic_list_of_21_tools_is_unsupported() {
    let tools: Vec<String> = (0..21)
        .map(|i| {
            format!(
                r#"{{"name":"t{i}","description":"d","inputSchema":{{"type":"object","properties":{{"a":{{"type":"string"}}}},"required":["a"]}}}}"#
            )
        })
        .collect();
    let catalog = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("21-tools.json");
    std::fs::write(&catalog, format!("[{}]", tools.join(","))).unwrap();
    let binary = binary(&catalog, "21-tools");
    let list = r#"{"op":"tool_list","format":"anthropic","strict":true}"#;
    assert_eq!(ask(&binary, list), b"error:unsupported");
    assert_eq!(
        String::from_utf8_lossy(&run(&binary, list).stderr),
        "tool-schema: unsupported: Anthropic strict mode (\"format\":\"anthropic\",\"strict\":true) \
         takes strict tools in one request: at most 20, and this request would carry 21; ask for \
         the tools one at a time with tool_schema, or without strict\n"
    );
    let one = r#"{"op":"tool_schema","tool":"t20","format":"anthropic","strict":true}"#;
    assert!(ask(&binary, one).starts_with(b"{\"description\":\"d\""));
    let plain = r#"{"op":"tool_list","format":"anthropic"}"#;
    assert!(ask(&binary, plain).starts_with(b"[{"));
}

/// Seed 003's whole catalog builds: `ask`'s description, 1,100 characters, is past the 1,024
/// that OpenAI's shapes declare, so those shapes answer `unsupported` for it and for the list,
/// naming the reason, while every other shape declares it. The file read at run time answers
/// the same, byte for byte, refusals included.
#[test]
fn the_full_seed_catalog_builds_and_only_openai_cannot_declare_ask() {
    let catalog = Path::new(MANIFEST).join("tests/catalogs/reasonix/full.json");
    let binary = binary(&catalog, "reasonix-full");
    let tools = names(&catalog);
    assert_eq!(tools.len(), 15);
    for (format, strict) in SHAPES {
        let out = run(&binary, &request(Some("ask"), format, strict));
        if format.starts_with("openai") {
            assert_eq!(
                String::from_utf8_lossy(&out.stderr),
                format!(
                    "tool-schema: unsupported: tool \"ask\" cannot be declared in format \
                     {format}{}: its description is 1100 characters, and OpenAI takes at most \
                     1024; the catalog's schema is still what check_call enforces\n",
                    if strict { " with \"strict\":true" } else { "" }
                )
            );
            assert_eq!(
                ask(&binary, &request(None, format, strict)),
                b"error:unsupported"
            );
        } else {
            assert!(out.status.success(), "{format} {strict}");
            assert!(String::from_utf8_lossy(&out.stdout).contains("\"name\":\"ask\""));
        }
    }
    assert!(assert_run_time_catalog_agrees(&binary, &catalog, &tools) > 9 * 16);
}

/// A catalog that breaks a structural rule fails the build in its build script, with the
/// reader's one line, and never reaches the compiler (whose E0080 is many lines). One target
/// directory serves them all: only the build script runs again.
#[test]
fn every_structural_rule_fails_the_build_with_one_line() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("const-rules");
    std::fs::create_dir_all(&dir).unwrap();
    // The catalog written to `file` and built: the build must fail. Gives the file as the
    // build names it (from the package's directory when it is inside it, and whole otherwise:
    // a CARGO_TARGET_DIR elsewhere) and the build's standard error.
    let failed_build = |file: &str, catalog: &str, what: &str| {
        let path = dir.join(file);
        std::fs::write(&path, catalog).unwrap();
        let out = build(&path, "const-rules");
        assert!(!out.status.success(), "{what}: the catalog built");
        let shown = path
            .strip_prefix(MANIFEST)
            .unwrap_or(&path)
            .display()
            .to_string();
        (shown, String::from_utf8_lossy(&out.stderr).into_owned())
    };
    for (i, (rule, catalog, line)) in common::STRUCTURAL_RULES.into_iter().enumerate() {
        let (shown, stderr) = failed_build(&format!("rule-{i}.json"), catalog, rule);
        let want = format!("error: {shown}: {line}");
        assert!(
            stderr.lines().any(|l| l.trim() == want) && !stderr.contains("E0080"),
            "{rule}: no line {want:?}, or the compiler's error, in:\n{stderr}"
        );
    }
    // Every bad tool of a file, each on its line, as a compiler lists its errors.
    let (_, mixed, refusals) = common::five_good_two_bad();
    let (shown, stderr) = failed_build("five-good-two-bad.json", &mixed, "the mixed file");
    for refusal in refusals {
        let want = format!("error: {shown}: {refusal}");
        assert!(
            stderr.lines().any(|l| l.trim() == want),
            "no line {want:?} in:\n{stderr}"
        );
    }
}

/// Building from the mcp list of a catalog gives back every answer of that catalog: the first
/// build's answers are its golden files (`golden`), so neither build can pass by refusing
/// alike, and the second build's whole output (status, stdout and stderr) is the first's.
fn round_trip(catalog: &Path, name: &str, golden: &Path) {
    let tools = names(catalog);
    let first = binary(catalog, name);
    assert_eq!(
        matches_golden_files(&first, &tools, golden),
        9 * (tools.len() + 1)
    );
    assert!(assert_run_time_catalog_agrees(&first, catalog, &tools) >= 9 * (tools.len() + 3));
    let list = ask(&first, r#"{"op":"tool_list","format":"mcp"}"#);
    let again = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-mcp-list.json"));
    std::fs::write(&again, &list).unwrap();
    let second = binary(&again, &format!("{name}-again"));
    let (before, after) = (every_answer(&first, &tools), every_answer(&second, &tools));
    assert_eq!(before.len(), 9 * (tools.len() + 1));
    for ((request, a), (_, b)) in before.iter().zip(&after) {
        assert_eq!(a.0, b.0, "exit status of {request}");
        common::assert_same_bytes(&b.1, &a.1, &format!("stdout of {request}"));
        common::assert_same_bytes(&b.2, &a.2, &format!("stderr of {request}"));
    }
}

#[test]
fn the_mcp_list_of_the_default_catalog_is_a_catalog_that_gives_the_same_bytes() {
    let root = Path::new(MANIFEST);
    round_trip(
        &root.join("src/catalog.json"),
        "default",
        &root.join("tests/golden"),
    );
}

#[test]
fn the_mcp_list_of_seed_003_is_a_catalog_that_gives_the_same_bytes() {
    let dir = Path::new(MANIFEST).join("tests/catalogs/reasonix");
    round_trip(
        &dir.join("catalog.json"),
        "reasonix-trip",
        &dir.join("golden"),
    );
}

/// No request allocates, whatever the catalog: `tests/alloc.rs`, built and run over seed 003's.
#[test]
fn no_request_allocates_over_seed_003s_catalog() {
    let catalog = Path::new(MANIFEST).join("tests/catalogs/reasonix/catalog.json");
    let out = cargo(&["test", "--quiet", "--test", "alloc"], "reasonix-alloc")
        .env("TOOL_SCHEMA_CATALOG", &catalog)
        .output()
        .expect("cargo runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    // Every test of tests/alloc.rs ran, and passed.
    let tests = std::fs::read_to_string(Path::new(MANIFEST).join("tests/alloc.rs"))
        .expect("tests/alloc.rs")
        .matches("#[test]")
        .count();
    let passed = format!("test result: ok. {tests} passed");
    assert!(
        tests >= 5 && out.status.success() && stdout.contains(&passed),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A relative TOOL_SCHEMA_CATALOG is taken from the directory cargo was started in, as a shell
/// gives it (`PWD`), not from the package's directory.
#[test]
fn a_relative_catalog_path_is_taken_from_where_cargo_was_started() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("relative-start");
    std::fs::create_dir_all(dir.join("nested")).unwrap();
    let catalog = r#"[{"name":"only_tool","description":"d","inputSchema":{"type":"object"}}]"#;
    std::fs::write(dir.join("nested/tools.json"), catalog).unwrap();
    let out = cargo(&BUILD, "relative")
        .current_dir(&dir)
        .env("PWD", &dir)
        .env("TOOL_SCHEMA_CATALOG", "nested/tools.json")
        .output()
        .expect("cargo runs");
    assert_cargo_succeeded(&out, "building with a relative TOOL_SCHEMA_CATALOG");
    let answer = ask(
        &target_dir("relative").join("debug/tool-schema"),
        r#"{"op":"tool_list","format":"gemini"}"#,
    );
    assert_eq!(
        answer,
        b"[{\"description\":\"d\",\"name\":\"only_tool\"}]\n"
    );
}

/// A crate that depends on this one names its catalog in its own `.cargo/config.toml`, as the
/// README shows, and its build declares that catalog's tools.
#[test]
fn a_dependent_crate_sets_the_catalog_in_its_cargo_config() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("dependent-crate");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::create_dir_all(dir.join(".cargo")).unwrap();
    let manifest = Path::new(MANIFEST).display().to_string().replace('\\', "/");
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"harness\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n\
             [dependencies]\ntool-schema = {{ path = \"{manifest}\" }}\n\n[workspace]\n"
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join(".cargo/config.toml"),
        "[env]\nTOOL_SCHEMA_CATALOG = { value = \"tools.json\", relative = true }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("tools.json"),
        r#"[{"name":"harness_tool","description":"d","inputSchema":{"type":"object"}}]"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("src/main.rs"),
        "fn main() {\n    let mut out = Vec::new();\n    \
         tool_schema::respond(br#\"{\"op\":\"tool_list\",\"format\":\"gemini\"}\"#, &mut out).unwrap();\n    \
         print!(\"{}\", String::from_utf8(out).unwrap());\n}\n",
    )
    .unwrap();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(["run", "--quiet", "--offline"])
        .current_dir(&dir)
        .env_remove("TOOL_SCHEMA_CATALOG")
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .stdin(Stdio::null())
        .output()
        .expect("cargo runs");
    assert_cargo_succeeded(&out, "running the dependent crate");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "[{\"description\":\"d\",\"name\":\"harness_tool\"}]\n"
    );
}

#[test]
fn check_call_over_a_catalog_of_bounds_matches_its_golden_files() {
    let root = Path::new(MANIFEST);
    let catalog = root.join("tests/catalogs/bounds/catalog.json");
    let binary = binary(&catalog, "bounds");
    let dir = root.join("tests/calls/bounds");
    let mut checked = 0;
    for (name, request) in common::call_cases_in(&dir, common::BOUNDS_CALLS) {
        let want = std::fs::read(dir.join(format!("golden/{name}.json")))
            .unwrap_or_else(|err| panic!("golden/{name}.json: {err}"));
        common::assert_same_bytes(&ask(&binary, &request), &want, &name);
        // Read at run time, the same answer.
        let run_time = run_at_run_time(&catalog, &request).stdout;
        common::assert_same_bytes(&run_time, &want, &format!("{name}, read at run time"));
        checked += 1;
    }
    assert_eq!(checked, common::BOUNDS_CALLS);
    let tools = names(&catalog);
    assert!(assert_run_time_catalog_agrees(&binary, &catalog, &tools) >= 9 * 4);
}

/// The catalogs that pydantic, zod, FastMCP and twelve published MCP servers write
/// (`tests/catalogs/`, each made by the real tool): each builds, every answer (each tool and
/// the list, in 9 shapes) is its golden file's, written by `tests/framework_reference.py` from the docs alone,
/// its `mcp` tool list builds again into a binary that gives every answer of the first, byte
/// for byte, and every tool is declared in the shapes that can express it. Which shapes cannot
/// is asserted per catalog, with its reason, so that neither build can pass by refusing alike.
#[test]
fn framework_catalogs_build_and_their_mcp_list_gives_the_same_bytes() {
    let root = Path::new(MANIFEST).join("tests/catalogs");
    // Each catalog, its golden directory, its number of tools, and how many of its answers
    // (every tool and the list, in 9 shapes) are `unsupported`: tuples, maps and recursion
    // under the strict modes, recursion and dashed property names in Gemini's, descriptions
    // over OpenAI's 1,024 characters, and Anthropic strict's 24 optional properties a list.
    let catalogs = [
        ("pydantic/catalog.json", "pydantic/golden", 12, 12),
        ("zod/catalog.json", "zod/golden", 11, 12),
        ("zod/catalog-direct.json", "zod/golden-direct", 11, 12),
        (
            "mcp-servers/mcp-server-fetch.json",
            "mcp-servers/golden/mcp-server-fetch",
            1,
            0,
        ),
        (
            "mcp-servers/mcp-server-git.json",
            "mcp-servers/golden/mcp-server-git",
            12,
            0,
        ),
        (
            "mcp-servers/mcp-server-time.json",
            "mcp-servers/golden/mcp-server-time",
            2,
            0,
        ),
        (
            "mcp-servers/server-everything.json",
            "mcp-servers/golden/server-everything",
            19,
            0,
        ),
        (
            "mcp-servers/server-filesystem.json",
            "mcp-servers/golden/server-filesystem",
            14,
            0,
        ),
        (
            "mcp-servers/server-memory.json",
            "mcp-servers/golden/server-memory",
            9,
            0,
        ),
        (
            "mcp-servers/github-mcp-server.json",
            "mcp-servers/golden/github-mcp-server",
            97,
            1,
        ),
        ("fastmcp/tools.json", "fastmcp/golden", 4, 0),
        (
            "mcp-servers-2026-12/brave-search-mcp-server.json",
            "mcp-servers-2026-12/golden/brave-search-mcp-server",
            8,
            17,
        ),
        (
            "mcp-servers-2026-12/chrome-devtools-mcp.json",
            "mcp-servers-2026-12/golden/chrome-devtools-mcp",
            32,
            1,
        ),
        (
            "mcp-servers-2026-12/context7-mcp.json",
            "mcp-servers-2026-12/golden/context7-mcp",
            2,
            8,
        ),
        (
            "mcp-servers-2026-12/notion-mcp-server.json",
            "mcp-servers-2026-12/golden/notion-mcp-server",
            24,
            75,
        ),
        (
            "mcp-servers-2026-12/server-sequential-thinking.json",
            "mcp-servers-2026-12/golden/server-sequential-thinking",
            1,
            8,
        ),
    ];
    // The goldens are compared for every catalog before failing, so that one run lists every
    // difference.
    let (mut answered, mut differences) = (0, Vec::new());
    for (i, (catalog, golden, count, unsupported)) in catalogs.into_iter().enumerate() {
        let path = root.join(catalog);
        let tools = names(&path);
        assert_eq!(tools.len(), count, "{catalog}");
        let name = format!("framework-{i}");
        let first = binary(&path, &name);
        let (checked, differ) = golden_differences(&first, &tools, &root.join(golden));
        assert_eq!(
            checked,
            9 * (count + 1),
            "{catalog}: every tool and the list, in 9 shapes"
        );
        answered += checked;
        differences.extend(differ);
        let answers = every_answer(&first, &tools);
        let mut refused = Vec::new();
        for (request, (status, stdout, stderr)) in &answers {
            if *status == Some(0) {
                assert!(
                    stdout.ends_with(b"\n") && stderr.is_empty(),
                    "{catalog}: {request}"
                );
                continue;
            }
            let line = String::from_utf8_lossy(stderr);
            assert!(
                stdout.is_empty() && line.contains("unsupported"),
                "{catalog}: {request}: {line}"
            );
            assert!(
                !request.contains("\"format\":\"mcp\""),
                "{catalog}: the mcp shape writes every tool: {line}"
            );
            refused.push(format!("{request} {line}"));
        }
        assert_eq!(refused.len(), unsupported, "{catalog}: {refused:#?}");
        assert!(assert_run_time_catalog_agrees(&first, &root.join(catalog), &tools) >= 9 * 4);
        let list = ask(&first, r#"{"op":"tool_list","format":"mcp"}"#);
        let again =
            PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-mcp-list.json"));
        std::fs::write(&again, &list).unwrap();
        let second = binary(&again, &format!("{name}-again"));
        for ((request, a), (_, b)) in answers.iter().zip(&every_answer(&second, &tools)) {
            assert_eq!(a.0, b.0, "{catalog}: exit status of {request}");
            common::assert_same_bytes(&b.1, &a.1, &format!("{catalog}: stdout of {request}"));
            common::assert_same_bytes(&b.2, &a.2, &format!("{catalog}: stderr of {request}"));
        }
    }
    assert_eq!(
        answered,
        9 * (259 + 16),
        "259 tools and 16 lists, in 9 shapes"
    );
    assert!(
        differences.is_empty(),
        "{} of {answered} answers differ from their golden files:\n{}",
        differences.len(),
        differences.join("\n")
    );
}

/// check_call over the pydantic catalog, on a discriminated union (`notify`'s `channel`: email,
/// Slack or webhook, told apart by `kind`): a wrong `kind` is named with every value a branch
/// takes, a missing one is asked for, and the branch `kind` names is the one whose problem is
/// reported, not whichever branch failed deepest. A right call is written back in canonical form.
#[test]
fn check_call_over_the_pydantic_catalog_reads_a_discriminated_union() {
    let catalog = Path::new(MANIFEST).join("tests/catalogs/pydantic/catalog.json");
    let binary = binary(&catalog, "framework-0");
    let call = |arguments: &str| {
        let request = format!(
            r#"{{"op":"check_call","format":"openai","call":{{"id":"c1","type":"function","function":{{"name":"notify","arguments":{}}}}}}}"#,
            serde_string(arguments)
        );
        String::from_utf8(ask(&binary, &request)).unwrap()
    };
    let answer = call(r#"{"message":"hi","channel":{"kind":"sms","to":["a@b.co"]}}"#);
    assert!(
        answer.starts_with(r#"{"errors":[{"code":"argument_not_in_enum","message":"argument \"channel/kind\" must be one of \"email\", \"slack\", \"webhook\", found the string \"sms\"","path":"/channel/kind"}]"#),
        "{answer}"
    );
    let answer = call(r#"{"message":"hi","channel":{"to":["a@b.co"]}}"#);
    assert!(
        answer.starts_with(r#"{"errors":[{"code":"missing_argument","message":"missing required argument \"channel/kind\"","path":"/channel/kind"}]"#),
        "{answer}"
    );
    // Missing even where every branch defaults it (create_event's `location`: a room or a
    // video call), as pydantic refuses it, though plain JSON Schema would let it fit.
    let request = format!(
        r#"{{"op":"check_call","format":"openai","call":{{"id":"c1","type":"function","function":{{"name":"create_event","arguments":{}}}}}}}"#,
        serde_string(
            r#"{"title":"t","start":"2024-01-15T10:30:00Z","location":{"provider":"meet"}}"#
        )
    );
    let answer = String::from_utf8(ask(&binary, &request)).unwrap();
    assert!(
        answer.starts_with(r#"{"errors":[{"code":"missing_argument","message":"missing required argument \"location/kind\"","path":"/location/kind"}]"#),
        "{answer}"
    );
    let answer = call(r#"{"message":"hi","channel":{"kind":"slack","channel":"general"}}"#);
    assert!(
        answer.starts_with(r#"{"errors":[{"code":"argument_not_matching","message":"argument \"channel/channel\" must match the pattern \"^#[a-z0-9_-]{1,80}$\", found the string \"general\"","path":"/channel/channel"}]"#),
        "{answer}"
    );
    let answer = call(r#"{"channel":{"to":["a@b.co"],"kind":"email"},"message":"hi"}"#);
    assert_eq!(
        answer,
        "{\"arguments\":{\"channel\":{\"kind\":\"email\",\"to\":[\"a@b.co\"]},\"message\":\"hi\"},\"id\":\"c1\",\"name\":\"notify\",\"ok\":true}\n"
    );
}

/// `text` as a JSON string literal (the arguments of an OpenAI call are a string).
fn serde_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `TOOL_SCHEMA_REVIEW`: `warn` builds and shows each finding as a cargo warning, `strict` fails
/// the build on them, and a clean catalog builds under `strict`.
#[test]
fn a_build_can_run_the_catalog_review() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("review-build");
    std::fs::create_dir_all(&dir).unwrap();
    let risky = dir.join("risky.json");
    std::fs::write(
        &risky,
        r#"[{"name":"run","description":"Runs it. Only for builds.","annotations":{"readOnlyHint":false},
           "inputSchema":{"type":"object","additionalProperties":false,
           "properties":{"command":{"type":"string","maxLength":100}}}}]"#,
    )
    .unwrap();
    let finding = "run /inputSchema/properties/command command-execution: ";
    // Without --quiet, which hides a build script's warnings.
    let warn = cargo(&["build", "--bin", "tool-schema"], "review")
        .env("TOOL_SCHEMA_CATALOG", &risky)
        .env("TOOL_SCHEMA_REVIEW", "warn")
        .output()
        .expect("cargo runs");
    assert_cargo_succeeded(&warn, "a build with TOOL_SCHEMA_REVIEW=warn");
    let stderr = String::from_utf8_lossy(&warn.stderr);
    assert!(
        stderr.contains("warning: tool-schema") && stderr.contains(finding),
        "{stderr}"
    );
    let strict = cargo(&BUILD, "review")
        .env("TOOL_SCHEMA_CATALOG", &risky)
        .env("TOOL_SCHEMA_REVIEW", "strict")
        .output()
        .expect("cargo runs");
    assert!(!strict.status.success());
    let stderr = String::from_utf8_lossy(&strict.stderr);
    assert!(
        stderr.contains(finding) && stderr.contains("1 review findings"),
        "{stderr}"
    );
    let clean = dir.join("clean.json");
    std::fs::write(
        &clean,
        r#"[{"name":"run","description":"Runs it. Only for builds.","annotations":{"readOnlyHint":false},
           "inputSchema":{"type":"object","additionalProperties":false,
           "properties":{"target":{"type":"string","enum":["build","test"]}}}}]"#,
    )
    .unwrap();
    let out = cargo(&BUILD, "review")
        .env("TOOL_SCHEMA_CATALOG", &clean)
        .env("TOOL_SCHEMA_REVIEW", "strict")
        .output()
        .expect("cargo runs");
    assert_cargo_succeeded(&out, "a clean catalog under TOOL_SCHEMA_REVIEW=strict");
}
