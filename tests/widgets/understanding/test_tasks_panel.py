"""TasksPanel offscreen: options, results grid from real runs, drill-down, a real run."""

from __future__ import annotations

import pytest

from engine.understanding.run import run_task
from engine.understanding.task_spec import get_task
from tests.engine.understanding.conftest import insert_pairs
from tests.scripted_backend import ScriptedBackend
from tests.widgets.task_fixtures import task_ws  # noqa: F401 (fixture)
from widgets.understanding.tasks_panel import TasksPanel


def _runs(ws):
    model = ws.query("SELECT * FROM models WHERE name = 'scripted'")[0]
    factory = lambda ws, run_id: ScriptedBackend(  # noqa: E731
        lambda req: '{"standard": "তুমি কোথায় যাচ্ছ"}'
    )
    run_task(
        ws,
        get_task("dialect-to-standard"),
        [model],
        regimes=["zero", "few"],
        scripts=["native", "roman"],
        k=1,
        backend_factory=factory,
    )


def test_results_grid_and_drill_down(qtbot, task_ws, sync_bridge, tmp_path):
    _runs(task_ws)
    panel = TasksPanel(task_ws, sync_bridge)
    qtbot.addWidget(panel)
    assert panel.model_ids() == [1]  # the default model is checked
    request = panel.job_request()
    assert request.regimes == ("zero",) and request.source == "pairs"
    assert panel.results.rowCount() == 4
    header = [
        panel.results.horizontalHeaderItem(i).text() for i in range(panel.results.columnCount())
    ]
    assert "Copy baseline" in header and "Unparseable" in header
    first = [panel.results.item(0, j).text() for j in range(panel.results.columnCount())]
    assert (
        first[2] == "zero" and first[6].startswith("chrF++") and first[6].endswith("· scale 0-100")
    )
    assert first[8].startswith("chrF++")  # the copy-input baseline is shown
    assert "native − Romanized (avro)" in panel.comparisons.text()
    assert "zero→few flips" in panel.comparisons.text()
    panel.results.selectRow(2)  # few / native
    assert panel.items.rowCount() == 4
    demos = panel.items.item(0, 5).text()
    assert demos and "|" in demos  # k=1 from each of two dialects
    assert panel.export_to(str(tmp_path / "r.csv")) == 4
    assert panel.export_to(str(tmp_path / "r.tex")) == 4
    assert "tabular" in (tmp_path / "r.tex").read_text(encoding="utf-8")
    assert len(panel.failure_bars.rows) == 4
    assert panel.failure_bars.rows[0][1]["unparseable"] == 0.0
    panel.resize(1300, 800)
    panel.show()
    qtbot.waitExposed(panel)
    panel.grab().save(str(tmp_path / "tasks_panel.png"))


def test_run_error_is_shown_not_raised(qtbot, task_ws, sync_bridge):
    panel = TasksPanel(task_ws, sync_bridge)
    qtbot.addWidget(panel)
    panel.split.setCurrentText("test")  # no test-split pairs in this workspace
    panel.run()
    assert "no items in split 'test'" in panel.progress_note.text()
    assert panel.run_button.isEnabled() and not panel.cancel_button.isEnabled()


@pytest.mark.slow
def test_run_on_the_embedded_model(qtbot, workspace, sync_bridge, embedded_gguf):
    from engine.llm.models.registry import ensure_embedded_default

    insert_pairs(workspace)
    ensure_embedded_default(workspace)
    panel = TasksPanel(workspace, sync_bridge)
    qtbot.addWidget(panel)
    panel.task_box.setCurrentIndex(panel.task_box.findData("dialect-id"))
    panel.limit.setValue(1)
    with qtbot.waitSignal(panel.sig_run_finished) as done:
        panel.run()
    assert done.args[0][0]["complete"] and done.args[0][0]["items"] == 2
    assert panel.results.rowCount() == 1
    assert panel.results.item(0, 6).text().startswith("macro-F1")


def test_sample_warnings_and_a_romanized_copy_baseline_are_shown(
    qtbot, task_ws, sync_bridge, tmp_path
):
    from engine.understanding.items import import_items, parse_label_names

    _runs(task_ws)
    path = tmp_path / "hate.csv"
    rows = [f"বাক্য {i},sylhet,{int(i >= 4)}" for i in range(8)]  # sorted by label
    path.write_text("post,region,flag\n" + "\n".join(rows) + "\n", "utf-8")
    import_items(
        task_ws,
        path,
        name="hate",
        native_col="post",
        dialect_col="region",
        label_col="flag",
        label_names=parse_label_names("0=fine,1=offensive"),
    )
    task_ws.conn.execute("UPDATE task_items SET split = 'test' WHERE label = '0'")
    model = task_ws.query("SELECT * FROM models WHERE name = 'scripted'")[0]
    run_task(
        task_ws,
        get_task("classification"),
        [model],
        source="items:hate",
        backend_factory=lambda ws, run_id: ScriptedBackend(lambda r: '{"label": "offensive"}'),
    )
    panel = TasksPanel(task_ws, sync_bridge)
    qtbot.addWidget(panel)
    assert "class 'fine' has no items in this run" in panel.comparisons.text()
    copies = {
        panel.results.item(i, 3).text(): panel.results.item(i, 8).text()
        for i in range(panel.results.rowCount())
    }
    assert copies["roman (avro)"] == "not applicable"


def test_a_cancelled_run_shows_its_real_fraction_label_and_tokens(
    qtbot, task_ws, sync_bridge, monkeypatch
):
    from tests.scripted_backend import ScriptedBackend
    from widgets.common.job_monitor import JobTableModel, tokens_per_second

    asked = []

    def reply(_request):
        asked.append(1)
        if len(asked) == 3:  # Cancel (the job monitor's) during the first of two runs
            for task in sync_bridge.running_tasks():
                task.cancel()
        return '{"standard": "তুমি কোথায় যাচ্ছ"}'

    monkeypatch.setattr(
        "engine.llm.runs.backend.backend_for_run", lambda ws, run_id: ScriptedBackend(reply)
    )
    panel = TasksPanel(task_ws, sync_bridge)
    qtbot.addWidget(panel)
    panel.regimes["few"].setChecked(True)
    panel.k.setValue(1)
    panel.run()
    task = sync_bridge.tasks()[-1]
    assert task.state == "cancelled"
    assert task.label == "Task dialect-to-standard · scripted · zero, few · native"
    assert 0 < task.done < task.total  # the whole job's items: 2 runs
    fraction = task.done / task.total
    assert fraction < 0.5
    assert panel.progress.text() == f"cancelled at {int(100 * fraction)}%"
    assert panel.progress.value() == task.done and panel.progress.maximum() == task.total
    assert tokens_per_second(task) is not None and task.tokens == task.done  # 1 token each
    model = JobTableModel()
    model.add(task)
    assert model.data(model.index(0, 1)) == "cancelled"


def test_missing_input_is_said_before_a_job_starts(qtbot, task_ws, sync_bridge):
    panel = TasksPanel(task_ws, sync_bridge)
    qtbot.addWidget(panel)
    panel.models.item(0).setCheckState(panel.models.item(0).checkState().Unchecked)
    before = len(sync_bridge.tasks())
    panel.run()
    assert panel.progress_note.text() == "Choose at least one model."
    assert len(sync_bridge.tasks()) == before and panel.run_button.isEnabled()
