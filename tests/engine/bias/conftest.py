"""The real BanglaSocialBias files, found beside the repository or beside a worktree folder."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]


def social_bias_dir() -> Path | None:
    for base in (REPO.parent, REPO.parent.parent):
        path = base / "shared" / "data" / "banglasocialbias"
        if path.is_dir():
            return path
    return None


@pytest.fixture(scope="session")
def bias_data() -> Path:
    path = social_bias_dir()
    if path is None:
        pytest.skip("real data folder shared/data/banglasocialbias is absent")
    return path


@pytest.fixture(scope="session")
def shared_data(bias_data) -> Path:
    return bias_data.parent
