#!/usr/bin/env python3
"""Writes check_call's golden answers from the specification (issue 11 and the README's
"Checking a call" section) alone, independently of the Rust code.

    python3 tests/call_reference.py CATALOG CASES GOLDEN_DIR
    python3 tests/call_reference.py          # every catalog below, then: git diff tests/calls

CASES is a JSON list of [name, request]; each answer goes to GOLDEN_DIR/<name>.json, byte for
byte, or GOLDEN_DIR/<name>.error holding the code of a request the crate must refuse.

Python's json module parses the request, the envelope and the arguments; this file walks the
catalog's schema, words the messages, orders the errors, writes JCS (sorted keys, the writer's
escapes, ECMAScript numbers) and shapes each provider's reply. One thing is taken from the
crate: when the arguments are not JSON, the tokenizer's own description of the fault (which
`tests/tokenizer.rs` and the JSONTestSuite check against RFC 8259), read from the binary
`target/debug/tool-schema` given the arguments alone; this file decides that they are not JSON.
"""
import json
import math
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).parent
ROOT = HERE.parent
MAX_SAFE = 2**53 - 1
QUOTE = 64
MAX_ERRORS = 16


class Raw:
    """A number as the arguments wrote it."""

    def __init__(self, text):
        self.text = text
        self.value = float(text)


def pairs(items):
    return ("object", items)


def parse(text):
    """JSON with objects as ("object", [(key, value)...]) in document order and numbers kept raw."""
    return json.loads(text, object_pairs_hook=pairs, parse_float=Raw, parse_int=Raw,
                      parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))


def is_object(v):
    return isinstance(v, tuple) and v[0] == "object"


# --- the catalog ------------------------------------------------------------------------------

def properties(schema):
    return sorted((schema.get("properties") or {}).items())


# --- messages ---------------------------------------------------------------------------------

def cut(text):
    chars = ["\ufffd" if (ord(c) < 0x20 or 0x7f <= ord(c) < 0xa0) else c for c in text]
    shown = "".join(chars[:QUOTE])
    return shown + ("..." if len(chars) > QUOTE else "")


def describe(value):
    if isinstance(value, str):
        return f'the string "{cut(value)}"'
    if isinstance(value, Raw):
        return "the number " + value.text[:QUOTE] + ("..." if len(value.text) > QUOTE else "")
    if value is True:
        return "the boolean true"
    if value is False:
        return "the boolean false"
    if value is None:
        return "null"
    return "an object" if is_object(value) else "an array"


def expected(schema, nullable):
    article = {"object": "an object", "array": "an array", "string": "a string",
               "integer": "an integer", "number": "a number", "boolean": "a boolean"}
    return article[schema["type"]] + (" or null" if nullable else "")


def name(path):
    return "/".join(cut(step) if isinstance(step, str) else str(step) for step in path)


def pointer(path):
    return "".join("/" + (step.replace("~", "~0").replace("/", "~1") if isinstance(step, str)
                          else str(step)) for step in path)


def plural(n, word):
    return f"{word}{'' if n == 1 else 's'}"


def takes(schema):
    names = [n for n, _ in properties(schema)]
    if not names:
        return " takes no arguments"
    listed = ", ".join(names[:16])
    return " takes " + listed + (f" and {len(names) - 16} more" if len(names) > 16 else "")


def enum_text(values):
    """String values quoted, numbers (given as the catalog's text) as they are."""
    shown = [f'"{v}"' if quoted else v for quoted, v in values[:16]]
    text = ", ".join(shown)
    return text + (f" (or {len(values) - 16} more)" if len(values) > 16 else "")


# --- checking ---------------------------------------------------------------------------------

class Walk:
    def __init__(self, tool, nullable_optionals, numbers):
        self.tool = tool
        self.numbers = numbers  # the catalog's numbers as it spells them
        self.nullable_optionals = nullable_optionals
        self.met = []
        self.missing = []
        self.objects = 0

    def note(self, code, path, message):
        self.met.append((code, path, message))

    def value(self, value, schema, nullable, path):
        ty = schema["type"]
        arg = f'argument "{name(path)}"'
        if value is None and nullable:
            return
        if is_object(value) and ty == "object":
            return self.object(value, schema, path)
        if isinstance(value, list) and ty == "array":
            for i, item in enumerate(value):
                self.value(item, schema["items"], False, path + [i])
            n = len(value)
            if "minItems" in schema and n < schema["minItems"]:
                self.note("argument_out_of_range", path,
                          f"{arg} must have at least {schema['minItems']} "
                          f"{plural(schema['minItems'], 'item')}, found {n}")
            elif "maxItems" in schema and n > schema["maxItems"]:
                self.note("argument_out_of_range", path,
                          f"{arg} must have at most {schema['maxItems']} "
                          f"{plural(schema['maxItems'], 'item')}, found {n}")
            return
        wrong = ("wrong_argument_type", path,
                 f"{arg} must be {expected(schema, nullable)}, found {describe(value)}")
        if ty == "string" and isinstance(value, str):
            if "enum" in schema and value not in schema["enum"]:
                values = [(True, v) for v in schema["enum"]]
                return self.note("argument_not_in_enum", path,
                                 f"{arg} must be one of {enum_text(values)}, found {describe(value)}")
            n = len(value)  # Python strings are code points
            if "minLength" in schema and n < schema["minLength"]:
                return self.note("argument_out_of_range", path,
                                 f"{arg} must be at least {schema['minLength']} "
                                 f"{plural(schema['minLength'], 'character')} long, found {n}")
            if "maxLength" in schema and n > schema["maxLength"]:
                return self.note("argument_out_of_range", path,
                                 f"{arg} must be at most {schema['maxLength']} "
                                 f"{plural(schema['maxLength'], 'character')} long, found {n}")
            return
        if ty in ("integer", "number") and isinstance(value, Raw):
            v = value.value
            if math.isinf(v):
                return self.note("argument_out_of_range", path,
                                 f"{arg} must be a number that fits a 64-bit float, found {describe(value)}")
            if ty == "integer":
                if v != math.floor(v):
                    return self.note(*wrong)
                if abs(v) > MAX_SAFE:
                    return self.note("argument_out_of_range", path,
                                     f"{arg} must be an integer from -{MAX_SAFE} to {MAX_SAFE}, "
                                     f"found {describe(value)}")
            if "enum" in schema and v not in [float(e) for e in schema["enum"]]:
                return self.note("argument_not_in_enum", path,
                                 f"{arg} must be one of {enum_text([(False, t) for t in self.numbers(schema, 'enum')])}, "
                                 f"found {describe(value)}")
            if "minimum" in schema and v < schema["minimum"]:
                return self.note("argument_out_of_range", path,
                                 f"{arg} must be at least {self.numbers(schema, 'minimum')}, found {describe(value)}")
            if "maximum" in schema and v > schema["maximum"]:
                return self.note("argument_out_of_range", path,
                                 f"{arg} must be at most {self.numbers(schema, 'maximum')}, found {describe(value)}")
            return
        if ty == "boolean" and isinstance(value, bool):
            return
        self.note(*wrong)

    def object(self, pairs_, schema, path):
        ordinal = self.objects
        self.objects += 1
        props = properties(schema)
        by_name = dict(props)
        required = set(schema.get("required", []))
        seen = set()
        for key, value in pairs_[1]:
            if key not in by_name:
                where = self.tool if not path else f'"{name(path)}"'
                self.note("unknown_argument", path + [key],
                          f'unknown argument "{name(path + [key])}"; {where}{takes(schema)}')
                continue
            if key in seen:
                self.note("duplicate_argument", path + [key],
                          f'argument "{name(path + [key])}" is given more than once')
                continue
            seen.add(key)
            nullable = self.nullable_optionals and key not in required
            self.value(value, by_name[key], nullable, path + [key])
        for index, (key, prop) in enumerate(props):
            if key in required and key not in seen:
                self.missing.append(((ordinal, index), ("missing_argument", path + [key],
                                    f'missing required argument "{name(path + [key])}", which must be {expected(prop, False)}')))


def canonical(value, schema):
    """RFC 8785 of checked arguments: nulls dropped from objects (only nullable optionals get
    this far), keys sorted, the writer's escapes, ECMAScript numbers."""
    if is_object(value):
        members = sorted((k, v) for k, v in value[1] if v is not None)
        props = dict(properties(schema))
        return "{" + ",".join(json.dumps(k) + ":" + canonical(v, props[k]) for k, v in members) + "}"
    if isinstance(value, list):
        return "[" + ",".join(canonical(v, schema["items"]) for v in value) + "]"
    if isinstance(value, Raw):
        return es_number(value.value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value, ensure_ascii=False)


def es_number(v):
    """ECMAScript's Number::toString (RFC 8785 section 3.2.2.3), from Python's shortest
    round-tripping repr."""
    if v == 0:
        return "0"
    sign = "-" if v < 0 else ""
    text = repr(abs(v))  # '100.0', '1e+21', '1.5e-07', '0.0001'
    mantissa, _, e = text.partition("e")
    whole, _, frac = mantissa.partition(".")
    digits = (whole + frac).lstrip("0")
    exp10 = int(e or 0) - len(frac)  # the value is int(whole + frac) * 10**exp10
    trimmed = digits.rstrip("0")
    exp10 += len(digits) - len(trimmed)
    k = len(trimmed)
    n = exp10 + k  # the value is 0.d1...dk * 10**n
    if k <= n <= 21:
        out = trimmed + "0" * (n - k)
    elif 0 < n <= 21:
        out = trimmed[:n] + "." + trimmed[n:]
    elif -6 < n <= 0:
        out = "0." + "0" * (-n) + trimmed
    else:
        out = trimmed[0] + ("." + trimmed[1:] if k > 1 else "") + ("e+" if n - 1 >= 0 else "e-") + str(abs(n - 1))
    return sign + out


# --- the request ------------------------------------------------------------------------------

def json_str(s):
    return json.dumps(s, ensure_ascii=False)


def get(obj, key, default=None):
    for k, v in obj[1]:
        if k == key:
            return v
    return default


def answer(request_text, catalog, numbers):
    request = parse(request_text)
    fmt = get(request, "format", "openai")
    strict = get(request, "strict", False)
    call = get(request, "call")
    empty = ("object", [])
    if fmt == "openai":
        function = get(call, "function")
        name_, ident = get(function, "name"), get(call, "id")
        given = ("text", get(function, "arguments"))
    elif fmt == "openai_responses":
        name_, ident, given = get(call, "name"), get(call, "call_id"), ("text", get(call, "arguments"))
    elif fmt == "anthropic":
        name_, ident, given = get(call, "name"), get(call, "id"), ("value", get(call, "input"))
    elif fmt == "gemini":
        name_, ident, given = get(call, "name"), get(call, "id"), ("value", get(call, "args", empty))
    else:
        name_, ident, given = get(call, "name"), None, ("value", get(call, "arguments", empty))

    def finish(errors=None, arguments=None):
        if errors is None:
            out = '{"arguments":' + arguments
            if ident is not None:
                out += ',"id":' + json_str(ident)
            return out + ',"name":' + json_str(name_) + ',"ok":true}\n'
        text = "\n".join(m for _, _, m in errors)
        errs = ",".join('{"code":' + json_str(c) + ',"message":' + json_str(m) + ',"path":' +
                        json_str(pointer(p)) + "}" for c, p, m in errors)
        out = '{"errors":[' + errs + "]"
        if ident is not None:
            out += ',"id":' + json_str(ident)
        out += ',"name":' + json_str(name_) + ',"ok":false,"reply":' + reply(fmt, name_, ident, text) + "}\n"
        return out

    if name_ not in catalog:
        closest = closest_name(name_, list(catalog))
        return finish([("unknown_tool", [], f'there is no tool "{cut(name_)}"; did you mean "{closest}"?')])
    schema = catalog[name_]
    nullable = strict and fmt in ("openai", "openai_responses")
    if given[0] == "text":
        text = given[1]
        if text.strip(" \t\n\r") == "":
            value = ("object", [])
        else:
            try:
                value = parse(text)
            except ValueError:
                fault = tokenizer_fault(text)
                if "found end of input" in fault:
                    return finish([("truncated_arguments", [],
                                    f"the arguments end in the middle of a JSON value after "
                                    f"{len(text.encode())} bytes; send the whole call again")])
                return finish([("malformed_arguments", [], f"the arguments are not valid JSON: {fault}")])
    else:
        value = given[1]
    if not is_object(value):
        if isinstance(value, str):
            try:
                parse(value)
                found = "a string holding JSON; send the object itself, not encoded as a string"
            except ValueError:
                found = describe(value)
        else:
            found = describe(value)
        return finish([("arguments_not_object", [], f"the arguments must be a JSON object, found {found}")])
    walk = Walk(name_, nullable, numbers)
    walk.object(value, schema, [])
    errors = walk.met + [p for _, p in sorted(walk.missing, key=lambda m: m[0])]
    if errors:
        return finish(errors[:MAX_ERRORS])
    return finish(arguments=canonical(value, schema))


def reply(fmt, name_, ident, text):
    t = json_str(text)
    i = json_str(ident if ident is not None else "")
    if fmt == "openai":
        return '{"content":' + t + ',"role":"tool","tool_call_id":' + i + "}"
    if fmt == "openai_responses":
        return '{"call_id":' + i + ',"output":' + t + ',"type":"function_call_output"}'
    if fmt == "anthropic":
        return '{"content":' + t + ',"is_error":true,"tool_use_id":' + i + ',"type":"tool_result"}'
    if fmt == "gemini":
        head = ('"id":' + json_str(ident) + ",") if ident is not None else ""
        return '{"functionResponse":{' + head + '"name":' + json_str(name_) + ',"response":{"error":' + t + "}}}"
    return '{"content":[{"text":' + t + ',"type":"text"}],"isError":true}'


def closest_name(asked, names):
    """The README's rule: a name containing what was asked first, then the smallest edit
    distance; ties to the earlier tool."""
    asked = asked.encode()[:64].decode(errors="ignore")

    def distance(a, b):
        row = list(range(len(b) + 1))
        for i, ca in enumerate(a, 1):
            prev, row[0] = row[0], i
            for j, cb in enumerate(b, 1):
                prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
        return row[-1]

    return min(names, key=lambda n: (asked not in n, distance(asked, n)))


def tokenizer_fault(text):
    out = subprocess.run([str(ROOT / "target/debug/tool-schema")], input=text.encode(),
                         capture_output=True)
    line = out.stderr.decode().strip()
    prefix = "tool-schema: malformed_json: "
    assert line.startswith(prefix), line
    return line[len(prefix):]


def catalog_numbers(path):
    """The catalog's numbers as it spells them, by node: bounds and enum values are written in
    messages as the catalog wrote them."""
    text = pathlib.Path(path).read_text()
    raw = json.loads(text, parse_float=lambda s: ("raw", s), parse_int=lambda s: ("raw", s))
    index = {}

    def walk(node, plain):
        if isinstance(node, dict):
            for key in ("minimum", "maximum"):
                if key in node:
                    index[(id(plain), key)] = node[key][1]
            if "enum" in node:
                index[(id(plain), "enum")] = [v[1] if isinstance(v, tuple) else v for v in node["enum"]]
            for key, value in node.items():
                if isinstance(value, (dict, list)):
                    walk(value, plain[key])
        elif isinstance(node, list):
            for a, b in zip(node, plain):
                walk(a, b)

    plain = json.loads(text)
    walk(raw, plain)
    return plain, lambda schema, key: index[(id(schema), key)]


def write(catalog_path, cases_path, golden_dir):
    plain, numbers = catalog_numbers(catalog_path)
    catalog = {tool["name"]: tool["inputSchema"] for tool in plain}
    golden_dir = pathlib.Path(golden_dir)
    golden_dir.mkdir(parents=True, exist_ok=True)
    for name_, request in json.loads(pathlib.Path(cases_path).read_text()):
        (golden_dir / f"{name_}.json").write_bytes(answer(request, catalog, numbers).encode())


if __name__ == "__main__":
    if len(sys.argv) == 4:
        write(*sys.argv[1:])
    else:
        write(ROOT / "src/catalog.json", HERE / "calls/default/cases.json", HERE / "calls/default/golden")
        write(HERE / "catalogs/bounds/catalog.json", HERE / "calls/bounds/cases.json",
              HERE / "calls/bounds/golden")
