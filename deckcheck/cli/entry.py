"""Entry point of the `deckcheck` command.

`deckcheck check` and `deckcheck tournament check` are the commands run most (once per deck from
scripts; before every round), so they have a fast path: their options are parsed here with
argparse and typer is not imported. typer 0.29 builds its parameters through pydantic, which alone
costs more than checking a deck. Every other command, and --help or a usage error, goes through
the typer app in deckcheck.cli.commands, which defines the same options; both paths run the bodies in
deckcheck.cli.runner (a test runs both paths on the same arguments and compares the results).
"""
from __future__ import annotations

import logging
import os
import sys
from typing import Sequence

from ..errors import DeckcheckError
from .options import CHECK, TOURNAMENT_CHECK, BadArguments, argparse_parser, flags, version_line

FAST_PATH_OFF = "DECKCHECK_NO_FAST_PATH"


def fast_path(argv: Sequence[str]) -> int | None:
    """Run check or tournament check without typer when the arguments are plain; else None."""
    if os.environ.get(FAST_PATH_OFF):
        return None
    if list(argv) in (["--version"], ["-V"]):
        sys.stdout.write(version_line() + "\n")
        return 0
    if argv[:1] == ["check"]:
        rest, table, prog, positional = argv[1:], CHECK, "deckcheck check", "decks"
    elif argv[:2] == ["tournament", "check"]:
        rest, table, prog, positional = argv[2:], TOURNAMENT_CHECK, "deckcheck tournament check", "inputs"
    else:
        return None
    known = flags(table)
    if not all(a == "-" or not a.startswith("-") or a.split("=", 1)[0] in known for a in rest):
        return None
    try:
        args = argparse_parser(prog, positional, table).parse_args(rest)
    except BadArguments:
        return None
    from .runner import run_check, run_tournament
    if argv[0] == "check":
        return run_check(args.decks, args.format, args.as_json, args.cards, args.db, args.quiet)
    return run_tournament(args.inputs, args.format, args.out, args.as_json, args.cards, args.db)


def show_notices() -> None:
    """The library's one-time notices (INFO on the "deckcheck" logger: where a new database was created)
    as `deckcheck: ...` lines on stderr; once, however often main() runs in one process."""
    logger = logging.getLogger("deckcheck")
    if not any(getattr(h, "deckcheck_cli", False) for h in logger.handlers):
        handler = logging.StreamHandler()  # sys.stderr as it is when a line is written
        handler.setFormatter(logging.Formatter("deckcheck: %(message)s"))
        handler.deckcheck_cli = True  # type: ignore[attr-defined]
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)


def main(argv: Sequence[str] | None = None) -> None:
    """Run deckcheck; every DeckcheckError becomes a clean message and exit code 2."""
    argv = list(sys.argv[1:] if argv is None else argv)
    show_notices()
    try:
        code = fast_path(argv)
        if code is not None:
            sys.exit(code)
        from .commands import app
        app(args=argv, prog_name="deckcheck")
    except DeckcheckError as exc:
        from .render import console
        err = console(stderr=True)
        err.print("[bold red]error:[/] ", end="")
        err.print(str(exc), markup=False, soft_wrap=True)
        sys.exit(2)
    except BrokenPipeError:  # the reader went away (| head): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    except OSError as exc:  # standard output on a full disk, a device gone, ...: one line and exit 2
        from ..importers.writers import _why
        where = repr(exc.filename) if exc.filename else "standard output"
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # what is left to flush goes nowhere
        except (OSError, ValueError):
            pass
        sys.stderr.write(f"error: cannot write {where}: {_why(exc)}\n")
        sys.exit(2)
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)


if __name__ == "__main__":
    main()
