"""What a check returns: issues (broken rules) and input errors, as values."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, NamedTuple, Sequence

from .problems import AMBIGUOUS_CARD as AMBIGUOUS_CARD, BAD_LINE as BAD_LINE, InputProblem as InputProblem
from .problems import PROBLEM_KINDS as PROBLEM_KINDS, UNKNOWN_CARD as UNKNOWN_CARD  # InputProblem's home: problems.py
from .problems import UNKNOWN_FORMAT as UNKNOWN_FORMAT, UNREADABLE as UNREADABLE, WRONG_SECTION as WRONG_SECTION
from .records import Records

if TYPE_CHECKING:
    from .cards import Card
    from .registered import Registered
    from .stats import DeckStats

ERROR = "error"
WARNING = "warning"
# The id a rule function gives a warning that card data kept it from deciding; the engine gives the warning its
# game's own id (deckcheck.formats.Game.data_unknown, RULES.md's HL-DATA-UNKNOWN for Highlander's rules).
DATA_UNKNOWN = "DATA-UNKNOWN"
DATA_UNKNOWN_SUFFIX = "-" + DATA_UNKNOWN  # every game's id for it ends so (deckcheck.formats.Game checks it)
# Between the rule a data-unknown warning could not decide and the reason, in its message (§3 names the rule there)
NOT_VERIFIED = " not verified: "


def is_data_unknown(rule_id: str) -> bool:
    """Whether an issue of this id says that card data kept a rule from deciding (any game's id for it)."""
    return rule_id == DATA_UNKNOWN or rule_id.endswith(DATA_UNKNOWN_SUFFIX)


class Issue(NamedTuple):
    """One broken rule: which rule, how bad, what is wrong, with which cards and numbers, and the fix; for a
    data-unknown warning, `undecided`: the id of the rule card data kept from deciding (None for any other issue).

    A NamedTuple rather than a frozen dataclass: immutable too, and several times cheaper to create.
    """

    rule: str
    severity: str
    message: str
    cards: tuple[str, ...] = ()
    limit: int | None = None
    actual: int | None = None
    fix: str | None = None
    undecided: str | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Issue:
        """An issue back from its §3 object. The object names an undecided rule only in its message (`RULE not
        verified: ...`; its shape is a contract), so this is the one place that reads the rule out of the text."""
        rule, message = str(data.get("rule", "")), str(data.get("message", ""))
        head, sep, _ = message.partition(NOT_VERIFIED)
        undecided = head if sep and is_data_unknown(rule) else None
        return cls(rule, str(data.get("severity", "")), message, tuple(data.get("cards") or ()), data.get("limit"),
                   data.get("actual"), data.get("fix"), undecided)

    def as_dict(self) -> dict[str, Any]:
        """The JSON object of CONTRACTS.md §3 (`undecided` is in its message)."""
        out: dict[str, object] = {"rule": self.rule, "severity": self.severity, "message": self.message,
                                  "cards": list(self.cards)}
        if self.limit is not None:
            out["limit"] = self.limit
        if self.actual is not None:
            out["actual"] = self.actual
        if self.fix is not None:
            out["fix"] = self.fix
        return out


@dataclass(frozen=True, slots=True)
class Coverage:
    """The squares of the grid (bit masks, deckcheck.cards) a deck's Basic Attacks can target and its Blocks defend."""

    attacks: int = 0
    blocks: int = 0


@dataclass(slots=True)
class Details:
    """What the terminal and the pages draw besides the issues (deckcheck.check.details_of); not part of §3.

    `coverage`: the game's view draws one (DeckView.coverage); `no_persona`: the format's words for a deck without
    a Persona; `stats`: the deck's statistics, for a game that has them (Game.stats); `unverified_cards`: each card
    an unverified rule waits on with the columns it lacks, for the fill-in form, which asks first about the cards
    played most (`unverified_copies`: copies by card id), and whose lines may be rewritten to name its printing
    (`unverified_lines`: the decklist lines of each card id's entries that name no set, in the deck's order).
    """

    coverage: Coverage | None = None
    no_persona: str | None = None
    stats: DeckStats | None = None
    unverified_cards: list[tuple[Card, list[str]]] = field(default_factory=list)
    unverified_copies: dict[str, int] = field(default_factory=dict)
    unverified_lines: dict[str, list[int]] = field(default_factory=dict)


@dataclass(slots=True)
class Report(Records):
    """The verdict on one deck. `legal` is derived: None with input errors, else no error-severity issue.

    `records()` gives one row per issue and per input error (columns RECORD_COLUMNS).
    """

    deck: str
    format: str
    persona: str | None = None
    counts: dict[str, int] = field(default_factory=dict)
    issues: list[Issue] = field(default_factory=list)
    input_errors: list[InputProblem] = field(default_factory=list)
    player: str | None = None
    details: Details = field(default_factory=Details)  # drawn besides the issues: filled by check.details_of
    notices: list[str] = field(default_factory=list)  # read but not an issue (cards under Sideboard:)
    # the cleaned list of what was read (deckcheck.registered.Registered), not part of the §3 object
    registered: Registered | None = field(default=None, compare=False, repr=False)
    # a deck with unreadable lines: the rules' report on the lines that read (check.provisional), not part of §3
    provisional: Report | None = field(default=None, compare=False, repr=False)

    @property
    def provisional_text(self) -> str:
        """"NOT CHECKED — and 3 errors in the lines that read" (or "— the lines that read break no rule") for a
        deck with a provisional report, else ""."""
        p = self.provisional
        if p is None or self.legal is not None:
            return ""
        n = len(p.errors)
        tail = f"and {n} error{'s' if n != 1 else ''} in the lines that read" if n else \
            "the lines that read break no rule"
        return f"NOT CHECKED — {tail}"

    @property
    def legal(self) -> bool | None:
        """None with input errors; else True when no issue has severity error."""
        if self.input_errors:
            return None
        return not any(i.severity == ERROR for i in self.issues)

    @property
    def errors(self) -> list[Issue]:
        """The issues of severity error."""
        return [i for i in self.issues if i.severity == ERROR]

    @property
    def warnings(self) -> list[Issue]:
        """The issues of severity warning."""
        return [i for i in self.issues if i.severity == WARNING]

    @property
    def exit_code(self) -> int:
        """0 legal, 1 not legal, 2 could not be checked (CONTRACTS.md §3)."""
        legal = self.legal
        return 2 if legal is None else (0 if legal else 1)

    record_columns = ("deck", "player", "format", "legal", "persona", "kind", "rule", "severity", "message", "cards",
                      "limit", "actual", "fix", "line", "text", "suggestions")

    def records(self) -> list[dict[str, Any]]:
        """One row per issue (kind 'issue') and per input error (kind: its InputProblem.kind)."""
        head: dict[str, Any] = {"deck": self.deck, "player": self.player, "format": self.format,
                                "legal": self.legal, "persona": self.persona}
        rows = [head | {"kind": "issue", "rule": i.rule, "severity": i.severity, "message": i.message,
                        "cards": ", ".join(i.cards), "limit": i.limit, "actual": i.actual, "fix": i.fix,
                        "line": None, "text": None, "suggestions": None} for i in self.issues]
        rows += [head | {"kind": e.kind, "rule": None, "severity": None, "message": e.message, "cards": None,
                         "limit": None, "actual": None, "fix": None, "line": e.line, "text": e.text,
                         "suggestions": ", ".join(e.suggestions)} for e in self.input_errors]
        return rows

    def as_dict(self) -> dict[str, Any]:
        """The JSON object of CONTRACTS.md §3."""
        return {"deck": self.deck, "format": self.format, "legal": self.legal, "persona": self.persona,
                "counts": dict(self.counts), "issues": [i.as_dict() for i in self.issues],
                "input_errors": [e.as_dict() for e in self.input_errors], "notices": list(self.notices),
                "unverified": self.unverified}

    @property
    def unverified(self) -> list[str]:
        """The ids of the rules card data kept from deciding (those the data-unknown warnings name), sorted (§3)."""
        return sorted({i.undecided for i in self.issues if i.undecided is not None})


def worst_exit_code(reports: Sequence[Report]) -> int:
    """The exit code for several decks: the worst of theirs."""
    return max((r.exit_code for r in reports), default=0)
