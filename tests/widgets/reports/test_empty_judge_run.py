"""A judge run with no judgments yet: the agreement and CBS charts say so, not "a second
judge run is needed" above "0 judgments"."""

from __future__ import annotations

from engine.reports.api import chart_data
from engine.workspace.store import Workspace
from tests.engine.judging.study_fixture import add_judge, build_study


def test_agreement_and_cbs_of_a_run_without_judgments_say_so(tmp_path):
    path = tmp_path / "study.sqlite"
    with Workspace(path) as ws:
        build_study(ws)
        empty = add_judge(ws, "judge-a", "gemini", {}, confidence=2)
    for kind in ("agreement", "cbs"):
        data = chart_data(str(path), kind, empty)
        assert data["empty"] == "this judge run has no judgments yet", kind
