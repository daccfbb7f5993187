#!/usr/bin/env bash
# Every catalog the tests build, through the metaschema check (src/bin/metaschema.rs): every
# parameter schema each declares, in every shape, is valid JSON Schema (2020-12, or the dialect
# its mcp shape names). One build of the crate per catalog, in one target directory.
set -euo pipefail
shopt -s failglob # a pattern that matches nothing is an error, not a file name
cd "$(dirname "$0")"
root="$(cd ../.. && pwd)"
for catalog in src/catalog.json tests/catalogs/reasonix/catalog.json tests/catalogs/bounds/catalog.json \
    tests/catalogs/pydantic/catalog.json tests/catalogs/zod/catalog.json \
    tests/catalogs/zod/catalog-direct.json tests/catalogs/fastmcp/tools.json \
    "$root"/tests/catalogs/mcp-servers/*.json "$root"/tests/catalogs/mcp-servers-2026-12/*.json; do
    case "$catalog" in /*) ;; *) catalog="$root/$catalog" ;; esac
    printf '%s: ' "${catalog#"$root"/}"
    RUSTFLAGS= TOOL_SCHEMA_CATALOG="$catalog" cargo run -q --bin metaschema
done
