#!/usr/bin/env python3
"""Writes tests/golden/ from the specification alone, independently of the Rust code.

The tool tables are copied from the seed (shared/seeds/000_*.txt); the shapes follow issue 3's
rules for each format and for strict mode. Python's json module does the sorting and the
encoding, so a bug in the crate's writer cannot leak into its own golden files.

    python3 tests/golden_reference.py && git diff --exit-code tests/golden
"""
import json
import pathlib

TOOLS = [
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

FORMATS = {"openai": True, "openai_responses": True, "anthropic": True, "gemini": False, "mcp": False}


def schema(props, required, mode):
    """mode: None (as specified), "closed" (Anthropic strict), "all" (OpenAI strict)."""
    properties = {}
    for name, (ty, desc) in props.items():
        if mode == "all" and name not in required:
            ty = [ty, "null"]
        properties[name] = {"type": ty, "description": desc}
    out = {"type": "object", "properties": properties,
           "required": sorted(props) if mode == "all" else required}
    if mode:
        out["additionalProperties"] = False
    return out


def declaration(tool, fmt, strict):
    name, desc, props, required, hints = tool
    if fmt == "openai":
        function = {"name": name, "description": desc,
                    "parameters": schema(props, required, "all" if strict else None)}
        if strict:
            function["strict"] = True
        return {"type": "function", "function": function}
    if fmt == "openai_responses":
        return {"type": "function", "name": name, "description": desc, "strict": strict,
                "parameters": schema(props, required, "all" if strict else None)}
    if fmt == "anthropic":
        out = {"name": name, "description": desc,
               "input_schema": schema(props, required, "closed" if strict else None)}
        if strict:
            out["strict"] = True
        return out
    if fmt == "gemini":
        return {"name": name, "description": desc, "parameters": schema(props, required, None)}
    if fmt == "mcp":
        return {"name": name, "description": desc, "inputSchema": schema(props, required, None),
                "annotations": hints}
    raise ValueError(fmt)


def dump(value):
    return (json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n").encode()


root = pathlib.Path(__file__).parent / "golden"
for fmt, has_strict in FORMATS.items():
    (root / fmt).mkdir(parents=True, exist_ok=True)
    for strict in [False, True] if has_strict else [False]:
        suffix = ".strict.json" if strict else ".json"
        for tool in TOOLS:
            (root / fmt / (tool[0] + suffix)).write_bytes(dump(declaration(tool, fmt, strict)))
        (root / fmt / ("tool_list" + suffix)).write_bytes(dump([declaration(t, fmt, strict) for t in TOOLS]))
