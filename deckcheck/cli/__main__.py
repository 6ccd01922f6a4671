"""`python -m deckcheck.cli ...` runs the `deckcheck` command."""
from .entry import main

main()
