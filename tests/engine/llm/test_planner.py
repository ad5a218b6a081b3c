"""The study-time planner: a calibration on a sample of the job, scaled to the job, and
estimate and actual side by side in the run card."""

import dataclasses
import json
import math

import pytest

from engine.llm.planning.planner import (
    MODEL_ERROR_FLOOR,
    NOISE_QUANTILE,
    Calibration,
    CalibrationCancelled,
    calibrate,
    calibration_sample,
    estimate,
)
from engine.llm.runs.jobs import run_job
from engine.llm.runs.run import past_errors, record_actual, record_estimate
from engine.llm.types import Request, Sampler
from tests.engine.llm.test_llm_plan_lease import BatchSensitive, fresh


def reqs(n: int, max_tokens: int = 8) -> list[Request]:
    return [
        Request(key=f"i{i:02d}", prompt="x" * (10 + i % 3), sampler=Sampler(max_tokens=max_tokens))
        for i in range(n)
    ]


def test_the_sample_spreads_over_the_job():
    keys = [r.key for r in calibration_sample(reqs(40), 4)]
    assert keys == ["i00", "i10", "i20", "i30"]
    assert len(calibration_sample(reqs(3), 8)) == 3


def test_estimate_scales_prompt_and_output_cost():
    # 4 items of 10 chars: 1 s for the prompts, 1 + 3 s with 4 output tokens each
    cal = Calibration(
        items=4, prompt_chars=40, prompt_seconds=1.0, seconds=4.0, output_tokens=(4, 4, 4, 4)
    )
    job = [Request(key=str(i), prompt="y" * 10, sampler=Sampler(max_tokens=8)) for i in range(40)]
    est = estimate(job, cal)
    assert est.output_tokens == 160 and est.output_tokens_low == est.output_tokens_high == 160
    # prompts 400 chars x 0.025 s + (160 - 40) extra tokens x 0.25 s
    assert abs(est.seconds - 40.0) < 1e-9
    varied = Calibration(4, 40, 1.0, 4.0, (1, 3, 5, 7))
    wide = estimate(job, varied)
    assert wide.output_tokens_low < wide.output_tokens < wide.output_tokens_high <= 320
    assert wide.seconds_low < wide.seconds < wide.seconds_high
    assert "items" in wide.describe()


def test_estimate_and_actual_go_into_the_run_card(tmp_path):
    ws, run = fresh(tmp_path, "planned")
    backend = BatchSensitive()
    job = reqs(10)
    cal = calibrate(backend, job)
    assert cal.items == 8 and cal.output_tokens == (2,) * 8
    record_estimate(ws, run, estimate(job, cal), cal)
    run_job(ws, run, backend, job)
    timing = json.loads(ws.scalar("SELECT card FROM runs WHERE id = ?", (run,)))["plan_timing"]
    assert timing["estimate"]["items"] == 10 and timing["estimate"]["calibration"]["items"] == 8
    assert timing["actual"]["items"] == 10 and timing["actual"]["output_tokens"] == 20
    assert timing["actual"]["calls"] == 1
    # nothing of the calibration is stored as a response
    assert ws.scalar("SELECT count(*) FROM responses WHERE item_key LIKE 'calibration:%'") == 0


def test_a_job_estimates_itself_when_asked(tmp_path):
    ws, run = fresh(tmp_path, "self-estimated")
    summary = run_job(ws, run, BatchSensitive(), reqs(12), estimate=True)
    assert summary.complete and summary.counts()["estimate"]["items"] == 12
    timing = json.loads(ws.scalar("SELECT card FROM runs WHERE id = ?", (run,)))["plan_timing"]
    assert timing["estimate"]["output_tokens"] == 24 and timing["actual"]["items"] == 12
    # small jobs are not calibrated unless asked
    ws2, run2 = fresh(tmp_path, "small")
    assert "estimate" not in run_job(ws2, run2, BatchSensitive(), reqs(12)).counts()


def test_machine_noise_widens_the_interval():
    """Two one-token passes that disagree by 20 % widen a fixed-length job's interval
    (output lengths all equal: no length term), combined in quadrature with the length term
    and the model-error floor."""
    steady = Calibration(4, 40, 1.0, 4.0, (4, 4, 4, 4), prompt_tokens=20, prompt_seconds_after=1.0)
    noisy = dataclasses.replace(steady, prompt_seconds_after=1.25)
    job = [Request(key=str(i), prompt="y" * 10, sampler=Sampler(max_tokens=8)) for i in range(40)]
    calm, loud = estimate(job, steady), estimate(job, noisy)
    assert calm.seconds == loud.seconds
    noise = 0.25 / (math.sqrt(2) * 1.125)
    assert abs(loud.noise - round(noise, 4)) < 1e-9
    half = math.hypot(NOISE_QUANTILE * noise, MODEL_ERROR_FLOOR)
    assert abs(loud.seconds_high - loud.seconds * (1 + half)) < 1e-6
    assert abs(loud.seconds - loud.seconds_low - (loud.seconds_high - loud.seconds)) < 1e-6
    # prompt tokens at the sample's tokens per character, output tokens on top
    assert loud.prompt_tokens == 200 and loud.tokens == 200 + 160
    both = estimate(job, dataclasses.replace(noisy, output_tokens=(1, 3, 5, 7)))
    length_only = estimate(job, dataclasses.replace(steady, output_tokens=(1, 3, 5, 7)))
    assert both.seconds_high > length_only.seconds_high > both.seconds


def test_the_model_error_floor_holds_when_the_machine_is_quiet():
    """bench/probes.py --quick on an idle machine measured noise 0.0072 and missed by 13 %:
    with no past runs the interval is at least the floor wide, whatever the noise says."""
    quiet = Calibration(4, 40, 1.0, 4.0, (4, 4, 4, 4), prompt_seconds_after=1.0102)
    job = [Request(key=str(i), prompt="y" * 10, sampler=Sampler(max_tokens=8)) for i in range(40)]
    est = estimate(job, quiet)
    assert est.past_runs == 0 and est.model_error == MODEL_ERROR_FLOOR
    assert est.seconds_high >= est.seconds * (1 + MODEL_ERROR_FLOOR)
    assert est.seconds_low <= est.seconds * (1 - MODEL_ERROR_FLOOR)
    # the bench's actual against its estimate: the actual that fell outside the two-term interval is inside
    scaled = 4.43 / 5.01 * est.seconds
    assert est.seconds_low <= scaled <= est.seconds_high
    assert estimate(job, quiet) == est  # deterministic
    # past errors smaller than the floor do not narrow it
    assert estimate(job, quiet, [0.01, -0.02]).seconds_high == est.seconds_high


def past_run(ws, name: str, est_seconds: float, actual_seconds: float, *, calls: int = 1) -> int:
    """A finished run whose card holds an estimate and its actual, written by the writers a
    job uses (runs.record_estimate, runs.record_actual)."""
    from engine.llm.runs.run import open_run

    model = ws.query("SELECT * FROM models WHERE name = 'fake'")[0]  # fresh() added it
    run = open_run(ws, "answer", model, {"template": name})
    cal = Calibration(4, 40, 1.0, 4.0, (4, 4, 4, 4), prompt_seconds_after=1.0)
    est = dataclasses.replace(estimate(reqs(10), cal), seconds=est_seconds)
    record_estimate(ws, run, est, cal)
    for _ in range(calls):
        record_actual(ws, run, seconds=actual_seconds / calls, items=10 // calls, output_tokens=40)
    return run


def test_past_runs_errors_widen_the_interval(tmp_path):
    """Past runs of the model that missed by 30 % and 40 % widen the next estimate's
    interval to the 90 % quantile of their errors; a resumed run (two calls), a run under a
    second and other models' runs are not counted."""
    ws, _ = fresh(tmp_path, "history")
    model = ws.scalar("SELECT id FROM models WHERE name = 'fake'")
    assert past_errors(ws, model) == []
    past_run(ws, "slow", 100.0, 130.0)
    past_run(ws, "fast", 50.0, 30.0)
    past_run(ws, "resumed", 10.0, 90.0, calls=2)
    past_run(ws, "tiny", 0.1, 0.5)
    other = past_run(ws, "other model", 10.0, 100.0)
    with ws.transaction() as conn:
        conn.execute(
            "INSERT INTO models(name, kind, path, sha256, added_at) "
            "VALUES ('other', 'gguf', '/nowhere/other.gguf', 'abc', 'now')"
        )
        conn.execute("UPDATE runs SET model_id = last_insert_rowid() WHERE id = ?", (other,))
    errors = past_errors(ws, model)
    assert [round(e, 6) for e in errors] == [-0.4, 0.3]  # newest first
    assert past_errors(ws, None) == []

    cal = Calibration(4, 40, 1.0, 4.0, (4, 4, 4, 4), prompt_seconds_after=1.0)
    job = [Request(key=str(i), prompt="y" * 10, sampler=Sampler(max_tokens=8)) for i in range(40)]
    floor, learnt = estimate(job, cal), estimate(job, cal, errors)
    assert learnt.seconds == floor.seconds and learnt.past_runs == 2
    assert learnt.model_error == 0.4  # ceil(0.9 * 2) = the 2nd smallest |error|
    assert abs(learnt.seconds_high - learnt.seconds * 1.4) < 1e-6
    assert abs(learnt.seconds_low - learnt.seconds * 0.6) < 1e-6
    assert learnt.seconds_high > floor.seconds_high
    assert estimate(job, cal, errors) == learnt  # deterministic


def test_a_job_estimate_learns_from_the_workspace(tmp_path):
    """run_job's own estimate reads the model's past runs: a past miss by 50 % is in the
    interval recorded in the next run's card."""
    ws, run = fresh(tmp_path, "learning")
    past_run(ws, "missed", 10.0, 15.0)
    run_job(ws, run, BatchSensitive(), reqs(12), estimate=True)
    timing = json.loads(ws.scalar("SELECT card FROM runs WHERE id = ?", (run,)))["plan_timing"]
    assert timing["estimate"]["past_runs"] == 1 and timing["estimate"]["model_error"] == 0.5


def test_calibration_passes_the_prompts_twice_and_stops_on_cancel(tmp_path):
    backend = BatchSensitive()
    cal = calibrate(backend, reqs(10), progress=lambda *a, **k: None)
    assert len(backend.calls) == 3 and backend.calls[0] == backend.calls[2]
    assert cal.prompt_seconds_after is not None and cal.noise >= 0
    with pytest.raises(CalibrationCancelled):
        calibrate(BatchSensitive(), reqs(10), cancelled=lambda: True)


def test_capture_plans_records_the_runs_without_running_them(tmp_path):
    """A stage function inside capture_plans decodes and writes nothing; what is left of a
    run counts its finished items out (whole plan groups stay, as run_job decodes them)."""
    from engine.llm.runs.estimates import capture_plans, left_to_decode
    from engine.llm.runs.model_runs import PlannedRun, run_models

    ws, run = fresh(tmp_path, "captured")
    model = ws.query("SELECT * FROM models")[0]
    job = reqs(10)
    planned = PlannedRun("answer", {"template": "t"}, job)
    with capture_plans() as plans:
        assert run_models(ws, [model], lambda m: [planned]) == []
    assert plans == [(model, planned)]
    assert ws.scalar("SELECT count(*) FROM responses") == 0
    assert len(left_to_decode(ws, planned, model, 4)) == 10
    # the first plan group finished: it is left out; the others are decoded whole
    run_job(ws, run, BatchSensitive(), job[:4])
    assert [r.key for r in left_to_decode(ws, planned, model, 4)] == [r.key for r in job[4:]]
    run_job(ws, run, BatchSensitive(), [job[5]])
    assert len(left_to_decode(ws, planned, model, 4)) == 6  # i05's group has i04, i06, i07
    assert len(left_to_decode(ws, planned, model, None)) == 5  # no plan: only what is left
