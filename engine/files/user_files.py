"""One rule for every file a user hands the product: templates, instructions, prompts,
rubrics, task files, imports, review packages and batch result files.

A file is read only when it is a regular file. A FIFO would block forever, ``/dev/zero`` or
``/dev/urandom`` would read until memory runs out, and a folder or a symlink loop only
fails in a confusing way. Each case gets its own named refusal. Every kind of file has a
size limit and a line-length limit. A text file is read with a bound and must be UTF-8.
The file is opened non-blocking and checked on the open descriptor (``fstat``), so it cannot
be swapped for a pipe between the check and the read.

Every refusal is a one-line :class:`engine.errors.UserError` that names the file.
"""

from __future__ import annotations

import codecs
import errno
import io
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from engine.errors import UserError
from engine.text.text_rules import hidden_characters, hidden_problem

KiB, MiB = 1024, 1024 * 1024


@dataclass(frozen=True)
class FileKind:
    """What a file is for, in words for messages, and how large it may be."""

    what: str
    max_bytes: int
    max_line_bytes: int


# The bundled templates and rubrics are a few KB; each limit leaves ample room for a
# user's own while bounding what one read can cost.
JUDGE_TEMPLATE = FileKind("judge template", 256 * KiB, 64 * KiB)
PROBE_INSTRUCTION = FileKind("probe instruction", 256 * KiB, 64 * KiB)
ANSWER_PROMPT = FileKind("answer prompt", 256 * KiB, 64 * KiB)
RUBRIC = FileKind("rubric", 1 * MiB, 1 * MiB)
TASK_FILE = FileKind("task file", 256 * KiB, 256 * KiB)
TEMPLATES_JSON = FileKind("templates JSON", 16 * MiB, 16 * MiB)
PROMPT_FILE = FileKind("prompt file", 64 * MiB, 1 * MiB)
# Imports stream: the size bounds the whole file, the line bound one record.
IMPORT_FILE = FileKind("import file", 256 * MiB, 4 * MiB)
# A provider's batch result file holds one JSON reply per line.
BATCH_RESULTS = FileKind("batch result file", 1024 * MiB, 16 * MiB)

# Magic numbers of files people pick by mistake; refused by name rather than as "not UTF-8".
_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "PNG"),
    (b"\xff\xd8\xff", "JPEG"),
    (b"GIF8", "GIF"),
    (b"%PDF-", "PDF"),
    (b"PK\x03\x04", "ZIP or Office document"),
    (b"\x1f\x8b", "gzip"),
    (b"\x7fELF", "program"),
    (b"SQLite format 3\x00", "SQLite database"),
    (b"GGUF", "GGUF model"),
)


def _kind_of_mode(mode: int) -> str | None:
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a plain file"


def _open_problem(exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "not a regular file (a symbolic link loop), not read"
    if exc.errno == errno.ENOENT:
        return "no such file"
    if exc.errno == errno.EISDIR:
        return "not a regular file (a folder), not read"
    return f"cannot read it ({exc.strerror})"


def _not_regular(kind: str) -> str:
    return f"not a regular file ({kind}), not read"


def regular_file_problem(path: str | Path) -> str | None:
    """Why ``path`` cannot be read as a file (missing, a folder, a FIFO, a device, a socket
    or a link loop), in words without the path; None when it is a regular file. Only
    ``stat``, so nothing blocks."""
    try:
        st = os.stat(path)  # follows a symlink: what it points at must be a regular file
    except OSError as exc:
        return _open_problem(exc)
    kind = _kind_of_mode(st.st_mode)
    return None if kind is None else _not_regular(kind)


def check_regular_file(path: str | Path, what: str = "file") -> Path:
    """``path`` if it is a regular file, else a one-line UserError naming the file, what it
    was for and why."""
    problem = regular_file_problem(path)
    if problem is not None:
        raise UserError(f"{path}: {problem} (the {what})")
    return Path(path)


def _refusal(path: Path, kind: FileKind, problem: str) -> UserError:
    return UserError(f"{path}: {problem} (the {kind.what})")


def _too_large(path: Path, size: int, kind: FileKind) -> UserError:
    return UserError(
        f"{path}: {size:,} bytes is larger than a {kind.what} can be ({kind.max_bytes:,} bytes at most)"
    )


def _line_too_long(path: Path, line: int, kind: FileKind) -> UserError:
    return UserError(
        f"{path}, line {line}: longer than {kind.max_line_bytes:,} bytes, the line limit of the {kind.what}"
    )


def binary_format_problem(head: bytes, *, nul_bytes: bool = True) -> str | None:
    """ "not a text file (looks like PNG)" when the first bytes of a file are a known binary
    format's (or, with ``nul_bytes``, hold NUL bytes outside UTF-16), else None."""
    for magic, name in _MAGIC:
        if head.startswith(magic):
            return f"not a text file (looks like {name})"
    if nul_bytes and b"\x00" in head and not head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "not a text file (it holds NUL bytes)"
    return None


def _looks_binary(path: Path, head: bytes, kind: FileKind) -> UserError | None:
    problem = binary_format_problem(head)
    return None if problem is None else _refusal(path, kind, problem)


def _open_checked(path: Path, kind: FileKind) -> int:
    """A descriptor on ``path`` once it is known to be a regular file within the size."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise _refusal(path, kind, _open_problem(exc)) from None
    try:
        st = os.fstat(fd)
        not_plain = _kind_of_mode(st.st_mode)
        if not_plain is not None:
            raise _refusal(path, kind, _not_regular(not_plain))
        if st.st_size > kind.max_bytes:
            raise _too_large(path, st.st_size, kind)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_user_bytes(path: str | Path, kind: FileKind) -> bytes:
    """The bytes of a regular file of at most ``kind.max_bytes``, read with that bound."""
    path = Path(path)
    fd = _open_checked(path, kind)
    try:
        with os.fdopen(fd, "rb", closefd=True) as fh:
            data = fh.read(kind.max_bytes + 1)
    except OSError as exc:
        raise _refusal(path, kind, _open_problem(exc)) from None
    if len(data) > kind.max_bytes:  # grew after fstat
        raise _too_large(path, len(data), kind)
    return data


def _check_lines(path: Path, data: bytes, kind: FileKind) -> None:
    start, line = 0, 1
    while start <= len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        if end - start > kind.max_line_bytes:
            raise _line_too_long(path, line, kind)
        start, line = end + 1, line + 1


def read_user_text(path: str | Path, kind: FileKind) -> str:
    """The UTF-8 text of a user's file (a BOM is dropped); a one-line UserError naming the
    file when it is not a regular file, is too large, has a line over the kind's limit,
    looks like a binary format or is not UTF-8."""
    path = Path(path)
    data = read_user_bytes(path, kind)
    problem = _looks_binary(path, data[:64], kind)
    if problem is not None:
        raise problem
    _check_lines(path, data, kind)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise UserError(f"{path}, line {line}: the {kind.what} is not UTF-8 text") from None
    hidden = hidden_characters(text)
    if hidden:
        line = text.count("\n", 0, hidden[0]) + 1
        raise UserError(f"{path}, line {line}: the {kind.what} {hidden_problem(text[hidden[0]])}")
    return text


def _bounded_lines(path: Path, fh, kind: FileKind) -> Iterator[tuple[int, bytes]]:
    total = 0
    for number, raw in enumerate(iter(lambda: fh.readline(kind.max_line_bytes + 2), b""), 1):
        total += len(raw)
        if total > kind.max_bytes:
            raise _too_large(path, total, kind)
        if len(raw.rstrip(b"\r\n")) > kind.max_line_bytes:
            raise _line_too_long(path, number, kind)
        yield number, raw


def iter_user_line_bytes(path: str | Path, kind: FileKind) -> Iterator[tuple[int, bytes]]:
    """``(line number, raw UTF-8 line)`` of a regular file, streamed, the whole file and each
    line bounded by ``kind``; for a reader that judges each line itself (a provider's batch
    results, where a line that is not UTF-8 is one refused line, not a refused file). A
    UTF-8 BOM is dropped; a file with a UTF-16 BOM is read as UTF-16 (README: "Text policy")
    and its lines given as UTF-8."""
    path = Path(path)
    fd = _open_checked(path, kind)
    with os.fdopen(fd, "rb", closefd=True) as fh:
        head = fh.read(3)
        if head[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
            fh.seek(0)
            yield from _utf16_lines(path, fh, kind)
            return
        fh.seek(len(codecs.BOM_UTF8) if head == codecs.BOM_UTF8 else 0)
        yield from _bounded_lines(path, fh, kind)


def _utf16_lines(path: Path, fh, kind: FileKind) -> Iterator[tuple[int, bytes]]:
    """The lines of a UTF-16 file (with its BOM) as UTF-8, bounded as :func:`_bounded_lines`
    bounds bytes (a UTF-16 code unit is at least two bytes, so the bound is never looser)."""
    text = io.TextIOWrapper(fh, encoding="utf-16", errors="strict", newline="")
    number = 0
    try:
        for number, line in enumerate(iter(lambda: text.readline(kind.max_line_bytes + 2), ""), 1):
            raw = line.encode("utf-8", "surrogatepass")
            if len(raw.rstrip(b"\r\n")) > kind.max_line_bytes:
                raise _line_too_long(path, number, kind)
            yield number, raw
    except UnicodeDecodeError:
        raise UserError(
            f"{path}, line {number + 1}: the {kind.what} starts as UTF-16 but is not UTF-16 text"
        ) from None


def iter_user_lines(path: str | Path, kind: FileKind) -> Iterator[tuple[int, str]]:
    """``(line number, text)`` for each line of a large UTF-8 file, streamed: the whole file
    and each line are bounded by ``kind``, so memory stays bounded whatever the file holds.
    Line ends are stripped."""
    path = Path(path)
    fd = _open_checked(path, kind)
    with os.fdopen(fd, "rb", closefd=True) as fh:
        problem = _looks_binary(path, fh.read(64), kind)
        if problem is not None:
            raise problem
        fh.seek(0)
        for number, raw in _bounded_lines(path, fh, kind):
            try:
                text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError:
                raise UserError(
                    f"{path}, line {number}: the {kind.what} is not UTF-8 text"
                ) from None
            yield number, text.rstrip("\r\n")
