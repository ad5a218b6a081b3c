"""The validity panel's defaults are the command line's: opened and left untouched, it builds
the request ``upabhasha validity --judge-run RUN`` builds, field for field; every choice
typed into it reaches the request as the matching option does."""

from __future__ import annotations

from app.cli.batch import step_request
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
