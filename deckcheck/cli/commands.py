"""The `deckcheck` commands (typer): each parses options, calls one library function and renders.

The database calls, the sheet readers and the web app are imported inside the commands that need them (their
start-up costs are listed in tests/test_layers.py). The entry point is deckcheck.cli.main, which also maps every
DeckcheckError to exit code 2.
"""
from __future__ import annotations

import inspect
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from typing_extensions import Annotated

from .. import limits, provenance
from ..cardsheet import card_json
from ..cards import Card
from ..cells import NONE
from ..cardstats import lint
from ..check import validate, with_details
from ..collection import Holding, deck_name, money
from ..deckdiff import diff_decks
from ..errors import DeckcheckError
from ..fields import Field
from ..games import GAMES, all_formats, registry, data_unknown_ids, game_of, get_format, taktik
from ..importers.writers import SheetSpec, check_target, write_csv, write_csv_to, write_xlsx
from ..library.api import Catalog, CollectionApp, parse_import_id, undecided_cards
from ..library.people import KEEPER, Person
from ..library.statsapi import SavedDeck, diff_named, stats_named
from ..stats import check_draw
from ..text import and_more
from .plain import plural
from .render import card_panel, console, esc, report_panel, simple_table
from .render_stats import print_diff, print_stats
from .options import CARDS, CHECK, DB, TOURNAMENT_CHECK, Option, version_line
from .runner import run_check, run_tournament
from ..web.settings import ServeOption, Settings, serve_options

if TYPE_CHECKING:
    from ..library.decks import DeckBook

HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}  # inherited by every sub-command


def group(help: str, **settings: Any) -> typer.Typer:
    """A command group with click's own help layout, not rich's: rich's cut long option names at 80 columns
    ("--connections-per-add…") and read a help text's "[default: 8000]" as markup (it printed "Port to listen on .")."""
    return typer.Typer(help=help, no_args_is_help=True, rich_markup_mode=None, **settings)


app = group("Deck-construction validator and collection manager for Highlander: The Card Game.",
            pretty_exceptions_enable=False, add_completion=True, context_settings=HELP_OPTIONS)
tournament_app = group("Tournament deck checking: many decklists in, one report out.")
taktik_app = group("Taktisches Kartenspiel: the opening deal.")
cards_app = group("The card database: import, export, search, show, stats, lint.")
db_app = group("Database set-up.")
facts_app = group("Card facts players gave (web answers, card sheets): share them with other servers.")
cards_app.add_typer(facts_app, name="facts")
app.add_typer(cards_app, name="cards")
app.add_typer(db_app, name="db")
app.add_typer(tournament_app, name="tournament")
app.add_typer(taktik_app, name="taktik")
users_app = typer.Typer(help="Accounts of a shared server: who may sign in, with which roles.", no_args_is_help=True)
app.add_typer(users_app, name="users")

def declared(option: Option) -> Any:
    """The typer option of an option declared in deckcheck.cli.options (shared with the argparse fast path)."""
    return typer.Option(*option.flags, help=option.help, envvar=option.env, show_envvar=False)


DbOption = Annotated[Optional[str], declared(DB)]
CardsOption = Annotated[Optional[List[Path]], declared(CARDS)]


def _show_version(value: bool) -> None:
    if value:
        typer.echo(version_line())
        raise typer.Exit()


@app.callback()
def main(version: Annotated[bool, typer.Option("--version", "-V", callback=_show_version, is_eager=True,
                                               help="Print the version and exit.")] = False) -> None:
    """Deck-construction validator and collection manager for Highlander: The Card Game."""


@app.command()
def check(decks: Annotated[List[str], typer.Argument(help="Decklist files or folders (.txt .dec .deck .json "
                                                            ".csv .tsv .xlsx .xlsm .ods; - for standard input).")],
          format: Annotated[Optional[str], declared(CHECK["format"])] = None,
          as_json: Annotated[bool, declared(CHECK["as_json"])] = False,
          quiet: Annotated[bool, declared(CHECK["quiet"])] = False,
          cards: CardsOption = None, db: DbOption = None) -> None:
    """Check decklists against a format: exit 0 legal, 1 not legal, 2 could not be checked."""
    raise typer.Exit(run_check(decks, format, as_json, cards or (), db, quiet))


@app.command()
def formats(name: Annotated[Optional[str], typer.Argument(help="A format name or alias.")] = None) -> None:
    """List the formats and their rules (id, severity, one line)."""
    out = console()
    chosen = [get_format(name)] if name else all_formats()
    for fmt in chosen:
        aliases = f" (aliases: {', '.join(fmt.aliases)})" if fmt.aliases else ""
        out.print(simple_table(f"{fmt.name} — {fmt.title}{aliases}", ("rule", "severity", "rule text"),
                               [(r["id"], r["severity"], r["text"]) for r in fmt.rule_table()]))
    ids = data_unknown_ids(game_of(fmt) for fmt in chosen)
    said = (f"{ids[0]} (warning) is" if len(ids) == 1 else
            f"{', '.join(ids[:-1])} or {ids[-1]} (warnings, each game its own) are")
    out.print(f"{said} reported instead of a rule's own id when the card data the rule needs is missing: the rule is "
              "then unverified, neither passed nor failed.", soft_wrap=True)


# -- statistics and comparisons -------------------------------------------------------------------
FormatOption = Annotated[Optional[str], typer.Option("--format", "-f", help="Format name or alias; default: the "
                                                     "deck's Format: line, else type1e.")]
HandOption = Annotated[int, typer.Option("--hand", help="Cards in the opening hand (1st edition: 15).")]
ExertionOption = Annotated[int, typer.Option("--exertion", help="Cards turned over by an Exertion (1st edition: 5).")]
AsOption = Annotated[Optional[str], typer.Option(
    "--as", help="Act as this account of a shared database: its own collections and decks (default "
                 "$DECKCHECK_USER, else the keeper: this machine's user).", envvar="DECKCHECK_USER",
    show_envvar=False)]


@app.command()
def stats(deck: Annotated[str, typer.Argument(help="A decklist file (any form check reads; - for standard input) "
                                               "or the name of a saved deck.")],
          format: FormatOption = None, hand: HandOption = 15, exertion: ExertionOption = 5,
          as_json: Annotated[bool, typer.Option("--json", help="Print the JSON object (one per deck per "
                                                "line).")] = False,
          cards: CardsOption = None, db: DbOption = None, user: AsOption = None) -> None:
    """What a deck holds and how it draws: types, squares covered, exact opening-hand and Exertion odds."""
    found = stats_named(deck, Catalog(db, cards or ()), format, hand, exertion, _saved_as(db, user))
    if as_json:
        for s in found:
            sys.stdout.write(json.dumps(s.as_dict(), ensure_ascii=False) + "\n")
        return
    out = console()
    for s in found:
        print_stats(out, s)


@app.command()
def diff(a: Annotated[str, typer.Argument(help="The deck before: a decklist file or a saved deck's name.")],
         b: Annotated[str, typer.Argument(help="The deck after: a decklist file or a saved deck's name.")],
         format: FormatOption = None, hand: HandOption = 15, exertion: ExertionOption = 5,
         as_json: Annotated[bool, typer.Option("--json", help="Print the comparison as one JSON object.")] = False,
         cards: CardsOption = None, db: DbOption = None, user: AsOption = None) -> None:
    """Compare two decks: cards added and removed, the verdict and the odds before and after."""
    result = diff_named(a, b, Catalog(db, cards or ()), format, hand, exertion, _saved_as(db, user))
    if as_json:
        sys.stdout.write(json.dumps(result.as_dict(), ensure_ascii=False) + "\n")
        return
    print_diff(console(), result)


def serve(**values: Any) -> None:
    """Start the web app: check decks, browse cards, keep a collection, in a browser (needs the web extra)."""
    from ..web.server import serve as run_server
    if values.get("admin_token"):
        sys.stderr.write("deckcheck: warning: --admin-token puts the token in the process list, where every user of "
                         "this machine can read it; use --admin-token-file PATH or $DECKCHECK_ADMIN_TOKEN\n")
    joined = {o.field: (",".join(values[o.field]) or None) if o.multiple and values[o.field] is not None
              else values[o.field] for o in SERVE_OPTIONS}
    run_server(Settings.from_env(None, **joined))


def serve_parameter(option: ServeOption) -> inspect.Parameter:
    """The typer option of one Settings field: its flag, type, bound and help ("[default: ...; env var: ...]")."""
    kind: Any = List[option.type] if option.multiple else option.type  # type: ignore[name-defined]
    declared_option = typer.Option(option.flag, help=option.help, min=option.min, show_default=False)
    return inspect.Parameter(option.field, inspect.Parameter.KEYWORD_ONLY, default=None,
                             annotation=Annotated[Optional[kind], declared_option])


# Each option's flag, default, help and environment variable are declared once, in deckcheck.web.settings.Settings.
SERVE_OPTIONS = serve_options()
serve.__signature__ = inspect.Signature([serve_parameter(o) for o in SERVE_OPTIONS])  # type: ignore[attr-defined]
app.command()(serve)


# -- tournament -----------------------------------------------------------------------------------
@tournament_app.command("check")
def tournament_check(inputs: Annotated[List[str], typer.Argument(help="Folders of decklists, decklist files, or "
                                                                  "registration workbooks (.xlsx/.csv with a player "
                                                                  "column, or one sheet per player).")],
                     format: Annotated[Optional[str], declared(TOURNAMENT_CHECK["format"])] = None,
                     out: Annotated[Optional[Path], declared(TOURNAMENT_CHECK["out"])] = None,
                     as_json: Annotated[bool, declared(TOURNAMENT_CHECK["as_json"])] = False,
                     cards: CardsOption = None, db: DbOption = None) -> None:
    """Check every deck of a tournament: exit 0 all legal, 1 some illegal, 2 some unreadable."""
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
    if hands is not None:
        from ..importers.deals import read_deal
        opening = taktik.opening(read_deal(hands))
    elif seed is not None:
        opening = taktik.deal(players, seed, redeal)
    else:
        raise DeckcheckError("name a file of dealt cards, or --seed N for a random deal")
    if as_json:
        sys.stdout.write(json.dumps(opening.as_dict(), ensure_ascii=False) + "\n")
        return
    rows = []
    for h in opening.hands:
        rows.append((h.player, " ".join(taktik.short_name(c) for c in h.life_cards), h.life_points,
                     taktik.short_name(h.shield_card), h.shield, "yes" if h.may_redeal else "no",
                     len(h.redeals) or "", "begins" if h.player == opening.starter else ""))
    out = console()
    out.print(simple_table("Opening deal", ("player", "LP cards", "LP", "Shield card", "Shield", "may redeal",
                                            "redeals", "start"), rows, justify_right=("LP", "Shield")))
    if opening.pending:
        who = ", ".join(opening.pending)
        out.print(f"{who} may still redeal (10 LP or fewer): who begins is decided after the redeals (fewest Life "
                  "Points, ties to the lower Shield).", soft_wrap=True, markup=False)
    elif opening.starter:
        out.print(f"{opening.starter} begins (fewest Life Points, ties to the lower Shield).", soft_wrap=True,
                  markup=False)
    else:
        out.print(f"{', '.join(opening.tie)} tie on Life Points and Shield; the rules do not say who begins then.",
                  soft_wrap=True, markup=False)


# -- cards ----------------------------------------------------------------------------------------
@cards_app.command("import")
def cards_import(sheet: Path, skip_bad: Annotated[bool, typer.Option("--skip-bad", help="Import the good rows "
                                                                     "and list the bad ones.")] = False,
                 dry_run: Annotated[bool, typer.Option("--dry-run", help="List every field that would change, "
                                                       "old → new; change nothing.")] = False,
                 overwrite: Annotated[bool, typer.Option("--overwrite", help="Also replace values whose stored "
                                                         "source is stronger than this sheet (a named public "
                                                         "source); without it they are kept and listed.")] = False,
                 db: DbOption = None) -> None:
    """Add cards, or update the fields a card sheet states (CSV/XLSX), by id. All rows or none."""
    from ..importers.cardsheet import read_card_sheet
    from ..library.database import import_cards
    out, err = console(), console(stderr=True)
    data = read_card_sheet(sheet, skip_bad=skip_bad)
    for notice in data.notices:
        err.print(f"[yellow]notice:[/] {esc(notice)}")
    result = import_cards(db, data.rows, provenance.sheet(sheet.name), dry_run=dry_run, overwrite=overwrite)
    verb = "would add" if dry_run else "added"
    out.print(f"{sheet}: {verb} {len(result.added)}, {'would update' if dry_run else 'updated'} "
              f"{len(result.updated)}, unchanged {result.unchanged}", soft_wrap=True, markup=False)
    if dry_run:
        for card_id in result.added:
            out.print(f"  new card {card_id}", soft_wrap=True, markup=False)
    for change in result.changes:  # card by card: each field the sheet adds or changes
        out.print(f"  {change}", soft_wrap=True, markup=False)
    if result.kept:
        out.print(f"{len(result.kept)} value(s) kept: their stored source is stronger than this sheet, or another "
                  f"person stated them otherwise (--overwrite replaces them):", soft_wrap=True, markup=False)
        for change in result.kept:
            out.print(f"  conflict: {change}", soft_wrap=True, markup=False)
    if data.problems:
        err.print(f"[red]{plural(len(data.problems), 'bad row')} skipped:[/]")
        for p in data.problems:
            err.print(f"  {p}", soft_wrap=True, markup=False)
        raise typer.Exit(2)


@cards_app.command("export")
def cards_export(sheet: Path, game: Annotated[Optional[str], typer.Option(help="Only this game's cards.")] = None,
                 with_sources: Annotated[bool, typer.Option("--provenance", help="Add a column per field saying "
                                                            "where its value came from (FIELD_source); cards "
                                                            "import reads them back.")] = False,
                 db: DbOption = None) -> None:
    """Write the card database to a card sheet (.csv or .xlsx)."""
    from ..importers.cardsheet import write_card_sheet
    from ..library.database import card_sources, stored_cards
    n = write_card_sheet(sheet, stored_cards(db, game), card_sources(db) if with_sources else None)
    console().print(f"wrote {n} cards to {sheet}", soft_wrap=True, markup=False)


@facts_app.command("export")
def cards_facts_export(sheet: Path, db: DbOption = None) -> None:
    """Write every stored value that did not come from the bundle (.csv or .xlsx), with its provenance
    (FIELD_source), so that another server's `cards import` takes it and keeps who said what."""
    from ..importers.cardsheet import write_facts_sheet
    from ..library.database import facts_rows
    header, rows = facts_rows(db)
    n = write_facts_sheet(sheet, header, rows)
    k = (len(header) - 3) // 2  # game, id, name, then the fields, then their sources
    values = sum(1 for row in rows for i in range(k) if row[3 + i] != "" or row[3 + k + i] != "")
    console().print(f"wrote {n} cards ({values} values not from the bundle) to {sheet}", soft_wrap=True,
                     markup=False)


@cards_app.command("search")
def cards_search(text: str, limit: Annotated[int, typer.Option(help="At most this many rows.")] = 50,
                 as_json: Annotated[bool, typer.Option("--json", help="Print what GET /api/cards?q=TEXT answers: "
                                                       '{"total", "cards": [...]}, best first.')] = False,
                 cards: CardsOption = None, db: DbOption = None) -> None:
    """Find cards by words in their name, title, Immortal, weapon, type, set or text: any order, typos
    allowed (`back away kurgan`, `dunkan persona`), best first. Exit 1 when no card matches, 2 when the text
    holds nothing to search for."""

    if not any(c.isalnum() for c in text):  # exit 2 like any bad input; 1 is for text that matches no card
        raise DeckcheckError(f"nothing to search for in {text!r}: give a word of a card's name, title, Immortal, "
                             "type or set")
    catalog = Catalog(db, cards or ())
    found = catalog.search(text)
    if as_json:
        typer.echo(json.dumps({"total": len(found), "cards": [card_json(c) for c in found[:limit]]},
                              ensure_ascii=False))
    elif found:
        rows = [(c.name, c.set, c.type or "unknown", c.immortal or "", c.edition, c.id) for c in found[:limit]]
        shown = f", first {limit}" if len(found) > limit else ""
        console().print(simple_table(f"{plural(len(found), 'card')} match {text!r}, best first{shown}",
                                      ("name", "set", "type", "Immortal", "ed.", "id"), rows))
    else:
        closest = catalog.index_all().closest(text)
        hint = f"; the closest names: {', '.join(closest)}" if closest else ""
        console().print(f"no card matches {text!r}{hint}", soft_wrap=True, markup=False)
    if not found:
        raise typer.Exit(1)


@cards_app.command("show")
def cards_show(name: str, show_all: Annotated[bool, typer.Option("--all", help="Every matching card in full, "
                                                                 "one panel each.")] = False,
               cards: CardsOption = None, db: DbOption = None) -> None:
    """Show a card with its rules data and grid; when a name matches several cards, one table of them
    (`--all`: every card in full)."""
    catalog = Catalog(db, cards or ())
    found = catalog.find(name)
    out = console()
    if len(found) > 1 and not show_all:
        # the facts of one printing its game declares (Field.fact; the text aside): what tells the printings apart
        facts = [f for f in registry().fields_of(found[0].game) if f.fact and f.name != "text"]
        rows = [(c.id, c.name, c.set or "", c.type or "unknown", *(_fact_cell(f, c) for f in facts), c.edition)
                for c in found]
        out.print(simple_table(f"{len(found)} cards match {name!r}", ("id", "name", "set", "type",
                                                                    *(f.name for f in facts), "ed."), rows, keep=2))
        hint = console() if out.is_terminal else console(stderr=True)  # a pipe gets one line a card
        hint.print(f"one card in full: deckcheck cards show {found[0].id}  (every card in full: --all)",
                   soft_wrap=True, markup=False)
        return
    sources = catalog.sources([c.id for c in found])
    for card in found:
        out.print(card_panel(card, sources.get(card.id, {})))


def _fact_cell(f: Field, card: Card) -> str:
    """A fact of a printing in a table cell: `?` when unknown, else as a card sheet writes it (`none` for a blank)."""
    return "?" if f.value(card) is None else f.cell(card) or NONE


@cards_app.command("sets")
def cards_sets(as_json: Annotated[bool, typer.Option("--json", help="Print JSON lines.")] = False,
               cards: CardsOption = None, db: DbOption = None) -> None:
    """List the sets: code, name, edition, year and how many cards. Write `[CODE]` or `[Name]` after a card."""
    sets = Catalog(db, cards or ()).set_counts()
    if as_json:
        for s in sets:
            typer.echo(json.dumps(s.as_dict(), ensure_ascii=False))
        return
    rows = [(s.code, s.name, s.edition or "", s.year or "", s.cards) for s in sets]
    console().print(simple_table(f"{len(rows)} sets", ("code", "name", "edition", "year", "cards"), rows,
                                  justify_right=("cards",)))


@cards_app.command("todo")
def cards_todo(decks: Annotated[List[str], typer.Argument(help="Decklist files or folders.")],
               out: Annotated[Optional[str], typer.Option("--out", "-o", help="The card sheet to write (.csv or "
                                                          ".xlsx); default or - : CSV on standard output.")] = None,
               format: Annotated[Optional[str], typer.Option("--format", "-f", help="Format name or alias.")] = None,
               cards: CardsOption = None, db: DbOption = None) -> None:
    """Write a card sheet of exactly the cards and columns that kept a rule undecided (HL-DATA-UNKNOWN).

    Fill it in and import it (deckcheck cards import), or give it to check as --cards: those rules decide.
    """
    todo, unreadable = undecided_cards(decks, Catalog(db, cards or ()), format)
    err = console(stderr=True)
    for source in unreadable:
        err.print(f"skipped {source}: it has input errors (deckcheck check shows them)", soft_wrap=True,
                  markup=False)
    header, rows = todo.header(), todo.rows()
    if out is None or out == "-":
        write_csv_to(sys.stdout, header, rows)
    else:
        target = Path(out)
        if check_target(target, (".csv", ".tsv", ".xlsx")) != "xlsx":
            write_csv(target, header, rows)
        else:
            write_xlsx(target, [SheetSpec("cards", header, rows)])
        err.print(f"wrote {plural(len(rows), 'card')} to fill in ({', '.join(header[2:]) or 'nothing'}) to {out}",
                  soft_wrap=True, markup=False)


@cards_app.command("stats")
def cards_stats(cards: CardsOption = None, db: DbOption = None) -> None:
    """How many cards, by game, edition, set and type, and for how many each rules field is known."""
    found = Catalog(db, cards or ()).card_stats()
    out = console()
    out.print(f"[bold]{found.cards} cards[/]")
    for key, counter in found.counts.items():
        rows = sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))
        out.print(simple_table(f"by {key}", (key, "cards"), rows, justify_right=("cards",)))
    games = " and ".join(g.title for g in GAMES if g.field_stats)
    out.print(simple_table(f"{games} rules data: how much is known, and from which kind of source",
                           ("field", "applies to", "known", "of", "%", "from"),
                           [(s.field, s.applies_to, s.known, s.total,
                             f"{100 * s.known / s.total:.0f}%" if s.total else "—", s.kinds_text())
                            for s in found.fields],
                           justify_right=("known", "of", "%")))


@cards_app.command("lint")
def cards_lint(sheet: Annotated[Optional[Path], typer.Option("--sheet", help="Lint a card sheet file instead of "
                                                             "the database.")] = None,
               limit: Annotated[int, typer.Option(help="Show at most this many problems.")] = 100,
               db: DbOption = None) -> None:
    """List data problems: Attacks/Blocks with no grid, Personas with no Master allowance, bad sheet cells."""
    out = console()
    problems = []
    if sheet is not None:
        from ..importers.cardsheet import read_card_sheet
        data = read_card_sheet(sheet, skip_bad=True)
        problems += [(f"row {p.row}", p.column, str(p.value), p.message) for p in data.problems]
        all_cards = data.cards
    else:
        from ..library.database import stored_cards
        all_cards = stored_cards(db)
    problems += [(l.card_id, "", l.name, l.problem) for l in lint(all_cards)]
    shown = f", first {limit}" if len(problems) > limit else ""
    out.print(simple_table(plural(len(problems), "data problem") + shown,
                           ("where", "column", "card / value", "problem"), problems[:limit]))
    raise typer.Exit(1 if problems else 0)


# -- db -------------------------------------------------------------------------------------------
@db_app.command("init")
def db_init(empty: Annotated[bool, typer.Option("--empty", help="Create the tables without the bundled "
                                                "cards.")] = False, db: DbOption = None) -> None:
    """Create the tables and load the bundled cards into a new database."""
    from ..library.database import init_database
    done = init_database(db, empty=empty)
    console().print(f"{done.url}: {'initialised' if done.created else 'already initialised'}, {done.cards} cards",
                    soft_wrap=True, markup=False)


@db_app.command("update")
def db_update(dry_run: Annotated[bool, typer.Option("--dry-run", help="List every value that would change, "
                                                    "old → new; change nothing.")] = False,
              overwrite: Annotated[bool, typer.Option("--overwrite", help="Also replace values you set (card "
                                                      "sheets, web edits) or stored without a recorded "
                                                      "source; without it they are kept and listed.")] = False,
              db: DbOption = None) -> None:
    """Bring this version's bundled cards (new cards, newly known values, their sources) into a database."""
    from ..library.database import missing_database, update_bundle
    missing = missing_database(db)
    if dry_run and missing is not None:  # a dry run creates nothing, not even the file
        console(stderr=True).print(f"deckcheck: no database at {str(missing)!r}: nothing to update (`deckcheck db "
                                    "init` creates one with the bundled cards)", soft_wrap=True, markup=False)
        raise typer.Exit(2)
    update = update_bundle(db, dry_run=dry_run, overwrite=overwrite)
    result = update.result
    out = console()
    values = [c for c in result.changes if c.old != c.new]
    credited = len(result.changes) - len(values)
    verb = ("would add", "would update", "would record") if dry_run else ("added", "updated", "recorded")
    out.print(f"{update.where}: {verb[0]} {plural(len(result.added), 'card')}, {verb[1]} "
              f"{plural(len(values), 'value')} of {plural(len(result.updated), 'card')}, {verb[2]} the source of "
              f"{plural(credited, 'value')} already equal; {result.unchanged:,} cards unchanged", soft_wrap=True,
              markup=False)
    lines = [f"  new card {i}" for i in result.added] + [f"  {c}" for c in values]
    shown = len(lines) if dry_run else min(len(lines), 50)  # --dry-run lists every one
    for line in and_more(lines[:shown], shown, len(lines)):
        out.print(line if line.startswith("  ") else "  " + line, soft_wrap=True, markup=False)
    if result.kept:
        out.print(f"{plural(len(result.kept), 'value')} kept: set by you or stored without a recorded source "
                  "(--overwrite takes the bundled value):", soft_wrap=True, markup=False)
        for change in result.kept:
            out.print(f"  conflict: {change}", soft_wrap=True, markup=False)


@db_app.command("copy")
def db_copy(source: Annotated[str, typer.Argument(help="The database to copy: a SQLite file or a URL.")],
            target: Annotated[str, typer.Argument(help="Where to: a SQLite file (created) or a URL "
                                                  "(postgresql+psycopg://user@host/dbname).")],
            replace: Annotated[bool, typer.Option("--replace", help="Delete what the target holds and copy the "
                                                  "source in its place (without it a non-empty target is "
                                                  "refused).")] = False) -> None:
    """Copy a whole database (cards and their sources, collections, saved decks, events) into another, e.g. a
    personal SQLite file to a club's PostgreSQL or back; verify row counts and checksums of every table."""
    from ..library.database import copy_database
    err = console(stderr=True)
    result = copy_database(source, target, replace=replace)
    out = console()
    if result.replaced:
        err.print(f"deleted the {result.replaced:,} rows the target held (--replace)", soft_wrap=True,
                  markup=False)
    width = max(len(t.name) for t in result.tables)
    for t in result.tables:
        mark = "ok" if t.same else f"DIFFERS: target {t.target_rows:,} rows, checksum {t.target_checksum}"
        out.print(f"{t.name:<{width}}  {t.rows:>9,} rows  checksum {t.checksum}  {mark}", soft_wrap=True,
                  markup=False)
    if not result.verified:
        raise DeckcheckError(f"the copy in {result.target} differs from {result.source} (see above)")
    out.print(f"copied {result.rows:,} rows of {len(result.tables)} tables from {result.source} "
              f"to {result.target}; every count and checksum matches", soft_wrap=True, markup=False)


# -- collections ----------------------------------------------------------------------------------
collection_app = group("What you own, trade and want; what your decks still need.")
deck_app = group("Decks saved in the database.")
app.add_typer(collection_app, name="collection")
app.add_typer(deck_app, name="deck")
CollectionOption = Annotated[str, typer.Option("--collection", "-c", help="The collection's name.")]


def _collection_app(db: str | None, user: str | None = None) -> CollectionApp:
    """The collections and saved decks of the keeper, or of the account --as names (NoSuchAccount, exit 2, if none:
    whoever may open the database reaches every account's things anyway, so no password is asked). Only no --as
    at all is the keeper: an empty one names no account (exit 2), never the keeper's things."""
    app_ = CollectionApp(db)
    return app_ if user is None else app_.for_person(_person(app_, user))


def _person(app_: CollectionApp, user: str | None) -> Person:
    """The keeper (no --as), or the account --as names (NoSuchAccount if none; AccountError for an empty name)."""
    if user is None:
        return KEEPER
    from ..library.accounts import Accounts
    return Accounts(app_.catalog.store).get(user).person()


@collection_app.command("import")
def collection_import(sheet: Path,
                      mode: Annotated[str, typer.Option(help="merge: add the quantities; replace: make the "
                                                        "collection equal to the file.")] = "merge",
                      dry_run: Annotated[bool, typer.Option("--dry-run", help="Show what would change; change "
                                                            "nothing.")] = False,
                      skip_bad: Annotated[bool, typer.Option("--skip-bad", help="Import the good rows and list the "
                                                             "bad ones.")] = False,
                      again: Annotated[bool, typer.Option("--again", help="Import a file whose content was imported "
                                                          "into the collection before (merge adds its copies "
                                                          "again).")] = False,
                      collection: CollectionOption = "main", db: DbOption = None,
                      user: AsOption = None) -> None:
    """Import a collection sheet (ours, or another tool's layout): all rows or none. `collection undo` takes it back.

    A file whose content was imported into the collection before is named as such and not imported
    again in merge mode (exit 2, nothing changed) unless --again."""
    app_ = _collection_app(db, user)
    err = console(stderr=True)
    with Progress(TextColumn("reading rows"), BarColumn(), MofNCompleteColumn(), console=err, transient=True,
                  disable=not err.is_terminal) as bar:
        task = bar.add_task("rows", total=None)
        layout, changes, problems, rows = app_.import_sheet(sheet, collection, mode, dry_run, skip_bad,
                                                            progress=lambda n: bar.advance(task, n), again=again)
    out = console()
    out.print(f"{sheet}: {plural(rows, 'row')}, layout detected: {layout}", soft_wrap=True, markup=False)
    for name, change in changes.items():
        verb = "would change" if dry_run else "changed"
        kept = (f", {plural(change.kept, 'entry', 'entries')} kept (a skipped row named their card)"
                if change.kept else "")
        if change.imported_before is not None:
            past = change.imported_before
            out.print(f"this content was imported into {name!r} before, on {past.when}"
                      + (f" (from {past.label!r})" if past.label and past.label != sheet.name else "")
                      + (": importing again adds its copies again" if mode == "merge" else ""),
                      soft_wrap=True, markup=False)
        out.print(f"collection {name!r} {verb}: {change.added:,} added, {change.updated:,} updated, "
                  f"{change.removed:,} removed, {change.unchanged:,} unchanged{kept}", soft_wrap=True, markup=False)
        if change.changed:
            was, now = change.totals_before, change.totals_after
            out.print("  totals: " + ", ".join(f"{label} {was[k]:,} → {now[k]:,}" for k, label in (
                ("entries", "entries"), ("copies", "copies"), ("for_trade", "for trade"), ("wanted", "wanted"))
                if was[k] or now[k]), soft_wrap=True, markup=False)
        lines = [f"  {kind}: {h.describe_change(old) if kind == 'updated' else h.describe()}"
                 for (kind, h), old in zip(change.sample, change.before, strict=True)]
        for line in and_more(lines, len(lines), change.added + change.updated + change.removed):
            out.print(line if line.startswith("  ") else "  " + line, soft_wrap=True, markup=False)
        if change.import_id is not None:
            out.print(f"  journalled as import {change.import_id}: `collection undo {change.import_id}"
                      + (f" --collection {name}" if name != "main" else "") + "` takes it back",
                      soft_wrap=True, markup=False)
    if problems:
        err.print(f"[red]{plural(len(problems), 'bad row')} skipped:[/]")
        for line in and_more([f"  {p}" for p in problems[:200]], min(200, len(problems)), len(problems)):
            err.print(line if line.startswith("  ") else "  " + line, soft_wrap=True, markup=False)
        raise typer.Exit(2)


@collection_app.command("undo")
def collection_undo(import_id: Annotated[Optional[str], typer.Argument(
                        metavar="IMPORT", help="The import's id (`collection imports` lists them); default: the "
                        "last import.")] = None,
                    collection: CollectionOption = "main", db: DbOption = None,
                    user: AsOption = None) -> None:
    """Undo one import into the collection (the last, unless named): what it changed goes back, later edits stay.

    Refused (exit 2, nothing changed) when the import was undone already, or when a later change took away
    copies it added; the message names that change."""
    wanted = None if import_id is None else parse_import_id(import_id)
    app_ = _collection_app(db, user)
    past = app_.undo_import(collection, wanted)
    left = app_.last_import(collection)
    console().print(f"collection {collection!r}: undid the import of {past.label or 'a file'} from {past.when} "
                     f"(import {past.id}, {plural(past.changes, 'change')} taken back, later edits kept)"
                     + (f"; the last import still standing: {left.label or 'a file'} from {left.when} "
                        f"(import {left.id})" if left else ""), soft_wrap=True, markup=False)


@collection_app.command("imports")
def collection_imports(collection: CollectionOption = "main", db: DbOption = None,
user: AsOption = None) -> None:
    """List the imports into the collection that can be undone (the last 100, the last first), with the id
    `collection undo` takes."""
    found = _collection_app(db, user).imports(collection)
    if not found:
        console().print(f"collection {collection!r}: no import to undo", soft_wrap=True, markup=False)
    for past in found:
        console().print(f"{past.id:>6}  {past.when}  {past.mode:<7}  {plural(past.changes, 'change'):>12}  "
                         f"{past.label or 'a file'}", soft_wrap=True, markup=False)


@collection_app.command("export")
def collection_export(sheet: Path, all_collections: Annotated[bool, typer.Option("--all", help="Every collection: "
                                                                                  "one sheet each (XLSX) or a "
                                                                                  "collection column (CSV).")] = False,
                      collection: CollectionOption = "main", db: DbOption = None,
                      user: AsOption = None) -> None:
    """Write a collection sheet (.csv or .xlsx); nothing in it runs as a formula."""
    from ..importers.collection import SHEET_SUFFIXES, write_collection
    check_target(sheet, SHEET_SUFFIXES)
    app_ = _collection_app(db, user)
    holdings = app_.holdings(None if all_collections else collection)
    n = write_collection(sheet, holdings, by_collection=all_collections)
    console().print(f"wrote {plural(n, 'row')} to {sheet}", soft_wrap=True, markup=False)


def _show_entry(collection: str, h: Holding, now: Holding | None) -> None:
    name = f"{h.card.name} [{h.card.set}]" if h.card.set else h.card.name
    what = f"{name} {h.condition} {h.language}{' foil' if h.foil else ''}"
    console().print(f"{collection}: {what}: " + (f"{now.quantity} owned, {now.trade_quantity} for trade, "
                                                  f"{now.want_quantity} wanted" if now else "removed"),
                     soft_wrap=True, markup=False)


QtyOption = Annotated[int, typer.Option("--qty", min=0, max=limits.QUANTITY.value)]
CountOption = Annotated[int, typer.Option(min=0, max=limits.QUANTITY.value)]


@collection_app.command("add")
def collection_add(card: str, qty: QtyOption = 1,
                   set_code: Annotated[Optional[str], typer.Option("--set")] = None,
                   condition: Annotated[str, typer.Option(help="M NM LP MP HP D (default NM)")] = "",
                   language: Annotated[str, typer.Option(help="Default English.")] = "",
                   foil: Annotated[bool, typer.Option("--foil")] = False,
                   trade: Annotated[int, typer.Option(min=0, max=limits.QUANTITY.value, help="Copies for trade.")] = 0,
                   want: Annotated[int, typer.Option(min=0, max=limits.QUANTITY.value, help="Copies wanted.")] = 0,
                   location: Annotated[str, typer.Option()] = "", notes: Annotated[str, typer.Option()] = "",
                   price: Annotated[str, typer.Option(help="Price per copy, as you write it (1.50, $0.25).")] = "",
                   collection: CollectionOption = "main", db: DbOption = None,
                   user: AsOption = None) -> None:
    """Add copies of a card (a printing in a condition, language and finish; NM, English, not foil by default)."""
    if not (qty or trade or want):
        raise typer.BadParameter("nothing to add: --qty, --trade and --want are all 0", param_hint="'--qty'")
    app_ = _collection_app(db, user)
    h = app_.holding(card, set_code, condition=condition, language=language, foil=foil, quantity=qty,
                     trade_quantity=trade, want_quantity=want, location=location, notes=notes, price=price)
    _show_entry(collection, h, app_.add(collection, h))


@collection_app.command("remove")
def collection_remove(card: str, qty: QtyOption = 1,
                      set_code: Annotated[Optional[str], typer.Option("--set", help="Only this printing.")] = None,
                      condition: Annotated[Optional[str], typer.Option(help="Only this condition.")] = None,
                      language: Annotated[Optional[str], typer.Option(help="Only this language.")] = None,
                      foil: Annotated[Optional[bool], typer.Option("--foil/--no-foil", help="Only foil / not foil "
                                                                   "copies.")] = None,
                      trade: CountOption = 0, want: CountOption = 0,
                      collection: CollectionOption = "main", db: DbOption = None,
                      user: AsOption = None) -> None:
    """Remove copies of a card from the one entry that matches what you give; lists the entries if several do."""
    now, h = _collection_app(db, user).remove(collection, card, set_code, condition, language, foil, quantity=qty,
                                        trade_quantity=trade, want_quantity=want)
    _show_entry(collection, h, now)


@collection_app.command("list")
def collection_list(filter_text: Annotated[Optional[str], typer.Option("--filter", help="Only cards whose name, "
                                                                        "set, location or notes hold this.")] = None,
                    limit: Annotated[int, typer.Option(help="At most this many rows.")] = 200,
                    collection: CollectionOption = "main", db: DbOption = None,
                    user: AsOption = None) -> None:
    """List what a collection holds."""
    holdings = _collection_app(db, user).entries(collection, filter_text)
    rows = [(h.card.name, h.card.set, h.quantity, h.condition, h.language, "foil" if h.foil else "",
             h.trade_quantity or "", h.want_quantity or "", h.location) for h in holdings[:limit]]
    console().print(simple_table(f"{collection}: {plural(len(holdings), 'entry', 'entries')}" + (f", first {limit}" if
                                                                                       len(holdings) > limit else ""),
                                  ("card", "set", "qty", "cond.", "language", "foil", "trade", "want", "location"),
                                  rows, justify_right=("qty", "trade", "want")))


@collection_app.command("stats")
def collection_stats(collection: CollectionOption = "main", db: DbOption = None,
user: AsOption = None) -> None:
    """Cards, distinct cards, by set and edition, and how complete each 1st-edition set is."""
    found = _collection_app(db, user).stats(collection)
    out = console()
    out.print(f"{collection}: {plural(found.cards, 'card')}, {plural(found.distinct, 'distinct card')}, "
              f"{plural(found.printings, 'distinct printing')}", soft_wrap=True, markup=False)
    if found.value or found.unpriced:
        unpriced = f" ({plural(found.unpriced, 'entry', 'entries')} without a price)" if found.unpriced else ""
        out.print(f"value: {money(found.value) or 'unknown'}{unpriced}", soft_wrap=True, markup=False)
    out.print(simple_table("by set", ("set", "cards"), list(found.by_set.items()), justify_right=("cards",)))
    out.print(simple_table("by edition", ("edition", "cards"), list(found.by_edition.items()),
                           justify_right=("cards",)))
    rows = [(s, owned, of, f"{100 * owned / of:.1f}%") for s, owned, of in found.completion]
    out.print(simple_table("1st-edition sets: printings owned", ("set", "owned", "of", "complete"), rows,
                           justify_right=("owned", "of", "complete")))


@collection_app.command("missing")
def collection_missing(decks: Annotated[List[str], typer.Argument(help="Decklist files or folders, or names of "
                                                                  "saved decks.")],
                       as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
                       out: Annotated[Optional[Path], typer.Option("--out", help="Write a want list sheet that "
                                                                   "collection import reads back.")] = None,
                       collection: CollectionOption = "main", db: DbOption = None,
                       user: AsOption = None) -> None:
    """What each deck, and all of them together, still lack: needed, owned, short."""
    if out is not None:
        from ..importers.collection import SHEET_SUFFIXES
        check_target(out, SHEET_SUFFIXES)
    result = _collection_app(db, user).missing(decks, collection)
    if as_json:
        sys.stdout.write(json.dumps(result.as_dict(collection), ensure_ascii=False) + "\n")
    else:
        screen = console()
        tables = list(result.per_deck.items())
        if len(tables) != 1:  # one deck: its table is the whole answer
            tables.append(("all decks together", result.together))
        for name, needs in tables:
            screen.print(simple_table(f"{name}: {plural(sum(n.short for n in needs), 'card')} short",
                                       ("card", "set", "needed", "owned", "short"),
                                       [(n.card.name, n.card.set, n.needed, n.owned, n.short) for n in needs],
                                       justify_right=("needed", "owned", "short")))
    if out is not None:
        from ..importers.collection import write_collection
        wants = [Holding(n.card, want_quantity=n.short, quantity=0) for n in result.together]
        write_collection(out, wants)
        console(stderr=True).print(f"wrote a want list of {plural(len(wants), 'card')} to {out}", soft_wrap=True,
                                    markup=False)


@collection_app.command("trades")
def collection_trades(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
                      collection: CollectionOption = "main", db: DbOption = None,
                      user: AsOption = None) -> None:
    """Cards held beyond what the saved decks use, and cards marked for trade."""
    found = _collection_app(db, user).trades(collection)
    if as_json:
        sys.stdout.write(json.dumps([s.as_dict() for s in found]) + "\n")
        return
    console().print(simple_table(f"{collection}: {len(found)} cards to trade", ("card", "set", "owned",
                                                                                "used by decks", "spare",
                                                                                "marked for trade"),
                                  [(s.card.name, s.card.set, s.owned, s.used, s.spare, s.marked) for s in found],
                                  justify_right=("owned", "used by decks", "spare", "marked for trade")))


def _deck_book(db: str | None, user: str | None = None) -> tuple[DeckBook, Person, CollectionApp]:
    """The kept decks read as the keeper or as the account --as names, that person, and their collections' app."""
    from ..library.decks import DeckBook
    app = _collection_app(db)
    who = _person(app, user)
    app = app.for_person(who) if user is not None else app
    return DeckBook(app.catalog, app.collections), who, app


def _saved_as(db: str | None, user: str | None) -> SavedDeck | None:
    """How `stats` and `diff` read a saved deck named on the command line as the account --as names (its own by
    name, another's link or public deck by id, as `deck show --as`); None for the keeper, who reads any saved deck."""
    if user is None:
        return None
    book, who, _app = _deck_book(db, user)
    return lambda name: book.deck_at(who, book.named(who, name).id)


def _deck_key(book: DeckBook, who: Person, name: str) -> str:
    """The id of the deck a command names: the keeper's by its name (its id), an account's own by its name first."""
    return (book.find(who, name) if who.owner_id is None else book.named(who, name)).id


@deck_app.command("save")
def deck_save(name: str, decklist: Path, format: Annotated[Optional[str], typer.Option("--format", "-f")] = None,
              db: DbOption = None, user: AsOption = None) -> None:
    """Keep a decklist in the database under a name; a name already kept gets a new version (when the list
    changed). With --as, the account's deck of that name (a new one gets an id of its own: `deck list` shows it)."""
    book, who, app = _deck_book(db, user)
    if who.owner_id is None:
        kept = app.collections.kept
        was = kept.get(name)
        _replaced, report = app.save_deck(name, str(decklist), format)
        after = kept.get(name)
        before, version = (None if was is None else was.version), (after.version if after is not None else 1)
    else:
        deck_name(name)  # before any work: a name past the limit is refused at once
        deck, fmt = app.read_deck(str(decklist), format)
        mine, before = book.keep(who, name, deck, fmt)
        report, version = validate(deck, fmt), mine.version
    verdict = "legal" if report.legal else "not legal"
    about = f"({report.format}, {sum(report.counts.values())} cards, {verdict})"
    if before is None:
        said = f"saved deck {name!r} {about}"
    elif version == before:
        said = f"deck {name!r} unchanged: the list is version {version}'s {about}"
    else:
        said = f"saved version {version} of deck {name!r} {about}"
    console().print(said, soft_wrap=True, markup=False)


@deck_app.command("list")
def deck_list(db: DbOption = None, user: AsOption = None) -> None:
    """The saved decks (with --as: the account's own, with their ids)."""
    book, who, app = _deck_book(db, user)
    if who.owner_id is None:
        rows = app.saved_decks()
        console().print(simple_table(plural(len(rows), "saved deck"), ("name", "format", "saved", "cards"), rows,
                                      justify_right=("cards",)))
        return
    mine = [(d.name, d.id, d.format, d.updated_at, sum(c.quantity for c in d.cards)) for d in book.mine(who)]
    console().print(simple_table(f"{who.name}: {plural(len(mine), 'saved deck')}",
                                  ("name", "id", "format", "saved", "cards"), mine, justify_right=("cards",)))


@deck_app.command("show")
def deck_show(name: str, version: Annotated[Optional[int], typer.Option(
                  "--version", min=1, help="A version of the deck (`deck versions`); default the latest.")] = None,
              db: DbOption = None, user: AsOption = None) -> None:
    """A saved deck: its list and its check report."""
    out = console()
    book, who, app = _deck_book(db, user)
    if version is None:
        deck, fmt, text = app.saved_deck(name if who.owner_id is None else _deck_key(book, who, name))
    else:
        key = _deck_key(book, who, name)
        text = book.version(who, key, version)[1].text
        deck, fmt = book.deck_at(who, key, version)
    out.print(text, markup=False, highlight=False)
    out.print(report_panel(with_details(deck, fmt, validate(deck, fmt))))


@deck_app.command("versions")
def deck_versions(name: str, as_json: Annotated[bool, typer.Option("--json", help="Print the versions as JSON.")]
                  = False, db: DbOption = None, user: AsOption = None) -> None:
    """A saved deck's versions: when each was saved, its verdict now, and what it changed."""
    book, who, _app = _deck_book(db, user)
    rows = book.history(who, _deck_key(book, who, name))
    if as_json:
        sys.stdout.write(json.dumps([r.as_dict() for r in rows], ensure_ascii=False) + "\n")
        return
    verdicts = {True: "legal", False: "not legal", None: "no verdict"}
    console().print(simple_table(f"{name}: {plural(len(rows), 'version')}", ("version", "saved", "verdict", "changes"),
                                  [(r.version, r.at, verdicts[r.legal], r.changes) for r in rows],
                                  justify_right=("version",)))


def _version_named(book: DeckBook, who: Person, text: str) -> tuple[str, int | None]:
    """(deck id, version) of `NAME@N` (`NAME` alone: the latest); DeckcheckError for a version that is no number."""
    name, at, number = text.rpartition("@") if "@" in text else (text, "", "")
    if at and not (number.isascii() and number.isdigit() and len(number) <= 7):
        raise DeckcheckError(f"{text!r}: write NAME@N, N a version number (`deck versions NAME` lists them)")
    return _deck_key(book, who, name), int(number) if at else None


@deck_app.command("diff")
def deck_diff(a: Annotated[str, typer.Argument(help="The deck before: NAME@N (a version), or NAME (the latest).")],
              b: Annotated[str, typer.Argument(help="The deck after: NAME@N, or NAME.")],
              hand: HandOption = 15, exertion: ExertionOption = 5,
              as_json: Annotated[bool, typer.Option("--json", help="Print the comparison as one JSON object.")] = False,
              db: DbOption = None, user: AsOption = None) -> None:
    """Compare two versions of saved decks: cards added and removed, the verdict and the odds before and after."""
    check_draw("hand", hand)
    check_draw("exertion", exertion)
    book, who, _app = _deck_book(db, user)
    (deck_a, fmt_a), (deck_b, fmt_b) = (book.deck_at(who, *_version_named(book, who, x)) for x in (a, b))
    result = diff_decks(deck_a, fmt_a, deck_b, fmt_b, hand, exertion)
    if as_json:
        sys.stdout.write(json.dumps(result.as_dict(), ensure_ascii=False) + "\n")
        return
    print_diff(console(), result)


@deck_app.command("restore")
def deck_restore(name: str, version: Annotated[int, typer.Argument(min=1, help="The version to go back to.")],
                 db: DbOption = None, user: AsOption = None) -> None:
    """Save a saved deck's version N again, as its new latest version (nothing is lost: every version stays)."""
    book, who, _app = _deck_book(db, user)
    deck, new = book.restore(who, _deck_key(book, who, name), version)
    said = (f"restored version {version} of deck {name!r} as version {deck.version}" if new else
            f"deck {name!r} unchanged: its latest version already holds version {version}'s list")
    console().print(said, soft_wrap=True, markup=False)


@deck_app.command("export")
def deck_export(name: str, path: Annotated[Path, typer.Argument(help="A .txt, .csv or .json file; - writes the "
                                                                 "text decklist to standard output.")],
                db: DbOption = None, user: AsOption = None) -> None:
    """Write a saved deck as a decklist: .txt, .csv or .json (- for standard output)."""
    from ..importers.decklists import write_decklist
    book, who, app = _deck_book(db, user)
    deck, fmt, text = app.saved_deck(name if who.owner_id is None else _deck_key(book, who, name))
    if str(path) == "-":
        sys.stdout.write(text)
        return
    write_decklist(path, fmt.name, text, [(e.card, e.section, e.quantity) for e in deck.entries])
    console().print(f"wrote deck {name!r} to {path}", soft_wrap=True, markup=False)


@deck_app.command("delete")
def deck_delete(name: str, db: DbOption = None, user: AsOption = None) -> None:
    """Delete a saved deck (with --as: one of the account's own)."""
    book, who, app = _deck_book(db, user)
    app.delete_deck(name if who.owner_id is None else book.owned(who, _deck_key(book, who, name)).id)
    console().print(f"deleted deck {name!r}", soft_wrap=True, markup=False)


# -- accounts ---------------------------------------------------------------------------------------
PASSWORD_FILE_MAX = 4096
RoleOption = Annotated[Optional[List[str]], typer.Option(
    "--role", help="A role: keeper, organiser, judge, reviewer or player (repeatable) [default: player].")]
PasswordFileOption = Annotated[Optional[Path], typer.Option(
    "--password-file", help="A file holding the password on its first line (else it is asked for; never give a "
                            "password on the command line).")]


def read_password(path: Path | None) -> str:
    """The password of --password-file (its first line), else asked for twice without echo."""
    if path is not None:
        try:
            with open(path, "rb") as f:
                data = f.read(PASSWORD_FILE_MAX + 1)
        except OSError as exc:
            raise DeckcheckError(f"--password-file {str(path)!r}: {exc.strerror or exc}") from None
        lines = data.decode("utf-8", "replace").splitlines()
        if len(data) > PASSWORD_FILE_MAX or not lines:
            raise DeckcheckError(f"--password-file {str(path)!r}: the password alone on the first line, at most "
                                 f"{PASSWORD_FILE_MAX} bytes")
        return lines[0]
    import getpass
    first = getpass.getpass("Password: ")
    if getpass.getpass("Password again: ") != first:
        raise DeckcheckError("the two passwords differ; nothing was changed")
    return first


def _account_line(account: Any) -> str:
    """`Ann: organiser, player`; the first keeper account (whose things are the keeper's, with all that was kept
    before accounts: CONTRACTS §9) says so."""
    line = f"{account.name}: {', '.join(account.roles) or 'no role'}"
    return line + " (the server's keeper: owns what the keeper owns)" if account.first_keeper else line


@users_app.command("add")
def users_add(name: Annotated[str, typer.Argument(help="The account's name (what it signs in with).")],
              role: RoleOption = None, password_file: PasswordFileOption = None, db: DbOption = None) -> None:
    """Make an account (its password is stored only as an argon2id hash)."""
    from ..library.accounts import Accounts
    accounts = Accounts.at(db)
    account = accounts.add(name, read_password(password_file), role or ["player"])
    console().print(f"added {_account_line(account)}", soft_wrap=True, markup=False)


@users_app.command("list")
def users_list(db: DbOption = None) -> None:
    """Every account and its roles."""
    from ..library.accounts import Accounts
    for account in Accounts.at(db).all():
        console().print(_account_line(account), soft_wrap=True, markup=False)


@users_app.command("passwd")
def users_passwd(name: Annotated[str, typer.Argument(help="The account's name.")],
                 password_file: PasswordFileOption = None, db: DbOption = None) -> None:
    """Set an account's password; every session it has signed in ends."""
    from ..library.accounts import Accounts
    accounts = Accounts.at(db)
    accounts.get(name)  # no prompt for an account that does not exist
    account = accounts.passwd(name, read_password(password_file))
    console().print(f"new password for {account.name}; its sessions ended", soft_wrap=True, markup=False)


@users_app.command("remove")
def users_remove(name: Annotated[str, typer.Argument(help="The account's name.")],
                 hand_to_keeper: Annotated[bool, typer.Option(
                     "--hand-to-keeper", help="Give what the account owns (collections, saved decks, events) to the "
                                              "keeper.")] = False,
                 delete_owned: Annotated[bool, typer.Option(
                     "--delete-owned", help="Delete the account's collections and saved decks (its events go to the "
                                            "keeper: they hold other players' decks and results).")] = False,
                 db: DbOption = None) -> None:
    """Remove an account, its sessions, tokens and judge namings. Refused (exit 2, nothing changed), naming what it
    owns, while it owns collections, saved decks or events, unless --hand-to-keeper or --delete-owned says what
    becomes of them."""
    from ..library.accounts import Accounts, owned_text
    if hand_to_keeper and delete_owned:
        raise typer.BadParameter("--hand-to-keeper or --delete-owned, not both", param_hint="'--delete-owned'")
    choice = "hand-to-keeper" if hand_to_keeper else "delete" if delete_owned else "refuse"
    account, things = Accounts.at(db).remove(name, choice)
    gone = owned_text({**things, "events": []}) if choice == "delete" else ""
    handed = owned_text({"events": things["events"]} if choice == "delete" else things)
    said = "; ".join([f"{gone} deleted"] * bool(gone) + [f"{handed} handed to the keeper"] * bool(handed))
    console().print(f"removed {account.name}" + (f": {said}" if said else ""), soft_wrap=True, markup=False)


@users_app.command("roles")
def users_roles(name: Annotated[str, typer.Argument(help="The account's name.")],
                roles: Annotated[Optional[List[str]], typer.Argument(
                    help="Its roles from now on (none: no role): keeper, organiser, judge, reviewer, "
                         "player.")] = None, db: DbOption = None) -> None:
    """Set an account's roles."""
    from ..library.accounts import Accounts
    account = Accounts.at(db).set_roles(name, roles or [])
    console().print(_account_line(account), soft_wrap=True, markup=False)
