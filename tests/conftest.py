"""Shared fixtures. Tests never touch the user's real data, log or config folders."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
# UPABHASHA_SHARED_DATA: for checkouts not beside shared/ (engineers' worktrees).
SHARED_DATA = Path(os.environ.get("UPABHASHA_SHARED_DATA", REPO.parent / "shared" / "data"))

# The embedded model is assembled once into a stable temp folder and reused across runs
# (verified by sha256 marker); logs and settings go to a per-run folder.
_TEST_HOME = Path(tempfile.gettempdir()) / "upabhasha-test-data"
os.environ.setdefault("UPABHASHA_DATA_DIR", str(_TEST_HOME))


def _own_temp_dir(variable: str, prefix: str) -> None:
    """A folder for this run, removed when it ends; test workers inherit the controller's."""
    if variable not in os.environ:
        os.environ[variable] = folder = tempfile.mkdtemp(prefix=prefix)
        atexit.register(shutil.rmtree, folder, ignore_errors=True)


_own_temp_dir("UPABHASHA_LOG_DIR", "upabhasha-logs-")
_own_temp_dir("UPABHASHA_CONFIG_DIR", "upabhasha-config-")
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def pytest_configure(config):
    """A parallel test worker (pytest-xdist) runs on its own share of the cores, so the
    model's threads (as many as the usable cores) never outnumber them."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0"))
    if not worker.startswith("gw") or workers < 2 or not hasattr(os, "sched_setaffinity"):
        return
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) >= workers:
        os.sched_setaffinity(0, cores[int(worker[2:]) % workers :: workers])


@pytest.fixture
def workspace(tmp_path):
    from engine.workspace.store import Workspace

    ws = Workspace(tmp_path / "ws.sqlite")
    yield ws
    ws.close()


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"real data folder {SHARED_DATA} is absent")
    return SHARED_DATA


@pytest.fixture(scope="session")
def embedded_gguf() -> Path:
    """The real embedded GGUF (assembled once)."""
    from engine.llm.models.embedded_model import embedded_model_path

    return embedded_model_path()


@pytest.fixture
def memory_keyring():
    """A working in-memory OS keyring for the test (this machine has no keyring service)."""
    import keyring
    from keyring.backend import KeyringBackend

    class MemoryKeyring(KeyringBackend):
        priority = 1

        def __init__(self):
            super().__init__()
            self.store = {}

        def get_password(self, service, username):
            return self.store.get((service, username))

        def set_password(self, service, username, password):
            self.store[(service, username)] = password

        def delete_password(self, service, username):
            self.store.pop((service, username), None)

    previous = keyring.get_keyring()
    ring = MemoryKeyring()
    keyring.set_keyring(ring)
    yield ring
    keyring.set_keyring(previous)
