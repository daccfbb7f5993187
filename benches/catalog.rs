//! Finding a tool does not slow down as the catalog grows.
//!
//! `cargo bench --bench catalog` writes a 256-tool catalog whose declarations are the size of
//! `read_file`'s (three properties with descriptions of the same length), builds
//! `examples/respond_timer.rs` over it and over the default three-tool catalog (each in a
//! target directory of its own, with this repository's release profile), and runs the two
//! builds alternately, ROUNDS times. Each run times, interleaved in one process, the first and
//! the last tool of its catalog. Printed: the median over rounds of each run's medians, and the
//! ratios it compares: last/first tool in the large catalog, and its last tool against
//! `read_file` in the default one.

use std::path::{Path, PathBuf};
use std::process::Command;

const TOOLS: usize = 256;
const ROUNDS: usize = 9;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let work = root.join("target/bench-catalog");
    std::fs::create_dir_all(&work).unwrap();
    let large = work.join("tools-256.json");
    std::fs::write(&large, catalog()).unwrap();

    let default_timer = build(root, &root.join("src/catalog.json"), &work.join("default"));
    let large_timer = build(root, &large, &work.join("large"));
    let request = |tool: &str| format!(r#"{{"op":"tool_schema","tool":"{tool}"}}"#);
    let first = request(&name(0));
    let last = request(&name(TOOLS - 1));
    let read_file = request("read_file");

    let (mut small, mut large_first, mut large_last) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        // Alternate which build goes first.
        let mut runs = [(&default_timer, true), (&large_timer, false)];
        if round % 2 == 1 {
            runs.reverse();
        }
        for (timer, is_default) in runs {
            if is_default {
                small.push(time(timer, &[&read_file])[0]);
            } else {
                let medians = time(timer, &[&first, &last]);
                large_first.push(medians[0]);
                large_last.push(medians[1]);
            }
        }
    }
    let (small, first, last) = (median(small), median(large_first), median(large_last));
    println!("respond, median ns per call over {ROUNDS} alternating runs of each build:");
    println!("  default catalog (3 tools), read_file   {small:>7.2}");
    println!("  {TOOLS}-tool catalog, first tool         {first:>7.2}");
    println!("  {TOOLS}-tool catalog, last tool          {last:>7.2}");
    println!(
        "  last / first                           {:>7.3}x",
        last / first
    );
    println!(
        "  last / default read_file               {:>7.3}x",
        last / small
    );
}

/// Tool `i`'s name: names of several lengths, as real catalogs have.
fn name(i: usize) -> String {
    let stem = [
        "read", "write", "search", "list", "fetch", "update", "delete", "describe",
    ][i % 8];
    format!("{stem}_item_{i:03}")
}

/// A catalog of TOOLS tools, each shaped like read_file.
fn catalog() -> String {
    let tools: Vec<String> = (0..TOOLS)
        .map(|i| {
            format!(
                r#"{{"name":"{}","description":"Lee el contenido del elemento {i:03} con numeración de líneas y soporte de rangos.","inputSchema":{{"type":"object","properties":{{"end_line":{{"type":"integer","description":"Línea final inclusiva (1-indexada)"}},"path":{{"type":"string","description":"Ruta relativa del archivo"}},"start_line":{{"type":"integer","description":"Línea inicial inclusiva (1-indexada)"}}}},"required":["path"]}},"annotations":{{"readOnlyHint":true}}}}"#,
                name(i)
            )
        })
        .collect();
    format!("[{}]\n", tools.join(",\n"))
}

/// The respond_timer example built over `catalog`, with the release profile.
fn build(root: &Path, catalog: &Path, target: &Path) -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args([
            "build",
            "--release",
            "--quiet",
            "--example",
            "respond_timer",
        ])
        .arg("--manifest-path")
        .arg(root.join("Cargo.toml"))
        .env("TOOL_SCHEMA_CATALOG", catalog)
        .env("CARGO_TARGET_DIR", target)
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building over {}", catalog.display());
    target.join("release/examples/respond_timer")
}

/// Each request's median ns, from one run of a timer.
fn time(timer: &Path, requests: &[&str]) -> Vec<f64> {
    let out = Command::new(timer)
        .args(requests)
        .output()
        .expect("the timer runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| line.split(' ').next().unwrap().parse().unwrap())
        .collect()
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}
