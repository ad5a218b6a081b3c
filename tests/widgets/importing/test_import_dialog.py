"""ImportDialog drives the real importers on a real workspace file (synchronous bridge)."""

from __future__ import annotations

from importlib.resources import as_file, files

import pytest
from PySide6.QtCore import Qt

from app.stage_widgets import import_pages
from tests.widgets.menus import menu_action
from widgets.importing.import_dialog import CORPUS, QUESTIONS, ImportDialog


def _dialog(qtbot, ws, bridge, kind):
    dialog = ImportDialog(ws, bridge, kind, pages=import_pages())  # the window's pages
    qtbot.addWidget(dialog)
    return dialog


def _counts(ws) -> dict:
    return ws.query(
        "SELECT (SELECT count(*) FROM corpora) AS corpora, "
        "(SELECT count(*) FROM sentence_pairs) AS pairs, "
        "(SELECT count(*) FROM question_sets) AS sets, "
        "(SELECT count(*) FROM questions) AS questions, "
        "(SELECT count(*) FROM variants) AS variants"
    )[0]


def test_imports_the_sample_corpus_with_the_mapping_guessed_from_its_header(
    qtbot, fresh_ws, sync_bridge
):
    dialog = _dialog(qtbot, fresh_ws, sync_bridge, CORPUS)
    with as_file(files("resources") / "sample" / "corpus.csv") as path:
        assert dialog.set_path(path)
        assert dialog.columns == ["standard", "dialect_text", "dialect", "district", "split"]
        assert dialog.fmt.currentData() == "long"
        assert dialog.standard_col.currentData() == "standard"
        assert dialog.dialect_col.currentData() == "dialect"
        assert dialog.split_col.currentData() == "split"
        dialog.name.setText("sample corpus")
        with qtbot.waitSignal(dialog.sig_imported) as signal:
            qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    report = signal.args[0]
    pairs = fresh_ws.scalar("SELECT count(*) FROM sentence_pairs")
    assert report["inserted"] == pairs > 0
    assert fresh_ws.scalar("SELECT name FROM corpora") == "sample corpus"
    text = dialog.report.toPlainText()
    for code in report["by_dialect"]:
        assert f"  {code}: " in text
    assert not dialog.error.isVisible() and not sync_bridge.errors


def test_imports_the_sample_questions(qtbot, fresh_ws, sync_bridge):
    dialog = _dialog(qtbot, fresh_ws, sync_bridge, QUESTIONS)
    with as_file(files("resources") / "sample" / "questions.csv") as path:
        assert dialog.set_path(path)
        assert dialog.text_col.currentData() == "question"
        assert dialog.domain_col.currentData() == "domain"
        with qtbot.waitSignal(dialog.sig_imported):
            dialog.start_import()
    questions = fresh_ws.scalar("SELECT count(*) FROM questions")
    assert questions > 0
    assert fresh_ws.scalar("SELECT name FROM question_sets") == "questions"
    assert fresh_ws.scalar("SELECT count(*) FROM questions WHERE domain IS NULL") == 0
    assert f"{questions:,} new questions" in dialog.report.toPlainText()


def test_a_hostile_file_shows_one_line_and_changes_nothing(qtbot, fresh_ws, sync_bridge, tmp_path):
    hostile = tmp_path / "hostile.csv"
    hostile.write_text(
        "standard,dialect_text,dialect\nআমি যাব।,আঁই যাইয়ুম।,chittagong\nআমি জানি না।,,chittagong\n",
        encoding="utf-8",
    )
    before = _counts(fresh_ws)
    dialog = _dialog(qtbot, fresh_ws, sync_bridge, CORPUS)
    assert dialog.set_path(hostile)
    dialog.start_import()
    message = dialog.error.text()
    assert not dialog.error.isHidden()
    assert "\n" not in message
    assert str(hostile) in message and "line 3" in message and "'dialect_text'" in message
    assert _counts(fresh_ws) == before
    assert dialog.last_report is None and not sync_bridge.errors
    assert dialog.import_button.isEnabled()


def test_an_unreadable_file_is_refused_when_chosen(qtbot, fresh_ws, sync_bridge, tmp_path):
    bad = tmp_path / "latin1.csv"
    bad.write_bytes("standard,dialect_t\xe9xt\nx,y\n".encode("latin-1"))
    dialog = _dialog(qtbot, fresh_ws, sync_bridge, CORPUS)
    assert not dialog.set_path(bad)
    assert str(bad) in dialog.error.text()
    assert not dialog.import_button.isEnabled()


def test_the_vashantor_multiway_file_maps_as_wide(qtbot, fresh_ws, sync_bridge, shared_data):
    dialog = _dialog(qtbot, fresh_ws, sync_bridge, CORPUS)
    assert dialog.set_path(shared_data / "vashantor" / "vashantor_multiway.csv")
    assert dialog.fmt.currentData() == "wide"
    assert dialog.standard_col.currentData() == "bangla_speech"
    assert dialog.split_col.currentData() == "vashantor_split"
    options = dialog.options()
    assert options["dialect_cols"] == {
        c: c for c in ("barishal", "chittagong", "mymensingh", "noakhali", "sylhet")
    }


# offscreen cannot raise a window; a dialog already open is raised when chosen again
@pytest.mark.qt_log_ignore(
    "This plugin does not support raise", "This plugin does not support propagateSizeHints"
)
def test_the_window_menus_open_the_dialogs_and_an_import_refreshes_the_review_grid(
    qtbot, sync_bridge, tmp_path
):
    from app.main_window import MainWindow
    from app.settings import Settings

    window = MainWindow(Settings(reviewer_name="r"), bridge=sync_bridge, save=lambda s: None)
    qtbot.addWidget(window)
    window.show()
    items = (
        "Import corpus…",
        "Import questions…",
        "Translate questions…",
        "Generate answers…",
        "Judge…",
    )
    assert not any(menu_action(window, t).isEnabled() for t in items)
    assert window.open_workspace(tmp_path / "new.sqlite", create=True)
    assert all(menu_action(window, t).isEnabled() for t in items)

    menu_action(window, "Import questions…").trigger()
    dialog = window._dialogs["import"]
    assert dialog.isVisible() and dialog.current_kind == QUESTIONS
    with as_file(files("resources") / "sample" / "questions.csv") as path:
        dialog.set_path(path)
        dialog.start_import()
    questions = window.workspace.scalar("SELECT count(*) FROM questions")
    window.show_panel("review")  # a hidden panel follows the import's notice when shown
    qtbot.waitUntil(lambda: window.panels["review"].model.rowCount() == questions > 0)
    set_filter = window.panels["review"].set_filter  # the new set joined the filter
    assert [set_filter.itemData(i) for i in range(set_filter.count())][1:] == [
        r["id"] for r in window.workspace.query("SELECT id FROM question_sets ORDER BY id")
    ]
    assert window.counts_label.text().startswith(f"{questions} questions")

    menu_action(window, "Import corpus…").trigger()
    assert window._dialogs["import"] is dialog and dialog.current_kind == CORPUS

    menu_action(window, "Translate questions…").trigger()
    translate = window._dialogs["translate"]
    assert translate.question_set.currentData() == "questions"
    menu_action(window, "Generate answers…").trigger()
    assert window._dialogs["generate"].isVisible()
    menu_action(window, "Judge…").trigger()
    assert window.tabs.currentWidget() is window.panels["judge"]
    window.close_workspace()
    assert not window._dialogs


def test_a_new_file_clears_the_previous_name_and_report(qtbot, fresh_ws, sync_bridge):
    dialog = _dialog(qtbot, fresh_ws, sync_bridge, CORPUS)
    sample = files("resources") / "sample"
    with as_file(sample / "corpus.csv") as corpus, as_file(sample / "questions.csv") as qs:
        dialog.set_path(corpus)
        dialog.name.setText("mine")
        dialog.start_import()
        assert dialog.report.toPlainText().startswith("mine: ")
        dialog.path.editingFinished.emit()  # focus leaving: nothing is re-read
        assert dialog.report.toPlainText() and dialog.name.text() == "mine"
        dialog.kind.setCurrentIndex(dialog.kind.findData(QUESTIONS))
        dialog.set_path(qs)
    assert dialog.name.text() == "" and dialog.name.placeholderText() == "default: questions"
    assert dialog.report.toPlainText() == "" and dialog.last_report is None


def test_a_reopened_import_dialog_starts_fresh(qtbot, sync_bridge, tmp_path):
    """Imported, closed, opened again from the menu: no file, no report, nothing to import
    on Enter; the file dialog still starts in the last folder."""
    from PySide6.QtTest import QTest

    from app.main_window import MainWindow
    from app.settings import Settings

    window = MainWindow(Settings(reviewer_name="r"), bridge=sync_bridge, save=lambda s: None)
    qtbot.addWidget(window)
    window.show()
    assert window.open_workspace(tmp_path / "new.sqlite", create=True)
    menu_action(window, "Import questions…").trigger()
    dialog = window._dialogs["import"]
    with as_file(files("resources") / "sample" / "questions.csv") as path:
        dialog.path.setFocus()
        QTest.keyClicks(dialog.path, str(path))
        QTest.keyClick(dialog.path, Qt.Key.Key_Return)
        qtbot.waitUntil(dialog.import_button.isEnabled)
        qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(dialog.report.toPlainText()))
    sets = window.workspace.scalar("SELECT count(*) FROM question_sets")
    QTest.keyClick(dialog, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not dialog.isVisible())

    menu_action(window, "Import questions…").trigger()
    assert window._dialogs["import"] is dialog and dialog.isVisible()
    assert dialog.path.text() == "" and dialog.report.toPlainText() == ""
    assert not dialog.import_button.isEnabled()
    QTest.keyClick(dialog.path, Qt.Key.Key_Return)
    assert window.workspace.scalar("SELECT count(*) FROM question_sets") == sets
    window.close_workspace()
