"""Fixtures for importer tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from .tablefiles import write_table


@pytest.fixture
def table_file(tmp_path):
    """``table_file(name, rows, encoding=..., columns=...)`` writes a file in tmp_path."""

    def make(name: str, rows: list[dict], **kwargs) -> Path:
        return write_table(tmp_path / name, rows, **kwargs)

    return make
