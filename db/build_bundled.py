"""Build the bundled card sheets in db/data/ from the raw card data in ../shared/data/.

    python -m deckcheck.db.build_bundled [--shared DIR] [--check]

Reproducible: the same inputs give byte-identical sheets; --check only compares and exits 1 on a
difference. Every value comes from the sources (see ../shared/data/SOURCES.md); what they do not
give is written as unknown, never guessed. Where a value is derived (an Immortal read off a
name, a Pre-Game kind read off a name, an Attack's grid read off its name), the rule that derives it
is in this file, with its reason. Stated facts (card-facts.tsv: Restriction numbers, Reserved marks,
Hand icons, texts) apply to the exact checklist row they name, and to no other printing.
"""
from __future__ import annotations

import argparse
import csv
import io
import re
import sys
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from deckcheck import grid as gridmod
from deckcheck import provenance as prov
from deckcheck.cards import GEM_COLOURS, NO_MODIFIERS, Card, Modifiers
from deckcheck.cardsheet import COLUMNS, card_to_row, provenance_to_row, value_of
from deckcheck.provenance import Provenance
from deckcheck.text import normalize, slug

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
SHEETS = {"highlander-1e.csv": "1st edition (Thunder Castle Games)", "highlander-2e.csv": "2nd edition records"}

# The Weapons of Choice of Arms & Tactics: the AT Pre-Game cards "<weapon> Pre-Game" whose weapon
# also heads that set's Weapon Specific cards ("Katana Sword Quality Blade").
WEAPONS_OF_CHOICE = ("Broad Bladed Spear", "Claymore", "Gladius", "Katana Sword", "Parrying Blade", "Rapier",
                     "Saber", "Shield", "War Axe")
# Immortals with no Persona card in the checklist that SOURCES.md names as Personas.
EXTRA_IMMORTALS = ("Ramirez", "Clan MacLeod")
# Short forms and misspellings the checklist uses for Persona names (SOURCES.md lists the short forms).
ALIASES = {"kurgan": "The Kurgan", "nakano": "The Sorcerer Nakano", "the sorceror nakano": "The Sorcerer Nakano",
           "katana": "General Katana", "khan": "Khabul Khan", "fasil": "Iman Fasil",
           "sunda kastigir": "Sunda Kastagir", "kastagir": "Sunda Kastagir"}
# Only full names (and misspellings of full names) are read as a prefix: "Katana Sword ..." is a weapon.
PREFIX_ALIASES = ("the sorceror nakano",)
BASIC_ATTACKS = {"Upper Left Attack": "UL", "Upper Center Attack": "UC", "Upper Right Attack": "UR",
                 "Middle Left Attack": "ML", "Thrust": "MC", "Middle Right Attack": "MR",
                 "Lower Left Attack": "LL", "Lower Center Attack": "LC", "Lower Right Attack": "LR"}
# SOURCES.md, "Basic cards' grids": an inference from a public description; marked grid_inferred.
BASIC_BLOCKS = {"Upper Left Block": "UL UC ML MC", "Upper Right Block": "UC UR MC MR",
                "Lower Left Block": "ML MC LL LC", "Lower Right Block": "MC MR LC LR",
                "Upper Center Block": "UL UC UR", "Lower Center Block": "LL LC LR"}
_VERSION = re.compile(r"^(?:version\s*)?(\d+)$", re.IGNORECASE)
_PAREN = re.compile(r"^(.*?)\s*\(([^()]*)\)\s*$")
_VARIANT = re.compile(r"\s*\[Undefined Variant #(\d+)\]\s*$")
FACT_FIELDS = ("restriction", "reserved", "hand_icons", "text")
# card-facts.tsv: "none printed" is a known value (the card carries no Restriction number), not unknown.
NONE_PRINTED = "none printed"
# SOURCES.md, "Signature marks: none before The Gathering": Signature cards were introduced in The Gathering
# (this article says so), so every printing of a set released before it is known not to be a Signature card.
# Sets without a release date (the Tin Set, Other, ...) and later sets stay unknown.
SIGNATURE_INTRODUCED_IN = "TG"
SIGNATURE_SOURCE = "http://www.watcherdatabase.tk/Articles/19.html"


def read_tsv(path: Path) -> list[dict[str, str]]:
    """The rows of a tab-separated file with a header."""
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


@dataclass
class Facts:
    """What card-facts.tsv states about one checklist row, and where each value was stated."""

    restriction: int | None = None
    reserved: bool | None = None
    hand_icons: int | None = None
    text: str | None = None
    sources: dict[str, str] = field(default_factory=dict)  # field -> the source's address


def read_facts(shared: Path, checklist: list[dict[str, str]]) -> dict[tuple[str, str], Facts]:
    """card-facts.tsv by (set_code, checklist name); SystemExit on a fact that names no checklist row,
    an unknown field, a value that is not one, or a field stated twice for one row."""
    rows = {(r["set_code"], r["name"]) for r in checklist}
    facts: dict[tuple[str, str], Facts] = {}
    for n, fact in enumerate(read_tsv(shared / "data/highlander-1e/card-facts.tsv"), start=2):
        key, name, value = (fact["set_code"], fact["name"]), fact["field"], fact["value"].strip()
        where = f"card-facts.tsv row {n} ({fact['set_code']} {fact['name']!r}, {name})"
        if key not in rows:
            raise SystemExit(f"{where}: names no checklist row")
        known = facts.setdefault(key, Facts())
        if name in known.sources:
            raise SystemExit(f"{where}: stated twice")
        if name == "restriction":
            if value != NONE_PRINTED and not value.isdigit():
                raise SystemExit(f"{where}: restriction {value!r} is neither a number nor {NONE_PRINTED!r}")
            known.restriction = 0 if value == NONE_PRINTED else int(value)
        elif name == "reserved":
            if value not in ("yes", "no"):
                raise SystemExit(f"{where}: reserved {value!r} is not yes/no")
            known.reserved = value == "yes"
        elif name == "hand_icons":
            if not (value.isascii() and value.isdigit() and len(value) <= 2):
                raise SystemExit(f"{where}: hand_icons {value!r} is not a number of Hand icons")
            known.hand_icons = int(value)
        elif name == "text" and value:
            known.text = value
        else:
            raise SystemExit(f"{where}: unknown field or empty value; fields: {', '.join(FACT_FIELDS)}")
        known.sources[name] = fact["source_url"].strip()
    return facts


# An Attack whose name states its target squares in full (CONTRACTS.md §7): every square named, as a
# grid code (UL) or in words (Upper Left), joined by "&", "and" or ",". "LL to UR" names the ends of a
# stroke, not every square it crosses; "Left", "Upper", "Horizontal" name a side or a row: nothing.
_SQUARE_WORDS = {f"{row} {col}": code for code, (row, col) in {
    "UL": ("upper", "left"), "UC": ("upper", "center"), "UR": ("upper", "right"),
    "ML": ("middle", "left"), "MC": ("middle", "center"), "MR": ("middle", "right"),
    "LL": ("lower", "left"), "LC": ("lower", "center"), "LR": ("lower", "right")}.items()}
_BRACKETS = re.compile(r"\(([^()]*)\)")


def grid_from_name(name: str) -> int | None:
    """The grid an Attack's name states in full ("Riposte (UL)", "Slash (Upper Left & Lower Right)"), else None."""
    found = None
    for inner in _BRACKETS.findall(name):
        squares: list[str] = []
        for part in re.split(r"\s*(?:&|,|\band\b)\s*", inner.strip(), flags=re.IGNORECASE):
            word = " ".join(part.lower().split())
            code = part.upper() if part.upper() in gridmod.BIT else _SQUARE_WORDS.get(word)
            if code is None:
                squares = []
                break
            squares.append(code)
        if squares:
            if found is not None:
                return None  # two brackets that both name squares: not one statement
            found = gridmod.parse_grid(" ".join(squares))
    return found


NO_FACTS = Facts()

# Provenance of the bundled values (deckcheck.provenance): the rule of this file that gave each one.
CHECKLIST = prov.CHECKLIST
DEFAULT = prov.DEFAULT
FROM_NAME = prov.DERIVED_NAME
PREGAME_KIND = Provenance("derived", "Pre-Game kind from name")
BASIC_BLOCK = Provenance("derived", "Basic Block inference")  # SOURCES.md, "Basic cards' grids"
GRID_FROM_NAME = Provenance("derived", "grid from name")  # CONTRACTS.md §7


def source(url: str) -> Provenance:
    """A value stated by a public source at this address."""
    return Provenance("source", url)


Built = tuple[Card, dict[str, Provenance]]


class Immortals:
    """The Immortal names of the 1st edition, read off the Persona cards and the Persona list."""

    def __init__(self, checklist: list[dict[str, str]], personas: list[dict[str, str]]):
        found = set(EXTRA_IMMORTALS) | {p["persona"] for p in personas}
        for row in checklist:
            if row["type"] != "Persona":
                continue
            name = row["name"]
            m = re.fullmatch(r"(.+?) \(Persona\)|Persona \((.+)\)|(.+?) Persona", name)
            if m:
                who = next(g for g in m.groups() if g)
                if who != "Immortal":  # "Immortal Persona": the Generic Immortal's Persona card, nobody's name
                    found.add(who)
        self.names = sorted(found, key=len, reverse=True)
        self.by_key = {normalize(n): n for n in found}

    def exact(self, text: str) -> str | None:
        """The Immortal a whole text names, short forms included."""
        key = normalize(text)
        return self.by_key.get(key) or ALIASES.get(key)

    def prefix(self, text: str) -> tuple[str, str] | None:
        """(Immortal, rest) when text starts with a full Immortal name."""
        folded = text.casefold()
        for name in self.names:
            if folded == name.casefold():
                return name, ""
            if folded.startswith(name.casefold() + " "):
                return name, text[len(name):].strip()
        for alias in PREFIX_ALIASES:
            if folded.startswith(alias + " "):
                return ALIASES[alias], text[len(alias):].strip()
        return None

    def in_brackets(self, text: str) -> tuple[str, str] | None:
        """(Immortal, rest) for "(Kalas)", "(Annie Devlin Left)", "(Nakano/Duplicate Event)"."""
        who = self.exact(text)
        if who:
            return who, ""
        head, sep, rest = text.partition("/")
        who = self.exact(head) if sep else None
        if who:
            return who, rest.strip()
        m = re.fullmatch(r"(.+) (Left|Right)", text)
        who = self.exact(m.group(1)) if m else None
        if m and who:
            return who, m.group(2)
        return None


def split_name(printed: str, extra: str | None, immortals: Immortals) -> dict[str, Any]:
    """Read weapon, Immortal, title and version off a printed name and the catalogue's disambiguator."""
    text = printed.strip()
    weapon = immortal = None
    variants: list[str] = []
    for w in WEAPONS_OF_CHOICE:
        if text.startswith(w + " "):
            weapon, text = w, text[len(w):].strip()
            break
    if weapon is None:
        found = immortals.prefix(text)
        if found:
            immortal, text = found
    for part in ([extra] if extra else []):
        text_and = _PAREN.match(text)
        found = immortals.in_brackets(part)
        if found and immortal is None:
            immortal, rest = found
            if rest:
                variants.append(rest)
        elif not (text_and and normalize(text_and.group(2)) == normalize(part)):
            variants.append(part)
    m = _PAREN.match(text)
    while m and m.group(1):
        inner = m.group(2)
        found = immortals.in_brackets(inner) if immortal is None else None
        if found:
            immortal, rest = found
            if rest:
                variants.insert(0, rest)
        else:
            variants.insert(0, inner)
        text = m.group(1).strip()
        m = _PAREN.match(text)
    if not text:  # "Connor MacLeod (Premium +1 Ability)": the bracket is all the title there is
        text = variants.pop(0) if variants else printed
    version = None
    if variants:
        first = _VERSION.match(variants[0])
        version = first.group(1) if first else " / ".join(variants)
    return {"weapon": weapon, "immortal": immortal, "title": text, "version": version}


def pregame_kind(title: str, weapon: str | None, variant: str | None, printed: str, name: str) -> str:
    """The kind of a checklist "Pre-Game" row, read off its name."""
    if weapon is not None and title == "Pre-Game":
        return "Weapon of Choice"
    if title.startswith("Crystal"):
        return "Crystal"
    if title.startswith("Quickening"):
        return "Quickening"
    if "Pre-Game Watcher" in name or printed == "Adam Pierson Pre-Game":
        # Adam Pierson: the Methos Persona text says "Only Adam Pierson can be assigned as your Watcher".
        return "Watcher"
    if "Premium" in title or "Premium" in (variant or "") or "MCBC" in title:
        # MCBC cards are Premiums: the checklist itself names several "... Premium MCBC".
        return "Premium"
    return "Pre-Game"


def persona_modifiers(text: str) -> Modifiers:
    """Deck-building modifiers stated in a Persona's text (personas.tsv persona_text)."""
    values: dict[str, Any] = {}
    if re.search(r"Master cards from any Persona, even if Reserved", text):
        values["master_any_persona"] = True
    m = re.search(r"use (one|\d+) Immortal Specific cards?, even if Reserved, from each Persona", text)
    if m:
        values["other_persona_each"] = 1 if m.group(1) == "one" else int(m.group(1))
    return Modifiers(**values) if values else NO_MODIFIERS


def sets_before_signatures(sets: list[dict[str, str]]) -> frozenset[str]:
    """The codes of the sets released before Signature cards were introduced (SIGNATURE_INTRODUCED_IN)."""
    def released(row: dict[str, str]) -> tuple[int, int] | None:
        year, month = row["release_year"].strip(), row["release_month"].strip()
        return (int(year), int(month)) if year.isdigit() and month.isdigit() else None
    dates = {row["set_code"]: released(row) for row in sets}
    introduced = dates.get(SIGNATURE_INTRODUCED_IN)
    if introduced is None:
        raise SystemExit(f"sets.tsv: no release date for {SIGNATURE_INTRODUCED_IN}, where Signature cards began")
    return frozenset(code for code, date in dates.items() if date is not None and date < introduced)


def build_1e(shared: Path) -> list[Built]:
    """Every 1st-edition checklist row as a Card, with what the sources give and where each value came from."""
    checklist = read_tsv(shared / "data/highlander-1e/checklist.tsv")
    no_signatures = sets_before_signatures(read_tsv(shared / "data/highlander-1e/sets.tsv"))
    personas = {p["persona"]: p for p in read_tsv(shared / "data/highlander-1e/personas.tsv")}
    immortals = Immortals(checklist, list(personas.values()))
    facts = read_facts(shared, checklist)
    cards: list[Built] = []
    for row in checklist:
        name = row["name"]
        variant_no = _VARIANT.search(name)
        clean = _VARIANT.sub("", name)
        extra = None
        if clean != row["name_printed"]:
            m = _PAREN.match(clean)
            extra = m.group(2) if m and m.group(1).strip() == row["name_printed"].strip() else None
        parts = split_name(row["name_printed"], extra, immortals)
        title = parts["title"]
        kind = row["type"] or None
        if kind == "Pre-Game":
            kind = pregame_kind(title, parts["weapon"], parts["version"], row["name_printed"], name)
        weapon = parts["weapon"]
        basic = kind in ("Attack", "Block") and (title in BASIC_ATTACKS or title in BASIC_BLOCKS) \
            and weapon is None and parts["immortal"] is None
        grid = grid_inferred = None
        if basic:
            squares = BASIC_ATTACKS.get(title) or BASIC_BLOCKS[title]
            grid, grid_inferred = gridmod.parse_grid(squares), title in BASIC_BLOCKS
        elif kind in ("Attack", "Special Attack"):
            grid = grid_from_name(name)
            grid_inferred = grid is not None
        persona = personas.get(parts["immortal"] or "") if kind == "Persona" else None
        modifiers = persona_modifiers(persona["persona_text"]) if persona else NO_MODIFIERS
        extra_pregame = re.search(r"\((\d+) additional Pre-Game Cards\)", name)
        if extra_pregame:
            modifiers = replace(modifiers, pregame_extra=int(extra_pregame.group(1)))
        gems: dict[str, Any]
        gems = {f"gem_{c}": None for c in ("master", "agility", "strength", "toughness", "empathy", "reason")} \
            if kind == "Persona" else {}
        if persona:
            gems["gem_master"] = int(persona["master_allowance"])
        card_id = f"{row['set_code']}-{slug(name)}"
        stated = facts.get((row["set_code"], name), NO_FACTS)
        text = stated.text if stated.text is not None else (persona["persona_text"] if persona else None)
        card = Card(
            id=card_id, name=clean, title=title, immortal=parts["immortal"], weapon=weapon,
            version=parts["version"], edition=1, set=row["set_code"], type=kind, basic=basic, grid=grid,
            grid_inferred=bool(grid_inferred), restriction=stated.restriction,
            reserved=stated.reserved, signature=False if row["set_code"] in no_signatures else None, unique=None,
            hand_icons=stated.hand_icons, modifiers=modifiers,
            rarity=row["rarity"] or None, text=text, **gems)
        sources = {f: FROM_NAME for f in ("title", "immortal", "weapon", "version", "basic")}
        sources.update({f: DEFAULT for f in ("subtype", "requires", "deckbuilding")})
        sources.update({"edition": CHECKLIST, "set": CHECKLIST})
        if kind is not None:
            sources["type"] = CHECKLIST if kind == row["type"] else PREGAME_KIND
        if row["rarity"]:
            sources["rarity"] = CHECKLIST
        if grid is not None:
            sources["grid"] = BASIC_BLOCK if title in BASIC_BLOCKS and basic else FROM_NAME if basic \
                else GRID_FROM_NAME
        sources.update({f: source(url) for f, url in stated.sources.items()})
        if row["set_code"] in no_signatures:
            sources["signature"] = source(SIGNATURE_SOURCE)
        if persona:
            sources["gem_master"] = source(persona["source_url"])
            if stated.text is None:
                sources["text"] = source(persona["source_url"])
            if modifiers:
                sources["deckbuilding"] = source(persona["source_url"])
        if extra_pregame:
            sources["deckbuilding"] = FROM_NAME
        if kind != "Persona":  # a 1st-edition card other than a Persona prints no gems: the sheet's default 0
            sources.update({f"gem_{c}": DEFAULT for c in GEM_COLOURS})
        cards.append((card, sources))
        del variant_no
    return cards


def build_2e(shared: Path) -> list[Built]:
    """The 2nd-edition records as Cards; every known value is the source's (its address per row)."""
    cards = []
    for row in read_tsv(shared / "data/highlander-2e/cards.tsv"):
        kind, _, subtype_text = row["type"].partition(":")
        kind, subtype = kind.strip(), tuple(s.strip() for s in subtype_text.split(";") if s.strip())
        head, sub = row["title"], row["subtitle"]
        is_persona = kind == "Persona"
        immortal = head if is_persona else None
        weapon = head if not is_persona else None

        def number(col: str, row: dict[str, str] = row) -> int | None:
            return int(row[col]) if row[col].strip() else None
        gems: dict[str, Any] = {f"gem_{c}": number(f"gem_{c}")
                                for c in ("master", "agility", "strength", "toughness", "empathy", "reason")}
        card = Card(
            id=row["code"], name=f"{head} {sub}", title=sub, immortal=immortal, weapon=weapon, edition=2,
            set=row["set"], type=kind, subtype=subtype, restriction=None, reserved=None, signature=None,
            unique=None, hand_icons=number("hand_icons"), **gems)
        stated = source(row["source_url"])
        sources = {f: stated for f in prov.FIELDS if value_of(card, f) is not None}
        sources.update({f: DEFAULT for f in ("version", "requires", "deckbuilding", "basic") if f in sources})
        cards.append((card, sources))
    return cards


def render(cards: list[Built]) -> str:
    """Cards as a card sheet (CSV text) with the provenance columns."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS + prov.SOURCE_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for card, sources in cards:
        writer.writerow(card_to_row(card) | provenance_to_row(sources))
    return out.getvalue()


def build_sets(shared: Path) -> str:
    """Set codes with their names and release dates, so that sheets may name a set either way."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["code", "name", "edition", "released"])
    for row in read_tsv(shared / "data/highlander-1e/sets.tsv"):
        released = f"{row['release_year']}-{int(row['release_month']):02d}" if row["release_year"] else ""
        writer.writerow([row["set_code"], row["name"], 1, released])
    return out.getvalue()


def build(shared: Path) -> dict[str, str]:
    """The bundled sheets' texts by file name; SystemExit on a duplicate id."""
    one, two = build_1e(shared), build_2e(shared)
    ids = Counter(c.id for c, _ in one + two)
    duplicates = [i for i, n in ids.items() if n > 1]
    if duplicates:
        raise SystemExit(f"duplicate ids: {duplicates}")
    return {"highlander-1e.csv": render(one), "highlander-2e.csv": render(two), "sets.csv": build_sets(shared)}


def main(argv: list[str] | None = None) -> int:
    """Write the sheets (or compare them, with --check)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path, default=HERE.parent.parent / "shared",
                    help="the shared/ folder holding data/ (default: ../shared beside the repo)")
    ap.add_argument("--check", action="store_true", help="compare with the committed sheets; change nothing")
    args = ap.parse_args(argv)
    sheets = build(args.shared)
    status = 0
    for name, text in sheets.items():
        path = DATA / name
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                print(f"{path} differs from what the sources give", file=sys.stderr)
                status = 1
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path} ({text.count(chr(10)) - 1} rows)")
    return status


if __name__ == "__main__":
    sys.exit(main())
