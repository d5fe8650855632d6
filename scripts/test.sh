#!/usr/bin/env bash
# The test suite: install what is missing, build, and run every test (unit, integration with
# real Tesseract, SQLite and files, and black-box tests of the built lens binary).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
swift build --build-tests
swift test --skip-build
