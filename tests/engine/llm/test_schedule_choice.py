"""The batch schedule chosen per kind, model and machine: a fresh run's calibration times slot
refill against whole groups, takes the faster one and records it with its timings; the next
run of the kind on this machine opens the key the choice gives; a refill the user set, and a
run that has decoded items, keep their schedule; the bytes reproduce."""

from __future__ import annotations

import pytest

from engine.llm.models.registry import ensure_embedded_default, update_load_params
from engine.llm.planning import planner
from engine.llm.planning.schedule_choice import CANDIDATE_REFILLS, machine, remember, remembered
from engine.llm.runs.backend import follow_run_schedule
from engine.llm.runs.jobs import run_job
from engine.llm.runs.run import _hash, open_run, run_card
from engine.llm.types import Request, Sampler
from engine.workspace.store import Workspace
from tests.engine.llm.test_llm_plan_lease import BatchSensitive
from tests.engine.llm.test_llm_plan_lease import model_row as fake_model_row

N_SEQ = 2  # a refill group is 8 items: the calibration's sample
QUESTIONS = ("রাজধানী কী?", "Inflation?", "A river?", "Rain?")


def make_requests(n: int = 8) -> list[Request]:
    return [
        Request(
            key=f"q{i:02d}",
            prompt=f"Q{i}: {QUESTIONS[i % len(QUESTIONS)]}\nA:",
            sampler=Sampler(max_tokens=1 + i % 4),
        )
        for i in range(n)
    ]


def embedded_row(ws: Workspace) -> dict:
    model_id = ensure_embedded_default(ws)
    return ws.query("SELECT * FROM models WHERE id = ?", (model_id,))[0]


@pytest.fixture(scope="module")
def loaded():
    """One loaded model for the module; each run gets its own card's refill, as the
    per-model run loop gives it (run_backend.follow_run_schedule)."""
    from engine.llm.models.embedded_model import embedded_model_path, embedded_sha256
    from engine.llm.models.settings import Schedule
    from engine.llm.runtime.local_backend import LocalGGUFBackend

    path, sha = embedded_model_path(), embedded_sha256()
    with LocalGGUFBackend(path, sha256=sha, schedule=Schedule(n_seq=N_SEQ)) as backend:
        yield backend


def decode(backend, ws: Workspace, run: int, requests: list[Request], **options):
    follow_run_schedule(ws, run, backend)
    return run_job(ws, run, backend, requests, **options), backend.schedule


def outputs(ws: Workspace, run: int) -> dict[str, str]:
    return dict(
        ws.conn.execute(
            "SELECT item_key, text FROM responses WHERE run_id = ? AND status = 'done'", (run,)
        ).fetchall()
    )


def card_of(n: str, **schedule) -> dict:
    return {"template": n, "schedule": {"n_seq": N_SEQ, **schedule}}


def test_a_fresh_run_of_a_small_job_takes_the_remembered_choice_else_the_default(tmp_path):
    ws = Workspace(tmp_path / "choice.sqlite")
    row = fake_model_row(ws)
    first = run_card(ws, open_run(ws, "answer", row, card_of("a")))
    assert first["schedule"]["refill"] == CANDIDATE_REFILLS[0]
    assert first["schedule_choice"]["by"] == "default"
    here = first["schedule_choice"]["machine"]
    assert here == machine(first["schedule"], {}) and here["cpu"] and here["threads"]
    remember(ws, "answer", row["sha256"], N_SEQ, here, 1, {"1": {}, "4": {}})
    second = open_run(ws, "answer", row, card_of("b"))
    card = run_card(ws, second)
    assert card["schedule"]["refill"] == 1 and card["schedule_choice"]["by"] == "remembered"
    assert (
        ws.scalar("SELECT run_key FROM runs WHERE id = ?", (second,))
        == (card["schedule_choice"]["keys"]["1"])
    )
    # another kind, another n_seq or another machine has no choice yet
    assert run_card(ws, open_run(ws, "judge", row, card_of("b")))["schedule"]["refill"] == 4
    assert remembered(ws, "answer", row["sha256"], N_SEQ, {**here, "threads": 99}) is None
    # a refill the user set is the run's, whatever was chosen
    kept = run_card(ws, open_run(ws, "answer", row, card_of("c", refill=2)))
    assert kept["schedule"]["refill"] == 2 and kept["schedule_choice"] == {"by": "set"}


@pytest.mark.slow
def test_the_calibration_chooses_records_and_the_next_run_reuses_the_choice(tmp_path, loaded):
    ws = Workspace(tmp_path / "calibrated.sqlite")
    row = embedded_row(ws)
    run = open_run(ws, "answer", row, card_of("t"))
    summary, schedule = decode(loaded, ws, run, make_requests(), estimate=True)
    assert summary.complete
    card = run_card(ws, run)
    choice, chosen = card["schedule_choice"], card["schedule"]["refill"]
    assert choice["by"] == "calibration" and chosen == choice["refill"] == schedule.refill
    assert set(choice["timings"]) == {"4", "1"}
    rates = {int(k): t for k, t in choice["timings"].items()}
    # the faster one, or the default where the difference is within the machine's noise
    assert chosen in (max(rates, key=lambda r: rates[r]["output_tokens_per_s"]), 4)
    assert all(t["seconds"] > 0 for t in rates.values()) and choice["noise"] >= 0
    assert card["plan_size"] == N_SEQ * chosen
    assert card["plan_timing"]["estimate"]["calibration"]["refill"] == chosen
    assert ws.scalar("SELECT run_key FROM runs WHERE id = ?", (run,)) == choice["keys"][str(chosen)]
    assert remembered(ws, "answer", row["sha256"], N_SEQ, choice["machine"])["refill"] == chosen

    # the same kind, model and card on this machine opens the same run, decided already
    assert open_run(ws, "answer", row, card_of("t")) == run
    again, _ = decode(loaded, ws, run, make_requests(), estimate=True)
    assert (again.done_before, again.done_now) == (8, 0)
    assert run_card(ws, run)["schedule_choice"]["timings"] == choice["timings"]

    # a fresh workspace on this machine with the same choice gives the same bytes
    ws2 = Workspace(tmp_path / "fresh.sqlite")
    row2 = embedded_row(ws2)
    remember(ws2, "answer", row2["sha256"], N_SEQ, choice["machine"], chosen, choice["timings"])
    fresh = open_run(ws2, "answer", row2, card_of("t"))
    assert run_card(ws2, fresh)["schedule"]["refill"] == chosen
    decode(loaded, ws2, fresh, make_requests())
    assert outputs(ws2, fresh) == outputs(ws, run)


@pytest.mark.slow
def test_a_set_refill_and_a_run_with_decoded_items_keep_their_schedule(tmp_path, loaded):
    ws = Workspace(tmp_path / "kept.sqlite")
    row = embedded_row(ws)
    # the user's refill in the model's load parameters: calibrated, never overridden
    update_load_params(ws, row["id"], refill=2)
    row = embedded_row(ws)
    set_run = open_run(ws, "answer", row, card_of("set"))
    summary, schedule = decode(loaded, ws, set_run, make_requests(), estimate=True)
    card = run_card(ws, set_run)
    assert summary.estimate and schedule.refill == 2 and card["schedule"]["refill"] == 2
    assert card["schedule_choice"] == {"by": "set"} and card["plan_size"] == N_SEQ * 2
    assert ws.scalar("SELECT count(*) FROM llm_schedule_choices") == 0
    update_load_params(ws, row["id"], refill=None)
    row = embedded_row(ws)

    # interrupted with the default schedule: its first group decoded, the rest skipped
    requests = make_requests(16)
    run = open_run(ws, "answer", row, card_of("resume"))
    key = ws.scalar("SELECT run_key FROM runs WHERE id = ?", (run,))
    decode(loaded, ws, run, requests, skip={r.key for r in requests[8:]}, estimate=False)
    # meanwhile another job on this machine chose whole groups for the kind
    here = run_card(ws, run)["schedule_choice"]["machine"]
    remember(ws, "answer", row["sha256"], N_SEQ, here, 1, {})
    assert open_run(ws, "answer", row, card_of("resume")) == run  # found under its own refill
    summary, schedule = decode(loaded, ws, run, requests, estimate=True)
    card = run_card(ws, run)
    assert summary.complete and schedule.refill == 4 and card["schedule"]["refill"] == 4
    assert card["schedule_choice"]["by"] == "default"
    assert ws.scalar("SELECT run_key FROM runs WHERE id = ?", (run,)) == key
    # the same bytes as an uninterrupted run with that schedule
    ws2 = Workspace(tmp_path / "whole.sqlite")
    row2 = embedded_row(ws2)
    whole = open_run(ws2, "answer", row2, card_of("resume"))
    decode(loaded, ws2, whole, requests, estimate=False)
    assert outputs(ws2, whole) == outputs(ws, run)
    assert key == _hash(
        {
            "kind": "answer",
            "model": row["sha256"],
            "card": card_of("resume"),
            "schedule": {
                k: v for k, v in run_card(ws2, whole)["schedule"].items() if k != "n_threads"
            },
            "model_id": row["id"],
        }
    )


class Clocked(BatchSensitive):
    """Fault injection of time: each call advances a fake clock by what ``cost`` says for its
    group, so which schedule is faster is known (``cost(group size)`` seconds)."""

    def __init__(self, cost, **schedule):
        super().__init__(**schedule)
        self.cost, self.now = cost, 0.0

    def generate(self, requests, *, progress=None, cancelled=None):
        requests = list(requests)
        self.now += self.cost(len(requests))
        yield from super().generate(requests, progress=progress, cancelled=cancelled)


@pytest.mark.parametrize(("slow_size", "faster"), [(16, 1), (4, 4)])
def test_the_calibration_takes_the_faster_schedule_timing_them_interleaved(
    monkeypatch, slow_size, faster
):
    backend = Clocked(lambda size: 10.0 if size == slow_size else 1.0, n_seq=4)
    monkeypatch.setattr(planner.time, "perf_counter", lambda: backend.now)
    job = [Request(key=f"k{i:02d}", prompt="p", sampler=Sampler(max_tokens=2)) for i in range(40)]
    cal = planner.calibrate(backend, job, refills=CANDIDATE_REFILLS)
    assert cal.items == 16 and cal.refill == faster
    # the prompts pass, whole groups of 4 around the one refill group of 16, the prompts again
    assert [len(c) for c in backend.calls] == [16, 4, 4, 16, 4, 4, 16]
    assert cal.schedules[4]["seconds"] == (10.0 if slow_size == 16 else 1.0)
    assert cal.schedules[1]["seconds"] == (40.0 if slow_size == 4 else 4.0)
    assert cal.seconds == cal.schedules[faster]["seconds"]
    # without candidates, or with one group whichever the schedule, one full pass as before
    assert planner.calibrate(backend, job).refill is None
    backend.calls.clear()
    assert planner.calibrate(backend, job[:4], refills=CANDIDATE_REFILLS).refill is None
    assert [len(c) for c in backend.calls] == [4, 4, 4]


def test_a_difference_within_the_machines_noise_keeps_the_default():
    rates = {4: {"output_tokens_per_s": 100.0}, 1: {"output_tokens_per_s": 110.0}}
    assert planner.fastest(rates) == 1
    assert planner.fastest(rates, noise=0.05) == 4  # 10 % is within 1.645 * sqrt(2) * 5 %
    assert planner.fastest({**rates, 1: {"output_tokens_per_s": 120.0}}, noise=0.05) == 1
    assert planner.fastest({4: {"output_tokens_per_s": 100.0}, 1: {"output_tokens_per_s": 90}}) == 4


@pytest.mark.slow
def test_the_estimate_dialog_compares_the_schedules_and_writes_nothing(tmp_path, monkeypatch):
    from engine.llm.runs import estimates as run_estimates
    from engine.llm.runs.model_runs import PlannedRun

    monkeypatch.setattr(run_estimates, "ESTIMATE_MIN_ITEMS", 8)  # as a long job would
    ws = Workspace(tmp_path / "dialog.sqlite")
    row = embedded_row(ws)
    planned = [PlannedRun("answer", card_of("dialog"), make_requests())]
    result = run_estimates.estimate_planned(ws, row, planned)
    assert result["schedule"]["by"] == "calibration"
    assert result["schedule"]["refill"] == result["calibration"]["refill"]
    assert set(result["schedule"]["timings"]) == {"4", "1"}
    assert ws.scalar("SELECT count(*) FROM runs") == 0
    assert ws.scalar("SELECT count(*) FROM llm_schedule_choices") == 0
    # a remembered choice is what the dialog estimates, without comparing again
    here = run_card(ws, open_run(ws, "answer", row, card_of("x")))["schedule_choice"]["machine"]
    remember(ws, "answer", row["sha256"], N_SEQ, here, 1, {})
    again = run_estimates.estimate_planned(ws, row, planned)
    assert again["schedule"] == {"refill": 1, "by": "remembered"}
    assert again["calibration"]["refill"] is None
