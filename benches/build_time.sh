#!/usr/bin/env bash
# Times cold release builds of the crate over three catalogs, interleaved, ROUNDS times: the
# default one, 256 tools the size of read_file, and 256 tools cloned from the pydantic catalog
# (half of them with `$defs` and `$ref`). Each build gets a fresh target directory under
# target/build-time, so each is the whole crate's fat-LTO build. Prints seconds per build.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-2}"
work="$PWD/target/build-time"
mkdir -p "$work"
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
flat = [{"name": f"tool_{i:03d}",
         "description": "Reads a file from the local filesystem and returns its contents with line numbers.",
         "inputSchema": {"type": "object", "properties": {
             "file_path": {"type": "string", "description": "The absolute path to the file to read."},
             "limit": {"type": "integer", "description": "The number of lines to read."},
             "offset": {"type": "integer", "description": "The line number to start reading from."}},
             "required": ["file_path"], "additionalProperties": False}}
        for i in range(256)]
json.dump(flat, open(f"{work}/flat-256.json", "w"))
source = json.load(open("tests/catalogs/pydantic/catalog.json"))
tools = []
while len(tools) < 256:
    for tool in source[: 256 - len(tools)]:
        tool = json.loads(json.dumps(tool))
        tool["name"] = f"{tool['name']}_{len(tools)}"
        tools.append(tool)
json.dump(tools, open(f"{work}/defs-256.json", "w"))
PY
for round in $(seq "$rounds"); do
    for catalog in "$PWD/src/catalog.json" "$work/flat-256.json" "$work/defs-256.json"; do
        rm -rf "$work/target"
        start=$(date +%s.%N)
        TOOL_SCHEMA_CATALOG="$catalog" CARGO_TARGET_DIR="$work/target" \
            cargo build --release --example respond_timer -q
        end=$(date +%s.%N)
        echo "round $round $(basename "$catalog") $(echo "$end - $start" | bc) s"
    done
done
