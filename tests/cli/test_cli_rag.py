"""The index / translate / eval-translation commands on a real workspace."""

from __future__ import annotations

import json

import pytest

from app.cli import main
from engine.workspace.store import Workspace
from tests.engine.rag.test_rag_retrieval import SMALL, _insert
from tests.engine.translation.test_translate import _questions


@pytest.fixture
def ws_path(tmp_path, monkeypatch):
    path = tmp_path / "ws.sqlite"
    with Workspace(path) as ws:
        _insert(ws, SMALL)
        _questions(ws)
    return path


def test_index_json_and_refusal_of_the_validation_split(ws_path, capsys):
    assert main(["-w", str(ws_path), "index", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["pairs"] == 7 and out["rebuilt"] and out["splits"] == ["test", "train"]
    assert set(out["selfcheck"]["overall"]) >= {"dense", "sparse", "char", "hybrid", "dense_trust"}
    assert main(["-w", str(ws_path), "index", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rebuilt"] is False
    assert main(["-w", str(ws_path), "index", "--splits", "train,validation"]) == 2
    assert "reserved for translation evaluation" in capsys.readouterr().err


@pytest.mark.slow
def test_translate_and_eval_translation_commands(ws_path, capsys, embedded_gguf):
    assert main(["-w", str(ws_path), "init"]) == 0
    capsys.readouterr()
    assert (
        main(
            [
                "-w",
                str(ws_path),
                "translate",
                "--questions",
                "demo",
                "--dialects",
                "chittagong",
                "--limit",
                "2",
                "--json",
            ]
        )
        == 0
    )
    first = json.loads(capsys.readouterr().out)
    assert first["items"] == 2 and first["errors"] == 0
    assert (
        main(
            [
                "-w",
                str(ws_path),
                "translate",
                "--questions",
                "demo",
                "--dialects",
                "chittagong",
                "--limit",
                "2",
                "--json",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["generated"] == 0  # resumed, nothing redone
    assert main(["-w", str(ws_path), "eval-translation", "--dialects", "chittagong", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    entry = report["per_dialect"]["chittagong"]
    assert report["split"] == "validation" and entry["n"] == 1
    assert "copy_baseline" in entry and "chrf++" in entry["system"]


def test_translate_warns_before_it_starts_of_a_dialect_without_pairs(
    ws_path, capsys, embedded_gguf
):
    assert main(["-w", str(ws_path), "init"]) == 0
    capsys.readouterr()
    argv = ["-w", str(ws_path), "translate", "--questions", "demo", "--dialects", "barishal"]
    assert main([*argv, "--limit", "1", "--json"]) == 0
    captured = capsys.readouterr()
    assert "warning: no barishal pairs in the corpus" in captured.err
    assert json.loads(captured.out)["without_pairs"] == ["barishal"]
