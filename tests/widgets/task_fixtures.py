"""The tasks-panel tests' workspace: the understanding tests' parallel pairs and a 'scripted'
endpoint model (the tests answer it with engine.understanding's ScriptedBackend)."""

from __future__ import annotations

import pytest

from engine.workspace.store import utcnow
from tests.engine.understanding.conftest import insert_pairs


def add_scripted_model(ws) -> None:
    with ws.transaction() as conn:
        conn.execute(
            "INSERT INTO models(name, kind, api_model, is_default, added_at) "
            "VALUES ('scripted', 'endpoint', 'x', 1, ?)",
            (utcnow(),),
        )


@pytest.fixture
def task_ws(workspace):
    insert_pairs(workspace)
    add_scripted_model(workspace)
    return workspace
