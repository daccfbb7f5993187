#!/usr/bin/env python3
"""Writes the catalog review's golden files from the rules as docs/review.md states them,
independently of src/review.rs: tests/review/<name>.txt, one line per finding,
`TOOL POINTER RULE: message`, sorted by tool, then pointer, then the rule's place in the table.

    python3 tests/review_reference.py && git diff --exit-code tests/review

Whether a `default` or an example fits its node is judged by the `jsonschema` package
(4.26.0, Draft202012Validator, without a format checker: formats are annotations here).
"""
import json
import pathlib
import re

import jsonschema

HERE = pathlib.Path(__file__).parent
ROOT = HERE.parent

RULES = ["command-execution", "privilege-flag", "credential-parameter", "open-url", "open-path",
         "permissive-object", "missing-bound", "closed-choice", "usage-conditions", "side-effects",
         "default-mismatch", "example-mismatch"]

COMMAND_WORDS = {"command", "cmd", "script", "shell", "exec", "eval"}
COMMAND_PHRASES = ["shell command", "command to run", "command to execute", "command line to",
                   "script to run", "script to execute", "code to run", "code to execute",
                   "code to eval", "to be executed", "is executed"]
PRIVILEGE_WORDS = {"admin", "sudo", "force", "privileged", "unsafe"}
PRIVILEGE_NAMES = [["allow", "dangerous"], ["no", "verify"]]
CREDENTIAL_WORDS = {"password", "passwd", "token", "secret", "credential", "credentials",
                    "authorization"}
CREDENTIAL_NAMES = [["api", "key"], ["private", "key"]]
URL_WORDS = {"url", "uri", "endpoint", "webhook"}
URL_FORMATS = {"uri", "uri-reference", "iri", "iri-reference", "url"}
PATH_WORDS = {"path", "paths", "file", "files", "filename", "filepath", "dir", "dirs",
              "directory", "folder"}
CHOICE_PHRASES = [" | ", "one of", "either "]
USAGE_PHRASES = ["do not", "don't", "only", "instead", "never", "unless"]

MESSAGES = {
    "command-execution": "a string run as a command, a script or code: give it an enum of what "
    "may run, or a pattern, or split it into typed parameters the host assembles",
    "privilege-flag": "a boolean that lets the caller raise its own rights or skip a check: "
    "decide it in the host, not in the model's arguments",
    "credential-parameter": "a parameter that carries a secret, which the model then sees and "
    "repeats: let the host supply it",
    "open-url": "a URL the caller picks: restrict it with an enum, or a pattern of the hosts and "
    "schemes allowed",
    "open-path": "a filesystem path the caller picks: restrict it with a pattern (a root, no "
    "`..`), or resolve it under a root in the host",
    "permissive-object": "an object that admits members it does not name: set "
    "additionalProperties to false, or name them",
    "closed-choice": "the description lists the values to choose from: give them as an enum",
    "usage-conditions": "says what the tool does but not when not to use it; add when another "
    "tool fits better, or what it must not be used for (advisory: English words only)",
    "side-effects": "no annotations say what the tool does to its environment, so a client takes "
    "MCP's defaults (it may change things, destructively, not idempotently, in an open world); "
    "set readOnlyHint, destructiveHint, idempotentHint and openWorldHint",
    "default-mismatch": "a default that this schema refuses: it is never applied, kept only in "
    "the MCP shape and dropped from the providers', where a model would send it; make it fit "
    "(for `limit: int = None`, type the parameter `Optional[int]`), or remove it",
    "example-mismatch": "an example that this schema refuses: the examples are kept only in the "
    "MCP shape; make each fit, or remove it",
}
BOUNDS = {
    "string": "a string with no maxLength, enum or pattern: bound its length",
    "number": "a number with no minimum or maximum: bound it",
    "array": "an array with no maxItems: bound how many elements it takes",
}


def words(name):
    out, word, previous_lower = [], "", False
    for c in name:
        if c in "_- .":
            if word:
                out.append(word)
            word, previous_lower = "", False
            continue
        if c.isupper() and previous_lower:
            out.append(word)
            word = ""
        previous_lower = c.islower() or c in "0123456789"
        word += c.lower()
    if word:
        out.append(word)
    return out


def has_run(ws, run):
    return any(ws[i:i + len(run)] == run for i in range(len(ws) - len(run) + 1))


def has_phrase(text, phrase):
    return re.search(r"(?<![A-Za-z0-9])" + re.escape(phrase) + r"(?![A-Za-z0-9])", text) is not None


def escape(name):
    return name.replace("~", "~0").replace("/", "~1")


def node_findings(node, pointer, label, found, root):
    if isinstance(node, dict):
        # The node judged as part of its tool's schema, so that a `$ref` in it resolves.
        fits = jsonschema.Draft202012Validator(root).evolve(schema=node).is_valid
        if "default" in node and not fits(node["default"]):
            found(pointer + "/default", "default-mismatch")
        if "examples" in node and not all(fits(example) for example in node["examples"]):
            found(pointer + "/examples", "example-mismatch")
    if not isinstance(node, dict) or "type" not in node:
        return
    types = node["type"] if isinstance(node["type"], list) else [node["type"]]
    ws = words(label)
    description = node.get("description", "").lower()
    closed = "enum" in node or "const" in node
    constrained = closed or "pattern" in node
    if "string" in types and not constrained:
        if set(ws) & COMMAND_WORDS or any(p in description for p in COMMAND_PHRASES):
            found(pointer, "command-execution")
        if set(ws) & URL_WORDS or node.get("format") in URL_FORMATS:
            found(pointer, "open-url")
        elif set(ws) & PATH_WORDS:
            found(pointer, "open-path")
        if any(p in description for p in CHOICE_PHRASES):
            found(pointer, "closed-choice")
        if "maxLength" not in node:
            found(pointer, "missing-bound", BOUNDS["string"])
    if "boolean" in types and not closed:
        if (set(ws) & PRIVILEGE_WORDS or (ws and ws[0] == "skip")
                or any(has_run(ws, run) for run in PRIVILEGE_NAMES)):
            found(pointer, "privilege-flag")
    if not closed and (set(ws) & CREDENTIAL_WORDS or any(has_run(ws, run) for run in CREDENTIAL_NAMES)):
        found(pointer, "credential-parameter")
    bounded = any(k in node for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"))
    if ("integer" in types or "number" in types) and not closed and not bounded:
        found(pointer, "missing-bound", BOUNDS["number"])
    if "array" in types and not closed and "maxItems" not in node:
        found(pointer, "missing-bound", BOUNDS["array"])
    if "object" in types and not closed and node.get("additionalProperties") is not False:
        found(pointer, "permissive-object")


def review(catalog):
    findings = []
    for tool in catalog:
        name = tool["name"]

        def found(pointer, rule, message=None):
            findings.append((name, pointer, RULES.index(rule), rule, message or MESSAGES[rule]))

        if not any(has_phrase(tool.get("description", "").lower(), p) for p in USAGE_PHRASES):
            found("/description", "usage-conditions")
        hints = tool.get("annotations") or {}
        if not any(h in hints for h in ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")):
            found("/annotations", "side-effects")
        stack = [(tool["inputSchema"], "/inputSchema", "")]
        while stack:
            node, pointer, label = stack.pop()
            node_findings(node, pointer, label, found, tool["inputSchema"])
            if not isinstance(node, dict):
                continue
            for key, child in node.get("properties", {}).items():
                stack.append((child, pointer + "/properties/" + escape(key), key))
            items = node.get("items")
            if isinstance(items, dict):
                stack.append((items, pointer + "/items", label))
            elif isinstance(items, list):
                for i, child in enumerate(items):
                    stack.append((child, f"{pointer}/items/{i}", label))
            if isinstance(node.get("additionalProperties"), dict):
                stack.append((node["additionalProperties"], pointer + "/additionalProperties", ""))
            for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
                for i, child in enumerate(node.get(key, [])):
                    stack.append((child, f"{pointer}/{key}/{i}", label))
            for key in ("$defs", "definitions"):
                for def_name, child in node.get(key, {}).items():
                    stack.append((child, f"{pointer}/{key}/{escape(def_name)}", ""))
    findings.sort(key=lambda f: (f[0].encode(), f[1].encode(), f[2]))
    return "".join(f"{tool} {pointer} {rule}: {message}\n" for tool, pointer, _, rule, message in findings)


def main():
    out = HERE / "review"
    out.mkdir(exist_ok=True)
    for name, path in [("default", ROOT / "src" / "catalog.json"),
                       ("reasonix", HERE / "catalogs" / "reasonix" / "catalog.json"),
                       ("pydantic", HERE / "catalogs" / "pydantic" / "catalog.json"),
                       ("zod", HERE / "catalogs" / "zod" / "catalog.json"),
                       ("github-mcp-server", HERE / "catalogs" / "mcp-servers" / "github-mcp-server.json"),
                       ("fastmcp", HERE / "catalogs" / "fastmcp" / "tools.json")]:
        (out / (name + ".txt")).write_text(review(json.loads(path.read_text())))


if __name__ == "__main__":
    main()
