"""The rules card data kept from deciding (CONTRACTS §3 `unverified`), said in words a player understands.

A rule whose card data is unknown reports HL-DATA-UNKNOWN instead of passing or failing; its message
starts with the rule's id. Here each such rule becomes one `Unverified`: the rule in words ("copies limit
not checked"), the cards it waits on, the card-sheet columns they lack, and what would settle it ("the
Restriction number printed on the card"). Pure: reads reports only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from .report import Issue, Report, is_data_unknown

# The rule in words, for players (the id stays beside it for those who look it up in RULES.md).
WORDS = {
    "HL-RESTRICTED": "copies limit not checked",
    "HL-SECTION": "Pre-Game or Endurance placement not checked",
    "HL-RESERVED": "Reserved cards not checked",
    "HL-SIGNATURE": "Signature cards not checked",
    "HL-MASTER": "Master card allowance not checked",
    "HL-HAND-ICONS": "Hand icons limit not checked",
    "HL2-ATTACK-GRID": "Basic Attack coverage not checked",
    "HL2-BLOCK-GRID": "Block coverage not checked",
    "HL2-PREGAME-UNIQUE": "unique Pre-Game cards not checked",
    "HL2-GEMS": "gem limits not checked",
    "RS-RENOWN": "Renown limit not checked",
    "RS-PREY-RENOWN": "Prey Renown limit not checked",
    "RS-COMBAT-MIN": "Combat card minimum not checked",
    "RS-SECTION": "section of each card not checked",
    "TK-HEROES": "Heroes' playing cards not checked",
}
# What a player reads off the card to settle a column.
SETTLE = {
    "restriction": "the Restriction number printed on the card (or that none is printed)",
    "reserved": "whether the card shows the Reserved sword",
    "signature": "whether the card shows the Signature sword with an S",
    "hand_icons": "the number of Hand icons printed on the card",
    "grid": "the squares of the grid printed on the card",
    "type": "the card type printed on the card",
    "unique": "whether the card is marked unique",
    "gem_master": "the Master allowance printed on the Persona card",
    "renown": "the Renown printed on the card",
    "rank": "the playing card the Hero is tied to",
    "suit": "the playing card the Hero is tied to",
}


def undecided_rule(issue: Issue) -> str:
    """The rule an HL-DATA-UNKNOWN issue could not decide (its message starts with the rule id)."""
    return issue.message.split(" ", 1)[0]


def rule_columns() -> dict[str, tuple[str, ...]]:
    """The card-sheet columns each rule reads when it reports that data is missing (each game declares its own)."""
    from .games import GAMES
    from .rules import declared
    return {declared(check).id: columns for game in GAMES for check, columns in game.rule_columns.items()}


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
    cards: dict[str, dict[str, None]] = {}
    for issue in report.issues:
        if is_data_unknown(issue.rule):
            cards.setdefault(undecided_rule(issue), {}).update(dict.fromkeys(issue.cards))
    out = []
    for rule, names in cards.items():
        columns = columns_of.get(rule, ())
        settle = "; ".join(dict.fromkeys(SETTLE.get(c, f"the card's {c}") for c in columns)) or "the card's data"
        out.append(Unverified(rule, WORDS.get(rule, f"{rule} not checked"), tuple(names), columns, settle))
    return out


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
