#!/usr/bin/env bash
# The test suite: install what is missing, build, and run every test (unit, integration with
# real Tesseract, SQLite and files, black-box tests of the built lens binary, HTTP tests of
# lens serve), then the page's tests in a real browser (Chromium driven by Selenium) and `lens mcp`
# with a real MCP client (the protocol's Python SDK).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
swift build --build-tests
swift test --skip-build

# Test tooling from PyPI (never part of Lens), pinned, in a virtual environment under .build.
venv=.build/browser-venv
[[ -x "$venv/bin/python" ]] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r Tests/requirements.txt
"$venv/bin/python" -m pytest -q Tests/browser Tests/mcp
