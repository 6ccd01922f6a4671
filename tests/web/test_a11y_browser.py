"""Accessible to everyone: an axe-core audit (axe-playwright-python, in Debian's chromium) of every page of the
web app at phone and desktop width, with no moderate, serious or critical violation; every task doable by
keyboard alone with a visible focus; a dark colour scheme and reduced motion honoured.

"Every page" is checked, not listed by hand: the audit follows the links of the pages it audits, fills the
forms that lead to pages of their own (an import preview, a new event, a submitted deck), and a page route of
the app that no audited page reached fails the test, so a new page is audited from the day it is added.
"""
from __future__ import annotations

import json
import re
import urllib.request
from urllib.parse import urlsplit

import pytest

from test_web_browser import ROOT, SAVED, TIMEOUT, WIDTHS, deck, server  # noqa: F401 (fixtures)

IMPACTS = ("moderate", "serious", "critical")
# parts of a page for its live updates, audited within their page
FRAGMENTS = {"/desk/{event_id}/admin/table", "/desk/{event_id}/admin/rounds/live"}
DOWNLOAD = re.compile(r"\.(csv|xlsx|json|svg|png|txt)$|/qr\.svg$|\.\{kind\}$")


def page_routes() -> list[str]:
    """The app's pages: GET routes that are neither JSON (tagged api) nor downloads."""
    from deckcheck.web import create_app
    paths = create_app().openapi()["paths"]
    return sorted(path for path, ops in paths.items() if "get" in ops and "api" not in ops["get"].get("tags", ())
                  and not DOWNLOAD.search(path) and path != "/openapi.json" and path not in FRAGMENTS)


def route_of(path: str, routes: list[str]) -> str | None:
    """The page route a URL path is served by (the route with the fewest parameters that matches)."""
    matching = [r for r in routes if re.fullmatch(re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(r)), path)]
    return min(matching, key=lambda r: r.count("{"), default=None)


def audit(page) -> list[str]:
    """The axe-core violations of moderate impact or worse on the page, one line each. axe-core is put into the page
    once (what Axe().run does on every call), so the page's views are audited without sending it again each time."""
    from axe_playwright_python.sync_playwright import DEFAULT_OPTIONS, Axe
    if not page.evaluate("() => typeof window.axe === 'object' && typeof window.axe.run === 'function'"):
        page.evaluate(Axe().axe_script)
    response = page.evaluate(f"axe.run({json.dumps(DEFAULT_OPTIONS)})")
    found = []
    for v in response["violations"]:
        if v.get("impact") in IMPACTS:
            targets = [" ".join(map(str, n["target"])) for n in v["nodes"][:4]]
            found.append(f"{v['impact']} {v['id']}: {v['help']} at {targets}")
    return found


def links(page, base: str) -> list[str]:
    """The same-site page links of a page (no downloads, API answers or static files)."""
    hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)")
    out = []
    for href in hrefs:
        parts = urlsplit(href)
        if href.startswith(base) and not parts.path.startswith(("/api/", "/static/", "/openapi")) \
                and not DOWNLOAD.search(parts.path):
            out.append(parts.path + (f"?{parts.query}" if parts.query else ""))
    return out


@pytest.fixture(scope="module")
def event(server):  # noqa: F811
    """An event of the desk with one submitted deck, made through the JSON API: (its id, the organiser link)."""
    req = urllib.request.Request(server + "/api/events", data=json.dumps({"name": "Audit Open",
                                                                          "format": "type1e"}).encode(),
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req) as r:
        created = json.load(r)
    replaces: dict = {}
    for name in ("type1e-kurgan-illegal.txt", "type1e-connor-legal.txt"):  # a deck, then another: a diff
        body = json.dumps({"player": "Ramirez", "decklist": deck(name)} | replaces).encode()
        req = urllib.request.Request(f"{server}/api/events/{created['id']}/decks", data=body,
                                     headers={"content-type": "application/json"})
        with urllib.request.urlopen(req) as r:
            replaces = {"replaces": json.load(r)["deck_id"]}  # the next one from Ramirez's private link
    return created["id"], created["dashboard_url"]


def locked_event(server: str) -> tuple[str, str]:  # noqa: F811 - the fixture's value
    """An event of the desk with two decks whose lists are locked (the organiser closed it): (id, organiser link)."""
    def call(path: str, body: dict, token: str | None = None) -> dict:
        headers = {"content-type": "application/json"} | ({"authorization": f"Bearer {token}"} if token else {})
        with urllib.request.urlopen(urllib.request.Request(server + path, data=json.dumps(body).encode(),
                                                           headers=headers)) as r:
            return json.load(r)
    created = call("/api/events", {"name": "Locked Open", "format": "type1e"})
    for player, name in (("Ramirez", "type1e-connor-legal.txt"), ("Kastagir", "type1e-kurgan-illegal.txt")):
        call(f"/api/events/{created['id']}/decks", {"player": player, "decklist": deck(name)})
    call(f"/api/events/{created['id']}/close", {}, created["organiser_token"])
    return created["id"], created["dashboard_url"]


VIEWS = {"phone": (WIDTHS["phone"], "light", "no-preference"), "desktop": (WIDTHS["desktop"], "light", "no-preference"),
         "phone-dark": (WIDTHS["phone"], "dark", "reduce")}


def show_as(page, view: str) -> None:
    """The page as VIEWS[view] shows it: its width, colour scheme and motion preference. The scheme changes with
    motion reduced, so that no colour is caught halfway through a transition; then the view's motion applies."""
    width, scheme, motion = VIEWS[view]
    page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
    page.set_viewport_size({"width": width, "height": 900})
    page.emulate_media(reduced_motion=motion)
    shown = page.evaluate("""() => [innerWidth,
      matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
      matchMedia('(prefers-reduced-motion: reduce)').matches ? 'reduce' : 'no-preference']""")
    assert shown == [width, scheme, motion], (view, shown)


def test_every_page_passes_the_axe_audit(browser, server, event):  # noqa: F811
    """Each page is loaded once and audited in every view of VIEWS (phone, desktop, phone in the dark with motion
    reduced): the width, scheme and motion are changed on the loaded page, as a rotated phone or a scheme switched
    in the settings changes them, and the page is left in the first view for what the test does next."""
    routes = page_routes()
    first = next(iter(VIEWS))
    width, scheme, motion = VIEWS[first]
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True, color_scheme=scheme,
                                  reduced_motion=motion)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    event_id, dashboard = event
    problems: dict[str, list[str]] = {}
    seen_routes: dict[str, str] = {}

    def check(what: str) -> None:
        for view in VIEWS:
            show_as(page, view)
            found = audit(page)
            if found:
                problems[f"{what} ({view})"] = found
        show_as(page, first)

    queue = ["/", f"/?deck={SAVED}", f"/decks/{SAVED}", "/cards?q=attack&limit=5", "/cards/SE-connor-macleod-persona",
             "/cards/ME-thrust-1", "/collection?collection=shelf", f"/desk/{event_id}",
             dashboard.removeprefix(server), "/nothing-here", "/signin", "/signup", "/accounts"]
    visited: set[str] = set()
    queued_routes = {route_of(u.split("?")[0], routes) for u in queue}
    while queue:  # the seeds, then one page of every route their links reach
        url = queue.pop(0)
        visited.add(url)
        page.goto(server + url)
        page.wait_for_load_state("networkidle")
        route = route_of(url.split("?")[0], routes)
        if route is not None:
            seen_routes.setdefault(route, url)
        check(url)
        for link in links(page, server):
            linked = route_of(link.split("?")[0], routes)
            if linked is not None and linked not in queued_routes and link not in visited:
                queued_routes.add(linked)
                queue.append(link)
    # the pages a form leads to
    page.goto(server + "/")
    page.fill("#decklist", deck("type1e-kurgan-illegal.txt"))
    page.wait_for_selector(".report")
    check("the check page with a report")
    page.goto(server + "/collection?collection=shelf")
    page.set_input_files("input[name=file]", str(ROOT / "examples/collection/my-binder.csv"))
    page.click("text=Preview the changes")
    page.wait_for_selector("text=Import preview")
    check("an import preview (of a file imported before)")
    page.goto(server + "/cards/import")
    page.set_input_files("input[name=file]", str(ROOT / "examples/other-games/raven-stormcrow-cards.csv"))
    page.click("text=Preview the changes")
    page.wait_for_selector("text=Card sheet import preview")
    check("a card sheet import preview")
    page.goto(server + "/desk")
    page.fill("input[name=name]", "Audit Cup")
    page.locator("form button[type=submit]").first.click()
    page.wait_for_load_state("networkidle")
    check("an event just created")
    page.goto(f"{server}/desk/{event_id}")
    page.fill("input[name=player]", "Kastagir")
    page.fill("textarea[name=decklist]", deck("type1e-connor-legal.txt"))
    page.locator("form button[type=submit]").first.click()
    page.wait_for_load_state("networkidle")
    check("a deck just submitted")
    for link in links(page, server):
        route = route_of(link.split("?")[0], routes)
        if route and route not in seen_routes:
            page.goto(server + link)
            seen_routes[route] = link
            check(link)
    # deck checks: an event whose lists are locked, its counting sheet, a saved check, a draw
    locked_id, locked_dashboard = locked_event(server)
    page.goto(locked_dashboard)
    page.locator("td.desk-check a").first.click()
    page.wait_for_selector("#count-form")
    seen_routes.setdefault(route_of(urlsplit(page.url).path, routes) or "?", page.url)
    check("the counting sheet of a deck check")
    page.locator("button[name=step]").first.click()
    page.fill("input[name=judge]", "Ines")
    page.click("button[value=save]")
    page.wait_for_selector("#check-outcome")
    seen_routes.setdefault(route_of(urlsplit(page.url).path, routes) or "?", page.url)  # the saved check's page
    check("a deck check just saved")
    page.goto(f"{server}/desk/{locked_id}/admin")
    check("the dashboard of a locked event, with a deck check")
    page.fill("#draw-form input[name=n]", "1")
    page.click("#draw-form button[type=submit]")
    page.wait_for_selector("#draw-seed")
    check("players drawn for deck checks")
    context.close()
    unvisited = [r for r in routes if r not in seen_routes]
    assert not unvisited, f"pages no audit reached (link them from a page, or add them to the audit): {unvisited}"
    assert not problems, "axe-core finds:\n" + "\n".join(f"{url}:\n  " + "\n  ".join(found)
                                                        for url, found in problems.items())


FOCUS_SHOWN = """() => {
  const e = document.activeElement, s = getComputedStyle(e);
  const ring = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2;
  return {tag: e.tagName, id: e.id, text: (e.textContent || '').trim().slice(0, 30),
          ring: ring || s.boxShadow !== 'none'};
}"""


def tab_to(page, selector: str, limit: int = 40) -> list[dict]:
    """Press Tab until the element is focused; every element focused on the way, with whether its focus shows."""
    passed = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        passed.append(page.evaluate(FOCUS_SHOWN))
        if page.evaluate(f"document.activeElement.matches({json.dumps(selector)})"):
            return passed
    raise AssertionError(f"{selector} not reached by Tab: {passed}")


@pytest.mark.parametrize("width", list(WIDTHS))
def test_paste_check_and_save_by_keyboard_alone_with_the_focus_in_sight(browser, server, width):  # noqa: F811
    context = browser.new_context(viewport={"width": WIDTHS[width], "height": 900}, bypass_csp=True)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    page.goto(server + "/")
    passed = tab_to(page, "#decklist")
    page.keyboard.insert_text(deck("type1e-kurgan-illegal.txt"))  # what a paste does
    passed += tab_to(page, "#check-button")
    page.keyboard.press("Enter")
    page.wait_for_selector(".report.illegal")
    assert page.evaluate("document.activeElement.id") == "check-button", "the focus is lost after the check"
    passed += tab_to(page, "#save-button")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert re.search(r"/decks/[\w-]+$", page.url), page.url
    passed += tab_to(page, "main a")
    unseen = [p for p in passed if not p["ring"] and p["tag"] != "BODY"]
    assert not unseen, f"focused without a visible focus ring: {unseen}"
    context.close()


def test_dark_scheme_and_reduced_motion_are_honoured(browser, server):  # noqa: F811
    looks = {}
    for scheme, motion in (("light", "no-preference"), ("dark", "reduce")):
        context = browser.new_context(color_scheme=scheme, reduced_motion=motion, bypass_csp=True)
        page = context.new_page()
        page.goto(server + "/cards/SE-connor-macleod-persona")
        looks[scheme] = page.evaluate("""() => ({
          ground: getComputedStyle(document.documentElement).backgroundColor,
          ink: getComputedStyle(document.querySelector('main')).color,
          indicator: (() => { const e = document.createElement('span'); e.className = 'indicator';
                              document.body.append(e); return getComputedStyle(e).transitionDuration; })()})""")
        page.goto(server + "/cards/ME-upper-left-attack-1")  # its drawn face: a grid of one square on light stock
        looks[scheme].update(page.evaluate("""() => Object.fromEntries(['on', 'off'].map(k =>
          [k, getComputedStyle(document.querySelector('.card-face svg.grid .sq.' + k)).fill]))"""))
        context.close()

    def luminance(rgb: str) -> float:
        r, g, b = (int(v) / 255 for v in re.findall(r"\d+", rgb)[:3])
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    assert luminance(looks["light"]["ground"]) > 0.8 and luminance(looks["dark"]["ground"]) < 0.15, looks
    assert luminance(looks["dark"]["ink"]) > 0.7, looks
    assert looks["light"]["indicator"] == "0.2s" and looks["dark"]["indicator"] == "0s", looks
    # the drawn card keeps its printed colours in the dark: its empty squares light, its filled one the same green
    assert luminance(looks["dark"]["off"]) > 0.8 and looks["dark"]["on"] == looks["light"]["on"], looks
