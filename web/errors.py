"""Which HTTP status each error type answers with: the one table the app's exception handler reads.

Routes raise (DeckcheckError and its kinds, HTTPException); they never catch to answer by hand. An error type
not in the table answers with its `status` attribute when it has one (the desk's errors carry theirs:
deckcheck.desk), else with that of its nearest listed base class, DeckcheckError's 400 at the bottom.
A new error type that is not a plain 400: add it here.
"""
from __future__ import annotations

from deckcheck.desk import EventClosed, EventNotFound, NotAuthorised, RateLimited, TooLarge, WrongToken
from deckcheck.errors import DatabaseError, DeckcheckError, UnknownFormatError
from deckcheck.stats import DrawSizeError
from deckcheck.library.statsapi import NoSavedDeckError

ERROR_STATUS: dict[type[BaseException], int] = {
    DeckcheckError: 400,        # bad input of any kind: the message quotes it
    UnknownFormatError: 400,
    DrawSizeError: 400,
    NoSavedDeckError: 404,      # a saved-deck id or link that names no deck
    EventNotFound: 404,
    NotAuthorised: 401,         # the organiser's token is missing
    WrongToken: 403,
    EventClosed: 409,           # the deadline passed or the organiser closed the event
    TooLarge: 413,
    RateLimited: 429,
    DatabaseError: 503,         # the database is busy past the lock wait, full or read-only: the server's state
}


def status_of(exc: BaseException) -> int:
    """The HTTP status of an error: its type's entry in ERROR_STATUS, else its own `status`, else its nearest
    listed base class's."""
    kind = type(exc)
    if kind in ERROR_STATUS:
        return ERROR_STATUS[kind]
    own = getattr(exc, "status", None)
    if isinstance(own, int) and 400 <= own < 600:
        return own
    return next((ERROR_STATUS[base] for base in kind.__mro__ if base in ERROR_STATUS), 500)
