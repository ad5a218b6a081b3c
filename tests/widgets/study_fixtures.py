"""Fixtures shared by the charts, answers and judge panel tests: the sample workspace plus
60 synthetic questions and a synthetic study (three models, a primary and a secondary
judge) stored through the engine's judgment store."""

from __future__ import annotations

import shutil

import pytest

from engine.samples import study as sample_study
from engine.workspace.store import Workspace


@pytest.fixture(scope="session")
def study_db(sample_db, tmp_path_factory):
    path = tmp_path_factory.mktemp("study") / "study.sqlite"
    shutil.copy(sample_db, path)
    with Workspace(path, create=False) as ws:
        sample_study.add_synthetic_questions(ws, 60, ["chittagong", "sylhet", "noakhali"])
        sample_study.add_synthetic_study(ws, models=3, seed=1)
    return path


@pytest.fixture
def study_ws(study_db, tmp_path):
    path = tmp_path / "study.sqlite"
    shutil.copy(study_db, path)
    ws = Workspace(path, create=False)
    yield ws
    ws.close()


@pytest.fixture
def fast_watcher(study_ws, qtbot):
    """The workspace watcher a window would pass, polling every 50 ms instead of 1 s."""
    from widgets.common.workspace_watcher import WorkspaceWatcher

    watcher = WorkspaceWatcher(study_ws.path, interval_ms=50)
    yield watcher
    watcher.close()
