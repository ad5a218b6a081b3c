"""One model registry: lookups, GGUF and endpoint registration, and model identity of runs."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine.errors import Setting, UserError, setting
from engine.llm import tasks as model_tasks
from engine.llm.models.gguf_info import GGUFInvalid, checked_model_path, inspect_gguf
from engine.llm.models.registry import (
    find_model,
    register_endpoint,
    register_gguf,
    update_load_params,
)
from engine.llm.runs.backend import backend_for_run
from engine.llm.runs.run import _hash, effective_schedule, open_run

from .gguf_files import COMPLETE_LLAMA, write_gguf

SHA = "ab" * 32


def _gguf(ws, name: str, path: Path, sha: str = SHA, **kw) -> int:
    return register_gguf(ws, path, name=name, sha256=sha, size_bytes=1, **kw)


# -- lookups -----------------------------------------------------------------------------
def test_find_model_by_name_id_and_default(workspace, tmp_path):
    a = _gguf(workspace, "alpha", tmp_path / "a.gguf")
    b = register_endpoint(workspace, "beta", ["http://h:1/v1"], "m", is_default=True)
    assert find_model(workspace, "alpha")["id"] == a
    assert find_model(workspace, a)["name"] == "alpha"  # an id, as the GUI tasks pass it
    assert find_model(workspace, str(b))["name"] == "beta"  # digits: an id when no such name
    assert find_model(workspace)["id"] == b  # no name: the default model
    with pytest.raises(UserError, match=r"no model named 'gamma'.*known: alpha, beta"):
        find_model(workspace, "gamma")
    with pytest.raises(UserError, match="no model 99"):
        find_model(workspace, 99)


def test_no_default_model_is_a_clear_error(workspace, tmp_path):
    _gguf(workspace, "alpha", tmp_path / "a.gguf")
    with pytest.raises(UserError, match="no default model"):
        find_model(workspace)


def test_embedded_fallback_registers_the_embedded_default(workspace, embedded_gguf):
    from engine.llm.models.embedded_model import EMBEDDED_NAME

    row = find_model(workspace, None, embedded_fallback=True)
    assert row["name"] == EMBEDDED_NAME and row["is_default"] == 1


# -- registration ------------------------------------------------------------------------
def test_endpoint_keeps_load_params_and_default(workspace, tmp_path):
    _gguf(workspace, "alpha", tmp_path / "a.gguf", is_default=True)
    eid = register_endpoint(
        workspace,
        "pool",
        ["http://h:1/v1/", "http://h:2"],
        "m",
        load_params={"concurrency": 4},
        is_default=True,
    )
    row = find_model(workspace, "pool")
    assert json.loads(row["base_urls"]) == ["http://h:1", "http://h:2"]
    assert json.loads(row["load_params"]) == {"concurrency": 4}
    assert find_model(workspace)["id"] == eid  # the default moved, and only one is left
    assert workspace.scalar("SELECT count(*) FROM models WHERE is_default = 1") == 1
    # a refresh without load_params keeps them; without --default keeps the default flag
    register_endpoint(workspace, "pool", ["http://h:3"], "m2")
    row = find_model(workspace, "pool")
    assert json.loads(row["load_params"]) == {"concurrency": 4} and row["is_default"] == 1
    assert row["api_model"] == "m2" and json.loads(row["base_urls"]) == ["http://h:3"]
    # re-adding an existing name with --default makes it the default (it used to clear all)
    register_endpoint(workspace, "pool", ["http://h:3"], "m2", load_params={})
    register_gguf(
        workspace, tmp_path / "a.gguf", name="alpha", sha256=SHA, size_bytes=1, is_default=True
    )
    assert find_model(workspace)["name"] == "alpha"
    assert json.loads(find_model(workspace, "pool")["load_params"]) == {}


def test_endpoint_input_is_checked(workspace):
    with pytest.raises(UserError, match=setting(Setting.API_MODEL)):
        register_endpoint(workspace, "x", ["http://h"], " ")
    with pytest.raises(UserError, match="at least one base URL"):
        register_endpoint(workspace, "x", [], "m")
    with pytest.raises(UserError, match="http://"):
        register_endpoint(workspace, "x", ["ftp://h"], "m")
    with pytest.raises(UserError, match="needs a name"):
        register_endpoint(workspace, "  ", ["http://h"], "m")
    assert workspace.scalar("SELECT count(*) FROM models") == 0


def test_gui_endpoint_task_registers_like_the_cli(tmp_path, capsys):
    """The GUI's background task and ``models add URL`` give the same row (load_params and
    the default flag used to be dropped by the GUI path)."""
    from app.cli import main
    from engine.workspace.store import Workspace

    cli, gui = str(tmp_path / "cli.sqlite"), str(tmp_path / "gui.sqlite")
    for path in (cli, gui):
        with Workspace(path) as ws:
            _gguf(ws, "alpha", tmp_path / "a.gguf", is_default=True)
    code = main(
        ["-w", cli, "models", "add", "http://h:1/v1", "--api-model", "m", "--name", "lab"]
        + ["--concurrency", "6", "--default"]
    )
    assert code == 0, capsys.readouterr().err
    model_tasks.add_endpoint_model_at(
        gui, "lab", ["http://h:1/v1"], "m", None, load_params={"concurrency": 6}, is_default=True
    )
    columns = ("name", "kind", "base_urls", "api_model", "keyring_service", "load_params")
    rows = []
    for path in (cli, gui):
        with Workspace(path) as ws:
            row = find_model(ws, "lab")
            assert find_model(ws)["name"] == "lab"  # the default
            rows.append({k: row[k] for k in (*columns, "is_default", "has_chat_template")})
    assert rows[0] == rows[1]
    assert json.loads(rows[1]["load_params"]) == {"concurrency": 6}


def test_refresh_keeps_saved_gpu_layers(workspace, tmp_path):
    mid = _gguf(workspace, "alpha", tmp_path / "a.gguf")
    update_load_params(workspace, mid, n_gpu_layers=12)
    _gguf(workspace, "alpha", tmp_path / "b.gguf", sha="cd" * 32)
    row = find_model(workspace, mid)
    assert json.loads(row["load_params"]) == {"n_gpu_layers": 12}
    assert row["path"].endswith("b.gguf") and row["sha256"] == "cd" * 32


# -- model identity of runs --------------------------------------------------------------
def test_two_names_for_one_file_have_their_own_runs(workspace, tmp_path):
    a = find_model(workspace, _gguf(workspace, "first", tmp_path / "first.gguf"))
    b = find_model(workspace, _gguf(workspace, "second", tmp_path / "second.gguf"))
    card = {"template": "t", "sampler": {"temperature": 0}}
    run_a, run_b = open_run(workspace, "answer", a, card), open_run(workspace, "answer", b, card)
    assert run_a != run_b
    assert open_run(workspace, "answer", b, dict(card)) == run_b  # resumed, not duplicated
    owners = dict(workspace.conn.execute("SELECT id, model_id FROM runs").fetchall())
    assert owners == {run_a: a["id"], run_b: b["id"]}
    # with both files gone, each run fails with its own model's path
    with pytest.raises(UserError) as missing:
        backend_for_run(workspace, run_b)
    assert "second.gguf" in str(missing.value) and "first.gguf" not in str(missing.value)
    assert "'second'" in str(missing.value)


def test_runs_keyed_before_model_ids_resume_for_their_own_model(workspace, tmp_path):
    """A workspace from before runs carried their model's id: its run is resumed by the
    model that made it, and another name for the same file gets a run of its own."""
    a = find_model(workspace, _gguf(workspace, "first", tmp_path / "first.gguf"))
    b = find_model(workspace, _gguf(workspace, "second", tmp_path / "second.gguf"))
    card = {"template": "t"}
    schedule = {k: v for k, v in effective_schedule(a, card).items() if k != "n_threads"}
    legacy = _hash({"kind": "answer", "model": SHA, "card": card, "schedule": schedule})
    with workspace.transaction() as conn:
        old = conn.execute(
            "INSERT INTO runs(kind, run_key, model_id, card, created_at) "
            "VALUES ('answer', ?, ?, '{}', 'then')",
            (legacy, a["id"]),
        ).lastrowid
    assert open_run(workspace, "answer", a, card) == old
    assert open_run(workspace, "answer", b, card) != old


# -- GGUF checks -------------------------------------------------------------------------
def test_gguf_without_the_tensors_its_architecture_needs_is_refused(tmp_path):
    ok = inspect_gguf(write_gguf(tmp_path / "ok.gguf", COMPLETE_LLAMA))
    assert ok.tensor_count == 3 and ok.name == "Tiny Test Model"
    with pytest.raises(GGUFInvalid, match=r"0 tensors, missing token_embd.weight"):
        inspect_gguf(write_gguf(tmp_path / "none.gguf", []))
    with pytest.raises(GGUFInvalid, match=r"1 tensor, missing output_norm.weight, layer\(s\) 0"):
        inspect_gguf(write_gguf(tmp_path / "one.gguf", ["token_embd.weight"]))
    with pytest.raises(GGUFInvalid, match=r"layer\(s\) 1-3 of 4"):
        inspect_gguf(write_gguf(tmp_path / "short.gguf", COMPLETE_LLAMA, block_count=4))
    with pytest.raises(GGUFInvalid, match="block_count is missing"):
        inspect_gguf(write_gguf(tmp_path / "nolayers.gguf", COMPLETE_LLAMA, block_count=None))


def test_real_model_passes_the_tensor_check(embedded_gguf):
    info = inspect_gguf(embedded_gguf)
    assert info.metadata["gemma3.block_count"] == 18 and info.tensor_count > 18


def test_bad_paths_are_named(tmp_path, monkeypatch):
    loop = tmp_path / "loop.gguf"
    loop.symlink_to(loop)
    with pytest.raises(UserError, match="symbolic link loop"):
        checked_model_path(loop)
    with pytest.raises(UserError, match="is a folder"):
        checked_model_path(tmp_path)
    dangling = tmp_path / "dangling.gguf"
    dangling.symlink_to(tmp_path / "gone.gguf")
    with pytest.raises(UserError, match="does not exist"):
        checked_model_path(dangling)
    with pytest.raises(UserError, match="no such model file"):
        checked_model_path(tmp_path / "absent.gguf")
    fifo = tmp_path / "pipe.gguf"
    os.mkfifo(fifo)
    with pytest.raises(UserError, match="not a regular file"):
        checked_model_path(fifo)
    good = write_gguf(tmp_path / "ok.gguf", COMPLETE_LLAMA)
    monkeypatch.setattr("engine.llm.models.gguf_info.os.access", lambda *_a: False)
    with pytest.raises(UserError, match="cannot be read"):
        checked_model_path(good)
