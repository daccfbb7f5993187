//! `check_call`'s verdict against the `jsonschema` crate's over every catalog of
//! `tests/catalogs/`, each read at run time as an MCP client reads a server's tools
//! (`RuntimeCatalog`): the input's first byte picks the catalog, and the rest is the case of
//! `calls_shared.rs` (its generator, reference and rules). `TOOL_SCHEMA_FUZZ_CATALOGS`, a list
//! of directories or files separated by `:`, narrows the catalogs to the files below them
//! (`tests/catalogs/mcp-servers:tests/catalogs/mcp-servers-2026-12`, the published servers'
//! dumps). A file that is not a catalog fails the target: none is skipped in silence.
#![no_main]

#[path = "calls_shared.rs"]
mod shared;

use libfuzzer_sys::fuzz_target;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use tool_schema::RuntimeCatalog;

fn subjects() -> &'static [shared::Subject] {
    static SUBJECTS: OnceLock<Vec<shared::Subject>> = OnceLock::new();
    SUBJECTS.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/catalogs");
        let dirs: Vec<PathBuf> = match std::env::var_os("TOOL_SCHEMA_FUZZ_CATALOGS") {
            Some(list) => std::env::split_paths(&list).collect(),
            None => vec![root],
        };
        let mut files = Vec::new();
        for dir in &dirs {
            catalog_files(dir, &mut files);
        }
        files.sort();
        assert!(!files.is_empty(), "no catalog below {dirs:?}");
        files
            .iter()
            .map(|file| {
                let catalog = RuntimeCatalog::from_path(file)
                    .unwrap_or_else(|err| panic!("{}: {err}", file.display()));
                let catalog = Arc::new(catalog);
                let answering = Arc::clone(&catalog);
                shared::Subject::new(
                    &file.display().to_string(),
                    &|_| false,
                    Box::new(move |request, out| answering.respond(request, out)),
                )
            })
            .collect()
    })
}

/// The catalog files below `dir`: every `.json` file but the goldens (answers, not catalogs).
fn catalog_files(dir: &Path, files: &mut Vec<PathBuf>) {
    if dir.is_file() {
        files.push(dir.to_path_buf());
        return;
    }
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() && !name.starts_with("golden") {
            catalog_files(&path, files);
        } else if name.ends_with(".json") {
            files.push(path);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let subjects = subjects();
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    shared::check(&subjects[usize::from(first) % subjects.len()], rest);
});
