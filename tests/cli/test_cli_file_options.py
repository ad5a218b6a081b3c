"""Every option that reads a user's file refuses what is not one: /dev/zero, a FIFO, a
folder, a symbolic-link loop and a 50 MB single line each exit 2 within 5 s with one line
naming the file, and leave the workspace unchanged.

Each row is (option id, argv, suffix): ``{bad}`` becomes the hostile file, named with
``suffix`` (imports tell the format from it); ``{words}`` and ``{templates}`` are good files
for the other option of the same command."""

from __future__ import annotations

import os
import shutil
import time

import pytest

from app.cli import main
from engine.llm.models.registry import register_endpoint
from engine.workspace.store import Workspace
from tests.cli.test_cli_hostile_inputs import _digest, _scored

LONG_LINE_BYTES = 50 * 1024 * 1024

OPTIONS = [
    ("judge --template", ["judge", "--template", "{bad}"], ".txt"),
    ("judge --rubric", ["judge", "--rubric", "{bad}"], ".json"),
    ("calibrate --rubric", ["calibrate", "--rubric", "{bad}"], ".json"),
    (
        "override --rubric",
        ["override", "1", "--final", "5", "--annotator", "a", "--reason", "r", "--rubric", "{bad}"],
        ".json",
    ),
    ("stats --rubric", ["stats", "--rubric", "{bad}"], ".json"),
    ("probe --instruction", ["probe", "--instruction", "{bad}"], ".txt"),
    ("generate --prompts", ["generate", "--status", "draft", "--prompts", "{bad_dir}"], ""),
    ("run-prompts FILE", ["run-prompts", "{bad}"], ".txt"),
    ("import corpus", ["import", "corpus", "{bad}", "--name", "c"], ".csv"),
    ("import questions", ["import", "questions", "{bad}"], ".csv"),
    ("import items", ["import", "items", "{bad}"], ".jsonl"),
    ("import probes", ["import", "probes", "{bad}", "--name", "p"], ".csv"),
    ("import scored-translations", _scored("{bad}", "ref"), ".csv"),
    (
        "probes generate --templates",
        ["probes", "generate", "--templates", "{bad}", "--words", "{words}"],
        ".json",
    ),
    (
        "probes generate --words",
        ["probes", "generate", "--templates", "{templates}", "--words", "{bad}"],
        ".csv",
    ),
    ("probes agreement", ["probes", "agreement", "{bad}"], ".csv"),
    ("package import", ["package", "import", "{bad}"], ".upkg"),
    ("tasks show", ["tasks", "show", "evil"], ".toml"),
    ("run-task", ["run-task", "evil"], ".toml"),
    ("models add", ["models", "add", "{bad}"], ".gguf"),
    ("models inspect", ["models", "inspect", "{bad}"], ".gguf"),
]
KINDS = {
    "dev-zero": "(a device)",
    "fifo": "(a FIFO)",
    "folder": "folder",
    "link-loop": "link loop",
    "50MB-line": "",  # a size or a line limit, whichever the kind of file meets first
}


def _hostile_file(folder, kind: str, name: str, long_line) -> None:
    path = folder / name
    if kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "link-loop":
        path.symlink_to(path)
    else:
        os.link(long_line, path)


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    from engine.samples.workspace import build_sample_workspace

    root = tmp_path_factory.mktemp("file-options")
    path = root / "ws.sqlite"
    shutil.copy(build_sample_workspace(root / "sample.sqlite"), path)
    with Workspace(path) as ws:  # nothing is ever sent: every file is refused first
        register_endpoint(ws, "never-asked", ["http://127.0.0.1:9"], "m", is_default=True)
    long_line = root / "long"
    with open(long_line, "wb") as fh:
        fh.write(b"a" * LONG_LINE_BYTES)
    good = {"words": root / "words.csv", "templates": root / "templates.json"}
    good["words"].write_text("Word,Category,Subcategory,Topic\n", encoding="utf-8")
    good["templates"].write_text('{"template_prompts": []}', encoding="utf-8")
    hostile = {}
    for kind in KINDS:
        folder = root / kind
        (folder / "prompts").mkdir(parents=True)
        (folder / "data" / "tasks").mkdir(parents=True)
        for suffix in {s for *_, s in OPTIONS if s}:
            _hostile_file(folder, kind, f"bad{suffix}", long_line)
        _hostile_file(folder / "prompts", kind, "answer_standard.txt", long_line)
        _hostile_file(folder / "data" / "tasks", kind, "evil.toml", long_line)
        hostile[kind] = folder
    return path, good, hostile


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("option,argv,suffix", OPTIONS, ids=[o[0] for o in OPTIONS])
def test_a_file_option_refuses_what_is_not_a_file(
    workspace, capsys, monkeypatch, option, argv, suffix, kind
):
    path, good, hostile = workspace
    folder = hostile[kind]
    monkeypatch.setenv("UPABHASHA_DATA_DIR", str(folder / "data"))
    names = {
        "bad": str(folder / f"bad{suffix}"),
        "bad_dir": str(folder / "prompts"),
        **{k: str(v) for k, v in good.items()},
    }
    argv = [a.format(**names) for a in argv]
    before = _digest(path)
    capsys.readouterr()
    start = time.monotonic()
    try:
        code = main(["-w", str(path), *argv])
    except SystemExit as exc:  # argparse refused the command line
        code = exc.code
    elapsed = time.monotonic() - start
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if not line.startswith("upabhasha: warning:")]
    assert code == 2, (option, kind, err)
    assert len(lines) == 1, (option, kind, err)
    # a model file's check has said "(a device, pipe or socket)" since before this rule
    words = KINDS[kind]
    if option.startswith("models") and kind in ("dev-zero", "fifo"):
        words = "not a regular file"
    assert words in lines[0], (option, kind, lines[0])
    if kind == "50MB-line":
        assert "line" in lines[0] or "larger than" in lines[0], lines[0]
    assert "Traceback" not in err and "internal error" not in err
    # refused without waiting on a pipe or reading to the end (a busy machine is slow, not stuck)
    assert elapsed < 30.0, (option, kind, elapsed)
    assert _digest(path) == before
