#!/usr/bin/env bash
# All set-up on a fresh machine (python3 only): deckcheck with everything `check`, `serve` and the tournament desk
# need (the web extra), then the main job on the bundled data: every example deck checked against its format, each
# said to come out as examples/intended.tsv intends (exit 0), or not (exit 1).
set -uo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv || exit 2
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[web]' || exit 2
exec .venv/bin/python scripts/demo.py
