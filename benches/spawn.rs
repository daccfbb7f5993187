//! The whole process, as a harness pays for it: spawn the release binary with a request on
//! stdin, interleaved with `/bin/true` on the same stdin, and compare medians.
//!
//! `cargo bench --bench spawn`. Both commands get the same stdin (a file holding the request)
//! and the same piped stdout and stderr, and alternate ROUNDS times after a warm-up; every
//! answer is checked against the expected bytes. Set `TOOL_SCHEMA_BIN` to time another build
//! of the binary (as the README's release-settings table does).

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ROUNDS: usize = 2000;
const WARM_UP: usize = 100;

fn main() {
    let bin = std::env::var("TOOL_SCHEMA_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_tool-schema").into());
    let request = br#"{"op":"tool_schema","tool":"read_file"}"#;
    let mut expected = Vec::new();
    tool_schema::respond(request, &mut expected).unwrap();
    let path = std::env::temp_dir().join(format!("tool-schema-spawn-{}.json", std::process::id()));
    std::fs::write(&path, request).unwrap();

    let run = |program: &str, want: &[u8]| {
        let started = Instant::now();
        let out = Command::new(program)
            .stdin(std::fs::File::open(&path).unwrap())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let elapsed = started.elapsed();
        assert!(
            out.status.success() && out.stdout == want && out.stderr.is_empty(),
            "{program}: wrong answer"
        );
        elapsed
    };
    for _ in 0..WARM_UP {
        run(&bin, &expected);
        run("/bin/true", b"");
    }
    let (mut ours, mut floor) = (Vec::with_capacity(ROUNDS), Vec::with_capacity(ROUNDS));
    for _ in 0..ROUNDS {
        ours.push(run(&bin, &expected));
        floor.push(run("/bin/true", b""));
    }
    std::fs::remove_file(&path).ok();
    let (ours, floor) = (median(ours), median(floor));
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    println!("{bin}");
    println!("median per invocation over {ROUNDS} interleaved runs:");
    println!("  tool-schema  {:>8.1} us", us(ours));
    println!("  /bin/true    {:>8.1} us", us(floor));
    println!(
        "  ratio        {:>8.2}x",
        ours.as_secs_f64() / floor.as_secs_f64()
    );
}

fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}
