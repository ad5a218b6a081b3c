"""The validity panel: a click on Run checks the chosen judge run through the bridge and
shows the stored card (the figures the stage's one card query returns, in words and colour);
Cancel stops the suite and Run resumes it; the Study menu opens the panel."""

from __future__ import annotations

import json
import shutil
import threading

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from engine.judging.run import judge_answers
from engine.llm.endpoints.batch_backends import serving
from engine.validity.api import FAIL, PASS, validity_cards
from tests.engine.judging.study_fixture import build_study
from tests.engine.judging.test_judging_run import VALID, ScriptedBackend, judge_model
from tests.widgets.menus import menu_action
from widgets.validity.card_table import RESULT_COLUMN, STATUS_COLOURS
from widgets.validity.validity_panel import ValidityPanel

# a verdict of 1 on every criterion: lower than VALID's
LOW = json.dumps(
    {
        "chain_of_thought_reasoning": "ভুল",
        "comprehension": 1,
        "correctness": 1,
        "completeness": 1,
        "clarity": 1,
        "length": 1,
        "confidence": 4,
    },
    ensure_ascii=False,
)


def planted(request, _n: int) -> str:
    """A judge that scores a wrong or empty answer lower (it discriminates) and whose verdict
    moves whenever the answers' order is swapped (every verdict flips)."""
    check = request.key.split(":")[0]
    return LOW if check in ("order", "other_answer", "emptied") else VALID


def scripted_judge(reply=planted):
    return serving(lambda _ws, _run, _row: ScriptedBackend(reply))


@pytest.fixture
def judged(workspace):
    """The judging fixture's study, judged by a judge run of its own."""
    build_study(workspace)
    judge_answers(
        workspace,
        judge_model(workspace),
        backend_factory=lambda _ws, _run: ScriptedBackend(lambda _r, _n: VALID),
    )
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
    type_number(qtbot, panel.per_dialect, "2")
    assert panel.per_dialect.value() == 2
    # the scope is planned before anything runs: 2 items of each of the study's 2 dialects
    qtbot.waitUntil(lambda: "4 items" in panel.scope.text(), timeout=30_000)
    assert "not decoded yet" in panel.scope.text()
    assert validity_cards(judged) == []

    with scripted_judge():
        qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: panel.card.table.rowCount() > 0, timeout=60_000)
    assert not threaded_bridge.errors
    [card] = validity_cards(judged)  # the stage's one query of the stored cards
    assert card.judge_run_id == judge_run and card.per_dialect == 2
    assert panel.card.cards == [card]

    expected = []
    for dialect in card.dialects:
        for pooled, figures in ((True, dialect.families), (False, dialect.checks)):
            for f in figures:
                expected.append((f, pooled))
    rows = table_rows(panel)
    assert len(rows) == len(expected)
    for row, (f, pooled) in zip(rows, expected):
        assert row[0] == card.judge_model
        assert row[3] == rate(f.rate)
        assert row[4] == str(f.n)
        if pooled:
            bound = "≤ " if f.family == "position" else "≥ "
            assert row[5] == bound + pct(f.band)
            assert row[6] == f.status
    statuses = {(d.dialect, f.family): f.status for d in card.dialects for f in d.families}
    # the planted judge: every order swap flips its verdict, every wrong answer scores lower
    assert {s for (_d, fam), s in statuses.items() if fam == "position"} == {FAIL}
    assert {s for (_d, fam), s in statuses.items() if fam == "sensitivity"} == {PASS}
    table = panel.card.table
    for r, row in enumerate(rows):
        if row[6] in (PASS, FAIL):
            colour = table.item(r, RESULT_COLUMN).foreground().color().name()
            assert colour == STATUS_COLOURS[row[6]]
    position = next(f for f in card.dialects[0].families if f.family == "position")
    assert position.rate.value == 1.0
    sentences = panel.card.sentences.text()
    assert "Order flips this judge's" in sentences and "100 %" in sentences
    # the judge run's row says its newest card is outside a band; the scope has nothing left
    assert panel.judges.item(0, 4).text() == "outside a band"
    qtbot.waitUntil(lambda: "0 not decoded yet" in panel.scope.text(), timeout=30_000)


class StopsWhenCancelled(ScriptedBackend):
    """The scripted judge, stopping between replies once the job is cancelled."""

    def generate(self, requests, *, progress=None, cancelled=None):
        for result in super().generate(requests):
            if cancelled and cancelled():
                return
            yield result


def test_cancel_stops_the_suite_and_run_resumes_it(qtbot, judged, threaded_bridge):
    panel = open_panel(qtbot, judged, threaded_bridge)
    type_number(qtbot, panel.per_dialect, "2")
    messages: list[str] = []
    panel.sig_status_message.connect(messages.append)
    replies: list[int] = []
    cancel_clicked = threading.Event()

    def reply(request, n):
        replies.append(n)
        if len(replies) == 2:  # the second reply waits until Cancel was clicked
            assert cancel_clicked.wait(60)
        return planted(request, n)

    with serving(lambda _ws, _run, _row: StopsWhenCancelled(reply)):
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
    assert 0 < decoded

    with scripted_judge():  # Run again: the same probe run, to the end
        qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: panel.card.table.rowCount() > 0, timeout=60_000)
    assert judged.scalar("SELECT count(*) FROM runs WHERE kind = 'judge_validity'") == 1
    assert len(validity_cards(judged)) == 1
    assert messages[-1].startswith("Judge run ") and not threaded_bridge.errors


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
