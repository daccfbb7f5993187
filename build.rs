//! Reads the tool catalog, checks it, and writes the Rust tables that `src/catalog.rs` includes.
//!
//! The catalog is `src/catalog.json`, or the file named by `TOOL_SCHEMA_CATALOG`. A relative
//! path is taken from the directory cargo was started in (the `PWD` it inherits), or from this
//! package's directory when that is unknown. A catalog that breaks a rule fails the build with
//! one line: the file, the tool, the JSON Pointer of the offending value and the rule.
//!
//! The reader is the crate's own (`src/catalog_file.rs` over `src/tokenizer.rs`), included by
//! path: one JSON parser in the repository, and no build-dependencies.
#![forbid(unsafe_code)]

#[allow(dead_code)]
#[path = "src/catalog_file.rs"]
mod catalog_file;
#[allow(dead_code)]
#[path = "src/error.rs"]
mod error;
#[allow(dead_code)]
#[path = "src/tokenizer.rs"]
mod tokenizer;

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=TOOL_SCHEMA_CATALOG");
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
    let catalog = catalog_file::read(&bytes).unwrap_or_else(|err| fail(&format!("{shown}: {err}")));
    let tables = catalog_file::rust_tables(&catalog, &shown);
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo")).join("catalog.rs");
    std::fs::write(&out, tables).unwrap_or_else(|err| fail(&format!("{}: {err}", out.display())));
}

/// One line on standard error, which cargo shows under the failed build script, and a failed
/// build.
fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1)
}
