"""Batch files from the desktop: the generate dialog exports its request as OpenAI Batch
files (Export as batch files…), a server answers each line, File → Import batch results…
takes them in. The stored answers equal those of ``upabhasha batch export`` → the same server
→ ``batch import`` on a copy of the same workspace, and the request kept is the CLI's."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from app.cli import main
from app.main_window import MainWindow
from app.settings import Settings
from engine.workspace.store import Workspace
from tests.cli.batch_tools import run_batch_file, stored_rows
from tests.cli.test_cli_secrets import EchoServer
from tests.engine.judging.study_fixture import build_questions

ARGV = ["generate", "--model", "echo", "--max-tokens", "8", "--limit", "2"]


@pytest.fixture
def server():
    s = EchoServer()
    s.reject, s.answer = False, "ঢাকা বাংলাদেশের রাজধানী।"
    yield s
    s.stop()


@pytest.fixture
def two_copies(tmp_path, server):
    first = tmp_path / "cli.sqlite"
    with Workspace(first) as ws:
        build_questions(ws)
    assert main(["-w", str(first), "models", "add", server.url, "--api-model", "echo",
                 "--name", "echo", "--default"]) == 0  # fmt: skip
    second = tmp_path / "desktop.sqlite"
    shutil.copy(first, second)
    return first, second


def _answer(server, folder: Path, tmp_path: Path) -> list[Path]:
    tmp_path.mkdir(exist_ok=True)
    results = []
    for f in sorted(folder.glob("*.jsonl")):
        out = tmp_path / f"{f.stem}.results.jsonl"
        run_batch_file(f, server.url, out)
        results.append(out)
    return results


def _type(box, text: str) -> None:
    box.setFocus()
    QTest.keyClick(box, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(box, text)
    QTest.keyClick(box, Qt.Key.Key_Tab)


def _menu_action(window, text: str):
    for menu in window.menuBar().findChildren(type(window.menuBar().actions()[0].menu())):
        for action in menu.actions():
            if action.text() == text:
                return action
    raise AssertionError(text)


def test_the_desktop_exports_and_imports_a_batch_as_the_cli_does(
    qtbot, sync_bridge, two_copies, server, tmp_path, monkeypatch
):
    cli_ws, desktop_ws = two_copies
    # the command line: export, the server answers, import
    cli_out = tmp_path / "cli-files"
    assert main(["-w", str(cli_ws), "batch", "export", "--out", str(cli_out), *ARGV]) == 0
    assert main(["-w", str(cli_ws), "batch", "import",
                 *map(str, _answer(server, cli_out, tmp_path / "cli"))]) == 0  # fmt: skip

    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "information", lambda _p, _t, text: shown.append(text))
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, _t, text: shown.append(text))
    window = MainWindow(Settings(), bridge=sync_bridge, save=lambda s: None)
    qtbot.addWidget(window)
    window.show()
    assert window.open_workspace(desktop_ws)
    dialog = window.study.generate_dialog()
    _type(dialog.limit, "2")
    _type(dialog.max_tokens, "8")
    desk_out = tmp_path / "desktop-files"
    desk_out.mkdir()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(desk_out))
    qtbot.mouseClick(dialog.batch_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(shown) == 1)
    assert "6 requests in 1 file(s)" in shown[0], shown
    results = _answer(server, desk_out, tmp_path / "desktop")
    monkeypatch.setattr(
        QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(p) for p in results], "")
    )
    _menu_action(window, "Import batch resu&lts…").trigger()
    qtbot.waitUntil(lambda: len(shown) == 2)
    assert "6 accepted (6 new)" in shown[1] and "Nothing is missing" in shown[1], shown
    assert not sync_bridge.errors

    tables = ("responses", "response_cache")
    assert stored_rows(desktop_ws, tables) == stored_rows(cli_ws, tables)
    assert _runs_and_request(desktop_ws) == _runs_and_request(cli_ws)


def _runs_and_request(ws: Path) -> tuple[list, dict]:
    """The runs (their cards less the batch files' names and tokens and the time taken) and
    the batch's request."""
    with sqlite3.connect(ws) as conn:
        runs = [
            (kind, key, _untimed({k: v for k, v in json.loads(card).items() if k != "batch"}))
            for kind, key, card in conn.execute("SELECT kind, run_key, card FROM runs ORDER BY id")
        ]
        request = json.loads(conn.execute("SELECT request FROM llm_batches").fetchone()[0])
    return runs, request


def _untimed(value):
    """``value`` without the seconds a step took (they differ from run to run)."""
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    return value
