//! Every request example in `README.md` and `docs/*.md` is run, and its answer compared byte for
//! byte. `docs/conformance.md` describes the same convention for whoever writes the pages.
//!
//! An example is a request followed by its answer. The request is one of:
//! - a fenced block whose info string is `request`: its lines, joined by newlines, are the
//!   request as one-shot standard input;
//! - a fenced block whose info string is `stream`: its lines, each ending in a newline, are the
//!   input of `tool-schema --stream`;
//! - a line `echo '<request>' | ...` in an `sh` block: the request is `<request>` and a newline,
//!   as `echo` prints it;
//! - a `br#"<request>"#` literal in a `rust` block.
//!
//! An `sh` or `rust` block holds at most one request. The next fenced block, with only blank
//! lines between, has the info string `answer` or `error`:
//! - `answer`: what standard output gets, each line with its newline (for a stream, every line
//!   out, error lines included);
//! - `error`: the line the CLI prints on standard error, `tool-schema: <code>: <message>`, with
//!   nothing on standard output. It follows one-shot requests only.
//!
//! A one-shot example runs through `tool_schema::respond` and through the binary; a stream
//! example through `tool_schema::serve` and `tool-schema --stream`. The test also fails when a
//! line of a fenced block holds `{"op":` and is not part of an example, when `{"op":` appears
//! outside an inline code span elsewhere, and when the number of examples is not [`EXAMPLES`].

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// How many examples the pages hold. Change it with the examples.
const EXAMPLES: usize = 49;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const BIN: &str = env!("CARGO_BIN_EXE_tool-schema");
/// What marks a request, wherever it is written.
const OP: &str = "{\"op\":";

#[test]
fn every_example_in_the_readme_and_docs_gets_the_answer_it_shows() {
    let mut failures = Vec::new();
    let mut counts = Vec::new();
    for page in pages() {
        let name = page.strip_prefix(ROOT).unwrap().display().to_string();
        let text = std::fs::read_to_string(&page).unwrap();
        let count = check_page(&name, &text, &mut failures);
        counts.push((name, count));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    let total: usize = counts.iter().map(|(_, count)| count).sum();
    assert!(total > 0, "no examples found");
    let per_page: Vec<String> = counts
        .iter()
        .map(|(name, count)| format!("{name}: {count}"))
        .collect();
    assert_eq!(
        total,
        EXAMPLES,
        "examples per page: {}; change EXAMPLES with the examples",
        per_page.join(", ")
    );
}

/// `README.md` and every `docs/*.md`, in a fixed order.
fn pages() -> Vec<PathBuf> {
    let root = Path::new(ROOT);
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    assert!(!docs.is_empty(), "no pages in docs/");
    let mut pages = vec![root.join("README.md")];
    pages.extend(docs);
    pages
}

/// A fenced code block: its info string, its lines (the fence's indent removed), the line
/// number of its opening fence, and whether only blank lines separate it from the block before.
struct Block {
    info: String,
    lines: Vec<String>,
    line: usize,
    right_after: bool,
}

/// Splits a page into its fenced blocks, and checks the text outside them.
fn blocks(name: &str, text: &str, failures: &mut Vec<String>) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<(usize, Block)> = None;
    let mut only_blank = false;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let trimmed = line.trim_start_matches(' ');
        let indent = line.len() - trimmed.len();
        if let Some((fence_indent, mut block)) = open.take() {
            if trimmed.trim_end() == "```" {
                blocks.push(block);
                only_blank = true;
            } else {
                block
                    .lines
                    .push(line[indent.min(fence_indent)..].to_string());
                open = Some((fence_indent, block));
            }
        } else if let Some(info) = trimmed.strip_prefix("```") {
            let block = Block {
                info: info.trim().to_string(),
                lines: Vec::new(),
                line: number,
                right_after: only_blank,
            };
            open = Some((indent, block));
        } else {
            if trimmed.starts_with("~~~") {
                failures.push(format!(
                    "{name}:{number}: use ``` fences, which this test reads"
                ));
            }
            for (at, _) in line.match_indices(OP) {
                if line[..at].matches('`').count() % 2 == 0 {
                    failures.push(format!(
                        "{name}:{number}: a request outside a code span or an example: {line}"
                    ));
                }
            }
            only_blank &= trimmed.trim().is_empty();
        }
    }
    if let Some((_, block)) = open {
        failures.push(format!("{name}:{}: a fence left open", block.line));
    }
    blocks
}

/// What an example feeds the program.
enum Input {
    OneShot(Vec<u8>),
    Stream(Vec<u8>),
}

/// The request a block holds, if any. A line that holds `{"op":` without being a request, or a
/// second request in one block, is a failure.
fn request(name: &str, block: &Block, failures: &mut Vec<String>) -> Option<Input> {
    let joined = |end: &str| {
        let lines: Vec<&str> = block.lines.iter().map(String::as_str).collect();
        let mut text = lines.join("\n");
        text.push_str(end);
        text.into_bytes()
    };
    let found: Vec<Vec<u8>> = match block.info.as_str() {
        "request" => return Some(Input::OneShot(joined(""))),
        "stream" => return Some(Input::Stream(joined("\n"))),
        "sh" => block
            .lines
            .iter()
            .filter_map(|line| {
                let rest = line.strip_prefix("echo '")?;
                let end = rest.find("' |")?;
                Some(format!("{}\n", &rest[..end]).into_bytes())
            })
            .collect(),
        "rust" => block
            .lines
            .iter()
            .filter_map(|line| {
                let start = line.find("br#\"")? + 4;
                let end = start + line[start..].find("\"#")?;
                Some(line.as_bytes()[start..end].to_vec())
            })
            .collect(),
        _ => Vec::new(),
    };
    let marked = block.lines.iter().filter(|line| line.contains(OP)).count();
    let is_example = matches!(block.info.as_str(), "answer" | "error");
    if found.len() > 1 || (marked > found.len() && !is_example) {
        failures.push(format!(
            "{name}:{}: a `{}` block holds a request that is not one checked example",
            block.line, block.info
        ));
    }
    found.into_iter().next().map(Input::OneShot)
}

/// Checks every example of one page and returns how many it holds.
fn check_page(name: &str, text: &str, failures: &mut Vec<String>) -> usize {
    let blocks = blocks(name, text, failures);
    let mut count = 0;
    let mut index = 0;
    while index < blocks.len() {
        let block = &blocks[index];
        index += 1;
        let Some(input) = request(name, block, failures) else {
            if matches!(block.info.as_str(), "answer" | "error") {
                failures.push(format!(
                    "{name}:{}: an `{}` block that follows no request",
                    block.line, block.info
                ));
            }
            continue;
        };
        let answer = blocks
            .get(index)
            .filter(|next| next.right_after && matches!(next.info.as_str(), "answer" | "error"));
        let Some(answer) = answer else {
            failures.push(format!(
                "{name}:{}: a request with no `answer` or `error` block right after it",
                block.line
            ));
            continue;
        };
        index += 1;
        count += 1;
        let mut want = answer.lines.join("\n").into_bytes();
        want.push(b'\n');
        let at = format!("{name}:{}", block.line);
        let result = match (input, answer.info.as_str()) {
            (Input::OneShot(request), kind) => one_shot(&request, kind == "error", &want),
            (Input::Stream(_), "error") => Err("a stream's errors are answer lines".to_string()),
            (Input::Stream(input), _) => stream(&input, &want),
        };
        if let Err(why) = result {
            failures.push(format!("{at}: {why}"));
        }
    }
    count
}

/// One request through `respond` and through the binary: the answer on standard output, or the
/// error line on standard error with nothing on standard output.
fn one_shot(request: &[u8], is_error: bool, want: &[u8]) -> Result<(), String> {
    let mut out = Vec::new();
    match (tool_schema::respond(request, &mut out), is_error) {
        (Ok(()), false) => same("respond's answer", &out, want)?,
        (Err(err), true) => {
            same("respond's output on error", &out, b"")?;
            let line = format!("tool-schema: {}: {err}\n", err.code());
            same(
                "respond's error, as the CLI prints it",
                line.as_bytes(),
                want,
            )?;
        }
        (Ok(()), true) => return Err(format!("respond answered {}", lossy(&out))),
        (Err(err), false) => return Err(format!("respond failed: {}: {err}", err.code())),
    }
    let (status, stdout, stderr) = run(&[], request);
    let (code, on_stdout, on_stderr) = if is_error {
        (1, &b""[..], want)
    } else {
        (0, want, &b""[..])
    };
    if status != Some(code) {
        return Err(format!(
            "the binary exited {status:?}, not {code}: {}",
            lossy(&stderr)
        ));
    }
    same("the binary's standard output", &stdout, on_stdout)?;
    same("the binary's standard error", &stderr, on_stderr)
}

/// A stream through `serve` and through `tool-schema --stream`.
fn stream(input: &[u8], want: &[u8]) -> Result<(), String> {
    let mut out = Vec::new();
    tool_schema::serve(&mut &input[..], &mut out)
        .map_err(|err| format!("serve failed: {}: {err}", err.code()))?;
    same("serve's output", &out, want)?;
    let (status, stdout, stderr) = run(&["--stream"], input);
    if status != Some(0) {
        return Err(format!("the binary exited {status:?}: {}", lossy(&stderr)));
    }
    same("the binary's standard output", &stdout, want)?;
    same("the binary's standard error", &stderr, b"")
}

/// Compares bytes; shows them as text when they differ.
fn same(what: &str, got: &[u8], want: &[u8]) -> Result<(), String> {
    if got == want {
        return Ok(());
    }
    Err(format!(
        "{what} differs from the page\n  got:  {}\n  page: {}",
        lossy(got),
        lossy(want)
    ))
}

fn lossy(bytes: &[u8]) -> String {
    format!("{:?}", String::from_utf8_lossy(bytes))
}

/// Runs the binary with `input` on standard input: exit status, standard output, standard error.
fn run(args: &[&str], input: &[u8]) -> (Option<i32>, Vec<u8>, Vec<u8>) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap().unwrap();
    (out.status.code(), out.stdout, out.stderr)
}

/// The README is a front page a stranger can trust: at most 10 KB, every file it names or
/// links exists, and it holds no history (issue numbers, rounds).
#[test]
fn the_readme_is_short_and_names_only_files_that_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(text.len() <= 10 * 1024, "README.md is {} bytes", text.len());
    let mut named = Vec::new();
    // Links: [text](path), where the path is the repository's.
    for piece in text.split("](").skip(1) {
        let target = piece.split(')').next().unwrap();
        if !target.contains("://") && !target.starts_with('#') {
            named.push(target.split('#').next().unwrap().to_string());
        }
    }
    // Code spans that are paths: a directory of the repository, then more.
    for span in text.split('`').skip(1).step_by(2) {
        let top = [
            "src/",
            "tests/",
            "docs/",
            "examples/",
            "python/",
            "fuzz/",
            "benches/",
        ];
        if top.iter().any(|dir| span.starts_with(dir)) && !span.contains(char::is_whitespace) {
            named.push(span.trim_end_matches('/').to_string());
        }
    }
    assert!(named.len() >= 8, "{named:?}");
    for path in &named {
        assert!(
            root.join(path).exists(),
            "README.md names {path}, which does not exist"
        );
    }
    for word in ["issue ", "round ", "Issue #"] {
        assert!(!text.contains(word), "README.md holds history: {word:?}");
    }
}
