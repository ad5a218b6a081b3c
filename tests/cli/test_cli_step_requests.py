"""Every model step a batch can carry builds its request from its own command line, and the
engine knows each of those requests by its step name (a batch keeps the request, not argv)."""

from __future__ import annotations

import pytest

from app.cli import batch
from app.cli.batch import step_request
from engine.errors import UserError
from engine.steps.api import REQUESTS, STEPS, request_from_json

MINIMAL = {
    "generate": ["generate"],
    "translate": ["translate", "--questions", "q", "--dialects", "sylhet"],
    "eval-translation": ["eval-translation", "--dialects", "sylhet"],
    "probe": ["probe"],
    "run-task": ["run-task", "dialect-to-standard"],
    "judge": ["judge"],
}


def test_the_cli_and_the_engine_know_the_same_steps():
    assert set(batch.STEPS) == set(STEPS) == set(MINIMAL)
    assert len({kind.STEP for kind in REQUESTS}) == len(REQUESTS)


@pytest.mark.parametrize("step", sorted(MINIMAL))
def test_each_step_command_builds_its_request_and_it_reads_back(step):
    request = step_request(MINIMAL[step])
    assert request.STEP == step
    assert request_from_json(request.as_json()) == request


def test_a_command_that_is_no_model_step_is_refused():
    with pytest.raises(UserError, match="not a model step"):
        step_request(["status"])
