"""CLI of understanding tasks: tasks list/show, import items, run-task and task-stats."""

from __future__ import annotations

import json

import pytest

from app.cli import main
from engine.workspace.store import Workspace


def test_tasks_list_and_show(tmp_path, capsys):
    ws = str(tmp_path / "ws.sqlite")
    assert main(["-w", ws, "tasks", "list", "--json"]) == 0
    names = {t["name"] for t in json.loads(capsys.readouterr().out)}
    assert {"dialect-to-standard", "dialect-id", "subjectivity", "dialect-to-english"} <= names
    assert main(["-w", ws, "tasks", "show", "dialect-id"]) == 0
    assert "--- prompt cot ---" in capsys.readouterr().out
    assert main(["-w", ws, "tasks", "show", "nope"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_malformed_user_task_file_is_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("UPABHASHA_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "data" / "tasks").mkdir(parents=True)
    bad = tmp_path / "data" / "tasks" / "mine.toml"
    bad.write_text('name = "mine"\nkind = "generation"\n', encoding="utf-8")
    # reported once and skipped: the built-in tasks still list and run
    assert main(["-w", str(tmp_path / "ws.sqlite"), "tasks", "list"]) == 0
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and str(bad) in captured.err
    assert "key 'output'" in captured.err and "dialect-id" in captured.out
    assert main(["-w", str(tmp_path / "ws.sqlite"), "tasks", "show", "mine"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(bad) in err and "key 'output'" in err
    assert main(["-w", str(tmp_path / "ws.sqlite"), "tasks", "show", "dialect-id"]) == 0


@pytest.mark.parametrize("kind", ["fifo", "devzero", "huge", "deep", "not-utf8"])
def test_hostile_user_task_files_are_skipped(tmp_path, capsys, monkeypatch, kind):
    import os
    import time

    monkeypatch.setenv("UPABHASHA_DATA_DIR", str(tmp_path / "data"))
    folder = tmp_path / "data" / "tasks"
    folder.mkdir(parents=True)
    bad = folder / "x.toml"
    if kind == "fifo":
        os.mkfifo(bad)
    elif kind == "devzero":
        bad.symlink_to("/dev/zero")
    elif kind == "huge":
        with open(bad, "wb") as fh:
            fh.truncate(189 * 1024 * 1024)  # sparse: costs no disk
    elif kind == "deep":
        bad.write_text("a = " + "[" * 200_000 + "]" * 200_000 + "\n", encoding="utf-8")
    else:
        bad.write_bytes(b"name = '\xff'\n")
    ws = str(tmp_path / "ws.sqlite")
    start = time.monotonic()
    assert main(["-w", ws, "tasks", "list", "--json"]) == 0
    assert (
        time.monotonic() - start < 30
    )  # never waits on a pipe (a busy machine is slow, not stuck)
    captured = capsys.readouterr()
    names = {t["name"] for t in json.loads(captured.out)}
    assert "dialect-id" in names and "x" not in names
    assert captured.err.count("\n") == 1 and str(bad) in captured.err
    assert main(["-w", ws, "tasks", "show", "x"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_bad_item_file_is_one_line_and_changes_nothing(tmp_path, capsys):
    ws = str(tmp_path / "ws.sqlite")
    good = tmp_path / "good.csv"
    good.write_text("dialect,text,label\nsylhet,তুমি কই যাইরায়,subjective\n", encoding="utf-8")
    assert main(["-w", ws, "import", "items", str(good), "--label-col", "label", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["inserted"] == 1
    bad = tmp_path / "bad.csv"
    bad.write_text(
        "dialect,text,label\nsylhet,আমি যাই,objective\nmars,আমি যাই,objective\n", encoding="utf-8"
    )
    assert (
        main(["-w", ws, "import", "items", str(bad), "--name", "good", "--label-col", "label"]) == 2
    )
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 3, column 'dialect'" in err and "mars" in err
    with Workspace(ws) as w:
        assert w.scalar("SELECT count(*) FROM task_items") == 1


@pytest.mark.slow
def test_vashantor_tasks_on_the_embedded_model(tmp_path, capsys, shared_data, embedded_gguf):
    """The issue's "done when": a fresh workspace runs dialect-to-standard on Vashantor
    validation items and dialect-id with the embedded model, and task-stats shows the copy
    baseline, every metric, the failure rates and native vs Romanized."""
    ws = str(tmp_path / "ws.sqlite")
    corpus = shared_data / "vashantor" / "vashantor_multiway.csv"
    assert main(["-w", ws, "init"]) == 0
    assert (
        main(
            [
                "-w",
                ws,
                "import",
                "corpus",
                str(corpus),
                "--format",
                "wide",
                "--standard-col",
                "bangla_speech",
                "--split-col",
                "vashantor_split",
                "--json",
            ]
        )
        == 0
    )
    capsys.readouterr()
    common = ["--dialects", "sylhet,chittagong", "--limit", "1", "--max-tokens", "24", "--json"]
    assert (
        main(
            [
                "-w",
                ws,
                "run-task",
                "dialect-to-standard",
                "--regimes",
                "zero,few",
                "--k",
                "1",
                "--scripts",
                "native,roman",
                *common,
            ]
        )
        == 0
    )
    runs = json.loads(capsys.readouterr().out)["runs"]
    assert len(runs) == 4 and all(r["complete"] and r["items"] == 2 for r in runs)
    assert main(["-w", ws, "run-task", "dialect-id", *common]) == 0
    assert json.loads(capsys.readouterr().out)["runs"][0]["complete"]
    assert main(["-w", ws, "run-task", "dialect-id", *common]) == 0  # resumed: nothing redone
    assert json.loads(capsys.readouterr().out)["runs"][0]["done_now"] == 0

    assert main(["-w", ws, "task-stats", "--json", "--resamples", "200", "--fertility"]) == 0
    report = json.loads(capsys.readouterr().out)
    norm = [r for r in report["runs"] if r["task"] == "dialect-to-standard"]
    assert {(r["regime"], r["script"]) for r in norm} == {
        ("zero", "native"),
        ("zero", "roman"),
        ("few", "native"),
        ("few", "roman"),
    }
    for r in norm:
        assert r["split"] == "validation" and r["n"] == 2
        assert set(r["macro"]) >= {"bleu", "chrf++", "rouge2", "rougeL", "exact_match"}
        if r["script"] == "native":
            assert set(r["copy_baseline_macro"]) >= {"bleu", "chrf++"}
        else:  # Romanized input copied against Bengali-script references says nothing
            assert "copy_baseline_macro" not in r
            assert r["copy_baseline_not_applicable"].startswith("not applicable")
        assert set(r["failures"]) >= {"unparseable", "empty", "script_drift"}
    native_copy = next(r for r in norm if r["script"] == "native")["copy_baseline_macro"]
    assert native_copy["chrf++"] > 10  # dialect text shares much with its standard form
    assert {g["regime"] for g in report["script_gap"] if g["task"] == "dialect-to-standard"} == {
        "zero",
        "few",
    }
    fert = report["fertility"][0]
    assert fert["per_script"]["native"]["tokens_per_char"] > 0
    assert fert["per_script"]["roman"]["tokens_per_word"] > 0
    roman_run = next(r for r in norm if r["script"] == "roman")
    assert 0 <= roman_run["round_trip"]["mean_cer"] <= 1
    did = next(r for r in report["runs"] if r["task"] == "dialect-id")
    assert set(did["macro"]) >= {"accuracy", "macro_f1"} and did["n"] == 2
    assert main(["-w", ws, "task-stats"]) == 0
    text = capsys.readouterr().out
    assert "copy-input baseline" in text and "native - Romanized (avro)" in text
