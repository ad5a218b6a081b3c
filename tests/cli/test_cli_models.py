"""CLI: models add/list/inspect and run-prompts on the real embedded model."""

from __future__ import annotations

import json

import pytest

from app.cli import main
from engine.workspace.store import Workspace


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.slow
def test_models_add_inspect_and_run_prompts(tmp_path, capsys, embedded_gguf):
    ws = str(tmp_path / "ws.sqlite")
    from engine.workspace.store import Workspace

    Workspace(ws).close()
    code, out, err = run(
        capsys, "-w", ws, "models", "add", str(embedded_gguf), "--name", "g", "--json"
    )
    assert code == 0, err
    added = json.loads(out)
    assert added["architecture"] == "gemma3" and len(added["sha256"]) == 64
    code, out, err = run(
        capsys,
        "-w",
        ws,
        "models",
        "add",
        "http://127.0.0.1:9/v1",
        "http://127.0.0.1:10",
        "--api-model",
        "m",
        "--name",
        "pool",
    )
    assert code == 0, err
    code, out, _ = run(capsys, "-w", ws, "models", "list", "--json")
    rows = {r["name"]: r for r in json.loads(out)}
    assert rows["g"]["kind"] == "gguf"
    assert json.loads(rows["pool"]["base_urls"]) == ["http://127.0.0.1:9", "http://127.0.0.1:10"]

    code, out, err = run(capsys, "-w", ws, "models", "inspect", "g", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["selftest"]["ok"] and report["selftest"]["completion_tokens"] > 0
    assert report["quantization"] == "Q4_K_M"

    prompts = tmp_path / "p.txt"
    prompts.write_text(
        "The capital of France is\n\nOne, two, three,\n<end_of_turn> hi\n", encoding="utf-8"
    )
    code, out, err = run(
        capsys, "-w", ws, "run-prompts", str(prompts), "--model", "g", "--max-tokens", "6", "--json"
    )
    assert code == 0, err
    first = json.loads(out)
    assert [r["key"] for r in first["responses"]] == ["line-1", "line-3", "line-4"]
    assert all(r["status"] == "done" for r in first["responses"])
    code, out, err = run(
        capsys, "-w", ws, "run-prompts", str(prompts), "--model", "g", "--max-tokens", "6", "--json"
    )
    again = json.loads(out)
    assert again["run_id"] == first["run_id"] and again["summary"]["done_before"] == 3
    assert again["responses"] == first["responses"]


def test_bad_inputs_are_one_line_errors(tmp_path, capsys):
    ws = str(tmp_path / "ws.sqlite")
    from engine.workspace.store import Workspace

    Workspace(ws).close()
    code, _, err = run(capsys, "-w", ws, "models", "add", "http://x:1")
    assert code == 2 and "--api-model" in err
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"GGUF" + b"\x03\0\0\0" + b"\xff" * 16)
    code, _, err = run(capsys, "-w", ws, "models", "add", str(bad))
    assert code == 2 and "not a valid GGUF" in err and len(err.strip().splitlines()) == 1
    jl = tmp_path / "p.jsonl"
    jl.write_text('{"prompt": "a"}\n{"nope": 1}\n', encoding="utf-8")
    code, _, err = run(capsys, "-w", ws, "run-prompts", str(jl))
    assert code == 2 and "line 2" in err


def test_models_are_shown_by_their_workspace_names(tmp_path, capsys):
    from tests.engine.llm.gguf_files import COMPLETE_LLAMA, write_gguf

    ws = str(tmp_path / "ws.sqlite")
    Workspace(ws).close()
    tiny = write_gguf(tmp_path / "tiny.gguf", COMPLETE_LLAMA, name="Internal Name 7B")
    code, out, err = run(capsys, "-w", ws, "models", "add", str(tiny), "--name", "lab-tiny")
    assert code == 0, err
    assert out.strip() == "added gguf model 'lab-tiny'"
    code, out, err = run(capsys, "-w", ws, "models", "add", str(tiny), "--name", "b", "--json")
    added = json.loads(out)
    assert added["name"] == "b" and added["gguf_name"] == "Internal Name 7B"
    code, out, _ = run(capsys, "-w", ws, "models", "list")
    assert "lab-tiny" in out and " b [gguf]" in out and "Internal Name" not in out
    code, out, _ = run(capsys, "-w", ws, "models", "list", "--json")
    assert [r["name"] for r in json.loads(out)] == ["lab-tiny", "b"]
    code, out, _ = run(capsys, "-w", ws, "models", "inspect", "b", "--no-selftest", "--json")
    assert code == 0 and json.loads(out)["name"] == "b"


def test_every_bad_model_path_exits_2_with_one_line(tmp_path, capsys, monkeypatch):
    from tests.engine.llm.gguf_files import COMPLETE_LLAMA, write_gguf

    ws = str(tmp_path / "ws.sqlite")
    Workspace(ws).close()
    loop = tmp_path / "loop.gguf"
    loop.symlink_to(loop)
    folder = tmp_path / "folder.gguf"
    folder.mkdir()
    fifo = tmp_path / "pipe.gguf"
    import os

    os.mkfifo(fifo)
    empty = write_gguf(tmp_path / "empty.gguf", [])
    single = write_gguf(tmp_path / "single.gguf", ["token_embd.weight"])
    cases = {
        loop: "symbolic link loop",
        folder: "is a folder",
        fifo: "not a regular file",
        tmp_path / "absent.gguf": "no such model file",
        empty: "0 tensors",
        single: "1 tensor,",
    }
    for path, message in cases.items():
        for argv in (("models", "add", str(path)), ("models", "inspect", str(path))):
            code, out, err = run(capsys, "-w", ws, *argv)
            assert code == 2, (argv, err)
            assert message in err and len(err.strip().splitlines()) == 1, (argv, err)
            assert out == ""
    good = write_gguf(tmp_path / "ok.gguf", COMPLETE_LLAMA)
    monkeypatch.setattr(
        "engine.llm.models.gguf_info.os.access", lambda *_a: False
    )  # we run as root
    code, _, err = run(capsys, "-w", ws, "models", "add", str(good))
    assert code == 2 and "cannot be read" in err and len(err.strip().splitlines()) == 1
    with Workspace(ws) as w:
        assert w.scalar("SELECT count(*) FROM models") == 0


def test_unreadable_model_file_exits_2(tmp_path, capsys):
    import os

    from tests.engine.llm.gguf_files import COMPLETE_LLAMA, write_gguf

    if os.geteuid() == 0:
        pytest.skip("root reads files whatever their mode (see the monkeypatched case above)")
    good = write_gguf(tmp_path / "ok.gguf", COMPLETE_LLAMA)
    good.chmod(0)
    ws = str(tmp_path / "ws.sqlite")
    Workspace(ws).close()
    code, _, err = run(capsys, "-w", ws, "models", "add", str(good))
    assert code == 2 and "cannot be read" in err


@pytest.mark.slow
def test_two_names_for_one_file_each_run_their_own_file(tmp_path, capsys, embedded_gguf):
    """After the first name's file is deleted, the second name still runs (from
    its own file and its own run); with its file gone too, it fails naming its own path."""
    import os
    import shutil

    ws = str(tmp_path / "ws.sqlite")
    Workspace(ws).close()
    first, second = tmp_path / "first.gguf", tmp_path / "second.gguf"
    for path in (first, second):
        try:
            os.link(embedded_gguf, path)  # a second name for the file, without 250 MB copied
        except OSError:
            shutil.copyfile(embedded_gguf, path)
        code, _, err = run(capsys, "-w", ws, "models", "add", str(path), "--name", path.stem)
        assert code == 0, err
    prompts = tmp_path / "p.txt"
    prompts.write_text("The capital of France is\n", encoding="utf-8")
    argv = ("-w", ws, "run-prompts", str(prompts), "--max-tokens", "4", "--json", "--model")
    code, out, err = run(capsys, *argv, "first")
    assert code == 0, err
    ran_first = json.loads(out)
    first.unlink()
    code, out, err = run(capsys, *argv, "second")
    assert code == 0, err
    ran_second = json.loads(out)
    assert ran_second["run_id"] != ran_first["run_id"]
    assert ran_second["responses"][0]["text"] == ran_first["responses"][0]["text"]
    second.unlink()
    code, out, err = run(capsys, *argv, "second")
    # a model that does not load leaves the step to resume (exit 3), as in every step
    assert code == 3 and len(err.strip().splitlines()) == 1, err
    assert "'second'" in err and str(second) in err and "first.gguf" not in err
