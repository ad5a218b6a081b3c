"""The bundled rubric on a Bengali screen: its criteria, statements and anchors in Bengali in
the Judge and Answers panels, a note that the judge reads it in English, and what the judge
reads (the rubric's hash, the request a run is keyed by, the prompt) exactly as in English."""

from __future__ import annotations

import json

import pytest

from engine.i18n import set_language
from engine.judging.request import JudgeRequest
from engine.judging.rubric import default_rubric_path, load_rubric
from tests.widgets.study_fixtures import study_db, study_ws  # noqa: F401 (fixtures)
from widgets.judging.judge_panel import JudgePanel

# the study's rubric, fixed: a translation for the screen must never change it
STUDY_RUBRIC_SHA256 = "92cf59d552a311b82ca1c0469444fa665ec585de299ce6d92483540964018245"


@pytest.fixture
def bengali():
    assert set_language("bn")
    yield
    set_language("en")


def _panel(qtbot, ws, bridge) -> JudgePanel:
    panel = JudgePanel(ws, bridge)
    qtbot.addWidget(panel)
    panel.resize(1440, 820)
    panel.show()
    return panel


def _request(panel: JudgePanel) -> str:
    """The digest of the request a judge run from the panel sends (its key)."""
    request = panel.judge_request(JudgeRequest)
    assert isinstance(request, JudgeRequest), request
    return request.digest()


def test_the_judge_reads_the_rubric_as_the_study_fixed_it(qtbot, study_ws, sync_bridge):
    english = _panel(qtbot, study_ws, sync_bridge)
    assert not english.editor.judge_language.isVisibleTo(english)
    english_request, english_prompt = _request(english), english.preview.toPlainText()
    set_language("bn")
    try:
        panel = _panel(qtbot, study_ws, sync_bridge)
        rubric = load_rubric()
        assert rubric.content_hash == STUDY_RUBRIC_SHA256 == panel.rubric.content_hash
        assert panel.editor.to_dict() == json.loads(default_rubric_path().read_text("utf-8"))
        assert _request(panel) == english_request  # the run's key and the judge's rubric
        prompt = panel.preview.toPlainText()
        for criterion in rubric.criteria:
            assert criterion.statement in prompt and criterion.statement in english_prompt
        assert len(prompt) == len(english_prompt)  # the same prompt but its fence nonce
        # the screen: Bengali names, statements, weights and anchors, and the note
        shown = [panel.editor.criteria.item(0, c).text() for c in range(4)]
        assert shown == ["বোঝা", "উপভাষা বোঝা", "৩", shown[3]] and "বুঝেছে" in shown[3]
        assert panel.editor.likert.verticalHeaderItem(5).text() == "৫"
        assert panel.editor.likert.item(5, 0).text().startswith("সম্পূর্ণ সম্মত")
        assert panel.editor.judge_language.isVisibleTo(panel)
        assert "ইংরেজিতে" in panel.editor.judge_language.text()
    finally:
        set_language("en")


def test_an_edit_on_the_bengali_screen_reaches_the_judge(qtbot, study_ws, sync_bridge, bengali):
    panel = _panel(qtbot, study_ws, sync_bridge)
    statement = "The answer shows it understood the dialect question."
    panel.editor.criteria.item(0, 3).setText(statement)
    panel.editor.criteria.item(1, 2).setText("২.০")  # typed in Bengali digits
    data = panel.editor.to_dict()
    assert data["criteria"][0]["statement"] == statement
    assert data["criteria"][1]["weight"] == 2.0
    assert (
        data["criteria"][2] == json.loads(default_rubric_path().read_text("utf-8"))["criteria"][2]
    )
    assert sorted(data["likert"]) == [str(v) for v in range(6)]
    assert panel.rubric.content_hash != STUDY_RUBRIC_SHA256
