"""The per-model run loop's failure rule, in each of its four stages: a model whose GGUF
file is gone does not load, leaves no run row, and is reported (``load_error`` naming it,
every item failed) while the other models still run; a resumed run whose model no longer
loads keeps its row and what it had finished."""

from __future__ import annotations

from importlib.resources import as_file, files

import pytest

from engine.answering.generation import generate_answers
from engine.bias.probes import import_probes
from engine.bias.run import run_probes
from engine.llm.models.registry import find_model, register_gguf
from engine.llm.runs.backend import backend_for_run
from engine.rag.build import build_index
from engine.rag.retriever import Retriever
from engine.translation.translate import translate_questions
from engine.understanding.run import run_task
from engine.understanding.task_spec import get_task
from tests.engine.judging.study_fixture import add_model, build_study
from tests.engine.judging.test_judging_run import ScriptedBackend
from tests.engine.rag.test_rag_retrieval import SMALL, _insert
from tests.engine.translation.test_translate import _questions
from tests.engine.understanding.conftest import insert_pairs


@pytest.fixture
def gone(workspace, tmp_path) -> dict:
    """A registered GGUF model whose file was deleted."""
    path = tmp_path / "deleted.gguf"
    path.write_bytes(b"GGUF")
    model_id = register_gguf(workspace, path, name="deleted", sha256="d" * 64, size_bytes=4)
    path.unlink()
    return find_model(workspace, model_id)


def _scripted(reply: str):
    """The real loader for the deleted model (it fails), scripted replies for the others."""

    def factory(ws, run_id):
        if (
            ws.scalar(
                "SELECT m.name FROM runs r JOIN models m ON m.id = r.model_id WHERE r.id = ?",
                (run_id,),
            )
            == "deleted"
        ):
            return backend_for_run(ws, run_id)
        return ScriptedBackend(lambda req, n: reply)

    return factory


def _runs(ws, model: dict) -> int:
    return ws.scalar("SELECT count(*) FROM runs WHERE model_id = ?", (model["id"],))


def _assert_reported(summaries: list[dict], n_runs: int) -> None:
    failed = [s for s in summaries if s["model"] == "deleted"]
    assert len(failed) == n_runs
    for s in failed:
        assert s["run_id"] is None and not s["complete"] and s["errors"] == s["items"] > 0
        assert "'deleted' did not load" in s["load_error"] and "deleted.gguf" in s["load_error"]
    others = [s for s in summaries if s["model"] != "deleted"]
    assert others and all(s["complete"] and "load_error" not in s for s in others)


def test_answering(workspace, gone):
    build_study(workspace)
    add_model(workspace, "works", "x")
    works = find_model(workspace, "works")
    summaries = generate_answers(
        workspace, [gone, works], backend_factory=_scripted("প্রমিত বাংলায় উত্তর।")
    )
    _assert_reported(summaries, 1)
    assert _runs(workspace, gone) == 0 and _runs(workspace, works) == 1


def test_bias_probes(workspace, gone):
    with as_file(files("resources") / "sample" / "probes_gender.csv") as csv_path:
        import_probes(workspace, csv_path, name="a")
        import_probes(workspace, csv_path, name="b")
    add_model(workspace, "works", "x")
    works = find_model(workspace, "works")
    summaries = run_probes(workspace, [gone, works], backend_factory=_scripted("১"))
    _assert_reported(summaries, 2)  # both probe sets of the model that did not load
    assert {s["probe_set"] for s in summaries if s["model"] == "deleted"} == {"a", "b"}
    assert _runs(workspace, gone) == 0 and _runs(workspace, works) == 2


def test_understanding_tasks(workspace, gone):
    insert_pairs(workspace)
    add_model(workspace, "works", "x")
    works = find_model(workspace, "works")
    summaries = run_task(
        workspace,
        get_task("dialect-to-standard"),
        [gone, works],
        scripts=["native", "roman"],
        backend_factory=_scripted('{"standard": "আমি"}'),
    )
    _assert_reported(summaries, 2)
    assert _runs(workspace, gone) == 0 and _runs(workspace, works) == 2
    # the items a run showed are recorded only for runs that ran
    assert workspace.scalar("SELECT count(DISTINCT run_id) FROM task_run_items") == _runs(
        workspace, works
    )


def test_translation(workspace, gone, default_encoder):
    _insert(workspace, SMALL)
    retriever = Retriever(
        build_index(workspace, encoder=default_encoder, selfcheck=False), default_encoder
    )
    _questions(workspace)
    summary = translate_questions(
        workspace, retriever, question_set="demo", dialects=["chittagong"], model_row=gone
    )
    assert summary.run_id is None and not summary.complete
    assert summary.failed == summary.items > 0 and "'deleted' did not load" in summary.load_error
    assert _runs(workspace, gone) == 0
    assert not workspace.scalar("SELECT count(*) FROM variants WHERE provenance = 'machine'")


def test_a_resumed_run_keeps_its_row_and_its_finished_items(workspace, gone, tmp_path):
    build_study(workspace)
    first = generate_answers(workspace, [gone], backend_factory=_scripted("x"))
    assert _runs(workspace, gone) == 0
    # the same model answered once before its file went away
    again = generate_answers(
        workspace, [gone], backend_factory=lambda ws, run: ScriptedBackend(lambda r, n: "উত্তর")
    )
    assert again[0]["complete"] and _runs(workspace, gone) == 1
    resumed = generate_answers(workspace, [gone], backend_factory=_scripted("x"))
    assert resumed[0]["run_id"] == again[0]["run_id"] and _runs(workspace, gone) == 1
    assert resumed[0]["done_before"] == resumed[0]["items"] == first[0]["items"]
    assert resumed[0]["errors"] == 0 and "load_error" in resumed[0]
