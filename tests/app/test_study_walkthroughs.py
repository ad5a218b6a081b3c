"""The GUI-only walkthroughs of the dialect-tasks and social-bias studies
(scripts/study_walkthroughs.py) offscreen, fast: the embedded model, one dialect and one item
per cell for the tasks, four probes in both orders for bias; the workspace is checked after
each step and every step leaves its picture."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# Qt's offscreen platform warns on every top-level show and raise; nothing about our code.
pytestmark = pytest.mark.qt_log_ignore(
    "This plugin does not support propagateSizeHints", "This plugin does not support raise"
)


def _load():
    name = "study_walkthroughs"
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)  # puts scripts/ on sys.path for gui_driving
    return module


def _walk(study: str, qapp, tmp_path):
    w = _load()
    walk = w.start_study(
        tmp_path / "shots", tmp_path / f"{study}.sqlite", config_dir=tmp_path / "config"
    )
    walk.module = w
    return walk


def _run(walk, step) -> None:
    import gui_driving

    gui_driving.run_step(walk, step)
    assert walk.shots[-1].exists() and walk.shots[-1].stat().st_size > 10_000
    assert not walk.message_boxes


def _finish(walk) -> None:
    import gui_driving

    gui_driving.finish(walk)


def test_dialect_tasks_from_the_gui_alone(qapp, qtbot, embedded_gguf, tmp_path):
    walk = _walk("tasks", qapp, tmp_path)
    walk.task_dialects = ["sylhet"]  # 2 regimes × 2 scripts × 1 item: 4 prompts
    w = walk.module
    try:
        steps = iter(w.TASK_STEPS)
        _run(walk, next(steps))  # new workspace
        _run(walk, next(steps))  # the embedded model
        _run(walk, next(steps))  # items, from the Tasks panel's own button
        assert walk.ws.scalar("SELECT count(*) FROM task_items") == 363
        assert walk.ws.scalar("SELECT count(*) FROM task_items WHERE label = ''") == 0
        _run(walk, next(steps))  # zero/few × native/Romanized
        runs = walk.window.panels["tasks"].report["runs"]
        assert {(r["regime"], r["script"]) for r in runs} == {
            (regime, script) for regime in ("zero", "few") for script in ("native", "roman")
        }
        assert walk.ws.scalar("SELECT count(*) FROM responses WHERE status = 'done'") == 4
        _run(walk, next(steps))  # drill-down
        assert walk.window.panels["tasks"].items.rowCount() == 1
        _run(walk, next(steps))  # export
        rows = w.exported_rows(walk.export_path)
        assert len(rows) == 4
        assert [p.name for p in walk.shots] == [
            "01_new_workspace.png",
            "02_models.png",
            "03_import_items.png",
            "04_task_results.png",
            "05_drill_down.png",
            "06_export.png",
        ]
    finally:
        _finish(walk)


def test_social_bias_probes_from_the_gui_alone(qapp, qtbot, embedded_gguf, tmp_path):
    walk = _walk("bias", qapp, tmp_path)
    w = walk.module
    try:
        steps = iter(w.BIAS_STEPS)
        _run(walk, next(steps))
        _run(walk, next(steps))
        _run(walk, next(steps))  # the empty panel's "Import probes…"
        assert walk.ws.scalar("SELECT count(*) FROM probe_items") == 32
        _run(walk, next(steps))  # counterbalanced: each probe in both orders
        orders = walk.ws.query(
            "SELECT substr(item_key, -2) AS o, count(*) AS n FROM responses GROUP BY o"
        )
        assert orders == [{"o": "xy", "n": w.PROBE_LIMIT}, {"o": "yx", "n": w.PROBE_LIMIT}]
        bias = walk.window.panels["bias"]
        assert bias.chart.groups
        # the view shown when the run ended counts every reply it stored
        assert bias.view["responses"] == walk.ws.scalar("SELECT count(*) FROM responses")
        _run(walk, next(steps))  # a bar clicked: its replies
        assert bias.selected_group is not None and bias.replies_model.rowCount() > 0
        _run(walk, next(steps))  # normalisation edit
        assert walk.ws.scalar(
            "SELECT count(*) FROM probe_norm_entries WHERE label = ?", (w.NORMALISED_AS,)
        )
    finally:
        _finish(walk)
