"""The validity panel's defaults are the command line's: opened and left untouched, it builds
the request ``upabhasha validity --judge-run RUN`` builds, field for field; every choice
typed into it reaches the request as the matching option does."""

from __future__ import annotations

from PySide6.QtCore import Qt

from app.cli.batch import step_request
from engine.judging.run import judge_answers
from tests.engine.validity import planted
from tests.widgets.validity.test_validity_panel import open_panel, type_number


def test_untouched_and_typed_requests_are_the_command_lines(qtbot, workspace, sync_bridge):
    planted.build(workspace, 4)
    run = planted.judge_run(workspace, planted.order_blind)
    panel = open_panel(qtbot, workspace, sync_bridge)
    request = panel.job_request()
    assert not isinstance(request, str), request
    assert step_request(["validity", "--judge-run", str(run)]) == request

    type_number(qtbot, panel.per_dialect, "7")
    type_number(qtbot, panel.seed, "11")
    type_number(qtbot, panel.bands["flip_max"], "10")
    type_number(qtbot, panel.bands["discrimination_min"], "80")
    argv = ["validity", "--judge-run", str(run), "--per-dialect", "7", "--seed", "11",
            "--flip-max", "0.1", "--discrimination-min", "0.8"]  # fmt: skip
    assert step_request(argv) == panel.job_request()


def test_a_judge_run_chosen_with_the_mouse_is_the_one_checked(qtbot, workspace, sync_bridge):
    planted.build(workspace, 4)
    first = planted.judge_run(workspace, planted.order_blind)
    # a second judge model's run (a run per judge model): the first stays primary
    workspace.conn.execute(
        "INSERT INTO models(name, kind, api_model, base_urls, family, added_at) "
        "SELECT 'second-judge', kind, api_model, base_urls, 'qwen', added_at FROM models "
        "WHERE name = 'planted-judge'"
    )
    second_model = workspace.query("SELECT * FROM models WHERE name = 'second-judge'")[0]
    second = judge_answers(
        workspace,
        second_model,
        backend_factory=lambda _ws, _run: planted.ScriptedBackend(planted.all_fives),
    ).run_id
    panel = open_panel(qtbot, workspace, sync_bridge)
    qtbot.waitUntil(lambda: panel.judges.rowCount() == 2, timeout=30_000)
    assert panel.judge_run() == first
    table = panel.judges
    cell = table.visualItemRect(table.item(1, 1)).center()
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=cell)
    assert panel.judge_run() == second
    qtbot.waitUntil(lambda: "second-judge" in panel.scope.text(), timeout=30_000)
    assert step_request(["validity", "--judge-run", str(second)]) == panel.job_request()
