#!/usr/bin/env python3
"""What looking at a workbook before reading it costs (issue 9 item 8): the XLSX scan against the read.

    .venv/bin/python bench/bench_sheet_scan.py [--rows 200000]

importers.limits.inspect_xlsx inflates every sheet part as a stream and finds its farthest cell
reference, so that a far-corner cell never reaches python-calamine. Prints the scan's time, the bare
calamine read of the same workbook (limit.xlsx_read_s of ../shared/bench/limits.py, measured in the
same run) and their ratio; target: the scan at most half the read. Also the whole table read
(read_tables and a pass over its rows, which are made as they are iterated: scan + calamine + rows)
against the bare read.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import data_dir, limits, median_time, sizes, verdict  # noqa: E402


def main() -> None:
    args = sizes(__doc__)
    data = data_dir(args.rows, args.decks)
    figures = limits(data)
    from deckcheck.importers.limits import inspect_xlsx
    from deckcheck.importers.tables import read_tables
    workbook = data / "collection.xlsx"
    scan = median_time(lambda: inspect_xlsx(workbook), 3)
    read = median_time(lambda: [sum(1 for _row in table.rows) for table in read_tables(workbook)], 3)
    print("deckcheck.xlsx_scan_s", round(scan, 4))
    print("deckcheck.read_tables_xlsx_s", round(read, 4))
    print(verdict("ratio.scan_vs_read", scan, figures["limit.xlsx_read_s"], 0.5, False))
    print(verdict("ratio.read_tables_vs_read", read, figures["limit.xlsx_read_s"], 1.6, False))
    for name, value in figures.items():
        print(name, value)


if __name__ == "__main__":
    main()
