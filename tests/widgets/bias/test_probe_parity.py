"""One probe request from the CLI and from the Social bias panel: the same defaults, and on
two copies of one workspace the same stored rows and the same summaries (a deterministic
stub endpoint answers; tests/engine/llm/endpoint_stub.py)."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from app.cli import build_parser, main
from engine.bias.api import ProbeRequest
from engine.bias.sample import build_bias_sample
from engine.llm.models.registry import register_endpoint
from engine.workspace.store import Workspace
from tests.cli.batch_tools import copy_workspace, stored_rows
from tests.engine.llm.endpoint_stub import StubServer
from tests.widgets.keyboard import retype
from widgets.bias.bias_panel import BiasPanel
from widgets.bias.probe_run import DEFAULTS

# what a summary says of when and how fast, apart from what was done
TIMING = {"estimate", "actual"}


def cli_request(*argv: str) -> ProbeRequest:
    args = build_parser().parse_args(["probe", *argv])
    return args.build_request(args)


@pytest.fixture
def stub():
    server = StubServer()
    yield server
    server.stop()


@pytest.fixture
def base(tmp_path, stub):
    """The bias sample (one probe set, a scripted run) with the stub as the default model."""
    path = build_bias_sample(tmp_path / "base.sqlite")
    with Workspace(path, create=False) as ws:
        register_endpoint(ws, "stub", [stub.url], "m", is_default=True)
    return path


def open_panel(qtbot, ws, bridge) -> BiasPanel:
    panel = BiasPanel(ws, bridge)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitUntil(lambda: panel.run_button.isEnabled(), timeout=30_000)
    return panel


def test_the_cli_and_the_panel_default_alike(qtbot, base, sync_bridge):
    assert cli_request() == ProbeRequest() == DEFAULTS
    with Workspace(base, create=False) as ws:
        panel = open_panel(qtbot, ws, sync_bridge)
        model_id, request = panel.probe_request()
        # the default model first, as the CLI asks it without --models; every set; the
        # panel's only other choice is a small first run (ten probes), as every job dialog's
        assert panel.model.currentText() == "stub" and request.models == ("stub",)
        assert request == ProbeRequest(models=("stub",), limit=10)
        assert cli_request("--models", "stub", "--limit", "10") == request


def test_one_request_from_the_cli_and_the_panel_writes_the_same_rows(
    qtbot, tmp_path, base, capsys, sync_bridge
):
    cli_ws, gui_ws = tmp_path / "cli.sqlite", tmp_path / "gui.sqlite"
    copy_workspace(base, cli_ws)
    copy_workspace(base, gui_ws)
    argv = ["--models", "stub", "--sets", "sample-gender", "--limit", "3"]
    argv += ["--counterbalance", "--constrained"]
    capsys.readouterr()
    assert main(["-w", str(cli_ws), "probe", *argv, "--json"]) == 0
    cli_runs = json.loads(capsys.readouterr().out)["runs"]

    with Workspace(gui_ws, create=False) as ws:
        panel = open_panel(qtbot, ws, sync_bridge)
        QTest.keyClicks(panel.probe_set, "sample")  # the set by its name, as typed
        assert panel.probe_set.currentText() == "sample-gender"
        retype(panel.limit, "3")
        qtbot.mouseClick(panel.counterbalance, Qt.MouseButton.LeftButton)
        qtbot.mouseClick(panel.constrained, Qt.MouseButton.LeftButton)
        assert panel.probe_request()[1] == cli_request(*argv)
        with qtbot.waitSignal(panel.sig_run_finished, timeout=60_000) as finished:
            qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
        gui_runs = finished.args[0]
        assert not sync_bridge.errors

    def what(runs):
        return [{k: v for k, v in r.items() if k not in TIMING} for r in runs]

    assert what(gui_runs) == what(cli_runs)
    assert [(r["items"], r["done_now"], r["errors"]) for r in cli_runs] == [(6, 6, 0)]
    assert stored_rows(gui_ws, ("responses",)) == stored_rows(cli_ws, ("responses",))
    assert stored_runs(gui_ws) == stored_runs(cli_ws)


def stored_runs(path) -> list[tuple]:
    """Every run with its card, less the timing the job measured."""
    with Workspace(path, create=False) as ws:
        rows = ws.conn.execute(
            "SELECT kind, run_key, model_id, status, card FROM runs ORDER BY id"
        ).fetchall()
    runs = []
    for *head, card in rows:
        card = json.loads(card)
        card.pop("plan_timing", None)
        runs.append((*head, card))
    return runs


def test_a_refused_run_is_said_in_the_windows_words(qtbot, tmp_path, stub, sync_bridge):
    from importlib.resources import files

    from engine.bias.probes import import_probes

    with Workspace(tmp_path / "ws.sqlite") as ws:
        import_probes(ws, files("resources") / "sample" / "probes_gender.csv", name="g")
        register_endpoint(ws, "stub", [stub.url], "m", is_default=True)
        panel = open_panel(qtbot, ws, sync_bridge)
        # the sets go away after the panel read them (another window, the CLI)
        with ws.conn:
            ws.conn.execute("DELETE FROM probe_items")
            ws.conn.execute("DELETE FROM probe_sets")
        with qtbot.waitSignal(panel.sig_status_message, timeout=30_000) as said:
            qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
        message = said.args[0]
        assert "⟦" not in message and "Import probes" in message, message
        assert panel.run_button.isEnabled() and not stub.calls
