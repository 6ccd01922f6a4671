"""The Collection page (`/collection`): entries with filters and totals, import with a preview of every
change and a confirm button, CSV/XLSX export, and what the saved decks still need (with the want list).

JSON twins: `GET /api/collection` and `GET /api/collection/missing`, from the same data functions.
An uploaded sheet waits for its confirmation in a private folder under a random name the server made
(never a name the client sent; web.previews); it is deleted when confirmed, and after an hour unconfirmed. A
confirmation claims the sheet first (an atomic rename), so that confirmations arriving together import it exactly once.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import re
import secrets
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePath

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, RedirectResponse, Response
from starlette.background import BackgroundTask
from starlette.exceptions import HTTPException
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile

from deckcheck.db.collections import AlreadyImported, Collections, NoCollection, PastImport, import_id
from deckcheck.collection import Holding, Missing, missing, money, parse_price, value
from deckcheck.errors import DeckcheckError
from deckcheck.library.api import CollectionApp
from deckcheck.text import normalize

from . import models, previews
from .decks import shortened
from .deps import CollectionsDep, KeeperDep, LibraryDep, PagesDep, SettingsDep
from .security import check_csrf

router = APIRouter(route_class=models.ApiRoute)
NAV = [("Collection", "/collection")]

SHEET_SUFFIXES = previews.SHEET_SUFFIXES
TOKEN = re.compile(r"^[A-Za-z0-9_-]{32,64}$")
PREVIEW_MAX = 5000  # changes listed one by one in a preview; beyond that, the counts
NAME_MAX = 100
PAGE_MAX = 500
CONDITIONS = ("M", "NM", "LP", "MP", "HP", "D")


@dataclass
class EntryFilter:
    """What the entries table shows: words (card, set, location, notes, language), set, condition, foil."""

    q: str = ""
    set: str = ""
    condition: str = ""
    foil: str = ""

    def matches(self, h: Holding) -> bool:
        """Whether a holding passes every filter."""
        if self.set and normalize(h.card.set or "") != normalize(self.set):
            return False
        if self.condition and h.condition != self.condition:
            return False
        if self.foil and h.foil != (self.foil == "yes"):
            return False
        if self.q:
            hay = normalize(" ".join((h.card.name, h.card.set or "", h.location, h.notes, h.language)))
            return all(w in hay for w in normalize(self.q).split())
        return True


def entry_json(h: Holding) -> dict[str, Any]:
    """A holding as a collection-sheet row (CONTRACTS §4) plus the exact printing; a priced entry adds `price`
    (the amount of one copy) and `currency` (as written, '' when none was)."""
    out = {"card": h.card.name, "card_id": h.card.id, "set": h.card.set or "", "quantity": h.quantity,
           "condition": h.condition, "language": h.language, "foil": h.foil, "trade_quantity": h.trade_quantity,
           "want_quantity": h.want_quantity, "location": h.location, "notes": h.notes}
    parsed = parse_price(h.price)
    if parsed is not None:
        out["price"], out["currency"] = float(parsed[1]), parsed[0]
    return out


def collection_data(collections: Collections, name: str, entry_filter: EntryFilter,
                    limit: int = PAGE_MAX) -> dict[str, Any]:
    """The collection's entries passing the filter (at most `limit`) and the totals over all that pass.

    Value is counted per currency, as `collection stats` counts it (amounts in different currencies are
    never added up): `value_by_currency`, and `value`, the one total when every priced entry shares a currency.
    """
    holdings = [h for h in collections.holdings(name) if entry_filter.matches(h)]
    worth, unpriced = value(holdings)
    priced = sum(1 for h in holdings if h.quantity) - unpriced  # value() counts the held entries without a price
    totals = {"entries": len(holdings), "copies": sum(h.quantity for h in holdings),
              "distinct": len({h.card.card_key for h in holdings if h.quantity}),
              "for_trade": sum(h.trade_quantity for h in holdings), "wanted": sum(h.want_quantity for h in holdings),
              "value": round(float(next(iter(worth.values()))), 2) if len(worth) == 1 else None,
              "value_by_currency": {cur: round(float(amount), 2) for cur, amount in sorted(worth.items())},
              "value_text": money(worth), "priced_entries": priced, "unpriced_entries": unpriced}
    return {"collection": name, "collections": collections.names(), "totals": totals,
            "entries": [entry_json(h) for h in holdings[:limit]],
            "last_import": _past_json(collections.last_import(name))}


def saved_decks_missing(collections: Collections, name: str) -> Missing:
    """deckcheck.collection.missing for each of the collection owner's saved decks against the collection (another
    account's decks, private or not, are not this collection's to count)."""
    decks = {deck: [(card, q) for card, _section, q in entries] for deck, entries in collections.own_decks()}
    return missing(decks, collections.holdings(name))


def needs_data(collections: Collections, name: str, keeper: bool = True) -> dict[str, Any]:
    """What the saved decks still need from the collection: the object of `collection missing --json` for every
    saved deck, each row with the card's id too (for a link), and `short`, the copies short in all. The saved
    decks' ids (secret links) only for the server's keeper: for others `decks` is empty (`together` stays)."""
    result = saved_decks_missing(collections, name)
    data = result.as_dict(name)
    for needs, rows in [(result.together, data["together"])] + [(result.per_deck[k], data["decks"][k])
                                                                  for k in result.per_deck]:
        for need, row in zip(needs, rows, strict=True):
            row["card_id"] = need.card.id
    data["short"] = sum(n.short for n in result.together)
    data["decks_hidden"] = 0 if keeper else len(data["decks"])
    if not keeper:
        data["decks"] = {}
    return data


def _name(collection: str) -> str:
    collection = collection.strip() or "main"
    if len(collection) > NAME_MAX or not collection.isprintable():
        raise DeckcheckError(f"a collection name is printable text of at most {NAME_MAX} characters")
    return collection


def _shown(collections: Collections, collection: str) -> str:
    """A collection name to show: "main" (empty until something is imported), or a collection of the person's own;
    any other name answers 404, another account's collection of that name as well (its existence is not told)."""
    name = _name(collection)
    if name != "main" and name not in collections.names():
        raise NoCollection(f"no collection named {name!r}" + ("" if collections.anonymous else
                                                               "; yours: " + ", ".join(collections.names()[:20])))
    return name


@router.get("/api/collection", tags=["api"], summary="A collection's entries and totals",
            response_model=models.CollectionView, responses=models.errors(400))
def api_collection(collections: CollectionsDep, collection: str = Query("main", max_length=NAME_MAX),
                   q: str = Query("", max_length=200), set_: str = Query("", alias="set", max_length=100),
                   condition: str = Query(""), foil: str = Query(""),
                   limit: int = Query(PAGE_MAX, ge=1, le=100_000)) -> dict[str, Any]:
    """{"collection", "collections", "totals": {...}, "entries": [collection sheet rows]}."""
    return collection_data(collections, _shown(collections, collection), EntryFilter(q, set_, condition, foil), limit)


@router.get("/api/collection/missing", tags=["api"], summary="What the saved decks still need",
            response_model=models.Missing, responses=models.errors(400))
def api_missing(collections: CollectionsDep, keeper: KeeperDep,
                collection: str = Query("main", max_length=NAME_MAX)) -> dict[str, Any]:
    """Per saved deck and all together: cards needed, owned and short (as `collection missing --json`); the
    saved decks' ids only for the server's keeper (the user at this machine, or the admin token's bearer)."""
    found = needs_data(collections, _shown(collections, collection), keeper)
    found.pop("decks_hidden")
    return found


@router.get("/collection", summary="The collection page")
def collection_page(request: Request, collections: CollectionsDep, pages: PagesDep, keeper: KeeperDep,
                    collection: str = Query("main", max_length=NAME_MAX), q: str = Query("", max_length=200),
                    set_: str = Query("", alias="set", max_length=100),
                    condition: str = Query(""), foil: str = Query(""), imported: str = "",
                    undone: str = Query("", max_length=200)) -> Response:
    """Entries with filters and totals, the import form, the last import (to undo), exports, what decks need."""
    name = _shown(collections, collection)
    entry_filter = EntryFilter(q, set_, condition, foil)
    data = collection_data(collections, name, entry_filter)
    context = {**data, "filter": entry_filter, "needs": needs_data(collections, name, keeper), "conditions": CONDITIONS,
               "sets": sorted({e["set"] for e in data["entries"] if e["set"]}), "imported": imported[:200],
               "undone": undone,
               "page_max": PAGE_MAX}
    if request.headers.get("HX-Request") == "true" and request.headers.get("HX-Target") == "entries":
        return pages("_entries.html", context)
    return pages("collection.html", context)


# -- import: preview, then confirm ------------------------------------------------------------------
def keep_pending(data: bytes, suffix: str) -> str:
    """Keep an uploaded sheet until it is confirmed; return the random token that names it (web.previews: a
    private folder, capped in number and bytes)."""
    return previews.keep(data, suffix)


def pending_path(token: str) -> Path | None:
    """The kept sheet of a token (None if the token is malformed, unknown or expired)."""
    if not TOKEN.match(token):
        return None
    for suffix in SHEET_SUFFIXES:
        path = previews.folder() / f"{token}{suffix}"
        if path.exists():
            return path
    return None


IMPORTED = previews.MARK  # the mark a confirmed preview leaves, so that a second confirmation says so


def claim_pending(path: Path) -> Path | None:
    """Take a kept sheet for one confirmation: rename it out of the way, an atomic step that exactly one of
    several confirmations arriving at once (a double click, two tabs, two server processes) wins. Return the
    claimed file, or None when another confirmation took it first."""
    claimed = path.with_name(f"{path.stem}.claimed-{secrets.token_hex(8)}{path.suffix}")
    try:
        path.rename(claimed)
    except FileNotFoundError:
        return None
    return claimed


def pending_or_expired(token: str) -> Path | None:
    """The kept sheet a confirmation names (None: another confirmation has it, or had it); DeckcheckError when the
    preview expired."""
    path = pending_path(token)
    if path is None and not was_confirmed(token):
        raise DeckcheckError("that preview has expired; upload the sheet again")
    return path


def claim_or_taken(path: Path | None, where: str) -> tuple[Path, Path]:
    """The kept sheet and its claim for this confirmation (claim_pending); 409 when another confirmation of the
    same preview took it first (`where`: what the message sends the user to see)."""
    claimed = None if path is None else claim_pending(path)
    if path is None or claimed is None:
        raise HTTPException(409, f"that preview was already imported (it was confirmed once already); see {where}")
    return path, claimed


def release_pending(claimed: Path, path: Path) -> None:
    """Give a claimed sheet back (its import failed): it can be confirmed again until it expires."""
    try:
        claimed.rename(path)
    except OSError:
        claimed.unlink(missing_ok=True)


def finish_pending(claimed: Path, token: str) -> None:
    """A claimed sheet was imported: leave an empty mark in its place (swept with the rest), then delete it."""
    try:
        (previews.folder() / f"{token}{IMPORTED}").touch()
    except OSError:
        pass
    claimed.unlink(missing_ok=True)


def was_confirmed(token: str) -> bool:
    """Whether a preview was imported, or is being imported right now, by another confirmation."""
    where = previews.folder()
    if not TOKEN.match(token) or not where.is_dir():
        return False
    return (where / f"{token}{IMPORTED}").exists() or any(where.glob(f"{token}.claimed-*"))


def _counts_json(h: Holding | None) -> dict[str, Any] | None:
    return None if h is None else {"quantity": h.quantity, "trade_quantity": h.trade_quantity,
                                   "want_quantity": h.want_quantity}


def _past_json(past: PastImport | None) -> dict[str, Any] | None:
    return None if past is None else {"at": past.at, "when": past.when, "label": past.label, "mode": past.mode,
                                      "changes": past.changes, "id": past.id}


def run_import(mine: CollectionApp, path: Path, collection: str, mode: str, skip_bad: bool, dry_run: bool,
               again: bool = False, label: str = "") -> dict[str, Any]:
    """Import (or, dry, preview) a kept sheet: layout, rows, every change (up to PREVIEW_MAX) with the entry
    before it (`old`: its counts, None for a new entry), totals before and after, bad rows, and the earlier
    import of the same content into each collection (`imported_before`)."""
    layout, changes, problems, rows = mine.import_sheet(path, collection, mode, dry_run, skip_bad, sample=PREVIEW_MAX,
                                                        again=again, label=label)
    return {"layout": layout, "rows": rows, "problems": [p.as_dict() for p in problems],
            "changes": {name: {"added": c.added, "updated": c.updated, "removed": c.removed,
                               "unchanged": c.unchanged, "totals_before": c.totals_before,
                               "totals_after": c.totals_after, "imported_before": _past_json(c.imported_before),
                               "items": [{"kind": kind, **entry_json(h), "old": _counts_json(old)}
                                         for (kind, h), old in zip(c.sample, c.before, strict=True)]}
                        for name, c in changes.items()}}


def uploaded_sheet(upload: object, what: str) -> tuple[UploadFile, str, str]:
    """The uploaded file of a sheet form, the name it is shown under and its reader's suffix; DeckcheckError for no
    file or a file of no sheet kind (`what`: "collection sheet", "card sheet")."""
    if not isinstance(upload, UploadFile) or not upload.filename:
        raise DeckcheckError(f"choose a {what} (.csv or .xlsx) to import")
    label = _label(upload.filename)
    suffix = PurePath(label).suffix.lower()
    if suffix not in SHEET_SUFFIXES:
        raise DeckcheckError(f"{label!r}: a {what} is .csv or .xlsx")
    return upload, label, suffix


def _sheet_error(exc: DeckcheckError, label: str, path: Path) -> str:
    return str(exc).replace(str(path), label)


@router.post("/collection/import", summary="Preview a collection import (nothing changes yet)")
async def import_preview(request: Request, mine: LibraryDep, settings: SettingsDep, pages: PagesDep) -> Response:
    """Read the uploaded sheet, show every change it would make and every bad row, and ask to confirm.

    Instead of a file, `token` names a sheet already uploaded for a preview (to preview it in another mode)."""
    form = await request.form(max_files=1, max_fields=20, max_part_size=settings.upload_limit)
    check_csrf(request, form)
    upload = form.get("file")
    mode = _mode(form.get("mode"))
    collection = _name(str(form.get("collection") or "main"))
    skip_bad = form.get("skip_bad") == "yes"
    if form.get("token") and not (isinstance(upload, UploadFile) and upload.filename):
        kept = pending_path(str(form.get("token")))
        if kept is None:
            raise DeckcheckError("that preview has expired; upload the sheet again")
        path, token = kept, kept.stem
        label = _label(str(form.get("label") or "")) or f"sheet{path.suffix}"
    else:
        chosen, label, suffix = uploaded_sheet(upload, "collection sheet")
        token = keep_pending(await chosen.read(), suffix)
        found = pending_path(token)
        assert found is not None
        path = found
    try:
        preview = await run_in_threadpool(run_import, mine, path, collection, mode, True, True, False, label)
    except DeckcheckError as exc:  # said with the name the user gave the file, not the kept copy's
        path.unlink(missing_ok=True)
        raise DeckcheckError(_sheet_error(exc, label, path)) from None
    again_needed = mode == "merge" and any(c["imported_before"] and (c["added"] or c["updated"])
                                           for c in preview["changes"].values())
    return pages("import_preview.html", {**preview, "token": token, "label": label, "mode": mode,
                                         "again_needed": again_needed, "collection": collection,
                                         "skip_bad": skip_bad, "preview_max": PREVIEW_MAX})


@router.post("/collection/import/confirm", summary="Carry out a previewed collection import")
async def import_confirm(request: Request, mine: LibraryDep) -> Response:
    """Import the previewed sheet for real (all rows or none, or the good rows with skip_bad)."""
    form = await request.form(max_files=0, max_fields=20)
    check_csrf(request, form)
    token = str(form.get("token") or "")
    path = pending_or_expired(token)
    mode = _mode(form.get("mode"))
    collection = _name(str(form.get("collection") or "main"))
    path, claimed = claim_or_taken(path, "the collection")
    label = _label(str(form.get("label") or "")) or f"sheet{path.suffix}"
    try:
        result = await run_in_threadpool(run_import, mine, claimed, collection, mode,
                                         form.get("skip_bad") == "yes", False, form.get("again") == "yes", label)
    except AlreadyImported as exc:
        release_pending(claimed, path)  # nothing was imported: the preview can be confirmed again ("Import again")
        raise HTTPException(409, str(exc).replace("(--again)", "(the preview's “Import again”)")
                            .replace("(--mode replace)", "(replace mode)")) from None
    except DeckcheckError as exc:
        release_pending(claimed, path)  # nothing was imported: the preview can be confirmed again
        raise DeckcheckError(_sheet_error(exc, "the sheet", claimed)) from None
    except BaseException:
        release_pending(claimed, path)
        raise
    finish_pending(claimed, token)
    done = sum(c["added"] + c["updated"] + c["removed"] for c in result["changes"].values())
    target = next(iter(result["changes"]), collection)
    return RedirectResponse(f"/collection?{_query(collection=target, imported=str(done))}", status_code=303)


def _mode(value: object) -> str:
    mode = str(value or "merge")
    if mode not in ("merge", "replace"):
        raise DeckcheckError("mode is merge or replace")
    return mode


def _label(name: str) -> str:
    """A file name as sent by a browser, fit to show: printable, at most 200 characters, no folders."""
    return shortened(PurePath("".join(c for c in name if c.isprintable()).replace("\\", "/")).name)


@router.post("/collection/undo", summary="Undo one import into a collection")
async def undo_import(request: Request, collections: CollectionsDep) -> Response:
    """Take back the import `import_id` names (the page's form sends the one it showed; without it, the last):
    what it changed goes back, later edits stay (CONTRACTS §4 rev 3). Undos arriving together undo it once: the
    others answer 409 "already undone"; an id of no import of this collection 404; a later change in the way 409.
    """
    form = await request.form(max_files=0, max_fields=5)
    check_csrf(request, form)
    collection = _name(str(form.get("collection") or "main"))
    named = form.get("import_id")
    wanted = None if named is None or named == "" else import_id(named)
    past = await run_in_threadpool(collections.undo, collection, wanted)
    return RedirectResponse(f"/collection?{_query(collection=collection, undone=past.label or 'a sheet')}",
                            status_code=303)


def _query(**params: str) -> str:
    from urllib.parse import urlencode
    return urlencode(params)


# -- downloads ------------------------------------------------------------------------------------
def _download(write: Callable[[Path], object], filename: str) -> FileResponse:
    """Write a sheet into a fresh temporary folder and send it; the folder goes when the answer is sent."""
    folder = tempfile.TemporaryDirectory(prefix="deckcheck-export-")
    path = Path(folder.name) / filename
    write(path)
    kind = "text/csv" if filename.endswith(".csv") else \
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    return FileResponse(path, media_type=kind, filename=filename, background=BackgroundTask(folder.cleanup))


@router.get("/collection/export.{kind}", summary="Download the collection as CSV or XLSX")
def export(collections: CollectionsDep, kind: str, collection: str = Query("main", max_length=NAME_MAX),
           all_collections: bool = Query(False, alias="all")) -> Response:
    """The collection sheet (§4, with card_id) of one collection, or of all (`all=true`)."""
    if kind not in ("csv", "xlsx"):
        raise HTTPException(404, "exports are .csv or .xlsx")
    from deckcheck.importers.collection import write_collection
    name = _name(collection) if all_collections else _shown(collections, collection)
    holdings = collections.holdings(None if all_collections else name)
    filename = f"{'collections' if all_collections else 'collection'}.{kind}"
    return _download(lambda path: write_collection(path, holdings, by_collection=all_collections), filename)


@router.get("/collection/wants.csv", summary="Download the want list of what the saved decks need")
def want_list(collections: CollectionsDep, collection: str = Query("main", max_length=NAME_MAX)) -> Response:
    """A collection sheet of want quantities that `collection import` (or this page's import) reads back."""
    from deckcheck.importers.collection import write_collection
    result = saved_decks_missing(collections, _shown(collections, collection))
    wants = [Holding(n.card, want_quantity=n.short, quantity=0) for n in result.together]
    return _download(lambda path: write_collection(path, wants), "want-list.csv")
