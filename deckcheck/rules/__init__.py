"""The rules engine: a rule is a plain, pure function from a deck view to issues.

`@rule(id, severity, summary)` records a function as a rule and returns the function itself, so
it stays visible to help() and to mutation tools. The rule's id is written once, there: the
function builds its issues with `error`, `warning` and `data_unknown`, which leave the id out,
and the engine (`Rule.__call__`) stamps it on every issue. A summary is a template filled with the
format's parameters (`{deck_min}`, `{woc_max:word}` for "one"), so no limit is written as text.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Callable, Generic, Hashable, Iterable, Sequence, TypeVar

from ..cards import Card
from ..report import DATA_UNKNOWN, ERROR, NOT_VERIFIED, WARNING, Issue

UNSTAMPED = ""  # the rule id of an issue a rule function built; the engine replaces it
_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


@dataclass(frozen=True)
class Params:
    """Base of every format's parameters: a frozen dataclass, so a misspelt name fails where it is written.

    `name_edition`: names resolve among the cards of this edition first (CONTRACTS.md §2); None: no preference.
    """

    name_edition: int | None = None

    def text(self, template: str) -> str:
        """A summary template filled with these parameters ('{deck_min}', '{woc_max:word}', '{titles:count}')."""
        return template.format_map(_Filled(self))


class _Number(int):
    """An int that a template can also print as a word: '{woc_max:word}' -> 'one'; ':count' (a tuple's length)
    prints its digits."""

    def __format__(self, spec: str) -> str:
        if spec == "word":
            return number_word(int(self))
        return format(int(self), "" if spec == "count" else spec)


class _Filled(dict[str, object]):
    """Template values: the parameters and their properties; tuples give their length with ':count'."""

    def __init__(self, params: Params):
        super().__init__()
        self.params = params

    def __missing__(self, key: str) -> object:
        value = getattr(self.params, key)
        if isinstance(value, bool) or not isinstance(value, (int, tuple)):
            return value
        return _Number(len(value) if isinstance(value, tuple) else value)


def number_word(n: int) -> str:
    """'one' ... 'ten', digits above."""
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def param_names(params: Params) -> list[str]:
    """The names of a format's parameters."""
    return [f.name for f in fields(params)]


View = TypeVar("View", contravariant=True)  # what a rule reads: its game's view of a deck
Check = TypeVar("Check", bound=Callable[..., Iterable[Issue]])


# Whether adding one copy of a card in a section to the deck a view shows may change what a rule says (Rule.may_change)
MayChange = Callable[[View, Card, str], bool]
# What of a card alone decides what a rule says of the deck a view shows plus the card (Rule.same_for); None: the card
SameFor = Callable[[View, Card, str], Hashable | None]


@dataclass(frozen=True, slots=True)
class Rule(Generic[View]):
    """One rule of RULES.md: its id, severity, summary template and the plain function that checks it; for a rule
    card data can keep from deciding, the card-sheet columns it then needs (`columns`, for `cards todo`) and what
    a player is told it did not check (`words`: "copies limit not checked"; default: "RULE-ID not checked").

    `may_change(view, card, section)`: False only when adding one copy of `card` to `section` of the deck `view`
    shows (a card the deck does not hold there yet) can neither add an error to what the rule says nor change how
    many of its issues are undecided; what a deck may take is then worked out without running the rule again
    (deckcheck.adding). None: any card may change it, the rule is run for each.

    `same_for(view, card, section)`, for a card `may_change` lets through: a key of what the rule reads of the card,
    such that any two cards of one key added (one copy, in their sections) to the deck `view` shows make the rule
    say the same: as many errors, as many undecided issues. An unknown value is a key of its own (Signature None is
    neither True nor False); None: this card alone. The rule then runs once per key for a deck, its tally shared
    by the cards of that key (deckcheck.adding). None (the attribute): every card alone."""

    id: str
    severity: str
    summary: str
    check: Callable[[View], Iterable[Issue]]
    columns: tuple[str, ...] = ()
    words: str = ""
    may_change: MayChange[View] | None = None
    same_for: SameFor[View] | None = None

    def __call__(self, view: View, data_unknown_id: str | None = None) -> list[Issue]:
        """The function's issues, each stamped with this rule's id; a data-unknown one with `data_unknown_id` (the
        checked format's game's: check.validate; Registry.data_unknown_of gives the first game's that plays it)."""
        return [stamp(issue, self.id, data_unknown_id) for issue in self.check(view)]

    def text(self, params: Params) -> str:
        """The summary with the format's numbers filled in."""
        return params.text(self.summary)


RULE_ATTRIBUTE = "deckcheck_rule"  # where @rule keeps a check function's Rule: on the function itself


def rule(rule_id: str, severity: str, summary: str, *, columns: Sequence[str] = (),
         words: str = "", may_change: MayChange[Any] | None = None,
         same_for: SameFor[Any] | None = None) -> Callable[[Check], Check]:
    """Record a check function as the rule `rule_id` (see Rule); the function itself is returned, its Rule kept on
    it."""
    def record(check: Check) -> Check:
        setattr(check, RULE_ATTRIBUTE, Rule(rule_id, severity, summary, check, tuple(columns), words, may_change,
                                            same_for))
        return check
    return record


def declared(check: Callable[[View], Iterable[Issue]]) -> Rule[View]:
    """The Rule @rule recorded on one function (TypeError for a function that is no rule)."""
    found = getattr(check, RULE_ATTRIBUTE, None)
    if not isinstance(found, Rule):
        raise TypeError(f"{getattr(check, '__qualname__', check)!r} is not a rule: decorate it with @rule")
    return found


def rules_of(*checks: Callable[[View], Iterable[Issue]]) -> tuple[Rule[View], ...]:
    """The Rules recorded on these functions, in this order (for a format's rule list)."""
    return tuple(declared(check) for check in checks)


def stamp(issue: Issue, rule_id: str, data_unknown_id: str | None = None) -> Issue:
    """An issue with its rule's id: set where the rule left it out; a data-unknown warning takes its game's id
    (`data_unknown_id`: check.validate gives the checked format's game's; else the generic DATA-UNKNOWN) and
    names the rule in its `undecided` field and, for the §3 object, in its message."""
    if issue.rule == UNSTAMPED:
        return issue._replace(rule=rule_id)
    if issue.rule == DATA_UNKNOWN:
        return issue._replace(rule=data_unknown_id or DATA_UNKNOWN, message=f"{rule_id}{NOT_VERIFIED}{issue.message}",
                              undecided=rule_id)
    return issue


def names(cards: Iterable[Card]) -> tuple[str, ...]:
    """Distinct card names in first-seen order."""
    return tuple(dict.fromkeys(c.name for c in cards))


def a_word(word: str) -> str:
    """'a Block', 'an Item', 'an Event': the article a card type takes."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def plural(n: int, word: str, words: str | None = None) -> str:
    """'1 card', '2 cards'."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


# What settles a data-unknown warning, in the §3 object (the CLI's JSON, the API, the pages): no command named, since a
# web reader has no terminal of the server's (the terminal's own report adds the `cards todo` hint).
DATA_FIX = "add the values printed on the cards, with a card sheet or the fill-in form"


def data_unknown(what: str, cards: Sequence[Card], fix: str | None = None) -> Issue:
    """The warning that the rule could not be decided on missing card data (its game's data-unknown id, RULES.md
    HL-DATA-UNKNOWN for Highlander)."""
    listed = names(cards)
    return Issue(DATA_UNKNOWN, WARNING, f"{what} for {plural(len(listed), 'card')}: {', '.join(listed)}", listed,
                 fix=fix or DATA_FIX)


def error(message: str, cards: Iterable[Card] = (), limit: int | None = None, actual: int | None = None,
          fix: str | None = None) -> Issue:
    """An issue of severity error of the rule being checked."""
    return Issue(UNSTAMPED, ERROR, message, names(cards), limit, actual, fix)


def warning(message: str, cards: Iterable[Card] = (), fix: str | None = None) -> Issue:
    """An issue of severity warning of the rule being checked."""
    return Issue(UNSTAMPED, WARNING, message, names(cards), fix=fix)
