"""Merging offline review packages at paper scale: one transaction per package vs per decision.

Builds a workspace of 4,445 questions x 9 dialects (40,005 dialect variants), ten annotators
who speak every dialect, and one batch with a 25 % double-annotated overlap (about 50,000
assignments, 5,000 per annotator). Each annotator's package is exported and filled with a
decision on every item (accept / edit / flag / reject with scores), then all ten packages are
merged into one copy of the workspace with ``import_package`` (one verified transaction per
package) and into another copy by the naive way: the same checks, one transaction per
decision. Both copies must end with every decision of every package.

``--quick``: 10 annotators x 5,000 decisions (the issue's scale); without it, 10 x 20,000.
A third copy gets the *floor*: the same checksums verified (items, decisions, seal) and the
same rows inserted in one transaction per package, no other logic (not the file and schema
checks, quick_check, the assignment's HMAC, the value checks, the duplicate and staleness
lookups). Floor and merge take turns package by package. Last line:
``{"decisions", "merge_s", "floor_s", "floor_ratio", "floor_ratio_cpu", "decisions_per_s",
"lost", ...}``; goal floor_ratio (merge / floor, wall time) <= 1.5 with 0 lost (asserted);
floor_ratio_cpu is the same in process CPU time, which other programs move less. ``ratio`` against the naive way is
kept for reference: the workspace runs WAL with synchronous=NORMAL, where a commit does not
wait for the disk, so a per-decision transaction costs little more than the work inside it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.annotation import packages  # noqa: E402
from engine.annotation.annotators import add_annotator  # noqa: E402
from engine.annotation.assignment import assign  # noqa: E402
from engine.annotation.decisions import insert_decisions  # noqa: E402
from engine.annotation.items import current_hashes  # noqa: E402
from engine.samples.study import add_synthetic_questions  # noqa: E402
from engine.workspace.schema import DIALECTS  # noqa: E402
from engine.workspace.store import Workspace  # noqa: E402

ANNOTATORS = 10


def build(path: Path, per_annotator: int, seed: int = 0) -> Workspace:
    dialects = [d[0] for d in DIALECTS if d[0] != "standard"]
    # assignments = items x 1.25 (25 % overlap, 2 raters) = annotators x per_annotator
    questions = -(-ANNOTATORS * per_annotator * 4 // 5 // len(dialects))
    ws = Workspace(path)
    add_synthetic_questions(ws, questions, dialects)
    for i in range(ANNOTATORS):
        add_annotator(ws, f"annotator{i:02d}", dialects)
    assign(ws, "field", "variant", [], overlap=0.25, seed=seed)
    ws.conn.execute("ANALYZE")
    return ws


def fill(path: Path, rng: random.Random) -> int:
    pkg = packages.ReviewPackage(path)
    entries = []
    for item in pkg.items():
        pick = rng.random()
        if pick < 0.6:
            entries.append({"item_id": item["item_id"], "decision": "accept", "score": 5})
        elif pick < 0.85:
            text = item["content"]["text"] + " (সম্পাদিত)"
            entries.append(
                {
                    "item_id": item["item_id"],
                    "decision": "edit",
                    "text": text,
                    "score": rng.randint(2, 4),
                    "seconds": rng.uniform(5, 90),
                }
            )
        elif pick < 0.95:
            entries.append({"item_id": item["item_id"], "decision": "flag", "comment": "?"})
        else:
            entries.append({"item_id": item["item_id"], "decision": "reject", "score": 1})
    pkg.record_many(entries)
    return len(entries)


def naive_import(ws: Workspace, path: Path) -> int:
    """The same checks as import_package, but one transaction per decision."""
    pkg = packages.read_package(path)
    aid = ws.scalar("SELECT id FROM annotators WHERE name = ?", (pkg.manifest["annotator"],))
    n = 0
    for d in pkg.decisions:
        with ws.transaction() as conn:
            if conn.execute(
                "SELECT 1 FROM annotation_decisions WHERE uid = ?", (d["uid"],)
            ).fetchone():
                continue
            if not conn.execute(
                "SELECT 1 FROM annotation_assignments WHERE item_id = ? AND annotator_id = ?",
                (d["item_id"], aid),
            ).fetchone():
                raise RuntimeError("unassigned item")
            stale = int(current_hashes(ws, [d["item_id"]]).get(d["item_id"]) != d["item_hash"])
            insert_decisions(
                conn,
                [dict(d, annotator_id=aid, stale=stale)],
                f"package:{pkg.manifest['package_id']}",
            )
            n += 1
    return n


def floor_import(ws: Workspace, path: Path, annotator_id: int) -> int:
    """The floor of a merge: verify the same checksums (every item's, every decision's, the
    seal) and insert the same rows in one transaction — no other logic (no manifest or
    assignment checks, no duplicate or staleness lookups)."""
    from engine.annotation.decisions import decision_checksum

    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    try:
        conn.row_factory = sqlite3.Row
        items = [dict(r) for r in conn.execute("SELECT * FROM items ORDER BY item_id")]
        decisions = [dict(r) for r in conn.execute("SELECT * FROM decisions ORDER BY uid")]
        # the product's own checksum functions: the floor does the same hashing
        assert all(packages._item_checksum(it) == it["checksum"] for it in items)
        assert all(decision_checksum(d) == d["checksum"] for d in decisions)
        conn.row_factory = None
        seal = packages._seal(conn)
        assert seal == dict(conn.execute("SELECT key, value FROM manifest"))["seal"]
    finally:
        conn.close()
    with ws.transaction() as tx:
        insert_decisions(
            tx, [dict(d, annotator_id=annotator_id, stale=0) for d in decisions], "floor"
        )
    return len(decisions)


def copy(ws: Workspace, dst: Path) -> Workspace:
    with sqlite3.connect(dst) as target:
        ws.conn.backup(target)
    target.close()
    return Workspace(dst)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 x 5,000 decisions")
    args = parser.parse_args(argv)
    per = 5_000 if args.quick else 20_000
    tmp = Path(tempfile.mkdtemp(prefix="upabhasha-merge-bench-"))
    t0 = time.perf_counter()
    ws = build(tmp / "lab.sqlite", per)
    rng = random.Random(1)
    files, written = [], 0
    for i in range(ANNOTATORS):
        path = tmp / f"annotator{i:02d}.upkg"
        packages.export_package(ws, f"annotator{i:02d}", path)
        written += fill(path, rng)
        files.append(path)
    build_s = time.perf_counter() - t0
    merged_ws, naive_ws = copy(ws, tmp / "merged.sqlite"), copy(ws, tmp / "naive.sqlite")
    floor_ws = copy(ws, tmp / "floor.sqlite")
    ws.close()
    ids = dict(floor_ws.conn.execute("SELECT name, id FROM annotators"))

    # The floor and the merge take turns package by package, each going first every other
    # time: on a shared machine the load drifts, and both must see the same drift. Wall time
    # is the measure; process CPU time is printed beside it (less moved by other programs).
    floor_s = merge_s = floor_cpu = merge_cpu = 0.0
    for i, path in enumerate(files):
        for merge_turn in (i % 2 == 0, i % 2 == 1):
            t0, c0 = time.perf_counter(), time.process_time()
            if merge_turn:
                packages.import_package(merged_ws, path)
                merge_s += time.perf_counter() - t0
                merge_cpu += time.process_time() - c0
            else:
                floor_import(floor_ws, path, ids[path.stem])
                floor_s += time.perf_counter() - t0
                floor_cpu += time.process_time() - c0
    t0 = time.perf_counter()
    for path in reversed(files):
        naive_import(naive_ws, path)
    naive_s = time.perf_counter() - t0

    t0 = time.perf_counter()
    for path in files:
        packages.read_package(path)
    verify_s = time.perf_counter() - t0

    expected = {d["uid"] for p in files for d in packages.read_package(p).decisions}
    got = {r[0] for r in merged_ws.conn.execute("SELECT uid FROM annotation_decisions")}
    got_naive = {r[0] for r in naive_ws.conn.execute("SELECT uid FROM annotation_decisions")}
    got_floor = {r[0] for r in floor_ws.conn.execute("SELECT uid FROM annotation_decisions")}
    assert got == expected == got_floor, "a merge lost or added decisions"
    again = sum(packages.import_package(merged_ws, p)["new"] for p in files)
    result = {
        "decisions": len(got),
        "written": written,
        "merge_s": round(merge_s, 3),
        "floor_s": round(floor_s, 3),
        "floor_ratio": round(merge_s / floor_s, 2),
        "floor_ratio_cpu": round(merge_cpu / floor_cpu, 2),
        "decisions_per_s": round(len(got) / merge_s),
        "naive_s": round(naive_s, 3),
        "ratio": round(naive_s / merge_s, 1),
        # reading + verifying the packages (checksums, seal) is common to both ways
        "verify_s": round(verify_s, 3),
        "write_ratio": round((naive_s - verify_s) / max(merge_s - verify_s, 1e-9), 1),
        "lost": len(expected - got),
        "lost_naive": len(expected - got_naive),
        "reimport_new": again,
        "annotators": ANNOTATORS,
        "items": merged_ws.scalar("SELECT count(*) FROM annotation_items"),
        "build_s": round(build_s, 1),
        "quick": args.quick,
        "cpus": os.cpu_count(),
        "goal": {"floor_ratio": 1.5, "floor_ratio_cpu": 1.5, "lost": 0},
        "load": os.getloadavg()[0],
    }
    assert result["lost"] == 0 and again == 0
    merged_ws.close()
    naive_ws.close()
    floor_ws.close()
    # the wall ratio moves with other programs' load: the CPU one must hold too
    if max(result["floor_ratio"], result["floor_ratio_cpu"]) > 1.5:
        print(
            f"note: the merge takes {result['floor_ratio']}x its floor "
            f"({result['floor_ratio_cpu']}x in CPU time; verifying the same "
            f"checksums and inserting the same rows in one transaction: {floor_s:.2f} s); "
            f"the rest is the file, assignment and value checks and the staleness lookups"
        )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
