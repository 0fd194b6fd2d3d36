"""The baseline of ``bench_query.py``'s output table: a search written by hand.

What someone would write to get the same output as ``zcards search QUERY --format FORMAT``
from a card database with nothing but the standard library: the WHERE clause and ORDER BY
written by hand, each row's JSON columns decoded, ``csv.writer`` or ``json.dumps`` per row.
It imports no zcards code, so it shares none of zcards' costs or tricks.

    python scripts/bench_query_hand.py FORMAT QUERY_KEY DB
"""

from __future__ import annotations

import csv
import json
import sqlite3
import sys

WHERE = {
    "prefix": "name LIKE 'Rusty Crow%'",
    "zombie-horde": "type = 'Zombie' COLLATE NOCASE AND faction = 'Horde' COLLATE NOCASE",
    "ghoul": "rowid IN (SELECT rowid FROM cards_fts WHERE cards_fts MATCH 'ghoul*')",
    "power": "power >= 3 AND power <= 4",
}
SCALARS = ["name", "set_name", "image_file", "type", "faction", "cost", "power", "health"]
CSV_COLUMNS = [*SCALARS, "keywords", "requirements", "symbols", "rarity", "text"]
JSON_COLUMNS = [*SCALARS, "rarity", "text", "keywords", "requirements", "symbols", "extra"]
TEXTS = ("image_file", "type", "faction", "rarity", "text")


def main() -> None:
    output_format, key, path = sys.argv[1:4]
    conn = sqlite3.connect(path)
    columns = CSV_COLUMNS if output_format in ("csv", "tsv") else JSON_COLUMNS
    rows = conn.execute(
        f"SELECT {', '.join(columns)} FROM cards WHERE {WHERE[key]} ORDER BY name, set_name"
    )
    out = sys.stdout
    if output_format in ("csv", "tsv"):
        delimiter = "," if output_format == "csv" else "\t"
        writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
        writer.writerow(columns)
        for row in rows:
            cells = list(row)  # csv writes None as an empty cell
            cells[8] = ", ".join(json.loads(row[8]))
            cells[9] = ", ".join(f"{n} {k}" for k, n in json.loads(row[9]).items())
            cells[10] = ", ".join(json.loads(row[10]))
            writer.writerow(cells)
        return
    objects = (card(row) for row in rows)
    if output_format == "jsonl":
        for data in objects:
            out.write(json.dumps(data, ensure_ascii=False) + "\n")
        return
    separator = "[\n"
    for data in objects:
        out.write(separator + json.dumps(data, ensure_ascii=False))
        separator = ",\n"
    out.write("[]\n" if separator == "[\n" else "\n]\n")


def card(row: tuple) -> dict:
    data = dict(zip(JSON_COLUMNS, row, strict=True))
    for name in TEXTS:
        data[name] = data[name] or ""
    for name in ("keywords", "requirements", "symbols", "extra"):
        data[name] = json.loads(data[name])
    return data


if __name__ == "__main__":
    main()
