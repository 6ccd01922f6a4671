"""A game really is one module: a toy game, in a temporary package registered as a plugin is (a module of the
namespace package `deckcheck_games`), goes through `check`, `tournament check`, `formats`, `cards todo` and the
web's formats page with no file of deckcheck knowing it; and the generic modules name no game."""
from __future__ import annotations

import csv
import functools
import io
import json
import os
import re
import subprocess
import sys
import textwrap
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

TOY = textwrap.dedent('''
    """Toy Duel: a Champion and ten Moves; every Move's Power adds up to at most 20."""
    from dataclasses import dataclass
    from types import MappingProxyType

    from deckcheck.cards import Card
    from deckcheck.formats import Format, Game, Heading, View, number_column
    from deckcheck.report import ERROR
    from deckcheck.rules import Params, data_unknown, error, rule, rules_of

    CHAMPION, MOVES = "Champion", "Moves"


    @dataclass(frozen=True)
    class ToyParams(Params):
        moves: int = 10
        power_max: int = 20


    class ToyView(View):  # the counts of its sections, no Persona: the base View's
        def of(self, section):
            return [e for e in self.deck.entries if e.section == section]


    @rule("TOY-MOVES", ERROR, "A deck holds exactly {moves} Moves.")
    def moves(v):
        n = sum(e.quantity for e in v.of(MOVES))
        return [] if n == v.params.moves else [error(f"the deck holds {n} Moves; {v.params.moves} are required",
                                                     limit=v.params.moves, actual=n)]


    @rule("TOY-POWER", ERROR, "The Moves' Power adds up to at most {power_max}.")
    def power(v):
        total, unknown = 0, []
        for e in v.of(MOVES):
            value = e.card.extra_value("power")
            if value is None:
                unknown.append(e.card)
            else:
                total += value * e.quantity
        if total > v.params.power_max:
            return [error(f"the Moves have {total} Power", limit=v.params.power_max, actual=total)]
        return [data_unknown("Power unknown", unknown)] if unknown else []


    def cards():
        return [Card(id="toy-hero", name="Brave Hero", title="Brave Hero", type="Champion", game="toy-duel"),
                Card(id="toy-jab", name="Jab", title="Jab", type="Move", game="toy-duel", extra=(("power", 1),)),
                Card(id="toy-feint", name="Feint", title="Feint", type="Move", game="toy-duel")]


    TOY = Format(name="toy-duel", title="Toy Duel", game="toy-duel", rules=rules_of(moves, power),
                 view=ToyView, params=ToyParams(),
                 sections=MappingProxyType({CHAMPION: ("hero",), MOVES: ("move list",)}),
                 default_section=lambda card: CHAMPION if card.type == "Champion" else MOVES, builtin_cards=cards)
    COLUMNS = (number_column("power"),)
    GAME = Game("toy-duel", (TOY,), card_types=frozenset({"Champion", "Move"}), columns=("power",),
                extra_columns=COLUMNS, rule_columns={power: ("power",)},
                headings=MappingProxyType({"strike": Heading(MOVES, frozenset({"Move"}))}),
                data_unknown="TOY-DATA-UNKNOWN", title="Toy Duel",
                rule_words={power: "Power total not checked"}, settle={"power": "the Power printed on the move"},
                limit_words={"moves": "Exactly {n} Move[s]"})
''')

DECK = "Format: toy-duel\nChampion:\n1 Brave Hero\nStrikes:\n5 Jab\n5 Feint\n"


@pytest.fixture(scope="module")
def plugin(tmp_path_factory) -> dict[str, str]:
    """The environment of a run that has the toy game installed as a plugin (and a fresh database)."""
    folder = tmp_path_factory.mktemp("plugin")
    (folder / "deckcheck_games").mkdir()  # a namespace package: no __init__.py
    (folder / "deckcheck_games" / "toy_duel.py").write_text(TOY, encoding="utf-8")
    db = folder / "cards.db"
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")]),
                DECKCHECK_DB=f"sqlite:///{db}", COLUMNS="200", DECKCHECK_CACHE_DIR=str(folder / "cache"))


def run(env: dict[str, str], *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    exe = str(Path(sys.executable).with_name("deckcheck"))
    return subprocess.run([exe, *args], env=env, capture_output=True, text=True, cwd=cwd, timeout=120)


def test_formats_lists_the_plugin_game(plugin):
    r = run(plugin, "formats")
    assert r.returncode == 0, r.stderr
    assert "toy-duel" in r.stdout and "TOY-MOVES" in r.stdout and "TOY-POWER" in r.stdout
    assert "type1e" in r.stdout  # the built-in games are all still there
    # the id a rule reports instead of its own when data is missing is each game's own
    assert "HL-DATA-UNKNOWN or TOY-DATA-UNKNOWN (warnings, each game its own) are reported instead" in r.stdout
    one = run(plugin, "formats", "toy-duel")
    assert "TOY-DATA-UNKNOWN (warning) is reported instead" in one.stdout and "HL-DATA-UNKNOWN" not in one.stdout


def test_a_rule_the_data_kept_from_deciding_is_said_in_the_games_words(plugin, tmp_path):
    deck = tmp_path / "duel.txt"
    deck.write_text(DECK, encoding="utf-8")
    r = run(plugin, "check", str(deck))
    assert r.returncode == 0, r.stderr
    assert ("unverified TOY-POWER: Power total not checked: Feint — settled by the Power printed on the move"
            in r.stdout), r.stdout


def test_statistics_name_the_game_that_has_none(plugin, tmp_path):
    deck = tmp_path / "duel.txt"
    deck.write_text(DECK, encoding="utf-8")
    r = run(plugin, "stats", str(deck))
    assert r.returncode == 2
    assert "statistics are for Highlander decks; format 'toy-duel' is a Toy Duel format" in r.stderr


def test_check_reads_the_games_headings_and_reports_its_own_data_unknown(plugin, tmp_path):
    deck = tmp_path / "duel.txt"
    deck.write_text(DECK, encoding="utf-8")
    r = run(plugin, "check", str(deck), "--json")
    report = json.loads(r.stdout)
    assert r.returncode == 0, (r.stdout, r.stderr)
    assert report["format"] == "toy-duel" and report["legal"] is True and report["input_errors"] == []
    assert report["counts"] == {"Champion": 1, "Moves": 10}  # `Strikes:` is the game's own heading
    assert [(i["rule"], i["cards"]) for i in report["issues"]] == [("TOY-DATA-UNKNOWN", ["Feint"])]
    assert report["issues"][0]["message"].startswith("TOY-POWER not verified: Power unknown")
    bad = tmp_path / "bad.txt"
    bad.write_text("Format: toy-duel\nSideways:\n1 Jab\n", encoding="utf-8")
    wrong = json.loads(run(plugin, "check", str(bad), "--json").stdout)
    message = wrong["input_errors"][0]["message"]
    assert "Champion, Moves, Strikes, Sideboard" in message  # its sections, then its own headings
    assert "Endurance" not in message and "Hunters" not in message


def test_tournament_summary_has_the_games_columns(plugin, tmp_path):
    folder = tmp_path / "event"
    folder.mkdir()
    (folder / "ann.txt").write_text(DECK, encoding="utf-8")
    (folder / "bob.txt").write_text(DECK.replace("5 Feint", "9 Feint"), encoding="utf-8")
    r = run(plugin, "tournament", "check", str(folder), "--out", "-")
    rows = list(csv.reader(io.StringIO(r.stdout)))
    assert rows[0][:9] == ["player", "source", "format", "champion", "moves", "legal", "errors", "warnings",
                           "first error"], r.stderr
    assert [(row[0], row[3], row[4], row[5]) for row in rows[1:]] == [("ann", "1", "10", "legal"),
                                                                    ("bob", "1", "14", "NOT LEGAL")]
    table = run(plugin, "tournament", "check", str(folder))
    assert "champion" in table.stdout and "persona" not in table.stdout


def test_cards_todo_asks_for_the_games_column(plugin, tmp_path):
    deck = tmp_path / "duel.txt"
    deck.write_text(DECK, encoding="utf-8")
    out = tmp_path / "todo.csv"
    r = run(plugin, "cards", "todo", str(deck), "--out", str(out))
    assert r.returncode == 0, r.stderr
    rows = list(csv.reader(out.open(encoding="utf-8")))
    assert rows[0] == ["game", "id", "name", "power"] and rows[1][:3] == ["toy-duel", "toy-feint", "Feint"]


def test_the_web_formats_page_shows_the_plugin_game(plugin, tmp_path):
    code = textwrap.dedent("""
        from fastapi.testclient import TestClient
        from deckcheck.web import create_app
        with TestClient(create_app()) as client:
            page = client.get("/formats")
            api = client.get("/api/formats").json()
        print(page.status_code, "Toy Duel" in page.text, "TOY-POWER" in page.text)
        print([f["name"] for f in api if f["game"] == "toy-duel"])
        toy = page.text[page.text.index('id="toy-duel"'):]
        print('<li data-limit="moves">Exactly 10 Moves</li>' in toy, '<li data-limit="power_max">At most 20: power</li>'
              in toy, "<code>HL-DATA-UNKNOWN</code> or <code>TOY-DATA-UNKNOWN</code> instead of guessing" in page.text)
    """)
    r = subprocess.run([sys.executable, "-c", code], env=plugin, capture_output=True, text=True, timeout=120)
    assert r.stdout.splitlines() == ["200 True True", "['toy-duel']", "True True True"], r.stderr[-2000:]


def test_the_web_shows_a_card_and_an_event_of_the_plugin_game_in_its_own_terms(plugin, tmp_path):
    """A toy card's page has no Immortal, edition or Restriction and names the game's data-unknown id; the desk of a
    toy event has no Persona column (a Highlander event keeps it)."""
    sheet = tmp_path / "kick.csv"
    sheet.write_text("game,id,name,type,power\ntoy-duel,toy-kick,Kick,Move,unknown\n", encoding="utf-8")
    assert run(plugin, "cards", "import", str(sheet)).returncode == 0
    code = textwrap.dedent("""
        import re
        from fastapi.testclient import TestClient
        from deckcheck.web import create_app
        def text(html):
            return re.sub(r"\\s+", " ", re.sub(r"<[^>]+>", " ", html))
        with TestClient(create_app()) as client:
            card = client.get("/cards/toy-kick")
            shown = text(card.text)
            print(card.status_code, "TOY-DATA-UNKNOWN" in shown, "HL-DATA-UNKNOWN" in shown, "Power" in shown,
                  "Immortal" in shown, "Generic" in shown, "1st edition" in shown, "Restriction" in shown)
            hl = text(client.get("/cards/" + client.get("/api/cards?q=thrust").json()["cards"][0]["id"]).text)
            print("Immortal" in hl, "Restriction" in hl, "Power" in hl)
            for fmt, deck in (("toy-duel", "Champion:\\n1 Brave Hero\\n"), ("type1e", "Thrust\\n")):
                event = client.post("/api/events", json={"name": "Cup", "format": fmt}).json()
                client.post(f"/api/events/{event['id']}/decks", json={"player": "Ann", "decklist": deck})
                dash = client.get(event["dashboard_url"].replace("http://testserver", ""))
                print(fmt, dash.status_code, "<th>Persona</th>" in dash.text, "Player or persona" in dash.text)
    """)
    r = subprocess.run([sys.executable, "-c", code], env=plugin, capture_output=True, text=True, timeout=120)
    assert r.stdout.splitlines() == ["200 True False True False False False False", "True True False",
                                     "toy-duel 200 False False", "type1e 200 True True"], r.stderr[-2000:]


def test_a_broken_plugin_is_left_out_and_said(tmp_path):
    (tmp_path / "deckcheck_games").mkdir()
    (tmp_path / "deckcheck_games" / "broken.py").write_text("raise RuntimeError('no')\n", encoding="utf-8")
    (tmp_path / "deckcheck_games" / "clash.py").write_text(
        "from deckcheck.games.highlander import GAME\n", encoding="utf-8")
    (tmp_path / "deckcheck_games" / "alias.py").write_text(  # a format named as another's alias is that one's
        "from dataclasses import replace\nfrom deckcheck.formats import Game\n"
        "from deckcheck.games.raven import RAVEN_STORMCROW\n"
        "GAME = Game('crows', (replace(RAVEN_STORMCROW, name='rs', game='crows', aliases=('crow',)),))\n",
        encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    r = run(env, "formats")
    assert r.returncode == 0 and "type1e" in r.stdout
    assert "deckcheck_games.broken could not be imported" in r.stderr
    assert "deckcheck_games.clash names a game or format deckcheck already has (highlander)" in r.stderr
    assert "deckcheck_games.alias names a game or format deckcheck already has (rs)" in r.stderr
    assert "crows" not in r.stdout



def test_plugins_are_found_when_the_registry_is_built_not_on_import(tmp_path):
    """Importing deckcheck.games (and the generic core) runs no plugin's code: the default registry finds
    the plugins when it is first built, once."""
    (tmp_path / "deckcheck_games").mkdir()
    (tmp_path / "deckcheck_games" / "noisy.py").write_text("print('imported')\n", encoding="utf-8")
    code = textwrap.dedent("""
        import deckcheck.games, deckcheck.decklist, deckcheck.decks, deckcheck.formats, deckcheck.registry
        print("after import")
        deckcheck.games.registry()
        deckcheck.games.registry()
        print("built")
    """)
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert r.stdout.splitlines() == ["after import", "imported", "built"], r.stderr[-2000:]


# -- the generic modules name no game ----------------------------------------------------------------
# Where a game's name is still written outside deckcheck/games/, and why: the default game of a card sheet row
# with no `game` (CONTRACTS §1, one constant), the names of the bundled card data files and its builder, and the
# product's one-line description in the CLI's and the web API's title.
ALLOWED = {"deckcheck/cards.py": 1, "db/engine.py": 2, "db/build_bundled.py": None, "deckcheck/cli/commands.py": 2,
           "web/app.py": 1}


RULE_ID = re.compile(r"\b(?:HL\d?|RS|TK)-[A-Z]")  # a built-in game's rule id (or its data-unknown id)


@functools.lru_cache(maxsize=None)
def code_tokens(path: Path) -> tuple[tokenize.TokenInfo, ...]:
    """A module's tokens, read once for the tests below."""
    return tuple(tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline))


def game_words(path: Path) -> int:
    """How many code tokens (names and strings, not comments or docstrings) of a module name Highlander or one of
    the built-in games' rule ids."""
    found = 0
    tokens = code_tokens(path)
    for i, tok in enumerate(tokens):
        if tok.type not in (tokenize.NAME, tokenize.STRING) or (
                "highlander" not in tok.string.lower() and not RULE_ID.search(tok.string)):
            continue
        before = [t for t in tokens[max(0, i - 3):i] if t.type not in (tokenize.NL, tokenize.NEWLINE,
                                                                        tokenize.INDENT, tokenize.DEDENT)]
        docstring = tok.type == tokenize.STRING and (not before or before[-1].string == ":")
        if not docstring:
            found += 1
    return found


def test_generic_modules_name_no_game():
    generic = [p for folder in ("deckcheck", "importers", "web", "db") for p in (ROOT / folder).rglob("*.py")
               if "games" not in p.relative_to(ROOT).parts]
    offenders = {}
    for path in generic:
        rel = path.relative_to(ROOT).as_posix()
        n = game_words(path)
        allowed = ALLOWED.get(rel, 0)
        if n and (allowed is not None and n > allowed):
            offenders[rel] = n
    assert offenders == {}


# Where a generic module still names one of Highlander's own fields by string, and why (each count may only fall).
FIELD_WORDS_LEFT = {
    # reading a pickled card back shares the one NO_MODIFIERS (the card keys' fields are the games' declarations:
    # deckcheck.cards.declare_fields)
    "deckcheck/cards.py": 1,
    # the drawn card's Restriction number and Immortal (its flags' marks are Field.mark); a game without Immortals
    # gets its own name in the bar
    "web/cardface.py": 5,
    "web/facts.py": 6,  # the fill-in form's widgets: the grid's squares, the Restriction and Hand icons choices
    "web/cards.py": 3,  # the card list's Immortal and Weapon filters and sort (CardQuery, the API's parameters)
    "web/builder.py": 3,  # the builder's Immortal filter
    "db/build_bundled.py": None,  # the builder of Highlander's bundled card data
}


def field_words(path: Path, names: set[str]) -> int:
    """How many code strings (not docstrings) of a module are exactly one of these field names."""
    found = 0
    tokens = [t for t in code_tokens(path)
              if t.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.COMMENT)]
    for i, tok in enumerate(tokens):
        if tok.type != tokenize.STRING or not re.fullmatch(r"""(['"])[a-z_]+\1""", tok.string):
            continue
        docstring = i == 0 or tokens[i - 1].string == ":"
        found += tok.string[1:-1] in names and not docstring
    return found


def test_generic_modules_name_no_highlander_field():
    """A field of Highlander's (its field table less the core's) goes through the game, not a name in a generic
    module: the card page's rows, `cards stats` and `cards lint`, `cards show`, the sheet's numbers and a grid's
    `inferred` flag read the declarations (Field.page, Game.counted, Field.numeric, Field.follows, ...)."""
    from deckcheck.cards import CORE_FIELDS
    from deckcheck.games import game_named
    names = {n for f in game_named("highlander").fields for n in (f.name, f.attribute)} - {f.name for f in CORE_FIELDS}
    assert {"signature", "grid_inferred", "gem_reason", "modifiers"} <= names
    found = {}
    for folder in ("deckcheck", "importers", "web", "db"):
        for path in (ROOT / folder).rglob("*.py"):
            rel = path.relative_to(ROOT).as_posix()
            if "games" not in path.relative_to(ROOT).parts and (n := field_words(path, names)):
                found[rel] = n
    over = {rel: n for rel, n in found.items() if (limit := FIELD_WORDS_LEFT.get(rel, 0)) is not None and n > limit}
    assert over == {}


def test_the_web_pages_name_no_games_rule_ids():
    """A page shows the data-unknown id of the game at hand, never a fixed one."""
    templates = (ROOT / "web" / "templates").rglob("*.html")
    assert {p.name: RULE_ID.findall(p.read_text(encoding="utf-8")) for p in templates
            if RULE_ID.search(p.read_text(encoding="utf-8"))} == {}


# -- the docs' example plugin (examples/plugin/) --------------------------------------------------------
def test_the_readmes_example_plugin_runs_as_the_readme_shows(tmp_path):
    """docs/adding-a-game.md: the shown command, run with the example folder on the path, prints what is shown;
    and the rest of what a user touches works for the example game."""
    section = (ROOT / "docs" / "adding-a-game.md").read_text(encoding="utf-8")
    block = section[section.index("```text\n") + 8:]
    lines = block[:block.index("```")].splitlines()
    command = re.fullmatch(r"\$ PYTHONPATH=(\S+) (deckcheck .*?)\s+# exits (\d)", lines[0])
    assert command, lines[0]
    env = dict(os.environ, PYTHONPATH=str(ROOT / command[1]), DECKCHECK_DB=f"sqlite:///{tmp_path / 'cards.db'}",
               COLUMNS="200", DECKCHECK_CACHE_DIR="off")
    r = run(env, *command[2].split()[1:], cwd=ROOT)
    assert (r.returncode, r.stdout.splitlines()) == (int(command[3]), lines[1:]), r.stderr
    assert run(env, "cards", "import", "examples/plugin/pebbles-cards.csv", cwd=ROOT).returncode == 0
    summary = run(env, "tournament", "check", "examples/plugin/decks/", "--out", "-", cwd=ROOT)
    rows = list(csv.DictReader(io.StringIO(summary.stdout)))
    assert [(r["player"], r["pouch"], r["tides"], r["legal"]) for r in rows] == [
        ("beach", "20", "3", "legal"), ("heavy-bag", "13", "3", "NOT LEGAL")], summary.stderr
    assert "persona" not in rows[0]
    formats = run(env, "formats", "pebbles", cwd=ROOT)
    assert "PB-TIDES" in formats.stdout and "PB-DATA-UNKNOWN (warning) is reported" in formats.stdout


# -- a plugin that reuses another game's rules --------------------------------------------------------------
REUSE = textwrap.dedent('''
    """House rules: a new game whose one format plays Highlander's rules under its own data-unknown id; and a
    plugin reusing the name highlander, which is left out."""
    from deckcheck.formats import Format, Game
    from deckcheck.games.highlander import SECTIONS, section_of_type
    from deckcheck.games.highlander.params import Type1eParams
    from deckcheck.games.highlander.rules import TYPE1E
    from deckcheck.games.highlander.view import HighlanderView

    HOUSE = Format(name="house-1e", title="House rules", game="house", rules=TYPE1E, view=HighlanderView,
                   params=Type1eParams(), sections=SECTIONS, default_section=section_of_type)
    GAME = Game("house", (HOUSE,), data_unknown="HOUSE-DATA-UNKNOWN")
    ''')
CLASH = textwrap.dedent('''
    from deckcheck.formats import Game
    from deckcheck_games.house import HOUSE
    from dataclasses import replace
    GAME = Game("highlander", (replace(HOUSE, name="house-2"),), data_unknown="CLASH-DATA-UNKNOWN")
    ''')


def test_a_plugin_reusing_a_games_rules_changes_nothing_of_that_game(tmp_path):
    """The data-unknown id of an issue is the id of the game of the format checked: a plugin playing Highlander's
    rules gets its own, type1e keeps HL-DATA-UNKNOWN (also when a plugin left out for its name declared another)."""
    (tmp_path / "deckcheck_games").mkdir()
    (tmp_path / "deckcheck_games" / "house.py").write_text(REUSE, encoding="utf-8")
    (tmp_path / "deckcheck_games" / "zclash.py").write_text(CLASH, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(tmp_path), DECKCHECK_CACHE_DIR="off")
    code = textwrap.dedent("""
        import sys
        from deckcheck.check import validate
        from deckcheck.decks import build_deck
        from deckcheck.games import get_format
        from deckcheck.library import card_source
        from deckcheck.textlimits import parse_checked
        text = open(sys.argv[1], encoding="utf-8").read()
        type1e = get_format("type1e")
        deck, problems = build_deck(parse_checked(text, "deck"), card_source().index(type1e), type1e)
        assert not problems, problems
        for fmt in ("type1e", "house-1e"):
            print(fmt, sorted({i.rule for i in validate(deck, fmt).issues if "DATA-UNKNOWN" in i.rule}))
    """)
    deck = ROOT / "examples" / "decks" / "type1e-kurgan-illegal.txt"
    r = subprocess.run([sys.executable, "-c", code, str(deck)], env=env, capture_output=True, text=True, timeout=120)
    assert r.stdout.splitlines() == ["type1e ['HL-DATA-UNKNOWN']", "house-1e ['HOUSE-DATA-UNKNOWN']"], r.stderr
    assert "deckcheck_games.zclash names a game or format deckcheck already has" in r.stderr


COUNTED = textwrap.dedent('''
    """A game with its own statistics hook, on Raven's rules."""
    from dataclasses import replace
    from deckcheck.formats import Game
    from deckcheck.games.raven import COLUMNS, RAVEN_STORMCROW, RAVEN_TYPES
    from deckcheck.stats import stats_of_entries

    def stats(deck, format_name, hand=None, exertion=None):
        return stats_of_entries([], deck="counted by its hook: " + deck.source, format=format_name)

    GAME = Game("counted", (replace(RAVEN_STORMCROW, name="counted-1", game="counted", aliases=()),),
                card_types=RAVEN_TYPES, extra_columns=COLUMNS, columns=tuple(c.name for c in COLUMNS), stats=stats)
    ''')


def test_statistics_of_a_game_with_a_hook_read_its_cards_and_call_its_hook(tmp_path):
    """deckcheck.deck_stats, deck_diff and `deckcheck stats` resolve a deck among its own game's cards (not
    Highlander's) and give what the game's hook computes."""
    (tmp_path / "deckcheck_games").mkdir()
    (tmp_path / "deckcheck_games" / "counted.py").write_text(COUNTED, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(tmp_path), DECKCHECK_CACHE_DIR="off",
               DECKCHECK_DB=f"sqlite:///{tmp_path / 'cards.db'}")
    code = textwrap.dedent("""
        import deckcheck
        from deckcheck.cards import Card
        cards = [Card(id="c-1", name="Old Crow", title="Old Crow", game="counted", type="Hunter")]
        text = "Format: counted-1\\nHunters:\\n1 Old Crow\\n"
        print(deckcheck.deck_stats(text, cards=cards, source="mine").as_dict()["deck"])
        print(deckcheck.deck_diff(text, text, cards=cards).as_dict()["after"]["stats"]["deck"])
    """)
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert r.stdout.splitlines() == ["counted by its hook: mine", "counted by its hook: B"], r.stderr[-1500:]
    sheet = tmp_path / "crow.csv"
    sheet.write_text("game,id,name,type\ncounted,c-1,Old Crow,Hunter\n", encoding="utf-8")
    deck = tmp_path / "crow.txt"
    deck.write_text("Format: counted-1\nHunters:\n1 Old Crow\n", encoding="utf-8")
    out = run(env, "stats", str(deck), "--cards", str(sheet), "--json")
    assert json.loads(out.stdout)["deck"] == f"counted by its hook: {deck}", out.stderr
    assert run(env, "cards", "import", str(sheet)).returncode == 0
    web = textwrap.dedent("""
        from fastapi.testclient import TestClient
        from deckcheck.web import create_app
        with TestClient(create_app()) as client:
            got = client.post("/api/stats", json={"decklist": "Format: counted-1\\nHunters:\\n1 Old Crow\\n"})
        print(got.status_code, got.json().get("deck"))
    """)
    r = subprocess.run([sys.executable, "-c", web], env=env, capture_output=True, text=True, timeout=120)
    assert r.stdout.splitlines() == ["200 counted by its hook: -"], r.stderr[-1500:]


def test_a_list_with_no_format_line_is_told_which_game_reads_it(plugin, tmp_path):
    """Read as type1e, a toy deck is only unknown cards; a notice names the game whose cards every line names."""
    deck = tmp_path / "duel.txt"
    deck.write_text(DECK.replace("Format: toy-duel\n", ""), encoding="utf-8")
    report = json.loads(run(plugin, "check", str(deck), "--json").stdout)
    assert report["format"] == "type1e" and report["legal"] is None
    assert report["notices"][-1] == ("this list has no Format: line and was read as type1e; every line of it names a "
                                     "card of Toy Duel: write 'Format: toy-duel' as its first line (or check it with "
                                     "--format toy-duel)")
    highlander = tmp_path / "typo.txt"
    highlander.write_text("Thrst\nDodge\n", encoding="utf-8")  # no game reads it: no such notice
    assert not any("no Format: line" in n for n in json.loads(run(plugin, "check", str(highlander), "--json")
                                                                  .stdout)["notices"])


def test_a_field_added_to_the_game_is_read_stored_shown_asked_and_answered(tmp_path):
    """A field the toy game declares (one more entry in its module, no other file changed) is read from a card sheet,
    kept in the database, shown on the card's page in its declaration's words (Field.page), asked by its fill-in
    form, listed by /api/cards and answered through the facts API."""
    folder = tmp_path / "plugin"
    (folder / "deckcheck_games").mkdir(parents=True)
    reach = ('number_column("reach", label="Reach", asked=20, form=("Reach", "the Reach printed on the move"), '
             'settle="the Reach printed on the move", page=lambda card: ("Reach of the move", None if '
             'card.extra_value("reach") is None else f"{card.extra_value(\'reach\')} squares"))')
    toy = TOY.replace('COLUMNS = (number_column("power"),)', f'COLUMNS = (number_column("power"), {reach})')
    assert toy != TOY
    (folder / "deckcheck_games" / "toy_duel.py").write_text(toy, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")]),
               DECKCHECK_DB=f"sqlite:///{folder / 'cards.db'}", DECKCHECK_CACHE_DIR=str(folder / "cache"))
    sheet = tmp_path / "moves.csv"
    sheet.write_text("game,id,name,type,power,reach\ntoy-duel,toy-kick,Kick,Move,2,3\n"
                     "toy-duel,toy-lunge,Lunge,Move,1,unknown\n", encoding="utf-8")
    r = run(env, "cards", "import", str(sheet))
    assert r.returncode == 0, r.stderr
    code = textwrap.dedent("""
        import re
        from fastapi.testclient import TestClient
        from deckcheck.db.store import Store
        from deckcheck.web import create_app
        stored = {c.id: c.extra_value("reach") for c in Store().cards() if c.game == "toy-duel"}
        print(stored["toy-kick"], stored["toy-lunge"])
        with TestClient(create_app()) as client:
            page = re.sub(r"\\s+", " ", re.sub(r"<[^>]+>", " ", client.get("/cards/toy-kick").text))
            print("Reach of the move 3 squares" in page)  # its row in its declaration's words
            form = client.get("/cards/toy-lunge/facts").text
            print('name="f0.reach"' in form, "the Reach printed on the move" in form, 'name="f0.restriction"' in form)
            api = {c["id"]: c["reach"] for c in client.get("/api/cards?game=toy-duel").json()["cards"]}
            print(api["toy-kick"], api["toy-lunge"])  # a game's own unknown value is a blank cell, as `power`
            answer = client.post("/api/cards/toy-lunge/facts", json={"by": "Ann", "values": {"reach": "4"}})
            print(answer.status_code, client.get("/api/cards/toy-lunge").json()["reach"])
    """)
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert r.stdout.splitlines() == ["3 None", "True", "True True False", "3 ", "200 4"], r.stderr[-3000:]


def test_diff_compares_the_plugin_games_decks_without_statistics(plugin, tmp_path):
    before, after = tmp_path / "a.txt", tmp_path / "b.txt"
    before.write_text(DECK, encoding="utf-8")
    after.write_text(DECK.replace("5 Jab", "4 Jab"), encoding="utf-8")
    r = run(plugin, "diff", str(before), str(after))
    assert r.returncode == 0, r.stderr
    assert "- 1 Jab (Moves)" in r.stdout and "square" not in r.stdout
