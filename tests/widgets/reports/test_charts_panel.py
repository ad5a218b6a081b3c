"""ChartsPanel on a real workspace with a synthetic study: data through the bridge, live
redraws from the timer, exports (PNG/SVG/PDF opened again, CSV read back)."""

from __future__ import annotations

import csv
import json
import shutil

import pytest

from engine.judging import paired_scores, store
from engine.judging.paired_scores import pair_runs, paired_machine_finals
from engine.judging.rubric import load_rubric
from engine.reports import chart_data
from engine.samples import study as sample_study
from engine.workspace.store import Workspace
from tests.widgets.study_fixtures import fast_watcher, study_db, study_ws  # noqa: F401 (fixtures)
from widgets.reports.charts_panel import ChartsPanel


@pytest.fixture
def panel(qtbot, study_ws, sync_bridge, fast_watcher):
    panel = ChartsPanel(study_ws, sync_bridge, watcher=fast_watcher)
    qtbot.addWidget(panel)
    panel.resize(1200, 700)
    return panel


def shown(panel, qtbot, kind="heatmap"):
    with qtbot.waitSignal(panel.sig_refreshed, timeout=30000) as blocker:
        panel.show()
        panel.show_chart(kind)
    return blocker


def test_lean_chart_items_match_the_store_with_overrides(study_ws):
    """The charts' lean query gives the same effective finals as store.scored_items."""
    run = store.primary_judge(study_ws)
    judgment = study_ws.scalar("SELECT min(id) FROM judgments WHERE run_id = ?", (run,))
    rubric = load_rubric()
    store.add_override(
        study_ws, judgment, annotator="রহিম", reason="too low", rubric=rubric, final=9.5
    )
    store.add_override(
        study_ws, judgment, annotator="করিম", reason="second look", rubric=rubric, final=8.0
    )
    lean = chart_data.items(study_ws, run, "ji.dialect AS dialect")
    full = store.scored_items(study_ws, run)
    assert sorted((r["question_id"], r["dialect"], r["final"]) for r in lean) == sorted(
        (r["question_id"], r["dialect"], r["final"]) for r in full
    )
    assert 8.0 in [r["final"] for r in lean]


def test_every_chart_computes_from_engine_statistics(study_db):
    from engine.stats.summary import summarize

    with Workspace(study_db, create=False) as ws:
        items = store.scored_items(ws, store.primary_judge(ws))
    expected = {g["dialect"]: g for g in summarize(items, ("dialect",), resamples=200)}
    data = chart_data.chart_data(str(study_db), "dialects", resamples=200)
    assert {g["dialect"] for g in data["groups"]} == {"chittagong", "sylhet", "noakhali"}
    for group in data["groups"]:
        assert group["mean"] == pytest.approx(expected[group["dialect"]]["mean"])
        assert group["ci_low"] == pytest.approx(expected[group["dialect"]]["ci_low"])
        assert group["ci_low"] < group["mean"] < group["ci_high"]
    for kind in chart_data.CHART_KINDS:
        data = chart_data.chart_data(str(study_db), kind, resamples=200)
        assert data["n"] > 0 and not data.get("empty"), kind
        assert len(data["table"]["rows"]), kind
    cbs = chart_data.chart_data(str(study_db), "cbs")["pairs"][0]
    assert 0 < cbs["cbs"] <= 1 and cbs["n_critical"] > 0


def test_panel_draws_the_heatmap_with_bengali_dialect_names(panel, qtbot):
    shown(panel, qtbot)
    data = panel.data["heatmap"]
    assert len({c["model"] for c in data["cells"]}) == 3
    axes = panel.renderer.figure("heatmap").axes[0]
    labels = [t.get_text() for t in axes.get_xticklabels()]
    assert "Chittagong\nচট্টগ্রামের ভাষা" in labels
    assert len(axes.images) == 1


def test_switching_charts_computes_the_visible_one_only(panel, qtbot):
    shown(panel, qtbot)
    assert set(panel.data) == {"heatmap"}
    with qtbot.waitSignal(panel.sig_refreshed, timeout=10000) as blocker:
        panel.show_chart("agreement")
    assert blocker.args[0] == "agreement"
    assert set(panel.data) == {"heatmap", "agreement"}
    assert panel.data["agreement"]["figures"]["ccc"] > 0.5


def test_live_update_redraws_once_per_tick_not_per_judgment(panel, qtbot, study_ws):
    shown(panel, qtbot)
    before = panel.data["heatmap"]["n"]
    run_id, rows = sample_study.add_answer_model(study_ws, "synthetic model live", seed=9)
    refreshed = []
    panel.sig_refreshed.connect(lambda kind, ms, full: refreshed.append((kind, full)))
    # another connection writes, as a judge job in a worker or another process would
    written = sample_study.stream_judgments(
        str(study_ws.path), store.primary_judge(study_ws), rows, batch=10, pause_s=0
    )
    assert written == len(rows) > 20
    qtbot.waitUntil(
        lambda: panel.data["heatmap"]["n"] == before + written and bool(refreshed), timeout=10000
    )  # data back, then painted
    assert 1 <= len(refreshed) <= 2  # dozens of batches, one or two redraws
    assert refreshed[-1] == ("heatmap", False)  # a live (incremental) refresh
    assert any(c["model"] == "synthetic model live" for c in panel.data["heatmap"]["cells"])


def test_paused_live_updates_wait_for_refresh(panel, qtbot, study_ws):
    shown(panel, qtbot)
    panel.live.setChecked(False)
    before = panel.data["heatmap"]["n"]
    _run, rows = sample_study.add_answer_model(study_ws, "synthetic model paused", seed=3)
    sample_study.stream_judgments(
        str(study_ws.path), store.primary_judge(study_ws), rows, batch=100, pause_s=0
    )
    qtbot.wait(200)
    assert panel.data["heatmap"]["n"] == before
    with qtbot.waitSignal(panel.sig_refreshed, timeout=10000):
        panel.refresh_button.click()
    assert panel.data["heatmap"]["n"] == before + len(rows)


@pytest.mark.parametrize("fmt, magic", [("png", b"\x89PNG"), ("svg", b"<?xml"), ("pdf", b"%PDF")])
def test_export_chart_image(panel, qtbot, tmp_path, fmt, magic):
    shown(panel, qtbot, "dialects")
    path = panel.export_image(tmp_path / f"dialects.{fmt}")
    assert path.read_bytes()[: len(magic)] == magic
    with pytest.raises(ValueError):
        panel.export_image(tmp_path / "chart.gif")


def test_export_table_csv_reads_back(panel, qtbot, tmp_path):
    shown(panel, qtbot, "dialects")
    path = tmp_path / "dialects.csv"
    assert panel.export_table(path) == 3
    with open(path, encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert {r["dialect"] for r in rows} == {"chittagong", "sylhet", "noakhali"}
    assert all(float(r["ci_low"]) <= float(r["mean"]) <= float(r["ci_high"]) for r in rows)


def test_workspace_without_judgments_says_so(qtbot, sample_db, sync_bridge, tmp_path):
    path = tmp_path / "empty.sqlite"
    shutil.copy(sample_db, path)
    with Workspace(path, create=False) as ws:
        panel = ChartsPanel(ws, sync_bridge)
        qtbot.addWidget(panel)
        shown(panel, qtbot)
        assert panel.data["heatmap"]["empty"] == "no judge run yet"


def test_incremental_heatmap_equals_a_full_recount(study_ws):
    path, run = str(study_ws.path), store.primary_judge(study_ws)
    _run, rows = sample_study.add_answer_model(study_ws, "synthetic model late", seed=4)
    sample_study.stream_judgments(path, run, rows[:40], pause_s=0)
    before = chart_data.chart_data(path, "heatmap")
    bars_before = chart_data.chart_data(path, "dialects", resamples=200)
    sample_study.stream_judgments(path, run, rows[40:], pause_s=0)
    bars_step = chart_data.chart_data(path, "dialects", resamples=200, previous=bars_before)
    bars_full = chart_data.chart_data(path, "dialects", resamples=200)
    assert bars_step["clusters"].keys() == bars_full["clusters"].keys()
    for dialect, full in bars_full["clusters"].items():
        step = bars_step["clusters"][dialect]  # merged arrays equal a recount
        assert step["q"].tolist() == full["q"].tolist()
        assert step["n"].tolist() == full["n"].tolist()
        assert step["sum"].tolist() == pytest.approx(full["sum"].tolist())
    for a, b in zip(bars_step["groups"], bars_full["groups"]):
        assert (a["dialect"], a["n"]) == (b["dialect"], b["n"])
        assert (a["mean"], a["ci_low"], a["ci_high"]) == pytest.approx(
            (b["mean"], b["ci_low"], b["ci_high"])
        )
    step = chart_data.chart_data(path, "heatmap", previous=before)
    full = chart_data.chart_data(path, "heatmap")
    assert step["incremental"] and not full["incremental"]
    assert step["n"] == full["n"] == before["n"] + len(rows) - 40
    for a, b in zip(step["cells"], full["cells"]):
        assert (a["model"], a["dialect"], a["n"]) == (b["model"], b["dialect"], b["n"])
        assert a["mean"] == pytest.approx(b["mean"])
    # an override changes an old score: counted again from scratch
    judgment = study_ws.scalar("SELECT min(id) FROM judgments WHERE run_id = ?", (run,))
    store.add_override(
        study_ws, judgment, annotator="রহিম", reason="check", rubric=load_rubric(), final=10.0
    )
    after = chart_data.chart_data(path, "heatmap", previous=step)
    assert not after["incremental"]
    assert after["cells"] != step["cells"]


def _reference_distribution(ws, run) -> list[dict]:
    """The former computation: every scored item read, quartiles per dialect."""
    import numpy as np

    by_dialect: dict = {}
    for r in store.scored_items(ws, run):
        by_dialect.setdefault(r["dialect"], []).append(r["final"])
    out = []
    for dialect, values in sorted(by_dialect.items()):
        v = np.asarray(values, dtype=float)
        q1, med, q3 = np.percentile(v, [25, 50, 75])
        out.append(
            {
                "dialect": dialect,
                "n": int(v.size),
                "min": v.min(),
                "q1": q1,
                "median": med,
                "q3": q3,
                "max": v.max(),
                "mean": v.mean(),
                "share_zero": float(np.mean(v == 0)),
            }
        )
    return out


def test_aggregated_distribution_agreement_and_cbs_equal_the_full_computation(study_ws):
    from engine.stats.agreement import agreement

    path, run = str(study_ws.path), store.primary_judge(study_ws)
    other = [j["run_id"] for j in store.judge_runs(study_ws) if j["run_id"] != run][0]
    judgment = study_ws.scalar("SELECT min(id) FROM judgments WHERE run_id = ?", (run,))
    store.add_override(
        study_ws, judgment, annotator="রহিম", reason="check", rubric=load_rubric(), final=0.0
    )
    _run, rows = sample_study.add_answer_model(study_ws, "synthetic model late", seed=4)
    sample_study.stream_judgments(path, run, rows[:40], pause_s=0)
    before = chart_data.chart_data(path, "distribution")
    sample_study.stream_judgments(path, run, rows[40:], pause_s=0)
    step = chart_data.chart_data(path, "distribution", previous=before)
    full = chart_data.chart_data(path, "distribution")
    assert step["incremental"] and not full["incremental"]
    expected = _reference_distribution(study_ws, run)
    assert step["stats"] == full["stats"]
    assert [s["dialect"] for s in full["stats"]] == [e["dialect"] for e in expected]
    for got, want in zip(full["stats"], expected):
        assert got == pytest.approx(want)
    assert full["n"] == sum(e["n"] for e in expected)

    assert paired_machine_finals(study_ws, run, other) == _reference_pairs(study_ws, run, other)
    agree = chart_data.chart_data(path, "agreement")
    x, y = _reference_pairs(study_ws, run, other)
    assert (agree["x"].tolist(), agree["y"].tolist()) == (x, y)
    assert_same_figures(agree["figures"], agreement(x, y, threshold=4.0).as_dict())
    cbs = chart_data.chart_data(path, "cbs")
    reference = [
        p
        for p in paired_scores.judge_agreement(study_ws, threshold=4.0)[0]
        if run in (p["judge_a"], p["judge_b"])
    ]
    assert len(cbs["pairs"]) == len(reference)
    for got, want in zip(cbs["pairs"], reference):
        assert_same_figures(got, want)


def assert_same_figures(got: dict, want: dict) -> None:
    """Figures from the joint score table equal those on the items, up to rounding."""
    assert got.keys() == want.keys()
    for key, value in want.items():
        if isinstance(value, float):
            assert got[key] == pytest.approx(value, rel=1e-12), key
        else:
            assert got[key] == value, key


def test_incremental_judge_pairs_equal_a_full_join(study_ws):
    """Agreement and CBS extend the previous pairing by the judgments stored since: new
    answers judged by the primary, then the second judge catching up on old and new ones."""
    path, run = str(study_ws.path), store.primary_judge(study_ws)
    other = [j["run_id"] for j in store.judge_runs(study_ws) if j["run_id"] != run][0]
    _run, rows = sample_study.add_answer_model(study_ws, "synthetic model paired", seed=8)
    before = chart_data.chart_data(path, "agreement")
    cbs_before = chart_data.chart_data(path, "cbs")
    sample_study.stream_judgments(path, run, rows, pause_s=0)
    second = [{**r, "final": min(10.0, r["final"] + 1)} for r in rows[::2]]
    sample_study.stream_judgments(path, other, second, pause_s=0)
    step = chart_data.chart_data(path, "agreement", previous=before)
    assert (step["x"].tolist(), step["y"].tolist()) == _reference_pairs(study_ws, run, other)
    assert step["n"] == before["n"] + len(second)
    assert json.dumps(step["figures"]) == json.dumps(
        chart_data.chart_data(path, "agreement")["figures"]
    )
    cbs_step = chart_data.chart_data(path, "cbs", previous=cbs_before)
    assert json.dumps(cbs_step["pairs"]) == json.dumps(chart_data.chart_data(path, "cbs")["pairs"])
    # a pairing of other runs, or one whose judgments vanished, is not extended
    assert pair_runs(study_ws, other, run, step["pairing"])["x"].tolist() == step["y"].tolist()
    rids = step["pairing"]["rids"]
    stale = {**step["pairing"], "last": step["pairing"]["last"] + 1000, "rids": rids[:1]}
    assert pair_runs(study_ws, run, other, stale)["rids"].tolist() == rids.tolist()


def test_live_again_catches_up_with_what_arrived_while_paused(panel, qtbot, study_ws):
    shown(panel, qtbot)
    panel.live.setChecked(False)
    before = panel.data["heatmap"]["n"]
    _run, rows = sample_study.add_answer_model(study_ws, "synthetic model resumed", seed=6)
    sample_study.stream_judgments(
        str(study_ws.path), store.primary_judge(study_ws), rows, batch=100, pause_s=0
    )
    qtbot.waitUntil(lambda: "heatmap" in panel._dirty, timeout=5000)  # the watcher saw it
    assert panel.data["heatmap"]["n"] == before
    with qtbot.waitSignal(panel.sig_refreshed, timeout=10000):
        panel.live.setChecked(True)
    assert panel.data["heatmap"]["n"] == before + len(rows)


def test_counted_percentiles_equal_numpy_on_the_repeated_values():
    import numpy as np

    rng = np.random.default_rng(1)
    for size in (1, 2, 7, 40):
        values = np.sort(rng.choice(np.arange(0, 10.01, 0.1), size, replace=False))
        counts = rng.integers(1, 50, size)
        qs = (0, 10, 25, 50, 75, 99, 100)
        want = np.percentile(np.repeat(values, counts), qs)
        assert chart_data.counted_percentiles(values, counts, qs) == pytest.approx(want)


def _reference_pairs(ws, run_a: int, run_b: int) -> tuple[list, list]:
    """The machine scores both runs gave the same answers, aligned by response id: two plain
    reads, independent of paired_scores' incremental joins."""
    a, b = (
        dict(
            ws.conn.execute(
                "SELECT response_id, final FROM judgments WHERE run_id = ? AND final IS NOT NULL",
                (run,),
            ).fetchall()
        )
        for run in (run_a, run_b)
    )
    shared = sorted(set(a) & set(b))
    return [a[k] for k in shared], [b[k] for k in shared]


def test_the_footer_counts_the_chart_shown(panel, qtbot, study_ws):
    """The footer and the chart's title read one result: switching back to a chart drawn
    before shows its count again, not the count of the chart computed last."""
    with Workspace(study_ws.path, create=False) as ws:  # the secondary judge judged less
        ws.conn.execute(
            "DELETE FROM judgments WHERE run_id != ? AND id % 3 = 0",
            (store.primary_judge(ws),),
        )
    shown(panel, qtbot)
    heatmap = panel.data["heatmap"]["n"]
    assert panel.info.text().startswith(f"{heatmap} judgments")
    with qtbot.waitSignal(panel.sig_refreshed, timeout=10000):
        panel.show_chart("agreement")
    agreement = panel.data["agreement"]["n"]
    assert agreement != heatmap and panel.info.text().startswith(f"{agreement} judgments")
    panel.show_chart("heatmap")  # drawn before: not computed again
    assert panel.info.text().startswith(f"{heatmap} judgments")


def test_chart_export_opens_in_a_folder_the_user_sees(
    qtbot, study_db, sync_bridge, tmp_path, monkeypatch
):
    """The sample workspace lives in the hidden data folder; a first chart export clicked
    there opens in Pictures, not in ``~/.local/share/…``."""
    from PySide6.QtCore import Qt

    from tests.widgets.test_last_folders import answer_file_dialog
    from widgets.common import file_dialogs

    home = tmp_path / "home"
    pictures = home / "Pictures"
    pictures.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    hidden = home / ".local" / "share" / "upabhasha"
    hidden.mkdir(parents=True)
    shutil.copy(study_db, hidden / "sample.sqlite")
    file_dialogs.remember_folders_in({}, lambda: None)
    with Workspace(hidden / "sample.sqlite", create=False) as ws:
        panel = ChartsPanel(ws, sync_bridge)
        qtbot.addWidget(panel)
        shown(panel, qtbot)
        seen: list[str] = []
        answer_file_dialog(seen)
        qtbot.mouseClick(panel.export_image_button, Qt.MouseButton.LeftButton)
        assert seen == [str(pictures)]
        # a workspace in a visible folder: its own folder, as before
        assert file_dialogs.last_folders().folder(file_dialogs.REPORTS, tmp_path) == tmp_path
