#!/usr/bin/env bash
# All set-up on a fresh machine (python3 only), then ruff, mypy and the whole test suite, PostgreSQL and
# the browser tests (Debian's chromium) included.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test,web]'
# The product's bytecode, compiled once as pip compiles an installed package: the suite's hundreds of `deckcheck`
# processes load it instead of each compiling the modules again (PYTHONDONTWRITEBYTECODE, set on some machines,
# keeps every process from writing what it compiled; an editable install is never compiled by pip).
.venv/bin/python -m compileall -q deckcheck db importers web
# ruff, mypy and the site's build (scripts/lint.sh, mostly one core for half a minute) run beside the set-up and
# the tests instead of before them; any finding still fails the run, after the tests, with lint's whole output
# and a banner saying so.
lint_log=$(mktemp)
bash scripts/lint.sh >"$lint_log" 2>&1 &
lint_pid=$!
source scripts/postgres.sh
source scripts/chromium.sh  # the browser tests of the web app
# two or more processes (one a core; pytest-xdist, `-n 0` to run in one): each gets its own temporary
# folders and its own PostgreSQL database (tests/conftest.py), and takes tests as it becomes free
tests=0
.venv/bin/python -m pytest -n auto --dist worksteal "$@" || tests=$?
lint=0
wait "$lint_pid" || lint=$?
cat "$lint_log"
rm -f "$lint_log"
if [ "$lint" -ne 0 ]; then
  echo "=== FAILED: scripts/lint.sh (ruff, mypy, the site's build) exited $lint: its findings are above ===" >&2
fi
if [ "$tests" -ne 0 ]; then
  exit "$tests"
fi
exit "$lint"
