"""One holder at a time on this machine: ``with machine_lock("upabhasha-deb-check", say):``.

The ``.deb`` check installs the package system-wide, smoke-tests it and removes it; two
checks at once (CI beside a session, two builds) would install over each other and remove
the package the other is testing. ``flock`` on a file in ``/run/lock`` serialises them: a
second run says it waits and waits; the kernel releases the lock when its holder exits, even
killed, so a crashed run never leaves the machine locked. Hand-written on ``fcntl``:
build.py runs on the system's Python, where no lock package (filelock) need be installed.
"""

from __future__ import annotations

import fcntl
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

LOCK_FOLDER = Path("/run/lock")


def lock_path(name: str, folder: Path | None = None) -> Path:
    """``/run/lock/<name>.lock`` (where the system keeps its locks), else in the temp folder."""
    folder = folder or (LOCK_FOLDER if LOCK_FOLDER.is_dir() else Path(tempfile.gettempdir()))
    return folder / f"{name}.lock"


@contextmanager
def machine_lock(
    name: str, say: Callable[[str], None], folder: Path | None = None
) -> Iterator[Path]:
    """Hold the machine-wide lock ``name`` for the ``with`` block, waiting for its holder
    first (``say`` tells who holds it); yields the lock file's path."""
    path = lock_path(name, folder)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode(errors="replace").strip() or "?"
            say(f"waiting for another run holding {path} (process {holder})")
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield path
    finally:
        os.close(fd)  # closing the last descriptor releases the lock
