"""List the tool-level fields, JSON Schema keywords and formats used by tools/list catalogs.

Usage: python3 tests/catalogs/pydantic/keywords.py CATALOG.json [...]
Only keys at schema positions count as keywords: property names under `properties`,
`$defs`, etc. and the contents of `default`, `enum`, `const`, `examples` are not.
"""

import json
import sys

MAPS = {"properties", "$defs", "definitions", "patternProperties", "dependentSchemas"}
LISTS = {"anyOf", "oneOf", "allOf", "prefixItems"}
ONE = {"items", "additionalProperties", "not", "propertyNames", "contains", "if", "then", "else",
       "unevaluatedProperties", "unevaluatedItems", "additionalItems"}


def walk(schema, keywords, formats):
    if not isinstance(schema, dict):
        return  # true / false
    for key, value in schema.items():
        keywords.add(key)
        if key == "format":
            formats.add(value)
        elif key in MAPS:
            for sub in value.values():
                walk(sub, keywords, formats)
        elif key in LISTS or (key == "items" and isinstance(value, list)):
            for sub in value:
                walk(sub, keywords, formats)
        elif key in ONE:
            walk(value, keywords, formats)


for path in sys.argv[1:]:
    tools = json.load(open(path))
    fields, annotations = set(), set()
    found = {"inputSchema": (set(), set()), "outputSchema": (set(), set())}
    for tool in tools:
        fields.update(tool)
        annotations.update(tool.get("annotations", {}))
        for key, (keywords, formats) in found.items():
            if key in tool:
                walk(tool[key], keywords, formats)
    print(f"{path}: {len(tools)} tools")
    print("  tool fields: " + ", ".join(sorted(fields)))
    print("  annotations: " + (", ".join(sorted(annotations)) or "-"))
    for key, (keywords, formats) in found.items():
        print(f"  {key} keywords: " + (", ".join(sorted(keywords)) or "-"))
        print(f"  {key} formats: " + (", ".join(sorted(formats)) or "-"))
