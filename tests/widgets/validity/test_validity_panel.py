"""The validity panel: a click on Run checks the chosen judge run through the bridge and
shows the stored card (the figures the stage's one card query returns, in words and colour);
Cancel stops the suite and Run resumes it; the Study menu opens the panel."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from engine.llm.endpoints.batch_backends import serving
from engine.validity.api import FAIL, PASS, validity_cards
from tests.engine.validity import planted
from tests.widgets.menus import menu_action
from widgets.validity.card_table import RESULT_COLUMN, STATUS_COLOURS, UNMEASURED_COLOUR
from widgets.validity.validity_panel import ValidityPanel

QUESTIONS = 24


def scripted_judge(reply):
    """Every run's backend the planted judge (the product's hook for a backend of its own)."""
    return serving(lambda _ws, _run, _row: planted.ScriptedBackend(reply))


@pytest.fixture
def judged(workspace):
    """The planted study (tests/engine/validity/planted.py), judged by its planted judge
    that prefers the answer shown first."""
    planted.build(workspace, QUESTIONS)
    planted.judge_run(workspace, planted.first_preferring)
    return workspace


def type_number(qtbot, box, text: str) -> None:
    box.setFocus()
    QTest.keyClick(box, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(box, text)
    QTest.keyClick(box, Qt.Key.Key_Return)


def table_rows(panel) -> list[list[str]]:
    table = panel.card.table
    return [
        [table.item(r, c).text() for c in range(table.columnCount())]
        for r in range(table.rowCount())
    ]


def coefficient(est) -> str:
    def two(x):
        return f"{x:.2f}".replace("-0.00", "0.00")

    if est.value is None:
        return "—"
    ci = "" if est.low is None else f" [{two(est.low)}, {two(est.high)}]"
    return f"{two(est.value)}{ci}"


def pct(value) -> str:
    return "—" if value is None else f"{100 * value:.0f} %"


def rate(interval) -> str:
    if interval.value is None:
        return "—"
    if interval.low is None:
        return pct(interval.value)
    return f"{pct(interval.value)} [{pct(interval.low)}, {pct(interval.high)}]"


def open_panel(qtbot, ws, bridge) -> ValidityPanel:
    panel = ValidityPanel(ws, bridge)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitUntil(
        lambda: panel.run_button.isEnabled() and panel.judge_run() is not None, timeout=30_000
    )
    return panel


def test_run_stores_the_card_and_the_table_shows_the_card_query(qtbot, judged, threaded_bridge):
    panel = open_panel(qtbot, judged, threaded_bridge)
    judge_run = judged.scalar("SELECT id FROM runs WHERE kind = 'judge'")
    assert panel.judge_run() == judge_run  # the primary judge, chosen for the user
    type_number(qtbot, panel.per_dialect, "12")
    assert panel.per_dialect.value() == 12
    # the scope is planned before anything runs: 12 items of each of the study's 2 dialects
    qtbot.waitUntil(lambda: "24 items" in panel.scope.text(), timeout=30_000)
    assert "not decoded yet" in panel.scope.text()
    assert validity_cards(judged) == []

    with scripted_judge(planted.first_preferring):
        qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: panel.card.table.rowCount() > 0, timeout=60_000)
    assert not threaded_bridge.errors
    [card] = validity_cards(judged)  # the stage's one query of the stored cards
    assert card.judge_run_id == judge_run and card.per_dialect == 12
    assert panel.card.cards == [card]

    expected = [
        (f, pooled)
        for dialect in card.dialects
        for pooled, figures in ((True, dialect.families), (False, dialect.checks))
        for f in figures
    ]
    rows = table_rows(panel)
    assert len(rows) == len(expected)
    names = {d.dialect: d.name for d in card.dialects}
    shown = set()
    noted = False
    for r, (row, (f, pooled)) in enumerate(zip(rows, expected)):
        assert row[0] == card.judge_model
        assert row[3] == rate(f.rate) and row[4] == str(f.n)
        assert row[10] == ("—" if f.mean_shift.value is None else f"{f.mean_shift.value:+.2f}")
        if f.family != "sensitivity":
            assert row[7] == pct(f.exact)
            assert row[8] == coefficient(f.kappa) and row[9] == coefficient(f.alpha)
        note = panel.card.table.item(r, 4).toolTip()
        assert ("same prompt" in note) == bool(f.same_prompt)
        if f.same_prompt:
            assert note.startswith(f"{f.same_prompt} items reached the judge")
            noted = True
        if pooled:
            bound = "≤ " if f.family == "position" else "≥ "
            assert row[5] == bound + pct(f.band) and row[6] == f.status
            colour = panel.card.table.item(r, RESULT_COLUMN).foreground().color().name()
            assert colour == STATUS_COLOURS.get(f.status, UNMEASURED_COLOUR)
            shown.add(f.status)
    assert row[1] in names.values()
    # the planted judge prefers the first answer: order flips some of its verdicts, and it
    # scores a wrong or empty answer lower
    for dialect in card.dialects:
        position = dialect.family("position")
        assert position is not None and position.rate.value and position.rate.value > 0
        assert dialect.family("sensitivity").status == PASS
    assert {PASS, FAIL} & shown
    assert noted  # a change the prompt's normalisation undid is said so, not hidden in n
    assert any(row[8] not in ("—", "") for row in rows)  # weighted κ measured somewhere
    sentences = panel.card.sentences.text()
    assert sentences.count("•") == len(card.dialects)
    assert all(names[d.dialect] in sentences for d in card.dialects)
    # the judge run's row says whether its newest card passed; the scope has nothing left
    verdict = "within its bands" if card.passed else "outside a band"
    assert panel.judges.item(0, 4).text() == verdict
    qtbot.waitUntil(lambda: "0 not decoded yet" in panel.scope.text(), timeout=30_000)


def test_cancel_stops_the_suite_and_run_resumes_it(qtbot, judged, threaded_bridge):
    panel = open_panel(qtbot, judged, threaded_bridge)
    type_number(qtbot, panel.per_dialect, "3")
    qtbot.waitUntil(lambda: "6 items" in panel.scope.text(), timeout=30_000)
    probes = int(panel.scope.text().split("·")[1].split()[0])
    messages: list[str] = []
    panel.sig_status_message.connect(messages.append)
    replies: list[str] = []
    cancel_clicked = threading.Event()

    def reply(request):
        replies.append(request.key)
        if len(replies) == 2:  # the second reply waits until Cancel was clicked
            assert cancel_clicked.wait(60)
        return planted.first_preferring(request)

    with scripted_judge(reply):  # the scripted backend stops once the job is cancelled
        qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
        task = panel.job.task
        assert task is not None and panel.job.isVisible() and not panel.run_button.isEnabled()
        qtbot.waitUntil(lambda: len(replies) == 2, timeout=60_000)
        qtbot.mouseClick(panel.job.cancel_button, Qt.MouseButton.LeftButton)
        cancel_clicked.set()
        qtbot.waitUntil(lambda: bool(messages) and not task.running, timeout=60_000)
    assert "cancelled" in messages[-1] and "resume" in messages[-1]
    assert panel.run_button.isEnabled() and not panel.job.isVisible()
    assert validity_cards(judged) == [] and panel.card.table.rowCount() == 0
    decoded = judged.scalar(
        "SELECT count(*) FROM responses r JOIN runs u ON u.id = r.run_id "
        "WHERE u.kind = 'judge_validity' AND r.status = 'done'"
    )
    assert 0 < decoded < len(replies) + 1
    assert panel.outcome.text() == messages[-1]
    left = f"{probes - decoded} not decoded yet"  # the scope, planned again
    qtbot.waitUntil(lambda: panel.scope.text().endswith(left), timeout=30_000)

    asked_again: list[str] = []

    def again(request):
        asked_again.append(request.key)
        return planted.first_preferring(request)

    with scripted_judge(again):  # Run again: the same probe run, only what is missing
        qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: panel.card.table.rowCount() > 0, timeout=60_000)
    assert judged.scalar("SELECT count(*) FROM runs WHERE kind = 'judge_validity'") == 1
    assert not set(asked_again) & set(replies[:decoded])
    assert len(validity_cards(judged)) == 1
    assert messages[-1].startswith("Judge run ") and not threaded_bridge.errors


def test_export_as_batch_files_writes_the_request_run_would_run(
    qtbot, judged, sync_bridge, tmp_path, monkeypatch
):
    panel = open_panel(qtbot, judged, sync_bridge)
    type_number(qtbot, panel.per_dialect, "2")
    qtbot.waitUntil(lambda: "4 items" in panel.scope.text(), timeout=30_000)
    out = tmp_path / "batch"
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(out))
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "information", lambda _p, _t, text: shown.append(text))
    with qtbot.waitSignal(panel.export_button.sig_exported, timeout=30_000) as exported:
        qtbot.mouseClick(panel.export_button, Qt.MouseButton.LeftButton)
    manifest = exported.args[0]
    assert manifest["step"] == "validity"
    assert manifest["request"] == panel.job_request().as_json()
    probes = int(panel.scope.text().split("·")[1].split()[0])
    assert manifest["items"] == probes
    lines = sum(len(Path(out, f["name"]).read_text().splitlines()) for f in manifest["files"])
    assert lines == probes and "requests in" in shown[-1]


def test_the_study_menu_opens_the_panel(qtbot, sync_bridge, sample_db, tmp_path):
    from app.main_window import MainWindow
    from app.settings import Settings

    path = tmp_path / "study.sqlite"
    shutil.copy(sample_db, path)
    window = MainWindow(Settings(reviewer_name="r"), bridge=sync_bridge, save=lambda _s: None)
    qtbot.addWidget(window)
    window.show()
    assert window.open_workspace(path)
    window.show_panel("review")
    menu_action(window, "Judge validity…").trigger()  # the Study menu's action
    panel = window.panels["validity"]
    assert window.tabs.currentWidget() is panel and panel.isVisible()
    assert isinstance(panel, ValidityPanel)
    assert not panel.run_button.isEnabled()  # no judge run in the sample workspace
    assert "judge" in panel.run_button.toolTip()
    window.close()


def test_a_card_stored_elsewhere_reaches_the_panel_through_the_watcher(qtbot, judged, sync_bridge):
    from engine.validity.api import ValidityRequest
    from engine.validity.tasks import run_validity_at
    from widgets.common.workspace_watcher import WorkspaceWatcher

    watcher = WorkspaceWatcher(judged.path, interval_ms=50)
    try:
        panel = ValidityPanel(judged, sync_bridge, watcher=watcher)
        qtbot.addWidget(panel)
        panel.show()
        qtbot.waitUntil(lambda: panel.judges.rowCount() == 1, timeout=30_000)
        assert panel.card.table.rowCount() == 0
        with scripted_judge(planted.order_blind):  # as `upabhasha validity` would, elsewhere
            run_validity_at(str(judged.path), ValidityRequest(per_dialect=2))
        qtbot.waitUntil(lambda: panel.card.table.rowCount() > 0, timeout=30_000)
        [card] = validity_cards(judged)
        assert panel.card.cards == [card] and card.passed
        assert panel.judges.item(0, 4).text() == "within its bands"
    finally:
        watcher.close()


def test_a_judge_run_with_a_saved_rubric_sends_that_rubric(qtbot, workspace, sync_bridge):
    """A judge run judged with an edited rubric: the panel finds the version the judge panel
    saved beside the workspace, so the suite asks with the judge run's own rubric."""
    from engine.judging.rubric import default_rubric_path, rubric_from_dict
    from engine.judging.run import judge_answers
    from engine.judging.tasks import save_rubric_version

    planted.build(workspace, 6)
    edited = json.loads(default_rubric_path().read_text(encoding="utf-8"))
    edited["name"] = "edited"
    edited["reasoning_max_chars"] = 120
    judge = workspace.query("SELECT * FROM models WHERE name = 'planted-judge'")[0]
    judge_answers(
        workspace,
        judge,
        rubric=rubric_from_dict(edited),
        backend_factory=lambda _ws, _run: planted.ScriptedBackend(planted.order_blind),
    )
    panel = open_panel(qtbot, workspace, sync_bridge)
    qtbot.waitUntil(lambda: "give that rubric" in panel.scope.text(), timeout=30_000)
    save_rubric_version(edited, workspace.path.with_name("rubrics"))
    panel.refresh()
    qtbot.waitUntil(lambda: "not decoded yet" in panel.scope.text(), timeout=30_000)
    request = panel.job_request()
    assert request.rubric == edited and request.parsed_rubric.name == "edited"


def test_estimate_time_before_running_and_withdrawn_when_a_choice_changes(
    qtbot, judged, sync_bridge, monkeypatch
):
    backend = planted.ScriptedBackend(planted.first_preferring)
    # the calibration's model: the planted judge (its address answers nothing)
    monkeypatch.setattr(
        "engine.llm.runs.estimates.open_backend", lambda _model, **_schedule: backend
    )
    panel = open_panel(qtbot, judged, sync_bridge)
    type_number(qtbot, panel.per_dialect, "2")
    qtbot.mouseClick(panel.estimate.estimate_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(
        lambda: panel.estimate.label.text().startswith("planted-judge: "), timeout=30_000
    )
    assert "About " in panel.estimate.label.text() and panel.estimate.shown_seconds() is not None
    assert judged.scalar("SELECT count(*) FROM runs WHERE kind = 'judge_validity'") == 0
    type_number(qtbot, panel.seed, "7")  # another sample: the estimate is out of date
    assert "out of date" in panel.estimate.label.text()
