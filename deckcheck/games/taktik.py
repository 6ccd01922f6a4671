"""Taktisches Kartenspiel (seeds/taktisches-kartenspiel-de.txt): 4+ players, one standard 52-card deck, Heroes.

Format `taktik52`, rules TK-*; and the opening deal: three cards each, the two highest are Life Points,
the lowest the Shield; 10 LP or fewer may redeal; the fewest LP begins, ties to the lower Shield.
"""
from __future__ import annotations

import difflib
import random
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Sequence

from ..cards import Card
from ..decks import Deck, Player
from ..errors import DeckcheckError
from ..formats import Column, Format, Game, View, one_of
from ..report import ERROR, Issue
from ..rules import Params, data_unknown, error, plural, rule, rules_of
from ..text import normalize

NAME = "taktik52"
DECK, PLAYERS = "Deck", "Players"
HERO = "Hero"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_NAMES = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
SUITS = ("spades", "hearts", "diamonds", "clubs")
VALUE = {rank: i + 1 for i, rank in enumerate(RANKS)}  # Ass = 1, Bube = 11, Dame = 12, König = 13
PLAYING_CARD = "Playing Card"


def card_name(rank: str, suit: str) -> str:
    """'Queen of Clubs' for rank Q, suit clubs."""
    return f"{RANK_NAMES.get(rank, rank)} of {suit.title()}"


SYMBOL = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"}


def rank_of(card: Card) -> str | None:
    """A card's rank (the game's `rank` column: 'A', '2', ..., 'K'); None when unknown."""
    value = card.extra_value("rank")
    return value if isinstance(value, str) else None


def suit_of(card: Card) -> str | None:
    """A card's suit (the game's `suit` column: 'spades', ...); None when unknown."""
    value = card.extra_value("suit")
    return value if isinstance(value, str) else None


def short_name(card: Card) -> str:
    """'Q♣' for the Queen of Clubs."""
    return f"{rank_of(card)}{SYMBOL[str(suit_of(card))]}"


RED_SUITS = frozenset({"hearts", "diamonds"})


def pips(card: Card) -> tuple[str, str] | None:
    """How a drawn face shows a playing card (Game.pips): ('Q♥', 'red'); None for a Hero or a card whose rank or
    suit is unknown (its face shows its columns instead)."""
    rank, suit = rank_of(card), suit_of(card)
    if card.type != PLAYING_CARD or rank is None or suit not in SYMBOL:
        return None
    return f"{rank}{SYMBOL[suit]}", "red" if suit in RED_SUITS else "black"


@lru_cache(maxsize=1)
def playing_cards() -> tuple[Card, ...]:
    """The 52 cards of a standard deck, built in: 'Ace of Spades' ... 'King of Clubs'."""
    return tuple(Card(id=f"taktik52-{rank}{suit[0].upper()}", name=card_name(rank, suit),
                      title=card_name(rank, suit), game=NAME, type=PLAYING_CARD,
                      extra=(("rank", rank), ("suit", suit)))
                 for suit in SUITS for rank in RANKS)


_SHORT = re.compile(r"^(10|[2-9]|[AJQKBD])\s*([SHDC♠♥♦♣])$", re.IGNORECASE)
_SUIT_LETTER = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs", "♠": "spades", "♥": "hearts",
                "♦": "diamonds", "♣": "clubs"}
_SYMBOLS = frozenset(SYMBOL.values())
_GERMAN_LETTER = {"B": "J", "D": "Q"}  # Bube, Dame (König and Ass are K and A in both languages)
# The German names of the 52 cards, as the seed and its players write them (`Pik Ass`, `Herz Dame`, `Herzdame`,
# `Kreuz-König`, `Karo 10`): the suit, then the rank (either order), as two words or one; folded as
# deckcheck.text.normalize folds them (König: konig).
GERMAN_SUITS = {"pik": "spades", "herz": "hearts", "karo": "diamonds", "kreuz": "clubs", "treff": "clubs"}
GERMAN_RANKS = {"ass": "A", "as": "A", "bube": "J", "dame": "Q", "konig": "K", "koenig": "K", "zwei": "2",
                "drei": "3", "vier": "4", "funf": "5", "fuenf": "5", "sechs": "6", "sieben": "7", "acht": "8",
                "neun": "9", "zehn": "10", **{rank: rank for rank in RANKS[1:10]}}


def parse_playing_card(text: str) -> Card:
    """A playing card from 'Queen of Clubs', 'queen clubs', 'QC', '10♥', 'D♥', 'Herz Dame', 'Pikass';
    DeckcheckError otherwise."""
    card = read_playing_card(text)
    if card is None:
        raise DeckcheckError(f"{text!r} is not a playing card (write 'Queen of Clubs', '10 of Hearts', 'QC', "
                             "'Q♣' or 'Kreuz Dame')")
    return card


def read_playing_card(text: str) -> Card | None:
    """The playing card a text names in any of the ways parse_playing_card reads; None when it names none."""
    m = _SHORT.match(text.strip())
    if m:
        rank = m.group(1).upper()
        return _by_rank_suit()[(_GERMAN_LETTER.get(rank, rank), _SUIT_LETTER[m.group(2).lower()])]
    if any(symbol in text for symbol in _SYMBOLS):  # a suit symbol is only ever a short form's (`2♥ Herz` is none)
        return None
    key = normalize(text)
    english = _by_name().get(key.replace(" of ", " "))
    if english is not None:
        return english
    return _german(key)


def _german(key: str) -> Card | None:
    words = key.split()
    if len(words) == 1:  # `Herzdame`, `Pikass`, `Karo10`
        suit = next((s for s in GERMAN_SUITS if key.startswith(s) and key[len(s):] in GERMAN_RANKS), None)
        words = [suit, key[len(suit):]] if suit else []
    if len(words) != 2:
        return None
    first, second = words
    if first in GERMAN_RANKS and second in GERMAN_SUITS:
        first, second = second, first
    if first in GERMAN_SUITS and second in GERMAN_RANKS:
        return _by_rank_suit()[(GERMAN_RANKS[second], GERMAN_SUITS[first])]
    return None


def spelled(text: str) -> str | None:
    """The name of the playing card a text writes another way (`QH`, `K♠`, `Pik Ass`: Format.spelling); None
    when it is written as the card's name already, or names no playing card."""
    card = read_playing_card(text)
    return None if card is None or card.name == text else card.name


_WORD = re.compile(r"\S+")
_LONGEST = 3  # words of the longest way of writing one card (`Queen of Clubs`)
_COUNT_LIKE = re.compile(r"[\dx×*()]+", re.IGNORECASE)  # `2`, `x2`, `(3)`: a quantity or version, not a card


def cards_in_words(text: str) -> tuple[str, ...] | None:
    """The cards a text writes one after another with spaces between them (`QH AS`, `K♠ 2♥`, `Pik Ass Herz Dame`:
    Format.cards_in_words), each as written: the reading that leaves the fewest words naming no card, then the one
    of fewest pieces (the longest forms, from the left); a run of words naming no card is one piece, the line's
    unknown card (`QH Kign of Spades`). None for a text that is one card (`10 H`, `Herz Dame`), that writes no
    card, or whose leftover words are a number (`Queen of Hearts 2`: a quantity or a version written wrong, which
    the decklist reader tells)."""
    words = [(m.start(), m.end()) for m in _WORD.finditer(text)]
    if len(words) < 2 or read_playing_card(text) is not None:
        return None
    count = len(words)
    # best[i]: (words naming no card, pieces) of the best reading of words i.., and the length of its first piece
    # (negative: a word naming no card)
    best: list[tuple[int, int, int]] = [(0, 0, 0)] * (count + 1)
    for i in range(count - 1, -1, -1):
        options = [(best[i + n][0], best[i + n][1] + 1, n) for n in range(min(_LONGEST, count - i), 0, -1)
                   if read_playing_card(text[words[i][0]:words[i + n - 1][1]]) is not None]
        after = best[i + 1]
        options.append((after[0] + 1, after[1] + (after[2] >= 0), -1))  # a word naming no card joins the next
        best[i] = min(options, key=lambda o: (o[0], o[1]))
    pieces: list[tuple[int, int, bool]] = []  # (first word, last word, names a card)
    i = 0
    while i < count:
        n = best[i][2]
        if n < 0 and pieces and not pieces[-1][2]:  # the run of words naming no card goes on
            pieces[-1] = (pieces[-1][0], i, False)
        else:
            pieces.append((i, i + max(n, 1) - 1, n > 0))
        i += max(n, 1)
    written = [(text[words[first][0]:words[last][1]], card) for first, last, card in pieces]
    if not any(card for _, card in written) or len(written) < 2 or any(
            _COUNT_LIKE.fullmatch(piece) for piece, card in written if not card):
        return None
    return tuple(piece for piece, _ in written)


_SPELLING_WORDS = tuple(sorted({*GERMAN_SUITS, *(w for w in GERMAN_RANKS if not w.isdigit()), "of",
                                 *(normalize(w) for w in (*RANK_NAMES.values(), *SUITS))}))
_CLOSE = 0.75  # how like a word of the cards' names a misspelt word is (difflib's ratio): `Damme` -> `Dame`


def misspelled(text: str) -> tuple[str, ...]:
    """The playing card a text misspells in the words of its names (Format.misspelled: `Herz Damme`, `Hertz Dame`,
    `Herzdamme` -> 'Herz Dame'; `Quen of Hearts` -> 'Queen of Hearts'), named in the language of the words it wrote
    (German when one of them is German); () when it is none (or names one already)."""
    key = normalize(text)
    words = key.split()
    if not 1 <= len(words) <= _LONGEST or len(key) > 40 or read_playing_card(text) is not None:
        return ()
    if len(words) == 1:  # `Herzdamme`: a suit, then a rank written wrong
        suit = next((s for s in GERMAN_SUITS if key.startswith(s) and len(key) > len(s)), None)
        words = [suit, key[len(suit):]] if suit else words
    fixed = []
    for word in words:
        close = [word] if word in _SPELLING_WORDS or word.isdigit() else difflib.get_close_matches(
            word, _SPELLING_WORDS, n=1, cutoff=_CLOSE)
        if not close:
            return ()
        fixed.append(close[0])
    card = read_playing_card(" ".join(fixed))
    if card is None:
        return ()
    german = any(w in GERMAN_SUITS or (w in GERMAN_RANKS and not w.isdigit()) for w in fixed)
    return (german_name(card) if german else card.name,)  # in the words the player wrote: `Herz Damme` -> Herz Dame


_GERMAN_SUIT_NAMES = {"spades": "Pik", "hearts": "Herz", "diamonds": "Karo", "clubs": "Kreuz"}
_GERMAN_RANK_NAMES = {"A": "Ass", "J": "Bube", "Q": "Dame", "K": "König"}


def german_name(card: Card) -> str:
    """A playing card's German name as its players write it (`Herz Dame`, `Kreuz König`, `Karo 10`)."""
    rank = str(rank_of(card))
    return f"{_GERMAN_SUIT_NAMES[str(suit_of(card))]} {_GERMAN_RANK_NAMES.get(rank, rank)}"


@lru_cache(maxsize=1)
def _by_name() -> dict[str, Card]:
    return {normalize(c.name).replace(" of ", " "): c for c in playing_cards()}


@lru_cache(maxsize=1)
def _by_rank_suit() -> dict[tuple[str, str], Card]:
    return {(str(rank_of(c)), str(suit_of(c))): c for c in playing_cards()}


# -- the format -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class TaktikParams(Params):
    """The numbers of the TK rules."""

    players_min: int = 4


class TaktikView(View[TaktikParams]):
    """A table seen by the TK rules: the deck's playing cards and the players with their Heroes."""

    def __init__(self, deck: Deck, params: TaktikParams):
        self.deck = deck
        self.params = params

    def counts(self) -> dict[str, int]:
        """Cards in the deck, and players."""
        return {DECK: self.deck.count(DECK), PLAYERS: len(self.deck.players)}


@rule("TK-DECK-COMPLETE", ERROR, "The deck is one complete standard deck: 52 cards, each rank Ace-King once in each "
                                 "of 4 suits.")
def deck_complete(v: TaktikView) -> list[Issue]:
    held: Counter[str] = Counter()
    strangers = []
    for e in v.deck.entries:
        if e.card.type == PLAYING_CARD:
            held[e.card.id] += e.quantity
        else:
            strangers.append(e)
    missing = [c.name for c in playing_cards() if not held[c.id]]
    extra = [f"{held[c.id] - 1} x {c.name}" for c in playing_cards() if held[c.id] > 1]
    extra += [f"{e.quantity} x {e.card.name} (not a playing card)" for e in strangers]
    if not missing and not extra:
        return []
    total = sum(held.values()) + sum(e.quantity for e in strangers)
    parts = []
    if missing:
        parts.append(f"missing {plural(len(missing), 'card')}: {', '.join(missing)}")
    if extra:
        parts.append(f"extra: {', '.join(extra)}")
    fixes = (["add " + ", ".join(missing)] if missing else []) + (["remove the extra cards"] if extra else [])
    return [error(f"not one complete 52-card deck ({total} cards); " + "; ".join(parts),
                  [e.card for e in strangers], 52, total, " and ".join(fixes))]


@rule("TK-PLAYERS", ERROR, "At least {players_min} players.")
def players(v: TaktikView) -> list[Issue]:
    minimum = v.params.players_min
    count = len({normalize(p.name) for p in v.deck.players})
    if count >= minimum:
        return []
    return [error(f"{plural(count, 'player')}; the game needs at least {minimum}", limit=minimum,
                  actual=count, fix=f"add {plural(minimum - count, 'player')}")]


@rule("TK-HEROES", ERROR, "Each player has exactly one Hero; no Hero twice; each Hero is tied to a different "
                          "playing card.",
      columns=("rank", "suit"), words="Heroes' playing cards not checked")
def heroes(v: TaktikView) -> list[Issue]:
    out: list[Issue] = []
    by_player: dict[str, list[Player]] = defaultdict(list)
    for p in v.deck.players:
        by_player[normalize(p.name)].append(p)
    for plays in by_player.values():
        if len(plays) > 1:
            out.append(error(f"{plays[0].name} has {len(plays)} Heroes: "
                             f"{', '.join(p.hero.name for p in plays if p.hero)}; each player has exactly one",
                             [p.hero for p in plays if p.hero], 1, len(plays), f"keep one Hero for {plays[0].name}"))
    placed = [(p, p.hero) for p in v.deck.players if p.hero is not None]
    for p, hero in placed:
        if hero.type == PLAYING_CARD:
            out.append(error(f"{p.name}'s Hero {hero.name} is a playing card, not a Hero",
                             [hero], fix=f"give {p.name} a Hero"))
    heroes_only = [(p, hero) for p, hero in placed if hero.type != PLAYING_CARD]
    by_hero: dict[str, list[tuple[Player, Card]]] = defaultdict(list)
    for p, hero in heroes_only:
        by_hero[hero.id].append((p, hero))
    for holders in by_hero.values():
        if len(holders) > 1:
            first = holders[0][1]
            out.append(error(f"{first.name} is played by {', '.join(p.name for p, _ in holders)}; "
                             "no Hero twice", [first], 1, len(holders),
                             f"give {', '.join(p.name for p, _ in holders[1:])} another Hero"))
    tied: dict[tuple[str, str], list[Card]] = defaultdict(list)
    unknown = []
    for card in {hero.id: hero for _, hero in heroes_only}.values():
        rank, suit = rank_of(card), suit_of(card)
        if rank is None or suit is None:
            unknown.append(card)
        else:
            tied[(rank, suit)].append(card)
    for (rank, suit), cards in tied.items():
        if len(cards) > 1:
            out.append(error(f"{', '.join(c.name for c in cards)} are all tied to the "
                             f"{card_name(rank, suit)}; each Hero is tied to a different playing card", cards,
                             1, len(cards), "choose Heroes tied to different playing cards"))
    if unknown:
        out.append(data_unknown("the playing card a Hero is tied to (rank, suit) is unknown", unknown))
    return out


TAKTIK52 = Format(
    name="taktik52", title="Taktisches Kartenspiel (4+ players, one 52-card deck)", game=NAME,
    rules=rules_of(deck_complete, players, heroes), aliases=("taktik", "taktisches-kartenspiel", "tk"),
    params=TaktikParams(),
    sections=MappingProxyType({DECK: ("deck",), PLAYERS: ("players",)}),
    default_section=lambda card: PLAYERS if card.type == HERO else DECK, view=TaktikView,
    builtin_cards=lambda: list(playing_cards()), spelling=spelled, several_a_line=frozenset({DECK}),
    cards_in_words=cards_in_words, misspelled=misspelled,
    implied=MappingProxyType({DECK: tuple(card_name(rank, suit) for suit in SUITS for rank in RANKS)}),
    source="seeds/taktisches-kartenspiel-de.txt",
    card_list="Hero",  # its 52 playing cards are built in: only its Heroes come from a card sheet
)


# -- the opening deal -----------------------------------------------------------------------------
def _value(card: Card) -> int:
    """A playing card's value in the opening deal."""
    return VALUE[str(rank_of(card))]


@dataclass
class Hand:
    """One player's opening cards: the two highest are Life Points, the lowest the Shield."""

    player: str
    cards: tuple[Card, Card, Card]
    redeals: list[tuple[Card, Card, Card]] = field(default_factory=list)

    @property
    def ordered(self) -> list[Card]:
        """The three cards, highest first."""
        return sorted(self.cards, key=_value, reverse=True)

    @property
    def life_cards(self) -> list[Card]:
        """The two highest cards: the Life Points."""
        return self.ordered[:2]

    @property
    def shield_card(self) -> Card:
        """The lowest card: the Shield."""
        return self.ordered[2]

    @property
    def life_points(self) -> int:
        """The value of the two Life Point cards together."""
        return sum(_value(c) for c in self.life_cards)

    @property
    def shield(self) -> int:
        """The value of the Shield card."""
        return _value(self.shield_card)

    @property
    def may_redeal(self) -> bool:
        """10 LP or fewer: the player may discard all three and draw again."""
        return self.life_points <= 10


@dataclass
class Opening:
    """The opening of a game: every hand, and who begins (None when the rules leave a tie open)."""

    hands: list[Hand]
    starter: str | None
    tie: list[str] = field(default_factory=list)
    # who may still redeal (10 LP or fewer): the seed decides who begins after the redeals, so no one begins yet
    pending: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """The JSON object of `taktik deal --json`: every player's cards, LP, Shield and redeals; who begins."""
        return {"players": [{"player": h.player, "cards": [c.name for c in h.cards],
                             "life_points": h.life_points, "life_cards": [c.name for c in h.life_cards],
                             "shield": h.shield, "shield_card": h.shield_card.name, "may_redeal": h.may_redeal,
                             "redeals": [[c.name for c in r] for r in h.redeals]} for h in self.hands],
                "starter": self.starter, "tie": self.tie, "may_still_redeal": self.pending}


def starting_player(hands: Sequence[Hand]) -> tuple[str | None, list[str]]:
    """The fewest LP begins; a tie goes to the lower Shield. A tie on both is not decided by the rules."""
    best = min((h.life_points, h.shield) for h in hands)
    first = [h.player for h in hands if (h.life_points, h.shield) == best]
    return (first[0], []) if len(first) == 1 else (None, first)


def opening(hands: Sequence[Hand], redealt: bool = False) -> Opening:
    """Check a deal (no player or card twice) and find who begins: no one yet while a player may still redeal
    (`redealt`: every redeal the pile allowed was made)."""
    if len({normalize(h.player) for h in hands}) != len(hands):
        raise DeckcheckError("a player is dealt twice")
    seen: dict[str, str] = {}
    for h in hands:
        for c in h.cards:
            if c.id in seen:
                raise DeckcheckError(f"{c.name} is dealt to both {seen[c.id]} and {h.player}: one deck has one of each")
            seen[c.id] = h.player
    pending = [] if redealt else [h.player for h in hands if h.may_redeal]
    if pending:
        return Opening(list(hands), None, [], pending)
    starter, tie = starting_player(hands)
    return Opening(list(hands), starter, tie)


def parse_hands(rows: Sequence[tuple[int, str, Sequence[str]]]) -> list[Hand]:
    """Hands from (line, player, three card texts); DeckcheckError naming the line otherwise."""
    hands = []
    for line, player, texts in rows:
        if len(texts) != 3:
            raise DeckcheckError(f"line {line}: {player} needs exactly three cards, got {len(texts)}")
        try:
            first, second, third = (parse_playing_card(t) for t in texts)
        except DeckcheckError as exc:
            raise DeckcheckError(f"line {line}: {exc}") from None
        hands.append(Hand(player, (first, second, third)))
    return hands


def parse_deal_text(text: str) -> list[Hand]:
    """'Alice: Ace of Spades, 10 of Hearts, Queen of Clubs' per line (# comments allowed)."""
    rows = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        player, sep, cards = line.partition(":")
        if not sep:
            raise DeckcheckError(f"line {number}: write 'Player: card, card, card', got {raw!r}")
        rows.append((number, player.strip(), [c.strip() for c in re.split(r"[,;]", cards) if c.strip()]))
    return parse_hands(rows)


def deal(players: int, seed: int, redeal: bool = False) -> Opening:
    """Shuffle one deck with the seed, deal three cards to each player in turn; with redeal, players with
    10 LP or fewer discard and draw three again from the pile until they hold more than 10 (or the pile ends)."""
    least = TaktikParams().players_min
    if players < least:
        raise DeckcheckError(f"the game is for {least} or more players (TK-PLAYERS): --players {players} is too few")
    if players * 3 > 52:
        raise DeckcheckError(f"{players} players need {players * 3} cards; the deck has 52")
    pile = list(playing_cards())
    random.Random(seed).shuffle(pile)
    dealt: list[list[Card]] = [[] for _ in range(players)]
    for _ in range(3):
        for cards in dealt:
            cards.append(pile.pop())
    hands = [Hand(f"Player {i + 1}", (a, b, c)) for i, (a, b, c) in enumerate(dealt)]
    if redeal:
        for hand in hands:
            while hand.may_redeal and len(pile) >= 3:
                hand.redeals.append(hand.cards)
                hand.cards = (pile.pop(), pile.pop(), pile.pop())
    return opening(hands, redealt=redeal)


# A Hero's playing card: its card-sheet columns, stored in Card.extra (rank_of, suit_of read them).
COLUMNS = (Column("rank", one_of("rank", RANKS, {"ACE": "A", "JACK": "J", "QUEEN": "Q", "KING": "K", "1": "A"},
                                 str.upper)),
           Column("suit", one_of("suit", SUITS, {"spade": "spades", "heart": "hearts", "diamond": "diamonds",
                                                 "club": "clubs"}, str.lower, sep=", ")))
GAME = Game(NAME, (TAKTIK52,), card_types=frozenset({PLAYING_CARD, HERO}), columns=tuple(c.name for c in COLUMNS),
            extra_columns=COLUMNS, full_title="Taktisches Kartenspiel",
            pair_sections={PLAYERS: "a player line is 'Player name: Hero name'"},
            data_unknown="HL-DATA-UNKNOWN",  # the id RULES.md gives every game's unverified rules
            settle={"rank": "the playing card the Hero is tied to", "suit": "the playing card the Hero is tied to"},
            limit_words={"players_min": "At least {n} players"}, pips=pips)
