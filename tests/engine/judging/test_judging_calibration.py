"""Calibration helpers: score bands and the human × judge confusion table."""

from engine.judging import store
from engine.judging.calibration import band, band_labels, confusion, human_scores
from engine.judging.rubric import load_rubric

from .study_fixture import add_judge, build_study


def test_bands_and_confusion_table():
    assert band_labels() == ["0-2", "2-4", "4-6", "6-8", "8-10"]
    assert [band(x) for x in (0.0, 1.99, 2.0, 5.5, 8.0, 10.0)] == [0, 0, 1, 2, 4, 4]
    table = confusion([0.5, 3.0, 9.0, 9.5], [1.0, 7.0, 8.5, 2.0])
    assert table[0][0] == 1 and table[1][3] == 1 and table[4][4] == 1 and table[4][1] == 1
    assert sum(map(sum, table)) == 4


def test_human_scores_take_the_newest_override(workspace):
    build_study(workspace)
    rid = store.answer_pairs(workspace)[0]["dialect_response_id"]
    add_judge(workspace, "j", "x", {rid: 2.0})
    jid = workspace.scalar("SELECT id FROM judgments")
    rubric = load_rubric()
    store.add_override(workspace, jid, annotator="a", reason="r", final=5.0, rubric=rubric)
    store.add_override(workspace, jid, annotator="b", reason="r", final=7.5, rubric=rubric)
    assert human_scores(workspace) == {rid: 7.5}
