"""Checking a file the user asked us to write, before any work starts.

A step that writes its result at the end (a CSV, a LaTeX table, a review package) must not
compute for minutes and then fail on the path, nor leave a partial file: the path is checked
first, and writers go through a temporary file in the same folder that replaces the target
whole (see :mod:`engine.importing.exporters`).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from engine.errors import UserError


def writable_output(path: str | Path, what: str = "output file") -> Path:
    """``path`` as a Path if a file can be written there, else a one-line UserError naming
    ``what`` (an option such as ``--csv``). Creates no file; a missing parent folder is
    refused rather than made (a typo in a folder name should not create folders)."""
    path = Path(path)
    if not str(path).strip():
        raise UserError(f"{what}: give a file name")
    if path.is_dir():
        raise UserError(f"{what} {path}: is a folder; give a file name inside it")
    if path.exists() and not path.is_file():
        raise UserError(f"{what} {path}: not a regular file (a device or pipe)")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise UserError(f"{what} {path}: the folder {parent} does not exist")
    # os.access says nothing reliable about /proc or read-only mounts: try a real file.
    try:
        handle, probe = tempfile.mkstemp(prefix=f".{path.name[:40]}.", suffix=".probe", dir=parent)
    except OSError as exc:
        raise UserError(f"{what} {path}: cannot write in {parent} ({exc.strerror})") from None
    os.close(handle)
    os.unlink(probe)
    return path


def write_text_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (a temporary file in the same folder,
    then renamed over the target); a failure is a UserError naming the file."""
    path = Path(path)
    try:
        handle, tmp = tempfile.mkstemp(
            prefix=f".{path.name[:40]}.", suffix=".part", dir=path.parent
        )
    except OSError as exc:
        raise UserError(f"{path}: cannot write it ({exc.strerror})") from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        raise UserError(f"{path}: cannot write it ({exc.strerror})") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
