#!/usr/bin/env python3
"""Judges every gemini_json_schema golden file by Google's own SDK and by JSON Schema.

Each declaration (a tool's golden, and each entry of a `tool_list` golden) must be a
`google.genai.types.FunctionDeclaration`, whose pydantic model refuses unknown fields
(`extra='forbid'`) and takes the API's camelCase names; it must carry `parametersJsonSchema`
and not `parameters` ("This field is mutually exclusive with parameters"), or neither for a
tool that takes no arguments; and that schema must be valid JSON Schema 2020-12
(`jsonschema.Draft202012Validator.check_schema`, the meta-schema) describing an object.

The goldens themselves are written by tests/framework_reference.py and
tests/golden_reference.py from the docs' rules; this script only judges them. Versions, as
this was run (python3 -m venv, then pip install):

    google-genai==2.19.0 (pydantic 2.14.4), jsonschema==4.26.0, Python 3.11.7

On the goldens as committed: "294 files, 552 declarations, 520 parameter schemas". A field
the SDK does not know, or a schema the meta-schema refuses, fails it (tried: `inputSchema`
beside `parametersJsonSchema`; `{"type": 7}`).

    python3 tests/gemini_json_schema/judge.py
"""
import json
import pathlib
import sys

import jsonschema
from google.genai import types

TESTS = pathlib.Path(__file__).resolve().parent.parent


def judge(declaration, where):
    model = types.FunctionDeclaration.model_validate(declaration)
    assert model.parameters is None, f"{where}: parameters beside parametersJsonSchema"
    schema = declaration.get("parametersJsonSchema")
    if schema is None:
        return 0
    assert model.parameters_json_schema == schema, where
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema.get("type") == "object", f"{where}: not an object"
    return 1


def main():
    files = sorted(TESTS.glob("**/gemini_json_schema/*.json"))
    files = [f for f in files if f.parent.parent.name != "tool_choice"]
    declarations = schemas = 0
    for path in files:
        value = json.loads(path.read_text(encoding="utf-8"))
        for i, declaration in enumerate(value if isinstance(value, list) else [value]):
            schemas += judge(declaration, f"{path.relative_to(TESTS)}[{i}]")
            declarations += 1
    print(f"{len(files)} files, {declarations} declarations, {schemas} parameter schemas: "
          f"each a google-genai {types.FunctionDeclaration.__name__}, each schema valid 2020-12")
    return 0 if files else 1


if __name__ == "__main__":
    sys.exit(main())
