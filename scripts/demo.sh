#!/usr/bin/env bash
# All set-up on a fresh machine (python3 only), then the main job on the bundled data:
# check every example deck against its format.
set -uo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e . || exit 2
.venv/bin/deckcheck check examples/decks/
code=$?
echo "deckcheck check exited with $code (0 all legal, 1 some illegal, 2 some unreadable)"
