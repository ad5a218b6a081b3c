"""``batch export`` → a server answering each line → ``batch import``, against a real HTTP
server on 127.0.0.1: the same stored rows as the online run; partial, repeated and
out-of-order imports; refused lines counted by reason; tampered and foreign files refused
whole; result files bounded; local models refused; prices and the estimate."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from app.cli import main
from engine.files.user_files import FileKind
from engine.llm.endpoints import batch_wire
from engine.workspace.store import Workspace
from tests.cli.batch_tools import copy_workspace, run_batch_file, stored_rows
from tests.cli.test_cli_refusing_endpoint import VERDICT, server, study  # noqa: F401

STORED = ("responses", "judgments", "task_run_items", "response_cache")


def _run(capsys, *argv) -> tuple[int, str]:
    capsys.readouterr()
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _export(capsys, w, out: Path, *argv) -> tuple[list[Path], dict]:
    code, text = _run(capsys, *w, "batch", "export", "--out", str(out), "--json", *argv)
    assert code == 0, text
    manifest = json.loads(text)
    return [out / f["name"] for f in manifest["files"]], manifest


def _through(server, files: list[Path], tmp_path: Path, **rewrite) -> list[Path]:
    results = []
    for f in files:
        result = tmp_path / f"{f.stem}.results.jsonl"
        run_batch_file(f, server.url, result, **rewrite)
        results.append(result)
    return results


STEPS = {
    "generate": (["generate", "--model", "echo", "--max-tokens", "8"], "ঢাকা বাংলাদেশের রাজধানী।"),
    "judge": (["judge", "--judge", "echo"], json.dumps(VERDICT, ensure_ascii=False)),
    # several runs of one model asking for the same item keys: each run's lines are its own
    "run-task": (
        ["run-task", "dialect-to-standard", "--models", "echo", "--limit", "2"]
        + ["--regimes", "zero,cot", "--scripts", "native,roman"],
        "ঢাকা বাংলাদেশের রাজধানী।",
    ),
}


def test_batch_files_store_what_the_online_run_stores(study, server, capsys, tmp_path):
    w, _prompts = study
    # one request at a time online: answers are stored in the order asked, as a replay stores
    # them, so their row ids (which the judge's item keys name) are the same
    code, text = _run(
        capsys,
        *w,
        "models",
        "add",
        server.url,
        "--api-model",
        "echo",
        "--name",
        "echo",
        "--concurrency",
        "1",
    )
    assert code == 0, text
    online = tmp_path / "online.sqlite"
    copy_workspace(Path(w[1]), online)
    server.reject = False
    for name, (argv, answer) in STEPS.items():
        server.answer = answer
        code, text = _run(capsys, "-w", str(online), *argv)
        assert code == 0, (name, text)
        files, manifest = _export(capsys, w, tmp_path / name, *argv)
        assert files and manifest["items"] > 0, name
        line = json.loads(files[0].read_text(encoding="utf-8").splitlines()[0])
        assert line["method"] == "POST" and line["url"].startswith("/v1/")
        assert line["body"]["model"] == "echo" and "seed" in line["body"]
        code, text = _run(
            capsys, *w, "batch", "import", *map(str, _through(server, files, tmp_path))
        )
        assert code == 0, (name, text)
    batch_rows, online_rows = stored_rows(Path(w[1]), STORED), stored_rows(online, STORED)
    for table in STORED:
        only_batch = set(batch_rows[table]) - set(online_rows[table])
        only_online = set(online_rows[table]) - set(batch_rows[table])
        assert not only_batch and not only_online, (table, only_batch, only_online)
    for argv in (["stats", "--json"], ["task-stats", "--json"]):
        assert _run(capsys, *w, *argv) == _run(capsys, "-w", str(online), *argv), argv


def test_partial_any_order_idempotent_and_a_second_export_writes_only_the_missing(
    study, server, capsys, tmp_path
):
    w, _prompts = study
    server.reject, server.answer = False, "উত্তর।"
    argv = ["generate", "--model", "echo", "--max-tokens", "8"]
    files, manifest = _export(capsys, w, tmp_path / "a", "--max-lines", "4", *argv)
    total = manifest["items"]
    assert len(files) == -(-total // 4) and all(
        len(f.read_text(encoding="utf-8").splitlines()) <= 4 for f in files
    )
    for f, meta in zip(files, manifest["files"]):  # the manifest's checksums are the files'
        assert hashlib.sha256(f.read_bytes()).hexdigest() == meta["sha256"]
    results = _through(server, files, tmp_path)
    last_lines = len(results[-1].read_text(encoding="utf-8").splitlines())
    code, text = _run(capsys, *w, "batch", "import", str(results[-1]))  # the last file first
    assert code == 3 and f"{total - last_lines} items still missing" in text, text
    again, second = _export(capsys, w, tmp_path / "b", *argv)
    assert second["items"] == total - last_lines  # only the missing ones
    code, text = _run(capsys, *w, "batch", "import", *map(str, reversed(results[:-1])))
    assert code == 0, text
    with Workspace(w[1]) as ws:
        stored = ws.query("SELECT item_key, text FROM responses")
        card = json.loads(ws.scalar("SELECT card FROM runs ORDER BY id LIMIT 1"))
    assert len(stored) == total and all(r["text"] == "উত্তর।" for r in stored)
    assert card["batch"]["actual"]["items"] == total
    assert [e["batch"] for e in card["batch"]["exports"]] == [manifest["batch"], second["batch"]]
    code, text = _run(capsys, *w, "batch", "import", *map(str, results))  # again: nothing new
    assert code == 0 and "(0 new)" in text, text
    with Workspace(w[1]) as ws:
        assert ws.query("SELECT item_key, text FROM responses") == stored


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def _write(path: Path, lines: list) -> Path:
    path.write_text(
        "".join(
            (x if isinstance(x, str) else json.dumps(x, ensure_ascii=False)) + "\n" for x in lines
        ),
        encoding="utf-8",
    )
    return path


def test_refused_lines_are_counted_and_tampered_or_foreign_files_store_nothing(
    study, server, capsys, tmp_path
):
    w, _prompts = study
    server.reject, server.answer = False, "উত্তর।"
    files, manifest = _export(capsys, w, tmp_path, "generate", "--model", "echo")
    good = _lines(_through(server, files, tmp_path)[0])
    a, c, d = good[0], good[2], good[3]
    error = {**a, "response": {"status_code": 500, "body": None}, "error": {"message": "x"}}
    token = manifest["batch"]
    other_model = {
        **c,
        "response": {**c["response"], "body": {**c["response"]["body"], "model": "gpt-x"}},
    }
    mixed = _write(tmp_path / "mixed.jsonl", [error, other_model, "{not json", d])
    code, text = _run(capsys, *w, "batch", "import", "--json", str(mixed))
    report = json.loads(text[: text.rindex("}") + 1])
    # the lines refused make the exit 2 although the good line was stored
    assert code == 2 and "2 refused lines" in text, text
    assert report["files"][0]["refused"] == {"error": 1, "malformed": 1, "mismatched model": 1}
    assert report["files"][0]["accepted"] == 1 and report["missing"] == manifest["items"] - 1
    with Workspace(w[1]) as ws:
        before = ws.query("SELECT item_key, text FROM responses ORDER BY item_key")
    tampered_id = good[5]["custom_id"][:-1] + ("0" if good[5]["custom_id"][-1] != "0" else "1")
    key, _at, tail = good[5]["custom_id"].rpartition("@")
    edited_key = f"{key}x@{tail}"  # the item key edited, its signature left as it was
    cases = (
        ([good[4], {**good[5], "custom_id": tampered_id}], "checksum mismatch", tampered_id),
        ([good[6], {**good[7], "custom_id": "request-1"}], "foreign custom_id", "request-1"),
        ([good[4], {**good[5], "custom_id": edited_key}], "unknown custom_id", edited_key),
        ([good[4], {**good[5], "custom_id": f"nosuch@{token}.1.0000"}], "unknown custom_id", ""),
    )
    for number, (lines, reason, named) in enumerate(cases):
        path = _write(tmp_path / f"t{number}.jsonl", lines)
        code, text = _run(capsys, *w, "batch", "import", str(path))
        assert code == 2 and f"1 {reason}" in text and "nothing stored" in text, text
        assert f"line 2: custom_id '{named}" in text, text
        assert text.count("upabhasha: error:") == 1 and "Traceback" not in text, text
    with Workspace(w[1]) as ws:
        assert ws.query("SELECT item_key, text FROM responses ORDER BY item_key") == before
        assert ws.scalar("SELECT count(*) FROM llm_batch_results") == 1


def test_a_conflicting_duplicate_reply_refuses_the_file_by_name(study, server, capsys, tmp_path):
    w, _prompts = study
    server.reject, server.answer = False, "উত্তর।"
    files, _manifest = _export(capsys, w, tmp_path, "generate", "--model", "echo")
    good = _lines(_through(server, files, tmp_path)[0])
    other = json.loads(json.dumps(good[1]))
    other["response"]["body"]["choices"][0]["message"]["content"] = "অন্য উত্তর।"
    # the same reply twice is taken once; a different second reply refuses the file
    same = _write(tmp_path / "same.jsonl", [good[0], good[0], good[1]])
    code, text = _run(capsys, *w, "batch", "import", str(same))
    assert "2 accepted" in text and "refused: none" in text, text
    twice = _write(tmp_path / "twice.jsonl", [good[2], good[3], {**good[3], **_reply(good[3])}])
    code, text = _run(capsys, *w, "batch", "import", str(twice))
    assert code == 2 and "1 conflicting duplicate" in text and "nothing stored" in text, text
    assert f"line 3: custom_id '{good[3]['custom_id']}'" in text and "line 2 answers" in text
    later = _write(tmp_path / "later.jsonl", [good[4], other])  # good[1] was imported before
    code, text = _run(capsys, *w, "batch", "import", str(later))
    assert code == 2 and "a result imported before answers it otherwise" in text, text
    with Workspace(w[1]) as ws:
        assert ws.scalar("SELECT count(*) FROM llm_batch_results") == 2


def _reply(line: dict) -> dict:
    changed = json.loads(json.dumps(line))
    changed["response"]["body"]["choices"][0]["message"]["content"] = "ভিন্ন।"
    return changed


def test_several_files_exit_2_when_one_is_refused_and_utf16_reads_as_utf8(
    study, server, capsys, tmp_path
):
    w, _prompts = study
    server.reject, server.answer = False, "উত্তর।"
    files, _manifest = _export(capsys, w, tmp_path, "generate", "--model", "echo")
    good = _lines(_through(server, files, tmp_path)[0])
    first = _write(tmp_path / "good.jsonl", good[:2])
    foreign = _write(tmp_path / "foreign.jsonl", [{**good[2], "custom_id": "request-1"}])
    code, text = _run(capsys, *w, "batch", "import", str(first), str(foreign))
    assert code == 2 and "1 of 2 files refused whole" in text and "foreign.jsonl" in text, text
    utf16 = tmp_path / "utf16.jsonl"
    body = "".join(json.dumps(x, ensure_ascii=False) + "\r\n" for x in good[2:4])
    utf16.write_bytes(body.encode("utf-16"))  # with its BOM, as Windows tools write it
    bom8 = tmp_path / "bom8.jsonl"
    bom8.write_bytes(b"\xef\xbb\xbf" + json.dumps(good[4]).encode() + b"\n")
    code, text = _run(capsys, *w, "batch", "import", str(utf16), str(bom8))
    assert "utf16.jsonl: 2 lines, 2 accepted (2 new), refused: none" in text, text
    assert "bom8.jsonl: 1 lines, 1 accepted (1 new), refused: none" in text, text
    deep = tmp_path / "deep.jsonl"
    deep.write_text("[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    code, text = _run(capsys, *w, "batch", "import", str(deep))
    assert code == 2 and "1 malformed" in text and "internal error" not in text, text
    with Workspace(w[1]) as ws:
        assert ws.scalar("SELECT count(*) FROM llm_batch_results") == 5


def test_result_files_are_bounded_before_parsing(study, server, capsys, tmp_path, monkeypatch):
    w, _prompts = study
    server.reject, server.answer = False, "উত্তর।"
    files, _manifest = _export(capsys, w, tmp_path, "generate", "--model", "echo")
    result = _through(server, files, tmp_path)[0]
    monkeypatch.setattr(batch_wire, "RESULT_FILE", FileKind("batch result file", 10**6, 64))
    code, text = _run(capsys, *w, "batch", "import", str(result))
    assert code == 2 and "longer than 64 bytes" in text, text
    monkeypatch.setattr(batch_wire, "RESULT_FILE", FileKind("batch result file", 10, 64))
    code, text = _run(capsys, *w, "batch", "import", str(result))
    assert code == 2 and "(10 bytes at most)" in text, text
    code, text = _run(capsys, *w, "batch", "import", str(tmp_path))
    assert code == 2 and "not a regular file" in text, text
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    code, text = _run(capsys, *w, "batch", "import", str(fifo))
    assert code == 2 and "not a regular file" in text, text
    with Workspace(w[1]) as ws:
        assert ws.scalar("SELECT count(*) FROM responses") == 0


def test_only_endpoint_models_are_exported(study, capsys, tmp_path):
    w, _prompts = study
    with Workspace(w[1]) as ws, ws.transaction() as conn:
        conn.execute(
            "INSERT INTO models(name, kind, path, sha256, added_at) "
            "VALUES ('local', 'gguf', '/nowhere.gguf', 'ab', 'now')"
        )
    code, text = _run(
        capsys, *w, "batch", "export", "--out", str(tmp_path), "generate", "--model", "local"
    )
    assert code == 2 and "only endpoint models can be exported" in text, text
    assert not list(tmp_path.glob("*.jsonl"))


def test_every_model_step_exports(study, server, capsys, tmp_path):
    w, _prompts = study
    server.reject, server.answer = False, "উত্তর।"
    for argv in (
        ["translate", "--questions", "demo", "--dialects", "chittagong", "--limit", "1"],
        ["probe", "--models", "echo", "--limit", "2"],
        ["eval-translation", "--dialects", "chittagong", "--model", "echo", "--limit", "1"],
    ):
        files, manifest = _export(capsys, w, tmp_path / argv[0], *argv)
        assert manifest["items"] > 0 and files, argv
        assert all(line["body"]["messages"] for line in _lines(files[0])), argv


def test_prices_and_the_estimate(study, capsys, tmp_path):
    w, _prompts = study
    argv = ["generate", "--model", "echo", "--max-tokens", "8"]
    code, text = _run(capsys, *w, "models", "price", "echo")
    assert code == 0 and "cost unknown" in text
    code, text = _run(capsys, *w, "batch", "export", "--estimate", *argv)
    assert code == 0 and "cost unknown" in text and "cost 0" not in text, text
    assert "9 requests" in text and "tokens" in text
    for bad in (["--price-in", "cheap"], ["--batch-discount", "150%"]):
        code, text = _run(capsys, *w, "models", "price", "echo", *bad)
        assert code == 2, text
    code, text = _run(
        capsys, *w, "models", "price", "echo", "--price-in", "0.15/M", "--price-out", "0.60/M",
        "--batch-discount", "50%",
    )  # fmt: skip
    assert code == 0 and "input 0.15/M, output 0.6/M, batch discount 50%" in text, text
    code, text = _run(capsys, *w, "batch", "export", "--estimate", "--json", *argv)
    total = json.loads(text)["total"]
    expected = (total["input_tokens"] * 0.15 + total["output_tokens"] * 0.60) / 1e6
    assert total["online_cost"] == pytest.approx(expected)
    assert total["batch_cost"] == pytest.approx(expected / 2)
    assert not list(tmp_path.glob("*.jsonl"))  # an estimate writes nothing
    argv = ["models", "add", "http://127.0.0.1:9/v1", "--api-model", "m2", "--name", "priced"]
    code, text = _run(capsys, *w, *argv, "--price-in", "1/M", "--price-out", "0.002/K")
    assert code == 0, text
    code, text = _run(capsys, *w, "models", "price", "priced")
    assert "input 1/M, output 2/M, batch discount 0%" in text, text
