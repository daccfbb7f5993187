//! Stream mode against `cat`: a piped batch of one million requests through
//! `tool-schema --stream`, next to `cat` moving the same output bytes through a pipe.
//!
//! `cargo bench --bench stream`. Both runs read their input from a file and write into a pipe
//! that this process drains, so both pay the same pipe. The two alternate, ROUNDS times each;
//! every run's output is compared with the expected bytes, and the medians and their ratio printed.
//! `TOOL_SCHEMA_BIN` times another build of the binary instead of this one.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const REQUESTS: usize = 1_000_000;
const ROUNDS: usize = 5;

fn main() {
    // Another build of the binary, to compare builds (each against cat, in runs of their own).
    let bin = std::env::var("TOOL_SCHEMA_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_tool-schema").into());
    let dir = std::env::temp_dir().join(format!("tool-schema-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kinds: [&[u8]; 4] = [
        br#"{"op":"tool_schema","tool":"read_file"}"#,
        br#"{"op":"tool_schema","tool":"write_file","format":"anthropic"}"#,
        br#"{"op":"tool_schema","tool":"patch_file","format":"openai","strict":true}"#,
        br#"{"op":"tool_schema","tool":"read_file","format":"mcp"}"#,
    ];
    let requests: Vec<u8> = (0..REQUESTS)
        .flat_map(|i| [kinds[i % kinds.len()], b"\n"].concat())
        .collect();
    let mut expected = Vec::new();
    tool_schema::serve(&mut &requests[..], &mut expected).unwrap();
    let (requests_path, output_path) = (dir.join("requests.ndjson"), dir.join("output.ndjson"));
    std::fs::write(&requests_path, &requests).unwrap();
    std::fs::write(&output_path, &expected).unwrap();
    let want = &expected[..];

    let stream = || {
        let mut command = Command::new(&bin);
        command
            .arg("--stream")
            .stdin(std::fs::File::open(&requests_path).unwrap());
        command
    };
    let cat = || {
        let mut command = Command::new("cat");
        command.arg(&output_path).stdin(Stdio::null());
        command
    };
    timed(stream(), want); // warm-up: page cache and binary
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        ours.push(timed(stream(), want));
        theirs.push(timed(cat(), want));
    }
    let (ours, theirs) = (median(ours), median(theirs));
    println!(
        "{REQUESTS} requests, {} output bytes, median of {ROUNDS} interleaved runs",
        want.len()
    );
    println!(
        "tool-schema --stream: {:>8.1} ms  ({:.0} requests/s)",
        ms(ours),
        REQUESTS as f64 / ours.as_secs_f64()
    );
    println!("cat, same bytes:      {:>8.1} ms", ms(theirs));
    println!(
        "ratio:                {:>8.2}x",
        ours.as_secs_f64() / theirs.as_secs_f64()
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs the command with its stdout piped into this process, which drains it and compares
/// every chunk with the expected bytes (a `memcmp`, far faster than either side).
fn timed(mut command: Command, want: &[u8]) -> Duration {
    let started = Instant::now();
    let mut child = command.stdout(Stdio::piped()).spawn().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (mut len, mut buf) = (0, vec![0; 1 << 17]);
    loop {
        let n = stdout.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        assert!(
            want.get(len..len + n) == Some(&buf[..n]),
            "output differs at byte {len}"
        );
        len += n;
    }
    assert!(child.wait().unwrap().success());
    let elapsed = started.elapsed();
    assert_eq!(len, want.len(), "output length differs");
    elapsed
}

fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
