#!/usr/bin/env python3
"""Build registration.xlsx (one sheet per player) from registration.csv (long form with a player column).

    python examples/tournament/make_workbook.py

Both files hold the same four registrations: a legal deck, an illegal one, and one that cannot be
read (misspelt and ambiguous names). Needs xlsxwriter.
"""
import csv
from pathlib import Path

import xlsxwriter

HERE = Path(__file__).resolve().parent


def main() -> None:
    with open(HERE / "registration.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    book = xlsxwriter.Workbook(str(HERE / "registration.xlsx"))
    players: dict[str, list[dict]] = {}
    for row in rows:
        players.setdefault(row["player"], []).append(row)
    for player, cards in players.items():
        sheet = book.add_worksheet(player)
        sheet.write_row(0, 0, ["section", "quantity", "card", "set"])
        for i, row in enumerate(cards, start=1):
            sheet.write_string(i, 0, row["section"])
            sheet.write_number(i, 1, int(row["quantity"]))
            sheet.write_string(i, 2, row["card"])
            sheet.write_string(i, 3, row["set"])
    book.close()


if __name__ == "__main__":
    main()
