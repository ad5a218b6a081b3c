"""The small demo (2 questions, Chittagong, the embedded model) made once per test session
and copied into each test that needs it: the demo's translate, answer and judge steps decode
the same bytes every time (docs/design.md), so two tests that start from it share one run."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
from pathlib import Path

import pytest

DEMO_ARGV = ("demo", "--questions", "2", "--dialects", "chittagong")


@contextlib.contextmanager
def _locked(path: Path):
    """Held by one pytest-xdist worker at a time (fcntl: the standard library's file lock,
    POSIX like the rest of the suite, no extra test dependency)."""
    with path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def _demo_made(tmp_path_factory) -> Path:
    """The demo's output folder, made by the first worker that asks (the others wait for
    it); its exit code asserted as the demo test asserts it."""
    from app.cli import main

    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # this session's folder, shared by its workers
    out = base / "demo-made"
    with _locked(base / "demo-made.lock"):
        if not (out / "made").is_file():
            shutil.rmtree(out, ignore_errors=True)
            argv = [DEMO_ARGV[0], "--out", str(out), *DEMO_ARGV[1:]]
            assert main(argv) == 0
            (out / "made").touch()
    return out


@pytest.fixture
def demo_made(_demo_made, tmp_path) -> Path:
    """A copy of the session's demo output (workspace, rubric, report) for this test alone."""
    out = tmp_path / "demo"
    shutil.copytree(_demo_made, out, ignore=shutil.ignore_patterns("made"))
    return out
