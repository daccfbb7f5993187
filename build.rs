//! Reads the tool catalog, checks it, and writes the Rust tables that `src/catalog.rs` includes.
//!
//! The catalog is `src/catalog.json`, or the file named by `TOOL_SCHEMA_CATALOG`. A relative
//! path is taken from the directory cargo was started in (the `PWD` it inherits), or from this
//! package's directory when that is unknown. A catalog that breaks a rule fails the build with
//! one line: the file, the tool, the JSON Pointer of the offending value and the rule.
//!
//! The reader is the crate's own (`src/catalog_file.rs` over `src/tokenizer.rs`), included by
//! path: one JSON parser in the repository, and no build-dependencies. So is the renderer
//! (`src/wire.rs` over `src/sink.rs`): this script renders every declaration once, into
//! `rendered.bin`, with the spans in `layout.rs`; the crate includes both. A catalog read at run
//! time goes through the same reader, model and renderer.
#![forbid(unsafe_code)]

#[allow(dead_code)]
#[path = "src/catalog_file.rs"]
mod catalog_file;
#[allow(dead_code)]
#[path = "src/error.rs"]
mod error;
#[allow(dead_code)]
#[path = "src/format.rs"]
mod format;
#[allow(dead_code)]
#[path = "src/layout.rs"]
mod layout;
#[allow(dead_code)]
#[path = "src/number.rs"]
mod number;
#[allow(dead_code)]
#[path = "src/regex.rs"]
mod regex;
#[allow(dead_code)]
#[path = "src/review.rs"]
mod review;
#[allow(dead_code)]
#[path = "src/schema.rs"]
mod schema;
#[allow(dead_code)]
#[path = "src/sink.rs"]
mod sink;
#[allow(dead_code)]
#[path = "src/spelling.rs"]
mod spelling;
#[allow(dead_code)]
#[path = "src/tokenizer.rs"]
mod tokenizer;
#[allow(dead_code)]
#[path = "src/validate.rs"]
mod validate;
#[allow(dead_code)]
#[path = "src/wire.rs"]
mod wire;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-env-changed=TOOL_SCHEMA_CATALOG");
    println!("cargo:rerun-if-env-changed=TOOL_SCHEMA_REVIEW");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let path = match std::env::var_os("TOOL_SCHEMA_CATALOG") {
        Some(path) if !path.is_empty() => {
            let path = PathBuf::from(path);
            if path.is_absolute() {
                path
            } else {
                std::env::var_os("PWD")
                    .map(PathBuf::from)
                    .unwrap_or_else(|| manifest.clone())
                    .join(path)
            }
        }
        _ => manifest.join("src/catalog.json"),
    };
    println!("cargo:rerun-if-changed={}", path.display());
    let shown = path
        .strip_prefix(&manifest)
        .unwrap_or(&path)
        .display()
        .to_string();
    let bytes = std::fs::read(&path).unwrap_or_else(|err| fail(&format!("{shown}: {err}")));
    // Every tool that breaks a rule, each on its line, as a compiler lists its errors: the
    // build refuses the file for any of them.
    let (catalog, refused) =
        catalog_file::read_each_tool(&bytes).unwrap_or_else(|err| fail(&format!("{shown}: {err}")));
    if !refused.is_empty() {
        for refusal in &refused[..refused.len() - 1] {
            eprintln!("error: {shown}: {refusal}");
        }
        fail(&format!("{shown}: {}", refused[refused.len() - 1]));
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    let model = catalog;
    review(&model, &shown);
    write(
        &out.join("catalog.rs"),
        catalog_file::rust_tables(&model, &shown).as_bytes(),
    );
    let rendered = wire::render(model.model(), layout::Layout::whole());
    write(&out.join("rendered.bin"), &rendered.bytes);
    let tools = model.tools.len();
    write(&out.join("layout.rs"), layout(&rendered, tools).as_bytes());
}

/// The catalog review (`src/review.rs`), when `TOOL_SCHEMA_REVIEW` asks for it: `warn` prints
/// each finding as a cargo warning, `strict` fails the build on any.
fn review(model: &schema::OwnedModel, shown: &str) {
    let strict = match std::env::var("TOOL_SCHEMA_REVIEW").as_deref() {
        Ok("warn") => false,
        Ok("strict") => true,
        Ok("") | Err(_) => return,
        Ok(other) => fail(&format!(
            "TOOL_SCHEMA_REVIEW must be warn or strict, found {other:?}"
        )),
    };
    let findings = review::review(model.model());
    for finding in &findings {
        if strict {
            eprintln!("error: {shown}: {finding}");
        } else {
            println!("cargo:warning={shown}: {finding}");
        }
    }
    if strict && !findings.is_empty() {
        fail(&format!(
            "{shown}: {} review findings (TOOL_SCHEMA_REVIEW=strict)",
            findings.len()
        ));
    }
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::write(path, bytes).unwrap_or_else(|err| fail(&format!("{}: {err}", path.display())));
}

/// `PIECES` and `SPANS` for `writer.rs`: where each declaration and its newline sit in
/// `rendered.bin` (one piece each), and which slot each is; and `LONGEST_LIST`, the longest
/// `tool_list` answer over every shape.
fn layout(rendered: &wire::Rendered, tools: usize) -> String {
    let mut out = String::from("// Generated by build.rs: rendered with wire.rs. Do not edit.\n");
    let longest = rendered.longest_list(tools);
    let _ = writeln!(out, "const LONGEST_LIST: usize = {longest};");
    let pieces = &rendered.pieces;
    let _ = writeln!(out, "static PIECES: [Piece; {}] = [", pieces.len());
    for piece in pieces {
        let (start, len) = (piece.start(), piece.end() - piece.start());
        let _ = writeln!(out, "    Piece::new({start}, {len}),");
    }
    out.push_str("];\n");
    let spans = &rendered.spans;
    let _ = writeln!(out, "static SPANS: [u32; {}] = [", spans.len());
    for first in spans {
        let _ = writeln!(out, "    {first},");
    }
    out.push_str("];\n");
    out
}

/// One line on standard error, which cargo shows under the failed build script, and a failed
/// build.
fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1)
}
