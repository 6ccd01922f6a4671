"""The Highlander rules of RULES.md: HL-* (both formats), HL1-* (type1e) and HL2-* (type2).

Each rule reads a HighlanderView and returns issues; numbers come from the format's
parameters and the cards' modifiers, never from this file.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from typing import Callable, Hashable, Iterable, Sequence

from ... import grid as gridmod
from ...cards import ENDURANCE_TYPES, GEM_COLOURS, PREGAME_TYPES, Card, CardId
from ...decks import Entry
from ...report import ERROR, WARNING, Issue
from ...rules import (MayChange, SameFor, a_word, data_unknown, error, names, number_word, plural, rule, rules_of,
                      warning)
from ...text import normalize
from .params import HighlanderParams, Type1eParams, Type2Params
from .view import ENDURANCE, PREGAME, HighlanderView, folded, place_of


def _copies(entries: Iterable[Entry]) -> int:
    return sum(e.quantity for e in entries)


# -- what one more card may change (Rule.may_change): each rule's own reading of a card added to a deck ----------
View = HighlanderView[HighlanderParams]


def _never(_v: View, _card: Card, _section: str) -> bool:
    """A rule one more card can only satisfy (a minimum, a title present), or that has no errors to add."""
    return False


def _reshaping(card: Card) -> bool:
    """A card that changes what the view makes of the others: a Persona (whose deck it is) or a card with
    deck-building modifiers (limits, allowances, grants)."""
    return card.type == "Persona" or bool(card.modifiers)


def _foreign(v: View, card: Card) -> bool:
    """An Immortal Specific card that is not the played Persona's own (`others`: any, for a Generic Immortal)."""
    return card.immortal is not None and not v.is_own(card)


def _refusable(v: View, card: Card, section: str) -> bool:
    """HL-OTHER-PERSONA refuses Endurance cards of other Personas, in a deck with a Persona; a Persona or a card
    with modifiers changes whose cards are refused and how many a quota lets in."""
    return _reshaping(card) or (not v.is_generic and place_of(card, section) == ENDURANCE and _foreign(v, card))


def _generic_counted(v: View, card: Card, _section: str) -> bool:
    """HL-GENERIC-SPECIFIC counts Immortal Specific cards in a Generic Immortal's deck only (a Persona ends it)."""
    return card.type == "Persona" or (v.is_generic and card.immortal is not None)


def _reserved(v: View, card: Card, section: str) -> bool:
    """HL-RESERVED judges the Reserved cards of other Personas (and those of unknown mark) and which of them a
    modifier lets in. Quotas go to Reserved cards first, so one more card known not to be Reserved never takes a
    Reserved card's; by name it may take the quota of an Endurance card of unknown mark, which is then no longer
    asked about (HighlanderView.foreign)."""
    if _reshaping(card):
        return True
    if not _foreign(v, card):
        return False
    if card.reserved is not False:
        return True
    return place_of(card, section) == ENDURANCE and _unknown_let_in(v)


def _unknown_let_in(v: View) -> bool:
    """Whether a modifier lets in a card of another Persona whose Reserved mark is unknown."""
    allowed, _ = v.foreign
    return any(e.card.reserved is None for items in allowed.values() for e, _n in items)


def _signed(v: View, card: Card, _section: str) -> bool:
    """HL-SIGNATURE reads each card of another Persona alone: one known not to be a Signature card adds
    nothing."""
    return card.type == "Persona" or (_foreign(v, card) and card.signature is not False)


def _modifying(_v: View, card: Card, _section: str) -> bool:
    """A card no rule of its kind counts: only through its modifiers."""
    return bool(card.modifiers)


def _typed(kind: str) -> MayChange[View]:
    """A rule that counts the cards of one type (by its type, wherever written) and reads nothing of others."""
    def may_change(_v: View, card: Card, _section: str) -> bool:
        return card.type == kind
    may_change.__doc__ = f"Only a {kind} changes it."
    return may_change


def _pregame_or_modifying(_v: View, card: Card, section: str) -> bool:
    """The Pre-Game's count against its limit, which modifiers raise."""
    return place_of(card, section) == PREGAME or bool(card.modifiers)


# -- what of one more card decides what a rule says (Rule.same_for): each key for the cards may_change lets through --
def _quotas(v: View) -> bool:
    """Whether a modifier of the deck lets in cards of other Personas by count (other_persona_each, _total): then
    which cards a quota lets in goes by their names, and one more card may take another's."""
    return any(m.other_persona_each or m.other_persona_total for m in v.modifiers)


def _unless_persona(key: Callable[[Card], Hashable]) -> SameFor[View]:
    """A key of the card, a Persona alone (it changes whose deck it is)."""
    def same_for(_v: View, card: Card, _section: str) -> Hashable | None:
        return None if card.type == "Persona" else key(card)
    return same_for


def _pregame_key(_v: View, card: Card, section: str) -> Hashable:
    """HL1-PREGAME-MAX reads one more card as one more Pre-Game card or not, and the slots its modifiers add."""
    return place_of(card, section) == PREGAME, card.modifiers.pregame_extra


def _pregame_key_2e(v: View, card: Card, section: str) -> Hashable:
    """HL2-PREGAME-MAX counts Crystals apart."""
    return _pregame_key(v, card, section), card.type == "Crystal"


# -- HL-*: both formats ---------------------------------------------------------------------------
@rule("HL-DECK-MIN", ERROR, "The Endurance holds at least {deck_min} cards, or the minimum a modifier sets.",
      may_change=_modifying)  # one more card never shortens the Endurance: only a modifier raises the minimum
def deck_min(v: HighlanderView[HighlanderParams]) -> list[Issue]:
    out = []
    if v.endurance_count < v.deck_min:
        short = v.deck_min - v.endurance_count
        out.append(error(f"the Endurance holds {v.endurance_count} cards; at least {v.deck_min} are "
                         "required", limit=v.deck_min, actual=v.endurance_count,
                         fix=f"add {plural(short, 'card')} to the Endurance"))
    return out


def _title_at_max(v: View, card: Card, section: str) -> bool:
    """One more Endurance card of a title already at its limit (a title past it has its issue already)."""
    return place_of(card, section) == ENDURANCE and v.title_count.get(card.title_key, 0) >= v.params.title_max


@rule("HL-TITLE-MAX", ERROR, "At most {title_max} cards of one title in the Endurance, across Immortal names, "
                             "pictures, "
                             "versions and editions.", may_change=_title_at_max)
def title_max(v: HighlanderView[HighlanderParams]) -> list[Issue]:
    out = []
    limit = v.params.title_max
    for key, count in v.title_count.items():
        if count > limit:
            entries = v.by_title[key]
            title = entries[0].card.title
            out.append(error(f"{count} cards titled {title}; at most {limit} are allowed",
                             (e.card for e in entries), limit, count, f"remove {count - limit} {title}"))
    return out


def _restricted_again(v: View, card: Card, _section: str) -> bool:
    """A card with a Restriction number (or an unknown one) whose specific card the deck holds already: a single
    copy on a line of its own keeps every number and is never asked for one."""
    return card.restriction != 0 and card.specific_id in v.restricted_ids


@rule("HL-RESTRICTED", ERROR, "A specific card with a Restriction number N appears at most N times.",
      columns=("restriction",), words="copies limit not checked", may_change=_restricted_again)
def restricted(v: HighlanderView[HighlanderParams]) -> list[Issue]:
    out = []
    seen: set[CardId] = set()
    repeated: set[CardId] = set()  # specific cards written on several lines (printings, pictures): rare
    restricted_entries = [e for e in v.deck.entries if e.card.restriction != 0]  # 0: no number printed
    for e in restricted_entries:
        sid = e.card.specific_id
        if sid in seen:
            repeated.add(sid)
        else:
            seen.add(sid)
    by_id: dict[CardId, list[Entry]] = {}
    for e in restricted_entries:
        if e.card.specific_id in repeated:
            by_id.setdefault(e.card.specific_id, []).append(e)
    unknown: list[Card] = []
    entries: Sequence[Entry]
    for e in restricted_entries:  # in the deck's order; a specific card on several lines is judged at its first
        if e.card.specific_id in repeated:
            group = by_id.pop(e.card.specific_id, None)
            if group is None:
                continue
            limits = [x.card.restriction for x in group]
            if None in limits:
                unknown += [x.card for x in group]
                continue
            entries, count, limit = group, _copies(group), min(n for n in limits if n is not None)
        else:  # the usual case, one line per specific card: no list made (this rule runs on every deck)
            if e.quantity < 2:
                continue  # one copy keeps every Restriction number
            if e.card.restriction is None:
                unknown.append(e.card)
                continue
            entries, count, limit = (e,), e.quantity, e.card.restriction
        if count > limit:
            card = entries[0].card
            out.append(error(f"{count} copies of {card.name}, which has Restriction number {limit}",
                             (e.card for e in entries), limit, count, f"remove {count - limit} {card.name}"))
    if unknown:
        out.append(data_unknown("Restriction number unknown (the deck holds several copies)",
                                unknown))
    return out


def _pregame_type(card: Card) -> bool | None:
    """True for a Pre-Game card, False for an Endurance card, None when the type is unknown or no game card."""
    if card.is_pregame:
        return True
    if card.is_endurance:
        return False
    return None


_SECTION_OF = {t: PREGAME for t in PREGAME_TYPES} | {t: ENDURANCE for t in ENDURANCE_TYPES}


def _misplaced(_v: View, card: Card, section: str) -> bool:
    """A card whose type is unknown or not the section's: each card is judged alone."""
    return card.type is None or _SECTION_OF.get(card.type) != section


@rule("HL-SECTION", ERROR, "Pre-Game cards are not in the Endurance, and Endurance cards are not in the Pre-Game.",
      columns=("type",), words="Pre-Game or Endurance placement not checked", may_change=_misplaced)
def section(v: HighlanderView[HighlanderParams]) -> list[Issue]:
    out = []
    unknown: list[Card] = []
    for e in v.deck.entries:
        if e.card.type is not None and _SECTION_OF.get(e.card.type) == e.section:
            continue
        kind = _pregame_type(e.card)
        if kind is None:
            if e.card.type is None:
                unknown.append(e.card)
            else:
                out.append(error(f"{e.card.name} is {a_word(e.card.type)}, not a card of the game",
                                 [e.card], fix=f"remove {e.card.name}"))
        elif kind and e.section == ENDURANCE:
            out.append(error(f"{e.card.name} is a Pre-Game card ({e.card.type}) but stands in the "
                             "Endurance",
                             [e.card], fix=f"move {e.card.name} to the Pre-Game cards"))
        elif not kind and e.section == PREGAME:
            out.append(error(f"{e.card.name} is an Endurance card ({e.card.type}) but stands in the "
                             "Pre-Game", [e.card], fix=f"move {e.card.name} to the Endurance"))
    if unknown:
        out.append(data_unknown("card type unknown", unknown))
    return out


@rule("HL-PERSONA-COUNT", ERROR, "At most {persona_max:word} Persona card.", may_change=_typed("Persona"))
def persona_count(v: HighlanderView[HighlanderParams]) -> list[Issue]:
    out = []
    limit = v.params.persona_max
    count = _copies(v.personas)
    if count > limit:
        out.append(error(f"{count} Persona cards; at most {limit} {_is(limit)} allowed",
                         (e.card for e in v.personas), limit, count,
                         f"keep {number_word(limit)} Persona and remove {count - limit}"))
    return out


def _refused_key(v: View, card: Card, _section: str) -> Hashable | None:
    """HL-OTHER-PERSONA reports the refused cards by Immortal as written (`card.immortal`): where no quota lets
    cards in, one more card of another Persona in the Endurance is refused or not by itself alone (a Signature
    card always; a Master card is let in by master_any_persona), and adds to its Immortal's issue or makes one."""
    if _reshaping(card) or _quotas(v):
        return None
    return card.immortal, card.signature is True or not (v.master_any_persona and card.is_master)


@rule("HL-OTHER-PERSONA", ERROR, "With a Persona, the Endurance holds no Immortal Specific card of another "
                                 "Persona, except Clan cards and what a modifier allows.",
      may_change=_refusable, same_for=_refused_key)
def other_persona(v: HighlanderView[HighlanderParams]) -> list[Issue]:
    out = []
    _allowed, refused = v.foreign
    for who, items in refused.items():
        count = sum(n for _, n in items)
        listed = names(e.card for e, _ in items)
        out.append(error(f"{plural(count, 'card')} of {who} in {v.whose}: {', '.join(listed)}",
                         (e.card for e, _ in items), 0, count,
                         f"remove {count} {who} {'card' if count == 1 else 'cards'}"))
    return out


@rule("HL-GENERIC-SPECIFIC", ERROR, "A Generic Immortal includes at most {generic_specific_max} of each Immortal "
                                    "Specific card.",
      may_change=_generic_counted)
def generic_specific(v: HighlanderView[HighlanderParams]) -> list[Issue]:
    out: list[Issue] = []
    if not v.is_generic:
        return out
    limit = v.params.generic_specific_max
    groups: dict[CardId, list[Entry]] = defaultdict(list)
    for e in v.specific:
        groups[e.card.owner_title_id].append(e)
    for entries in groups.values():
        count = entries[0].quantity if len(entries) == 1 else _copies(entries)
        if count > limit:
            card = entries[0].card
            out.append(error(f"{count} copies of {card.immortal}'s {card.title}; a Generic "
                             f"Immortal may include {limit}", (e.card for e in entries), limit, count,
                             f"remove {count - limit} {card.name}"))
    return out


def _foreign_allowed(v: HighlanderView[HighlanderParams]) -> set[int]:
    if v.is_generic:
        return set()
    allowed, _ = v.foreign
    return {id(e) for items in allowed.values() for e, _ in items}


def _reserved_key(v: View, card: Card, section: str) -> Hashable | None:
    """Where no quota lets cards in, HL-RESERVED reads one more card of another Persona by its Reserved mark
    (unknown: a key of its own) and whether a modifier lets it in by itself (a Master card, master_any_persona)."""
    if _reshaping(card) or _quotas(v):
        return None
    let_in = (not v.is_generic and place_of(card, section) == ENDURANCE and card.signature is not True
              and v.master_any_persona and card.is_master)
    return card.reserved, let_in


@rule("HL-RESERVED", ERROR, "A Reserved card is included only by the Persona named on it, or where a modifier "
                            "allows it. A Generic Immortal includes none.",
      columns=("reserved",), words="Reserved cards not checked",
      may_change=_reserved, same_for=_reserved_key)
def reserved(v: HighlanderView[HighlanderParams]) -> list[Issue]:
    out = []
    allowed = _foreign_allowed(v)
    bad: list[Entry] = []
    unknown: list[Card] = []
    for e in v.others:
        card = e.card
        permitted = id(e) in allowed
        if card.reserved is None:
            if v.is_generic or permitted:
                unknown.append(card)
        elif card.reserved and not (permitted and card.signature is not True):
            bad.append(e)
    for e in bad:
        out.append(error(f"{e.card.name} is Reserved for {e.card.immortal}; it cannot be included by "
                         f"{v.whose}", [e.card], 0, e.quantity, f"remove {e.quantity} {e.card.name}"))
    if unknown:
        out.append(data_unknown("Reserved mark unknown", unknown))
    return out


@rule("HL-SIGNATURE", ERROR, "A Signature card is included only by the Persona named on it. No modifier lifts "
                             "this.",
      columns=("signature",), words="Signature cards not checked",
      may_change=_signed, same_for=_unless_persona(lambda card: (card.signature,)))  # True, False or None (unknown)
def signature(v: HighlanderView[HighlanderParams]) -> list[Issue]:
    out = []
    unknown: list[Card] = []
    for e in v.others:
        card = e.card
        if card.signature is None:
            unknown.append(card)
        elif card.signature:
            out.append(error(f"{card.name} is a Signature card of {card.immortal}; it cannot be "
                             f"included by {v.whose}", [card], 0, e.quantity, f"remove {e.quantity} {card.name}"))
    if unknown:
        out.append(data_unknown("Signature mark unknown", unknown))
    return out


def _master(_v: View, card: Card, section: str) -> bool:
    """A Master card in the Endurance, or a Persona (whose allowance counts)."""
    return card.type == "Persona" or (card.is_master and place_of(card, section) == ENDURANCE)


@rule("HL-MASTER", ERROR, "Master cards are at most the Persona's Master allowance; a Generic Immortal includes "
                          "none.",
      columns=("gem_master",), words="Master card allowance not checked", may_change=_master,
      same_for=_unless_persona(lambda _card: ()))  # one more Master card in the Endurance: counted, never named
def master(v: HighlanderView[HighlanderParams]) -> list[Issue]:
    out: list[Issue] = []
    masters = [e for e in v.endurance if e.card.is_master]
    count = _copies(masters)
    if not count:
        return out
    if v.persona is None:
        limit = 0
    elif v.persona.gem_master is None:
        out.append(data_unknown(f"the Master allowance of {v.persona.name} is unknown "
                                f"({plural(count, 'Master card')} in the deck)", [v.persona]))
        return out
    else:
        limit = v.persona.gem_master
    if count > limit:
        who = "a Generic Immortal may include none" if v.persona is None else \
            f"{v.persona.name} allows {limit}"
        out.append(error(f"{plural(count, 'Master card')}; {who}", (e.card for e in masters), limit,
                         count, f"remove {count - limit} Master {'card' if count - limit == 1 else 'cards'}"))
    return out


def _weapon(_v: View, card: Card, _section: str) -> bool:
    """A card with a Weapon: one that needs its Weapon of Choice, or that Weapon of Choice."""
    return bool(card.weapon_key)


@rule("HL-WEAPON-SPECIFIC", ERROR, "A Weapon Specific card is included only with the matching Weapon of Choice.",
      may_change=_weapon)
def weapon_specific(v: HighlanderView[HighlanderParams]) -> list[Issue]:
    out = []
    wielded = {e.card.weapon_key for e in v.by_type.get("Weapon of Choice", ())}
    missing: dict[str, list[Entry]] = defaultdict(list)
    for e in v.deck.entries:
        card = e.card
        if card.weapon_key and card.type != "Weapon of Choice" and card.weapon_key not in wielded:
            missing[card.weapon or ""].append(e)
    for weapon, entries in missing.items():
        count = _copies(entries)
        out.append(error(f"{plural(count, 'card')} for the {weapon} without the {weapon} Weapon "
                         f"of Choice: {', '.join(names(e.card for e in entries))}", (e.card for e in entries), 0, count,
                         f"add the {weapon} Weapon of Choice to the Pre-Game cards, or remove these cards"))
    return out


def _woc(_v: View, card: Card, _section: str) -> bool:
    """A Weapon of Choice, or a card whose modifiers may change how many are allowed."""
    return card.type == "Weapon of Choice" or bool(card.modifiers)


@rule("HL-WOC-COUNT", ERROR, "At most {woc_max:word} Weapon of Choice, unless a modifier allows more.",
      may_change=_woc)
def woc_count(v: HighlanderView[HighlanderParams]) -> list[Issue]:
    out = []
    wocs = v.by_type.get("Weapon of Choice", [])
    count = _copies(wocs)
    if count > v.woc_max:
        out.append(error(f"{count} Weapons of Choice; at most {v.woc_max} allowed",
                         (e.card for e in wocs), v.woc_max, count, f"remove {count - v.woc_max} Weapon of Choice"))
    return out


def _hands(_v: View, card: Card, section: str) -> bool:
    """A Pre-Game card carrying Hand icons (or of unknown icons), or a Weapon of Choice (which sets the limit)."""
    return card.type == "Weapon of Choice" or (place_of(card, section) == PREGAME and card.hand_icons != 0)


@rule("HL-HAND-ICONS", ERROR, "The Pre-Game cards carry at most {hand_max} Hand icons together (type1e without a "
                              "Weapon of Choice: 1).",
      columns=("hand_icons",), words="Hand icons limit not checked", may_change=_hands,
      same_for=lambda _v, card, _section: (card.type == "Weapon of Choice", card.hand_icons))  # None: unknown
def hand_icons(v: HighlanderView[HighlanderParams]) -> list[Issue]:
    out = []
    limit = v.params.hand_max
    if not v.by_type.get("Weapon of Choice") and v.params.hand_max_without_woc is not None:
        limit = v.params.hand_max_without_woc  # type1e: counted as wielding a one-handed weapon
    known = [(e, e.card.hand_icons) for e in v.pregame if e.card.hand_icons]
    total = sum(icons * e.quantity for e, icons in known)
    unknown = [e.card for e in v.pregame if e.card.hand_icons is None]
    if total > limit:
        out.append(error(f"the Pre-Game cards carry {plural(total, 'Hand icon')}; at most {limit} {_is(limit)} "
                         "allowed", (e.card for e, _ in known), limit, total,
                         f"remove Pre-Game cards carrying {plural(total - limit, 'Hand icon')}"))
    elif unknown:
        out.append(data_unknown(f"Hand icons unknown ({total} known)", unknown))
    return out


def _premium(_v: View, card: Card, _section: str) -> bool:
    """A Premium, or a Persona (whom the Premiums must fit)."""
    return card.type in ("Premium", "Persona")


@rule("HL-PREMIUM", ERROR, "A Premium made for one Persona needs that Persona; a Premium naming no Persona fits "
                           "any deck.", may_change=_premium,
      same_for=_unless_persona(lambda card: (card.immortal_key,)))  # a Premium is judged by its Persona alone
def premium(v: HighlanderView[HighlanderParams]) -> list[Issue]:
    out = []
    for e in v.by_type.get("Premium", ()):
        card = e.card
        if card.immortal_key is None:
            continue  # a Premium that names no Persona: any deck may use it, a Generic Immortal included
        if v.persona_key is None:
            out.append(error(f"{card.name} is made for {card.immortal}; a Generic Immortal cannot "
                             "use it", [card], fix=f"remove {card.name}, or play the {card.immortal} Persona"))
        elif v.persona is not None and card.immortal_key != v.persona_key and not v.is_own(card):
            out.append(error(f"{card.name} is made for {card.immortal}; this deck plays "
                             f"{v.persona.immortal or v.persona.name}", [card],
                             fix=f"remove {card.name}, or play the {card.immortal} Persona"))
    return out


# -- HL1-*: type1e ---------------------------------------------------------------------------------
def _required_titles(v: HighlanderView[Type1eParams], titles: tuple[str, ...], kind: str) -> list[Issue]:
    """One issue listing the titles of a format parameter that the Endurance lacks (none when all are there)."""
    present = v.endurance_titles
    missing = [name for name, key in folded(titles) if key not in present]
    if not missing:
        return []
    return [error(f"missing {plural(len(missing), kind)}: {', '.join(missing)}", limit=len(titles),
                  actual=len(titles) - len(missing), fix=f"add {', '.join(missing)}")]


@rule("HL1-BASIC-ATTACKS", ERROR, "At least one of each of the {basic_attacks:word} Basic Attacks.",
      may_change=_never)
def basic_attacks(v: HighlanderView[Type1eParams]) -> list[Issue]:
    return _required_titles(v, v.params.basic_attacks, "Basic Attack")


@rule("HL1-BASIC-BLOCKS", ERROR, "At least one of each of the {basic_blocks:word} Basic Blocks.",
      may_change=_never)
def basic_blocks(v: HighlanderView[Type1eParams]) -> list[Issue]:
    return _required_titles(v, v.params.basic_blocks, "Basic Block")


@rule("HL1-PREGAME-MAX", ERROR, "At most {pregame_max} Pre-Game cards in all, plus what modifiers add.",
      may_change=_pregame_or_modifying, same_for=_pregame_key)
def pregame_max_1e(v: HighlanderView[Type1eParams]) -> list[Issue]:
    out = []
    limit = v.params.pregame_max + v.pregame_extra
    if v.pregame_count > limit:
        out.append(error(f"{v.pregame_count} Pre-Game cards; at most {limit} are allowed",
                         (e.card for e in v.pregame), limit, v.pregame_count,
                         f"remove {plural(v.pregame_count - limit, 'Pre-Game card')}"))
    return out


@rule("HL1-WATCHER-COUNT", ERROR, "At most {watcher_max:word} Watcher Pre-Game card.", may_change=_typed("Watcher"))
def watcher_count(v: HighlanderView[Type1eParams]) -> list[Issue]:
    out = []
    limit = v.params.watcher_max
    watchers = list(v.by_type.get("Watcher", ()))
    count = _copies(watchers)
    if count > limit:
        out.append(error(f"{count} Watcher Pre-Game cards; at most {limit} {_is(limit)} allowed",
                         (e.card for e in watchers), limit, count,
                         f"keep {number_word(limit)} Watcher and remove {count - limit}"))
    return out


# -- HL2-*: type2 ----------------------------------------------------------------------------------
def _title_held(v: View, card: Card, section: str) -> bool:
    """An Endurance card of a title the Endurance holds already (a title of its own is of one edition)."""
    return place_of(card, section) == ENDURANCE and card.title_key in v.title_count


@rule("HL2-EDITION-MIX", ERROR, "All Endurance cards of one title come from one edition.", may_change=_title_held)
def edition_mix(v: HighlanderView[Type2Params]) -> list[Issue]:
    out: list[Issue] = []
    for entries in v.by_title.values():
        editions = sorted({e.card.edition for e in entries})
        if len(editions) > 1:
            title = entries[0].card.title
            per: Counter[int] = Counter()
            for e in entries:
                per[e.card.edition] += e.quantity
            keep = max(per, key=lambda ed: (per[ed], -ed))
            out.append(error(f"{title} comes from editions {', '.join(map(str, editions))}; "
                             "all cards of one title must share one edition", (e.card for e in entries),
                             fix=f"use only edition {keep} {title} cards"))
    return out


@rule("HL2-SLEEVES", WARNING, "The deck mixes editions: opaque sleeves of one colour are required.",
      may_change=_never)
def sleeves(v: HighlanderView[Type2Params]) -> list[Issue]:
    out: list[Issue] = []
    editions = sorted({e.card.edition for e in v.endurance})
    if len(editions) > 1:
        out.append(warning(f"the Endurance mixes editions {', '.join(map(str, editions))}; their backs "
                           "differ", fix="play the deck in opaque sleeves of one colour"))
    return out


def _coverage(entries: list[Entry], squares: tuple[str, ...], what: str) -> list[Issue]:
    out: list[Issue] = []
    needed = gridmod.mask_of(squares)
    covered = 0
    unknown: list[Card] = []
    for e in entries:
        if e.card.grid is None:
            unknown.append(e.card)
        else:
            covered |= e.card.grid
    missing = needed & ~covered
    if not missing:
        return out
    if unknown:
        out.append(data_unknown(f"grid unknown (squares {gridmod.format_grid(missing)} not covered by the "
                                "known grids)", unknown))
        return out
    uncovered = gridmod.squares_of(missing)
    out.append(error(f"the {what} do not cover {plural(len(uncovered), 'square')}: "
                     f"{', '.join(gridmod.SQUARE_NAMES[s] for s in uncovered)}", limit=bin(needed).count("1"),
                     actual=bin(needed & covered).count("1"),
                     fix=f"add {what} covering {' '.join(uncovered)}"))
    return out


def _basic_attack(_v: View, card: Card, section: str) -> bool:
    """A Basic Attack in the Endurance (its grid known or not)."""
    return card.basic and card.type == "Attack" and place_of(card, section) == ENDURANCE


@rule("HL2-ATTACK-GRID", ERROR, "The Basic Attack cards together cover all {attack_squares} squares.",
      columns=("grid",), words="Basic Attack coverage not checked", may_change=_basic_attack)
def attack_grid(v: HighlanderView[Type2Params]) -> list[Issue]:
    out = []
    entries = [e for e in v.endurance if e.card.basic and e.card.type == "Attack"]
    out.extend(_coverage(entries, v.params.attack_squares, "Basic Attacks"))
    return out


def _block(_v: View, card: Card, section: str) -> bool:
    """A Block in the Endurance (its grid known or not)."""
    return card.type == "Block" and place_of(card, section) == ENDURANCE


@rule("HL2-BLOCK-GRID", ERROR, "The Block cards together cover the {block_squares} squares of the upper and lower "
                               "rows.",
      columns=("grid",), words="Block coverage not checked", may_change=_block)
def block_grid(v: HighlanderView[Type2Params]) -> list[Issue]:
    out = []
    entries = [e for e in v.endurance if e.card.type == "Block"]
    out.extend(_coverage(entries, v.params.block_squares, "Blocks"))
    return out


@rule("HL2-PREGAME-MAX", ERROR, "The Pre-Game deck holds at most {pregame_max} cards that are not Crystals, plus "
                                "{crystal_max} Crystal.", may_change=_pregame_or_modifying,
      same_for=_pregame_key_2e)
def pregame_max_2e(v: HighlanderView[Type2Params]) -> list[Issue]:
    out = []
    crystals = [e for e in v.pregame if e.card.type == "Crystal"]
    others = [e for e in v.pregame if e.card.type != "Crystal"]
    limit = v.params.pregame_max + v.pregame_extra
    count = _copies(others)
    if count > limit:
        out.append(error(f"{count} Pre-Game cards besides Crystals; at most {limit} are allowed",
                         (e.card for e in others), limit, count, f"remove {count - limit} Pre-Game "
                         f"{'card' if count - limit == 1 else 'cards'}"))
    crystal_max = v.params.crystal_max
    count = _copies(crystals)
    if count > crystal_max:
        out.append(error(f"{count} Crystals in the Pre-Game; at most {crystal_max} {_is(crystal_max)} "
                         "allowed", (e.card for e in crystals), crystal_max, count,
                         f"keep {number_word(crystal_max)} Crystal and remove {count - crystal_max}"))
    return out


def _pregame(_v: View, card: Card, section: str) -> bool:
    """A Pre-Game card."""
    return place_of(card, section) == PREGAME


@rule("HL2-PREGAME-UNIQUE", ERROR, "Of a Pre-Game card marked unique, at most {unique_max:word} card of that title "
                                   "(all Crystals share the title Crystal).",
      columns=("unique",), words="unique Pre-Game cards not checked", may_change=_pregame)
def pregame_unique(v: HighlanderView[Type2Params]) -> list[Issue]:
    out = []
    groups: dict[str, list[Entry]] = defaultdict(list)
    unknown: list[Card] = []
    pregame_titles: Counter[str] = Counter()
    for e in v.pregame:
        pregame_titles[e.card.title_key] += e.quantity
    crystals = sum(e.quantity for e in v.pregame if e.card.type == "Crystal")
    for e in v.pregame:
        if e.card.type == "Persona":  # more than one Persona is HL-PERSONA-COUNT's one issue
            continue
        if e.card.type == "Crystal":
            if crystals <= v.params.crystal_max:  # more Crystals than allowed: HL2-PREGAME-MAX says it, once
                groups["crystal"].append(e)
        elif e.card.unique:
            groups[e.card.title_key].append(e)
        elif e.card.unique is None and pregame_titles[e.card.title_key] > 1:
            unknown.append(e.card)
    limit = v.params.unique_max
    for key, entries in groups.items():
        count = _copies(entries)
        if count > limit:
            title = "Crystal" if key == "crystal" else entries[0].card.title
            out.append(error(f"{count} unique Pre-Game cards titled {title}; at most {limit} {_is(limit)} allowed",
                             (e.card for e in entries), limit, count,
                             f"keep {number_word(limit)} {title} and remove {count - limit}"))
    if unknown:
        out.append(data_unknown("unique mark unknown (several cards of one title)", unknown))
    return out


def _gems(_v: View, card: Card, section: str) -> bool:
    """An Endurance card with gem icons other than Master (or unknown ones), or a Persona (whose values they are
    held to)."""
    return card.type == "Persona" or (place_of(card, section) == ENDURANCE
                                      and any(card.gem(colour) != 0 for colour in GEM_COLOURS[1:]))


@rule("HL2-GEMS", ERROR, "Gem icons of each colour but Master add up to at most {gem_factor} x the Persona's "
                         "value.",
      columns=tuple(f"gem_{c}" for c in GEM_COLOURS[1:]), words="gem limits not checked", may_change=_gems)
def gems(v: HighlanderView[Type2Params]) -> list[Issue]:
    out: list[Issue] = []
    if v.persona is None or v.is_generic:  # no gem limit is stated for a Generic Immortal
        return out
    factor = v.params.gem_factor
    for colour in GEM_COLOURS[1:]:
        carrying = [(e, icons) for e in v.endurance if (icons := e.card.gem(colour))]
        total = sum(icons * e.quantity for e, icons in carrying)
        unknown_cards = [e.card for e in v.endurance if e.card.gem(colour) is None]
        allowance = v.persona.gem(colour)
        if allowance is None:
            if total or unknown_cards:
                out.append(data_unknown(f"the {colour.title()} gem value of {v.persona.name} is unknown "
                                        f"({total} {colour.title()} icons in the Endurance)",
                                        [v.persona] + [e.card for e, _ in carrying]))
            continue
        limit = factor * allowance
        if total > limit:
            out.append(error(f"{total} {colour.title()} gem icons in the Endurance; {v.persona.name} "
                             "allows "
                             f"{limit} ({factor} x {allowance})", (e.card for e, _ in carrying), limit, total,
                             f"remove cards carrying {total - limit} {colour.title()} icons"))
        elif unknown_cards:
            out.append(data_unknown(f"{colour.title()} gem icons unknown ({total} of {limit} known)",
                                    unknown_cards))
    return out


def _permission(_v: View, card: Card, _section: str) -> bool:
    """A card that needs a permission, or one whose modifiers may grant one."""
    return bool(card.requires) or bool(card.modifiers)


@rule("HL2-PERMISSION", ERROR, "A card that needs a permission is included only if a Pre-Game card grants it.",
      may_change=_permission)
def permission(v: HighlanderView[Type2Params]) -> list[Issue]:
    out = []
    missing: dict[str, list[Entry]] = defaultdict(list)
    for e in v.deck.entries:
        for tag in sorted(e.card.requires):
            if normalize(tag) not in v.grants:
                missing[tag].append(e)
    for tag, entries in missing.items():
        count = _copies(entries)
        out.append(error(f"{plural(count, 'card')} need the permission {tag!r}, which no Pre-Game "
                         f"card grants: {', '.join(names(e.card for e in entries))}", (e.card for e in entries), 0,
                         count, f"add a Pre-Game card that grants {tag}, or remove these cards"))
    return out


def _subtyped(_v: View, card: Card, _section: str) -> bool:
    """A card with a subtype (Watcher and Hunter are subtypes)."""
    return bool(card.subtype)


@rule("HL2-WATCHER-HUNTER", ERROR, "Watcher cards and Hunter cards exclude each other.", may_change=_subtyped)
def watcher_hunter(v: HighlanderView[Type2Params]) -> list[Issue]:
    out = []
    kinds = {k.lower(): k for k in v.params.exclusive_subtypes}
    found: dict[str, list[Entry]] = defaultdict(list)
    for e in v.deck.entries:
        for sub in e.card.subtype:
            if sub.lower() in kinds:
                found[kinds[sub.lower()]].append(e)
    if len(found) > 1:
        counts = {k: _copies(es) for k, es in found.items()}
        fewer = min(counts, key=lambda k: counts[k])
        out.append(error("the deck holds " + " and ".join(
                         f"{plural(n, k + ' card')}" for k, n in counts.items()) + "; they exclude each other",
                         (e.card for es in found.values() for e in es), fix=f"remove the {counts[fewer]} {fewer} "
                         f"{'card' if counts[fewer] == 1 else 'cards'}"))
    return out


def _is(n: int) -> str:
    return "is" if n == 1 else "are"


BOTH = (deck_min, title_max, restricted, section, persona_count, other_persona, generic_specific, reserved,
        signature, master, weapon_specific, woc_count, hand_icons, premium)
TYPE1E = rules_of(*BOTH, basic_attacks, basic_blocks, pregame_max_1e, watcher_count)
TYPE2 = rules_of(*BOTH, edition_mix, sleeves, attack_grid, block_grid, pregame_max_2e, pregame_unique, gems,
                 permission, watcher_hunter)
