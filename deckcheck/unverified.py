"""The rules card data kept from deciding (CONTRACTS §3 `unverified`), said in words a player understands.

A rule whose card data is unknown reports HL-DATA-UNKNOWN instead of passing or failing; the issue names the
rule in its `undecided` field. Here each such rule becomes one `Unverified`: the rule in words ("copies limit
not checked"), the cards it waits on, the card-sheet columns they lack, and what would settle it ("the
Restriction number printed on the card"). Pure: reads reports only.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, Sequence

from .games import registry
from .report import Issue, Report

# What a player reads off a card to settle a core column (each game words its own: Game.settle).
SETTLE = {"type": "the card type printed on the card"}


def rule_columns() -> dict[str, tuple[str, ...]]:
    """The card-sheet columns each rule reads when it reports that data is missing (each game declares its own)."""
    return registry().rule_columns


def rule_words() -> dict[str, str]:
    """Each rule's words for a player, by rule id, as its game declares them (Game.rule_words)."""
    return registry().rule_words


@cache
def _settles() -> dict[str, dict[str, str]]:
    """What settles each column, for each rule: its game's words (Game.settle; two games may read a column of the
    same name differently) over the core's."""
    return {r.id: {**SETTLE, **game.settle} for game in reversed(registry().games) for fmt in game.formats
            for r in fmt.rules}


@dataclass(frozen=True)
class Unverified:
    """One rule card data kept from deciding: in words, its cards, the columns they lack, what settles it."""

    rule: str
    words: str
    cards: tuple[str, ...]
    columns: tuple[str, ...]
    settle: str

    def as_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "words": self.words, "cards": list(self.cards), "columns": list(self.columns),
                "settle": self.settle}

    def cards_text(self, limit: int = 10) -> str:
        """The cards, the first `limit` of them then 'and N more'."""
        shown = ", ".join(self.cards[:limit])
        rest = len(self.cards) - limit
        return f"{shown} and {rest} more" if rest > 0 else shown


def unverified_ids(report: Report) -> list[str]:
    """The ids of the rules card data kept from deciding, sorted (CONTRACTS §3 `unverified`)."""
    return report.unverified


def unverified(report: Report) -> list[Unverified]:
    """Each rule card data kept from deciding, in the order of the report's issues, its cards gathered."""
    columns_of = rule_columns()
    words, settles = rule_words(), _settles()
    cards: dict[str, dict[str, None]] = {}
    for issue in report.issues:
        if issue.undecided is not None:
            cards.setdefault(issue.undecided, {}).update(dict.fromkeys(issue.cards))
    out = []
    for rule, names in cards.items():
        columns = columns_of.get(rule, ())
        settle_of = settles.get(rule, SETTLE)
        settle = "; ".join(dict.fromkeys(settle_of.get(c, f"the card's {c}") for c in columns)) or "the card's data"
        out.append(Unverified(rule, words.get(rule, f"{rule} not checked"), tuple(names), columns, settle))
    return out


def decided_issues(report: Report, severity: str | None = None) -> list[Issue]:
    """The issues a report shows as issues (of one severity, or all): those an unverified group does not already say
    (a rule card data kept from deciding is one entry, its group, in every report a person reads)."""
    return [i for i in report.issues if i.undecided is None and (severity is None or i.severity == severity)]


def count_text(n: int) -> str:
    """'1 rule unverified', '2 rules unverified'."""
    return f"{n} rule{'' if n == 1 else 's'} unverified"


def verdict_text(verdict: str, report: Report) -> str:
    """A verdict with the number of unverified rules: `LEGAL — 2 rules unverified` (just the verdict when none)."""
    n = len(unverified_ids(report)) if report.legal is not None else 0
    return f"{verdict} — {count_text(n)}" if n else verdict


def names_of(groups: Sequence[Unverified]) -> list[str]:
    """Every card any unverified rule waits on, once, in order."""
    return list(dict.fromkeys(c for g in groups for c in g.cards))
