"""Test tooling: run OpenAI Batch request files against an OpenAI-compatible server, one
request at a time, and write the result lines a Batch engine would (``custom_id``,
``response.status_code``, ``response.body``)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx


def run_batch_file(requests_file: Path, base_url: str, results_file: Path, **rewrite) -> int:
    """Post each line's body to ``base_url`` (…/v1 stripped) and write the result lines;
    returns how many lines it wrote. ``rewrite``: body fields replaced before posting."""
    base = base_url.rstrip("/").removesuffix("/v1")
    out = []
    with httpx.Client(timeout=900) as client:
        for raw in requests_file.read_text(encoding="utf-8").splitlines():
            line = json.loads(raw)
            reply = client.post(base + line["url"], json={**line["body"], **rewrite})
            body = reply.json() if reply.status_code == 200 else None
            out.append(
                {
                    "id": f"batch_req_{len(out)}",
                    "custom_id": line["custom_id"],
                    "response": {"status_code": reply.status_code, "body": body},
                    "error": None if body is not None else {"message": reply.text[:200]},
                }
            )
    results_file.write_text(
        "".join(json.dumps(o, ensure_ascii=False) + "\n" for o in out), encoding="utf-8"
    )
    return len(out)


def copy_workspace(src: Path, dst: Path) -> None:
    """A consistent copy of a closed or open workspace (SQLite's backup)."""
    import sqlite3

    with sqlite3.connect(src) as a, sqlite3.connect(dst) as b:
        a.backup(b)
    a.close()
    b.close()


# what a stored row is, apart from when and how fast it was made
VOLATILE = {"id", "created_at", "elapsed_ms", "updated_at", "decided_at", "judged_at"}


def stored_rows(path: Path, tables: tuple[str, ...]) -> dict[str, list[tuple]]:
    """Every row of ``tables``, volatile columns left out, in a stable order."""
    import sqlite3

    out = {}
    with sqlite3.connect(path) as conn:
        for table in tables:
            cols = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
            keep = [c for c in cols if c not in VOLATILE]
            rows = conn.execute(f"SELECT {', '.join(keep)} FROM {table}").fetchall()
            out[table] = sorted(rows, key=repr)
    conn.close()
    return out
