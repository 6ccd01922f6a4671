"""The terminal skin: the `deckcheck` command, its output in the terminal, and nothing else.

Everything here calls the library (`deckcheck.library.api`, `deckcheck.library`, `deckcheck.library.statsapi`) and
renders what it returns; no rule, no parsing and no storage lives in this package.

- `entry`: the entry point `main` and the argparse fast path of `check` and `tournament check`
  (typer is not imported for them);
- `options`: the options of those two commands, declared once for argparse and typer;
- `runner`: the bodies both front ends run for those two commands;
- `commands`: every command as a typer app;
- `render`, `render_stats`: rich tables and panels; `plain`: the plain-text lines (`-q`, pipes).

`deckcheck.cli.main` is the console script's entry point; it is imported on first use, so that
importing `deckcheck.cli.render` (say) loads no argument parser.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["main"]


def __getattr__(name: str) -> Any:
    if name == "main":
        from .entry import main
        return main
    raise AttributeError(f"module 'deckcheck.cli' has no attribute {name!r}")


if TYPE_CHECKING:
    from .entry import main
