#!/usr/bin/env bash
# The Python package as a user meets it: build the wheel with maturin (from PyPI, in a virtual
# environment of its own), install it in a fresh one, and run python/tests there.
set -euo pipefail
cd "$(dirname "$0")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/build"
"$work/build/bin/pip" install -q "maturin==1.16.0"
"$work/build/bin/maturin" build --release -q -o "$work/dist"
python3 -m venv "$work/env"
"$work/env/bin/pip" install -q "$work"/dist/tool_schema-*.whl
# The tests import the installed package, never the source tree beside them.
(cd "$work" && VIRTUAL_ENV="$work/env" "$work/env/bin/python" -m unittest discover -v \
    -s "$OLDPWD/tests" -t "$OLDPWD/tests")
