"""Which HTTP status each error type answers with: the one table the app's exception handler reads.

Routes raise (DeckcheckError and its kinds, HTTPException); they never catch to answer by hand. Every error type
the app can meet is a key of ERROR_STATUS (tests/web/test_web_settings.py walks them all): statuses live here only,
never on the exceptions, which the core and the library raise without knowing of HTTP. A new error type: add it.
The web's own error types that answer other than 400 are declared here too (web/facts.py imports the app, so this
module cannot import it).
"""
from __future__ import annotations

from deckcheck.db.collections import AlreadyImported, NoCollection, NoSuchImport, UndoRefused
from deckcheck.library.accounts import AccountError, NoSuchAccount, OwnsThings, SignInFailed
from deckcheck.library.facts import FactError, ProposalDecided, ProposalNotFound
from deckcheck.db.store import TextWithNul
from deckcheck.desk import (CountedCardUnknown, DeskError, EventClosed, EventNotFound, ListsNotLocked, NotAJudge,
                            NotAuthorised, RateLimited, RoundRefused, RoundTaken, TooLarge, WrongToken)
from deckcheck.catalog import NameMiss
from deckcheck.errors import (AmbiguousCardError, CardNotFoundError, CardSheetError, DatabaseError, DeckcheckError,
                              DecklistError, InputFileError, UnknownCardError, UnknownFormatError)
from deckcheck.importers.tables import SheetError
from deckcheck.importers.writers import OutputError
from deckcheck.library.api import NotAFile, UnreadableFolder
from deckcheck.library.decks import ChangeRefused, DeckNotFound, NotYourDeck
from deckcheck.library.statsapi import NoSavedDeckError, UnreadableDeckError
from deckcheck.rates import RateError
from deckcheck.registered import DeckCheckError
from deckcheck.stats import DrawSizeError

from .decks import UnreadableUpload
from .hosts import GuardError
from .previews import PreviewFolderError, PreviewsFull, PreviewsTooLarge, TooManyPreviews
from .settings import SettingsError


class SheetRefused(DeckcheckError):
    """A card sheet that cannot be used: nothing was checked with it (HTTP 400; the page says why)."""


class BadRequest(DeckcheckError):
    """A malformed request (HTTP 400)."""


class NoSuchDeck(NoSavedDeckError):
    """A saved-deck id or link that names no saved deck (HTTP 404, as every NoSavedDeckError)."""

    def __init__(self, message: str):
        super().__init__("", message)


class NotAllowed(DeckcheckError):
    """No admin token on this server, or a wrong one (HTTP 403)."""


class NoToken(DeckcheckError):
    """The admin token is missing (HTTP 401)."""


class NotSignedIn(DeckcheckError):
    """A request that needs an account and comes without one (HTTP 401)."""


class NotFound(DeckcheckError):
    """No card or proposal of that id (HTTP 404)."""


class TooMany(DeckcheckError):
    """Too many answers from one address (HTTP 429)."""

    retry_after = 60


class WrongMedia(DeckcheckError):
    """Not JSON (HTTP 415): a cross-site form cannot send JSON without the browser asking first."""


ERROR_STATUS: dict[type[BaseException], int] = {
    # bad input of any kind: the message quotes it
    DeckcheckError: 400, InputFileError: 400, UnknownFormatError: 400, CardSheetError: 400, DecklistError: 400,
    CardNotFoundError: 400, UnknownCardError: 400, NameMiss: 400, AmbiguousCardError: 400, DrawSizeError: 400,
    DeckCheckError: 400, RateError: 400, ChangeRefused: 400,
    UnreadableFolder: 400, NotAFile: 400, UnreadableDeckError: 400, TextWithNul: 400, FactError: 400,
    AlreadyImported: 400, SheetError: 400, OutputError: 400, BadRequest: 400, UnreadableUpload: 400, GuardError: 400,
    SettingsError: 400, PreviewFolderError: 400, DeskError: 400, AccountError: 400, SheetRefused: 400,
    CountedCardUnknown: 400,                # a card a judge typed that names no card of the format
    NotAuthorised: 401, NoToken: 401,       # the organiser's or the admin's token is missing
    SignInFailed: 401, NotSignedIn: 401,    # a wrong name or password (said alike); no account
    WrongToken: 403, NotAllowed: 403, NotYourDeck: 403,  # a deck the person may read, not change
    NotAJudge: 403,                          # signed in, but not named a judge of this event
    NoSavedDeckError: 404, NoSuchDeck: 404, DeckNotFound: 404,  # a saved-deck id or link that names no deck
    EventNotFound: 404, ProposalNotFound: 404, NotFound: 404, NoSuchImport: 404, NoSuchAccount: 404,
    NoCollection: 404,  # none of the asker's by that name (another account's answers the same)
    EventClosed: 409,                        # the deadline passed or the organiser closed the event
    ListsNotLocked: 409, ProposalDecided: 409, UndoRefused: 409, OwnsThings: 409, RoundRefused: 409, RoundTaken: 409,
    TooLarge: 413, PreviewsTooLarge: 413,
    WrongMedia: 415,
    RateLimited: 429, TooMany: 429, TooManyPreviews: 429, PreviewsFull: 429,
    DatabaseError: 503,  # the database is busy past the lock wait, full or read-only: the server's state
}


def status_of(exc: BaseException) -> int:
    """The HTTP status of an error: its type's entry in ERROR_STATUS, else its nearest listed base class's (500
    for none)."""
    return next((ERROR_STATUS[base] for base in type(exc).__mro__ if base in ERROR_STATUS), 500)
