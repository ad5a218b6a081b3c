"""The import dialog's tests share an empty workspace file."""

from __future__ import annotations

import pytest

from engine.workspace.store import Workspace


@pytest.fixture
def fresh_ws(tmp_path):
    ws = Workspace(tmp_path / "study.sqlite", create=True)
    yield ws
    ws.close()
