#!/usr/bin/env bash
# All set-up on a fresh machine (python3 only), then ruff, mypy and the whole test suite, PostgreSQL and
# the browser tests (Debian's chromium) included.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test,web]'
bash scripts/lint.sh  # ruff and mypy: any finding fails the run before the tests start
source scripts/postgres.sh
source scripts/chromium.sh  # the browser tests of the web app
# two or more processes (one a core; pytest-xdist, `-n 0` to run in one): each gets its own temporary
# folders and its own PostgreSQL database (tests/conftest.py), and takes tests as it becomes free
.venv/bin/python -m pytest -n auto --dist worksteal "$@"
