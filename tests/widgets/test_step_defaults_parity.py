"""Every step's defaults are the same from either front end: each dialog or panel, opened and
left untouched, builds the request its Run button would run; the command line given only
what the window chose (the model ticked, the first set, the first run's limit) builds the
same request, field for field. The small first run the windows propose is asserted where it differs."""

from __future__ import annotations

import shutil

import pytest

from app.cli import main
from app.cli.batch import step_request
from engine.judging.api import JudgeRequest
from engine.workspace.store import Workspace
from widgets.answering.generate_dialog import GenerateDialog
from widgets.bias.bias_panel import BiasPanel
from widgets.common.dialog_parts import set_checked
from widgets.judging.judge_panel import JudgePanel
from widgets.translation.eval_translation_box import EvalTranslationBox
from widgets.translation.translate_dialog import TranslateDialog
from widgets.understanding.tasks_panel import TasksPanel


@pytest.fixture
def ws(sample_db, tmp_path):
    path = tmp_path / "ws.sqlite"
    shutil.copy(sample_db, path)
    # an endpoint model as the default (nothing is asked of it: requests are only built)
    assert main(["-w", str(path), "models", "add", "http://127.0.0.1:9/v1", "--api-model", "m",
                 "--name", "m", "--default"]) == 0  # fmt: skip
    with Workspace(path, create=False) as workspace:
        yield workspace


def _limit(request) -> list[str]:
    return ["--limit", str(request.limit)] if request.limit else []


def test_generate(qtbot, ws, sync_bridge):
    dialog = GenerateDialog(ws, sync_bridge)
    qtbot.addWidget(dialog)
    (request,) = dialog.job_requests().values()
    assert request.limit == 10  # the window's small first run
    # the sample has no gold dialect variants yet: the window ticks reviewed, and says so
    assert request.statuses == ("reviewed",) and not dialog.statuses_note.isHidden()
    argv = ["generate", "--model", *request.models, "--status", "reviewed", *_limit(request)]
    assert step_request(argv) == request


def test_translate(qtbot, ws, sync_bridge):
    dialog = TranslateDialog(ws, sync_bridge)
    qtbot.addWidget(dialog)
    set_checked(dialog.dialects, ["sylhet"])  # no dialect is ticked until the user ticks one
    request = dialog.job_request()
    assert not isinstance(request, str), request
    argv = ["translate", "--questions", request.question_set,
            "--dialects", ",".join(request.dialects), "--model", request.model, *_limit(request)]  # fmt: skip
    assert step_request(argv) == request


def test_eval_translation(qtbot, ws, sync_bridge):
    box = EvalTranslationBox(ws, sync_bridge)
    qtbot.addWidget(box)
    set_checked(box.dialects, ["sylhet"])  # no dialect is ticked until the user ticks one
    request = box.job_request()
    assert not isinstance(request, str), request
    argv = ["eval-translation", "--dialects", ",".join(request.dialects),
            *(["--model", request.model] if request.model else []),
            *(["--judge", request.judge] if request.judge else []), *_limit(request)]  # fmt: skip
    assert step_request(argv) == request


def test_probe(qtbot, ws, sync_bridge):
    panel = BiasPanel(ws, sync_bridge)
    qtbot.addWidget(panel)
    chosen = panel.probe_request()
    assert not isinstance(chosen, str), chosen
    _model_id, request = chosen
    argv = ["probe", "--models", ",".join(request.models),
            *(["--sets", ",".join(request.sets)] if request.sets else []), *_limit(request)]  # fmt: skip
    assert step_request(argv) == request


def test_judge(qtbot, ws, sync_bridge):
    panel = JudgePanel(ws, sync_bridge)
    qtbot.addWidget(panel)
    request = panel.judge_request(JudgeRequest)
    assert not isinstance(request, str), request
    assert step_request(["judge", "--judge", request.judge]) == request


def test_run_task(qtbot, ws, sync_bridge, tmp_path):
    panel = TasksPanel(ws, sync_bridge, user_dir=str(tmp_path))
    qtbot.addWidget(panel)
    request = panel.job_request()
    assert not isinstance(request, str), request
    assert request.limit == 5  # the window's small first run
    argv = ["run-task", request.task, "--models", ",".join(request.models), *_limit(request)]
    assert step_request(argv) == request
