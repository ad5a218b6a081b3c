"""One change signal: the workspace watcher polls once per tick, emits the changed topics, and the
main window's panels and status bar follow it (no panel polls on a timer of its own)."""

from __future__ import annotations

import shutil

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QWidget

from app.main_window import MainWindow
from app.settings import Settings
from app.study_actions import StudyActions
from engine.judging import store
from engine.samples import study as sample_study
from engine.workspace.store import Workspace
from tests.widgets.study_fixtures import fast_watcher, study_db, study_ws  # noqa: F401 (fixtures)
from widgets.common.workspace_watcher import Change, WorkspaceWatcher, follow, on


def test_topics_name_what_another_connection_wrote(qtbot, study_ws, fast_watcher):
    topics, judgments, models = [], [], []
    fast_watcher.sig_changed.connect(topics.append)
    holder = QWidget()
    on(holder, lambda: judgments.append(1), fast_watcher, "judgments")
    on(holder, lambda: models.append(1), fast_watcher, "models")
    with Workspace(study_ws.path, create=False) as other:
        _run, rows = sample_study.add_answer_model(other, "synthetic model watched", seed=4)
    qtbot.waitUntil(lambda: bool(models), timeout=5000)
    assert {"models", "runs", "responses"} <= topics[-1] and not judgments
    sample_study.stream_judgments(
        str(study_ws.path), store.primary_judge(study_ws), rows, batch=1000, pause_s=0
    )
    qtbot.waitUntil(lambda: bool(judgments), timeout=5000)
    assert topics[-1] == {"judgments"}
    reads = fast_watcher.tracker.reads
    qtbot.wait(300)  # several ticks, nothing written: data_version only, no stamp query
    assert fast_watcher.tracker.reads == reads and fast_watcher.check_now() == frozenset()


def test_check_now_sees_this_connection_s_own_writes(study_ws, fast_watcher):
    fast_watcher.stop()
    judgment = study_ws.scalar("SELECT max(id) FROM judgments")
    from engine.judging.rubric import load_rubric

    store.add_override(
        study_ws, judgment, annotator="রহিম", reason="checked", rubric=load_rubric(), final=1.0
    )
    assert fast_watcher.check_now() == {"annotations"}
    fast_watcher.close()
    assert fast_watcher.check_now() == frozenset()  # closed: silent, no error


def test_the_window_has_one_watcher_and_no_polling_timers(qtbot, sync_bridge, study_db, tmp_path):
    path = tmp_path / "study.sqlite"
    shutil.copy(study_db, path)
    window = MainWindow(Settings(), bridge=sync_bridge, save=lambda s: None)
    qtbot.addWidget(window)
    window.show()
    assert window.open_workspace(path)
    watcher = window.watcher
    answers, charts = window.panels["answers"], window.panels["charts"]
    assert answers.watcher is watcher and charts.watcher is watcher
    watchers = window.findChildren(WorkspaceWatcher)
    assert watchers == [watcher]
    # the panels own no repeating timers: the watcher's is the only poll of the workspace
    for name in ("answers", "charts", "judge", "review", "models"):
        timers = [t for t in window.panels[name].findChildren(QTimer) if not t.isSingleShot()]
        assert not [t for t in timers if t.isActive()], name

    window.show_panel("answers")
    before = len(answers.model.ids)
    questions_text = window.counts_label.text()
    with Workspace(path, create=False) as other:  # another process adds questions and answers
        sample_study.add_synthetic_questions(other, 5, ["chittagong"])
        _run, rows = sample_study.add_answer_model(other, "synthetic model window", seed=7)
        primary = store.primary_judge(other)
    sample_study.stream_judgments(str(path), primary, rows, batch=500, pause_s=0)
    qtbot.waitUntil(lambda: window.counts_label.text() != questions_text, timeout=5000)
    qtbot.waitUntil(lambda: len(answers.model.ids) > before, timeout=5000)
    assert answers.model_filter.findText("synthetic model window") >= 0  # a new run: offered
    window.close_workspace()
    assert window.watcher is None and watcher.tracker is None


def test_study_actions_announce_results_without_the_window(qtbot, sync_bridge):
    parent = QWidget()
    qtbot.addWidget(parent)
    actions = StudyActions(parent, sync_bridge)
    got = []
    actions.sig_imported.connect(lambda report: got.append(("imported", report["name"])))
    actions.sig_generated.connect(lambda summary: got.append(("generated", summary["model"])))
    actions.sig_status_message.connect(lambda text, ms: got.append(("status", text)))
    assert actions.import_dialog("questions") is None  # no workspace: no dialog
    actions.after_import({"name": "set A", "inserted": 3})
    actions.after_generation({"model": "m"})
    assert got == [("imported", "set A"), ("status", "Imported set A: 3 new"), ("generated", "m")]


def test_the_view_menu_shows_jobs_once(qtbot, sync_bridge, study_db, tmp_path):
    path = tmp_path / "study.sqlite"
    shutil.copy(study_db, path)
    window = MainWindow(Settings(), bridge=sync_bridge, save=lambda s: None)
    qtbot.addWidget(window)
    assert window.open_workspace(path)
    texts = [a.text().replace("&", "").lower() for a in window.view_menu.actions()]
    assert texts.count("show jobs") == 1, texts
    index = window.tabs.indexOf(window.job_monitor)
    keys = [k.toString() for k in window.jobs_action.shortcuts()]
    assert keys == ["Ctrl+J", f"Ctrl+{index + 1}"]
    window.show_panel("review")
    window.jobs_action.trigger()
    assert window.tabs.currentWidget() is window.job_monitor


def test_follow_re_reads_a_hidden_panel_once_when_shown(qtbot, study_ws, fast_watcher):
    panel, reads = QWidget(), []
    qtbot.addWidget(panel)
    follow(panel, lambda: reads.append(1), fast_watcher, "models", "runs")
    seen: list[frozenset[str]] = []
    fast_watcher.sig_changed.connect(seen.append)
    with Workspace(study_ws.path, create=False) as other:
        sample_study.add_answer_model(other, "synthetic model followed", seed=5)  # both move
    qtbot.waitUntil(lambda: any({"models", "runs"} <= t for t in seen), timeout=5000)
    assert reads == []  # hidden: only noted
    panel.show()
    qtbot.waitUntil(lambda: reads == [1], timeout=5000)


def test_an_unknown_topic_is_refused(fast_watcher):
    with pytest.raises(ValueError, match="no such workspace topic"):
        follow(QWidget(), lambda: None, fast_watcher, "questoins")


def test_a_notice_names_its_writer_and_a_hidden_panel_gets_the_missed_ones_as_one(
    qtbot, study_ws, fast_watcher
):
    from engine.judging.rubric import load_rubric

    fast_watcher.stop()  # only the notices asked for
    panel, got = QWidget(), []
    qtbot.addWidget(panel)
    follow(panel, got.append, fast_watcher, "annotations", "models", notice=True)
    judgment = study_ws.scalar("SELECT max(id) FROM judgments")
    store.add_override(
        study_ws, judgment, annotator="রহিম", reason="checked", rubric=load_rubric(), final=1.0
    )
    first = fast_watcher.notify("answers", ids=[judgment])
    assert first == Change(frozenset({"annotations"}), frozenset({judgment}), "answers")
    assert fast_watcher.notify("answers") is None  # nothing new: no notice
    # a finished job's last word arrives even when a tick reported its writes already
    second = fast_watcher.notify("import", topics=["models"])
    assert second == Change(frozenset({"models"}), None, "import")
    assert got == []  # hidden: only noted
    panel.show()
    qtbot.waitUntil(lambda: len(got) == 1, timeout=5000)
    assert got == [Change(frozenset({"annotations", "models"}), None, None)]
    with pytest.raises(ValueError, match="no such workspace topic"):
        fast_watcher.notify("import", topics=["modles"])
