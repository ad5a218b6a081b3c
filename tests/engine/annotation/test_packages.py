"""Offline review packages: round trip, idempotent and order-independent merges, stale items,
and refusal of foreign, tampered, truncated and half-written packages with no change."""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from engine.annotation.adjudication import queue
from engine.annotation.assignment import assign
from engine.annotation.packages import ReviewPackage, export_package, import_package
from engine.errors import UserError
from engine.translation.review import set_variant_text
from engine.workspace.store import Workspace

from .helpers import snapshot


def _fill(path, edit_text: str) -> None:
    """The annotator's side: open the package alone (no workspace) and decide every item."""
    pkg = ReviewPackage(path)
    for n, item in enumerate(pkg.queue()):
        if item["dialect"] == "sylhet" and n % 2 == 0:
            pkg.record(item["item_id"], "edit", text=edit_text, score=3, seconds=20)
        elif n % 5 == 4:
            pkg.record(item["item_id"], "flag", comment="অস্পষ্ট")
        else:
            pkg.record(item["item_id"], "accept", score=5, seconds=8)


@pytest.fixture
def two_packages(ann_ws, tmp_path):
    assign(ann_ws, "field", "variant", ["Karim", "Shuvo"], overlap=0.5, seed=5)
    karim = export_package(ann_ws, "Karim", tmp_path / "karim.upkg")
    shuvo = export_package(ann_ws, "Shuvo", tmp_path / "shuvo.upkg")
    assert karim["items"] > 0 and shuvo["items"] == 9  # Sylheti only: 6 shared + half of 6
    _fill(karim["path"], "কারিমের সিলেটি রূপ")
    _fill(shuvo["path"], "শুভর সিলেটি রূপ")
    return ann_ws, karim["path"], shuvo["path"]


def test_package_is_blind_and_self_contained(two_packages):
    ws, karim, shuvo = two_packages
    pkg = ReviewPackage(shuvo)
    assert pkg.annotator == "Shuvo"
    assert {i["dialect"] for i in pkg.items()} == {"sylhet"}
    # Karim's decisions never travel in Shuvo's package
    assert all(d["annotator"] == "Shuvo" for d in pkg.decisions())


def test_merge_in_both_orders_is_identical_and_idempotent(two_packages, tmp_path):
    ws, karim, shuvo = two_packages
    with sqlite3.connect(tmp_path / "copy.sqlite") as dst:  # a WAL-safe copy
        ws.conn.backup(dst)
    first = import_package(ws, karim)
    import_package(ws, shuvo)
    with Workspace(tmp_path / "copy.sqlite") as ws2:
        import_package(ws2, shuvo)
        import_package(ws2, karim)
        assert snapshot(ws) == snapshot(ws2)
        assert [e["item_id"] for e in queue(ws)] == [e["item_id"] for e in queue(ws2)]
    assert first["new"] == first["decisions"] > 0
    before = snapshot(ws)
    again = import_package(ws, karim)
    assert again["new"] == 0 and again["already_merged"] == first["decisions"]
    assert snapshot(ws) == before
    # the disagreeing Sylheti edits and the flags are in the adjudication queue
    reasons = {r for e in queue(ws) for r in e["reasons"]}
    assert {"flagged", "edits differ"} <= reasons


def test_decision_on_a_changed_item_goes_to_adjudication(two_packages):
    ws, karim, _shuvo = two_packages
    pkg = ReviewPackage(karim)
    target = next(i for i in pkg.items() if i["dialect"] == "chittagong")
    vid = ws.scalar("SELECT target_id FROM annotation_items WHERE id = ?", (target["item_id"],))
    set_variant_text(ws, vid, "বদলানো লেখা", actor="Lead")  # changed while Karim was away
    result = import_package(ws, karim)
    assert result["stale"] == 1
    entry = next(e for e in queue(ws) if e["item_id"] == target["item_id"])
    assert "item changed after the decision" in entry["reasons"]


def _copy(src, dst):
    shutil.copy(src, dst)
    return dst


def test_refusals_leave_the_workspace_unchanged(two_packages, tmp_path):
    ws, karim, _shuvo = two_packages
    before = snapshot(ws)

    tampered = _copy(karim, tmp_path / "tampered.upkg")
    with sqlite3.connect(tampered) as conn:
        conn.execute("UPDATE decisions SET text = 'অন্য লেখা' WHERE text IS NOT NULL")
    truncated = tmp_path / "truncated.upkg"
    data = open(karim, "rb").read()
    truncated.write_bytes(data[: len(data) // 2])
    half = _copy(karim, tmp_path / "half.upkg")
    with sqlite3.connect(half) as conn:
        conn.execute("DELETE FROM manifest WHERE key = 'complete'")
    resealed = _copy(karim, tmp_path / "resealed.upkg")
    with sqlite3.connect(resealed) as conn:  # a row edited along with its checksum
        conn.execute("DELETE FROM decisions WHERE rowid = (SELECT min(rowid) FROM decisions)")
    text_file = tmp_path / "notes.upkg"
    text_file.write_text("hello", encoding="utf-8")

    cases = {
        tampered: "fails its checksum",
        truncated: "damaged or truncated",
        half: "half-written",
        resealed: "seal does not match",
        text_file: "damaged or truncated|not an Upabhasha review package",
    }
    for path, why in cases.items():
        with pytest.raises(UserError, match=why) as info:
            import_package(ws, path)
        message = str(info.value)
        assert "\n" not in message and str(path) in message and "unchanged" in message
    assert snapshot(ws) == before


def test_foreign_package_refused(two_packages, tmp_path):
    ws, karim, _shuvo = two_packages
    with Workspace(tmp_path / "elsewhere.sqlite") as foreign:
        before = snapshot(foreign)
        with pytest.raises(UserError, match="another workspace"):
            import_package(foreign, karim)
        assert snapshot(foreign) == before


def test_crash_during_merge_leaves_nothing(two_packages, monkeypatch):
    ws, karim, _shuvo = two_packages
    before = snapshot(ws)
    from engine.annotation import packages

    def boom(*_a, **_k):
        raise OSError("disk full")

    monkeypatch.setattr(packages, "current_hashes", lambda ws, ids, **_k: {i: "x" for i in ids})
    real_insert = packages.insert_decisions

    def half_then_crash(conn, rows, source):
        real_insert(conn, rows[: len(rows) // 2], source)
        boom()

    monkeypatch.setattr(packages, "insert_decisions", half_then_crash)
    with pytest.raises(OSError):
        import_package(ws, karim)
    assert snapshot(ws) == before
