"""Every panel follows writes made elsewhere: each watcher topic is written from a SECOND
PROCESS (the CLI, or the engine's writer run by ``python -c``) while the panel is open, and
the panel shows it within a tick — no Refresh, no reopening the workspace."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from app.main_window import MainWindow
from app.settings import Settings
from engine.annotation.sources import PackageQueue, WorkspaceQueue
from engine.bias.api import build_bias_sample
from engine.workspace.store import Workspace
from tests.conftest import REPO
from tests.widgets.annotation.test_annotation_panels import field  # noqa: F401 (fixture)
from tests.widgets.task_fixtures import task_ws  # noqa: F401 (fixture)
from widgets.bias.bias_panel import BiasPanel
from widgets.common.workspace_watcher import WorkspaceWatcher
from widgets.understanding.tasks_panel import TasksPanel

WAIT_MS = 8000  # a loaded shared machine; the watcher ticks every 50 ms here


def second_process(*args: str) -> str:
    """Run ``args`` in another Python process from the repository root; its stdout."""
    done = subprocess.run(
        [sys.executable, *args], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def cli(workspace, *args: str) -> str:
    return second_process("-m", "app.cli", "-w", str(workspace), *args)


def engine_writer(code: str) -> str:
    return second_process("-c", textwrap.dedent(code))


@pytest.fixture
def lab(field):
    """The annotation tests' field workspace: Shuvo has decided in the workspace, Karim in
    his package (not merged yet)."""
    path, karim, _shuvo = field
    with Workspace(path) as ws:
        source = WorkspaceQueue(ws)
        for item in source.queue("Shuvo"):
            source.record(item["item_id"], "Shuvo", "accept", score=4)
    package = PackageQueue(karim)
    for item in package.queue("Karim"):
        package.record(item["item_id"], "Karim", "edit", text="কারিমের রূপ", score=2)
    return path, karim


@pytest.fixture
def window(qtbot, sync_bridge, lab, monkeypatch):
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: None)
    win = MainWindow(Settings(reviewer_name="Lead"), bridge=sync_bridge, save=lambda s: None)
    qtbot.addWidget(win)
    win.show()
    assert win.open_workspace(lab[0])
    win.watcher._timer.setInterval(50)
    return win


def test_models_from_the_cli_reach_models_tasks_and_bias(qtbot, window, lab):
    models, tasks, bias = (window.panels[n] for n in ("models", "tasks", "bias"))
    window.show_panel("tasks")
    cli(lab[0], "models", "add", "http://127.0.0.1:9/v1", "--api-model", "m", "--name", "cli-m")

    def names(widget):
        return [widget.item(i).text() for i in range(widget.count())]

    qtbot.waitUntil(lambda: "cli-m" in names(tasks.models), timeout=WAIT_MS)
    window.show_panel("bias")  # hidden meanwhile: it catches up when shown
    qtbot.waitUntil(lambda: bias.model.findText("cli-m") >= 0, timeout=WAIT_MS)
    window.show_panel("models")
    qtbot.waitUntil(lambda: "cli-m" in [r["name"] for r in models.model.rows], timeout=WAIT_MS)


def test_a_model_added_in_the_models_panel_is_chosen_in_tasks(qtbot, window):
    tasks = window.panels["tasks"]
    window.show_panel("models")
    window.panels["models"].add_endpoint("panel-m", ["http://127.0.0.1:9/v1"], "m")
    window.show_panel("tasks")
    qtbot.waitUntil(
        lambda: any(tasks.models.item(i).text() == "panel-m" for i in range(tasks.models.count())),
        timeout=WAIT_MS,
    )


def test_annotators_and_assignments_from_the_cli_reach_annotation(qtbot, window, lab):
    annotation = window.panels["annotation"]
    window.show_panel("annotation")
    cli(lab[0], "annotators", "add", "Rina", "--dialects", "sylhet")
    qtbot.waitUntil(lambda: annotation.annotator.findText("Rina") >= 0, timeout=WAIT_MS)
    annotation.annotator.setCurrentText("Rina")
    assert annotation.items == []
    cli(lab[0], "assign", "--name", "second", "--kind", "variant", "--annotators", "Rina",
        "--dialects", "sylhet", "--seed", "3")  # fmt: skip
    qtbot.waitUntil(lambda: len(annotation.items) > 0, timeout=WAIT_MS)
    assert annotation.list.count() == len(annotation.items)


def test_a_package_merged_by_the_cli_marks_agreement_stale_and_fills_adjudication(
    qtbot, window, lab
):
    agreement, adjudication = window.panels["agreement"], window.panels["adjudication"]
    window.show_panel("agreement")
    agreement.compute()
    assert agreement.report is not None and "Out of date" not in agreement.status.text()
    window.show_panel("adjudication")
    assert adjudication.list.count() == 0  # only Shuvo has decided
    cli(lab[0], "package", "import", str(lab[1]))
    qtbot.waitUntil(lambda: adjudication.list.count() > 0, timeout=WAIT_MS)
    before = agreement.report
    window.show_panel("agreement")  # opened again: current figures, without pressing Compute
    qtbot.waitUntil(lambda: agreement.report is not before, timeout=WAIT_MS)
    assert not agreement._stale() and "Out of date" not in agreement.status.text()
    # shown while what it reads changes (a new assignment): it says so and waits for Compute
    cli(lab[0], "annotators", "add", "Rina", "--dialects", "sylhet")
    cli(lab[0], "assign", "--name", "second", "--kind", "variant", "--annotators", "Rina",
        "--dialects", "sylhet", "--seed", "3")  # fmt: skip
    qtbot.waitUntil(lambda: "Out of date" in agreement.status.text(), timeout=WAIT_MS)


def test_adjudication_by_the_cli_refreshes_the_review_grid(qtbot, window, lab):
    cli(lab[0], "package", "import", str(lab[1]))
    review = window.panels["review"]
    window.show_panel("review")
    with Workspace(lab[0], create=False) as ws:
        item, variant = ws.query(
            "SELECT id, target_id FROM annotation_items WHERE kind = 'variant' LIMIT 1"
        )[0].values()
    assert review.select_variant(variant)
    review.detail.editor.setPlainText("টাইপ করা, সংরক্ষিত নয়")  # an unsaved edit elsewhere
    cli(lab[0], "adjudicate", str(item), "--decision", "edit", "--text", "গোল্ড রূপ",
        "--adjudicator", "Lead")  # fmt: skip
    index = review.model.index_of_variant(variant)
    qtbot.waitUntil(
        lambda: "গোল্ড রূপ" in str(review.model.data(index, Qt.ItemDataRole.DisplayRole)),
        timeout=WAIT_MS,
    )
    assert review.current_variant == variant
    assert review.detail.editor.toPlainText() == "টাইপ করা, সংরক্ষিত নয়"  # kept


def test_a_task_run_started_elsewhere_reaches_tasks(qtbot, task_ws, sync_bridge):
    workspace = task_ws
    watcher = WorkspaceWatcher(workspace.path, interval_ms=50)
    panel = TasksPanel(workspace, sync_bridge, watcher=watcher)
    qtbot.addWidget(panel)
    panel.show()
    assert panel.results.rowCount() == 0
    engine_writer(f"""
        from engine.understanding.run import run_task
        from engine.understanding.task_spec import get_task
        from engine.workspace.store import Workspace
        from tests.scripted_backend import ScriptedBackend
        with Workspace({str(workspace.path)!r}, create=False) as ws:
            model = ws.query("SELECT * FROM models WHERE name = 'scripted'")
            run_task(ws, get_task("dialect-to-standard"), model, regimes=["zero"],
                     scripts=["native"], k=1,
                     backend_factory=lambda ws, run_id: ScriptedBackend(
                         lambda req: '{{"standard": "তুমি কোথায় যাচ্ছ"}}'))
    """)
    qtbot.waitUntil(lambda: panel.results.rowCount() == 1, timeout=WAIT_MS)
    watcher.close()


def test_a_probe_run_started_elsewhere_reaches_social_bias(qtbot, tmp_path, sync_bridge):
    path = build_bias_sample(tmp_path / "bias.sqlite")
    with Workspace(path, create=False) as ws:
        watcher = WorkspaceWatcher(ws.path, interval_ms=50)
        panel = BiasPanel(ws, sync_bridge, watcher=watcher)
        qtbot.addWidget(panel)
        panel.show()
        before = panel.runs.count()
        engine_writer(f"""
            from engine.bias.run import ProbeOptions, run_probes
            from engine.bias.sample import ScriptedReplies
            from engine.workspace.store import Workspace
            with Workspace({str(path)!r}, create=False) as ws:
                run_probes(ws, ws.query("SELECT * FROM models"), options=ProbeOptions(seed=5),
                           limit=4, backend_factory=lambda w, r: ScriptedReplies(w))
        """)
        qtbot.waitUntil(lambda: panel.runs.count() > before, timeout=WAIT_MS)
        watcher.close()
