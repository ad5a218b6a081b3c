"""A judge whose worker dies mid-run gives the same judgments as one that does not: the
pairs that got no reply are asked again exactly as before (greedy, same batch group), not
with the sampled retry meant for invalid replies."""

from __future__ import annotations

import hashlib
import json

from engine.judging import store
from engine.judging.run import judge_answers
from engine.llm.models.settings import Schedule
from engine.llm.types import ModelInfo, Result
from engine.workspace.store import Workspace

from .study_fixture import build_study
from .test_judging_run import judge_model


class BatchSensitiveJudge:
    """Scores depend on the request, its sampler and its batch neighbours (like batched
    floats); ``die_after`` results into the first call, the worker dies."""

    def __init__(self, die_after=None):
        self.schedule = Schedule(n_seq=4).resolved()
        self.die_after = die_after
        self.calls = []

    def info(self):
        return ModelInfo("judge", "judge", has_chat_template=True)

    def generate(self, requests, *, progress=None, cancelled=None):
        self.calls.append([(r.key, r.sampler.greedy) for r in requests])
        company = "|".join(r.key for r in requests)
        for i, r in enumerate(requests):
            if self.die_after is not None and i >= self.die_after:
                yield Result(r.key, None, finish_reason="error", error="worker died")
                continue
            h = hashlib.sha256(f"{r.key}{r.sampler}{company}".encode()).digest()
            verdict = {
                "chain_of_thought_reasoning": "ok",
                **{
                    k: h[j] % 6
                    for j, k in enumerate(
                        ("comprehension", "correctness", "completeness", "clarity", "length")
                    )
                },
                "confidence": 1 + h[6] % 5,
            }
            yield Result(r.key, json.dumps(verdict), finish_reason="stop")
        self.die_after = None

    def close(self):
        pass


def judged(ws: Workspace, backend) -> dict:
    judge_answers(ws, judge_model(ws), backend_factory=lambda w, r: backend)
    return {
        r["response_id"]: (r["final"], r["confidence"])
        for r in ws.query("SELECT response_id, final, confidence FROM judgments")
    }


def test_a_worker_death_does_not_change_the_judgments(tmp_path):
    with Workspace(tmp_path / "a.sqlite") as a, Workspace(tmp_path / "b.sqlite") as b:
        build_study(a)
        build_study(b)
        reference = judged(a, BatchSensitiveJudge())
        dying = BatchSensitiveJudge(die_after=2)
        assert judged(b, dying) == reference and len(reference) == len(store.answer_pairs(b))
        # after the other groups, the retry round re-decoded the first group whole and greedy,
        # exactly as the first call had asked it
        assert dying.calls[-1] == dying.calls[0] and all(g for _, g in dying.calls[-1])
