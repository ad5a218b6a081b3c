"""Every model step a batch can carry builds its request from its own command line, and the
engine knows each of those requests by its step name (a batch keeps the request, not argv)."""

from __future__ import annotations

import pytest

from app.cli import build_parser
from app.cli.batch import step_request
from engine.errors import UserError
from engine.steps.api import request_from_json, request_kinds, step_names

MINIMAL = {
    "generate": ["generate"],
    "translate": ["translate", "--questions", "q", "--dialects", "sylhet"],
    "eval-translation": ["eval-translation", "--dialects", "sylhet"],
    "probe": ["probe"],
    "run-task": ["run-task", "dialect-to-standard"],
    "judge": ["judge"],
    "validity": ["validity", "--per-dialect", "3", "--flip-max", "0.1"],
}


def test_the_cli_and_the_engine_know_the_same_steps():
    # the stages declare their steps once (engine.workspace.stages); `batch export` offers them
    assert set(step_names()) == set(MINIMAL)
    assert [kind.STEP for kind in request_kinds()] == list(step_names())
    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    batch_export = commands["batch"]._subparsers._group_actions[0].choices["export"]
    step = next(a for a in batch_export._actions if a.dest == "step")
    assert tuple(step.choices) == step_names()
    for name in step_names():  # each is a command that builds its request
        assert commands[name].get_default("build_request") is not None, name


@pytest.mark.parametrize("step", sorted(MINIMAL))
def test_each_step_command_builds_its_request_and_it_reads_back(step):
    request = step_request(MINIMAL[step])
    assert request.STEP == step
    assert request_from_json(request.as_json()) == request


def test_a_command_that_is_no_model_step_is_refused():
    with pytest.raises(UserError, match="not a model step"):
        step_request(["status"])
