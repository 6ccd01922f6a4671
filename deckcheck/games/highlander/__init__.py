"""Highlander: The Card Game, 1st edition (type1e) and 2nd edition Type 2 (type2).

The game's declaration: card types, formats with their sections and parameters. Its rules are the
plain functions of `rules.py` beside this file (HL-*, HL1-*, HL2-*), which read the HighlanderView of
`view.py`; the rule engine they use (`@rule`, Params, the message helpers) is deckcheck.rules.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from ...cards import DEFAULT_GAME, ENDURANCE_TYPES, PREGAME_TYPES, Card
from ...formats import Format, Game, Heading, find_format
from . import rules as hl
from .fields import COUNTED, FIELDS, card_problems
from .params import Type1eParams, Type2Params
from .view import ENDURANCE, PREGAME, HighlanderView

if TYPE_CHECKING:  # the statistics are imported when asked for (tests/test_layers.py: LAZY)
    from ...decks import Deck
    from ...report import Report
    from ...stats import DeckStats

HIGHLANDER = DEFAULT_GAME  # card sheets without a `game` column are Highlander's (CONTRACTS §1)
SECTIONS = MappingProxyType({PREGAME: ("pre game", "pregame"), ENDURANCE: ("endurance", "deck", "main")})

# The headings of a Highlander decklist that name kinds of card (`Attacks:`, `Persona: Duncan MacLeod`),
# folded and singular: the section the cards go to and the card types the heading names (None: any).
_ENDURANCE_KINDS: dict[str, frozenset[str] | None] = {
    "attack": frozenset({"Attack", "Special Attack", "Attack/Defense"}),
    "basic attack": frozenset({"Attack"}),
    "block": frozenset({"Block", "Attack/Defense"}),
    "defense": frozenset({"Block", "Dodge", "Attack/Defense"}),
    "defence": frozenset({"Block", "Dodge", "Attack/Defense"}),
    "dodge": frozenset({"Dodge"}),
    "guard": frozenset({"Block", "Dodge", "Attack/Defense"}),
    "special": frozenset({"Special Attack", "Attack"}),
    "special attack": frozenset({"Special Attack", "Attack"}),
    "event": frozenset({"Event"}),
    "situation": frozenset({"Situation"}),
    "edge": frozenset({"Edge"}),
    "location": frozenset({"Location"}),
    "object": frozenset({"Object"}),
    "plot": frozenset({"Plot"}),
    "ally": None,  # Ally is a subtype of several types: any Endurance card
    "illusion": frozenset({"Illusion"}),
}
_PREGAME_KINDS: dict[str, frozenset[str] | None] = {
    "persona": frozenset({"Persona"}),
    "weapon of choice": frozenset({"Weapon of Choice"}),
    "weapon": frozenset({"Weapon of Choice"}),
    "watcher": frozenset({"Watcher"}),
    "premium": frozenset({"Premium"}),
    "quickening": frozenset({"Quickening"}),
    "crystal": frozenset({"Crystal"}),
}
# a Pre-Game heading line may carry its one card: `Persona: Duncan MacLeod`
HEADINGS = MappingProxyType({**{w: Heading(ENDURANCE, k) for w, k in _ENDURANCE_KINDS.items()},
                             **{w: Heading(PREGAME, k, inline=True) for w, k in _PREGAME_KINDS.items()}})
PLURALS = MappingProxyType({"ally": "allies", "defense": "defenses", "defence": "defences",
                            "weapon of choice": "weapons of choice"})
_WORDS = {  # the headings Highlander players write in French, German and Japanese -> the English word they mean
    "attack": "attaque, attaques, angriff, angriffe, 攻撃, アタック",
    "block": "parade, parades, blocage, blocages, blöcke, 防御, ブロック",
    "defense": "défense, défenses, verteidigung, verteidigungen",
    "dodge": "esquive, esquives, ausweichen, 回避, ドッジ",
    "special": "spéciale, spéciales, spezial, spezialkarten, スペシャル",
    "special attack": "attaque spéciale, attaques spéciales, spezialangriff, spezialangriffe, 特殊攻撃",
    "event": "événement, événements, ereignis, ereignisse, イベント",
    "situation": "situationen, シチュエーション",
    "edge": "avantage, avantages, vorteil, vorteile, エッジ",
    "location": "lieu, lieux, ort, orte, ロケーション, 場所",
    "object": "objet, objets, gegenstand, gegenstände, オブジェクト",
    "plot": "intrigue, intrigues, plan, pläne, プロット",
    "ally": "allié, alliés, verbündeter, verbündete, 味方",
    "illusion": "illusionen, イリュージョン",
    "persona": "personnage, personnages, personas, ペルソナ",
    "weapon of choice": "arme de prédilection, lieblingswaffe, waffe der wahl, 愛用の武器",
    "weapon": "arme, armes, waffe, waffen, 武器",
    "watcher": "observateur, observateurs, beobachter, ウォッチャー",
    "premium": "prime, primes, プレミアム",
    "quickening": "クイックニング",
    "crystal": "cristal, cristaux, kristall, kristalle, クリスタル",
    "endurance": "ausdauer, 耐久, エンデュランス, デッキ",
    "pre-game": "pré-jeu, avant-jeu, vorspiel, プレゲーム, ゲーム前",
    "sideboard": "réserve, nebendeck, サイドボード, サイド",
}
HEADING_WORDS = MappingProxyType({w.strip(): english for english, words in _WORDS.items() for w in words.split(",")})
HEADING_HELP = ("Pre-Game, Endurance (Deck, Main), kinds of card (Attacks, Blocks, Persona, ...), "
                "Sideboard, Maybeboard, Considering; metadata: Format, Name, Player, Author")

# The formats' numbers as a player says them (the web's formats page).
LIMIT_WORDS = MappingProxyType({
    "deck_min": "An Endurance of at least {n} cards",
    "title_max": "At most {n} cards of one title",
    "pregame_max": "At most {n} Pre-Game cards",
    "persona_max": "At most {n} Persona[s]",
    "woc_max": "At most {n} Weapon[s] of Choice",
    "hand_max": "At most {n} Hand icon[s] on the Pre-Game cards",
    "generic_specific_max": "A Generic Immortal: at most {n} of each Immortal Specific card",
    "watcher_max": "At most {n} Watcher Pre-Game card[s]",
    "crystal_max": "At most {n} Crystal[s]",
    "unique_max": "At most {n} card[s] of a unique Pre-Game title",
    "gem_factor": "Gem icons of a colour: at most {n} × the Persona's gems",
    "pregame_extra": "{n} more Pre-Game card[s]",
})


def summary(report: Report) -> dict[str, object]:
    """A deck's columns of a tournament summary: its Persona (or how the format names a deck without one, once
    the deck could be read) and the size of its two sections."""
    persona = report.persona
    if not persona and report.legal is not None:
        persona = find_format(report.format, GAME.formats).no_persona
    return {"persona": persona or "", "endurance": report.counts.get(ENDURANCE, ""),
            "pre_game": report.counts.get(PREGAME, "")}


def deck_stats(deck: Deck, format_name: str, hand: int | None = None, exertion: int | None = None) -> DeckStats:
    """The deck's statistics (CONTRACTS §7: squares covered, opening-hand and Exertion odds)."""
    from ...stats import EXERTION, HAND, stats_of
    return stats_of(deck, format_name, HAND if hand is None else hand, EXERTION if exertion is None else exertion)


def section_of_type(card: Card) -> str:
    """Where a card goes when its line stands under no heading: Pre-Game cards apart, all else the Endurance."""
    return PREGAME if card.is_pregame else ENDURANCE


TYPE1E = Format(
    name="type1e", title="Highlander 1st edition (Arms and Tactics rules)", game=HIGHLANDER, rules=hl.TYPE1E,
    aliases=("1e", "first", "1st", "type1", "type-1", "arms-and-tactics", "tcg1e"),
    sections=SECTIONS, default_section=section_of_type, params=Type1eParams(), view=HighlanderView,
    source="seeds/highlander-1e-rulebook-arms-and-tactics.txt", no_persona="Generic Immortal",
)

TYPE2 = Format(
    name="type2", title="Highlander 2nd edition, Type 2 (Le Montagnard)", game=HIGHLANDER, rules=hl.TYPE2,
    aliases=("2e", "second", "2nd", "type-2", "t2"),
    sections=SECTIONS, default_section=section_of_type, params=Type2Params(), view=HighlanderView,
    source="seeds/highlander-2e-type2-summary-ja.txt", no_persona="Generic Immortal",
    card_list="2nd-edition", own_card=lambda card: card.game == HIGHLANDER and card.edition >= 2,
    bundled_own=4,  # the bundle's 2nd-edition cards (db/data/highlander-2e.csv): a sample, not the list
)

# printed items that are no card of a deck (order forms, tin sets, rule sheets): known to card sheets, in no section
OTHER_TYPES = frozenset({"Form", "Rules"})

GAME = Game(HIGHLANDER, (TYPE1E, TYPE2), card_types=PREGAME_TYPES | ENDURANCE_TYPES | OTHER_TYPES,
            fields=FIELDS, columns=("version", "edition", "set", "rarity"),
            headings=HEADINGS, plurals=PLURALS, heading_help=HEADING_HELP, heading_words=HEADING_WORDS,
            data_unknown="HL-DATA-UNKNOWN",
            summary=("persona", "endurance", "pre_game"), summary_of=summary,
            summary_labels=MappingProxyType({"endurance": "End.", "pre_game": "Pre"}),
            stats=deck_stats, field_stats=True, counted=COUNTED, card_problems=card_problems,
            title="Highlander", full_title="Highlander: The Card Game",
            limit_words=LIMIT_WORDS, persona="Persona")
