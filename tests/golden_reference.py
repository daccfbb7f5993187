#!/usr/bin/env python3
"""Writes the golden files from the specification alone, independently of the Rust code.

Two catalogs:

- the default one (tests/golden/): its tool tables are copied from the seed
  (shared/seeds/000_*.txt) below, and the script checks that src/catalog.json says the same;
- seed 003's 15-tool catalog, converted to the catalog format (Name -> name, Description ->
  description, Schema -> inputSchema, ReadOnly -> annotations.readOnlyHint) into
  tests/catalogs/reasonix/: full.json with every tool, and catalog.json without `ask`, whose
  description (1,100 characters) OpenAI's shapes cannot declare; the catalog once refused it.
  The goldens of catalog.json go to tests/catalogs/reasonix/golden/.
  The conversion runs when the seed is found beside the repository; the converted files are
  committed, so the goldens can be written again without it.

The shapes follow issue 3's and issue 10's rules for each format and for strict mode. Python's
json module does the sorting and the encoding, so a bug in the crate's writer cannot leak into
its own golden files. A request the crate must refuse gets a `.error` file holding the code.

    python3 tests/golden_reference.py && git diff --exit-code tests/golden tests/catalogs
"""
import glob
import json
import pathlib
import re

HERE = pathlib.Path(__file__).parent
ROOT = HERE.parent

DEFAULT_TOOLS = [
    ("read_file", "Lee el contenido de un archivo con numeración de líneas y soporte de rangos.",
     {"path": ("string", "Ruta relativa del archivo"),
      "start_line": ("integer", "Línea inicial inclusiva (1-indexada)"),
      "end_line": ("integer", "Línea final inclusiva (1-indexada)")},
     ["path"],
     dict(readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False)),
    ("write_file", "Crea o sobreescribe un archivo en el espacio de trabajo.",
     {"path": ("string", "Ruta relativa del archivo a crear o sobreescribir"),
      "content": ("string", "Contenido completo a escribir en el archivo")},
     ["content", "path"],
     dict(readOnlyHint=False, destructiveHint=True, idempotentHint=True, openWorldHint=False)),
    ("patch_file", "Aplica una edición quirúrgica sustituyendo una ocurrencia única de texto.",
     {"path": ("string", "Ruta relativa del archivo a editar"),
      "old_str": ("string", "Texto exacto a buscar y reemplazar (debe ser único)"),
      "new_str": ("string", "Nuevo texto de reemplazo")},
     ["new_str", "old_str", "path"],
     dict(readOnlyHint=False, destructiveHint=True, idempotentHint=False, openWorldHint=False)),
]

FORMATS = {"openai": True, "openai_responses": True, "anthropic": True, "gemini": False,
           "gemini_json_schema": False, "mcp": False}

# MCP's ToolAnnotations defaults; destructiveHint only means something when readOnlyHint is false.
HINT_DEFAULTS = dict(readOnlyHint=False, destructiveHint=True, idempotentHint=False, openWorldHint=True)

# Anthropic strict mode's limits on one request, as issue 10 gives them.
ANTHROPIC_STRICT_TOOLS = 20
ANTHROPIC_STRICT_OPTIONAL = 24


def default_catalog():
    return [{"name": name, "description": desc,
             "inputSchema": {"type": "object",
                             "properties": {p: {"type": t, "description": d} for p, (t, d) in props.items()},
                             "required": required},
             "annotations": hints}
            for name, desc, props, required, hints in DEFAULT_TOOLS]


def hints(tool):
    given = tool.get("annotations", {})
    out = dict(HINT_DEFAULTS)
    out.update(given)
    if given.get("readOnlyHint") and "destructiveHint" not in given:
        out["destructiveHint"] = False
    return out


def node(schema, rules, optional, root=False):
    """One schema node under rules: "plain", "gemini", "gemini_json", "anthropic_strict" or
    "openai_strict".

    A nested object without properties is free-form: written without "properties" unless a
    strict mode closes it."""
    ty = schema["type"]
    nullable = rules == "openai_strict" and optional
    out = {"type": [ty, "null"] if nullable else ty}
    if "description" in schema:
        out["description"] = schema["description"]
    # catalogs.md, gemini_json_schema: `default` is not among the keywords Gemini lists.
    if "default" in schema and rules not in ("openai_strict", "gemini_json"):
        out["default"] = schema["default"]
    if ty == "object":
        props = schema.get("properties", {})
        required = schema.get("required")
        if props or root or rules in ("openai_strict", "anthropic_strict"):
            out["properties"] = {name: node(p, rules, name not in (required or [])) for name, p in props.items()}
        if rules == "openai_strict":
            out["required"] = sorted(props)
        elif required is not None:
            out["required"] = sorted(required)
        if rules in ("openai_strict", "anthropic_strict"):
            out["additionalProperties"] = False
        elif rules in ("plain", "gemini_json") and schema.get("additionalProperties") is False:
            out["additionalProperties"] = False
    if ty == "array":
        out["items"] = node(schema["items"], rules, False)
        for key in ("minItems", "maxItems"):
            if key in schema:
                if rules == "anthropic_strict" and (key == "maxItems" or schema[key] > 1):
                    continue
                out[key] = schema[key]
    # catalogs.md, gemini: "an `enum` is kept only when its values are strings ... any other
    # `enum` is dropped".
    # gemini_json_schema: "enum (for strings and numbers)".
    gemini_json_enum = all(isinstance(v, (str, int, float)) and not isinstance(v, bool)
                           for v in schema.get("enum", []))
    if "enum" in schema and not (rules == "gemini" and ty != "string") \
            and not (rules == "gemini_json" and not gemini_json_enum):
        out["enum"] = list(schema["enum"]) + ([None] if nullable else [])
    if ty == "string":
        for key in ("minLength", "maxLength"):
            if key in schema and rules in ("plain", "gemini"):
                out[key] = schema[key]
    if ty in ("integer", "number"):
        for key in ("minimum", "maximum"):
            if key in schema and rules != "anthropic_strict":
                out[key] = schema[key]
    return out


def declaration(tool, fmt, strict):
    name, desc, schema = tool["name"], tool["description"], tool["inputSchema"]
    if fmt == "openai":
        function = {"name": name, "description": desc,
                    "parameters": node(schema, "openai_strict" if strict else "plain", False, root=True)}
        if strict:
            function["strict"] = True
        return {"type": "function", "function": function}
    if fmt == "openai_responses":
        return {"type": "function", "name": name, "description": desc, "strict": strict,
                "parameters": node(schema, "openai_strict" if strict else "plain", False, root=True)}
    if fmt == "anthropic":
        out = {"name": name, "description": desc,
               "input_schema": node(schema, "anthropic_strict" if strict else "plain", False, root=True)}
        if strict:
            out["strict"] = True
        return out
    if fmt == "gemini":
        out = {"name": name, "description": desc}
        if schema.get("properties"):
            out["parameters"] = node(schema, "gemini", False, root=True)
        return out
    if fmt == "gemini_json_schema":
        out = {"name": name, "description": desc}
        if schema.get("properties"):
            out["parametersJsonSchema"] = node(schema, "gemini_json", False, root=True)
        return out
    if fmt == "mcp":
        return {"name": name, "description": desc, "inputSchema": node(schema, "plain", False, root=True),
                "annotations": hints(tool)}
    raise ValueError(fmt)


def optional_properties(schema):
    count = 0
    required = schema.get("required") or []
    for name, p in schema.get("properties", {}).items():
        count += name not in required
        count += optional_properties(p)
    if "items" in schema:
        count += optional_properties(schema["items"])
    return count


def refused(tools, fmt, strict):
    """The error code for a request over these tools, or None when it is answered."""
    if fmt == "anthropic" and strict:
        if len(tools) > ANTHROPIC_STRICT_TOOLS:
            return "unsupported"
        if sum(optional_properties(t["inputSchema"]) for t in tools) > ANTHROPIC_STRICT_OPTIONAL:
            return "unsupported"
    return None


def dump(value):
    return (json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n").encode()


def write_goldens(catalog, root):
    for fmt, has_strict in FORMATS.items():
        (root / fmt).mkdir(parents=True, exist_ok=True)
        for old in (root / fmt).iterdir():
            old.unlink()
        for strict in [False, True] if has_strict else [False]:
            stem = ".strict" if strict else ""
            for tool in catalog:
                code = refused([tool], fmt, strict)
                if code:
                    (root / fmt / (tool["name"] + stem + ".error")).write_text(code + "\n")
                else:
                    (root / fmt / (tool["name"] + stem + ".json")).write_bytes(dump(declaration(tool, fmt, strict)))
            code = refused(catalog, fmt, strict)
            if code:
                (root / fmt / ("tool_list" + stem + ".error")).write_text(code + "\n")
            else:
                (root / fmt / ("tool_list" + stem + ".json")).write_bytes(
                    dump([declaration(t, fmt, strict) for t in catalog]))


# tool_choice, from each provider's documentation (docs/sources/tool-choice.md has the quotes):
# OpenAI Chat's named form nests the function, Responses' is flat; Anthropic says "any" for
# required, folds parallel=false into disable_parallel_tool_use (not on "none", which has no such
# field); Gemini has modes and allowedFunctionNames but no parallel switch; MCP no tool choice.
def tool_choice_answer(fmt, choice, parallel):
    """The answer to a tool_choice request, or the error code."""
    if fmt == "mcp" or (fmt.startswith("gemini") and parallel is not None):
        return "unsupported"
    tool = choice["tool"] if isinstance(choice, dict) else None
    if fmt in ("openai", "openai_responses"):
        if tool is None:
            value = choice
        elif fmt == "openai":
            value = {"type": "function", "function": {"name": tool}}
        else:
            value = {"type": "function", "name": tool}
        answer = {"tool_choice": value}
        if parallel is not None:
            answer["parallel_tool_calls"] = parallel
        return answer
    if fmt == "anthropic":
        value = {"type": {"auto": "auto", "none": "none", "required": "any"}[choice]} \
            if tool is None else {"type": "tool", "name": tool}
        if parallel is False and choice != "none":
            value["disable_parallel_tool_use"] = True
        return {"tool_choice": value}
    config = {"mode": {"auto": "AUTO", "none": "NONE", "required": "ANY"}[choice]} \
        if tool is None else {"mode": "ANY", "allowedFunctionNames": [tool]}
    return {"toolConfig": {"functionCallingConfig": config}}


def write_tool_choice_goldens(catalog, root):
    """tests/tool_choice/<format>/<choice>[.parallel|.serial].json (or .error with the code):
    every choice, forcing each tool in turn, with parallel absent, true or false."""
    choices = [("auto", "auto"), ("none", "none"), ("required", "required")]
    choices += [("tool." + t["name"], {"tool": t["name"]}) for t in catalog]
    for fmt in FORMATS:
        (root / fmt).mkdir(parents=True, exist_ok=True)
        for old in (root / fmt).iterdir():
            old.unlink()
        for stem, choice in choices:
            for suffix, parallel in [("", None), (".parallel", True), (".serial", False)]:
                answer = tool_choice_answer(fmt, choice, parallel)
                name = stem + suffix
                if isinstance(answer, str):
                    (root / fmt / (name + ".error")).write_text(answer + "\n")
                else:
                    (root / fmt / (name + ".json")).write_bytes(dump(answer))


def check_numbers_survive(path):
    """Numbers are written as the catalog spells them; json.dumps writes what json.loads read, so
    every number in a test catalog must already be spelled the way Python writes it."""
    text = path.read_text()
    for number in re.findall(r'(?<=[:\[,\s])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?=[,\]\}\s])', text):
        assert json.dumps(json.loads(number)) == number, f"{path}: {number} would not survive"


def convert_seed(seed_text):
    tools = json.loads(seed_text[seed_text.index("["):])
    return [{"name": t["Name"], "description": t["Description"], "inputSchema": t["Schema"],
             "annotations": {"readOnlyHint": t["ReadOnly"]}} for t in tools]


def main():
    # The default catalog: the seed's tables, and src/catalog.json must say the same.
    default = default_catalog()
    assert json.loads((ROOT / "src" / "catalog.json").read_text()) == default, \
        "src/catalog.json differs from the seed's tables"
    write_goldens(default, HERE / "golden")
    write_tool_choice_goldens(default, HERE / "tool_choice")

    # Seed 003's catalog.
    reasonix = HERE / "catalogs" / "reasonix"
    reasonix.mkdir(parents=True, exist_ok=True)
    seeds = glob.glob(str(ROOT.parent / "shared" / "seeds" / "003_*.txt"))
    if seeds:
        full = convert_seed(pathlib.Path(seeds[0]).read_text())
        (reasonix / "full.json").write_text(json.dumps(full, indent=2, ensure_ascii=False) + "\n")
        (reasonix / "catalog.json").write_text(
            json.dumps([t for t in full if t["name"] != "ask"], indent=2, ensure_ascii=False) + "\n")
    check_numbers_survive(reasonix / "catalog.json")
    write_goldens(json.loads((reasonix / "catalog.json").read_text()), reasonix / "golden")


# tests/framework_reference.py imports this module for dump, hints and the limits.
if __name__ == "__main__":
    main()
