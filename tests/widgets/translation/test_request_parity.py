"""One request per step: ``translate`` and ``eval-translation`` run from the CLI and from the
desktop (typed and clicked: the translate dialog, the metrics panel's held-out tab) on two
copies of one workspace build the same request, store the same rows and give the same
summary. The model and the judge are an OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from app.cli import build_parser, main
from engine.workspace.store import Workspace
from tests.cli.batch_tools import VOLATILE, copy_workspace
from tests.cli.test_cli_secrets import EchoServer
from tests.engine.rag.test_rag_retrieval import SMALL, _insert
from tests.engine.translation.test_translate import _questions
from widgets.translation.metrics_panel import MetricsPanel
from widgets.translation.translate_dialog import TranslateDialog

VERDICT = {"reasoning": "অর্থ ঠিক আছে", "inaccurate_words": 1, "score": 8}
# migrations and the import stamp their rows alike in both copies; these say when a row was
# written by the step
WRITTEN_AT = VOLATILE | {"at", "checked_at"}


@pytest.fixture
def server():
    s = EchoServer()
    s.reject = False
    yield s
    s.stop()


@pytest.fixture
def twins(tmp_path, server, capsys):
    """Two copies of one workspace (corpus pairs, one held out; questions; models 'echo', the
    default, and 'judge', both the server answering one request at a time)."""
    path = tmp_path / "ws.sqlite"
    with Workspace(path) as ws:
        _insert(ws, SMALL)
        _questions(ws)
    add = ["models", "add", server.url, "--api-model", "echo", "--concurrency", "1"]
    for argv in ([*add, "--name", "echo", "--default"], [*add, "--name", "judge"]):
        assert main(["-w", str(path), *argv]) == 0
    capsys.readouterr()
    cli, gui = tmp_path / "cli.sqlite", tmp_path / "gui.sqlite"
    copy_workspace(path, cli)
    copy_workspace(path, gui)
    return cli, gui


def _timeless(value):
    """A run card (or an endpoint's saved settings) without its measured durations and the
    time its structured output was probed."""
    if isinstance(value, dict):
        return {k: _timeless(v) for k, v in value.items() if k not in ("seconds", "at")}
    return value


def _rows(path: Path) -> dict[str, list[tuple]]:
    """Every table's rows, less the columns (and card figures) that say when or how fast
    they were written."""
    out = {}
    with sqlite3.connect(path) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for table in sorted(tables):
            cols = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
            keep = [c for c in cols if c not in WRITTEN_AT]
            rows = conn.execute(f"SELECT {', '.join(keep)} FROM {table}").fetchall()
            for column in ("card", "load_params"):
                if column not in keep:
                    continue
                at = keep.index(column)
                rows = [
                    (
                        *r[:at],
                        json.dumps(_timeless(json.loads(r[at])), sort_keys=True)
                        if r[at]
                        else r[at],
                        *r[at + 1 :],
                    )
                    for r in rows
                ]
            out[table] = sorted(rows, key=repr)
    conn.close()
    return out


def _cli(capsys, path: Path, argv: list[str]) -> dict:
    capsys.readouterr()
    assert main(["-w", str(path), *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _request(argv: list[str]):
    args = build_parser().parse_args(argv)
    return args.build_request(args)


def _tick(qtbot, listing, data) -> None:
    row = next(i for i in range(listing.count()) if listing.item(i).data(256) == data)
    rect = listing.visualItemRect(listing.item(row))
    qtbot.mouseClick(listing.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    QTest.keyClick(listing, Qt.Key.Key_Space)


def _type_number(qtbot, box, text: str) -> None:
    qtbot.mouseClick(box.lineEdit(), Qt.MouseButton.LeftButton)
    QTest.keyClick(box, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(box, text)
    QTest.keyClick(box, Qt.Key.Key_Return)


def _differences(cli: Path, gui: Path) -> dict:
    a, b = _rows(cli), _rows(gui)
    return {t: (set(a[t]) ^ set(b[t])) for t in a if set(a[t]) != set(b[t])}


def test_translate_from_the_cli_and_the_dialog_is_one_request(
    qtbot, twins, server, capsys, sync_bridge
):
    cli, gui = twins
    server.answer = "আঁই কাইল বাজারত যাইয়ুম"
    argv = ["translate", "--questions", "demo", "--dialects", "chittagong", "--model", "echo"]
    argv += ["--limit", "2"]
    summary = _cli(capsys, cli, argv)
    assert summary["written"] == 2 and summary["complete"]

    ws = Workspace(gui, create=False)
    dialog = TranslateDialog(ws, sync_bridge)
    qtbot.addWidget(dialog)
    dialog.show()
    _tick(qtbot, dialog.dialects, "chittagong")
    _type_number(qtbot, dialog.limit, "2")
    assert dialog.job_request() == _request(argv)
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.last_summary is not None, timeout=60_000)
    assert not sync_bridge.errors
    assert dialog.last_summary == summary
    ws.close()
    assert _differences(cli, gui) == {}


def test_eval_translation_from_the_cli_and_the_metrics_panel_is_one_request(
    qtbot, twins, server, capsys, sync_bridge
):
    cli, gui = twins
    server.answer = json.dumps(VERDICT, ensure_ascii=False)  # the translation and the verdict
    argv = ["eval-translation", "--dialects", "chittagong", "--model", "echo", "--judge"]
    argv += ["judge", "--limit", "1", "--seed", "3"]
    report = _cli(capsys, cli, argv)
    assert report["translated"] == 1 and report["judge_missing"] == 0
    assert report["per_dialect"]["chittagong"]["judge"]["mean"] == 7  # one error: at most 7

    ws = Workspace(gui, create=False)
    panel = MetricsPanel(ws, sync_bridge)
    qtbot.addWidget(panel)
    panel.resize(1100, 760)
    panel.show()
    bar = panel.tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    box = panel.heldout
    assert panel.tabs.currentWidget() is box
    _tick(qtbot, box.dialects, "chittagong")
    box.judge.setFocus()
    QTest.keyClicks(box.judge, "judge")
    _type_number(qtbot, box.limit, "1")
    _type_number(qtbot, box.seed, "3")
    assert box.job_request() == _request(argv)
    qtbot.mouseClick(box.evaluate_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: box.last_result is not None, timeout=60_000)
    assert not sync_bridge.errors
    shown = json.loads(json.dumps(box.last_result.as_dict(), ensure_ascii=False))
    for one in (shown, report):  # each copy's index sits beside its own workspace
        assert Path(one["index"].pop("folder")).name == "all__test+train"
    assert shown == report
    cells = [box.scores.item(0, c).text() for c in range(box.scores.columnCount())]
    assert cells[:3] == ["chittagong", "system", "1"] and cells[-1].startswith("7.00")
    ws.close()
    assert _differences(cli, gui) == {}
