"""One rate syntax and one rate limiter: "N/SECONDS" (or "0"), counted in fixed windows of SECONDS.

The web guard (checks, new events), the fill-in answers and the tournament desk all read their rates here.
The desk counts its windows in the database (several server processes share one desk); the others count in
this process's memory (`Windows`). Not the `limits` package: its syntax is "N per S seconds", so our
N/SECONDS parser would stay, and it has no storage in our SQL database for the desk's shared count.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from .errors import DeckcheckError

MAX_SECONDS = 86400
MAX_COUNT = 10**9


class RateError(DeckcheckError):
    """A rate that is not N/SECONDS (a ValueError too, so a pydantic field reports it)."""


@dataclass(frozen=True)
class Rate:
    """At most `count` requests per `seconds` from one address (count 0: no limit)."""

    count: int = 60
    seconds: int = 60

    @classmethod
    def parse(cls, text: str, what: str = "rate limit") -> Rate:
        """'N/SECONDS' (e.g. 300/60; 'N' alone: per 60 s), or '0' for no limit; RateError naming `what` otherwise."""
        count, _, seconds = str(text).strip().partition("/")
        try:
            rate = cls(int(count), int(seconds or 60))
        except ValueError:
            raise RateError(f"{what}: {text!r} is not N/SECONDS (e.g. 300/60), or 0 for no limit") from None
        if not 0 <= rate.count <= MAX_COUNT or not 1 <= rate.seconds <= MAX_SECONDS:
            raise RateError(f"{what}: {text!r}: N is 0 or more, SECONDS from 1 to {MAX_SECONDS}")
        return rate

    @property
    def off(self) -> bool:
        """Whether this rate limits nothing (count 0)."""
        return self.count <= 0

    def window(self, now: float) -> int:
        """The number of the window a time falls in."""
        return int(now // self.seconds)

    def wait(self, now: float) -> float:
        """Seconds from `now` until its window ends (when a refused request may try again)."""
        return (self.window(now) + 1) * self.seconds - now


@dataclass
class Windows:
    """Requests counted per (kind, address) in fixed windows of time, in this process's memory."""

    counts: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def hit(self, kind: str, address: str, rate: Rate, now: float | None = None) -> float:
        """Count one request; 0.0 when within the rate (or it is off), else the seconds until its window ends."""
        if rate.off:
            return 0.0
        now = time.time() if now is None else now
        window = rate.window(now)
        with self.lock:
            if len(self.counts) > 100_000:  # many addresses: forget the windows that are over
                self.counts = {k: v for k, v in self.counts.items() if v[0] >= window - 1}
            start, count = self.counts.get((kind, address), (window, 0))
            count = count + 1 if start == window else 1
            self.counts[(kind, address)] = (window, count)
        return rate.wait(now) if count > rate.count else 0.0

    def clear(self) -> None:
        """Forget every count (tests start afresh)."""
        with self.lock:
            self.counts.clear()
