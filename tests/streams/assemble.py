#!/usr/bin/env python3
"""The independent reference for tests/streams/recorded/: assembles each recorded stream's
client calls from its events with Python's json module, as each provider documents its events
(the pages are cited in docs/protocol.md's table of events), and writes what call_delta must
answer to each event, byte for byte:

- NAME.expected.jsonl: one line per event of NAME.jsonl: {"calls":[...]} with each call
  settled at that event and its verdict, {"arguments":A,"id":I,"name":N,"ok":true} (A in
  canonical form: keys sorted, no whitespace, raw UTF-8), or {"error":"unsupported"} where
  call_delta refuses the event (Vertex's arguments in pieces);
- catalog.json: every tool the streams call, its parameters the top-level keys its calls give
  (each any value, none required), so that every call is valid and its arguments are echoed.

It shares no code with the crate: run `python3 tests/streams/assemble.py` after adding a
stream, and commit what it writes. Python 3.8 or later, standard library only.
"""
import json
import pathlib

HERE = pathlib.Path(__file__).resolve().parent / "recorded"


def canonical(value):
    """RFC 8785 for the values these streams hold: sorted keys, no whitespace, raw UTF-8;
    an integral float as an integer."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, dict):
        items = sorted(value.items(), key=lambda kv: kv[0].encode("utf-16-be"))
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + canonical(v) for k, v in items) + "}"
    if isinstance(value, list):
        return "[" + ",".join(canonical(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def verdict(call):
    fields = {"arguments": call["arguments"], "name": call["name"], "ok": True}
    if call.get("id") is not None:
        fields["id"] = call["id"]
    return fields


def line(settled):
    calls = ",".join(
        '{"index":%d,"verdict":%s}' % (index, canonical(verdict(call))) for index, call in settled
    )
    return '{"calls":[%s]}' % calls


def arguments(text):
    """A call's arguments from their text: `{}` for none, as the providers' SDKs read it."""
    return json.loads(text) if text.strip() else {}


def openai(events):
    """Chat Completions: choices[0].delta.tool_calls[] fragments keyed by `index`; `id`,
    `function.name` and `function.arguments` joined as given; finish_reason completes all."""
    open_calls, out = {}, []
    for event in events:
        settled = []
        for choice in event.get("choices") or []:
            for fragment in (choice.get("delta") or {}).get("tool_calls") or []:
                call = open_calls.setdefault(fragment["index"], {"id": "", "name": "", "text": ""})
                call["id"] += fragment.get("id") or ""
                function = fragment.get("function") or {}
                call["name"] += function.get("name") or ""
                call["text"] += function.get("arguments") or ""
            if choice.get("finish_reason"):
                for index in sorted(open_calls):
                    call = open_calls[index]
                    settled.append((index, {"id": call["id"], "name": call["name"],
                                            "arguments": arguments(call["text"])}))
                open_calls = {}
        out.append(line(settled))
    return out


def responses(events):
    """Responses: a function_call item is added, its arguments come in deltas keyed by
    output_index, `function_call_arguments.done` and `output_item.done` give them whole; the
    finished item completes it."""
    open_calls, out = {}, []
    for event in events:
        kind, settled = event["type"], []
        index = event.get("output_index")
        if kind in ("response.output_item.added", "response.output_item.done"):
            item = event["item"]
            if item["type"] == "function_call":
                call = open_calls.setdefault(index, {"text": ""})
                call["id"], call["name"] = item.get("call_id"), item.get("name")
                if item.get("arguments"):
                    call["text"] = item["arguments"]
                if kind == "response.output_item.done":
                    settled.append((index, {"id": call["id"], "name": call["name"],
                                            "arguments": arguments(call["text"])}))
                    del open_calls[index]
        elif kind == "response.function_call_arguments.delta":
            open_calls.setdefault(index, {"text": ""})["text"] += event["delta"]
        elif kind == "response.function_call_arguments.done" and index in open_calls:
            open_calls[index]["text"] = event["arguments"]
        out.append(line(settled))
    return out


def anthropic(events):
    """Messages: only `tool_use` blocks are the client's calls; a block's `input` whole at its
    start, or its input_json_delta pieces joined; content_block_stop completes it; blocks
    already whole in message_start's content are complete there."""
    open_calls, out = {}, []
    for event in events:
        kind, settled = event["type"], []
        if kind == "message_start":
            for index, block in enumerate(event["message"].get("content") or []):
                if block.get("type") == "tool_use":
                    settled.append((index, {"id": block["id"], "name": block["name"],
                                            "arguments": block.get("input") or {}}))
        elif kind == "content_block_start" and event["content_block"]["type"] == "tool_use":
            block = event["content_block"]
            open_calls[event["index"]] = {"id": block["id"], "name": block["name"],
                                          "input": block.get("input") or {}, "text": ""}
        elif kind == "content_block_delta" and event["delta"]["type"] == "input_json_delta":
            if event["index"] in open_calls:
                open_calls[event["index"]]["text"] += event["delta"]["partial_json"]
        elif kind == "content_block_stop" and event["index"] in open_calls:
            call = open_calls.pop(event["index"])
            given = arguments(call["text"]) if call["text"].strip() else call["input"]
            settled.append((event["index"], {"id": call["id"], "name": call["name"],
                                             "arguments": given}))
        out.append(line(settled))
    return out


def gemini(events):
    """Gemini: each functionCall part whole, numbered from 0 in the order they come; one in
    pieces (partialArgs, willContinue, or the empty functionCall that ends one) is refused."""
    count, out = 0, []
    for event in events:
        settled, refused = [], False
        for candidate in event.get("candidates") or []:
            for part in (candidate.get("content") or {}).get("parts") or []:
                call = part.get("functionCall")
                if call is None:
                    continue
                if not call or "partialArgs" in call or "willContinue" in call:
                    refused = True
                    break
                settled.append((count, {"id": call.get("id"), "name": call["name"],
                                        "arguments": call.get("args") or {}}))
                count += 1
            if refused:
                break
        if refused:
            count -= len(settled)
            out.append('{"error":"unsupported"}')
        else:
            out.append(line(settled))
    return out


READERS = {"openai": openai, "openai_responses": responses, "anthropic": anthropic,
           "gemini": gemini}


def format_of(name):
    for prefix, fmt in [("openai_responses", "openai_responses"), ("openai_chat", "openai"),
                        ("anthropic", "anthropic"), ("gemini", "gemini")]:
        if name.startswith(prefix):
            return fmt
    raise SystemExit(f"{name}: no format in its name")


def main():
    tools = {}
    for path in sorted(HERE.glob("*.jsonl")):
        if path.name.endswith(".expected.jsonl"):
            continue
        events = [json.loads(text) for text in path.read_text(encoding="utf-8").splitlines() if text.strip()]
        expected = READERS[format_of(path.stem)](events)
        for text in expected:
            for settled in json.loads(text).get("calls", []):
                v = settled["verdict"]
                keys = tools.setdefault(v["name"], set())
                keys.update(v["arguments"].keys())
        path.with_name(path.stem + ".expected.jsonl").write_text(
            "".join(text + "\n" for text in expected), encoding="utf-8")
    catalog = [
        {"name": name,
         "description": "Called in a recorded stream of tests/streams/recorded; its parameters are the keys its calls give.",
         "inputSchema": {"type": "object", "properties": {key: {} for key in sorted(keys)}}}
        for name, keys in sorted(tools.items())
    ]
    (HERE / "catalog.json").write_text(json.dumps(catalog, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
