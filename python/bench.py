"""A check_call through the client against the jsonschema package validating the same call's
arguments in process, a Python harness's usual choice, interleaved in one run.

    python3 -m venv /tmp/bench && /tmp/bench/bin/pip install jsonschema==4.26.0 <the wheel>
    /tmp/bench/bin/python python/bench.py            # as the scheduler places the processes
    /tmp/bench/bin/python python/bench.py one-cpu    # all on one CPU

The client's figure is the whole round trip: the request written to the coprocess's pipe, the
check, the answer read back and parsed into a Verdict. jsonschema's is the validation alone, of
arguments already parsed from the call, against a validator built once.
"""
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import jsonschema

from tool_schema import Catalog, find_binary

REPO = Path(__file__).resolve().parents[1]
SERVER = REPO / "tests/catalogs/mcp-servers/server-filesystem.json"
CALLS, ROUNDS = 2000, 7

tool = next(t for t in json.loads(SERVER.read_text()) if t["name"] == "move_file")
validator = jsonschema.Draft202012Validator(tool["inputSchema"])
call = {"id": "call_1", "type": "function",
        "function": {"name": "move_file", "arguments": '{"source":"a.md","destination":"b.md"}'}}


def client(catalog):
    for _ in range(CALLS):
        assert catalog.check_call("openai", call).ok


LINE = (json.dumps({"op": "check_call", "format": "openai", "call": call, "id": 1}) + "\n").encode()


def round_trip(process):
    for _ in range(CALLS):
        process.stdin.write(LINE)
        process.stdin.flush()
        process.stdout.readline()


def raw_binary(_):
    # The request's bytes straight to a second `tool-schema --stream`, the answer read back
    # unparsed: the pipe round trip and the check, without the client.
    round_trip(raw)


def pipe_floor(_):
    # The same line through `cat`: the pipe round trip alone, a floor for any client.
    round_trip(cat)


def in_process(_):
    for _ in range(CALLS):
        arguments = json.loads(call["function"]["arguments"])
        assert validator.is_valid(arguments)


# With `one-cpu` as its argument, this process and its children run on one CPU: a pipe round
# trip is then a switch on that CPU, where across two a wake-up on this VM costs about 35 us.
if sys.argv[1:] == ["one-cpu"]:
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
cat = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
raw = subprocess.Popen([find_binary(), "--stream", "--catalog", str(SERVER)],
                       stdin=subprocess.PIPE, stdout=subprocess.PIPE)
with Catalog(SERVER) as catalog:
    times = {client: [], raw_binary: [], pipe_floor: [], in_process: []}
    for _ in range(ROUNDS):
        for run in times:
            start = time.perf_counter()
            run(catalog)
            times[run].append((time.perf_counter() - start) / CALLS * 1e6)
    ours, theirs = statistics.median(times[client]), statistics.median(times[in_process])
    floor, bare = statistics.median(times[pipe_floor]), statistics.median(times[raw_binary])
    print(f"check_call through the client: {ours:.1f} us a call (median of {ROUNDS} x {CALLS})")
    print(f"the line to the binary, bare:  {bare:.1f} us (round trip and check, no client)")
    print(f"the same line through cat:     {floor:.1f} us (the pipe round trip)")
    print(f"jsonschema in process:         {theirs:.1f} us a call")
    print(f"client / jsonschema:           {ours / theirs:.2f}x")
    print(f"client / cat:                  {ours / floor:.2f}x")
for process in (cat, raw):
    process.stdin.close()
    process.wait()
