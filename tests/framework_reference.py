#!/usr/bin/env python3
"""Writes the golden files of the framework catalogs from the specification alone.

The catalogs are the ones pydantic, zod, FastMCP and twelve published MCP servers write
(tests/catalogs/): JSON Schema 2020-12 (and draft-07, as the MCP TypeScript SDK writes it), far beyond the flat
subset that tests/golden_reference.py renders. The rules come from two pages only:
docs/catalogs.md ("The schema keywords", "How check_call reads a schema", "Rendering": the table
per shape) and docs/formats.md (the envelope of each format, strict mode, Anthropic strict's
limits). The renderer's code was not read to write this script: where the pages are silent or
ambiguous, the question and the reading taken are written beside the rule (search for
"Q:"), and any construct that no rule here covers stops the script instead of being guessed.

Python's json module does the sorting and the encoding (tests/golden_reference.py's `dump`), so
a bug in the crate's writer cannot leak into these files. Numbers are written as the catalog
spells them: every number literal of a catalog is checked to come back out of json.dumps with
the same spelling, and the one rule that computes a number (Gemini's integer bounds) only
computes integers.

Each catalog's goldens go to a directory laid out as tests/catalogs/reasonix/golden/:
`<format>/<tool>[.strict].json`, `<format>/tool_list[.strict].json`, and a `.error` file
holding the error code where the crate must refuse.

    python3 tests/framework_reference.py && git diff --exit-code tests/catalogs
"""
from fractions import Fraction
import json
import pathlib
import re
import string
import sys

from golden_reference import (ANTHROPIC_STRICT_OPTIONAL, ANTHROPIC_STRICT_TOOLS, FORMATS, dump,
                              hints)

HERE = pathlib.Path(__file__).parent
CATALOGS = HERE / "catalogs"

# catalog file -> its golden directory, both under tests/catalogs/.
FRAMEWORK_CATALOGS = [
    ("pydantic/catalog.json", "pydantic/golden"),
    ("zod/catalog.json", "zod/golden"),
    ("zod/catalog-direct.json", "zod/golden-direct"),
    ("mcp-servers/mcp-server-fetch.json", "mcp-servers/golden/mcp-server-fetch"),
    ("mcp-servers/mcp-server-git.json", "mcp-servers/golden/mcp-server-git"),
    ("mcp-servers/mcp-server-time.json", "mcp-servers/golden/mcp-server-time"),
    ("mcp-servers/server-everything.json", "mcp-servers/golden/server-everything"),
    ("mcp-servers/server-filesystem.json", "mcp-servers/golden/server-filesystem"),
    ("mcp-servers/server-memory.json", "mcp-servers/golden/server-memory"),
    ("mcp-servers/github-mcp-server.json", "mcp-servers/golden/github-mcp-server"),
    ("fastmcp/tools.json", "fastmcp/golden"),
] + [(f"mcp-servers-2026-12/{name}.json", f"mcp-servers-2026-12/golden/{name}") for name in [
    "brave-search-mcp-server", "chrome-devtools-mcp", "context7-mcp", "notion-mcp-server",
    "server-sequential-thinking",
]]


# Other readings of the questions marked "Q:" below, for whoever settles them:
# `--reading NAME` (repeatable) writes the goldens under that reading instead. The committed
# goldens use none of them. The last one is not a reading of the docs but what the crate does
# where the docs say otherwise, so that its other answers can be compared.
READINGS = {
    "title-dropped-everywhere":
        "the strict shapes and Gemini drop `title` and `$comment`, as the not-strict row does",
    "optional-const-as-enum":
        "under OpenAI strict, an optional property's `const` becomes an `enum` of it and null",
    "anthropic-strict-drops-unique-and-discriminator":
        "Anthropic strict also drops `uniqueItems` and `discriminator` (as its SDK does)",
    "gemini-drops-what-its-schema-lacks":
        "Gemini also drops `discriminator` and a number's exclusive bounds (no Schema field)",
    "gemini-drops-default-beside-ref":
        "Gemini inlines a `$ref` with a `default` beside it, dropping the `default`",
}
# The first four were settled in docs/catalogs.md's rendering table (the strict shapes and Gemini
# drop titles; an optional const; what Anthropic strict and Gemini drop), so they are the
# reading now; the fifth was settled otherwise (a `$ref` beside annotations in Gemini: see
# gemini_schema).
ALT = {"title-dropped-everywhere", "optional-const-as-enum",
       "anthropic-strict-drops-unique-and-discriminator", "gemini-drops-what-its-schema-lacks"}


class Unsupported(Exception):
    """The tool cannot be declared in this shape: the answer is error `unsupported`."""


class NotCovered(Exception):
    """A construct no rule of this script covers: the script stops rather than guess."""


# --- The schema keywords (catalogs.md, "The schema keywords") --------------------------------

# Keywords whose value is one schema, a list of schemas, or a map of names to schemas. Every
# other keyword's value is data (default, enum, const, examples, discriminator, required, ...)
# and is never walked: a property called "title" is a name, not the keyword.
ONE_SCHEMA = {"additionalProperties", "propertyNames", "additionalItems"}  # and `items`, a schema
LIST_OF_SCHEMAS = {"anyOf", "oneOf", "allOf", "prefixItems"}  # and `items`, a draft-07 list
MAP_OF_SCHEMAS = {"properties", "$defs", "definitions"}

KEYWORDS = {
    # annotations
    "title", "description", "$comment", "examples", "deprecated", "readOnly", "writeOnly",
    "default", "$schema",
    # types
    "type", "enum", "const", "nullable",
    # combinations
    "anyOf", "oneOf", "allOf", "discriminator",
    # references
    "$ref", "$defs", "definitions",
    # objects
    "properties", "required", "additionalProperties", "propertyNames", "minProperties",
    "maxProperties",
    # arrays
    "items", "prefixItems", "additionalItems", "minItems", "maxItems", "uniqueItems",
    # strings
    "minLength", "maxLength", "pattern", "format",
    # numbers
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
    # catalogs.md's annotations "on strings": pydantic's `Json[...]`
    "contentEncoding", "contentMediaType", "contentSchema",
}

# catalogs.md: `contentEncoding`, `contentMediaType` and `contentSchema` are "never asserted,
# kept by `mcp` alone".
CONTENT = {"contentEncoding", "contentMediaType", "contentSchema"}


def is_extension(key):
    """catalogs.md: "A keyword that begins with `x-` is an extension ...: it is read past and
    written in no shape". Q: in no shape, `mcp` and an `outputSchema` included? Reading: yes."""
    return key.startswith("x-")

# The keywords that say what type a node is. Q: what is "a node with no type", which both
# strict shapes answer `unsupported`? Reading: a node that constrains the type of its value in
# no way: none of `type`, `$ref`, `anyOf`, `oneOf`, `allOf`, `enum`, `const` (a `$ref` or a
# union has no `type` keyword but is typed by what it names). No framework catalog has one.
TYPING = {"type", "$ref", "anyOf", "oneOf", "allOf", "enum", "const"}


def check_keywords(schema, where):
    """Every keyword in the schema is one the docs list; anything else stops the script."""
    if isinstance(schema, bool):
        return
    for key, value in schema.items():
        if is_extension(key):
            continue
        if key not in KEYWORDS:
            raise NotCovered(f"{where}: keyword {key!r} is not in the docs' keyword table")
        for sub_where, sub in subschemas(key, value, where):
            check_keywords(sub, sub_where)


def subschemas(key, value, where=""):
    """The schemas held by one keyword's value, each with its pointer."""
    if key in MAP_OF_SCHEMAS:
        return [(f"{where}/{key}/{name}", sub) for name, sub in value.items()]
    if key in LIST_OF_SCHEMAS or (key == "items" and isinstance(value, list)):
        return [(f"{where}/{key}/{i}", sub) for i, sub in enumerate(value)]
    if key in ONE_SCHEMA or key == "items" or key == "contentSchema":
        # additionalProperties/additionalItems/items may be a boolean schema.
        return [(f"{where}/{key}", value)]
    return []


def map_subschemas(key, value, f):
    """The keyword's value with f applied to each schema it holds."""
    if key in MAP_OF_SCHEMAS:
        return {name: f(sub) for name, sub in value.items()}
    if key in LIST_OF_SCHEMAS or (key == "items" and isinstance(value, list)):
        return [f(sub) for sub in value]
    if key in ONE_SCHEMA or key == "items" or key == "contentSchema":
        return f(value)
    return value


def undeclared_required(node):
    """Whether `required` names a member that `properties` does not declare."""
    return any(name not in node.get("properties", {}) for name in node.get("required", []))


# catalogs.md: "a `type` list in one order".
TYPE_ORDER = ["object", "array", "string", "integer", "number", "boolean", "null"]


def sort_required(node):
    """`required` sorted, and a `type` list in its one order."""
    if "required" in node:
        node["required"] = sorted(node["required"])
    if isinstance(node.get("type"), list):
        node["type"] = sorted(node["type"], key=TYPE_ORDER.index)
    return node


def is_tuple(node):
    return "prefixItems" in node or isinstance(node.get("items"), list)


def is_map(node):
    # "a map (`additionalProperties` other than false)": a schema or true.
    return "additionalProperties" in node and node["additionalProperties"] is not False


def has_no_type(node):
    return not (set(node) & TYPING)


def root_object(schema):
    """The root as every shape but Gemini writes it: an object, with `properties` even `{}`.

    catalogs.md: "A root without `type`, or `{}`, is an object with no declared properties" and
    "A root without properties is written {"properties":{},"type":"object"} in every shape
    except gemini"."""
    out = dict(schema)
    out.setdefault("type", "object")
    out.setdefault("properties", {})
    if out["type"] != "object":
        raise NotCovered("a root that is not an object is refused by the reader")
    return out


# --- References and recursion ------------------------------------------------------------------

def definitions_of(root):
    """The root's `$defs` or `definitions` (catalogs.md: at a root only, never both)."""
    return root.get("$defs", root.get("definitions", {}))


def resolve(root, ref):
    if ref == "#":
        return root
    for prefix in ("#/$defs/", "#/definitions/"):
        if ref.startswith(prefix):
            return root[prefix[2:-1]][ref[len(prefix):]]
    raise NotCovered(f"$ref {ref!r}")


def refs_in(schema):
    found = []
    if isinstance(schema, bool):
        return found
    for key, value in schema.items():
        if key == "$ref":
            found.append(value)
        elif key not in ("$defs", "definitions"):
            for _, sub in subschemas(key, value):
                found.extend(refs_in(sub))
    return found


def recursive(root):
    """Whether a reference reachable from the root comes back to itself.

    Q: "recursion" is not defined further. Reading: a cycle of `$ref`s (through any keyword)
    that the root's own schema reaches; an unused recursive definition would not count (no
    catalog has one)."""
    def reaches(ref, path):
        if ref in path:
            return True
        target = resolve(root, ref)
        body = {k: v for k, v in target.items() if k not in ("$defs", "definitions")} \
            if ref == "#" else target
        return any(reaches(r, path | {ref}) for r in refs_in(body))
    return any(reaches(r, frozenset()) for r in refs_in(root))


# --- What a provider's shape is given: catalogs.md, "The schema keywords" ---------------------

def fits(value, node, root):
    """Whether `value` is valid against `node`, for the keywords a default in the test catalogs
    sits beside; any other keyword stops the script rather than being guessed."""
    if isinstance(node, bool):
        return node
    for key, want in node.items():
        if key in ("title", "description", "default", "examples", "$comment", "$defs",
                   "definitions", "deprecated", "readOnly", "writeOnly") or is_extension(key):
            continue
        if key == "type":
            types = want if isinstance(want, list) else [want]
            if not any(of_type(value, t) for t in types):
                return False
        elif key == "enum":
            if not any(same_value(value, v) for v in want):
                return False
        elif key == "const":
            if not same_value(value, want):
                return False
        elif key == "$ref":
            if not fits(value, resolve(root, want), root):
                return False
        elif key == "anyOf":
            if not any(fits(value, branch, root) for branch in want):
                return False
        elif key == "oneOf":
            if sum(fits(value, branch, root) for branch in want) != 1:
                return False
        elif key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            if of_type(value, "number") and not {
                "minimum": value >= want, "maximum": value <= want,
                "exclusiveMinimum": value > want, "exclusiveMaximum": value < want}[key]:
                return False
        elif key == "multipleOf":
            # Exact, as decimals: the numbers as the catalog spells them.
            if of_type(value, "number") and Fraction(repr(value)) % Fraction(repr(want)):
                return False
        elif key == "discriminator":
            continue  # OpenAPI's annotation: it names the branch, the branches decide
        elif key == "uniqueItems":
            if want and isinstance(value, list) and any(
                    same_value(a, b) for i, a in enumerate(value) for b in value[:i]):
                return False
        elif key == "prefixItems":
            if isinstance(value, list) and not all(
                    fits(v, sub, root) for v, sub in zip(value, want)):
                return False
        elif key in ("minProperties", "maxProperties"):
            if isinstance(value, dict) and not (len(value) >= want if key == "minProperties"
                                                else len(value) <= want):
                return False
        elif key == "propertyNames":
            if isinstance(value, dict) and not all(fits(k, want, root) for k in value):
                return False
        elif key == "additionalProperties":
            declared = node.get("properties", {})
            if isinstance(value, dict) and not all(
                    fits(v, want, root) for k, v in value.items() if k not in declared):
                return False
        elif key in ("minLength", "maxLength"):
            # Lengths count code points (Python's len of a str).
            if isinstance(value, str) and not (len(value) >= want if key == "minLength"
                                               else len(value) <= want):
                return False
        elif key in ("minItems", "maxItems"):
            if isinstance(value, list) and not (len(value) >= want if key == "minItems"
                                                else len(value) <= want):
                return False
        elif key == "items" and isinstance(want, (dict, bool)):
            if isinstance(value, list) and not all(fits(v, want, root) for v in value):
                return False
        elif key == "format":
            # catalogs.md: a default is judged "with `format` read as JSON Schema's default
            # reads it, an annotation".
            continue
        elif key == "pattern":
            # Python's `re` reads ECMA-262's patterns alike within this subset only.
            if not set(want) <= set("^$[]-+*?{},.|()\\dws") | set(string.ascii_letters + string.digits + "_/:@ "):
                raise NotCovered(f"a default beside the pattern {want!r}")
            if isinstance(value, str) and not re.search(want, value):
                return False
        elif key == "properties":
            if isinstance(value, dict) and not all(
                    fits(v, want[k], root) for k, v in value.items() if k in want):
                return False
        elif key == "required":
            if isinstance(value, dict) and not all(k in value for k in want):
                return False
        else:
            raise NotCovered(f"a default beside {key!r}")
    return True


def of_type(value, name):
    """JSON Schema's types; an integer is a number with no fraction (1.0 too)."""
    if name == "null":
        return value is None
    if name == "boolean":
        return isinstance(value, bool)
    if isinstance(value, bool):
        return False
    if name == "integer":
        return isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    return isinstance(value, {"number": (int, float), "string": str, "array": list,
                              "object": dict}[name])


def same_value(a, b):
    """JSON equality: 1 and 1.0 are one number, true is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    return a == b


def provider_view(node, root):
    """A schema as the providers' shapes are given it: extensions and the content keywords left
    out, and a `default` that does not fit its node dropped ("dropped from the providers'
    shapes, where a model would read it as a value to send"). Q: an example that does not fit:
    is the one value dropped, or `examples` whole? No test catalog has one, so it stops the
    script."""
    if isinstance(node, bool):
        return node
    out = {}
    for key, value in node.items():
        if is_extension(key) or key in CONTENT:
            continue
        if key == "default" and not fits(value, node, root):
            continue
        if key == "examples" and not all(fits(v, node, root) for v in value):
            raise NotCovered("an example that does not fit its node")
        out[key] = map_subschemas(key, value, lambda sub: provider_view(sub, root))
    return out


def without_extensions(node):
    """A schema as `mcp` writes it: every keyword as given but the `x-` extensions."""
    if isinstance(node, bool):
        return node
    return {k: map_subschemas(k, v, without_extensions) for k, v in node.items()
            if not is_extension(k)}


# --- mcp: "nothing: every keyword as given" ----------------------------------------------------

def mcp_schema(node):
    """Canonical only: keys sorted (by dump), `required` sorted, every keyword kept.

    Q: formats.md says P is written with "`$schema` left out" in every shape "unless a rule of
    catalogs.md changes it"; catalogs.md's mcp row says "nothing: every keyword as given".
    Reading: the mcp row is that rule, so mcp keeps `$schema` (it is a keyword of the table)."""
    if isinstance(node, bool):
        return node
    return sort_required({k: map_subschemas(k, v, mcp_schema) for k, v in node.items()})


# --- openai, openai_responses, anthropic, not strict -------------------------------------------

def plain_schema(node):
    """`title`, `$comment` and `$schema` dropped; `nullable: true` becomes `null` in `type`."""
    if isinstance(node, bool):
        return node
    out = {}
    for key, value in node.items():
        if key in ("title", "$comment", "$schema"):
            continue
        if key == "nullable":
            # No framework catalog writes `nullable` (zod and pydantic write a null branch).
            raise NotCovered("nullable")
        # "draft-07's `items` list and `additionalItems` are written as 2020-12's
        # `prefixItems` and `items`" in every shape but mcp.
        if key == "items" and isinstance(value, list):
            key = "prefixItems"
        elif key == "additionalItems":
            key = "items"
        out[key] = map_subschemas(key, value, plain_schema)
    return sort_required(out)


# --- openai, openai_responses, strict ----------------------------------------------------------

# Q: the row says "formats OpenAI does not list (`uri`, and any unknown name) are dropped" and
# the citation names "the nine formats" of OpenAI's "Supported schemas", without listing them.
# Reading: OpenAI's nine, which are the ten the checker knows (checking-calls.md) minus `uri`.
OPENAI_FORMATS = {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6",
                  "uuid"}

OPENAI_STRICT_DROPPED = {"default", "minLength", "maxLength", "examples", "deprecated",
                         "readOnly", "writeOnly", "discriminator", "uniqueItems", "propertyNames",
                         "minProperties", "maxProperties",
                         # formats.md: "`$schema` left out" in every shape but mcp.
                         "$schema"}

# Q: the row "openai, openai_responses, anthropic (not strict)" drops `title`, `$comment` and
# `$schema`; the strict rows do not name them. Do the strict shapes drop them too? Reading:
# each row of the table is the whole of what changes for that shape, and the first row says
# "(not strict)"; so the strict shapes keep `title` (and `$comment`), and drop `$schema` only
# because formats.md leaves it out of P in every shape but mcp. This is the reading with the
# most answers hanging on it: pydantic and the Python MCP servers put a `title` on every node.


def openai_nullable(node, where):
    """An optional property made nullable, by the row's three cases."""
    if set(node) == {"$ref"}:
        # "`anyOf` of a `$ref` and `null`".
        return {"anyOf": [node, {"type": "null"}]}
    if "$ref" in node:
        # Q: where would a `description` beside the `$ref` go? No catalog has one (pydantic's
        # only neighbour of a `$ref` is `default`, which strict drops).
        raise NotCovered(f"{where}: an optional $ref with keywords beside it")
    if "anyOf" in node:
        # "a `{"type":"null"}` branch beside a union". Q: when the union already has one
        # (pydantic's `Optional[X]`, zod's `.nullable()`), is a second added? Reading: no, the
        # property already is nullable.
        if not any(branch.get("type") == "null" for branch in node["anyOf"]):
            node["anyOf"] = node["anyOf"] + [{"type": "null"}]
        return node
    if "type" in node:
        # "`null` in its `type` and `enum`".
        ty = node["type"]
        if isinstance(ty, list):
            # Q: a type list (notion-mcp-server's `["object", "null"]`)? Reading: `null` joins
            # the list unless it is there.
            if "null" not in ty:
                node["type"] = ty + ["null"]
        elif ty != "null":
            node["type"] = [ty, "null"]
        if "enum" in node and None not in node["enum"]:
            node["enum"] = node["enum"] + [None]
        # Q: an optional property with `const` (pydantic's `kind: Literal["room"] = "room"`,
        # zod's `z.literal(2).default(2)` in the SDK's catalog): the row names `type` and `enum`
        # only, and `const` is not dropped, so the declaration keeps `"const":"room"` beside
        # `"type":["string","null"]`, which no `null` meets, although "How check_call reads a
        # schema" says the declaration says an optional property may be null. Reading: the
        # row, literally (`const` unchanged); listed as an ambiguity in the report.
        if "const" in node and "optional-const-as-enum" in ALT:
            if "enum" in node:
                raise NotCovered(f"{where}: const beside enum")
            node["enum"] = [node.pop("const"), None]
        return node
    raise NotCovered(f"{where}: an optional property with neither type, union nor $ref")


def openai_strict_schema(node, optional=False, where=""):
    if isinstance(node, bool):
        raise Unsupported(f"{where}: the schema {json.dumps(node)}")
    if "allOf" in node:
        raise Unsupported(f"{where}: allOf")
    if is_tuple(node):
        raise Unsupported(f"{where}: a tuple")
    if is_map(node):
        raise Unsupported(f"{where}: a map")
    if has_no_type(node):
        raise Unsupported(f"{where}: a node with no type")
    if undeclared_required(node):
        raise Unsupported(f"{where}: a required name that properties does not declare")
    out = {}
    for key, value in node.items():
        if key in OPENAI_STRICT_DROPPED:
            continue
        if key in ("title", "$comment") and "title-dropped-everywhere" in ALT:
            continue
        if key == "format" and value not in OPENAI_FORMATS:
            continue
        if key == "nullable":
            raise NotCovered("nullable")
        if key == "additionalProperties":
            continue  # false (a map was refused above); every object gets it below
        if key == "properties":
            required = node.get("required", [])
            out[key] = {name: openai_strict_schema(sub, name not in required,
                                                   f"{where}/properties/{name}")
                        for name, sub in value.items()}
            continue
        if key == "oneOf":
            # "`oneOf` is written as `anyOf`".
            if "anyOf" in node:
                raise NotCovered(f"{where}: oneOf beside anyOf")
            key = "anyOf"
        out[key] = map_subschemas(key, value, lambda sub: openai_strict_schema(sub, False, where))
    if node.get("type") == "object":
        # "every object gets "additionalProperties":false and lists all its properties in
        # `required`". Q: an object without `properties` (free-form)? Reading: it gets
        # `"properties":{}` and `"required":[]` as the root does; no framework catalog has one
        # outside a map, which is unsupported anyway.
        out.setdefault("properties", {})
        out["additionalProperties"] = False
        out["required"] = sorted(out["properties"])
    elif "properties" in node:
        raise NotCovered(f"{where}: properties on a node whose type is not object")
    out = sort_required(out)
    if optional:
        out = openai_nullable(out, where)
    return out


def openai_strict_root(schema):
    if any(k in schema for k in ("anyOf", "oneOf")):
        raise Unsupported("a union at the root")
    return openai_strict_schema(root_object(schema))


# --- anthropic, strict -------------------------------------------------------------------------

# Q: "unlisted formats" are dropped, but the page does not list Anthropic's formats. Reading:
# the list of Anthropic's SDK, which the page cites for what it strips
# (lib/_parse/_transform.py, SupportedStringFormats): the checker's ten, `uri` included.
ANTHROPIC_FORMATS = {"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4",
                     "ipv6", "uuid"}

# "the bounds, `multipleOf`, `minLength`, `maxLength`, `pattern`, `maxItems`, ..., `default`,
# `examples`" (a `minItems` above 1 and the formats are handled below).
ANTHROPIC_STRICT_DROPPED = {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                            "multipleOf", "minLength", "maxLength", "pattern", "maxItems",
                            "default", "examples", "$schema"}

# Q: keywords Anthropic's SDK strips but the row does not name (`discriminator`, `uniqueItems`,
# `const`, `title`, ...): reading, as for every row, the row is the whole of what changes, so
# they are kept.


def anthropic_strict_schema(node, where=""):
    if isinstance(node, bool):
        # Not in the row's list; only a tuple's `items: false` is a boolean schema in these
        # catalogs, and a tuple is unsupported before its elements are read.
        raise NotCovered(f"{where}: a boolean schema under Anthropic strict")
    if is_map(node):
        raise Unsupported(f"{where}: a map")
    if is_tuple(node):
        raise Unsupported(f"{where}: a tuple")
    if any(isinstance(v, (list, dict)) for v in node.get("enum", [])):
        raise Unsupported(f"{where}: an enum of arrays or objects")
    if has_no_type(node):
        raise Unsupported(f"{where}: a node with no type")
    if "allOf" in node:
        # The Anthropic row does not name allOf; no catalog has one.
        raise NotCovered(f"{where}: allOf under Anthropic strict")
    out = {}
    for key, value in node.items():
        if key in ANTHROPIC_STRICT_DROPPED:
            continue
        if key in ("title", "$comment") and "title-dropped-everywhere" in ALT:
            continue
        if key in ("uniqueItems", "discriminator") and \
                "anthropic-strict-drops-unique-and-discriminator" in ALT:
            continue
        if key == "minItems" and value > 1:
            continue
        if key == "format" and value not in ANTHROPIC_FORMATS:
            continue
        if key == "nullable":
            raise NotCovered("nullable")
        if key == "additionalProperties":
            continue  # false (a map was refused above); every object gets it below
        if key == "oneOf":
            if "anyOf" in node:
                raise NotCovered(f"{where}: oneOf beside anyOf")
            key = "anyOf"
        out[key] = map_subschemas(key, value, lambda sub: anthropic_strict_schema(sub, where))
    if undeclared_required(node):
        raise Unsupported(f"{where}: a required name that properties does not declare")
    if node.get("type") == "object":
        # "every object gets "additionalProperties":false; `required` stays as given".
        out.setdefault("properties", {})
        out["additionalProperties"] = False
    return sort_required(out)


def anthropic_strict_root(schema):
    if recursive(schema):
        raise Unsupported("recursion")
    return anthropic_strict_schema(root_object(schema))


def optional_properties(schema):
    """Anthropic strict's count: optional properties "counted at every depth".

    Q: how are `$defs`, unions and references counted? Reading: every object node is counted
    once where it is written: inside `properties`, `items`, union branches and `$defs`
    entries; a `$ref` adds nothing. (No answered list or tool of these catalogs comes near 24
    by any count: the lists of pydantic and zod are unsupported for other reasons, the MCP
    servers' have at most 15.)"""
    if isinstance(schema, bool):
        return 0
    count = 0
    required = schema.get("required", [])
    count += sum(1 for name in schema.get("properties", {}) if name not in required)
    for key, value in schema.items():
        for _, sub in subschemas(key, value):
            count += optional_properties(sub)
    return count


# --- gemini ------------------------------------------------------------------------------------

# "every format but `date-time` [is] dropped".
GEMINI_FORMATS = {"date-time"}

# "`additionalProperties`, a tuple's element schemas, `multipleOf`, `uniqueItems`,
# `propertyNames` and every format but `date-time` are dropped", and formats.md's `$schema`.
# Q: which keywords are "a tuple's element schemas"? Reading: `prefixItems`, a draft-07 `items`
# list, and what says what follows them (`items` beside `prefixItems`, `additionalItems`): the
# tuple keeps `type`, `minItems`, `maxItems` and its annotations.
# Q: references are inlined; are `$defs`/`definitions` then left out? Reading: yes, nothing
# refers to them any more.
GEMINI_DROPPED = {"additionalProperties", "multipleOf", "uniqueItems", "propertyNames", "$schema",
                  "prefixItems", "additionalItems", "$defs", "definitions"}

# Q: keywords Gemini's Schema object has no field for, and that the row neither drops nor
# rewrites: a `number`'s `exclusiveMinimum`/`exclusiveMaximum` (the row rewrites an integer's
# only), `discriminator`, `$comment`, `examples`, ... The Rendering section's preamble says a
# keyword a shape cannot express is rewritten or dropped; the row lists what is. Reading: the
# row is the whole of what changes, so they are kept (zod writes `exclusiveMinimum: 0` on
# numbers; pydantic writes `discriminator`, whose mapping names `#/$defs/...` that inlining
# removed). Listed as an ambiguity in the report.


def gemini_schema(node, root, where):
    if isinstance(node, bool):
        raise NotCovered(f"{where}: a boolean schema under Gemini")
    if "$ref" in node:
        if "gemini-drops-default-beside-ref" in ALT and set(node) == {"$ref", "default"}:
            node = {"$ref": node["$ref"]}
        # "references are inlined: the target written in place, with the `description` and
        # `default` beside the `$ref` taking the place of the target's own"; annotations Gemini
        # drops anyway may sit there too; "`unsupported`: ... a `$ref` with any other keyword
        # beside it".
        beside = set(node) - {"$ref"}
        if beside - {"description", "default", "title", "$comment", "examples", "deprecated",
                     "readOnly", "writeOnly"}:
            raise Unsupported(f"{where}: a $ref with keywords beside it")
        out = gemini_schema(resolve(root, node["$ref"]), root, where + "->" + node["$ref"])
        for key in ("description", "default"):
            if key in node:
                out[key] = node[key]
        return out
    if "allOf" in node:
        raise Unsupported(f"{where}: allOf")
    if isinstance(node.get("type"), list):
        # "a type list becomes `anyOf`" and "a `null` type or branch becomes `nullable: true`,
        # and a union left with one branch is that branch": notion-mcp-server's
        # `["object", "null"]` is an object, nullable; server-sequential-thinking's
        # `["boolean", "string"]` is an `anyOf` of the two, in the list's one order. Q: where
        # would keywords that apply to one of the types go? No catalog has one.
        types = sorted((t for t in node["type"] if t != "null"), key=TYPE_ORDER.index)
        if len(types) == 1:
            out = gemini_schema(dict(node, type=types[0]), root, where)
        elif set(node) - {"type", "description", "title", "default"}:
            raise NotCovered(f"{where}: a type list beside {sorted(node)}")
        else:
            rest = {k: v for k, v in node.items() if k != "type"}
            out = gemini_schema(dict(rest, anyOf=[{"type": t} for t in types]), root, where)
        if "null" in node["type"]:
            out["nullable"] = True
        return out
    if node.get("type") == "null":
        raise NotCovered(f"{where}: a null type outside a union")
    if "nullable" in node:
        raise NotCovered("nullable")
    out = {}
    for key, value in node.items():
        if key in GEMINI_DROPPED:
            continue
        if key in ("title", "$comment") and "title-dropped-everywhere" in ALT:
            continue
        if "gemini-drops-what-its-schema-lacks" in ALT and (
                key == "discriminator" or (key in ("exclusiveMinimum", "exclusiveMaximum")
                                           and node.get("type") == "number")):
            continue
        if key == "items" and is_tuple(node):
            continue  # a tuple's element schemas (2020-12's `items: false` after prefixItems)
        if key == "format" and value not in GEMINI_FORMATS:
            continue
        if key in ("anyOf", "oneOf"):
            continue  # below
        if key == "properties":
            # "`unsupported`: ... a property name other than a letter or underscore followed by
            # letters, digits and underscores". Q: ASCII letters? Reading: yes.
            for name in value:
                if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                    raise Unsupported(f"{where}: property name {name!r}")
        if key == "required":
            # "a `required` name that `properties` does not declare" is dropped. Q: and an
            # object without `properties`? Reading: none is declared, so none is left, and the
            # empty list is not written (what a nested free-form object gets).
            if "properties" in node:
                out[key] = [name for name in value if name in node["properties"]]
            continue
        if key == "const":
            # "`const` becomes a one-value `enum`".
            if "enum" in node:
                raise NotCovered(f"{where}: const beside enum")
            out["enum"] = [value]
            continue
        if key in ("exclusiveMinimum", "exclusiveMaximum") and node.get("type") == "integer":
            # "an integer's exclusive bound becomes the inclusive one next to it".
            inclusive = "minimum" if key == "exclusiveMinimum" else "maximum"
            if inclusive in node or not isinstance(value, int) or isinstance(value, bool):
                raise NotCovered(f"{where}: {key} {value!r} beside {inclusive}, or not an integer")
            out[inclusive] = value + 1 if key == "exclusiveMinimum" else value - 1
            continue
        out[key] = map_subschemas(key, value, lambda sub: gemini_schema(sub, root, where))
    if "enum" in out:
        # "an `enum` or `const` of strings is written on a string, or on a node without a type,
        # which is then typed string, a `null` among them as `nullable`; any other is dropped".
        values = out.pop("enum")
        strings = [v for v in values if isinstance(v, str)]
        if strings and all(isinstance(v, str) or v is None for v in values):
            if node.get("type") == "string":
                out["enum"] = strings
            elif "type" not in node and "anyOf" not in node and "oneOf" not in node:
                out["type"] = "string"
                out["enum"] = strings
                if None in values:
                    out["nullable"] = True
    union = node.get("anyOf", node.get("oneOf"))
    if union is not None:
        if "anyOf" in node and "oneOf" in node:
            raise NotCovered(f"{where}: anyOf beside oneOf")
        # "`oneOf` becomes `anyOf`"; "a `null` type or branch becomes `nullable: true`, and a
        # union left with one branch is that branch".
        branches, nullable = [], False
        for i, branch in enumerate(union):
            if isinstance(branch, dict) and branch.get("type") == "null":
                if set(branch) != {"type"}:
                    raise NotCovered(f"{where}: a null branch with keywords beside its type")
                nullable = True
            else:
                branches.append(gemini_schema(branch, root, f"{where}/anyOf/{i}"))
        if len(branches) == 1:
            # Q: the one branch left replaces the union; the union's own keywords (pydantic's
            # `title` and `default: null`) stay beside what the branch says. Reading: merged
            # into one node; a keyword on both sides would be a conflict the docs do not
            # settle, and no catalog has one.
            for key, value in branches[0].items():
                if key in out:
                    raise NotCovered(f"{where}: {key} both beside the union and in its branch")
                out[key] = value
        elif branches:
            out["anyOf"] = branches
        else:
            raise NotCovered(f"{where}: a union of null only")
        if nullable:
            out["nullable"] = True
    return sort_required(out)


def gemini_parameters(schema):
    """The `parameters` of a Gemini declaration, or None when the tool has no properties."""
    if any(k in schema for k in ("anyOf", "oneOf")):
        raise Unsupported("a union at the root")
    if recursive(schema):
        raise Unsupported("recursion")
    # "a tool with no properties has no `parameters` key".
    if not schema.get("properties"):
        return None
    root = dict(schema)
    root.setdefault("type", "object")
    return gemini_schema(root, schema, "")

# --- gemini_json_schema ------------------------------------------------------------------------

# catalogs.md's gemini_json_schema row: "kept as given: `$defs`, `$ref`, `type`, `format` (on a
# node that may be a string), `title`, `description`, `enum` of strings and numbers, `items`,
# `prefixItems`, `minItems`, `maxItems`, `minimum`, `maximum`, `anyOf`, `oneOf`, `properties`,
# `additionalProperties`, `required`; every other keyword is dropped".
GEMINI_JSON_KEPT = {"$defs", "definitions", "$ref", "type", "format", "title", "description",
                    "enum", "items", "prefixItems", "minItems", "maxItems", "minimum", "maximum",
                    "anyOf", "oneOf", "properties", "additionalProperties", "required"}


def gemini_json_values(values):
    """An `enum`'s values, kept only when each is a string or a number."""
    if all(isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in values):
        return list(values)
    return None


def gemini_json_schema(node, where):
    if isinstance(node, bool):
        return node
    if "nullable" in node:
        raise NotCovered("nullable")
    if "allOf" in node:
        # "`allOf` is unsupported".
        raise Unsupported(f"{where}: allOf")
    if "enum" in node and "const" in node:
        raise NotCovered(f"{where}: enum beside const")
    out = {}
    for key, value in node.items():
        # "draft-07's `items` list and `additionalItems` are written as 2020-12's
        # `prefixItems` and `items`" in every shape but mcp.
        if key == "items" and isinstance(value, list):
            key = "prefixItems"
        elif key == "additionalItems":
            key = "items"
        if key == "const":
            # "a `const` of a string or a number is a one-value `enum`; any other is dropped".
            values = gemini_json_values([value])
            if values is not None:
                out["enum"] = values
            continue
        if key == "enum":
            values = gemini_json_values(value)
            if values is not None:
                out["enum"] = values
            continue
        if key == "format":
            ty = node.get("type")
            types = ty if isinstance(ty, list) else [ty]
            if ty is not None and "string" not in types:
                continue
        if key not in GEMINI_JSON_KEPT:
            continue
        out[key] = map_subschemas(key, value, lambda sub: gemini_json_schema(sub, where))
    # "an integer's `exclusiveMinimum`/`exclusiveMaximum` becomes the inclusive `minimum`/
    # `maximum` next to it, unless a tighter inclusive bound is given" (as the gemini row).
    if node.get("type") == "integer":
        for exclusive, inclusive, step, tighter in (
                ("exclusiveMinimum", "minimum", 1, lambda given, bound: given > bound),
                ("exclusiveMaximum", "maximum", -1, lambda given, bound: given < bound)):
            bound = node.get(exclusive)
            if isinstance(bound, int) and not isinstance(bound, bool):
                if inclusive not in node or not tighter(node[inclusive], bound):
                    out[inclusive] = bound + step
    # "a `$ref` with other keywords beside it (but `$` ones) is written as the one branch of an
    # `anyOf`, beside them; beside a union it is `unsupported`".
    if "$ref" in out and any(not k.startswith("$") for k in out):
        if "anyOf" in out or "oneOf" in out:
            raise Unsupported(f"{where}: a $ref beside a union")
        out["anyOf"] = [{"$ref": out.pop("$ref")}]
    return sort_required(out)


def required_cycle(root):
    """Whether a definition (or the root) reaches itself through references without passing a
    property that is not required or a map's members: "a cycle of references that passes only
    through required properties is `unsupported`"."""
    def edges(schema):
        found = []
        if isinstance(schema, bool):
            return found
        required = schema.get("required", [])
        for key, value in schema.items():
            if key == "$ref":
                found.append(value)
            elif key in ("$defs", "definitions", "additionalProperties"):
                continue
            elif key == "properties":
                for name, sub in value.items():
                    if name in required:
                        found.extend(edges(sub))
            else:
                for _, sub in subschemas(key, value):
                    found.extend(edges(sub))
        return found

    def reaches(start, ref, seen):
        if ref == start:
            return True
        if ref in seen:
            return False
        seen.add(ref)
        return any(reaches(start, r, seen) for r in edges(resolve(root, ref)))

    starts = ["#"] + [prefix + name for prefix in ("#/$defs/", "#/definitions/")
                      for name in root.get(prefix[2:-1], {})]
    return any(any(reaches(start, r, set()) for r in edges(resolve(root, start)))
               for start in starts)


def gemini_json_parameters(schema):
    """The `parametersJsonSchema` of a declaration, or None when the tool takes no arguments."""
    if any(k in schema for k in ("anyOf", "oneOf")):
        raise Unsupported("a union at the root")
    if required_cycle(schema):
        raise Unsupported("a cycle through required properties")
    # "a tool that takes no arguments (no properties, and no `additionalProperties` other than
    # false) has no `parametersJsonSchema`".
    if not schema.get("properties") and not is_map(schema):
        return None
    return gemini_json_schema(root_object(schema), "")


# --- The envelopes (formats.md, "Formats" and "Strict mode") ------------------------------------

def parameters(schema, fmt, strict):
    if fmt in ("openai", "openai_responses"):
        return openai_strict_root(schema) if strict else plain_schema(root_object(schema))
    if fmt == "anthropic":
        return anthropic_strict_root(schema) if strict else plain_schema(root_object(schema))
    raise ValueError(fmt)


OPENAI_DESCRIPTION = 1024


def declaration(tool, fmt, strict):
    name, desc, schema = tool["name"], tool["description"], tool["inputSchema"]
    if fmt != "mcp":
        schema = provider_view(schema, schema)
    if fmt in ("openai", "openai_responses") and len(desc) > OPENAI_DESCRIPTION:
        # formats.md: "A tool whose description is longer than 1,024 characters is
        # `unsupported` in `openai` and `openai_responses`, strict or not". Q: characters are
        # code points? Reading: yes (Python's len).
        raise Unsupported("a description over 1,024 characters")
    if fmt == "openai":
        function = {"name": name, "description": desc, "parameters": parameters(schema, fmt, strict)}
        if strict:
            function["strict"] = True
        return {"type": "function", "function": function}
    if fmt == "openai_responses":
        return {"type": "function", "name": name, "description": desc, "strict": strict,
                "parameters": parameters(schema, fmt, strict)}
    if fmt == "anthropic":
        out = {"name": name, "description": desc, "input_schema": parameters(schema, fmt, strict)}
        if strict:
            out["strict"] = True
            # "a `tool_schema` for one tool over 24 [optional properties]" is unsupported.
            if optional_properties(schema) > ANTHROPIC_STRICT_OPTIONAL:
                raise Unsupported("more than 24 optional properties")
        return out
    if fmt == "gemini":
        out = {"name": name, "description": desc}
        params = gemini_parameters(schema)
        if params is not None:
            out["parameters"] = params
        return out
    if fmt == "gemini_json_schema":
        out = {"name": name, "description": desc}
        params = gemini_json_parameters(schema)
        if params is not None:
            out["parametersJsonSchema"] = params
        return out
    if fmt == "mcp":
        return mcp_declaration(tool)
    raise ValueError(fmt)


# catalogs.md: a tool may carry every field of MCP's Tool; "The `mcp` shape writes them all back,
# canonical (`icons`, `execution` and `_meta` as canonical JSON)". formats.md's envelope adds
# the four hints, written out with MCP's defaults.
MCP_TOOL_FIELDS = {"name", "title", "description", "inputSchema", "outputSchema", "annotations",
                   "icons", "execution", "_meta"}


def mcp_declaration(tool):
    out = {"name": tool["name"], "description": tool["description"],
           "inputSchema": mcp_schema(root_object(without_extensions(tool["inputSchema"])))}
    for key in ("title", "icons", "execution", "_meta"):
        if key in tool:
            out[key] = tool[key]
    if "outputSchema" in tool:
        # Q: is an outputSchema canonical as P is (`required` sorted)? Reading: yes, "Every
        # output is canonical: keys sorted ..., `required` sorted", and it is kept as given
        # otherwise, `$schema` and `title` included (the mcp row).
        out["outputSchema"] = mcp_schema(without_extensions(tool["outputSchema"]))
    # Q: annotations' `title` (pydantic's write_file has one): "writes them all back" and the
    # tool fields list "`annotations` (its `title` and four hints)". Reading: written back beside
    # the four hints (golden_reference's `hints` keeps every key the catalog gives).
    # catalogs.md: "a member MCP does not define there (Google's chrome-devtools-mcp writes a
    # `category`) is read and left out".
    out["annotations"] = {k: v for k, v in hints(tool).items() if k in MCP_ANNOTATIONS}
    return out


MCP_ANNOTATIONS = {"title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}


def answer(tools, fmt, strict):
    """The golden bytes of a request over `tools` (one tool, or the list), or an error code."""
    try:
        rendered = [declaration(t, fmt, strict) for t in tools]
    except Unsupported:
        return None, "unsupported"
    if fmt == "anthropic" and strict and len(tools) > 1:
        # formats.md: a list of more than 20 strict tools, or more than 24 optional properties
        # in all, is unsupported.
        if len(tools) > ANTHROPIC_STRICT_TOOLS or \
                sum(optional_properties(t["inputSchema"]) for t in tools) > ANTHROPIC_STRICT_OPTIONAL:
            return None, "unsupported"
    return rendered, None


# --- Reading a catalog, writing its goldens ----------------------------------------------------

def load_catalog(path):
    """The catalog, after checking that every number literal survives json.dumps unchanged."""
    literals = []

    def number(convert):
        def hook(text):
            literals.append(text)
            return convert(text)
        return hook

    text = path.read_text(encoding="utf-8")
    tools = json.loads(text, parse_int=number(int), parse_float=number(float))
    for literal in literals:
        value = float(literal) if any(c in literal for c in ".eE") else int(literal)
        assert json.dumps(value) == literal, f"{path}: {literal} would be spelled {json.dumps(value)}"
    for tool in tools:
        extra = set(tool) - MCP_TOOL_FIELDS
        if extra:
            raise NotCovered(f"{path}: tool {tool['name']}: fields {sorted(extra)}")
        check_keywords(tool["inputSchema"], f"{tool['name']}/inputSchema")
    return tools


def goldens(tools):
    """Every golden of a catalog: {(format, stem): (bytes or None, error code or None)}."""
    out = {}
    for fmt, has_strict in FORMATS.items():
        for strict in [False, True] if has_strict else [False]:
            suffix = ".strict" if strict else ""
            for tool in tools:
                rendered, code = answer([tool], fmt, strict)
                out[(fmt, tool["name"] + suffix)] = (rendered[0] if rendered else None, code)
            rendered, code = answer(tools, fmt, strict)
            out[(fmt, "tool_list" + suffix)] = (rendered, code)
    return out


def write_goldens(tools, root):
    for fmt in FORMATS:
        (root / fmt).mkdir(parents=True, exist_ok=True)
        for old in (root / fmt).iterdir():
            old.unlink()
    written = 0
    for (fmt, stem), (value, code) in goldens(tools).items():
        if code:
            (root / fmt / (stem + ".error")).write_text(code + "\n")
        else:
            (root / fmt / (stem + ".json")).write_bytes(dump(value))
        written += 1
    return written


def main():
    args = sys.argv[1:]
    while args:
        if args[0] != "--reading" or len(args) < 2 or args[1] not in READINGS:
            sys.exit("usage: framework_reference.py [--reading NAME]...\n" + "\n".join(
                f"  {name}: {why}" for name, why in READINGS.items()))
        ALT.add(args[1])
        args = args[2:]
    for catalog, golden in FRAMEWORK_CATALOGS:
        tools = load_catalog(CATALOGS / catalog)
        written = write_goldens(tools, CATALOGS / golden)
        errors = sum(1 for _ in (CATALOGS / golden).glob("*/*.error"))
        print(f"{catalog}: {len(tools)} tools, {written} goldens ({errors} unsupported) "
              f"in tests/catalogs/{golden}", file=sys.stderr)


if __name__ == "__main__":
    main()
