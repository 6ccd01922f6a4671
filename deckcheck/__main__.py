"""`python -m deckcheck ...` runs the `deckcheck` command (where the console script is not on PATH)."""
from .cli.entry import main

main()
