"""A translation run with the real embedded model, started from Study → Translate questions in
Bengali: the dialog's status, the job's label, progress and log lines in the Jobs panel and
the drafts in the Review panel read Bengali (the rule of tests/widgets/visible_texts.py).

Slow: the model translates one question (the walker of every screen,
tests/widgets/test_bengali_screens.py, runs probes on scripted replies instead)."""

from __future__ import annotations

import logging
import shutil

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox, QTableView

from app.logging_setup import QUIET_LOGGERS
from engine.i18n import _, set_language
from engine.workspace.store import Workspace
from tests.widgets.menus import menu_action
from tests.widgets.test_bengali_screens import ScreenReader, bengali_window, data_names
from tests.widgets.visible_texts import ForeignCheck


@pytest.mark.slow
def test_a_translation_run_reads_bengali(
    qtbot, sync_bridge, sample_db, embedded_gguf, tmp_path, monkeypatch, caplog
):
    from engine.llm.models.registry import ensure_embedded_default

    caplog.set_level(logging.INFO)  # the program's level: the job's log shows its INFO lines
    for name in QUIET_LOGGERS:  # as the program quiets them (a library's own chatter)
        caplog.set_level(logging.WARNING, logger=name)
    path = tmp_path / "study.sqlite"
    shutil.copy(sample_db, path)
    with Workspace(path) as ws:
        ensure_embedded_default(ws)
        # a dialect with corpus pairs and questions still to draft in it
        dialect = ws.scalar(
            "SELECT dialect FROM sentence_pairs GROUP BY dialect ORDER BY count(*) DESC LIMIT 1"
        )
        ws.conn.execute("DELETE FROM variants WHERE dialect = ?", (dialect,))
    warned: list[str] = []
    monkeypatch.setattr(
        QMessageBox, "warning", lambda *a, **k: warned.append(a[2]) or QMessageBox.StandardButton.Ok
    )
    assert set_language("bn")
    try:
        window = bengali_window(qtbot, sync_bridge)
        assert window.open_workspace(path)
        reader = ScreenReader(qtbot, None)
        menu_action(window, _("&Translate questions…").replace("&", "")).trigger()
        dialog = window._dialogs["translate"]
        qtbot.waitUntil(dialog.isVisible)
        dialects = dialog.dialects
        row = next(
            r
            for r in range(dialects.count())
            if dialects.item(r).data(Qt.ItemDataRole.UserRole) == dialect
        )
        rect = dialects.visualItemRect(dialects.item(row))
        qtbot.mouseClick(dialects.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        QTest.keyClick(dialects, Qt.Key.Key_Space)
        dialog.limit.lineEdit().selectAll()
        QTest.keyClicks(dialog.limit, "1")
        QTest.keyClick(dialog.limit, Qt.Key.Key_Tab)
        qtbot.waitUntil(dialog.start_button.isEnabled)
        with qtbot.waitSignal(dialog.sig_finished, timeout=300_000):
            qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
        QApplication.processEvents()
        reader.read("translate-done", dialog)
        window.show_panel("jobs")
        view = window.job_monitor.findChild(QTableView)
        for number in range(view.model().rowCount()):  # each job's log, chosen with the mouse
            cell = view.visualRect(view.model().index(number, 0))
            qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=cell.center())
            QApplication.processEvents()
            reader.read(f"translate-jobs-{number}", window)
        window.show_panel("review")
        reader.read("translate-review", window)
        with Workspace(path) as ws:
            assert ws.scalar("SELECT count(*) FROM variants WHERE dialect = ?", (dialect,)) == 1
            check = ForeignCheck(data_names(ws, path, tmp_path))
        read = [(n, w, t) for n, texts in reader.screens.items() for w, t in texts]
        read += [("warnings", "QMessageBox", line) for w in warned for line in w.splitlines()]
        foreign = [(n, w, t) for n, w, t in read if check.is_foreign(t)]
        for entry in foreign:
            print("  ", entry)
        print(f"\nBengali run screens: {len(reader.screens)} screens, {len(read)} texts read")
        assert not foreign, foreign[:20]
    finally:
        set_language("en")
