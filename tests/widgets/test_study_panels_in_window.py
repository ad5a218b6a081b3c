"""The answers, judge and charts panels assembled in the main window talk to each other
through their signals: an override re-reads the charts and the calibration count."""

from __future__ import annotations

import shutil

from app.main_window import MainWindow
from app.settings import Settings
from tests.widgets.study_fixtures import study_db  # noqa: F401 (fixture)


def test_override_in_answers_reaches_judge_and_charts(qtbot, sync_bridge, study_db, tmp_path):
    path = tmp_path / "study.sqlite"
    shutil.copy(study_db, path)
    window = MainWindow(Settings(reviewer_name="রহিম"), bridge=sync_bridge, save=lambda s: None)
    qtbot.addWidget(window)
    window.show()
    assert window.open_workspace(path)
    answers, judge, charts = (window.panels[k] for k in ("answers", "judge", "charts"))
    window.show_panel("charts")
    qtbot.waitUntil(lambda: "heatmap" in charts.data, timeout=10000)
    assert not charts._dirty & {"heatmap"}
    window.show_panel("answers")
    assert answers.detail.annotator.text() == "রহিম"
    answers.select_row(0)
    answers.detail.reason.setText("checked by a native speaker")
    answers.detail.save_button.click()
    assert "heatmap" in charts._dirty
    assert judge.human_count.text().startswith("1 human-scored")
    assert judge.calibrate_button.isEnabled() or judge.judge_model.count() == 0
    window.close()
