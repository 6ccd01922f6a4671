#!/usr/bin/env bash
# All set-up on a fresh machine (python3 only), then the whole test suite, PostgreSQL included.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'
source scripts/postgres.sh
.venv/bin/python -m pytest "$@"
