"""Data safety of collection imports on SQLite and PostgreSQL: a kill -9 at any moment leaves exactly the old or
the new collection; a failed or all-bad import leaves the export byte-identical."""
from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

from deckcheck.library.api import CollectionApp
from deckcheck.importers.collection import write_collection

ROOT = Path(__file__).resolve().parent.parent
EXE = str(Path(sys.executable).with_name("deckcheck"))
KILL_POINTS = 4  # a handful keeps the suite fast; the seed varies the moments from run to run (printed on failure)


def export(url: str, path: Path) -> bytes:
    app = CollectionApp(url)
    try:
        write_collection(path, app.collections.holdings("main"))
    finally:
        app.catalog.store.dispose()
    return path.read_bytes()


def import_sheet(url: str, sheet: Path, **options) -> None:
    app = CollectionApp(url)
    try:
        app.import_sheet(sheet, **options)
    finally:
        app.catalog.store.dispose()


def sheets(tmp_path: Path, url: str) -> tuple[Path, Path]:
    app = CollectionApp(url)
    ids = sorted(app.collections.cards)
    app.catalog.store.dispose()
    old, new = tmp_path / "old.csv", tmp_path / "new.csv"
    old.write_text("card,card_id,quantity,location\n" + "".join(f"x,{i},2,old box\n" for i in ids[:300]))
    new.write_text("card,card_id,quantity,location,notes\n" +
                   "".join(f"x,{i},{n % 9 + 1},new box,{'note ' * 8}\n" for n, i in enumerate(ids[150:])))
    return old, new


def cli_import(url: str, sheet: Path) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k != "DECKCHECK_DB"}
    return subprocess.Popen([EXE, "collection", "import", str(sheet), "--mode", "replace", "--db", url], cwd=ROOT,
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def test_kill_9_during_an_import_leaves_the_old_or_the_new_collection(db_url, tmp_path):
    old, new = sheets(tmp_path, db_url)
    import_sheet(db_url, new, mode="replace")
    new_bytes = export(db_url, tmp_path / "e.csv")
    import_sheet(db_url, old, mode="replace")
    old_bytes = export(db_url, tmp_path / "e.csv")
    assert old_bytes != new_bytes
    start = time.monotonic()
    assert cli_import(db_url, new).wait(timeout=300) == 0  # how long a whole import takes here, start-up included
    whole = time.monotonic() - start
    assert export(db_url, tmp_path / "e.csv") == new_bytes
    seed = random.randrange(1 << 30)
    rng = random.Random(seed)
    seen = []
    for _ in range(KILL_POINTS):
        import_sheet(db_url, old, mode="replace")
        proc = cli_import(db_url, new)
        time.sleep(rng.uniform(0.3, 1.0) * whole)
        proc.kill()  # SIGKILL: no clean-up of any kind
        proc.wait()
        found = export(db_url, tmp_path / "e.csv")
        assert found in (old_bytes, new_bytes), f"seed {seed}: a mix of the old and the new collection"
        seen.append("new" if found == new_bytes else "old")
    import_sheet(db_url, new, mode="replace")  # the database still works after every kill
    assert export(db_url, tmp_path / "e.csv") == new_bytes, seen


def test_a_failed_or_all_bad_import_leaves_the_export_byte_identical(db_url, tmp_path):
    old, _new = sheets(tmp_path, db_url)
    import_sheet(db_url, old)
    before = export(db_url, tmp_path / "a.csv")
    bad = tmp_path / "bad.csv"
    bad.write_text(old.read_text() + "Thrst (2),,1,\nThrust (2),ME,2,LQ\n")
    env = {k: v for k, v in os.environ.items() if k != "DECKCHECK_DB"}
    for extra in ([], ["--mode", "replace"]):
        r = subprocess.run([EXE, "collection", "import", str(bad), *extra, "--db", db_url], cwd=ROOT, env=env,
                           capture_output=True, text=True)
        assert r.returncode == 2 and "nothing was imported" in r.stderr
        assert export(db_url, tmp_path / "b.csv") == before
    all_bad = tmp_path / "all-bad.csv"
    all_bad.write_text("card,set,quantity,condition\nThrst (2),,1,\nThrust (2),ME,2,LQ\nThrust (2),ME,-1,NM\n")
    r = subprocess.run([EXE, "collection", "import", str(all_bad), "--mode", "replace", "--skip-bad", "--db", db_url],
                       cwd=ROOT, env=env, capture_output=True, text=True)
    assert r.returncode == 2 and "3 bad rows skipped" in r.stderr and "0 removed" in r.stdout, r.stdout + r.stderr
    assert export(db_url, tmp_path / "b.csv") == before
