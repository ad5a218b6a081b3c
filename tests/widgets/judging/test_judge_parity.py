"""One request, two front ends: ``upabhasha judge`` / ``calibrate`` and the Judge panel (the
judge model picked and the reasoning cap typed as a user does, the button clicked), each on
its own copy of one study, judged by a scripted OpenAI-compatible server on 127.0.0.1, write
the same rows and report the same summaries."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from app.cli import main
from engine.judging import store
from engine.judging.rubric import CRITERION_KEYS, load_rubric
from engine.llm.models.registry import register_endpoint
from engine.workspace.store import Workspace
from tests.cli.batch_tools import copy_workspace, stored_rows
from tests.engine.judging.study_fixture import add_judge, build_study, short_rubric
from tests.fault_server import LocalServer, read_body, send_json
from tests.widgets.keyboard import retype
from widgets.judging.judge_panel import JudgePanel

JUDGE = "judge-ep"


class VerdictServer(LocalServer):
    """A judge whose verdict is a function of the prompt: the same item, the same verdict,
    whichever front end asked."""

    def respond(self, handler) -> None:
        body = json.loads(read_body(handler))
        seed = hashlib.sha256(json.dumps(body["messages"]).encode()).digest()
        verdict = {
            "chain_of_thought_reasoning": "উত্তরটি প্রশ্নের সাথে মেলে।",
            **{key: seed[i] % 6 for i, key in enumerate(CRITERION_KEYS)},
            "confidence": 1 + seed[9] % 5,
        }
        text = json.dumps(verdict, ensure_ascii=False)
        usage = {"prompt_tokens": 10, "completion_tokens": 20}
        send_json(handler, 200, {"choices": [{"message": {"content": text}}], "usage": usage})


@pytest.fixture
def server():
    s = VerdictServer()
    yield s
    s.stop()


@pytest.fixture
def study(tmp_path, server) -> tuple[Path, Path, Path]:
    """Two copies of one study (two answering models, an earlier judge with two human
    scores) with the scripted judge registered, and the short-reasoning rubric file."""
    source = tmp_path / "source.sqlite"
    with Workspace(source) as ws:
        build_study(ws)
        rids = [p["dialect_response_id"] for p in store.answer_pairs(ws)]
        run = add_judge(ws, "judge-a", "gemini", {rid: float(i % 10) for i, rid in enumerate(rids)})
        for judgment, final in zip(
            [r[0] for r in ws.conn.execute("SELECT id FROM judgments WHERE run_id = ?", (run,))],
            (8.0, 2.0, 5.0),
        ):
            store.add_override(
                ws,
                judgment,
                annotator="রহিম",
                reason="calibration",
                rubric=load_rubric(),
                final=final,
            )
        register_endpoint(ws, JUDGE, [server.url], "m")
    cli, gui = tmp_path / "cli.sqlite", tmp_path / "gui.sqlite"
    copy_workspace(source, cli)
    copy_workspace(source, gui)
    return cli, gui, short_rubric(tmp_path)


def cli_json(capsys, argv: list[str]) -> dict:
    capsys.readouterr()
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return json.loads(captured.out)


def judge_rows(path: Path) -> dict:
    """What a judge run stored: its replies, its judgments (each naming its reply by item
    key: a server's replies arrive, and are numbered, in any order) and its run (key and card,
    less the card's timings)."""
    rows = stored_rows(path, ("responses", "human_annotations"))
    with Workspace(path, create=False) as ws:
        judgments = ws.query(
            "SELECT j.*, r.item_key AS reply FROM judgments j "
            "LEFT JOIN responses r ON r.id = j.judge_response_id"
        )
        runs = ws.query("SELECT kind, run_key, model_id, card FROM runs ORDER BY id")
    for row in judgments:
        for volatile in ("id", "judge_response_id", "created_at"):
            del row[volatile]
    for run in runs:
        run["card"] = json.loads(run["card"])
        run["card"].pop("plan_timing", None)
    return {**rows, "judgments": sorted(judgments, key=repr), "runs": runs}


def open_panel(qtbot, ws: Workspace, bridge) -> JudgePanel:
    """The panel with the scripted judge picked and the reasoning cap typed, as a user does."""
    panel = JudgePanel(ws, bridge)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitUntil(lambda: panel.human_scored > 0, timeout=30_000)  # the overview is in
    panel.judge_model.setFocus()
    QTest.keyClicks(panel.judge_model, JUDGE)
    assert panel.judge_model.currentText().startswith(JUDGE)
    retype(panel.editor.max_chars, "50")  # short_rubric's cap
    assert panel.rubric is not None and panel.rubric.reasoning_max_chars == 50
    return panel


def test_judge_from_the_cli_and_the_panel_writes_the_same_rows(
    qtbot, study, capsys, threaded_bridge
):
    cli, gui, rubric = study
    from_cli = cli_json(
        capsys, ["-w", str(cli), "judge", "--judge", JUDGE, "--rubric", str(rubric), "--json"]
    )

    with Workspace(gui, create=False) as ws:
        panel = open_panel(qtbot, ws, threaded_bridge)
        assert panel.rubric.content_hash == load_rubric(rubric).content_hash
        with qtbot.waitSignal(panel.sig_judged, timeout=120_000) as judged:
            qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
        from_gui = judged.args[0].as_dict()
        qtbot.waitUntil(lambda: panel.job.task is None, timeout=30_000)
        assert not threaded_bridge.errors

    assert from_cli["pairs"] == 12 and from_cli["failed"] == 0
    assert from_cli["judged_now"] + from_cli["gated"] == 12
    assert from_gui == from_cli
    assert judge_rows(gui) == judge_rows(cli)


def test_calibrate_from_the_cli_and_the_panel_gives_the_same_figures(
    qtbot, study, capsys, threaded_bridge
):
    cli, gui, rubric = study
    argv = ["-w", str(cli), "calibrate", "--judge", JUDGE, "--rubric", str(rubric), "--json"]
    from_cli = cli_json(capsys, argv)

    with Workspace(gui, create=False) as ws:
        panel = open_panel(qtbot, ws, threaded_bridge)
        assert panel.calibrate_button.isEnabled()
        with qtbot.waitSignal(panel.sig_calibrated, timeout=120_000) as calibrated:
            qtbot.mouseClick(panel.calibrate_button, Qt.MouseButton.LeftButton)
        from_gui = calibrated.args[0]
        assert "human-scored answers: CCC" in panel.figures.text()
        assert not threaded_bridge.errors

    assert from_cli["n_human_scored"] == 3 and from_cli["judge"]["failed"] == 0
    assert from_gui == from_cli
    assert judge_rows(gui) == judge_rows(cli)
