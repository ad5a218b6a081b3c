"""The one rule for a user's file: each refusal named, every read bounded."""

from __future__ import annotations

import os

import pytest

from engine.errors import UserError
from engine.files.user_files import (
    JUDGE_TEMPLATE,
    FileKind,
    check_regular_file,
    iter_user_lines,
    read_user_text,
)

SMALL = FileKind("test file", 1000, 100)


@pytest.fixture
def folder(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    (tmp_path / "zero").symlink_to("/dev/zero")
    (tmp_path / "dir").mkdir()
    return tmp_path


@pytest.mark.parametrize(
    "name,words",
    [
        ("fifo", "not a regular file (a FIFO)"),
        ("loop", "not a regular file (a symbolic link loop)"),
        ("zero", "not a regular file (a device)"),
        ("dir", "not a regular file (a folder)"),
        ("missing", "no such file"),
    ],
)
def test_what_is_not_a_regular_file_is_refused_by_name(folder, name, words):
    for read in (
        lambda p: read_user_text(p, SMALL),
        lambda p: list(iter_user_lines(p, SMALL)),
        check_regular_file,
    ):
        with pytest.raises(UserError) as caught:
            read(folder / name)
        assert words in str(caught.value) and str(folder / name) in str(caught.value)


def test_size_line_and_format_limits(tmp_path):
    big, long, png, latin = (tmp_path / n for n in ("big", "long", "png", "latin"))
    big.write_text("a\n" * 600)
    long.write_text("a" * 150)
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + b"x" * 20)
    latin.write_bytes("ok\ncaf\xe9\n".encode("latin-1"))
    with pytest.raises(UserError, match="1,200 bytes is larger than a test file can be"):
        read_user_text(big, SMALL)
    with pytest.raises(UserError, match=r"line 1: longer than 100 bytes"):
        read_user_text(long, SMALL)
    with pytest.raises(UserError, match=r"line 1: longer than 100 bytes"):
        list(iter_user_lines(long, SMALL))
    with pytest.raises(UserError, match=r"not a text file \(looks like PNG\)"):
        read_user_text(png, JUDGE_TEMPLATE)
    with pytest.raises(UserError, match="line 2: the test file is not UTF-8"):
        read_user_text(latin, SMALL)
    with pytest.raises(UserError, match="line 2: the test file is not UTF-8"):
        list(iter_user_lines(latin, SMALL))


def test_a_good_file_reads_whole_and_line_by_line(tmp_path):
    path = tmp_path / "ok.jsonl"
    path.write_bytes("\ufeff{}\r\nআমি\n\nশেষ".encode())
    assert read_user_text(path, SMALL) == "{}\r\nআমি\n\nশেষ"
    assert list(iter_user_lines(path, SMALL)) == [(1, "{}"), (2, "আমি"), (3, ""), (4, "শেষ")]
