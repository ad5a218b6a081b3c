"""Reading a small text file a user put somewhere (a task file, a templates JSON) safely.

Only a regular file is read, and only up to a size limit: a FIFO or a symlink to
``/dev/zero`` named ``x.toml`` would otherwise block or read forever. The file is opened
non-blocking and checked on the open descriptor (``fstat``), so it cannot be swapped for a
pipe between the check and the read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from engine.errors import UserError

# the first bytes of file kinds a user may pick by mistake instead of a text file
_SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "PNG"),
    (b"\xff\xd8\xff", "JPEG"),
    (b"GIF8", "GIF"),
    (b"%PDF-", "PDF"),
    (b"PK\x03\x04", "ZIP, XLSX or DOCX"),
    (b"SQLite format 3\x00", "SQLite"),
    (b"\x1f\x8b", "gzip"),
    (b"\x7fELF", "a program"),
)


def binary_kind(head: bytes) -> str | None:
    """What a file starting with ``head`` (its first 16 bytes) is, when it is a common
    binary kind: "PNG" for "not a text file (looks like PNG)"; None otherwise."""
    return next((kind for magic, kind in _SIGNATURES if head.startswith(magic)), None)


def read_user_text(path: str | Path, max_bytes: int, what: str = "file") -> str:
    """The UTF-8 text of ``path``; a one-line UserError naming it when it is not a regular
    file, is larger than ``max_bytes`` or is not UTF-8 text."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise UserError(f"{path}: cannot read the {what} ({exc.strerror})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UserError(f"{path}: not a regular file (a pipe, device or folder), not read")
        if st.st_size > max_bytes:
            raise UserError(
                f"{path}: {st.st_size} bytes is larger than a {what} can be "
                f"({max_bytes} bytes at most), not read"
            )
        data = os.read(fd, max_bytes + 1)
    except OSError as exc:
        raise UserError(f"{path}: cannot read the {what} ({exc.strerror})") from None
    finally:
        os.close(fd)
    if len(data) > max_bytes:  # grew after fstat
        raise UserError(f"{path}: larger than a {what} can be ({max_bytes} bytes at most)")
    kind = binary_kind(data[:16])
    if kind is not None:
        raise UserError(f"{path}: not a text file (looks like {kind})")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError(f"{path}: the {what} is not UTF-8 text") from None
