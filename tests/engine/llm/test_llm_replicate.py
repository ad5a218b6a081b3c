"""``replicate``: a sample decoded again with the groups it was decoded in comes back
identical on the same 'machine'; a different one is measured, not hidden; judge runs report
how far their final scores moved; the report carries it."""

from __future__ import annotations

import json

import pytest

from engine.errors import UserError
from engine.llm.runs.jobs import run_job
from engine.llm.runs.replicate import replicate_run, replications
from engine.llm.runs.run import open_run
from engine.llm.types import Request, Result, Sampler

from .test_llm_plan_lease import BatchSensitive, model_row, requests


class OtherMachine(BatchSensitive):
    """Same plan, but some positions of a group come out differently (another build)."""

    def generate(self, reqs, *, progress=None, cancelled=None):
        for i, r in enumerate(super().generate(reqs, progress=progress, cancelled=cancelled)):
            yield Result(r.key, r.text + ("~" if i % 3 == 0 else ""), finish_reason="stop")


def test_same_machine_replicates_exactly_other_machine_is_measured(workspace):
    run = open_run(workspace, "answer", model_row(workspace), {"template": "t"})
    assert run_job(workspace, run, BatchSensitive(), requests(12)).complete
    same = replicate_run(workspace, run, sample=5, seed=1, backend=BatchSensitive())
    assert same.sample == 5 and same.identical == 5 and same.agreement == 1.0
    assert 1 <= same.groups <= 3  # each sampled item decoded with its own group
    other = replicate_run(workspace, run, sample=12, seed=1, backend=OtherMachine())
    # positions 0 and 3 of each group of 4 come out differently there
    assert other.identical == 6 and other.differing == ["i00", "i03", "i04", "i07", "i08", "i11"]
    rows = replications(workspace, [run])
    assert [r["identical"] for r in rows] == [6, 5]
    assert rows[0]["summary"]["agreement"] == 0.5


def test_nothing_recorded_is_a_clear_error(workspace):
    run = open_run(workspace, "answer", model_row(workspace), {"template": "t"})
    with pytest.raises(UserError, match="no finished items recorded"):
        replicate_run(workspace, run, backend=BatchSensitive())
    with pytest.raises(UserError, match="no run 999"):
        replicate_run(workspace, 999, backend=BatchSensitive())


VERDICT = {
    "chain_of_thought_reasoning": "ok",
    "comprehension": 4,
    "correctness": 4,
    "completeness": 3,
    "clarity": 4,
    "length": 5,
    "confidence": 4,
}


class Judge:
    """Replies a verdict; ``shift`` lowers correctness (another machine's judge)."""

    def __init__(self, shift=0):
        self.shift = shift

    def info(self):
        from engine.llm.types import ModelInfo

        return ModelInfo("judge", "judge", has_chat_template=True)

    def generate(self, reqs, *, progress=None, cancelled=None):
        for r in reqs:
            v = dict(VERDICT, correctness=VERDICT["correctness"] - self.shift)
            yield Result(r.key, json.dumps(v), finish_reason="stop")

    def close(self):
        pass


def test_judge_runs_report_the_spread_of_final_scores(workspace):
    from engine.judging.replication import replicate

    run = open_run(workspace, "judge", model_row(workspace), {"template": "j"})
    reqs = [Request(key=f"r{i}", prompt=f"judge {i}", sampler=Sampler()) for i in range(6)]
    run_job(workspace, run, Judge(), reqs)
    same = replicate(workspace, run, sample=6, backend=Judge())
    assert same.finals["mean_abs_diff"] == 0 and same.finals["n"] == 6
    moved = replicate(workspace, run, sample=6, backend=Judge(shift=2))
    f = moved.finals
    assert moved.identical == 0 and f["scale"] == 10.0
    assert f["mean_then"] - f["mean_now"] == pytest.approx(f["mean_abs_diff"]) == 1.0  # 2 x 2.5/5


class DiesLoading(BatchSensitive):
    """A local backend whose worker is killed while it loads the model (fault injection)."""

    def generate(self, reqs, *, progress=None, cancelled=None):
        from engine.llm.runtime.worker import ModelDidNotLoad

        raise ModelDidNotLoad("the model worker for m was killed by SIGKILL while loading")
        yield  # a generator, as the real one


def test_a_model_that_does_not_load_is_a_partial_replication(workspace):
    """Not an error out of the command (exit 2, nothing stored): every sampled item failed,
    stored as partial with no agreement figure and the reason (the CLI exits 3)."""
    run = open_run(workspace, "answer", model_row(workspace), {"template": "t"})
    assert run_job(workspace, run, BatchSensitive(), requests(8)).complete
    result = replicate_run(workspace, run, sample=4, backend=DiesLoading())
    assert result.failed == 4 and not result.complete and result.agreement is None
    assert "SIGKILL while loading" in result.error
    (row,) = replications(workspace, [run])
    assert row["summary"]["complete"] is False and row["summary"]["agreement"] is None
