"""The keeper's import of a card sheet into the server's database (`/cards/import`), as the collection imports do:
upload, a preview of every card it would add or change and every bad row (with the closest values), a confirm
button, and an undo of the import afterwards (deckcheck.db.cardimports).

A keeper's or a reviewer's alone on a club server (web.policy). The sheet waits for its confirmation in the
private preview folder under a random name the server made (web.previews, web.collection's claim: confirmations
arriving together import it once); the bad rows are left out of the import, and said so before it.
"""
from __future__ import annotations

from pathlib import Path
from urllib.parse import urlencode
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from deckcheck import provenance
from deckcheck.errors import DeckcheckError
from deckcheck.importers.cardsheet import CardSheet, read_card_sheet
from deckcheck.library.database import (card_import, import_card_sheet, last_card_import, preview_card_sheet,
                                        undo_card_import)

from . import models, policy
from .collection import (_label, _sheet_error, claim_or_taken, finish_pending, keep_pending, pending_or_expired,
                         pending_path, release_pending, uploaded_sheet)
from .deps import CatalogDep, PagesDep, PersonDep, ServerDep, SettingsDep
from .security import check_csrf

router = APIRouter(route_class=models.ApiRoute)
PREVIEW_ROWS = 50  # new cards, changed and kept values, bad cells listed one by one in a preview; beyond, the counts


def _read(path: Path, label: str) -> CardSheet:
    """The kept sheet read as `cards import --skip-bad` reads it, said with the name it was uploaded under."""
    try:
        return read_card_sheet(path, skip_bad=True)
    except DeckcheckError as exc:
        raise DeckcheckError(_sheet_error(exc, label, path)) from None


def preview(catalog: CatalogDep, path: Path, label: str) -> dict[str, Any]:
    """What importing the kept sheet would do: the counts, exact, and the first PREVIEW_ROWS of each list (new cards,
    changed values, kept values (a stronger source holds them), bad cells with their suggestions), notices: a page
    of the same size for a sheet of any length."""
    sheet = _read(path, label)
    result = preview_card_sheet(catalog.store, sheet.rows, provenance.sheet(label))
    shown = set(result.added[:PREVIEW_ROWS])
    names = {r.card.id: r.card for r in sheet.rows if r.card.id in shown}
    bad_rows = len({p.row for p in sheet.problems})  # a row may have two bad cells: one bad row
    return {"rows": len(sheet.rows) + bad_rows, "good": len(sheet.rows), "added": len(result.added),
            "updated": len(result.updated), "unchanged": result.unchanged,
            "new_cards": [{"id": i, "name": names[i].name, "game": names[i].game, "type": names[i].type or ""}
                          for i in result.added[:PREVIEW_ROWS]],
            "changes": [str(c) for c in result.changes[:PREVIEW_ROWS]], "changed": len(result.changes),
            "kept": [str(c) for c in result.kept[:PREVIEW_ROWS]], "kept_count": len(result.kept),
            "problems": [p.as_dict() for p in sheet.problems[:PREVIEW_ROWS]], "problem_count": len(sheet.problems),
            "bad_rows": bad_rows, "notices": sheet.notices}


@router.get("/cards/import", summary="The keeper's card sheet import: the form and the last import")
def import_page(pages: PagesDep, catalog: CatalogDep, who: PersonDep, srv: ServerDep,
                imported: str = Query("", max_length=20), undone: str = Query("", max_length=20)) -> Response:
    """The upload form, and the last import standing with its undo button; after an undo (`undone`: its number),
    what it did and what it kept, and why. Who imported, and whose later changes an undo kept, only to those who
    may import (web.policy: a keeper or a reviewer on a club or open server): a stranger learns no account name."""
    may = policy.may(who, policy.rule_of("POST", "/cards/import"), srv.mode())
    done = card_import(catalog.store, int(undone)) if may and undone.isascii() and undone.isdigit() else None
    return pages("card_import.html", {"last": last_card_import(catalog.store), "imported": imported,
                                      "undone": done if done is not None and done.undone else None, "may": may})


@router.post("/cards/import", summary="Preview a card sheet import (nothing changes yet)")
async def import_preview(request: Request, catalog: CatalogDep, settings: SettingsDep, pages: PagesDep) -> Response:
    """Read the uploaded card sheet and show what it would add and change, and every bad row."""
    form = await request.form(max_files=1, max_fields=10, max_part_size=settings.upload_limit)
    check_csrf(request, form)
    upload, label, suffix = uploaded_sheet(form.get("file"), "card sheet")
    data = await upload.read()
    if not data:
        raise DeckcheckError(f"{label!r}: the card sheet is empty; nothing was imported")
    token = keep_pending(data, suffix)
    path = pending_path(token)
    assert path is not None
    try:
        shown = await run_in_threadpool(preview, catalog, path, label)
    except DeckcheckError:
        path.unlink(missing_ok=True)
        raise
    return pages("card_import_preview.html", {**shown, "token": token, "label": label, "preview_max": PREVIEW_ROWS})


@router.post("/cards/import/confirm", summary="Carry out a previewed card sheet import")
async def import_confirm(request: Request, catalog: CatalogDep, who: PersonDep) -> Response:
    """Import the previewed sheet's good rows into the database, keeping what lets the import be undone."""
    form = await request.form(max_files=0, max_fields=10)
    check_csrf(request, form)
    token = str(form.get("token") or "")
    path, claimed = claim_or_taken(pending_or_expired(token), "the card sheet imports")
    label = _label(str(form.get("label") or "")) or f"sheet{path.suffix}"
    try:
        sheet = await run_in_threadpool(_read, claimed, label)
        past = await run_in_threadpool(import_card_sheet, catalog.store, sheet.rows, label,
                                       who.name or "the keeper")
    except BaseException:
        release_pending(claimed, path)  # nothing was imported: the preview can be confirmed again
        raise
    finish_pending(claimed, token)
    return RedirectResponse(f"/cards/import?{_query(imported=str(past.id))}", status_code=303)


@router.post("/cards/import/undo", summary="Undo one card sheet import")
async def import_undo(request: Request, catalog: CatalogDep) -> Response:
    """Take back the import `import_id` names: what still stands as it left it goes back, every later change stays
    (a value changed since, a card it added that was changed since or that a saved deck or a collection holds);
    the import page then says which and why. 404 for no such import, 409 for one undone already."""
    form = await request.form(max_files=0, max_fields=5)
    check_csrf(request, form)
    named = str(form.get("import_id") or "")
    if not (named.isascii() and named.isdigit()) or len(named) > 9:  # "²".isdigit(), and int() refuses it
        raise DeckcheckError("import_id is the number of an import")
    done = await run_in_threadpool(undo_card_import, catalog.store, int(named))
    return RedirectResponse(f"/cards/import?{_query(undone=str(done.past.id))}", status_code=303)


def _query(**params: str) -> str:
    return urlencode(params)
