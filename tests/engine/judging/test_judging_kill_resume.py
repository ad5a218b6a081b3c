"""The real embedded model as a judge: grammar-enforced verdicts, and kill -9 in the middle
of judging followed by a resume that judges every pair exactly once."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.judging.rubric import CONFIDENCE_VALUES, LIKERT_VALUES
from engine.llm.models.registry import ensure_embedded_default
from engine.workspace.store import Workspace

from .study_fixture import build_study, short_rubric

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[3]
PAIRS = 4


def start(ws_path: Path, rubric: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.engine.judging.judge_child", str(ws_path), str(rubric)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def judge_replies(ws_path: Path) -> int:
    with Workspace(ws_path) as ws:
        return (
            ws.scalar(
                "SELECT count(*) FROM responses r JOIN runs ON runs.id = r.run_id "
                "WHERE runs.kind = 'judge' AND r.status = 'done'"
            )
            or 0
        )


def test_kill_9_while_judging_then_resume(tmp_path, embedded_gguf):
    ws_path = tmp_path / "judge.sqlite"
    with Workspace(ws_path) as ws:
        ids = build_study(ws)
        ensure_embedded_default(ws)
        # keep 4 pairs (one model, two questions, two dialects): the 270M model is slow
        ws.conn.execute("DELETE FROM responses WHERE run_id = ?", (ids["answer_runs"]["llama-b"],))
        ws.conn.execute(
            "DELETE FROM responses WHERE variant_id IN (SELECT id FROM variants "
            "WHERE question_id = (SELECT id FROM questions WHERE ext_id = 'q3'))"
        )
    rubric = short_rubric(tmp_path)
    rng = random.Random(5)
    kills = 0
    for _ in range(2):
        before = judge_replies(ws_path)
        proc = start(ws_path, rubric)
        deadline = time.monotonic() + 90
        while (
            judge_replies(ws_path) == before and proc.poll() is None and time.monotonic() < deadline
        ):
            time.sleep(0.2)
        time.sleep(rng.uniform(0.0, 1.0))
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)  # the judge process and its model worker
            kills += 1
        proc.wait(30)
    assert kills >= 1
    proc = start(ws_path, rubric)
    out, _ = proc.communicate(timeout=300)
    summary = json.loads(out.decode().strip().splitlines()[-1])
    assert summary["failed"] == 0 and summary["pairs"] == PAIRS
    with Workspace(ws_path) as ws:
        assert ws.integrity_ok()
        assert ws.scalar("SELECT count(*) FROM runs WHERE kind = 'judge'") == 1
        rows = ws.query("SELECT response_id, count(*) AS n FROM judgments GROUP BY response_id")
        assert len(rows) == PAIRS and all(r["n"] == 1 for r in rows)
        keys = ws.query(
            "SELECT item_key, count(*) AS n FROM responses r JOIN runs "
            "ON runs.id = r.run_id WHERE runs.kind = 'judge' GROUP BY item_key"
        )
        assert all(k["n"] == 1 for k in keys)
        # every verdict came from the grammar-constrained model and is on the scales
        judged = ws.query(
            "SELECT j.*, r.text AS reply FROM judgments j "
            "JOIN responses r ON r.id = j.judge_response_id"
        )
        assert len(judged) == PAIRS
        for j in judged:
            reply = json.loads(j["reply"], strict=False)
            assert list(reply)[0] == "chain_of_thought_reasoning"
            assert len(reply["chain_of_thought_reasoning"]) <= 50
            assert all(
                j[k] in LIKERT_VALUES
                for k in ("comprehension", "correctness", "completeness", "clarity", "length")
            )
            assert j["confidence"] in CONFIDENCE_VALUES and 0 <= j["final"] <= 10
