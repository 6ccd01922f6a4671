"""The shapes of the JSON API as pydantic models: what /openapi.json tells programs (CONTRACTS §3, §6, §7).

Routes name them in `response_model` (and `responses` for errors, `openapi_extra` for request bodies that
come as JSON or as a form). The objects themselves are made by the library's `as_dict()` methods, the very
objects `deckcheck ... --json` prints, and sent as they are: the models describe them and never reshape
them. tests/web/test_openapi.py checks every /api route's real answers against these schemas, so a model
that drifts from what is sent fails there. Every model forbids other keys (additionalProperties: false):
a key added to an answer is added here too.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field, create_model

from deckcheck.cardsheet import ROW_ORDER
from deckcheck.stats import EXERTION, HAND, MAX_DRAW


class ApiRoute(APIRoute):
    """A route whose answer FastAPI validates against its `response_model` (a 500 when it drifts), sent with the
    keys the library's `as_dict()` gave: none added with its default."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        kwargs["response_model_exclude_unset"] = True
        super().__init__(path, endpoint, **kwargs)


class Shape(BaseModel):
    """A JSON object of the API: exactly these keys."""

    model_config = ConfigDict(extra="forbid")


# -- errors and health ---------------------------------------------------------------------------
class ErrorBody(Shape):
    """Every refusal: 400 malformed, 401/403 token, 404 not found, 409 closed, 413 too large, 429 too many."""

    error: str = Field(description="One sentence saying what is wrong, quoting the input.")
    suggestions: list[str] | None = Field(None, description="A card that did not resolve: the names it may mean.")


class Health(Shape):
    status: Literal["ok"]


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The `responses` of a route that may refuse with these statuses: each an ErrorBody."""
    words = {400: "Bad request", 401: "No token", 403: "Wrong token", 404: "Not found", 409: "Closed",
             413: "Too large", 429: "Too many submissions"}
    return {status: {"model": ErrorBody, "description": words.get(status, "Refused")} for status in statuses}


# -- §3: the check report ------------------------------------------------------------------------
class Issue(Shape):
    rule: str = Field(description="The rule's id, as RULES.md and /api/formats name it.")
    severity: Literal["error", "warning"]
    message: str
    cards: list[str]
    limit: int | None = None
    actual: int | None = None
    fix: str | None = None


class InputError(Shape):
    line: int | None = Field(description="The decklist's line (null: no line applies, e.g. an unreadable file).")
    text: str
    message: str
    suggestions: list[str]


class Report(Shape):
    """The §3 report: the same object as the command line's JSON."""

    deck: str
    format: str
    legal: bool | None = Field(description="null when input_errors is not empty.")
    persona: str | None
    counts: dict[str, int]
    issues: list[Issue]
    input_errors: list[InputError]
    notices: list[str]
    unverified: list[str] = Field(default_factory=list, description="Rules that unknown card data kept from "
                                                                   "deciding (revision 3).")


class CheckRequest(Shape):
    """POST /api/check and /api/stats as JSON (as a form: the same fields, or `file` instead of `decklist`)."""

    decklist: str = Field(description="The decklist's text (CONTRACTS §2).")
    format: str | None = Field(default=None, description="A format's name or alias; default: the decklist's own, "
                                                         "or type2.")


class CheckForm(BaseModel):
    """POST /api/check and /api/stats as multipart/form-data."""

    file: bytes | None = Field(default=None, json_schema_extra={"format": "binary"},
                               description="A decklist file in any §2 form (.txt, .csv, .xlsx, .json...).")
    decklist: str | None = Field(default=None, description="The decklist's text, when no file is sent.")
    format: str | None = None


class StatsRequest(CheckRequest):
    """POST /api/stats as JSON: a check request, and the draw sizes (also accepted in the query)."""

    hand: int | None = Field(default=None, ge=0, le=MAX_DRAW, description=f"Opening hand size (default {HAND}).")
    exertion: int | None = Field(default=None, ge=0, le=MAX_DRAW, description=f"Exertion size (default {EXERTION}).")


class StatsForm(CheckForm):
    """POST /api/stats as a form: a check form, and the draw sizes (also accepted in the query)."""

    hand: int | None = Field(default=None, ge=0, le=MAX_DRAW)
    exertion: int | None = Field(default=None, ge=0, le=MAX_DRAW)


def body(json_model: type[BaseModel], form_model: type[BaseModel] | None = None) -> dict[str, Any]:
    """`openapi_extra` for a route that reads its body itself (bounded, JSON or a form): its request body schema."""
    content: dict[str, Any] = {"application/json": {"schema": json_model.model_json_schema()}}
    if form_model is not None:
        content["multipart/form-data"] = {"schema": form_model.model_json_schema()}
        content["application/x-www-form-urlencoded"] = {"schema": form_model.model_json_schema()}
    return {"requestBody": {"required": True, "content": content}}


class SavedDeck(Shape):
    id: str
    format: str
    decklist: str
    report: Report = Field(description="The §3 report, checked now against the current cards.")
    name: str = Field(description="What the deck is called (an earlier saved deck: its id).")
    visibility: Literal["private", "link", "public"]
    version: int = Field(description="The version shown (the latest unless ?version=N).")
    versions: int = Field(description="How many versions the deck has.")
    copied_from: str = Field(description="The id of the deck this one was copied from ('' if none).")


# -- §10: decks you build and keep -----------------------------------------------------------------
Visibility = Literal["private", "link", "public"]
Section = Literal["Pre-Game", "Endurance", "Sideboard"]


class DeckRequest(Shape):
    name: str = Field(description="What the deck is called (one line, at most 200 characters).")
    decklist: str = Field(description="The decklist text (CONTRACTS §2); every line must resolve.")
    format: str | None = Field(None, description="A format name; default: the list's `Format:` line, else type1e.")
    visibility: Visibility | None = Field(None, description="Default `link`: anyone holding the id sees it.")


class DeckCreated(Shape):
    id: str
    name: str
    format: str
    visibility: Visibility
    version: int
    report: Report


class DeckSummary(Shape):
    id: str
    name: str
    format: str
    visibility: Visibility
    version: int
    updated_at: str
    legal: bool | None
    unverified: bool


class DeckUpdate(Shape):
    decklist: str | None = None
    name: str | None = None
    visibility: Visibility | None = None
    format: str | None = None


class CardChangeRequest(Shape):
    card: str = Field(description="A card as a decklist line names it: its name, NAME [SET], or its id.")
    delta: int = Field(strict=True, description="Copies to add (positive) or remove (negative), 1 to 99 either way.")
    section: Section | None = Field(None, description="Default: the card's own section.")


class ChangeResult(Shape):
    version: int
    report: Report
    decklist: str


class VersionRow(Shape):
    version: int
    at: str
    legal: bool | None
    changes: str = Field(description='What the version changed: "+2 Thrust, −1 Dodge".')


class SampleHand(Shape):
    deck: str = Field(description="The deck's link.")
    seed: str = Field(description="The seed drawn with: the same seed gives the same hand.")
    hand: int = Field(description="Cards asked for.")
    endurance: int = Field(description="Cards in the Endurance drawn from.")
    cards: list[str] = Field(description="The cards' names in the order drawn (fewer when the Endurance is smaller).")


class RestoreRequest(Shape):
    version: int


class CopyRequest(Shape):
    name: str | None = Field(None, description="The copy's name; default the origin's.")


# -- §7: statistics and comparisons ----------------------------------------------------------------
class Square(Shape):
    attacks: int
    blocks: int
    dodges: int


class Odds(Shape):
    hand: int
    exertion: int
    opening_block: dict[str, float]
    exertion_attack: dict[str, float]
    exertion_defense: dict[str, float]


class DeckStats(Shape):
    """The §7 object: the same object as the command line's JSON."""

    deck: str
    format: str
    endurance: int
    by_type: dict[str, int]
    squares: dict[str, Square]
    unknown_grid: list[str]
    odds: Odds


class Side(Shape):
    report: Report
    stats: DeckStats | None = Field(description="null for a game without deck statistics (its cards still compare).")


class CardChange(Shape):
    section: str
    card: str
    quantity: int


class BeforeAfter(Shape):
    before: bool | None
    after: bool | None


class RuleChanges(Shape):
    fixed: list[str]
    new: list[str]


class OddsChange(Shape):
    before: float
    after: float
    change: float


class DeckDiff(Shape):
    """The same object as the command line's diff JSON: deck `a` (before) against deck `b` (after)."""

    before: Side
    after: Side
    added: list[CardChange]
    removed: list[CardChange]
    legal: BeforeAfter
    rules: RuleChanges
    odds: dict[str, dict[str, OddsChange]] = Field(description="empty for a game without deck statistics.")


# -- §1, §6: cards and formats ------------------------------------------------------------------------
# Derived from the card field table: the keys in the order deckcheck.cardsheet.card_to_row writes them (FastAPI
# sends a model's keys in its order).
CardRow: type[BaseModel] = create_model(  # type: ignore[call-overload]
    "CardRow", __config__=ConfigDict(extra="forbid"), __doc__="A card as a row of the card sheet (CONTRACTS §1): "
    "every column as text, unknown values written `unknown`.", **{c: (str, ...) for c in ROW_ORDER})


class DeckCardRow(CardRow):  # type: ignore[valid-type, misc]
    """A card row of a search for a deck (`deck=ID`): what adding one copy would do."""

    adds: list[str] | None = Field(None, description="With `deck`: the error rules adding a copy would break.")
    unverified: bool | None = Field(None, description="With `deck`: a rule could not be verified (unknown data).")
    available: int | None = Field(None, description="With `owned`: copies held beyond your other decks' use.")
    fills: list[str] | None = Field(None, description="With `deck`: the squares the deck leaves open that one copy "
                                                      "would cover (UL, UC, ... LR).")


class CardPage(Shape):
    total: int = Field(description="How many cards match every filter.")
    cards: list[DeckCardRow]


class Source(Shape):
    kind: str
    ref: str
    at: str
    text: str = Field(description="The sentence the card page shows.")
    href: str | None


class Owned(Shape):
    collection: str
    card_id: str
    set: str | None
    condition: str
    language: str
    foil: bool
    quantity: int
    trade_quantity: int
    want_quantity: int


class DeckUse(Shape):
    name: str
    format: str
    saved: str
    copies: int


class CardDetail(Shape):
    """GET /api/cards/{id}?detail=true: what the card's page shows."""

    card: CardRow  # type: ignore[valid-type]
    sources: dict[str, Source | None] = Field(description="Where each known rules value came from, by column "
                                                          "(null: stored before deckcheck kept provenance).")
    printings: list[CardRow]  # type: ignore[valid-type]
    owned: list[Owned]
    decks: list[DeckUse]


class RuleInfo(Shape):
    id: str
    severity: Literal["error", "warning"]
    text: str


class FormatInfo(Shape):
    name: str
    title: str
    game: str
    aliases: list[str]
    limits: dict[str, int]
    rules: list[RuleInfo]


# -- §4: collections --------------------------------------------------------------------------------
class Entry(Shape):
    """A collection-sheet row (§4) plus the exact printing; a priced entry adds price and currency."""

    card: str
    card_id: str
    set: str
    quantity: int
    condition: str
    language: str
    foil: bool
    trade_quantity: int
    want_quantity: int
    location: str
    notes: str
    price: float | None = Field(default=None, description="The amount of one copy (only on priced entries).")
    currency: str | None = Field(default=None, description="As written, '' when none was (only on priced entries).")


class Totals(Shape):
    entries: int
    copies: int
    distinct: int
    for_trade: int
    wanted: int
    value: float | None = Field(description="The total value when every priced entry shares a currency.")
    value_by_currency: dict[str, float]
    value_text: str
    priced_entries: int
    unpriced_entries: int


class PastImport(Shape):
    id: int = Field(description="What `POST /collection/undo` (field `import_id`) and `collection undo` name it by.")
    at: str
    when: str
    label: str
    mode: str
    changes: int


class CollectionView(Shape):
    collection: str
    collections: list[str]
    totals: Totals
    entries: list[Entry]
    last_import: PastImport | None = Field(description="The last import that can be undone (null: none).")


class Need(Shape):
    card: str
    set: str | None
    needed: int
    owned: int
    short: int
    card_id: str


class Missing(Shape):
    """The object of `collection missing --json`, each row with the card's id, and `short` in all."""

    collection: str
    decks: dict[str, list[Need]]
    together: list[Need]
    short: int


# -- §6: the tournament desk --------------------------------------------------------------------------
class EventRequest(Shape):
    name: str
    format: str
    deadline: str | None = Field(default=None, description="ISO 8601; without an offset, UTC.")
    expected: str | list[str] | None = Field(default=None, description="The players expected (one a line, or a list).")
    utc_offset: str | int | None = Field(default=None, description="The organiser's time zone (+01:00), for times on "
                                         "pages, printouts and reports; default: the deadline's offset, else UTC.")


class EventCreated(Shape):
    id: str
    organiser_token: str = Field(description="Shown once: only its hash is stored.")
    submit_url: str
    api_submit_url: str
    qr_url: str
    dashboard_url: str


class EventInfo(Shape):
    id: str
    name: str
    format: str
    deadline: str | None
    utc_offset: str = Field(description="The event's time zone, +HH:MM.")
    closed: bool
    open: bool
    locked_at: str | None = Field(description="When the lists were locked (the close, or the deadline once passed).")


class SubmitRequest(Shape):
    player: str
    decklist: str
    replaces: str | None = Field(default=None, description="the deck id of one of your earlier decks (your private "
                                 "link): this deck replaces it; without it a name another submission holds is numbered")


class SubmitForm(BaseModel):
    player: str
    decklist: str | None = None
    replaces: str | None = None
    file: bytes | None = Field(default=None, json_schema_extra={"format": "binary"})


class Submission(Report):
    """A submitted deck: the §3 report plus who sent it, when, and its private link."""

    player: str
    deck_id: str
    submissions: int
    submitted_at: str
    verdict: str
    fingerprint: str | None = None
    source: str | None = None
    cleaned: str = Field(description="The cleaned list: sections, card names, copies (what a deck check counts).")
    deck_url: str  # the keys in the order desk.submission_json writes them: FastAPI sends a model's order


class DeckCheckRequest(Shape):
    player: str
    judge: str
    counts: dict[str, int] = Field(description="Copies counted of each card, named as in a decklist; a card of the "
                                   "list not named counts 0.")
    note: str | None = ""


class Difference(Shape):
    card: str
    registered: int = Field(description="0 when the list does not register the card.")
    counted: int
    problem: Literal["list", "deck"] | None = Field(None, description=(
        '"list": the registered list is wrong (NOT LEGAL, or lines that did not read): the list is fixed; "deck": '
        "the list is legal and the deck does not match it. The distinction of the MTG Infraction Procedure Guide "
        "(3.4 Decklist Problem, 3.5 Deck Problem); no rule of the games covers deck checks. None on a check stored "
        "before it was kept."))
    why: str | None = Field(None, description="What made the difference that kind of problem, in words.")


class SectionTotal(Shape):
    registered: int
    counted: int


class AsCounted(Shape):
    verdict: str = Field(description="legal, NOT LEGAL, unreadable (or empty: nothing counted).")
    rules: list[str] = Field(description="The rules the deck as counted breaks.")


class DeckCheck(Shape):
    """A player's physical deck counted against their locked list."""

    id: str
    player: str
    deck_id: str
    fingerprint: str
    judge: str
    at: str = Field(description="ISO 8601 with the event's offset.")
    matches: bool
    differences: list[Difference]
    totals: dict[str, SectionTotal]
    counts: dict[str, int]
    note: str
    lines: list[str] = Field(description='Each difference in words ("Thrust: registered 3, counted 2").')
    as_counted: AsCounted | None = Field(None, description="The deck as counted checked on its own.")


class DrawRequest(Shape):
    n: int
    seed: str | None = None


class Draw(Shape):
    seed: str = Field(description="The same seed, while the same players are unchecked, draws the same players.")
    players: list[str]
    candidates: int = Field(description="How many players were not checked yet.")


class RoundRequest(Shape):
    seed: str | None = Field(None, description="Round 1's seed (later rounds use it too); random when missing.")
    top: int | None = Field(None, description="Start a top cut of 2, 4, 8, 16 or 32 players instead of a Swiss round.")


class RoundPairing(Shape):
    table: int
    a: str
    b: str | None = Field(description="null: a bye (a match won 2-0).")
    a_wins: int | None = None
    b_wins: int | None = None
    draws: int | None = None
    reported_by: str | None = None


class RoundStarted(Shape):
    round: int
    top: bool = False
    seed: str = ""
    pairings: list[RoundPairing]


class RoundInfo(Shape):
    round: int
    top: bool
    done: bool
    pairings: list[RoundPairing]


class PairingExport(RoundPairing):
    round: int
    top: bool


class ResultRequest(Shape):
    table: int
    a_wins: int
    b_wins: int
    draws: int = 0


class ResultStored(RoundPairing):
    round: int


class GamesResult(Shape):
    a_wins: int
    b_wins: int
    draws: int = 0


class ReportedResult(GamesResult):
    reported_by: str


class DisputeRequest(Shape):
    mine: int = Field(description="Games the disputing player won (their own side, as on their phone).")
    theirs: int
    draws: int = 0
    note: str | None = ""


class SettleRequest(Shape):
    decision: Literal["claim", "reported"] = Field(description='"claim": the result claimed becomes the table\'s; '
                                                   '"reported": the result reported stands.')


class Dispute(Shape):
    """A player's dispute of a reported result; the organiser settles it, and the next round waits for that."""

    id: str
    round: int
    table: int
    by: str = Field(description="The player disputing.")
    a: str
    b: str
    claimed: GamesResult = Field(description="The result the player claims, from the table's first player's side.")
    reported: ReportedResult = Field(description="The result reported when the dispute was made, and by whom.")
    note: str
    at: str = Field(description="ISO 8601 with the event's offset.")
    status: Literal["open", "settled"]
    decision: Literal["claim", "reported", "result"] | None = Field(None, description=(
        '"result": settled by the organiser entering the table\'s result.'))
    settled_at: str | None = None
    result: GamesResult | None = Field(None, description="The result the organiser entered, when that settled it.")


class JudgesList(Shape):
    judges: list[str] = Field(description="Account names, each holding the judge role: the event's judges.")


class DropRequest(Shape):
    player: str


class Dropped(Shape):
    player: str
    dropped_after: int = Field(description="The player is paired in no round after this one.")


class StandingLine(Shape):
    rank: int
    player: str
    points: int
    matches: int
    omw: float = Field(description="Opponents' match-win %, as a fraction, each opponent's at least 0.33.")
    gw: float = Field(description="Game-win %, as a fraction, at least 0.33.")
    ogw: float = Field(description="Opponents' game-win %, as a fraction, each opponent's at least 0.33.")
    wins: int = 0
    losses: int = 0
    draws: int = 0
    dropped: bool = False


class TournamentEntry(Report):
    """One deck of a tournament report (report.json, as the command line writes it): its §3 report and player."""

    player: str | None
    source: str | None = Field(default=None, description="The file name, or `pasted`.")
    submitted_at: str | None = None
    submissions: int | None = None
    fingerprint: str | None = None
    deckchecks: list[DeckCheck] = Field(default_factory=list, description="The desk's deck checks of this deck.")


def files(media: dict[str, type[BaseModel] | Any]) -> dict[int | str, dict[str, Any]]:
    """The 200 `responses` of a route that sends a file: {media type: the model of a JSON file, or None}."""
    from pydantic import TypeAdapter
    content = {kind.split(";")[0]: {"schema": TypeAdapter(shape).json_schema() if shape is not None
                      else {"type": "string", "format": "binary"}} for kind, shape in media.items()}
    return {200: {"description": "The file", "content": content}}


# -- card facts from players (CONTRACTS §6, revision 3) ----------------------------------------------
class FactsRequest(Shape):
    """POST /api/cards/{id}/facts: who, and values read off the card (§1 column names, card-sheet values)."""

    by: str = Field(description="Your name: the values are stored with provenance `web:NAME @ time`.")
    values: dict[str, str] = Field(description="Field -> value, e.g. {\"restriction\": \"3\"}; `unknown` allowed; "
                                               "`none` in restriction: no number printed.")


class Applied(Shape):
    card: str
    field: str
    old: str | None
    new: str | None
    source: str | None


class Proposal(Shape):
    id: int
    card: str = Field(description="The card's id.")
    name: str = Field(description="The card's name.")
    field: str
    old: str = Field(description="The value stored when it was proposed.")
    old_source: str
    value: str
    by: str
    at: str
    status: Literal["pending", "accepted", "rejected"]
    conflict: str | None = Field(description="Why it contradicts a named public source or an accepted value.")
    decided_by: str | None
    decided_at: str | None


class FactsAnswer(Shape):
    """200: the values applied (no admin token); 202: the proposals made (club server)."""

    applied: list[Applied]
    proposals: list[Proposal]


class ProposalList(Shape):
    proposals: list[Proposal]


class DecideRequest(Shape):
    """POST /api/proposals/{pid}/accept|reject: optionally who decided (default "the organiser")."""

    by: str | None = None


# -- accounts (CONTRACTS §9) ----------------------------------------------------------------------------
class SignInRequest(Shape):
    """POST /api/session."""

    name: str
    password: str


class Me(Shape):
    """GET /api/me: who is signed in (the keeper's name is "keeper")."""

    name: str
    roles: list[str]


class TokenRequest(Shape):
    """POST /api/tokens: what the token is for."""

    label: str = ""


class NewToken(Shape):
    """A new personal token, shown this once."""

    id: int
    token: str


class TokenInfo(Shape):
    id: int
    label: str
    created_at: str


class TokenList(Shape):
    tokens: list[TokenInfo]


class Revoked(Shape):
    id: int
    revoked: bool
