"""The window in Bengali: real widgets show the catalogue's menu titles and Bengali digits."""

from __future__ import annotations

import gc
import re
import shutil

import pytest
from PySide6.QtWidgets import QMessageBox

from app.main_window import MainWindow
from app.settings import Settings, load_settings, save_settings
from engine.i18n import current_language, set_language


@pytest.fixture(autouse=True)
def collect_qt_garbage():
    """Widgets in reference cycles are freed here, on the GUI thread, not by a GC pass that
    happens to run in a later test's worker thread (a Qt object destroyed off the GUI thread
    crashes)."""
    yield
    gc.collect()


ASCII_DIGIT = re.compile(r"[0-9]")
BENGALI_DIGIT = re.compile(r"[০-৯]")


@pytest.fixture
def bengali():
    assert set_language("bn")
    yield
    set_language("en")


@pytest.fixture
def ws_copy(sample_db, tmp_path):
    path = tmp_path / "study.sqlite"
    shutil.copy(sample_db, path)
    return path


def make_window(qtbot, sync_bridge, saved, settings, monkeypatch):
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: None)
    window = MainWindow(settings, bridge=sync_bridge, save=saved.append)
    qtbot.addWidget(window)
    window.show()
    return window


def test_menus_panels_and_counts_in_bengali(
    bengali, qtbot, sync_bridge, ws_copy, monkeypatch, tmp_path
):
    saved: list = []
    window = make_window(qtbot, sync_bridge, saved, Settings(language="bn"), monkeypatch)
    titles = [action.text() for action in window.menuBar().actions()]
    assert titles == ["ফাইল (&F)", "দেখুন (&V)", "গবেষণা (&S)", "সহায়তা (&H)"]
    file_menu = window.menuBar().actions()[0].menu()
    assert "কর্মক্ষেত্র খুলুন… (&O)" in [a.text() for a in file_menu.actions()]
    assert window.workspace_label.text() == "কোনো কর্মক্ষেত্র খোলা নেই"

    assert window.open_workspace(ws_copy)
    tabs = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    assert tabs[:3] == ["অনুবাদ পর্যালোচনা", "মডেল", "উত্তর"]
    counts = window.counts_label.text()
    assert "টি প্রশ্ন" in counts and BENGALI_DIGIT.search(counts)
    assert not ASCII_DIGIT.search(counts), counts
    review = window.panels["review"]
    assert review.counts.text().startswith("খসড়া ")
    assert BENGALI_DIGIT.search(review.counts.text())
    assert not ASCII_DIGIT.search(review.counts.text())
    assert review.accept_action.text() == "চূড়ান্ত হিসেবে গ্রহণ"
    assert not window.grab().isNull()


def test_job_monitor_digits_and_headers_in_bengali(bengali, qtbot, sync_bridge):
    from PySide6.QtCore import Qt

    from widgets.common.job_monitor import JobTableModel

    model = JobTableModel()
    assert model.headerData(0, Qt.Orientation.Horizontal) == "প্রক্রিয়া"
    assert model.headerData(2, Qt.Orientation.Horizontal) == "অগ্রগতি"


def test_language_menu_saves_the_choice_for_the_next_start(
    qtbot, sync_bridge, monkeypatch, tmp_path
):
    saved: list = []
    settings = Settings()
    window = make_window(qtbot, sync_bridge, saved, settings, monkeypatch)
    view = window.menuBar().actions()[1].menu()
    language = next(a.menu() for a in view.actions() if a.text() == "&Language")
    names = {a.text(): a for a in language.actions()}
    assert list(names) == ["English", "বাংলা"] and names["English"].isChecked()
    names["বাংলা"].trigger()
    assert settings.language == "bn" and saved[-1].language == "bn"
    assert current_language() == "en"  # the running window stays as it was built
    assert "বাংলা" in window.statusBar().currentMessage()
    path = tmp_path / "settings.json"
    save_settings(settings, path)
    assert load_settings(path).language == "bn"


def test_review_history_dates_and_statuses_in_bengali(bengali, qtbot, review_ws):
    from widgets.translation.review_panel import ReviewPanel

    panel = ReviewPanel(review_ws, reviewer="রহিম")
    qtbot.addWidget(panel)
    variant = review_ws.scalar("SELECT id FROM variants WHERE provenance = 'machine'")
    panel.select_variant(variant)
    assert panel.accept_current()
    panel.select_variant(variant)
    history = panel.detail.history.toPlainText().splitlines()[-1]
    assert "রহিম" in history and "চূড়ান্ত" in history and "গ্রহণ" in history
    date = history.split()[0]
    assert BENGALI_DIGIT.search(date) and not ASCII_DIGIT.search(date), history


MNEMONIC = re.compile(r"&(\w)")


def duplicate_mnemonics(menu, path="") -> list:
    """(menu, letter, texts) wherever two entries of one menu share an Alt-key."""
    found, keys = [], {}
    for action in menu.actions():
        if action.isSeparator():
            continue
        match = MNEMONIC.search(action.text())
        if match:
            keys.setdefault(match.group(1).casefold(), []).append(action.text())
        if action.menu() is not None:
            found += duplicate_mnemonics(action.menu(), f"{path}/{action.text()}")
    return found + [(path, key, texts) for key, texts in keys.items() if len(texts) > 1]


@pytest.mark.parametrize("language", ["en", "bn"])
def test_every_menu_has_unique_mnemonics(
    language, qtbot, sync_bridge, ws_copy, monkeypatch, tmp_path
):
    set_language(language)
    try:
        window = make_window(qtbot, sync_bridge, [], Settings(language=language), monkeypatch)
        assert window.open_workspace(ws_copy)  # the workspace's panels add View entries
        assert duplicate_mnemonics(window.menuBar()) == []
    finally:
        set_language("en")


def test_tasks_and_jobs_have_distinct_names_and_shortcut_rows(
    bengali, qtbot, sync_bridge, ws_copy, monkeypatch
):
    from widgets.common.shortcuts_dialog import ShortcutsDialog, collect_shortcuts

    window = make_window(qtbot, sync_bridge, [], Settings(language="bn"), monkeypatch)
    assert window.open_workspace(ws_copy)
    tabs = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    assert len(set(tabs)) == len(tabs), tabs
    tasks = tabs[list(window.panels).index("tasks")]
    jobs = tabs[list(window.panels).index("jobs")]
    assert tasks != jobs
    rows = dict(collect_shortcuts(window))
    assert not [t for t in rows if re.search(r"\(\w\)", t)], rows  # no "(O)" left of "(&O)"
    shown = [text for text in rows if tasks in text or jobs in text]
    assert len(shown) >= 2, rows  # "Show Tasks" and "Show Jobs" both listed, not merged
    dialog = ShortcutsDialog(list(rows.items()), window)
    qtbot.addWidget(dialog)
    headers = [dialog.table.horizontalHeaderItem(i).text() for i in range(2)]
    assert jobs not in headers and tasks not in headers


def test_qt_standard_buttons_are_bengali(bengali, qtbot, sync_bridge, monkeypatch):
    from PySide6.QtWidgets import QDialogButtonBox

    window = make_window(qtbot, sync_bridge, [], Settings(language="bn"), monkeypatch)
    box = QDialogButtonBox(
        QDialogButtonBox.StandardButton.Close
        | QDialogButtonBox.StandardButton.Ok
        | QDialogButtonBox.StandardButton.Cancel,
        window,
    )
    texts = {button.text() for button in box.buttons()}
    assert texts == {"বন্ধ", "ঠিক আছে", "বাতিল"}
    box = QMessageBox(window)
    box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
    assert {b.text() for b in box.buttons()} == {"হ্যাঁ (&Y)", "না (&N)"}
    set_language("en")
    english = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, window)
    assert english.buttons()[0].text() == "Close"


def test_engine_messages_shown_in_the_gui_are_bengali(bengali):
    from engine.annotation import adjudication

    reasons = adjudication._reasons(
        [
            {"decision": "flag", "stale": False, "text": "", "score": None},
            {"decision": "accept", "stale": False, "text": "", "score": None},
        ],
        "1..5",
    )
    assert reasons == ["চিহ্নিত", "সিদ্ধান্ত আলাদা"]


def test_a_text_fields_right_click_menu_is_bengali(bengali, qtbot, sync_bridge, monkeypatch):
    from PySide6.QtWidgets import QLineEdit

    make_window(qtbot, sync_bridge, [], Settings(language="bn"), monkeypatch)  # installs it
    field = QLineEdit("কিছু লেখা")
    qtbot.addWidget(field)
    menu = field.createStandardContextMenu()
    texts = [a.text().split("\t")[0] for a in menu.actions() if not a.isSeparator()]
    assert "পেস্ট (&P)" in texts and "সব বাছুন" in texts, texts
    menu.deleteLater()
