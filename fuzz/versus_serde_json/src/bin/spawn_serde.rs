//! The serde_json program that `benches/spawn.rs` times beside `tool-schema`: what a Rust user
//! would write to answer `{"op":"tool_schema","tool":"read_file"}` with the same bytes, as its
//! own process. It reads standard input, parses it into a `Value`, builds the declaration with
//! `json!` and writes it with one `write`. Like `tool-schema`, it is `forbid(unsafe_code)` and
//! linked statically (static-pie), so the comparison is of the programs, not of the loader:
//!
//!     cd fuzz/versus_serde_json
//!     cargo build --release --bin spawn_serde --target x86_64-unknown-linux-gnu
//!
//! With `--target` given, the repository's `crt-static` rustflags (`.cargo/config.toml`) apply
//! to this binary but not to serde's proc macro, which a static CRT cannot build.
#![forbid(unsafe_code)]

use serde_json::{json, Value};
use std::io::{Read, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut request = Vec::new();
    if std::io::stdin().lock().read_to_end(&mut request).is_err() {
        return ExitCode::FAILURE;
    }
    let Ok(request) = serde_json::from_slice::<Value>(&request) else {
        eprintln!("spawn_serde: malformed_json");
        return ExitCode::FAILURE;
    };
    if request["op"] != "tool_schema" || request["tool"] != "read_file" {
        eprintln!("spawn_serde: only read_file is declared here");
        return ExitCode::FAILURE;
    }
    let declaration = json!({
        "function": {
            "description": "Lee el contenido de un archivo con numeración de líneas y soporte de rangos.",
            "name": "read_file",
            "parameters": {
                "properties": {
                    "end_line": {"description": "Línea final inclusiva (1-indexada)", "type": "integer"},
                    "path": {"description": "Ruta relativa del archivo", "type": "string"},
                    "start_line": {"description": "Línea inicial inclusiva (1-indexada)", "type": "integer"},
                },
                "required": ["path"],
                "type": "object",
            },
        },
        "type": "function",
    });
    let mut out = serde_json::to_vec(&declaration).unwrap_or_default();
    out.push(b'\n');
    match std::io::stdout().lock().write_all(&out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::FAILURE,
    }
}
