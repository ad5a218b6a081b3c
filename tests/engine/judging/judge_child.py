"""Runs one judge job to completion; the kill -9 test starts it and kills it.

python -m tests.engine.judging.judge_child WORKSPACE RUBRIC_JSON
"""

from __future__ import annotations

import json
import sys

from engine.judging.rubric import load_rubric
from engine.judging.run import judge_answers
from engine.llm.models.registry import ensure_embedded_default
from engine.workspace.store import Workspace


def main() -> int:
    ws = Workspace(sys.argv[1])
    model = ws.query("SELECT * FROM models WHERE id = ?", (ensure_embedded_default(ws),))[0]
    # one sequence at a time, one reply per write: a kill lands between items
    summary = judge_answers(
        ws, model, rubric=load_rubric(sys.argv[2]), batch_size=1, schedule={"n_seq": 1}
    )
    print(json.dumps(summary.as_dict()), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
