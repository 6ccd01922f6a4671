#!/usr/bin/env bash
# ruff and mypy over the whole checkout; fails on any finding (scripts/test.sh runs it before pytest).
# The package maps db/, importers/ and web/ to deckcheck.db, deckcheck.importers and deckcheck.web (pyproject.toml), which
# mypy cannot follow on its own: it checks a tree of symlinks with the installed layout instead.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
"$PY" -m ruff check --quiet .
tree=.typecheck/deckcheck
rm -rf .typecheck && mkdir -p "$tree"
for f in deckcheck/*; do ln -s "../../$f" "$tree/"; done
ln -s ../../db "$tree/db"
ln -s ../../importers "$tree/importers"
ln -s ../../web "$tree/web"
"$PY" -m mypy
# mypy --strict, by rule rather than by list (issue 21): every module of deckcheck/ except the terminal skin
# (deckcheck/cli/), the file readers and writers (importers/) and the web app (web/, issue 29); a new file there is
# checked from the start. db/ (the storage adapter) is checked by the run above only.
strict=$(find deckcheck importers web -name '*.py' -not -path 'deckcheck/cli/*' | sort \
         | sed -e 's|^importers/|deckcheck/importers/|' -e 's|^web/|deckcheck/web/|' -e 's|^|.typecheck/|')
if ! found=$("$PY" -m mypy --strict --follow-imports=silent $strict 2>&1); then
  echo "$found" | sed -e 's|^\.typecheck/deckcheck/importers/|importers/|' -e 's|^\.typecheck/deckcheck/web/|web/|' \
                      -e 's|^\.typecheck/||' -e 's/^/mypy --strict: /'
  exit 1
fi
echo "mypy --strict (deckcheck/ without cli/, importers/, web/): ${found##*$'\n'}"
