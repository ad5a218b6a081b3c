"""One request, two front ends: ``upabhasha run-task`` and the Tasks panel (typed and
clicked as a user does) build the same :class:`RunTaskRequest` and, on two copies of one
workspace, store the same rows and give the same summaries and statistics."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from app.cli import build_parser, main
from engine.workspace.store import Workspace
from tests.cli.batch_tools import copy_workspace, stored_rows
from tests.engine.understanding.conftest import insert_pairs
from tests.fault_server import LocalServer, completion, read_body, send_json
from tests.widgets.keyboard import retype, type_text
from widgets.understanding.tasks_panel import TasksPanel

STORED = ("responses", "task_run_items")
# what a summary or a run card says about time, not about the rows
TIMING = {"estimate", "actual", "plan_timing"}


class ItemServer(LocalServer):
    """An endpoint whose answer depends only on what it is asked (so two runs of the same
    requests store the same texts, whatever order they are sent in)."""

    def respond(self, handler) -> None:
        body = json.loads(read_body(handler))
        asked = json.dumps(body.get("messages") or body.get("prompt"), ensure_ascii=False)
        tag = hashlib.sha256(asked.encode()).hexdigest()[:6]
        send_json(handler, 200, completion(json.dumps({"standard": f"আমি {tag}"})))


@pytest.fixture
def two_copies(tmp_path):
    server = ItemServer()
    original = tmp_path / "original.sqlite"
    with Workspace(original) as ws:
        insert_pairs(ws)
    assert main(["-w", str(original), "models", "add", server.url, "--api-model", "m",
                 "--name", "echo", "--default"]) == 0  # fmt: skip
    cli, gui = tmp_path / "cli.sqlite", tmp_path / "gui.sqlite"
    copy_workspace(original, cli)
    copy_workspace(original, gui)
    yield cli, gui
    server.stop()


def _choose(qtbot, combo, data) -> None:
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Home)
    for _press in range(combo.count()):
        if combo.currentData() == data:
            return
        qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert combo.currentData() == data


def _click(qtbot, box) -> None:
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)


def _type(qtbot, box, text: str) -> None:
    target = box.lineEdit() if hasattr(box, "lineEdit") else box
    qtbot.mouseClick(target, Qt.MouseButton.LeftButton)
    if hasattr(box, "lineEdit"):
        retype(box, text)
    else:
        type_text(box, text)


CASES = {
    # regimes, scripts, scheme, k, seed, limit and one dialect, all away from their defaults
    "grid": (
        ["--regimes", "zero,few", "--scripts", "native,roman", "--scheme", "itrans", "--k", "1",
         "--seed", "3", "--limit", "1", "--dialects", "sylhet"],
        lambda qtbot, p: (
            _click(qtbot, p.regimes["few"]),
            _click(qtbot, p.scripts["roman"]),
            _choose(qtbot, p.scheme, "itrans"),
            _type(qtbot, p.k, "1"),
            _type(qtbot, p.seed, "3"),
            _type(qtbot, p.limit, "1"),
            _type(qtbot, p.dialects, "sylhet"),
        ),
    ),
    # a k-sweep: one request of two plans (zero-shot, then 2 demonstrations per dialect)
    "k-sweep": (
        ["--k-sweep", "0,2", "--limit", "2"],
        lambda qtbot, p: (_type(qtbot, p.k_sweep, "0,2"), _type(qtbot, p.limit, "2")),
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_the_cli_and_the_panel_run_the_same_request(qtbot, sync_bridge, two_copies, capsys, case):
    cli, gui = two_copies
    argv, fill = CASES[case]
    # the panel names the models it ticks (the default one, ticked when it opens)
    argv = ["run-task", "dialect-to-standard", "--models", "echo", *argv]

    args = build_parser().parse_args(argv)
    cli_request = args.build_request(args)
    capsys.readouterr()
    assert main(["-w", str(cli), *argv, "--json"]) == 0
    cli_summaries = json.loads(capsys.readouterr().out)["runs"]

    with Workspace(gui, create=False) as ws:
        panel = TasksPanel(ws, sync_bridge)
        qtbot.addWidget(panel)
        panel.show()
        fill(qtbot, panel)
        assert panel.job_request() == cli_request
        assert panel.job_request().digest() == cli_request.digest()
        with qtbot.waitSignal(panel.sig_run_finished, timeout=60_000) as finished:
            _click(qtbot, panel.run_button)
        gui_summaries = finished.args[0]
        qtbot.waitUntil(lambda: panel.run_button.isEnabled())
        panel.watcher.close()  # before its workspace closes
    assert not sync_bridge.errors

    assert _plain(gui_summaries) == _plain(cli_summaries)
    assert len(cli_summaries) == (4 if case == "grid" else 2)
    assert all(s["complete"] and s["done_now"] == s["items"] > 0 for s in cli_summaries)
    assert stored_rows(gui, STORED) == stored_rows(cli, STORED)
    assert _runs(gui) == _runs(cli)
    stats = []
    for path in (cli, gui):
        assert main(["-w", str(path), "task-stats", "--json"]) == 0
        stats.append(json.loads(capsys.readouterr().out))
    assert stats[0] == stats[1] and len(stats[0]["runs"]) == len(cli_summaries)


def _plain(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in row.items() if k not in TIMING} for row in rows]


def _runs(path: Path) -> list[dict]:
    """Each run: its kind, key, model, status and card (the card's timings left out)."""
    with Workspace(path, create=False) as ws:
        rows = ws.query("SELECT kind, run_key, model_id, status, card FROM runs ORDER BY id")
    for row in rows:
        row["card"] = _plain([json.loads(row["card"])])[0]
    return rows


def test_the_panel_starts_at_the_requests_defaults(qtbot, sync_bridge, workspace):
    from engine.understanding.api import RunTaskRequest

    insert_pairs(workspace)
    panel = TasksPanel(workspace, sync_bridge)
    qtbot.addWidget(panel)
    assert panel.job_request() == "Choose at least one model."  # none in this workspace
    panel.models.addItem("m")  # as refresh_options lists a model, ticked
    panel.models.item(0).setFlags(panel.models.item(0).flags() | Qt.ItemFlag.ItemIsUserCheckable)
    panel.models.item(0).setCheckState(Qt.CheckState.Checked)
    # every field at the request's default, but the desktop's small first run
    assert panel.job_request() == RunTaskRequest(models=("m",), limit=5)


def test_a_bad_k_sweep_is_said_in_the_panels_words(qtbot, sync_bridge, two_copies):
    _cli, gui = two_copies
    with Workspace(gui, create=False) as ws:
        panel = TasksPanel(ws, sync_bridge)
        qtbot.addWidget(panel)
        panel.show()
        _type(qtbot, panel.k_sweep, "0,x")
        before = len(sync_bridge.tasks())
        _click(qtbot, panel.run_button)
        note = panel.progress_note.text()
        assert note == "“k sweep”: a whole number is needed, not 'x'"
        assert len(sync_bridge.tasks()) == before and panel.run_button.isEnabled()
        assert ws.scalar("SELECT count(*) FROM runs") == 0
        panel.watcher.close()
