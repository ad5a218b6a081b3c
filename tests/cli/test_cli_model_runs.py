"""A model that does not load makes generate, probe, run-task and translate exit 3 (the
step is incomplete, the output names the model) and leaves no run row."""

from __future__ import annotations

from importlib.resources import as_file, files

import pytest

from app.cli import main
from engine.bias.probes import import_probes
from engine.llm.models.registry import register_gguf
from engine.workspace.store import Workspace
from tests.engine.judging.study_fixture import build_study
from tests.engine.understanding.conftest import insert_pairs


@pytest.fixture
def study(tmp_path) -> str:
    path = tmp_path / "study.sqlite"
    gguf = tmp_path / "deleted.gguf"
    with Workspace(path) as ws:
        build_study(ws)
        insert_pairs(ws)
        with as_file(files("resources") / "sample" / "probes_gender.csv") as csv_path:
            import_probes(ws, csv_path, name="sample")
        register_gguf(ws, gguf, name="deleted", sha256="d" * 64, size_bytes=4)
    return str(path)


@pytest.mark.parametrize(
    "argv",
    [
        ["generate", "--model", "deleted"],
        ["probe", "--models", "deleted"],
        ["run-task", "dialect-to-standard", "--models", "deleted"],
    ],
    ids=["generate", "probe", "run-task"],
)
def test_a_model_that_does_not_load_exits_3(study, capsys, argv):
    with Workspace(study, create=False) as ws:
        runs_before = ws.scalar("SELECT count(*) FROM runs")
    assert main(["-w", study, *argv]) == 3
    out, err = capsys.readouterr()
    assert "deleted" in out and "incomplete" in out + err
    with Workspace(study, create=False) as ws:
        assert ws.scalar("SELECT count(*) FROM runs") == runs_before
