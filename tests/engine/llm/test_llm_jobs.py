"""Jobs on the real embedded model: runs, resume, cache, per-item errors, cancel."""

from __future__ import annotations

import pytest

from engine.llm.models.registry import ensure_embedded_default
from engine.llm.runs.backend import backend_for_run
from engine.llm.runs.jobs import run_job
from engine.llm.runs.run import open_run, run_card
from engine.llm.types import Request, Result, Sampler

pytestmark = pytest.mark.slow

QUESTIONS = [
    "বাংলাদেশের রাজধানী কী?",
    "সালোকসংশ্লেষণ কী?",
    "কম্পিউটার কীভাবে কাজ করে?",
    "What is inflation?",
    "Name three rivers of Bangladesh.",
    "ভাইরাস কী?",
]


def make_requests(n=6, max_tokens=8, **sampler):
    return [
        Request(
            key=f"q{i}",
            prompt=f"Question: {QUESTIONS[i % len(QUESTIONS)]}\nAnswer:",
            sampler=Sampler(max_tokens=max_tokens, **sampler),
        )
        for i in range(n)
    ]


@pytest.fixture
def model_row(workspace, embedded_gguf):
    model_id = ensure_embedded_default(workspace)
    return workspace.query("SELECT * FROM models WHERE id = ?", (model_id,))[0]


@pytest.fixture(scope="module")
def shared_backend():
    """One worker for the module (loading is the slow part)."""
    from engine.llm.models.embedded_model import embedded_model_path, embedded_sha256
    from engine.llm.models.settings import Schedule
    from engine.llm.runtime.local_backend import LocalGGUFBackend

    backend = LocalGGUFBackend(
        embedded_model_path(), sha256=embedded_sha256(), schedule=Schedule(n_seq=4)
    )
    yield backend
    backend.close()


def test_open_run_key(workspace, model_row):
    card = {"template": "abc", "sampler": {"temperature": 0}, "schedule": {"n_seq": 4}}
    a = open_run(workspace, "answer", model_row, card)
    assert open_run(workspace, "answer", model_row, dict(card)) == a
    assert open_run(workspace, "answer", model_row, {**card, "template": "abd"}) != a
    assert open_run(workspace, "answer", model_row, {**card, "schedule": {"n_seq": 8}}) != a
    assert open_run(workspace, "judge", model_row, card) != a
    stored = run_card(workspace, a)
    assert stored["schedule"]["n_seq"] == 4 and stored["schedule"]["n_batch"] == 512
    assert stored["versions"]["llama-cpp-python"]
    assert stored["model"]["identity"] == model_row["sha256"]
    # where tokens are sampled is on the card, not in the key (seeded chains keep the host's
    # random stream)
    assert stored["sampling"]["seeded"] == "host"
    assert stored["sampling"]["greedy"] in ("backend", "host")


def test_run_resume_and_cache(workspace, model_row, shared_backend):
    run = open_run(workspace, "answer", model_row, {"template": "t1", "schedule": {"n_seq": 4}})
    seen = []
    s = run_job(
        workspace,
        run,
        shared_backend,
        make_requests(),
        batch_size=4,
        progress=lambda d, t, n: seen.append((d, t, n)),
    )
    assert (s.total, s.done_before, s.done_now, s.errors, s.cached) == (6, 0, 6, 0, 0)
    assert seen[-1][:2] == (6, 6) and any("tok/s" in n for _, _, n in seen)
    assert workspace.scalar("SELECT status FROM runs WHERE id = ?", (run,)) == "done"
    again = run_job(workspace, run, shared_backend, make_requests())
    assert (again.done_before, again.done_now) == (6, 0)
    # a new run with the same greedy requests is served from the cache
    run2 = open_run(workspace, "answer", model_row, {"template": "t2", "schedule": {"n_seq": 4}})
    s2 = run_job(workspace, run2, shared_backend, make_requests())
    assert s2.cached == 6
    texts = lambda r: workspace.query(
        "SELECT item_key, text FROM responses WHERE run_id = ? ORDER BY item_key", (r,)
    )
    assert texts(run) == texts(run2)
    # sampled requests never touch the cache
    run3 = open_run(workspace, "answer", model_row, {"template": "t3", "schedule": {"n_seq": 4}})
    s3 = run_job(workspace, run3, shared_backend, make_requests(temperature=0.8, seed=7))
    assert s3.cached == 0 and s3.done_now == 6
    assert workspace.scalar("SELECT count(*) FROM response_cache") == 6
    assert workspace.integrity_ok()


class FailingFirst:
    """Fault injection: wraps the real backend and fails chosen items once."""

    def __init__(self, backend, fail_keys):
        self.backend, self.fail_keys = backend, set(fail_keys)

    def info(self):
        return self.backend.info()

    def generate(self, requests, progress=None, cancelled=None):
        for r in self.backend.generate(requests, progress=progress, cancelled=cancelled):
            if r.key in self.fail_keys:
                self.fail_keys.discard(r.key)
                yield Result(r.key, None, finish_reason="error", error="injected failure")
            else:
                yield r


def test_errors_are_recorded_and_retried(workspace, model_row, shared_backend):
    run = open_run(workspace, "answer", model_row, {"template": "err"})
    s = run_job(
        workspace, run, FailingFirst(shared_backend, {"q1", "q4"}), make_requests(), use_cache=False
    )
    assert (s.done_now, s.errors, s.complete) == (4, 2, False)
    rows = workspace.query(
        "SELECT item_key, status, error, attempts, text FROM responses "
        "WHERE run_id = ? AND status = 'error' ORDER BY item_key",
        (run,),
    )
    assert [(r["item_key"], r["error"], r["attempts"], r["text"]) for r in rows] == [
        ("q1", "injected failure", 1, None),
        ("q4", "injected failure", 1, None),
    ]
    s = run_job(workspace, run, shared_backend, make_requests(), use_cache=False)
    assert (s.done_before, s.done_now, s.errors, s.complete) == (4, 2, 0, True)
    rows = workspace.query(
        "SELECT item_key, status, attempts FROM responses WHERE run_id = ? "
        "AND item_key IN ('q1', 'q4')",
        (run,),
    )
    assert all(r["status"] == "done" and r["attempts"] == 2 for r in rows)
    assert workspace.scalar("SELECT count(*) FROM responses WHERE run_id = ?", (run,)) == 6


def test_cancel_then_resume(workspace, model_row):
    run = open_run(workspace, "answer", model_row, {"template": "cancel", "schedule": {"n_seq": 2}})
    backend = backend_for_run(workspace, run)
    try:
        results = []
        s = run_job(
            workspace,
            run,
            backend,
            make_requests(8, max_tokens=16),
            batch_size=1,
            progress=lambda d, t, n: results.append(d),
            cancelled=lambda: (
                workspace.scalar("SELECT count(*) FROM responses WHERE run_id = ?", (run,)) >= 2
            ),
        )
        assert s.cancelled and 2 <= s.done_now < 8
        s = run_job(workspace, run, backend, make_requests(8, max_tokens=16))
        assert s.complete and s.done_before + s.done_now == 8
    finally:
        backend.close()
    assert workspace.scalar("SELECT count(*) FROM responses WHERE run_id = ?", (run,)) == 8
