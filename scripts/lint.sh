#!/usr/bin/env bash
# ruff (with C901, complexity 20, over the product: pyproject.toml), mypy over the whole checkout and the documentation
# site's strict build (mkdocs.yml); fails on any finding (scripts/test.sh runs it beside pytest, and fails when it does).
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
# mypy --strict, by rule rather than by list (issues 21 and 29): every module of every package — deckcheck/ with the
# terminal skin (cli/), db/, importers/ and web/; a new file anywhere is checked from the start.
strict=$(find deckcheck db importers web -name '*.py' | sort \
         | sed -E -e 's#^(db|importers|web)/#deckcheck/\1/#' -e 's#^#.typecheck/#')
if ! found=$("$PY" -m mypy --strict --follow-imports=silent $strict 2>&1); then
  echo "$found" | sed -E -e 's#^\.typecheck/deckcheck/(db|importers|web)/#\1/#' -e 's#^\.typecheck/##' \
                      -e 's/^/mypy --strict: /'
  exit 1
fi
echo "mypy --strict (deckcheck/, db/, importers/, web/): ${found##*$'\n'}"
# the documentation site: a broken link, a page missing from the nav's files or a bad anchor fails (its examples run in
# tests/test_readme.py and tests/test_readme_python.py)
NO_MKDOCS_2_WARNING=1 "$PY" -m mkdocs build --strict --quiet --site-dir .site
