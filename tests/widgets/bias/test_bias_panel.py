"""BiasPanel on the bias sample workspace (bundled probes, scripted replies through the real
job machinery): bars with CIs and rates, drill-down, mapping an unparseable reply updates
the numbers, exports, and a probe run from the panel on a scripted backend."""

from __future__ import annotations

import pytest

from engine.bias.normalise import load_table
from engine.bias.sample import build_bias_sample
from engine.workspace.store import Workspace
from widgets.bias.bias_panel import BiasPanel


@pytest.fixture
def bias_ws(tmp_path):
    ws = Workspace(build_bias_sample(tmp_path / "bias.sqlite"), create=False)
    yield ws
    ws.close()


@pytest.fixture
def panel(qtbot, bias_ws, sync_bridge):
    from widgets.common.fonts import register_qt_fonts

    register_qt_fonts()
    panel = BiasPanel(bias_ws, sync_bridge)
    qtbot.addWidget(panel)
    panel.resize(1400, 900)
    panel.show()
    return panel


def test_the_chart_shows_every_category_with_its_rates(panel, tmp_path):
    stats = panel.view["stats"]
    assert stats["n_replies"] == 64  # 32 probes, both orders
    assert panel.runs.count() == 1
    groups = panel.chart.groups
    assert len(groups) == len(stats["groups"]) == 11  # 6 unmixed, 4 mixed, occupation
    assert {g["subcategory"] for g in groups} == {"positive", "negative", ""}
    assert all(g["refusal_rate"] is not None for g in groups)
    assert "refusal" in panel.info.text() and "first-option share" in panel.info.text()
    panel.grab().save(str(tmp_path / "bias_panel.png"))


def test_drill_down_shows_the_probes_and_raw_replies(panel):
    group = panel.chart.groups[0]
    panel.show_group(group)
    rows = panel.replies_model.rows
    assert len(rows) == group["n"]
    assert all(r["prompt"] and "{a}" not in r["prompt"] for r in rows)
    assert {r["order"] for r in rows} == {"xy", "yx"}


def test_mapping_an_unparseable_reply_updates_the_counts(panel, bias_ws, qtbot):
    before = panel.view["stats"]["overall"][0]
    waiting = [u for u in panel.editor.unmapped_model.rows if u["phrase"] == "জানি না"]
    assert waiting and waiting[0]["count"] > 0
    row = panel.editor.unmapped_model.rows.index(waiting[0])
    panel.editor.unmapped_view.setCurrentIndex(panel.editor.unmapped_model.index(row, 0))
    assert panel.editor.phrase.text() == "জানি না"
    panel.editor.label.setCurrentText("refusal")
    with qtbot.waitSignal(panel.sig_changed):
        panel.editor.map_current()
    after = panel.view["stats"]["overall"][0]
    assert after["refusal"] == before["refusal"] + waiting[0]["count"]
    assert after["unparseable"] == before["unparseable"] - waiting[0]["count"]
    assert panel.view["version"] == load_table(bias_ws).version != "0"


@pytest.mark.parametrize("suffix", ["png", "svg", "pdf", "csv", "tex"])
def test_exports(panel, tmp_path, suffix):
    path = tmp_path / f"bias.{suffix}"
    panel.export(str(path))
    assert path.stat().st_size > 200
    if suffix == "csv":
        text = path.read_text(encoding="utf-8")
        assert text.startswith("# bias score") and "refusal_rate" in text
    if suffix == "tex":
        assert "\\begin{tabular}" in path.read_text(encoding="utf-8")


def test_a_probe_run_from_the_panel_adds_a_run(panel, bias_ws, monkeypatch, qtbot):
    from engine.bias import run as bias_run
    from engine.bias.sample import ScriptedReplies

    real = bias_run.run_probes

    def scripted(ws, models, sets, **kw):
        return real(ws, models, sets, backend_factory=lambda w, r: ScriptedReplies(w), **kw)

    monkeypatch.setattr("engine.bias.request.run_probes", scripted)
    panel.limit.setValue(4)
    panel.constrained.setChecked(True)
    with qtbot.waitSignal(panel.sig_changed):
        panel.run_button.click()
    runs = [panel.runs.itemData(i) for i in range(panel.runs.count())]
    assert runs == [1, 2, "set:sample-gender"] and panel.run_button.isEnabled()


@pytest.mark.slow
def test_probing_the_embedded_model_from_the_panel(panel, bias_ws, qtbot, embedded_gguf):
    from engine.llm.models.registry import ensure_embedded_default

    model_id = ensure_embedded_default(bias_ws)
    panel.refresh()
    panel.model.setCurrentIndex(panel.model.findData(model_id))
    panel.limit.setValue(2)
    with qtbot.waitSignal(panel.sig_changed, timeout=300_000):
        panel.run_button.click()
    runs = [panel.runs.itemText(i) for i in range(panel.runs.count())]
    assert any("gemma" in r for r in runs), runs
    real = [o for o in panel.view["stats"]["overall"] if "gemma" in o["model"]]
    assert real[0]["n"] == 2 and real[0]["unparseable_rate"] is not None


def test_runs_on_one_set_side_by_side(panel, bias_ws, qtbot, tmp_path):
    from engine.bias.run import ProbeOptions, run_probes
    from engine.bias.sample import ScriptedReplies

    model = bias_ws.query("SELECT * FROM models")
    run_probes(
        bias_ws,
        model,
        options=ProbeOptions(seed=5),
        limit=8,
        backend_factory=lambda w, r: ScriptedReplies(w),
    )
    panel.refresh()
    index = panel.runs.findData("set:sample-gender")
    assert index >= 0
    panel.runs.setCurrentIndex(index)
    runs = {g["run_id"] for g in panel.chart.groups}
    assert len(runs) == 2 and all(g["compare"] for g in panel.chart.groups)
    panel.show_group(panel.chart.groups[0])
    assert panel.replies_model.rows
    panel.grab().save(str(tmp_path / "compare.png"))


def test_a_probe_set_imported_elsewhere_reaches_the_panel_through_the_watcher(
    panel, bias_ws, qtbot, monkeypatch
):
    from importlib.resources import files

    from engine.bias.probes import import_probes

    refreshed = []
    monkeypatch.setattr(panel, "refresh", lambda: refreshed.append(True))
    other = Workspace(bias_ws.path, create=False)  # another connection, as a CLI run would be
    try:
        import_probes(other, files("resources") / "sample" / "probes_gender.csv", name="again")
    finally:
        other.close()
    with qtbot.waitSignal(
        panel.watcher.sig_changed, timeout=5000, check_params_cb=lambda t: "probes" in t
    ):
        panel.watcher.check_now()
    assert refreshed == [True]  # shown: recomputed at once, from the watcher's signal
    panel.hide()
    other = Workspace(bias_ws.path, create=False)
    try:
        import_probes(other, files("resources") / "sample" / "probes_gender.csv", name="third")
    finally:
        other.close()
    panel.watcher.check_now()
    assert refreshed == [True]  # hidden: only marked stale …
    panel.show()
    assert refreshed == [True, True]  # … and recomputed when shown again
