//! Catalogs read at run time (issue 19): `--catalog`, stream mode's `use_catalog`, and the
//! library's `RuntimeCatalog`. Their exactness against binaries built with each test catalog is
//! in `tests/catalogs.rs`, where those binaries are built.

mod common;

use std::path::{Path, PathBuf};
use tool_schema::{respond, RuntimeCatalog};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn temp(name: &str, bytes: &[u8]) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Requests over the default catalog: every tool in every shape, the lists, errors, and calls.
fn requests() -> Vec<Vec<u8>> {
    let mut requests = Vec::new();
    let formats = ["openai", "openai_responses", "anthropic", "gemini", "mcp"];
    for format in formats {
        for strict in [false, true] {
            for tool in tool_schema::catalog::NAMES.iter().chain(&["rm", "read"]) {
                requests.push(format!(
                    r#"{{"op":"tool_schema","tool":"{tool}","format":"{format}","strict":{strict}}}"#
                ));
            }
            requests.push(format!(
                r#"{{"op":"tool_list","format":"{format}","strict":{strict}}}"#
            ));
        }
    }
    requests.push(r#"{"op":"tool_schema","tool":"read_\u0066ile"}"#.into());
    requests.push(r#"{"op":"nope"}"#.into());
    requests.push("{".into());
    requests.push(
        r#"{"op":"check_call","format":"anthropic","call":{"type":"tool_use","id":"t","name":"read_file","input":{"path":"a.rs"}}}"#.into(),
    );
    requests.push(
        r#"{"op":"check_call","call":{"id":"c","type":"function","function":{"name":"read_fil","arguments":"{}"}}}"#.into(),
    );
    requests.into_iter().map(String::into_bytes).collect()
}

/// The library's `RuntimeCatalog` over `src/catalog.json` gives every answer and every error
/// of the compiled-in catalog, byte for byte (calls to flat tools aside, see
/// docs/checking-calls.md: the ones here are valid or name no tool).
#[test]
fn the_default_catalog_read_at_run_time_answers_as_the_compiled_one() {
    let bytes = std::fs::read(Path::new(ROOT).join("src/catalog.json")).unwrap();
    let catalog = RuntimeCatalog::from_bytes(&bytes).unwrap();
    assert_eq!(catalog.len(), tool_schema::catalog::NAMES.len());
    assert_eq!(catalog.max_output(), tool_schema::MAX_OUTPUT);
    let (mut answers, mut errors) = (0, 0);
    for request in requests() {
        let (mut compiled, mut run_time) = (Vec::new(), Vec::new());
        let a = respond(&request, &mut compiled);
        let b = catalog.respond(&request, &mut run_time);
        let what = String::from_utf8_lossy(&request);
        common::assert_same_bytes(&run_time, &compiled, &what);
        match (a, b) {
            (Ok(()), Ok(())) => answers += 1,
            (Err(a), Err(b)) => {
                assert_eq!(
                    (a.code(), a.to_string()),
                    (b.code(), b.to_string()),
                    "{what}"
                );
                errors += 1;
            }
            (a, b) => panic!("{what}: {a:?} against {b:?}"),
        }
    }
    // Both halves met: declarations and answers, refusals (unknown tools, strict where a format
    // has none, a bad request).
    assert!(answers >= 8 * 4, "{answers}");
    assert!(errors >= 2 * 8 + 2 * 4 + 2, "{errors}");
}

/// A catalog that breaks a rule is refused at start with the build's line after the path:
/// exit status 1, nothing on standard output. A stream does not end: every line is answered
/// bad_catalog, never over the compiled-in catalog, until a use_catalog succeeds.
#[test]
fn a_bad_catalog_is_refused_with_the_builds_line() {
    let bytes = br#"[{"name":"x","description":"d","inputSchema":{"type":"object","properties":{"o":{"type":"strin"}}}}]"#;
    let reader = tool_schema::catalog_file::read(bytes).unwrap_err();
    let path = temp("bad-catalog.json", bytes);
    let shown = path.to_str().unwrap();
    let out = common::run(&["--catalog", shown], br#"{"op":"tool_list"}"#);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let line = format!("tool-schema: bad_catalog: {shown}: {reader}\n");
    assert_eq!(String::from_utf8(out.stderr).unwrap(), line);
    let good = temp(
        "good-after-bad.json",
        br#"[{"name":"ping","description":"Ping.","inputSchema":{"type":"object","properties":{}}}]"#,
    );
    let lines = format!(
        "{}\n{}\n{}\n",
        r#"{"op":"tool_schema","tool":"read_file","format":"mcp"}"#,
        format_args!(
            r#"{{"op":"use_catalog","path":{:?}}}"#,
            good.to_str().unwrap()
        ),
        r#"{"op":"tool_list","format":"mcp"}"#,
    );
    let out = common::run(&["--stream", "--catalog", shown], lines.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8(out.stderr).unwrap(), line);
    let stdout = String::from_utf8(out.stdout).unwrap();
    let answers: Vec<&str> = stdout.lines().collect();
    assert_eq!(answers.len(), 3, "{stdout}");
    let refusal = format!(
        "no catalog is in use, since the --catalog file was refused ({shown}: {reader}); send \
         {{\"op\":\"use_catalog\",\"path\":P}} with a catalog file"
    );
    let mut escaped = String::new();
    for c in refusal.chars() {
        match c {
            '"' | '\\' => escaped.extend(['\\', c]),
            _ => escaped.push(c),
        }
    }
    assert_eq!(
        answers[0],
        format!(r#"{{"error":{{"code":"bad_catalog","message":"{escaped}"}}}}"#)
    );
    assert_eq!(answers[1], r#"{"ok":true,"refused":[],"tools":1}"#);
    assert!(
        answers[2].starts_with(r#"[{"annotations":"#) && answers[2].contains(r#""name":"ping""#)
    );
    let out = common::run(&["--catalog", "/nonexistent/tools.json"], b"{}");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr)
        .starts_with("tool-schema: bad_catalog: /nonexistent/tools.json: "));
    assert_eq!(common::run(&["--catalog"], b"").status.code(), Some(2));
    assert_eq!(
        common::run(&["--catalog", "a", "--catalog", "b"], b"")
            .status
            .code(),
        Some(2)
    );
}

/// `use_catalog` swaps the catalog for the lines after it; a refused file keeps the one in
/// use; and a wrong `use_catalog` gets the request errors' codes.
#[test]
fn use_catalog_swaps_the_catalog_between_lines_and_keeps_it_on_a_refusal() {
    let one = temp(
        "one-tool.json",
        br#"[{"name":"ping","description":"Ping.","inputSchema":{"type":"object","properties":{}}}]"#,
    );
    let bad = temp("bad-tool.json", br#"[{"name":"ping"}]"#);
    let reader = tool_schema::catalog_file::read(br#"[{"name":"ping"}]"#).unwrap_err();
    let default = Path::new(ROOT).join("src/catalog.json");
    let lines = [
        r#"{"op":"tool_schema","tool":"ping","format":"mcp"}"#.to_string(),
        format!(
            r#"{{"op":"use_catalog","path":{:?}}}"#,
            one.to_str().unwrap()
        ),
        r#"{"op":"tool_schema","tool":"ping","format":"mcp"}"#.to_string(),
        format!(
            r#"{{"path":{:?},"op":"use_catalog"}}"#,
            bad.to_str().unwrap()
        ),
        r#"{"op":"tool_list","format":"mcp"}"#.to_string(),
        r#"{"op":"use_catalog"}"#.to_string(),
        r#"{"op":"use_catalog","path":1}"#.to_string(),
        r#"{"op":"use_catalog","path":"x","tool":"y"}"#.to_string(),
        format!(
            r#"{{"op":"use_catalog","path":{:?}}}"#,
            default.to_str().unwrap()
        ),
        r#"{"op":"tool_schema","tool":"read_file","format":"mcp"}"#.to_string(),
    ];
    let input = lines.join("\n") + "\n";
    let out = common::run(&["--stream"], input.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let answers: Vec<&str> = text.lines().collect();
    assert_eq!(answers.len(), lines.len(), "{text}");
    assert!(
        answers[0].starts_with(r#"{"error":{"code":"unknown_tool""#),
        "{text}"
    );
    assert_eq!(answers[1], r#"{"ok":true,"refused":[],"tools":1}"#);
    let mut ping = Vec::new();
    RuntimeCatalog::from_bytes(&std::fs::read(&one).unwrap())
        .unwrap()
        .respond(lines[2].as_bytes(), &mut ping)
        .unwrap();
    assert_eq!(format!("{}\n", answers[2]).as_bytes(), ping);
    assert!(answers[2].contains(r#""name":"ping""#));
    let refusal = format!("{}: {reader}", bad.to_str().unwrap());
    // JSON's escapes of the message, which holds quotes and no control characters.
    let escaped = refusal.replace('\\', "\\\\").replace('"', "\\\"");
    assert_eq!(
        answers[3],
        format!(r#"{{"error":{{"code":"bad_catalog","message":"{escaped}"}}}}"#)
    );
    assert_eq!(
        answers[4],
        format!("[{}]", answers[2]),
        "the catalog stayed"
    );
    assert!(
        answers[5].starts_with(r#"{"error":{"code":"missing_field""#),
        "{text}"
    );
    assert!(
        answers[6].starts_with(r#"{"error":{"code":"wrong_type""#),
        "{text}"
    );
    assert!(
        answers[7].starts_with(r#"{"error":{"code":"unknown_field""#),
        "{text}"
    );
    assert_eq!(answers[8], r#"{"ok":true,"refused":[],"tools":3}"#);
    let mut read_file = Vec::new();
    respond(
        br#"{"op":"tool_schema","tool":"read_file","format":"mcp"}"#,
        &mut read_file,
    )
    .unwrap();
    assert_eq!(format!("{}\n", answers[9]).as_bytes(), read_file);
    // One-shot mode has no use_catalog.
    let out = common::run(&[], lines[1].as_bytes());
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("tool-schema: unknown_"));
}

/// Hostile catalogs get a clear refusal, in bounded time and memory, and no panic: over the
/// size limit, nested 10,000 deep, 100,000 tools, a `$ref` cycle, a pattern built to be slow.
#[test]
fn hostile_catalogs_are_refused_with_one_line() {
    let tool = |schema: &str| format!(r#"{{"name":"t","description":"d","inputSchema":{schema}}}"#);
    let mut huge = b"[".to_vec();
    huge.resize(16 * 1024 * 1024 + 10, b' ');
    let deep = format!("[{}{}]", "[".repeat(10_000), "]".repeat(10_000));
    let many = format!(
        "[{}]",
        (0..100_000)
            .map(|i| format!(
                r#"{{"name":"t{i}","description":"d","inputSchema":{{"type":"object"}}}}"#
            ))
            .collect::<Vec<_>>()
            .join(",")
    );
    let cycle = format!(
        "[{}]",
        tool(
            r##"{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}}"##
        )
    );
    let slow = format!(
        "[{}]",
        tool(r#"{"type":"object","properties":{"a":{"type":"string","pattern":"^(a|a)*(?=b)"}}}"#)
    );
    let cases: [(&str, Vec<u8>, &str); 5] = [
        ("16 MiB and more", huge, "bytes"),
        ("10,000 levels", deep.into_bytes(), "deep"),
        ("100,000 tools", many.into_bytes(), "1024"),
        ("a $ref cycle", cycle.into_bytes(), "$ref"),
        ("a slow pattern", slow.into_bytes(), "look"),
    ];
    for (what, bytes, word) in cases {
        let started = std::time::Instant::now();
        let err = match RuntimeCatalog::from_bytes(&bytes) {
            Ok(_) => panic!("{what}: read"),
            Err(err) => err.to_string(),
        };
        let took = started.elapsed();
        assert!(!err.contains('\n'), "{what}: {err}");
        assert!(err.contains(word), "{what}: {err}");
        eprintln!("{what}: refused in {took:?}: {err}");
        let path = temp("hostile.json", &bytes);
        let out = common::run(
            &["--catalog", path.to_str().unwrap()],
            br#"{"op":"tool_list"}"#,
        );
        assert_eq!(out.status.code(), Some(1), "{what}");
        assert!(out.stdout.is_empty(), "{what}");
        assert_eq!(
            String::from_utf8(out.stderr).unwrap(),
            format!("tool-schema: bad_catalog: {}: {err}\n", path.display()),
            "{what}"
        );
    }
}

/// What a published catalog of `tests/catalogs/mcp-servers-2026-12` answers for one request:
/// the bytes, or the error's code and line.
fn published_answer(catalog: &RuntimeCatalog, request: &str) -> Result<Vec<u8>, (String, String)> {
    let mut out = Vec::new();
    match catalog.respond(request.as_bytes(), &mut out) {
        Ok(()) => Ok(out),
        Err(err) => {
            assert!(out.is_empty(), "{request}: wrote before failing");
            Err((err.code().to_string(), err.to_string()))
        }
    }
}

/// MCP servers published by others and dumped as their clients get them
/// (`tests/catalogs/mcp-servers-2026-12/README.md`): five catalogs the reader refused whole
/// before 2026-12-02, for a long description, a `format` on an integer, property names with
/// dashes, and an annotation MCP does not define. Each loads; every tool in every shape answers
/// a declaration or `unsupported`; each list is its tools' declarations joined, or
/// `unsupported` when one of them is; the catalog's own `mcp` list, read again, answers every
/// request byte for byte; and each rule that changed answers as it now should.
#[test]
fn published_catalogs_of_2026_12_load_and_answer() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/catalogs/mcp-servers-2026-12");
    let files = [
        "brave-search-mcp-server",
        "chrome-devtools-mcp",
        "context7-mcp",
        "notion-mcp-server",
        "server-sequential-thinking",
    ];
    for file in files {
        let bytes = std::fs::read(dir.join(format!("{file}.json"))).unwrap();
        let catalog =
            RuntimeCatalog::from_bytes(&bytes).unwrap_or_else(|err| panic!("{file}: {err}"));
        let names: Vec<String> = {
            let read = tool_schema::catalog_file::read(&bytes).unwrap();
            let model = read.model();
            (0..model.tools.len())
                .map(|tool| model.name(tool).to_string())
                .collect()
        };
        let mut requests = Vec::new();
        for (format, strict) in common::SHAPES {
            let mut declarations = Vec::new();
            for name in &names {
                let request = format!(
                    r#"{{"op":"tool_schema","tool":"{name}","format":"{format}","strict":{strict}}}"#
                );
                match published_answer(&catalog, &request) {
                    Ok(answer) => {
                        assert_eq!(answer.iter().filter(|&&b| b == b'\n').count(), 1);
                        declarations.push(Some(answer[..answer.len() - 1].to_vec()));
                    }
                    Err((code, _)) => {
                        assert_eq!(code, "unsupported", "{file}: {request}");
                        declarations.push(None);
                    }
                }
                requests.push(request);
            }
            let list = format!(r#"{{"op":"tool_list","format":"{format}","strict":{strict}}}"#);
            match published_answer(&catalog, &list) {
                Ok(answer) => {
                    let joined: Option<Vec<Vec<u8>>> = declarations.into_iter().collect();
                    let want = [
                        b"[".to_vec(),
                        joined
                            .expect("a list of undeclarable tools")
                            .join(&b","[..]),
                        b"]\n".to_vec(),
                    ]
                    .concat();
                    common::assert_same_bytes(&answer, &want, &format!("{file}: {list}"));
                }
                Err((code, _)) => assert_eq!(code, "unsupported", "{file}: {list}"),
            }
            requests.push(list);
        }
        let mcp_list = published_answer(&catalog, r#"{"op":"tool_list","format":"mcp"}"#).unwrap();
        let again =
            RuntimeCatalog::from_bytes(&mcp_list).unwrap_or_else(|err| panic!("{file}: {err}"));
        for request in &requests {
            assert_eq!(
                published_answer(&again, request),
                published_answer(&catalog, request),
                "{file}: {request}"
            );
        }
    }
    let load = |file: &str| {
        let bytes = std::fs::read(dir.join(format!("{file}.json"))).unwrap();
        RuntimeCatalog::from_bytes(&bytes).unwrap()
    };
    let schema = |catalog: &RuntimeCatalog, tool: &str, format: &str| {
        let request = format!(r#"{{"op":"tool_schema","tool":"{tool}","format":"{format}"}}"#);
        published_answer(catalog, &request).map(|answer| String::from_utf8(answer).unwrap())
    };
    for (file, tool, characters) in [
        ("context7-mcp", "resolve-library-id", 2006),
        ("server-sequential-thinking", "sequentialthinking", 2781),
    ] {
        let catalog = load(file);
        let (code, line) = schema(&catalog, tool, "openai").unwrap_err();
        assert_eq!(code, "unsupported");
        assert!(
            line.contains(&format!("its description is {characters} characters")),
            "{line}"
        );
        assert!(schema(&catalog, tool, "anthropic").is_ok());
    }
    let notion = load("notion-mcp-server");
    assert!(schema(&notion, "API-post-search", "mcp")
        .unwrap()
        .contains(r#""format":"int32","type":"integer""#));
    let brave = load("brave-search-mcp-server");
    assert!(schema(&brave, "brave_llm_context", "mcp")
        .unwrap()
        .contains(r#""user-agent":{"#));
    let (_, line) = schema(&brave, "brave_llm_context", "gemini").unwrap_err();
    assert!(line.contains("is not one Gemini takes"), "{line}");
    let devtools = load("chrome-devtools-mcp");
    let list = published_answer(&devtools, r#"{"op":"tool_list","format":"mcp"}"#).unwrap();
    assert!(!String::from_utf8(list).unwrap().contains("\"category\""));
}

/// A node as the checkers read it, its texts resolved, down to `depth` levels (a `$ref` may
/// cycle): what `OwnedModel::for_checking` must keep alike.
fn as_checked(model: tool_schema::schema::Model<'_>, id: u32, depth: usize) -> String {
    let node = model.node(id);
    let rare = model.rare(node);
    let mut text = format!(
        "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
        node.ty,
        node.types,
        node.type_form,
        node.boolean,
        node.nullable,
        node.unique_items,
        node.has_properties,
        node.has_required,
        node.description.map(|text| model.str(text)),
    );
    if let Some(run) = node.enumeration {
        text += &format!(" enum {:?}", model.values(run).len());
    }
    text += &format!(
        " pattern {:?} format {:?} ref {:?} bounds {:?}",
        rare.pattern.map(|text| model.str(text)),
        rare.format.map(|text| model.str(text)),
        rare.reference.map(|(text, _)| model.str(text)),
        (
            rare.min_length,
            rare.max_length,
            rare.min_items,
            rare.max_items
        ),
    );
    text += &format!(
        " numbers {:?}",
        [
            rare.minimum,
            rare.maximum,
            rare.exclusive_minimum,
            rare.exclusive_maximum
        ]
        .map(|number| number.map(|number| model.str(number.text)))
    );
    for property in model.properties(node) {
        text += &format!(" [{} {}]", model.str(property.name), property.required);
    }
    if depth > 0 {
        for child in model.children(node) {
            text += &format!(" ({})", as_checked(model, child, depth - 1));
        }
    }
    text
}

/// What a run-time catalog keeps once it is rendered (`OwnedModel::for_checking`): no
/// annotation, no output schema, no field only MCP's declaration writes; the arguments' nodes
/// read alike, and the review finds the same.
#[test]
fn a_catalog_kept_after_rendering_holds_what_the_checkers_read() {
    let files = [
        "tests/catalogs/pydantic/catalog.json",
        "tests/catalogs/zod/catalog.json",
        "tests/catalogs/mcp-servers/mcp-server-git.json",
        "tests/catalogs/mcp-servers/github-mcp-server.json",
        "tests/catalogs/bounds/catalog.json",
    ];
    for file in files {
        let bytes = std::fs::read(Path::new(ROOT).join(file)).unwrap();
        let whole = tool_schema::catalog_file::read(&bytes).unwrap();
        let kept = whole.for_checking(String::new(), tool_schema::schema::OwnedModel::push_text);
        let (before, after) = (whole.model(), kept.model());
        assert_eq!(
            tool_schema::review::review(before),
            tool_schema::review::review(after),
            "{file}"
        );
        assert_eq!(before.tools.len(), after.tools.len());
        for (tool, (was, is)) in before.tools.iter().zip(after.tools).enumerate() {
            assert_eq!(before.name(tool), after.name(tool));
            assert_eq!(before.str(was.description), after.str(is.description));
            assert_eq!(
                (was.hints, was.flat, was.scalar_unions),
                (is.hints, is.flat, is.scalar_unions)
            );
            assert!(is.output.is_none() && is.title.is_none() && is.meta.is_none());
            assert_eq!(
                as_checked(before, was.input, 6),
                as_checked(after, is.input, 6),
                "{file}: {}",
                before.name(tool)
            );
        }
        assert!(kept.nodes.iter().all(|node| node.keywords.annotations == 0));
        assert!(kept.text.len() <= whole.text.len() && kept.nodes.len() <= whole.nodes.len());
        if file.contains("pydantic") {
            // Its output schemas and titles are gone.
            assert!(kept.nodes.len() < whole.nodes.len(), "{file}");
            assert!(kept.keywords.len() < whole.keywords.len() / 2, "{file}");
        }
    }
}

/// `tool_list` with `"skip_unsupported":true`: the declarations a shape can give, each byte for
/// byte its `tool_schema` answer, and each tool it cannot declare named with the reason its
/// `tool_schema` gives. Over the pydantic catalog (whose recursive `set_checklist` Gemini
/// cannot take), seed 003's whole file (whose `ask` OpenAI cannot take) and the compiled-in
/// one, in every shape.
#[test]
fn a_list_can_skip_what_its_shape_cannot_declare() {
    let ask = |catalog: Option<&RuntimeCatalog>, request: &str| {
        let mut out = Vec::new();
        let answer = match catalog {
            Some(catalog) => catalog.respond(request.as_bytes(), &mut out),
            None => respond(request.as_bytes(), &mut out),
        };
        answer.map(|()| String::from_utf8(out).unwrap())
    };
    let pydantic =
        RuntimeCatalog::from_path(Path::new("tests/catalogs/pydantic/catalog.json")).unwrap();
    let reasonix =
        RuntimeCatalog::from_path(Path::new("tests/catalogs/reasonix/full.json")).unwrap();
    let mut skipped_somewhere = 0;
    for catalog in [Some(&pydantic), Some(&reasonix), None] {
        let list = ask(catalog, r#"{"op":"tool_list","format":"mcp"}"#).unwrap();
        let names: Vec<String> = list
            .split("\"name\":\"")
            .skip(1)
            .filter_map(|rest| rest.split('"').next().map(str::to_string))
            .collect();
        for (format, strict) in common::SHAPES {
            let mut tools = Vec::new();
            let mut skipped = Vec::new();
            for name in &names {
                let request = format!(
                    r#"{{"op":"tool_schema","tool":"{name}","format":"{format}","strict":{strict}}}"#
                );
                match ask(catalog, &request) {
                    Ok(answer) => tools.push(answer.trim_end().to_string()),
                    Err(err) if err.code() == "unsupported" => {
                        skipped.push((name.clone(), err.to_string()))
                    }
                    Err(err) => panic!("{request}: {err}"),
                }
            }
            let request = format!(
                r#"{{"op":"tool_list","format":"{format}","strict":{strict},"skip_unsupported":true}}"#
            );
            let Ok(answer) = ask(catalog, &request) else {
                // Anthropic strict's limits on one request refuse a list whatever it skips.
                assert!(format == "anthropic" && strict, "{request}");
                continue;
            };
            let (head, tail) = answer.split_once("],\"tools\":[").expect("two members");
            assert_eq!(tail, format!("{}]}}\n", tools.join(",")), "{request}");
            let head = head.strip_prefix("{\"skipped\":[").unwrap();
            let listed: Vec<&str> = head.split("},{").filter(|s| !s.is_empty()).collect();
            assert_eq!(listed.len(), skipped.len(), "{request}: {head}");
            for (entry, (name, message)) in listed.iter().zip(&skipped) {
                assert!(
                    entry.ends_with(&format!("\"tool\":\"{name}\"}}"))
                        || entry.ends_with(&format!("\"tool\":\"{name}\"")),
                    "{entry}"
                );
                let reason = entry
                    .split("\"reason\":\"")
                    .nth(1)
                    .unwrap()
                    .split("\",\"tool\"")
                    .next()
                    .unwrap();
                assert!(
                    message.contains(&reason.replace("\\\"", "\"")),
                    "{message} / {reason}"
                );
            }
            skipped_somewhere += skipped.len();
            if skipped.is_empty() {
                // Nothing to skip: the list without the flag, as its member.
                let plain = ask(
                    catalog,
                    &format!(r#"{{"op":"tool_list","format":"{format}","strict":{strict}}}"#),
                )
                .unwrap();
                assert_eq!(
                    format!("{{\"skipped\":[],\"tools\":{}}}\n", plain.trim_end()),
                    answer
                );
            }
        }
    }
    assert!(skipped_somewhere >= 2, "{skipped_somewhere}");
    let err = ask(
        None,
        r#"{"op":"tool_schema","tool":"read_file","skip_unsupported":true}"#,
    )
    .unwrap_err();
    assert_eq!(err.code(), "unknown_field");
}
