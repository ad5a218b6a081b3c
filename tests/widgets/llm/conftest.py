"""The Models panel on a copy of the sample workspace, for the panel's, the model finder's and
the endpoint form's tests."""

from __future__ import annotations

import shutil

import pytest

from widgets.llm.models_panel import ModelsPanel


@pytest.fixture
def ws(sample_db, tmp_path):
    from engine.workspace.store import Workspace

    path = tmp_path / "models.sqlite"
    shutil.copy(sample_db, path)
    workspace = Workspace(path, create=False)
    yield workspace
    workspace.close()


@pytest.fixture
def panel(qtbot, ws, sync_bridge):
    panel = ModelsPanel(ws, sync_bridge)
    qtbot.addWidget(panel)
    return panel
