//! Loads catalogs at run time and prints, for each: the median time of 41 loads (each with its
//! drop), the heap a load keeps against the file's size, and how many allocations a load makes.
//!
//! `cargo run --release --example runtime_load [FILE...]`; by default GitHub's MCP server's
//! catalog and three others. `benches/runtime.rs` times loads alone; this one is small enough
//! to copy into an older commit, which is how `docs/performance.md` followed the load down.

#[path = "../benches/common/counting.rs"]
mod counting;

fn main() {
    let mut files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        files = [
            "tests/catalogs/mcp-servers/github-mcp-server.json",
            "src/catalog.json",
            "tests/catalogs/pydantic/catalog.json",
            "tests/catalogs/reasonix/catalog.json",
        ]
        .map(String::from)
        .to_vec();
    }
    for file in files {
        let bytes = std::fs::read(&file).unwrap_or_else(|err| panic!("{file}: {err}"));
        let (live, calls) = (counting::live(), counting::calls());
        let catalog = tool_schema::RuntimeCatalog::from_bytes(&bytes)
            .unwrap_or_else(|err| panic!("{file}: {err}"));
        let kept = counting::live() - live;
        let allocations = counting::calls() - calls;
        drop(catalog);
        let mut times: Vec<u128> = (0..41)
            .map(|_| {
                let started = std::time::Instant::now();
                std::hint::black_box(tool_schema::RuntimeCatalog::from_bytes(&bytes).unwrap());
                started.elapsed().as_micros()
            })
            .collect();
        times.sort_unstable();
        println!(
            "{file}: {} bytes, load {} us, kept {kept} bytes ({:.2}x), {allocations} allocations",
            bytes.len(),
            times[20],
            kept as f64 / bytes.len() as f64
        );
    }
}
