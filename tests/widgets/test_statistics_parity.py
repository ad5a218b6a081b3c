"""The CLI and the desktop compute each statistic with the same settings and name it with the
same words: for every statistic a panel shows, the CLI's options default to the engine's
settings object, the panel's background read takes the same one, and on one workspace the
command's ``--json`` and the panel give identical intervals (bias, tasks, agreement, PPI,
the dialect chart)."""

from __future__ import annotations

import csv
import json

import pytest
from PySide6.QtCore import Qt

from app.cli import build_parser, main
from engine.annotation import api as annotation
from engine.bias import api as bias
from engine.reports import api as reports
from engine.understanding import api as understanding
from engine.workspace.store import Workspace
from tests.widgets.study_fixtures import fast_watcher, study_db, study_ws  # noqa: F401 (fixtures)
from tests.widgets.task_fixtures import task_ws  # noqa: F401 (fixture)


def cli_json(capsys, argv: list[str]):
    capsys.readouterr()
    assert main([*argv, "--json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def cli_text(capsys, argv: list[str]) -> str:
    capsys.readouterr()
    assert main(argv) == 0, capsys.readouterr().err
    return capsys.readouterr().out


def parsed(*argv: str):
    """The command line as parsed, every statistics option left out."""
    return build_parser().parse_args(["-w", "x.sqlite", *argv])


def intervals(rows: list[dict]) -> list[tuple]:
    return [(r.get("ci_low"), r.get("ci_high")) for r in rows]


# -- social bias -----------------------------------------------------------------------------
def bias_intervals(stats: dict) -> dict:
    return {
        part: intervals(stats[part])
        for part in ("groups", "overall", "position", "occupation_mixing", "dialect_shift")
    }


def test_bias_stats_defaults_are_the_engine_settings():
    args = parsed("bias-stats")
    given = bias.BiasStatsSettings.given(
        zero_rule=args.zero_rule, resamples=args.resamples, seed=args.seed
    )
    assert given == bias.BIAS_STATS
    assert given.resamples == 2000  # the figure both front ends used to disagree on
    for rule in bias.ZERO_RULES:  # every rule of the engine is offered, and no other
        assert parsed("bias-stats", "--zero-rule", rule).zero_rule == rule
    with pytest.raises(SystemExit):
        parsed("bias-stats", "--zero-rule", "none")
    k = parsed("probes", "agreement", "f.csv")
    assert (k.resamples, k.seed) == (None, None)  # cohen_kappa's own defaults: the settings'


def test_bias_stats_and_the_social_bias_panel_show_the_same_intervals_and_words(
    qtbot, sync_bridge, tmp_path, capsys
):
    from widgets.bias.bias_panel import BiasPanel

    path = str(bias.build_bias_sample(tmp_path / "bias.sqlite"))
    with Workspace(path, create=False) as ws:
        panel = BiasPanel(ws, sync_bridge)
        qtbot.addWidget(panel)
        panel.show()
        qtbot.waitUntil(lambda: bool(panel.view), timeout=30_000)
        assert [panel.rule.itemData(i) for i in range(panel.rule.count())] == list(bias.ZERO_RULES)
        assert panel.rule.currentData() == bias.BIAS_STATS.zero_rule

        cli = cli_json(capsys, ["-w", path, "bias-stats"])
        shown = panel.view["stats"]
        assert (shown["resamples"], shown["seed"], shown["ci_level"]) == (
            cli["resamples"],
            cli["seed"],
            cli["ci_level"],
        )
        assert bias_intervals(shown) == bias_intervals(cli)
        assert any(low is not None for low, _high in intervals(cli["groups"]))
        notes = bias.bias_notes(cli)
        text = cli_text(capsys, ["-w", path, "bias-stats"]).splitlines()
        assert text[0] == notes["scale"]
        assert text[1] == f"{notes['ci']}; {notes['rule']}; {notes['bands']}"
        assert notes["ci"] in panel.info.text() and notes["rule"] in panel.info.text()

        # the user picks the other zero-count rule: the panel computes as --zero-rule does
        panel.rule.setFocus()
        qtbot.keyClick(panel.rule, Qt.Key.Key_Down)
        qtbot.waitUntil(lambda: panel.view["rule"] == "haldane", timeout=30_000)
        haldane = cli_json(capsys, ["-w", path, "bias-stats", "--zero-rule", "haldane"])
        assert bias_intervals(panel.view["stats"]) == bias_intervals(haldane)
        assert bias.bias_notes(haldane)["rule"] in panel.info.text()


# -- understanding tasks ----------------------------------------------------------------------
def test_task_stats_defaults_are_the_engine_settings():
    args = parsed("task-stats")
    given = understanding.TaskStatsSettings.given(seed=args.seed, resamples=args.resamples)
    assert given == understanding.TASK_STATS


def _task_runs(ws) -> None:
    from engine.understanding.run import run_task
    from tests.scripted_backend import ScriptedBackend

    model = ws.query("SELECT * FROM models WHERE name = 'scripted'")
    for task, reply, scripts in (
        ("dialect-to-standard", '{"standard": "তুমি কোথায় যাচ্ছ"}', ["native", "roman"]),
        ("dialect-id", '{"label": "sylhet"}', ["native"]),
    ):
        run_task(
            ws,
            understanding.get_task(task),
            model,
            regimes=["zero"],
            scripts=scripts,
            backend_factory=lambda ws, run_id, reply=reply: ScriptedBackend(lambda req: reply),
        )


def test_task_stats_and_the_tasks_panel_show_the_same_intervals_and_words(
    qtbot, task_ws, sync_bridge, capsys
):
    from widgets.understanding.tasks_panel import TasksPanel

    _task_runs(task_ws)
    path = str(task_ws.path)
    panel = TasksPanel(task_ws, sync_bridge)
    qtbot.addWidget(panel)
    qtbot.waitUntil(lambda: panel.results.rowCount() == 3, timeout=30_000)
    cli = cli_json(capsys, ["-w", path, "task-stats"])
    shown = panel.report
    assert shown["settings"] == cli["settings"] == understanding.TASK_STATS.as_dict()
    assert [r["chrf_macro_ci"] for r in shown["runs"] if "chrf_macro_ci" in r] == [
        r["chrf_macro_ci"] for r in cli["runs"] if "chrf_macro_ci" in r
    ]
    assert [r["macro"] for r in shown["runs"]] == [r["macro"] for r in cli["runs"]]
    assert [g["gap"] for g in shown["script_gap"]] == [g["gap"] for g in cli["script_gap"]]
    assert len(cli["script_gap"]) == 1 and cli["script_gap"][0]["gap"]["low"] is not None

    # each run's macro score is named alike: over labels where the label is the dialect
    over = {r["task"]: r["macro"]["macro_over"] for r in cli["runs"]}
    assert over == {"dialect-to-standard": "dialects", "dialect-id": "labels"}
    text = cli_text(capsys, ["-w", path, "task-stats"])
    for row, run in enumerate(cli["runs"]):
        words = understanding.macro_words(run["macro"]["macro_over"])
        assert words in panel.results.item(row, 6).text()
        assert f"  {words} ({run['macro']['scale']}):" in text
    settings = understanding.TaskStatsSettings.of(cli)
    assert f"intervals: {settings.interval_note()}" in text
    # the breakdown of a chrF++ run says the same interval
    panel.resize(1300, 800)
    panel.show()
    qtbot.waitExposed(panel)
    cell = panel.results.visualItemRect(panel.results.item(0, 0)).center()
    qtbot.mouseClick(panel.results.viewport(), Qt.MouseButton.LeftButton, pos=cell)
    assert settings.interval_note() in panel.breakdown.note.text()


# -- annotation: agreement and prediction-powered estimates ---------------------------------
def test_agreement_and_ppi_defaults_are_the_engine_settings():
    args = parsed("agreement")
    assert annotation.AgreementSettings(args.resamples, args.seed) == annotation.AGREEMENT
    args = parsed("ppi")
    assert annotation.PPISettings(args.alpha, args.width) == annotation.PPI


def test_agreement_and_the_agreement_panel_show_the_same_intervals(
    qtbot, sync_bridge, sample_db, tmp_path, capsys, monkeypatch
):
    import dataclasses
    import shutil

    from engine.annotation import agreement as agreement_module
    from widgets.annotation.agreement_panel import AgreementPanel

    # Both front ends' calls are seen with the settings they pass; each is computed with 50
    # resamples, not the default 1000 (30 s for the three computations of this test).
    asked: list = []
    real = agreement_module.agreement

    def agreement(ws, *, batch_id=None, settings):
        asked.append(settings)
        return real(ws, batch_id=batch_id, settings=dataclasses.replace(settings, resamples=50))

    monkeypatch.setattr("engine.annotation.api.agreement", agreement)
    monkeypatch.setattr("engine.annotation.tasks.agreement", agreement)

    path = tmp_path / "lab.sqlite"
    shutil.copy(sample_db, path)
    with Workspace(path) as ws:
        for who in ("Karim", "Shuvo"):
            annotation.add_annotator(ws, who, ["sylhet"])
        targets = annotation.candidate_targets(ws, "variant", dialects=["sylhet"])
        annotation.assign(ws, "b", "variant", [], targets=targets, overlap=1.0, seed=2)
        items = [
            r["item_id"]
            for r in ws.query(
                "SELECT item_id FROM annotation_assignments GROUP BY item_id "
                "HAVING count(*) = 2 ORDER BY item_id"
            )
        ]
        plans = {
            "Karim": (["accept", "accept", "edit", "reject", "accept", "flag"] * 2),
            "Shuvo": (["accept", "edit", "edit", "reject", "accept", "accept"] * 2),
        }
        scores = {
            "Karim": [5, 4, 3, 1, 5, 2, 4, 4, 3, 1, 5, 3],
            "Shuvo": [5, 3, 3, 2, 5, 2, 4, 5, 2, 1, 4, 3],
        }
        for i, item in enumerate(items):
            for who, plan in plans.items():
                text = f"{who} লিখেছেন {i}" if plan[i] == "edit" else None
                annotation.record_decision(ws, item, who, plan[i], text=text, score=scores[who][i])
        panel = AgreementPanel(ws, sync_bridge)
        qtbot.addWidget(panel)
        panel.show()  # opened with decisions recorded: it computes without a click
        qtbot.waitUntil(lambda: panel.report is not None, timeout=60_000)
        cli = cli_json(capsys, ["-w", str(path), "agreement"])
        assert asked == [annotation.AGREEMENT, annotation.AGREEMENT]  # the panel's, the CLI's
        shown = panel.report
        for key in ("resamples", "seed", "level", "ci", "by_dialect"):
            assert shown[key] == cli[key], key
        assert cli["by_dialect"]["sylhet"]["decision"]["alpha_nominal"]["low"] is not None
        note = annotation.AgreementSettings.of(cli).interval_note()
        assert note in panel.status.text()
        assert f"intervals: {note}" in cli_text(capsys, ["-w", str(path), "agreement"])


def test_ppi_and_the_agreement_panel_show_the_same_estimates(qtbot, sync_bridge, tmp_path, capsys):
    import numpy as np

    from engine.annotation.decisions import my_queue
    from tests.engine.annotation.helpers import build_judged_study
    from widgets.annotation.agreement_panel import AgreementPanel

    path = tmp_path / "ppi.sqlite"
    with Workspace(path) as ws:
        run, truth = build_judged_study(ws, np.random.default_rng(1))
        annotation.add_annotator(ws, "Rina", ["standard", "sylhet"])
        annotation.draw_subset(ws, "ppi", run, ["Rina"], share=0.1, seed=5)
        for item in my_queue(ws, "Rina"):
            annotation.record_decision(
                ws, item["item_id"], "Rina", "accept", score=truth[item["target_id"]]
            )
        panel = AgreementPanel(ws, sync_bridge)
        qtbot.addWidget(panel)
        panel.show()
        qtbot.mouseClick(panel.compute_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: panel.ppi_study is not None, timeout=60_000)
        cli = cli_json(capsys, ["-w", str(path), "ppi"])
        shown = panel.ppi_study
        for key in ("alpha", "target_width", "cells", "gaps"):
            assert shown[key] == cli[key], key
        note = annotation.PPISettings.of(cli).interval_note()
        assert note in panel.ppi_label.text()
        assert note in cli_text(capsys, ["-w", str(path), "ppi"])


# -- the study's statistics: the dialect chart ------------------------------------------------
def test_stats_and_report_defaults_are_the_engine_settings():
    for command in ("stats", "report"):
        args = parsed(command)
        given = reports.StudyStatsSettings.given(seed=args.seed, resamples=args.resamples)
        assert given == reports.STUDY_STATS
    assert reports.DEFAULT_RESAMPLES == reports.STUDY_STATS.resamples  # the full refresh's


def test_report_and_the_charts_panel_show_the_same_dialect_intervals(
    qtbot, study_ws, sync_bridge, fast_watcher, tmp_path, capsys
):
    from widgets.reports.charts_panel import ChartsPanel

    panel = ChartsPanel(study_ws, sync_bridge, watcher=fast_watcher)
    qtbot.addWidget(panel)
    panel.resize(1200, 700)
    with qtbot.waitSignal(panel.sig_refreshed, timeout=60_000):
        panel.show()
        panel.show_chart("dialects")
    shown = {g["dialect"]: g for g in panel.data["dialects"]["groups"]}
    out = tmp_path / "report"
    path = str(study_ws.path)
    result = cli_json(capsys, ["-w", path, "report", "--out", str(out)])
    assert result["n_items"] == panel.data["dialects"]["n"]
    with open(out / "tables" / "dialect.csv", encoding="utf-8") as fh:
        table = {row["dialect"]: row for row in csv.DictReader(fh)}
    assert set(table) == set(shown)
    for dialect, row in table.items():
        for key in ("mean", "ci_low", "ci_high"):
            assert float(row[key]) == pytest.approx(shown[dialect][key], abs=1e-6), key
    stats = cli_json(capsys, ["-w", path, "stats"])
    assert stats["settings"] == {
        **reports.STUDY_STATS.as_dict(),
        "danger_threshold": stats["settings"]["danger_threshold"],
        "max_score": stats["settings"]["max_score"],
    }
