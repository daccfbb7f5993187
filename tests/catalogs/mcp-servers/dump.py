"""Run an MCP server over stdio and print its `tools/list` result's `tools` array.

Usage: python3 dump.py [--client-capabilities JSON] SERVER_COMMAND [ARGS...] > SERVER.json

Speaks MCP's stdio transport (one JSON-RPC message per line): initialize,
notifications/initialized, then tools/list, following `nextCursor` if the server
pages. Only the standard library is used; the tools are printed exactly as received
(key order kept), pretty-printed.
"""

import json
import subprocess
import sys

args, capabilities = sys.argv[1:], {}
if args[0] == "--client-capabilities":  # some servers register more tools for capable clients
    capabilities, args = json.loads(args[1]), args[2:]
server = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def send(message):
    server.stdin.write(json.dumps(message) + "\n")
    server.stdin.flush()


def request(id, method, params):
    send({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
    for line in server.stdout:  # skip notifications and log lines until our reply
        if not line.strip().startswith("{"):
            continue
        reply = json.loads(line)
        if reply.get("id") == id and "method" not in reply:
            if "error" in reply:
                sys.exit(f"{method} failed: {reply['error']}")
            return reply["result"]
    sys.exit(f"server exited before answering {method}")


init = request(1, "initialize", {
    "protocolVersion": "2025-11-25",
    "capabilities": capabilities,
    "clientInfo": {"name": "tool-schema-dump", "version": "1"},
})
print(f"server: {json.dumps(init.get('serverInfo'))}, protocol {init.get('protocolVersion')}", file=sys.stderr)
send({"jsonrpc": "2.0", "method": "notifications/initialized"})

tools, params, id = [], {}, 2
while True:
    result = request(id, "tools/list", params)
    tools += result["tools"]
    if not result.get("nextCursor"):
        break
    params, id = {"cursor": result["nextCursor"]}, id + 1

server.stdin.close()
try:
    server.wait(timeout=5)
except subprocess.TimeoutExpired:
    server.terminate()
print(json.dumps(tools, indent=2, ensure_ascii=False))
