"""The `deckcheck` commands (typer): each parses options, calls one library function and renders.

Heavy modules (SQLAlchemy, xlsxwriter, calamine) are imported inside the commands that need them.
The entry point is deckcheck.cli.main, which also maps every DeckcheckError to exit code 2.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import List, Optional

import typer
from typing_extensions import Annotated

from .errors import DeckcheckError

app = typer.Typer(help="Deck-construction validator and collection manager for Highlander: The Card Game.",
                  no_args_is_help=True, pretty_exceptions_enable=False, add_completion=False)
tournament_app = typer.Typer(help="Tournament deck checking: many decklists in, one report out.",
                             no_args_is_help=True)
taktik_app = typer.Typer(help="Taktisches Kartenspiel: the opening deal.", no_args_is_help=True)
cards_app = typer.Typer(help="The card database: import, export, search, show, stats, lint.", no_args_is_help=True)
db_app = typer.Typer(help="Database set-up.", no_args_is_help=True)
app.add_typer(cards_app, name="cards")
app.add_typer(db_app, name="db")
app.add_typer(tournament_app, name="tournament")
app.add_typer(taktik_app, name="taktik")

DbOption = Annotated[Optional[str], typer.Option("--db", help="Database URL (sqlite:///file.db, "
                                                 "postgresql+psycopg://...) or a SQLite file path; "
                                                 "default $DECKCHECK_DB or the user data directory.",
                                                 envvar="DECKCHECK_DB", show_envvar=False)]
CardsOption = Annotated[Optional[List[Path]], typer.Option("--cards", help="A card sheet (CSV/XLSX) that adds or "
                                                           "overrides cards for this run only. Repeatable.")]


def _console(stderr: bool = False):
    from .render import console
    return console(stderr)


@app.command()
def check(decks: Annotated[List[str], typer.Argument(help="Decklist files or folders (.txt .csv .xlsx .json; "
                                                            "- for standard input).")],
          format: Annotated[Optional[str], typer.Option("--format", "-f", help="Format name or alias; default: the "
                                                        "deck's Format: line, else type1e.")] = None,
          as_json: Annotated[bool, typer.Option("--json", help="Print the JSON report (one object per line).")] = False,
          cards: CardsOption = None, db: DbOption = None) -> None:
    """Check decklists against a format: exit 0 legal, 1 not legal, 2 could not be checked."""
    from .cli import run_check
    raise typer.Exit(run_check(decks, format, as_json, cards or (), db))


@app.command()
def formats(name: Annotated[Optional[str], typer.Argument(help="A format name or alias.")] = None) -> None:
    """List the formats and their rules (id, severity, one line)."""
    from .formats import all_formats, get_format
    from .render import simple_table
    out = _console()
    chosen = [get_format(name)] if name else all_formats()
    for fmt in chosen:
        aliases = f" (aliases: {', '.join(fmt.aliases)})" if fmt.aliases else ""
        out.print(simple_table(f"{fmt.name} — {fmt.title}{aliases}", ("rule", "severity", "rule text"),
                               [(r.id, r.severity, r.summary) for r in fmt.rules]))
        out.print(f"  HL-DATA-UNKNOWN (warning) is reported instead of a rule's own id when card data is "
                  f"missing." if fmt.game == "highlander" else "")


# -- tournament -----------------------------------------------------------------------------------
@tournament_app.command("check")
def tournament_check(inputs: Annotated[List[str], typer.Argument(help="Folders of decklists, decklist files, or "
                                                                  "registration workbooks (.xlsx/.csv with a player "
                                                                  "column, or one sheet per player).")],
                     format: Annotated[Optional[str], typer.Option("--format", "-f", help="Format for every deck "
                                                                   "(default: each deck's Format: line, else "
                                                                   "type1e).")] = None,
                     out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Write the report: .xlsx "
                                                                 "(Summary, Issues, Input errors), .csv (summary) "
                                                                 "or .json.")] = None,
                     as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object per deck per "
                                                           "line instead of the table.")] = False,
                     cards: CardsOption = None, db: DbOption = None) -> None:
    """Check every deck of a tournament: exit 0 all legal, 1 some illegal, 2 some unreadable."""
    from .cli import run_tournament
    raise typer.Exit(run_tournament(inputs, format, str(out) if out else None, as_json, cards or (), db))


# -- taktik ---------------------------------------------------------------------------------------
@taktik_app.command("deal")
def taktik_deal(hands: Annotated[Optional[Path], typer.Argument(help="Each player's three dealt cards: text "
                                                                 "('Anna: Ace of Spades, 10 of Hearts, QC') or CSV "
                                                                 "(player + three card columns, or player, card "
                                                                 "rows).")] = None,
                seed: Annotated[Optional[int], typer.Option(help="Deal at random from a deck shuffled with this "
                                                            "seed (practice).")] = None,
                players: Annotated[int, typer.Option(help="Players for a random deal.")] = 4,
                redeal: Annotated[bool, typer.Option("--redeal", help="In a random deal, let every player with 10 "
                                                     "LP or fewer redeal until above 10.")] = False,
                as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """Life Points, Shield, who may redeal and who begins, from the opening deal."""
    from .games import taktik
    if hands is None and seed is None:
        raise DeckcheckError("name a file of dealt cards, or --seed N for a random deal")
    if hands is not None:
        from .importers.deals import read_deal
        opening = taktik.opening(read_deal(hands))
    else:
        opening = taktik.deal(players, seed, redeal)
    if as_json:
        sys.stdout.write(json.dumps(_opening_json(opening), ensure_ascii=False) + "\n")
        return
    from .render import simple_table
    rows = []
    for h in opening.hands:
        rows.append((h.player, " ".join(taktik.short_name(c) for c in h.life_cards), h.life_points,
                     taktik.short_name(h.shield_card), h.shield, "yes" if h.may_redeal else "no",
                     len(h.redeals) or "", "begins" if h.player == opening.starter else ""))
    out = _console()
    out.print(simple_table("Opening deal", ("player", "LP cards", "LP", "Shield card", "Shield", "may redeal",
                                            "redeals", "start"), rows, justify_right=("LP", "Shield")))
    if opening.starter:
        out.print(f"{opening.starter} begins (fewest Life Points, ties to the lower Shield).", soft_wrap=True)
    else:
        out.print(f"{', '.join(opening.tie)} tie on Life Points and Shield; the rules do not say who begins then.",
                  soft_wrap=True)


def _opening_json(opening) -> dict:
    return {"players": [{"player": h.player, "cards": [c.name for c in h.cards],
                         "life_points": h.life_points, "life_cards": [c.name for c in h.life_cards],
                         "shield": h.shield, "shield_card": h.shield_card.name, "may_redeal": h.may_redeal,
                         "redeals": [[c.name for c in r] for r in h.redeals]} for h in opening.hands],
            "starter": opening.starter, "tie": opening.tie}


# -- cards ----------------------------------------------------------------------------------------
@cards_app.command("import")
def cards_import(sheet: Path, skip_bad: Annotated[bool, typer.Option("--skip-bad", help="Import the good rows "
                                                                     "and list the bad ones.")] = False,
                 dry_run: Annotated[bool, typer.Option("--dry-run", help="Say what would change; change "
                                                       "nothing.")] = False, db: DbOption = None) -> None:
    """Add or update cards by id from a card sheet (CSV/XLSX). All rows or none."""
    from .db.store import Store
    from .importers.cardsheet import read_card_sheet
    out, err = _console(), _console(stderr=True)
    data = read_card_sheet(sheet, skip_bad=skip_bad)
    for notice in data.notices:
        err.print(f"[yellow]notice:[/] {notice}")
    result = Store(db).import_cards(data.cards, sheet.name, dry_run=dry_run)
    verb = "would add" if dry_run else "added"
    out.print(f"{sheet}: {verb} {len(result.added)}, {'would update' if dry_run else 'updated'} "
              f"{len(result.updated)}, unchanged {result.unchanged}", soft_wrap=True)
    if data.problems:
        err.print(f"[red]{len(data.problems)} bad row(s) skipped:[/]")
        for p in data.problems:
            err.print(f"  {p}", soft_wrap=True, markup=False)
        raise typer.Exit(2)


@cards_app.command("export")
def cards_export(sheet: Path, game: Annotated[Optional[str], typer.Option(help="Only this game's cards.")] = None,
                 db: DbOption = None) -> None:
    """Write the card database to a card sheet (.csv or .xlsx)."""
    from .db.store import Store
    from .importers.cardsheet import write_card_sheet
    n = write_card_sheet(sheet, Store(db).cards(game))
    _console().print(f"wrote {n} cards to {sheet}", soft_wrap=True)


@cards_app.command("search")
def cards_search(text: str, limit: Annotated[int, typer.Option(help="At most this many rows.")] = 50,
                 cards: CardsOption = None, db: DbOption = None) -> None:
    """Find cards whose name, title, Immortal, type or set contains the text."""
    from .api import Catalog
    from .render import simple_table
    from .text import normalize
    needle = normalize(text)
    found = [c for c in Catalog(db, cards or ()).cards()
             if needle in normalize(" ".join(filter(None, (c.name, c.title, c.immortal, c.type, c.set, c.weapon))))]
    rows = [(c.name, c.set, c.type or "unknown", c.immortal or "", c.edition, c.id) for c in found[:limit]]
    _console().print(simple_table(f"{len(found)} card(s) match {text!r}" + (f", first {limit}" if len(found) > limit
                                                                             else ""),
                                  ("name", "set", "type", "Immortal", "ed.", "id"), rows))
    if not found:
        raise typer.Exit(1)


@cards_app.command("show")
def cards_show(name: str, cards: CardsOption = None, db: DbOption = None) -> None:
    """Show a card (or every card a name matches) with its rules data and grid."""
    from .api import Catalog, closest_names
    from .catalog import CardIndex
    from .errors import CardNotFoundError
    from .render import card_panel
    catalog = Catalog(db, cards or ())
    index = CardIndex(catalog.cards(), closest_names)
    found = [c for c in index.cards if c.id == name] or index.matches(name)
    if not found:
        raise CardNotFoundError(name, "unknown card", index.suggest(name))
    out = _console()
    for card in found:
        out.print(card_panel(card))


@cards_app.command("stats")
def cards_stats(cards: CardsOption = None, db: DbOption = None) -> None:
    """How many cards, by game, edition, set and type, and for how many each rules field is known."""
    from .api import Catalog
    from .cardstats import counts, field_stats
    from .render import simple_table
    all_cards = Catalog(db, cards or ()).cards()
    out = _console()
    out.print(f"[bold]{len(all_cards)} cards[/]")
    for key, counter in counts(all_cards).items():
        out.print(simple_table(f"by {key}", (key, "cards"), sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])),
                               justify_right=("cards",)))
    stats = field_stats(all_cards)
    out.print(simple_table("Highlander rules data: how much is known", ("field", "applies to", "known", "of", "%"),
                           [(s.field, s.applies_to, s.known, s.total,
                             f"{100 * s.known / s.total:.0f}%" if s.total else "—") for s in stats],
                           justify_right=("known", "of", "%")))


@cards_app.command("lint")
def cards_lint(sheet: Annotated[Optional[Path], typer.Option("--sheet", help="Lint a card sheet file instead of "
                                                             "the database.")] = None,
               limit: Annotated[int, typer.Option(help="Show at most this many problems.")] = 100,
               db: DbOption = None) -> None:
    """List data problems: Attacks/Blocks with no grid, Personas with no Master allowance, bad sheet cells."""
    from .cardstats import lint
    from .render import simple_table
    out = _console()
    problems = []
    if sheet is not None:
        from .importers.cardsheet import read_card_sheet
        data = read_card_sheet(sheet, skip_bad=True)
        problems += [(f"row {p.row}", p.column, str(p.value), p.message) for p in data.problems]
        all_cards = data.cards
    else:
        from .db.store import Store
        all_cards = Store(db).cards()
    problems += [(l.card_id, "", l.name, l.problem) for l in lint(all_cards)]
    out.print(simple_table(f"{len(problems)} data problem(s)" + (f", first {limit}" if len(problems) > limit else ""),
                           ("where", "column", "card / value", "problem"), problems[:limit]))
    raise typer.Exit(1 if problems else 0)


# -- db -------------------------------------------------------------------------------------------
@db_app.command("init")
def db_init(empty: Annotated[bool, typer.Option("--empty", help="Create the tables without the bundled "
                                                "cards.")] = False, db: DbOption = None) -> None:
    """Create the tables and load the bundled cards into a new database."""
    from .db.store import Store
    store = Store(db)
    store._engine = store._connect()
    done = store.ensure_initialized(empty=empty)
    n = store.count()
    _console().print(f"{store.url}: {'initialised' if done else 'already initialised'}, {n} cards", soft_wrap=True)
