"""Annotation fixtures: a copy of the real sample workspace with three annotators."""

from __future__ import annotations

import shutil

import pytest

from engine.annotation.annotators import add_annotator
from engine.workspace.store import Workspace


@pytest.fixture(scope="session")
def sample_db(tmp_path_factory):
    from engine.samples.workspace import build_sample_workspace

    return build_sample_workspace(tmp_path_factory.mktemp("sample") / "sample.sqlite")


@pytest.fixture
def ann_ws(sample_db, tmp_path):
    """Sample workspace (36 dialect variants: chittagong, noakhali, sylhet) + annotators."""
    path = tmp_path / "ws.sqlite"
    shutil.copy(sample_db, path)
    ws = Workspace(path)
    add_annotator(ws, "Rina", ["chittagong", "noakhali"])
    add_annotator(ws, "Karim", ["chittagong", "sylhet", "noakhali"])
    add_annotator(ws, "Shuvo", ["sylhet"])
    yield ws
    ws.close()
