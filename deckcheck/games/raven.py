"""The Raven and the Stormcrow (seeds/raven-and-stormcrow.txt): a group of Hunters with Items, Prey, a Combat deck.

Format `raven-stormcrow`, rules RS-*. Card data (type, Renown, Health, Skill) comes from card sheets
(`game` = raven-stormcrow): no card list of this game exists.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType

from ..cards import Card
from ..decks import Deck, Entry
from ..formats import Format, Game, View, number_column
from ..report import ERROR, WARNING, Issue
from ..rules import UNSTAMPED, Params, a_word, data_unknown, error, names, number_word, plural, rule, rules_of
from ..text import normalize

NAME = "raven-stormcrow"
RAVEN_TYPES = frozenset({"Hunter", "Item", "Prey", "Event", "Wound"})
HUNTERS, ITEMS, PREY, COMBAT = "Hunters", "Items", "Prey", "Combat"
SECTION_OF_TYPE = MappingProxyType({"Hunter": HUNTERS, "Item": ITEMS, "Prey": PREY, "Event": COMBAT,
                                    "Wound": COMBAT})


@dataclass(frozen=True)
class RavenParams(Params):
    """The numbers of the RS rules."""

    hunters_min: int = 1
    renown_max: int = 40
    items_per_hunter: int = 1
    combat_min: int = 40
    prey_renown_max: int = 60


def renown_of(card: Card) -> int | None:
    """A card's Renown (the game's `renown` column); None when unknown."""
    return number_of(card, "renown")


def number_of(card: Card, column: str) -> int | None:
    """One of a card's numbers (the game's `renown`, `health`, `skill` columns); None when unknown."""
    value = card.extra_value(column)
    return value if isinstance(value, int) else None


class RavenView(View[RavenParams]):
    """A group seen by the RS rules: its sections, and each Item's Hunter."""

    def __init__(self, deck: Deck, params: RavenParams):
        self.deck = deck
        self.params = params
        self.sections: dict[str, list[Entry]] = defaultdict(list)
        for e in deck.entries:
            self.sections[e.section].append(e)

    def count(self, section: str) -> int:
        """How many cards one section holds."""
        return sum(e.quantity for e in self.sections.get(section, ()))

    def renown(self, *sections: str) -> tuple[int, list[Card]]:
        """Total Renown of the sections' cards, and the cards whose Renown is unknown."""
        total, unknown = 0, []
        for section in sections:
            for e in self.sections.get(section, ()):
                value = renown_of(e.card)
                if value is None:
                    unknown.append(e.card)
                else:
                    total += value * e.quantity
        return total, unknown

    @cached_property
    def hunters_by_name(self) -> dict[str, Card]:
        """The group's Hunters by folded name or title, for '@ Hunter' lines."""
        found = {}
        for e in self.sections.get(HUNTERS, ()):
            for written in (e.card.name, e.card.title):
                found[normalize(written)] = e.card
        return found


@rule("RS-HUNTERS", ERROR, "The group holds at least {hunters_min:word} Hunter.")
def hunters(v: RavenView) -> list[Issue]:
    limit = v.params.hunters_min
    count = v.count(HUNTERS)
    if count >= limit:
        return []
    held = f"{plural(count, 'Hunter')}; at least {limit} are required" if count else "no Hunter"
    short = limit - count
    return [error(f"the group holds {held}", limit=limit, actual=count,
                  fix="add a Hunter" if short == 1 else f"add {short} Hunters")]


@rule("RS-RENOWN", ERROR, "Hunters' Renown plus their Items' Renown is at most {renown_max}.",
      columns=("renown",), words="Renown limit not checked")
def renown(v: RavenView) -> list[Issue]:
    limit = v.params.renown_max
    total, unknown = v.renown(HUNTERS, ITEMS)
    cards = [e.card for s in (HUNTERS, ITEMS) for e in v.sections.get(s, ())]
    if total > limit:
        return [error(f"Hunters and Items are worth {total} Renown; at most {limit} is allowed", cards,
                      limit, total, f"remove Hunters or Items worth {total - limit} Renown")]
    if unknown:
        return [data_unknown(f"Renown unknown ({total} known)", unknown)]
    return []


@rule("RS-ITEM-PER-HUNTER", ERROR, "At most {items_per_hunter:word} Item is attached to each Hunter, and every "
                                   "Item is attached to a Hunter of the group.")
def item_per_hunter(v: RavenView) -> list[Issue]:
    out: list[Issue] = []
    per_hunter: dict[str, list[Entry]] = defaultdict(list)
    for e in v.sections.get(ITEMS, ()):
        if not e.attach:
            out.append(error(f"{e.card.name} is attached to no Hunter", [e.card],
                             fix=f"write '{e.card.name} @ Hunter name' to attach it, or remove it"))
            continue
        hunter = v.hunters_by_name.get(normalize(e.attach))
        if hunter is None:
            out.append(error(f"{e.card.name} is attached to {e.attach}, who is not a Hunter "
                             "of the group", [e.card], fix=f"attach {e.card.name} to a Hunter of the group"))
            continue
        per_hunter[hunter.name].append(e)
    limit = v.params.items_per_hunter
    for hunter_name, items in per_hunter.items():
        count = sum(e.quantity for e in items)
        if count > limit:
            out.append(error(f"{count} Items attached to {hunter_name}: "
                             f"{', '.join(names(e.card for e in items))}; at most {limit} "
                             f"{'is' if limit == 1 else 'are'} allowed",
                             [e.card for e in items], limit, count,
                             f"keep {number_word(limit)} Item{'' if limit == 1 else 's'} on {hunter_name}"))
    return out


@rule("RS-COMBAT-MIN", ERROR, "The Combat deck holds at least {combat_min} Combat cards (Events and Wounds).",
      columns=("type",), words="Combat card minimum not checked")
def combat_min(v: RavenView) -> list[Issue]:
    limit = v.params.combat_min
    combat = [e for e in v.sections.get(COMBAT, ()) if e.card.type in ("Event", "Wound")]
    count = sum(e.quantity for e in combat)
    unknown = [e.card for e in v.sections.get(COMBAT, ()) if e.card.type is None]
    if count >= limit:
        return []
    if unknown:
        return [data_unknown(f"card type unknown ({count} Combat cards known)", unknown)]
    return [error(f"the Combat deck holds {count} Combat cards; at least {limit} are required",
                  limit=limit, actual=count, fix=f"add {plural(limit - count, 'Event or Wound', 'Events or Wounds')}")]


@rule("RS-SECTION", ERROR, "Only Combat cards in the Combat deck; only Hunters, Items and Prey in their own sections.",
      columns=("type",), words="section of each card not checked")
def section(v: RavenView) -> list[Issue]:
    out: list[Issue] = []
    unknown = []
    for e in v.deck.entries:
        belongs = SECTION_OF_TYPE.get(e.card.type or "")
        if e.card.type is None:
            unknown.append(e.card)
        elif belongs is None:
            out.append(error(f"{e.card.name} is {a_word(e.card.type)}, not a card of this game", [e.card],
                             fix=f"remove {e.card.name}"))
        elif belongs != e.section:
            out.append(error(f"{e.card.name} is {a_word(e.card.type)} but stands in {e.section}", [e.card],
                             fix=f"move {e.card.name} to {belongs}"))
    if unknown:
        out.append(data_unknown("card type unknown", unknown))
    return out


@rule("RS-SKILL-REACH", WARNING, "A Hunter performs only Combat cards whose Skill is at most its own (with its "
                                 "Item's Skill bonus): a Combat card no Hunter of the group reaches is never played.",
      columns=("skill",), words="Skill of the Combat cards not checked")
def skill_reach(v: RavenView) -> list[Issue]:
    best, who, unknown = None, "", []
    for e in v.sections.get(HUNTERS, ()):
        skill = number_of(e.card, "skill")
        if skill is None:
            unknown.append(e.card)
            continue
        bonus = max((number_of(i.card, "skill") or 0 for i in v.sections.get(ITEMS, ())
                     if i.attach and v.hunters_by_name.get(normalize(i.attach)) is e.card), default=0)
        if best is None or skill + bonus > best:
            best, who = skill + bonus, e.card.name
    combat = [e.card for e in v.sections.get(COMBAT, ()) if e.card.type in ("Event", "Wound")]
    if unknown or best is None:
        return [data_unknown("Hunter Skill unknown", unknown)] if unknown and combat else []
    out: list[Issue] = []
    for card in dict.fromkeys(combat):
        needs = number_of(card, "skill")
        if needs is not None and needs > best:
            out.append(Issue(UNSTAMPED, WARNING, f"{card.name} needs Skill {needs}; the best Skill of the group is "
                             f"{best} ({who}), so no Hunter can perform it", names([card]), best, needs,
                             f"remove {card.name}, or add a Hunter (or Item) of Skill {needs}"))
    return out


@rule("RS-PREY-RENOWN", ERROR, "Prey put into play at the start are worth at most {prey_renown_max} Renown, "
                               "counted apart from Hunters and Items.",
      columns=("renown",), words="Prey Renown limit not checked")
def prey_renown(v: RavenView) -> list[Issue]:
    limit = v.params.prey_renown_max
    total, unknown = v.renown(PREY)
    if total > limit:
        return [error(f"the Prey are worth {total} Renown; at most {limit} is allowed",
                      [e.card for e in v.sections.get(PREY, ())], limit, total,
                      f"remove Prey worth {total - limit} Renown")]
    if unknown:
        return [data_unknown(f"Renown unknown ({total} known)", unknown)]
    return []


RAVEN_STORMCROW = Format(
    name="raven-stormcrow", title="The Raven and the Stormcrow", game=NAME,
    rules=rules_of(hunters, renown, item_per_hunter, combat_min, section, prey_renown, skill_reach),
    aliases=("raven", "stormcrow", "rs"),
    params=RavenParams(),
    sections=MappingProxyType({HUNTERS: ("hunters", "hunter"), ITEMS: ("items", "item"), PREY: ("prey",),
                               COMBAT: ("combat",)}),
    default_section=lambda card: SECTION_OF_TYPE.get(card.type or "", COMBAT),
    view=RavenView, source="seeds/raven-and-stormcrow.txt", card_list="Raven and the Stormcrow",
)

COLUMNS = (number_column("renown"), number_column("health"), number_column("skill"))
GAME = Game(NAME, (RAVEN_STORMCROW,), card_types=RAVEN_TYPES, columns=tuple(c.name for c in COLUMNS),
            extra_columns=COLUMNS, full_title="The Raven and the Stormcrow",
            data_unknown="HL-DATA-UNKNOWN",  # the id RULES.md gives every game's unverified rules
            settle={"renown": "the Renown printed on the card"},
            limit_words={"hunters_min": "At least {n} Hunter[s]",
                         "renown_max": "Hunters and their Items: at most {n} Renown",
                         "combat_min": "A Combat deck of at least {n} cards",
                         "prey_renown_max": "Prey at the start: at most {n} Renown"})
