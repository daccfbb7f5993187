//! The whole process, as a harness pays for it: spawn the release binary with a request on
//! stdin, interleaved with other programs on the same stdin, and compare medians.
//!
//! `cargo bench --bench spawn`. Every program gets the same stdin (a file holding the request)
//! and the same piped stdout and stderr. They take turns, ROUNDS times after a warm-up, in an
//! order shuffled every round. Every answer is checked against the expected bytes, on
//! every run. `/bin/true` is the floor: a process that does nothing.
//!
//! `TOOL_SCHEMA_BIN` times another build of the binary instead of this one (as the
//! release-settings table of `docs/performance.md` does). `TOOL_SCHEMA_VERSUS` adds programs
//! that must answer the same request with the same bytes, as `label=path` pairs separated by
//! commas: an earlier build of `tool-schema`, or the static serde_json program in
//! `fuzz/versus_serde_json` (`docs/performance.md` has the commands). A path may be followed by
//! arguments, separated by spaces: `catalog=target/release/tool-schema --catalog
//! /abs/src/catalog.json` times this binary reading the compiled-in catalog's file at run time.
//!
//! Every program but `/bin/true` is first copied into one temporary directory and run from
//! there: the same binary ran 7% slower, with 4 more page faults, from `target/` than from
//! `/tmp` on the development machine, so programs read from different filesystems are not
//! compared.
//!
//! Page faults per run are the minor faults of the waited-for child, read from this process's
//! `/proc/self/stat` (`cminflt`) before and after each run.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ROUNDS: usize = 2000;
const WARM_UP: usize = 100;

struct Program {
    label: String,
    path: String,
    args: Vec<String>,
    /// What it must print.
    want: Vec<u8>,
    times: Vec<Duration>,
    faults: Vec<u64>,
}

fn main() {
    let bin = std::env::var("TOOL_SCHEMA_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_tool-schema").into());
    let request = std::env::var("TOOL_SCHEMA_REQUEST")
        .unwrap_or_else(|_| r#"{"op":"tool_schema","tool":"read_file"}"#.into());
    let request = request.as_bytes();
    let mut expected = Vec::new();
    tool_schema::respond(request, &mut expected).unwrap();
    let path = std::env::temp_dir().join(format!("tool-schema-spawn-{}.json", std::process::id()));
    std::fs::write(&path, request).unwrap();

    let dir = std::env::temp_dir().join(format!("tool-schema-spawn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let program = |label: &str, command: &str, want: &[u8]| {
        let mut words = command.split(' ').filter(|word| !word.is_empty());
        let path = words.next().unwrap_or_default();
        Program {
            label: label.into(),
            args: words.map(String::from).collect(),
            path: if path == "/bin/true" {
                path.into()
            } else {
                let copy = dir.join(label.replace('/', "_"));
                std::fs::copy(path, &copy).unwrap_or_else(|err| panic!("{path}: {err}"));
                copy.to_string_lossy().into_owned()
            },
            want: want.into(),
            times: Vec::with_capacity(ROUNDS),
            faults: Vec::with_capacity(ROUNDS),
        }
    };
    let mut programs = vec![program("tool-schema", &bin, &expected)];
    let versus = std::env::var("TOOL_SCHEMA_VERSUS").unwrap_or_default();
    for pair in versus.split(',').filter(|pair| !pair.is_empty()) {
        let (label, path) = pair
            .split_once('=')
            .expect("TOOL_SCHEMA_VERSUS holds label=path pairs, separated by commas");
        programs.push(program(label, path, &expected));
    }
    programs.push(program("/bin/true", "/bin/true", b""));

    let run = |program: &Program| {
        let faults = children_minor_faults();
        let started = Instant::now();
        let out = Command::new(&program.path)
            .args(&program.args)
            .stdin(std::fs::File::open(&path).unwrap())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()
            .unwrap_or_else(|err| panic!("{}: {err}", program.path));
        let elapsed = started.elapsed();
        assert!(
            out.status.success() && out.stdout == program.want && out.stderr.is_empty(),
            "{}: wrong answer",
            program.path
        );
        (elapsed, children_minor_faults() - faults)
    };
    // A fresh order every round. A fixed cyclic order (rotating only where it starts) gives
    // each program the same predecessor every time, and a program that always runs right after
    // /bin/true (dynamically linked) paid about 1% for it: the same binary measured 1.013x or
    // 0.996x by its place in the list.
    let mut order: Vec<usize> = (0..programs.len()).collect();
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    for round in 0..WARM_UP + ROUNDS {
        for i in (1..order.len()).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            order.swap(i, (seed % (i as u64 + 1)) as usize);
        }
        for &index in &order {
            let (elapsed, faults) = run(&programs[index]);
            if round >= WARM_UP {
                programs[index].times.push(elapsed);
                programs[index].faults.push(faults);
            }
        }
    }
    std::fs::remove_file(&path).ok();
    std::fs::remove_dir_all(&dir).ok();

    let ours = median(&programs[0].times).as_secs_f64();
    println!("{bin}");
    println!("median per invocation over {ROUNDS} interleaved runs each:");
    println!(
        "  {:<24} {:>10} {:>16} {:>12}",
        "program", "us", "tool-schema is", "page faults"
    );
    for program in &programs {
        let theirs = median(&program.times).as_secs_f64();
        println!(
            "  {:<24} {:>10.1} {:>15.3}x {:>12}",
            program.label,
            theirs * 1e6,
            ours / theirs,
            median(&program.faults),
        );
    }
}

/// Minor page faults of every child this process has waited for, so far: field 11 of
/// `/proc/self/stat` (proc(5)), counted after the parenthesised command name.
fn children_minor_faults() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat");
    let after_name = &stat[stat.rfind(')').expect("a command name") + 2..];
    // Fields from 3 (state) on; cminflt is field 11.
    let field = after_name.split(' ').nth(11 - 3).expect("cminflt");
    field.parse().expect("a count")
}

fn median<T: Copy + Ord>(values: &[T]) -> T {
    let mut sorted = values.to_vec();
    sorted.sort();
    sorted[sorted.len() / 2]
}
