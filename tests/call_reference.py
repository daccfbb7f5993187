#!/usr/bin/env python3
"""Writes check_call's golden answers from the specification (issue 11 and the README's
"Checking a call" section) alone, independently of the Rust code.

    python3 tests/call_reference.py CATALOG CASES GOLDEN_DIR
    python3 tests/call_reference.py          # every catalog below, then: git diff tests/calls

CASES is a JSON list of [name, request]; each answer goes to GOLDEN_DIR/<name>.json, byte for
byte, or GOLDEN_DIR/<name>.error holding the code of a request the crate must refuse.

Python's json module parses the request, the envelope and the arguments; this file walks the
catalog's schema, words the messages, orders the errors, writes JCS (sorted keys, the writer's
escapes, ECMAScript numbers) and shapes each provider's reply. When the arguments are not
JSON, `fault` below, a reader of RFC 8259's grammar written for this file, finds where and
why, in the words the README gives the tokenizer's faults; the text ending inside a value is
`truncated_arguments`, anything else `malformed_arguments`. Nothing here runs the crate.
"""
import json
import math
import pathlib
import sys

# Deep arguments (thousands of levels) are valid JSON, and parse() reads them recursively.
sys.setrecursionlimit(20_000)

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


def catalog_string(text):
    """A catalog string in a message: quoted, `"`, `\\` and control characters escaped as JSON
    escapes them (U+2028 and U+2029 too), so that the message stays one line."""
    out = []
    for c in text:
        if c in '"\\':
            out.append("\\" + c)
        elif c in "\n\r\t":
            out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t"}[c])
        elif ord(c) < 0x20 or 0x7f <= ord(c) < 0xa0 or c in "\u2028\u2029":
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def enum_text(values):
    """String values quoted, numbers (given as the catalog's text) as they are."""
    shown = [catalog_string(v) if quoted else v for quoted, v in values[:16]]
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
            if path and "properties" not in schema:
                return  # a nested object without "properties" is free-form: any members
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


def canonical(value, schema, root=True):
    """RFC 8785 of checked arguments: nulls dropped from objects (only nullable optionals get
    this far), keys sorted, the writer's escapes, ECMAScript numbers."""
    if is_object(value) and schema is not None and "properties" not in schema and not root:
        schema = None  # free-form: its members as they are
    if is_object(value) and schema is None:
        members = sorted(value[1], key=lambda kv: kv[0].encode("utf-16-be"))
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + canonical(v, None, False)
                              for k, v in members) + "}"
    if is_object(value):
        members = sorted((k, v) for k, v in value[1] if v is not None)
        props = dict(properties(schema))
        return "{" + ",".join(json.dumps(k) + ":" + canonical(v, props[k], False) for k, v in members) + "}"
    if isinstance(value, list):
        items = schema["items"] if schema is not None else None
        return "[" + ",".join(canonical(v, items, False) for v in value) + "]"
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
            data = text.encode()
            found = fault(data)
            if found is not None:
                at, what = found
                if at == len(data):
                    return finish([("truncated_arguments", [],
                                    f"the arguments end in the middle of a JSON value after "
                                    f"{len(data)} bytes; send the whole call again")])
                return finish([("malformed_arguments", [],
                                f"the arguments are not valid JSON: {fault_text(data, at, what)}")])
            value = parse(text)
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


# --- syntax -----------------------------------------------------------------------------------

WHITESPACE = b" \t\n\r"
ESCAPES = b'"\\/bfnrt'


def fault(data):
    """Where and why `data` is not one RFC 8259 JSON text: (offset, what) or None.

    The offset is the first byte that cannot continue the text (its length when the text ends
    too soon), except where the README's fault table says otherwise: a number's leading zero is
    the digit after it; a high surrogate escape not followed by a low one is the byte after the
    high one; a lone low surrogate is its backslash. Nesting has no limit here."""
    n = len(data)
    stack = []  # "{" or "[" for each open container
    i = 0

    def ws(i):
        while i < n and data[i] in WHITESPACE:
            i += 1
        return i

    def hex4(i):
        for j in range(i, i + 4):
            if j >= n or chr(data[j]) not in "0123456789abcdefABCDEF":
                return None, j
        return int(data[i:i + 4], 16), None

    def string(i):
        """The end of the string opening at i, or a fault."""
        i += 1
        while True:
            if i >= n:
                return None, (i, "expected '\"' to close the string")
            b = data[i]
            if b == 0x22:
                return i + 1, None
            if b == 0x5C:
                e = data[i + 1] if i + 1 < n else None
                if e is not None and e in ESCAPES:
                    i += 2
                    continue
                if e != 0x75:
                    return None, (i + 1, "expected an escape: \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX")
                unit, bad = hex4(i + 2)
                if unit is None:
                    return None, (bad, "expected four hex digits after \\u")
                if 0xD800 <= unit <= 0xDBFF:
                    low = i + 6
                    second = hex4(low + 2)[0] if data[low:low + 2] == b"\\u" else None
                    if second is None or not 0xDC00 <= second <= 0xDFFF:
                        return None, (low, "expected a low surrogate \\uDC00-\\uDFFF after a high surrogate")
                    i = low + 6
                    continue
                if 0xDC00 <= unit <= 0xDFFF:
                    return None, (i, "expected a high surrogate \\uD800-\\uDBFF before a low surrogate")
                i += 6
                continue
            if b < 0x20:
                return None, (i, "control characters must be escaped in a string")
            if b < 0x80:
                i += 1
                continue
            width = 2 if 0xC2 <= b <= 0xDF else 3 if 0xE0 <= b <= 0xEF else 4 if 0xF0 <= b <= 0xF4 else 0
            try:
                if width == 0 or i + width > n:
                    raise UnicodeDecodeError("utf-8", b"", 0, 1, "")
                data[i:i + width].decode("utf-8")
            except UnicodeDecodeError:
                return None, (i, "expected valid UTF-8 in a string")
            i += width

    def number(i):
        start = i
        if data[i] == 0x2D:
            i += 1
        if i < n and data[i] == 0x30 and i + 1 < n and 0x30 <= data[i + 1] <= 0x39:
            return None, (i + 1, "a number must not have a leading zero")
        if i >= n or not 0x30 <= data[i] <= 0x39:
            return None, (i, "expected a digit after '-'")
        while i < n and 0x30 <= data[i] <= 0x39:
            i += 1
        if i < n and data[i] == 0x2E:
            i += 1
            if i >= n or not 0x30 <= data[i] <= 0x39:
                return None, (i, "expected a digit after the decimal point")
            while i < n and 0x30 <= data[i] <= 0x39:
                i += 1
        if i < n and data[i] in b"eE":
            i += 1
            if i < n and data[i] in b"+-":
                i += 1
            if i >= n or not 0x30 <= data[i] <= 0x39:
                return None, (i, "expected a digit in the exponent")
            while i < n and 0x30 <= data[i] <= 0x39:
                i += 1
        assert i > start
        return i, None

    def value(i, what):
        """The end of the value at i (after opening a container: just past its bracket)."""
        b = data[i] if i < n else None
        if b in (0x7B, 0x5B):
            stack.append(chr(b))
            return i + 1, None
        if b == 0x22:
            return string(i)
        if b is not None and (b == 0x2D or 0x30 <= b <= 0x39):
            return number(i)
        for word in (b"true", b"false", b"null"):
            if b == word[0]:
                for k, want in enumerate(word):
                    if i + k >= n or data[i + k] != want:
                        return None, (i + k, f"expected the literal {word.decode()}")
                return i + len(word), None
        return None, (i, what)

    if data.startswith(b"\xef\xbb\xbf"):
        return 0, "expected a JSON value (a byte order mark is not allowed)"
    i = ws(0)
    i, bad = value(i, "expected a JSON value")
    if bad:
        return bad
    # After a value or an opening bracket, what may come next.
    state = "open" if stack else "after"
    while stack:
        i = ws(i)
        b = data[i] if i < n else None
        top = stack[-1]
        if state == "open" and top == "[" and b == 0x5D or state == "open" and top == "{" and b == 0x7D:
            stack.pop()
            i += 1
            state = "after"
            continue
        if state == "after":
            if b == 0x2C:
                i += 1
                state = "value" if top == "[" else "key"
                continue
            if b == (0x7D if top == "{" else 0x5D):
                stack.pop()
                i += 1
                continue
            return i, ("expected ',' or '}' after object value" if top == "{"
                       else "expected ',' or ']' after array element")
        if top == "{":  # a key: after '{' or ','
            if b != 0x22:
                return i, ("expected a string key or '}'" if state == "open"
                           else "expected a string key after ','")
            i, bad = string(i)
            if bad:
                return bad
            i = ws(i)
            if i >= n or data[i] != 0x3A:
                return i, "expected ':' after object key"
            i = ws(i + 1)
            what = "expected a value"
        else:
            what = "expected a value or ']'" if state == "open" else "expected a value"
        depth = len(stack)
        i, bad = value(i, what)
        if bad:
            return bad
        state = "open" if len(stack) > depth else "after"
    i = ws(i)
    if i < n:
        return i, "expected end of input after the value"
    return None


def fault_text(data, at, what):
    """A fault as the README words it: what, the byte found, and where."""
    b = data[at] if at < len(data) else None
    if b is None:
        found = "found end of input"
    elif 0x20 <= b <= 0x7E:
        found = f"found '{chr(b)}'"
    else:
        found = f"found byte 0x{b:02x}"
    before = data[:at]
    line = before.count(b"\n") + 1
    column = at - (before.rfind(b"\n") + 1) + 1
    return f"{what}, {found} at byte {at} (line {line}, column {column})"


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
