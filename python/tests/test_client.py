"""The client, as installed from the wheel: each op against the binary's own one-shot answer,
a bad catalog, a coprocess that dies, threads sharing one Catalog, and an Anthropic stream
assembled from recorded events. Run by python/ci.sh in a fresh virtual environment."""

import json
import os
import subprocess
import sys
import threading
import unittest
from pathlib import Path

import tool_schema
from tool_schema import Catalog, ProcessDied, ToolSchemaError

REPO = Path(__file__).resolve().parents[2]
SERVER = REPO / "tests/catalogs/mcp-servers/server-filesystem.json"
STREAMS = REPO / "tests/streams"


def one_shot(request, catalog=None):
    """What the binary's one-shot mode answers for `request`, parsed."""
    args = [tool_schema.find_binary()] + (["--catalog", str(catalog)] if catalog else [])
    out = subprocess.run(args, input=json.dumps(request).encode(), capture_output=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


class Ops(unittest.TestCase):
    def test_the_binary_is_the_wheels(self):
        binary = Path(tool_schema.find_binary())
        self.assertTrue(os.access(binary, os.X_OK))
        self.assertEqual(binary.parent, Path(os.environ["VIRTUAL_ENV"]) / "bin")

    def test_each_op_answers_as_one_shot_mode(self):
        with Catalog(SERVER) as catalog:
            self.assertEqual(catalog.tools, 14)
            self.assertEqual(catalog.refused, [])
            for fmt, strict in [("openai", True), ("anthropic", False), ("gemini", False)]:
                want = one_shot({"op": "tool_list", "format": fmt, "strict": strict}, SERVER)
                self.assertEqual(catalog.declarations(fmt, strict), want)
            want = one_shot({"op": "tool_schema", "tool": "move_file", "format": "mcp"}, SERVER)
            self.assertEqual(catalog.tool_schema("move_file", "mcp"), want)
            choice = {"tool": "move_file"}
            want = one_shot({"op": "tool_choice", "format": "anthropic", "choice": choice,
                             "parallel": False}, SERVER)
            self.assertEqual(catalog.tool_choice("anthropic", choice, parallel=False), want)

            call = {"type": "tool_use", "id": "t1", "name": "move_file",
                    "input": {"source": "a", "destination": "b"}}
            verdict = catalog.check_call("anthropic", call)
            self.assertTrue(verdict.ok)
            self.assertEqual(verdict.arguments, {"destination": "b", "source": "a"})
            self.assertEqual((verdict.name, verdict.id, verdict.problems), ("move_file", "t1", ()))

            call = {"id": "c1", "type": "function",
                    "function": {"name": "move_file", "arguments": '{"source": 1}'}}
            verdict = catalog.check_call("openai", call)
            want = one_shot({"op": "check_call", "format": "openai", "call": call}, SERVER)
            self.assertFalse(verdict.ok)
            self.assertEqual([p.code for p in verdict.problems],
                             [e["code"] for e in want["errors"]])
            self.assertEqual(verdict.reply, want["reply"])
            self.assertEqual(verdict.reply["tool_call_id"], "c1")

            with self.assertRaises(ToolSchemaError) as refused:
                catalog.check_turn("mcp", [call])  # MCP has no turns
            self.assertEqual(refused.exception.code, "unsupported")
            message = {"role": "assistant", "content": None, "tool_calls": [call, call]}
            self.assertEqual([v.ok for v in catalog.check_turn("openai", message)],
                             [False, False])

    def test_a_refused_request_raises_with_its_code(self):
        with Catalog() as catalog:
            with self.assertRaises(ToolSchemaError) as refused:
                catalog.tool_schema("nope")
            self.assertEqual(refused.exception.code, "unknown_tool")
            self.assertIn('did you mean "', refused.exception.message)
            # The stream goes on.
            self.assertEqual(catalog.tool_schema("read_file", "mcp")["name"], "read_file")


class Catalogs(unittest.TestCase):
    def test_a_bad_catalog_raises_and_a_bad_tool_is_left_out(self):
        with self.assertRaises(ToolSchemaError) as refused:
            Catalog(REPO / "README.md")
        self.assertEqual(refused.exception.code, "bad_catalog")
        bad = {"name": "broken", "description": "d",
               "inputSchema": {"type": "object", "propertes": {}}}
        tools = json.loads(SERVER.read_text()) + [bad]
        path = Path(os.environ.get("TMPDIR", "/tmp")) / f"with-bad-{os.getpid()}.json"
        path.write_text(json.dumps(tools))
        try:
            with Catalog(path) as catalog:
                self.assertEqual(catalog.tools, 14)
                self.assertEqual([r["tool"] for r in catalog.refused], ["broken"])
                self.assertIn('did you mean "properties"', catalog.refused[0]["message"])
            with self.assertRaises(ToolSchemaError):
                Catalog(path, strict=True)
        finally:
            path.unlink()


class Process(unittest.TestCase):
    def test_a_process_that_dies_is_reported_not_waited_for(self):
        catalog = Catalog()
        catalog._process.kill()
        outcome = []

        def ask():
            try:
                catalog.declarations("mcp")
                outcome.append("answered")
            except ProcessDied as died:
                outcome.append(died.code)

        thread = threading.Thread(target=ask)
        thread.start()
        thread.join(timeout=10)
        self.assertFalse(thread.is_alive(), "a request to a dead process hung")
        self.assertEqual(outcome, ["io"])
        with self.assertRaises(ProcessDied):
            catalog.tool_schema("read_file")
        catalog.close()

    def test_four_threads_share_one_catalog(self):
        errors = []
        with Catalog(SERVER) as catalog:
            def work(thread):
                for i in range(200):
                    path = f"t{thread}-{i}.md"
                    call = {"type": "tool_use", "id": path, "name": "read_text_file",
                            "input": {"path": path} if i % 3 else {"path": i}}
                    verdict = catalog.check_call("anthropic", call)
                    if verdict.id != path or verdict.ok != bool(i % 3):
                        errors.append((thread, i, verdict))
                    if verdict.ok and verdict.arguments != {"path": path}:
                        errors.append((thread, i, verdict))

            threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=60)
            self.assertFalse(any(thread.is_alive() for thread in threads))
        self.assertEqual(errors, [])


class Readme(unittest.TestCase):
    def test_the_readme_example_runs(self):
        text = (REPO / "python/README.md").read_text()
        example = text.split("```python\n", 1)[1].split("```", 1)[0]
        out = subprocess.run([sys.executable, "-c", example], cwd=REPO, capture_output=True,
                             text=True, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stdout.splitlines()[0], "14 tools, 0 refused")
        self.assertTrue(out.stdout.splitlines()[1].startswith("wrong_argument_type /path "))


class Streams(unittest.TestCase):
    def test_an_anthropic_stream_from_recorded_events(self):
        events = [json.loads(line) for line in
                  (STREAMS / "anthropic_get_weather.jsonl").read_text().splitlines() if line]
        with Catalog(STREAMS / "catalog.json") as catalog:
            stream = catalog.stream("anthropic")
            settled = [call for event in events for call in stream.push(event)]
            self.assertEqual(stream.end(), [])
        self.assertEqual(len(settled), 1)
        index, verdict = settled[0]
        self.assertEqual((index, verdict.name, verdict.arguments),
                         (1, "get_weather", {"location": "Paris"}))


if __name__ == "__main__":
    unittest.main()
