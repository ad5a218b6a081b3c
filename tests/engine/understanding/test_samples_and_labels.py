"""Classification on a file sorted by label with 0/1 labels: named labels reach the prompt,
the parser and the report while the stored label stays; --limit draws a seeded sample
stratified by dialect and label (recorded in the card); a class without items is a warning;
task-stats text shows per-dialect rows and the confusion matrix."""

from __future__ import annotations

import csv
import json

import pytest

from app.cli import main
from engine.errors import UserError
from engine.understanding.items import import_items, load_items, parse_label_names
from engine.understanding.run import run_task, stratified_order
from engine.understanding.stats import TaskStatsSettings, task_stats
from engine.understanding.task_spec import get_task
from tests.scripted_backend import ScriptedBackend

CLS = get_task("classification")
WORDS = ["ভাত", "মাছ", "বাড়ি", "গান", "বই", "নদী", "আকাশ", "পাখি", "ফুল", "মেঘ"]


def sorted_file(path, n=40):
    """Hate-speech-like: label 0 for the first half, 1 for the second (sorted by label);
    two dialects interleaved; columns not named like the defaults."""
    lines = ["post,region,is_offensive,rowid"]
    for i in range(n):
        label = 0 if i < n // 2 else 1
        region = "sylhet" if i % 2 else "chittagong"
        lines.append(f"{WORDS[i % 10]} {WORDS[(i * 3) % 10]} {i},{region},{label},r{i}")
    path.write_text("\n".join(lines) + "\n", "utf-8")


def _import(ws, path, **names):
    return import_items(
        ws,
        path,
        name="hate",
        native_col="post",
        dialect_col="region",
        label_col="is_offensive",
        **names,
    )


def test_names_reach_prompt_parser_and_report_and_limit_is_stratified(
    workspace, model_row, tmp_path
):
    path = tmp_path / "hate.csv"
    sorted_file(path)
    report = _import(workspace, path, label_names=parse_label_names("0=not-offensive,1=offensive"))
    assert report.label_names == {"0": "not-offensive", "1": "offensive"}
    items = load_items(workspace, "items:hate")
    assert {i.label for i in items} == {"not-offensive", "offensive"}
    assert {i.stored_label for i in items} == {"0", "1"}  # the stored label stays
    assert workspace.scalar("SELECT count(*) FROM task_items WHERE label = '1'") == 20
    gold = {i.key: i.label for i in items}
    seen = []

    def reply(req):
        seen.append(req.messages[-1].content)
        return json.dumps({"label": gold[req.key]})  # always right, by name

    (summary,) = run_task(
        workspace,
        CLS,
        [model_row],
        source="items:hate",
        limit=6,
        seed=4,
        backend_factory=lambda ws, run_id: ScriptedBackend(reply),
    )
    assert summary["items"] == 12  # 6 per dialect
    assert "one of: not-offensive, offensive" in seen[0]
    card = json.loads(workspace.scalar("SELECT card FROM runs WHERE id = ?", (summary["run_id"],)))
    assert card["label_names"] == {"0": "not-offensive", "1": "offensive"}
    assert card["sample"]["seed"] == 4 and card["sample"]["strata"] == "dialect x label"
    # a file sorted by label: the first 6 rows per dialect would all be 'not-offensive'
    assert card["sample"]["counts"] == {
        "chittagong": {"not-offensive": 3, "offensive": 3},
        "sylhet": {"not-offensive": 3, "offensive": 3},
    }
    (run,) = task_stats(workspace, "classification", settings=TaskStatsSettings(resamples=50))[
        "runs"
    ]
    assert run["macro"]["macro_f1"] == pytest.approx(1.0)
    assert run["overall"]["confusion"]["labels"][:2] == ["not-offensive", "offensive"]
    assert run["warnings"] == []
    # a larger limit extends the same run (prefix property of the stratified order)
    (more,) = run_task(
        workspace,
        CLS,
        [model_row],
        source="items:hate",
        limit=8,
        seed=4,
        backend_factory=lambda ws, run_id: ScriptedBackend(reply),
    )
    assert more["run_id"] == summary["run_id"] and more["done_now"] == 4


def test_a_class_missing_from_the_sample_is_a_warning_in_task_stats_text(
    workspace, model_row, tmp_path, capsys
):
    path = tmp_path / "hate.csv"
    sorted_file(path)
    _import(workspace, path, label_names=parse_label_names("0=not-offensive,1=offensive"))
    # only the offensive half in the evaluated split: the other class has no items
    workspace.conn.execute("UPDATE task_items SET split = 'test' WHERE label = '0'")
    run_task(
        workspace,
        CLS,
        [model_row],
        source="items:hate",
        limit=5,
        backend_factory=lambda ws, run_id: ScriptedBackend(lambda r: '{"label": "offensive"}'),
    )
    (run,) = task_stats(workspace, "classification", settings=TaskStatsSettings(resamples=50))[
        "runs"
    ]
    assert run["overall"]["accuracy"] == 1.0
    assert "class 'not-offensive' has no items in this run" in run["warnings"][0]
    assert main(["-w", str(tmp_path / "ws.sqlite"), "task-stats", "--resamples", "50"]) == 0
    out = capsys.readouterr().out
    assert "warning: class 'not-offensive' has no items" in out
    assert "sample: --limit 5 per dialect" in out
    assert "chittagong" in out and "sylhet" in out  # per-dialect rows
    assert "confusion (rows gold, columns predicted):" in out
    assert "offensive" in out and "<unparseable>" in out
    table = tmp_path / "runs.csv"
    args = ["-w", str(tmp_path / "ws.sqlite"), "task-stats", "--resamples", "50"]
    assert main([*args, "--csv", str(table), "--json"]) == 0
    with open(table, encoding="utf-8", newline="") as f:
        (row,) = list(csv.DictReader(f))
    assert "class 'not-offensive' has no items" in row["warnings"]
    assert row["normalize"] == "nfc"


def test_stratified_order_prefixes_are_proportional():
    from engine.understanding.items import Item

    items = [Item(i, f"k{i}", "d", "validation", "x", label="ab"[i < 30]) for i in range(40)]
    order = stratified_order(items, 1, lambda i: i.label)
    for n in (4, 10, 20):
        share = sum(i.label == "b" for i in order[:n]) / n  # b: i < 30
        assert share == pytest.approx(0.75, abs=1 / n)
    assert stratified_order(items, 1, lambda i: i.label) == order  # seeded
    assert stratified_order(items, 2, lambda i: i.label) != order


def test_label_names_are_checked(workspace, tmp_path):
    path = tmp_path / "hate.csv"
    sorted_file(path)
    with pytest.raises(UserError, match="label '1' has no name"):
        _import(workspace, path, label_names={"0": "fine"})
    with pytest.raises(UserError, match="same name"):
        _import(workspace, path, label_names={"0": "x", "1": "X"})
    with pytest.raises(UserError, match="LABEL=NAME"):
        parse_label_names("0:fine")
    assert workspace.scalar("SELECT count(*) FROM task_items") == 0
