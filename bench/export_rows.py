"""Export benchmark: where sqlite-utils serves the workspace, and where raw SQL stays.

A workspace with N responses rows (Bengali text, the widest table a study exports) is
exported to CSV twice in one run:
  sqlite_utils_s  engine.importing.exporters.export_table: sqlite-utils' ``Table.rows``
                  (a dict per row)
  cursor_s        the baseline: the same file written from a plain cursor's tuples
  ratio           sqlite_utils_s / cursor_s (> 1: the plain cursor is faster)
and the schema reads behind ``upabhasha status --schema`` / ``export --list``:
  schema_ms       Workspace.schema() (sqlite-utils: tables, views, columns, counts)
The last line of output is one JSON object.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.importing.exporters import export_table, neutralize  # noqa: E402
from engine.workspace.store import Workspace, utcnow  # noqa: E402

TEXT = "এটি একটি দীর্ঘ উত্তর, যা মানক বাংলায় লেখা হয়েছে এবং প্রশ্নের বিস্তারিত ব্যাখ্যা দেয়। " * 4


def build(path: Path, rows: int) -> Workspace:
    ws = Workspace(path)
    now = utcnow()
    with ws.transaction() as conn:
        conn.execute(
            "INSERT INTO runs(id, kind, run_key, card, created_at) VALUES (1, 'answer', 'k', '{}', ?)",
            (now,),
        )
        conn.executemany(
            "INSERT INTO responses(run_id, item_key, status, text, prompt_tokens, "
            "completion_tokens, finish_reason, elapsed_ms, created_at) "
            "VALUES (1, ?, 'done', ?, 40, 120, 'stop', 812.5, ?)",
            ((f"item-{i}", f"{i}: {TEXT}", now) for i in range(rows)),
        )
    return ws


def via_cursor(ws: Workspace, name: str, path: Path) -> int:
    cursor = ws.conn.execute(f'SELECT * FROM "{name}"')
    count = 0
    with open(path, "w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow([d[0] for d in cursor.description])
        while batch := cursor.fetchmany(1000):
            for row in batch:
                writer.writerow([neutralize(v) for v in row])
                count += 1
    return count


def best_of(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20,000 rows instead of 200,000")
    parser.add_argument("--rows", type=int)
    args = parser.parse_args()
    rows = args.rows or (20_000 if args.quick else 200_000)
    repeats = 5
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        ws = build(out / "bench.sqlite", rows)
        n = export_table(ws, "responses", out / "a.csv")
        assert n == via_cursor(ws, "responses", out / "b.csv") == rows
        same = (out / "a.csv").read_bytes() == (out / "b.csv").read_bytes()
        cursor_s, utils_s = float("inf"), float("inf")
        for _ in range(repeats):  # interleaved, best of each: the machine is shared
            cursor_s = min(cursor_s, best_of(lambda: via_cursor(ws, "responses", out / "b.csv"), 1))
            utils_s = min(utils_s, best_of(lambda: export_table(ws, "responses", out / "a.csv"), 1))
        schema_s = best_of(ws.schema, repeats)
        ws.close()
    result = {
        "rows": rows,
        "same_file": same,
        "cursor_s": round(cursor_s, 3),
        "sqlite_utils_s": round(utils_s, 3),
        "ratio": round(utils_s / cursor_s, 2),
        "schema_ms": round(schema_s * 1000, 1),
    }
    print(
        f"CSV export of {rows:,} responses: cursor {cursor_s:.3f} s, sqlite-utils rows {utils_s:.3f} s"
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
