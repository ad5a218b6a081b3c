"""Reproducible runs without a model: a fake backend whose outputs depend on the items it
decodes together (as batching does on llama.cpp) gives the same bytes uninterrupted, after
a crash and resume, and in a fresh workspace, because the batch plan depends on the items
only; the cache is keyed by the plan; a run is leased to one process; a failed job leaves
no empty run row."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import socket
import time

import pytest

from engine.errors import UserError
from engine.llm.models.settings import Schedule
from engine.llm.planning.batch_plan import plan_cache_keys, plan_groups
from engine.llm.runs import leases
from engine.llm.runs import run as runs
from engine.llm.runs.jobs import run_job, run_job_on_model
from engine.llm.runs.run import open_run
from engine.llm.types import ModelInfo, Request, Result, Sampler
from engine.workspace import stages
from engine.workspace.store import Workspace


class BatchSensitive:
    """Each call decodes its requests together; an output depends on the item *and* on
    its neighbours, like floating-point sums in a batch. ``crash_after`` simulates a killed
    worker: after that many results every other item of the call is an error."""

    def __init__(self, n_seq: int = 4, crash_after: int | None = None, refill: int = 1):
        self.schedule = Schedule(n_seq=n_seq, refill=refill).resolved()
        self.crash_after = crash_after
        self.calls: list[list[str]] = []

    def info(self):
        return ModelInfo("batch-sensitive", "fake", has_chat_template=False)

    def generate(self, requests, *, progress=None, cancelled=None):
        keys = [r.key for r in requests]
        self.calls.append(keys)
        company = hashlib.sha256("|".join(keys).encode()).hexdigest()[:6]
        for i, r in enumerate(requests):
            if self.crash_after is not None and i >= self.crash_after:
                yield Result(r.key, None, finish_reason="error", error="worker died (test)")
                continue
            yield Result(r.key, f"{r.key}@{company}", completion_tokens=2, finish_reason="stop")
        if self.crash_after is not None:
            self.crash_after = None  # the next call has a fresh worker

    def close(self):
        pass


def model_row(ws) -> dict:
    with ws.transaction() as conn:
        conn.execute(
            "INSERT INTO models(name, kind, path, sha256, added_at) "
            "VALUES ('fake', 'gguf', '/nowhere/fake.gguf', 'f' || hex(randomblob(8)), 'now')"
        )
    return ws.query("SELECT * FROM models WHERE name = 'fake'")[0]


def requests(n: int) -> list[Request]:
    return [Request(key=f"i{i:02d}", prompt=f"q{i}", sampler=Sampler()) for i in range(n)]


def outputs(ws: Workspace, run: int) -> dict[str, str]:
    return {
        r["item_key"]: r["text"]
        for r in ws.query(
            "SELECT item_key, text FROM responses WHERE run_id = ? AND status = 'done'", (run,)
        )
    }


def fresh(tmp_path, name: str) -> tuple[Workspace, int]:
    ws = Workspace(tmp_path / f"{name}.sqlite")
    return ws, open_run(ws, "answer", model_row(ws), {"template": "t"})


def test_plan_depends_on_the_items_only():
    reqs = requests(10)
    groups = plan_groups(reqs, 4)
    assert [[r.key for r in g] for g in groups] == [
        ["i00", "i01", "i02", "i03"],
        ["i04", "i05", "i06", "i07"],
        ["i08", "i09"],
    ]
    keys = plan_cache_keys(groups, "m", {"n_seq": 4})
    assert keys == plan_cache_keys(plan_groups(reqs, 4), "m", {"n_seq": 4})
    # another neighbour, another schedule: another key (the bytes could differ)
    other = plan_cache_keys(plan_groups(reqs[:9] + requests(11)[10:], 4), "m", {"n_seq": 4})
    assert other["i08"] != keys["i08"] and other["i00"] == keys["i00"]
    assert plan_cache_keys(plan_groups(reqs, 2), "m", {"n_seq": 2})["i00"] != keys["i00"]
    # no plan (endpoints): the plain request key
    assert plan_cache_keys([reqs], "m", None)["i00"] == reqs[0].cache_key("m")


def test_crash_and_resume_gives_the_uninterrupted_bytes(tmp_path):
    ws_a, run_a = fresh(tmp_path, "uninterrupted")
    s = run_job(ws_a, run_a, BatchSensitive(), requests(10))
    assert s.complete
    reference = outputs(ws_a, run_a)

    ws_b, run_b = fresh(tmp_path, "crashed")
    backend = BatchSensitive(crash_after=2)  # the worker dies inside the first group
    s = run_job(ws_b, run_b, backend, requests(10))
    assert not s.complete and s.errors == 2
    resumed = BatchSensitive()
    s = run_job(ws_b, run_b, resumed, requests(10))
    assert s.complete
    # only the group with failed items is decoded again, whole, with its finished items
    assert resumed.calls == [["i00", "i01", "i02", "i03"]]
    assert outputs(ws_b, run_b) == reference

    ws_c, run_c = fresh(tmp_path, "fresh-again")
    run_job(ws_c, run_c, BatchSensitive(), requests(10))
    assert outputs(ws_c, run_c) == reference


def test_refill_groups_reproduce_after_a_crash(tmp_path):
    """With slot refill a plan group is n_seq * refill items decoded in one call (the
    scheduler refills freed slots from it); a crash inside it redecodes that group whole."""
    ws_a, run_a = fresh(tmp_path, "refill-reference")
    first = BatchSensitive(n_seq=2, refill=3)
    assert run_job(ws_a, run_a, first, requests(10)).complete
    assert [len(c) for c in first.calls] == [6, 4]
    ws_b, run_b = fresh(tmp_path, "refill-crashed")
    assert not run_job(
        ws_b, run_b, BatchSensitive(n_seq=2, refill=3, crash_after=4), requests(10)
    ).complete
    resumed = BatchSensitive(n_seq=2, refill=3)
    assert run_job(ws_b, run_b, resumed, requests(10)).complete
    assert resumed.calls == [[f"i{i:02d}" for i in range(6)]]
    assert outputs(ws_b, run_b) == outputs(ws_a, run_a)
    # the whole-group rule (refill 1) is another plan: other neighbours, other bytes
    ws_c, run_c = fresh(tmp_path, "refill-one")
    run_job(ws_c, run_c, BatchSensitive(n_seq=2, refill=1), requests(10))
    assert outputs(ws_c, run_c)["i00"] != outputs(ws_a, run_a)["i00"]


def test_refill_is_a_schedule_setting():
    assert Schedule().resolved().refill == 4
    with pytest.raises(UserError, match="refill"):
        Schedule(refill=0).resolved()


def test_the_old_way_did_not_reproduce(tmp_path):
    """Control: decoding only the pending items (no plan) gives other bytes on resume."""
    ws, run = fresh(tmp_path, "control")
    ref_ws, ref_run = fresh(tmp_path, "control-ref")
    run_job(ref_ws, ref_run, BatchSensitive(n_seq=10), requests(10))
    run_job(ws, run, BatchSensitive(n_seq=10, crash_after=3), requests(10))
    backend = BatchSensitive(n_seq=10)
    run_job(ws, run, backend, requests(10))
    assert backend.calls == [[f"i{i:02d}" for i in range(10)]]  # whole group again
    assert outputs(ws, run) == outputs(ref_ws, ref_run)
    # what a pending-only resume would have decoded: a different company, other bytes
    pending_only = list(BatchSensitive(n_seq=10).generate(requests(10)[3:]))
    assert pending_only[0].text != outputs(ref_ws, ref_run)["i03"]


def test_cache_reuses_a_reply_only_within_the_same_plan(tmp_path):
    ws, run = fresh(tmp_path, "cache")
    run_job(ws, run, BatchSensitive(), requests(8))
    other = open_run(ws, "answer", ws.query("SELECT * FROM models")[0], {"template": "other"})
    again = BatchSensitive()
    s = run_job(ws, other, again, requests(8))
    assert s.cached == 8 and again.calls == []
    third = open_run(ws, "answer", ws.query("SELECT * FROM models")[0], {"template": "third"})
    shifted = BatchSensitive()
    s = run_job(ws, third, shifted, requests(9)[1:])  # same prompts, other neighbours
    assert s.cached == 0 and len(shifted.calls) == 2


def _exit_now():
    pass


def test_a_run_is_leased_to_one_process(tmp_path):
    ws, run = fresh(tmp_path, "lease")
    # another live process on this host holds it
    holder = f"{socket.gethostname()}:{os.getppid()}"
    with ws.transaction() as conn:
        conn.execute(
            "UPDATE runs SET lease_owner = ?, lease_heartbeat = ? WHERE id = ?",
            (holder, time.time(), run),
        )
    backend = BatchSensitive()
    with pytest.raises(UserError, match=rf"run {run} is being decoded by process {os.getppid()}"):
        run_job(ws, run, backend, requests(4))
    assert backend.calls == [] and outputs(ws, run) == {}
    # a holder that died (same host, no such process) is taken over
    proc = multiprocessing.get_context("spawn").Process(target=_exit_now)
    proc.start()
    proc.join()
    with ws.transaction() as conn:
        conn.execute(
            "UPDATE runs SET lease_owner = ? WHERE id = ?",
            (f"{socket.gethostname()}:{proc.pid}", run),
        )
    assert run_job(ws, run, backend, requests(4)).complete
    # released when done; a silent holder elsewhere expires after the TTL
    assert ws.scalar("SELECT lease_owner FROM runs WHERE id = ?", (run,)) is None
    with ws.transaction() as conn:
        conn.execute(
            "UPDATE runs SET lease_owner = 'other-host:1', lease_heartbeat = ? WHERE id = ?",
            (time.time() - leases.LEASE_TTL_S - 1, run),
        )
    assert run_job(ws, run, backend, requests(4)).complete


def test_a_job_that_fails_before_any_result_leaves_no_run_row(tmp_path, monkeypatch):
    ws, run = fresh(tmp_path, "failed")

    def no_model(ws, run_id, **kw):
        raise UserError("cannot load model: file is gone")

    monkeypatch.setattr("engine.llm.runs.backend.backend_for_run", no_model)
    with pytest.raises(UserError, match="file is gone"):
        run_job_on_model(ws, run, requests(3))
    assert ws.scalar("SELECT count(*) FROM runs") == 0
    # a run that stored something is kept
    ws2, run2 = fresh(tmp_path, "kept")
    run_job(ws2, run2, BatchSensitive(crash_after=1), requests(3))
    monkeypatch.setattr("engine.llm.runs.backend.backend_for_run", no_model)
    with pytest.raises(UserError):
        run_job_on_model(ws2, run2, requests(3))
    assert ws2.scalar("SELECT count(*) FROM runs") == 1
    assert json.loads(ws2.query("SELECT card FROM runs")[0]["card"])["template"] == "t"


def test_a_run_another_stage_holds_is_not_dropped_as_empty(tmp_path):
    """A judgment or a drafted variant that points at a run keeps it (their stages'
    ``RUN_HOLDERS``); once nothing points at it, the open run without responses is dropped."""
    ws, run = fresh(tmp_path, "held")
    with ws.transaction() as conn:  # a machine draft of the run
        conn.execute("INSERT INTO question_sets(name, created_at) VALUES ('q', 'now')")
        conn.execute("INSERT INTO questions(set_id, text, text_key) VALUES (1, 'প্রশ্ন', 'প্রশ্ন')")
        conn.execute(
            "INSERT INTO variants(question_id, dialect, text, provenance, run_id, updated_at) "
            "VALUES (1, 'sylhet', 'খসড়া', 'machine', ?, 'now')",
            (run,),
        )
    assert not runs.discard_if_empty(ws, run)
    assert ws.scalar("SELECT count(*) FROM runs") == 1
    with ws.transaction() as conn:
        conn.execute("UPDATE variants SET run_id = NULL WHERE run_id = ?", (run,))
    assert runs.discard_if_empty(ws, run)
    assert ws.scalar("SELECT count(*) FROM runs") == 0


def test_the_stages_that_own_what_keeps_a_run_declare_it():
    held = " ".join(stages.run_holders())
    assert "FROM judgments" in held and "FROM variants" in held


class Plain(BatchSensitive):
    """No batch schedule (an endpoint): neighbours do not change outputs."""

    def __init__(self, crash_after=None):
        super().__init__(crash_after=crash_after)
        self.schedule = None


def test_without_a_plan_only_what_is_left_is_generated(tmp_path):
    ws, run = fresh(tmp_path, "plain")
    run_job(ws, run, Plain(crash_after=3), requests(6))
    again = Plain()
    assert run_job(ws, run, again, requests(6)).complete
    assert again.calls == [["i03", "i04", "i05"]]  # no finished item asked (or paid for) again


def test_a_larger_limit_gives_a_fresh_runs_bytes(tmp_path):
    """#22: growing a run by a larger --limit must not mix batch plans. Growth by whole
    groups extends the run; growth that refills a decoded group opens a new run (and says
    so); either way the outputs equal a fresh run's at the new size."""
    card = {"template": "t", "schedule": {"n_seq": 4, "refill": 1}}

    def run_at(ws, n):
        run = open_run(ws, "answer", ws.query("SELECT * FROM models")[0], card, requests(n))
        return run, run_job(ws, run, BatchSensitive(n_seq=4), requests(n))

    ref = Workspace(tmp_path / "fresh.sqlite")
    model_row(ref)
    fresh_10 = outputs(ref, run_at(ref, 10)[0])
    ws = Workspace(tmp_path / "grown.sqlite")
    model_row(ws)
    first, _ = run_at(ws, 6)  # groups [0-3] [4-5]
    grown, summary = run_at(ws, 10)  # [4-7] now: items 4 and 5 would change
    assert grown != first and "new run" in summary.counts()["note"]
    assert outputs(ws, first)["i04"] != fresh_10["i04"]  # extending run 1 would differ
    assert outputs(ws, grown) == fresh_10
    assert run_at(ws, 10)[0] == grown  # and it is resumed as that run
    # growth by whole groups extends the same run
    ws2 = Workspace(tmp_path / "whole.sqlite")
    model_row(ws2)
    run8, _ = run_at(ws2, 8)
    run12, summary = run_at(ws2, 12)
    assert run12 == run8 and "note" not in summary.counts()
    ref12 = Workspace(tmp_path / "fresh12.sqlite")
    model_row(ref12)
    assert outputs(ws2, run12) == outputs(ref12, run_at(ref12, 12)[0])


def test_a_run_from_before_slot_refill_resumes_with_whole_groups(tmp_path):
    from engine.llm.runs.run import _hash, effective_schedule, model_identity, recorded_schedule

    ws = Workspace(tmp_path / "legacy.sqlite")
    row = model_row(ws)
    card = {"template": "t", "schedule": {"n_seq": 4}}
    # what open_run wrote before Schedule had 'refill'
    keyed = {k: v for k, v in effective_schedule(row, card).items() if k != "n_threads"}
    keyed.pop("refill")
    base = {"kind": "answer", "model": model_identity(row), "card": card, "schedule": keyed}
    stored = {**card, "schedule": {**keyed, "n_threads": 1}}
    with ws.transaction() as conn:
        conn.execute(
            "INSERT INTO runs(kind, run_key, model_id, card, status, created_at) "
            "VALUES ('answer', ?, ?, ?, 'open', 'now')",
            (_hash({**base, "model_id": row["id"]}), row["id"], json.dumps(stored)),
        )
    legacy = ws.scalar("SELECT id FROM runs")
    assert open_run(ws, "answer", row, card) == legacy
    assert recorded_schedule(stored)["refill"] == 1
    assert recorded_schedule({"schedule": {"n_seq": 4, "refill": 4}})["refill"] == 4


KILLED_MID_GROUP = """
import os, signal, sys
from engine.llm.runs.jobs import run_job
from engine.llm.runs.run import open_run
from engine.workspace import stages
from engine.workspace.store import Workspace
from tests.engine.llm.test_llm_plan_lease import BatchSensitive, model_row, requests

class KilledMidGroup(BatchSensitive):
    def generate(self, reqs, *, progress=None, cancelled=None):
        for i, r in enumerate(super().generate(reqs, progress=progress, cancelled=cancelled)):
            if i == 3:  # two results written (batch_size 2), then kill -9 inside the group
                os.kill(os.getpid(), signal.SIGKILL)
            yield r

ws = Workspace(sys.argv[1])
run = open_run(ws, "answer", model_row(ws), {"template": "t"})
run_job(ws, run, KilledMidGroup(n_seq=4, refill=2), requests(16), batch_size=2)
"""


def test_a_kill_inside_a_group_keeps_every_finished_items_group(tmp_path):
    """Found by bench/kill_resume.py: responses are written in batches inside a group, and
    the items' groups were recorded in another transaction at the group's end; a kill -9
    between them left finished items without their group for good (32 of 80 run-task items
    after two kills), so replicate could never sample them. Both go in one transaction."""
    import subprocess
    import sys
    from pathlib import Path

    from engine.llm.planning.plan_store import item_groups
    from engine.llm.runs.replicate import replicate_run

    path = tmp_path / "ws.sqlite"
    Workspace(path).close()
    repo = Path(__file__).resolve().parents[3]
    child = subprocess.run(
        [sys.executable, "-c", KILLED_MID_GROUP, str(path)], cwd=repo, capture_output=True
    )
    assert child.returncode == -9, child.stderr.decode()[-500:]
    with Workspace(path) as ws:
        run = ws.scalar("SELECT id FROM runs")
        finished = set(outputs(ws, run))
        assert len(finished) == 2 and finished <= set(item_groups(ws, run))
        backend = BatchSensitive(n_seq=4, refill=2)
        assert run_job(ws, run, backend, requests(16), batch_size=2).complete
        assert set(item_groups(ws, run)) == set(outputs(ws, run))
        again = replicate_run(ws, run, sample=16, backend=BatchSensitive(n_seq=4, refill=2))
        assert again.sample == 16 and again.identical == 16
