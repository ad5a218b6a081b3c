"""The study-time planner: a calibration on a sample of the job, scaled to the job, and
estimate and actual side by side in the run card."""

import json

from engine.llm.jobs import record_estimate, run_job
from engine.llm.planner import Calibration, calibrate, calibration_sample, estimate
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
