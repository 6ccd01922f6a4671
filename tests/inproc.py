"""Run the deckcheck command in this process (fast), with its standard streams as bytes.

Anything but a SystemExit escaping the command is what the user would see as a traceback, so it is
returned as `crash` for the test to fail on. XLSX files go through a subprocess instead in the
tests (a native abort of the spreadsheet reader would end the test run, not just the command).
"""
from __future__ import annotations

import io
import sys
import traceback
from dataclasses import dataclass


@dataclass
class Result:
    code: int
    out: bytes
    err: bytes
    crash: str | None = None

    @property
    def text(self) -> str:
        return self.out.decode("utf-8", "replace")


def run_cli(*args: str, stdin: bytes = b"") -> Result:
    """deckcheck ARGS in process: exit code, standard output and error (strict UTF-8, as a real stream)."""
    from deckcheck.cli import main
    out, err = io.BytesIO(), io.BytesIO()
    streams = sys.stdin, sys.stdout, sys.stderr
    wrappers = (io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"),
                io.TextIOWrapper(out, encoding="utf-8", write_through=True),
                io.TextIOWrapper(err, encoding="utf-8", write_through=True))  # kept: a dropped wrapper closes its bytes
    sys.stdin, sys.stdout, sys.stderr = wrappers
    code, crash = 0, None
    try:
        main(list(args))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    except BaseException:  # noqa: BLE001 - the test reports it as the traceback a user would see
        crash = traceback.format_exc()
        code = -1
    finally:
        for stream in wrappers[1:]:
            stream.flush()
        sys.stdin, sys.stdout, sys.stderr = streams
    return Result(code, out.getvalue(), err.getvalue(), crash)
