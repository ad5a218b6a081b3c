"""Two ``.deb`` checks on one machine take turns (packaging/machine_lock.py): the second
waits for the first and says whom it waits for; a holder that is killed frees the lock."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging"))
from machine_lock import lock_path, machine_lock  # noqa: E402

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="flock: the Linux build's")
NAME = "upabhasha-deb-check-test"
# holds the lock until its stdin closes
HOLDER = r"""
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from machine_lock import machine_lock
with machine_lock(sys.argv[2], print, Path(sys.argv[3])):
    print("held", flush=True)
    sys.stdin.read()
"""


def hold(folder: Path) -> subprocess.Popen:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(ROOT / "packaging"), NAME, str(folder)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None
    assert holder.stdout.readline().strip() == "held"
    return holder


def test_a_second_run_waits_for_the_first_and_says_for_whom(tmp_path):
    holder = hold(tmp_path)
    said: list[str] = []
    waiting, acquired = threading.Event(), threading.Event()

    def second_run() -> None:
        with machine_lock(NAME, lambda text: (said.append(text), waiting.set()), tmp_path):
            acquired.set()

    thread = threading.Thread(target=second_run)
    thread.start()
    try:
        assert waiting.wait(60)
        assert not acquired.is_set()  # the holder still runs
        assert said == [
            f"waiting for another run holding {lock_path(NAME, tmp_path)} (process {holder.pid})"
        ]
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(60)
    assert acquired.wait(60)
    thread.join(60)
    assert lock_path(NAME, tmp_path).read_text().strip() == str(os.getpid())


def test_a_killed_holder_leaves_the_machine_unlocked(tmp_path):
    holder = hold(tmp_path)
    holder.send_signal(signal.SIGKILL)
    holder.wait(60)
    said: list[str] = []
    with machine_lock(NAME, said.append, tmp_path) as path:
        assert path == tmp_path / f"{NAME}.lock"
    assert said == []  # taken at once, no wait
