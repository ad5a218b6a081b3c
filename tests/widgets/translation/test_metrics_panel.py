"""MetricsPanel on a real workspace with an imported scored-translation set."""

from __future__ import annotations

import pytest

from engine.importing.scored_import import import_scored_translations
from engine.workspace.store import Workspace
from tests.cli.test_cli_data_i12 import SCORED
from widgets.translation.metrics_panel import MetricsPanel


@pytest.fixture
def scored_ws(tmp_path):
    ws = Workspace(tmp_path / "study.sqlite", create=True)
    path = tmp_path / "scored.csv"
    path.write_text(SCORED, "utf-8")
    import_scored_translations(
        ws,
        path,
        human_scale=(0, 100),
        source_col="src",
        hyp_col="mt",
        ref_cols="ref",
        score_cols="ann*",
        average_annotators=True,
    )
    yield ws
    ws.close()


def test_evaluate_shows_systems_correlations_and_unavailable(
    qtbot, scored_ws, sync_bridge, tmp_path
):
    panel = MetricsPanel(scored_ws, sync_bridge)
    qtbot.addWidget(panel)
    panel.resize(1100, 760)
    panel.show()
    assert panel.sets.count() == 1 and "scale 0-100" in panel.sets.currentText()
    panel.bootstrap.setValue(100)
    panel.evaluate()
    assert not sync_bridge.errors and panel.last_report is not None
    assert panel.systems.rowCount() == 2
    assert panel.systems.item(0, 0).text() == "A"
    texts = [
        [panel.correlations.item(r, c).text() for c in range(panel.correlations.columnCount())]
        for r in range(panel.correlations.rowCount())
    ]
    segment = [t for t in texts if t[0] == "segment" and t[1] == "chrf++"][0]
    assert segment[2] == "6" and "[" in segment[3]  # value with its CI
    system = [t for t in texts if t[0] == "system"][0]
    assert system[3] == "—" and "n = 2 < 3" in system[-1]
    assert "nrefs:1" in panel.signatures.text()
    panel.grab().save(str(tmp_path / "metrics.png"))


def test_record_a_score_on_the_sets_scale(qtbot, scored_ws, sync_bridge):
    panel = MetricsPanel(scored_ws, sync_bridge)
    qtbot.addWidget(panel)
    assert panel.score.maximum() == 100
    with qtbot.waitSignal(panel.sig_changed):
        panel.segment.setValue(2)
        panel.annotator.setText("me")
        panel.score.setValue(55)
        panel.record_score()
    assert (
        scored_ws.scalar("SELECT score FROM scored_human WHERE segment_id = 2 AND annotator = 'me'")
        == 55
    )
    panel.annotator.setText("")
    panel.record_score()
    assert "annotator must be named" in panel.error.text()


def test_translate_eval_response_target_is_checked(qtbot, scored_ws, sync_bridge):
    panel = MetricsPanel(scored_ws, sync_bridge)
    qtbot.addWidget(panel)
    panel.target.setCurrentIndex(panel.target.findData("response"))
    assert panel.score.maximum() == 10
    panel.segment.setValue(99)
    panel.annotator.setText("me")
    panel.record_score()
    assert "no translate-eval response with id 99" in panel.error.text()


def test_copy_baseline_button_fills_the_baseline_table(qtbot, scored_ws, sync_bridge, tmp_path):
    from engine.importing.importers import import_corpus

    corpus = tmp_path / "five.csv"
    corpus.write_text(
        "prmito,lang,utterance,part\n"
        "আমি বাড়ি যাব,barishal,মুই বাড়ি যামু,dev\n"
        "আমি বাড়ি যাব,barishal,মুই বারি যামু,dev\n"
        "তুমি কোথায় যাও,barishal,তুই কোমনে যাও,dev\n",
        "utf-8",
    )
    import_corpus(
        scored_ws,
        corpus,
        standard_col="prmito",
        dialect_col="lang",
        dialect_text_col="utterance",
        split_col="part",
    )
    panel = MetricsPanel(scored_ws, sync_bridge)
    qtbot.addWidget(panel)
    panel.baseline_split.setCurrentIndex(panel.baseline_split.findData("validation"))
    panel.baseline_button.click()
    assert not sync_bridge.errors
    rows = {
        (panel.baseline.item(i, 0).text(), panel.baseline.item(i, 1).text()): i
        for i in range(panel.baseline.rowCount())
    }
    assert set(rows) == {("barishal", "standard-to-dialect"), ("barishal", "dialect-to-standard")}
    forward = rows[("barishal", "standard-to-dialect")]
    assert panel.baseline.item(forward, 3).text() == "2"  # two standard sentences
    assert float(panel.baseline.item(forward, 5).text()) > 0
    assert "norm:nfc" in panel.baseline_note.text()


def test_the_held_out_tab_without_a_model_says_to_add_one(qtbot, scored_ws, sync_bridge):
    panel = MetricsPanel(scored_ws, sync_bridge)
    qtbot.addWidget(panel)
    assert not panel.heldout.evaluate_button.isEnabled()
    assert panel.heldout.status.text() == "Add a model first (the Models panel)."


def test_the_held_out_tab_names_what_to_choose_first(qtbot, corpus_ws, sync_bridge):
    from PySide6.QtCore import Qt

    panel = MetricsPanel(corpus_ws, sync_bridge)
    qtbot.addWidget(panel)
    panel.show()
    bar = panel.tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    qtbot.mouseClick(panel.heldout.evaluate_button, Qt.MouseButton.LeftButton)
    assert panel.heldout.status.text() == "“Dialects”: choose at least one dialect"
    assert not sync_bridge.tasks()
