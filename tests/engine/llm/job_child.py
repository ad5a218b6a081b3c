"""Runs one job to completion; the kill -9 test starts it as a subprocess and kills it.

python -m tests.engine.llm.job_child WORKSPACE N_ITEMS
"""

from __future__ import annotations

import sys

from engine.llm.models.registry import ensure_embedded_default
from engine.llm.runs.backend import backend_for_run
from engine.llm.runs.jobs import run_job
from engine.llm.runs.run import open_run
from engine.llm.types import Request, Sampler
from engine.workspace.store import Workspace

CARD = {"template": "kill-test", "schedule": {"n_seq": 4}}


def requests(n: int) -> list[Request]:
    return [
        Request(
            key=f"item-{i:03d}",
            prompt=f"Question {i}: what is {i} + {i}?\nAnswer:",
            sampler=Sampler(max_tokens=12),
        )
        for i in range(n)
    ]


def main() -> int:
    ws = Workspace(sys.argv[1])
    model = ws.query("SELECT * FROM models WHERE id = ?", (ensure_embedded_default(ws),))[0]
    run = open_run(ws, "answer", model, CARD)
    backend = backend_for_run(ws, run)
    try:
        summary = run_job(
            ws, run, backend, requests(int(sys.argv[2])), batch_size=2, use_cache=False
        )
    finally:
        backend.close()
    print("complete" if summary.complete else "incomplete", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
