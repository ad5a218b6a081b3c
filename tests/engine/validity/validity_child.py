"""Runs one validity suite to completion with the order-blind planted judge, a little slowly
so that a kill lands mid-run; the kill -9 test starts it and kills it.

python -m tests.engine.validity.validity_child WORKSPACE PER_DIALECT
"""

from __future__ import annotations

import json
import sys
import time

from engine.llm.runs import backend as run_backend
from engine.validity.api import ValidityRequest
from engine.workspace.store import Workspace
from tests.engine.validity import planted


def slow_reply(request) -> str:
    time.sleep(0.02)
    return planted.order_blind(request)


def main() -> int:
    backend = planted.ScriptedBackend(slow_reply)
    run_backend.backend_for_run = lambda _ws, _run: backend  # type: ignore[assignment]
    with Workspace(sys.argv[1]) as ws:
        result = ValidityRequest(per_dialect=int(sys.argv[2])).run(ws)
    print(json.dumps({"asked": len(backend.seen), **result.as_dict()}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
