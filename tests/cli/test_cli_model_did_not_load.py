"""A translation or judging step whose model cannot load exits 3 with one line saying how
many items were left, why (the model named) and how to resume, and leaves the workspace as
it was; the same command resumes once the model loads or answers.

Found by these tests: a registered GGUF file that was truncated afterwards made
``eval-translation`` exit 2 (as for a mistyped option), with or without ``--judge``; a judge
endpoint that refused every item gave exit 0 and an empty judge column."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import sqlite3

import pytest

from app.cli import main
from engine.judging.rubric import CRITERION_KEYS
from engine.llm.models.registry import register_gguf
from engine.workspace.store import Workspace
from tests.cli.test_cli_kill_resume import worker_killed_while_loading, workers_killed
from tests.cli.test_cli_secrets import EchoServer
from tests.engine.judging.study_fixture import build_questions, short_rubric
from tests.engine.rag.test_rag_retrieval import SMALL, _insert
from tests.engine.translation.test_translate import _questions

RESUME = "the finished items are saved - run the same command again to resume (exit 3)"


@pytest.fixture
def server():
    s = EchoServer()
    s.reject = False
    s.answer = "আঁর বই হডে"
    yield s
    s.stop()


@pytest.fixture
def study(tmp_path, server, embedded_gguf, capsys):
    """Corpus pairs (one held out), questions and an index; model 'echo' (the server, the
    default) and 'broken', a GGUF file truncated after it was registered."""
    path = tmp_path / "ws.sqlite"
    broken = tmp_path / "broken.gguf"
    with embedded_gguf.open("rb") as src:
        broken.write_bytes(src.read(1 << 20))  # its header, then the download stopped
    with Workspace(path) as ws:
        _insert(ws, SMALL)
        _questions(ws)
        register_gguf(ws, broken, name="broken", sha256="b" * 64, size_bytes=1 << 20)
    w = ["-w", str(path)]
    for argv in (
        ["models", "add", server.url, "--api-model", "echo", "--name", "echo", "--default"],
        ["index"],
    ):
        code, text = _run(capsys, *w, *argv)
        assert code == 0, (argv, text)
    return w


def _run(capsys, *argv) -> tuple[int, str]:
    capsys.readouterr()
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _incomplete_line(text: str) -> str:
    lines = [line for line in text.splitlines() if "upabhasha: incomplete:" in line]
    assert len(lines) == 1, text
    return lines[0]


def _rows(path: str) -> list[str]:
    with Workspace(path) as ws:
        return list(ws.conn.iterdump())


def test_a_translation_model_that_cannot_load_exits_3_and_changes_nothing(study, capsys):
    w = study
    before = _rows(w[1])
    for argv, what in (
        (
            ["translate", "--questions", "demo", "--dialects", "chittagong", "--limit", "1"],
            "translate: 1 of 1 translations failed (model 'broken' did not load: ",
        ),
        (
            ["eval-translation", "--dialects", "chittagong"],
            "eval-translation: 1 of 1 held-out pairs not translated (model 'broken' did not load: ",
        ),
    ):
        for extra in ([], ["--json"]):
            code, text = _run(capsys, *w, *argv, "--model", "broken", *extra)
            assert code == 3, (argv, extra, text)
            line = _incomplete_line(text)
            assert what in line and "broken.gguf" in line and "truncated" in line, line
            assert line.endswith(RESUME), line
            assert _rows(w[1]) == before, argv  # no run row, no draft, nothing else
    code, text = _run(capsys, *w, "eval-translation", "--dialects", "chittagong", "--json")
    report = json.loads(text[: text.rindex("}") + 1])
    assert report["load_error"] is None and report["missing"] == 0
    # the --json report of the broken model says the same
    code, text = _run(
        capsys, *w, "eval-translation", "--dialects", "chittagong", "--model", "broken", "--json"
    )
    report = json.loads(text[: text.rindex("}") + 1])
    assert code == 3 and report["run_id"] is None and report["translated"] == 0
    assert report["load_error"].startswith("model 'broken' did not load: ")


def test_a_judge_that_cannot_load_keeps_the_translations(study, capsys):
    w = study
    argv = [*w, "eval-translation", "--dialects", "chittagong"]
    code, text = _run(capsys, *argv, "--judge", "broken", "--json")
    assert code == 3, text
    line = _incomplete_line(text)
    assert "eval-translation: 1 of 1 translations not judged (model 'broken' did not load: " in (
        line
    )
    assert line.endswith(RESUME), line
    report = json.loads(text[: text.rindex("}") + 1])
    assert report["translated"] == 1 and report["judge_run_id"] is None
    assert report["per_dialect"]["chittagong"]["judge"] == {
        "n_valid": 0,
        "n_invalid": 0,
        "n_missing": 1,
        "mean": None,
        "ceilings_applied": 0,
    }
    with Workspace(w[1]) as ws:  # the translation is kept, no empty judge run is left
        runs = ws.query("SELECT id, kind, status FROM runs")
    assert runs == [{"id": report["run_id"], "kind": "translate-eval", "status": "done"}]
    # without the judge the same translations are complete, from the same run
    code, text = _run(capsys, *argv, "--json")
    assert code == 0 and json.loads(text)["run_id"] == report["run_id"]


def test_judge_and_run_prompts_with_a_model_that_cannot_load_exit_3(
    study, server, tmp_path, capsys
):
    """The other steps that open a run's own model say the same of it (they said 'error',
    exit 2)."""
    w = study
    server.answer = "ঢাকা বাংলাদেশের রাজধানী এবং সবচেয়ে বড় শহর।"
    with Workspace(w[1]) as ws:
        build_questions(ws)
    code, text = _run(capsys, *w, "generate", "--model", "echo", "--max-tokens", "8")
    assert code == 0, text
    prompts = tmp_path / "prompts.txt"
    prompts.write_text("এক\n", encoding="utf-8")
    for argv, what in (
        (["judge", "--judge", "broken"], "judge: 6 of 6 answer pairs not judged (model 'broken'"),
        (["run-prompts", str(prompts), "--model", "broken"], "run-prompts: model 'broken'"),
    ):
        code, text = _run(capsys, *w, *argv)
        assert code == 3, (argv, text)
        line = _incomplete_line(text)
        assert f"{what} did not load: " in line and "truncated" in line, line
        assert line.endswith(RESUME), line
    with Workspace(w[1]) as ws:  # no empty run is left behind
        assert not ws.scalar("SELECT count(*) FROM runs WHERE kind IN ('judge', 'prompts')")


VERDICT = {
    "chain_of_thought_reasoning": "উত্তরটি ঠিক।",
    **dict.fromkeys(CRITERION_KEYS, 4),
    "confidence": 4,
}


def _answered(w, server, capsys, *answer_models: str) -> None:
    """The questions answered by ``answer_models``, each with the server's current answer."""
    for name in answer_models:
        if name != "echo":
            add = ["models", "add", server.url, "--api-model", "echo", "--name", name]
            code, text = _run(capsys, *w, *add)
            assert code == 0, text
        code, text = _run(capsys, *w, "generate", "--model", name, "--max-tokens", "8")
        assert code == 0, text


def test_judge_and_calibrate_say_how_many_pairs_a_judge_that_cannot_load_left(
    study, server, capsys
):
    """Found here: both said only "model 'broken' did not load", not how much was left."""
    w = study
    with Workspace(w[1]) as ws:
        build_questions(ws)
    server.answer = "ঢাকা বাংলাদেশের রাজধানী এবং সবচেয়ে বড় শহর।"
    _answered(w, server, capsys, "echo")
    # a judge that answers scores them and a person overrides one (calibrate's item)
    server.answer = json.dumps(VERDICT, ensure_ascii=False)
    for argv in (
        ["models", "add", server.url, "--api-model", "echo", "--name", "judge"],
        ["judge", "--judge", "judge"],
        ["override", "1", "--annotator", "t", "--reason", "r", "--final", "6"],
    ):
        code, text = _run(capsys, *w, *argv)
        assert code == 0, (argv, text)
    before = _rows(w[1])
    for argv, what, n in (
        (["judge", "--judge", "broken"], "judge: 6 of 6 answer pairs not judged", 6),
        (
            ["calibrate", "--judge", "broken"],
            "calibrate: 1 of 1 human-scored answers not judged",
            1,
        ),
    ):
        for extra in ([], ["--json"]):
            code, text = _run(capsys, *w, *argv, *extra)
            assert code == 3, (argv, extra, text)
            line = _incomplete_line(text)
            assert f"{what} (model 'broken' did not load: " in line and "truncated" in line, line
            assert line.endswith(RESUME), line
            assert _rows(w[1]) == before, argv  # no empty judge run is left
            if extra:
                report = json.loads(text[: text.rindex("}") + 1])
                assert report["judge_model"] == "broken" and report["run_id"] is None
                assert report["pairs"] == report["not_judged"] == n
                assert report["load_error"].startswith("model 'broken' did not load: ")


def test_a_judge_without_its_key_keeps_the_gated_pairs_and_resumes(
    study, server, memory_keyring, capsys
):
    """What the gates zeroed is stored before the judge is opened: the count says what is
    left, and the same run resumes once the key is back."""
    w = study
    with Workspace(w[1]) as ws:
        build_questions(ws)
    server.answer = "ঢাকা বাংলাদেশের রাজধানী এবং সবচেয়ে বড় শহর।"
    _answered(w, server, capsys, "echo")
    server.answer = "I'm sorry, I can't help with that."  # the refusal gate zeroes these
    _answered(w, server, capsys, "refuser")
    memory_keyring.set_password("judge-svc", "api-key", "sk-test-0123456789")
    add = ["models", "add", server.url, "--api-model", "echo", "--name", "keyed"]
    code, text = _run(capsys, *w, *add, "--keyring-service", "judge-svc")
    assert code == 0, text
    memory_keyring.delete_password("judge-svc", "api-key")
    code, text = _run(capsys, *w, "judge", "--judge", "keyed")
    assert code == 3, text
    line = _incomplete_line(text)
    assert "judge: 6 of 12 answer pairs not judged (model 'keyed' did not load: " in line, line
    assert "no API key in the OS keyring" in line and line.endswith(RESUME), line
    with Workspace(w[1]) as ws:
        assert ws.scalar("SELECT count(*) FROM judgments WHERE judge_response_id IS NULL") == 6
    memory_keyring.set_password("judge-svc", "api-key", "sk-test-0123456789")
    server.answer = json.dumps(VERDICT, ensure_ascii=False)
    code, text = _run(capsys, *w, "judge", "--judge", "keyed", "--json")
    assert code == 0, text
    report = json.loads(text[: text.rindex("}") + 1])
    assert report["pairs"] == 12 and report["judged_before"] == 6 and report["judged_now"] == 6
    with Workspace(w[1]) as ws:  # resumed in the same judge run
        assert ws.scalar("SELECT count(*) FROM runs WHERE kind = 'judge'") == 1


def test_a_refusing_judge_is_incomplete_and_resumes(study, server, capsys):
    w = study
    for argv in (
        ["models", "add", server.url, "--api-model", "echo", "--name", "judge"],
        ["eval-translation", "--dialects", "chittagong"],  # translated while it answers
    ):
        code, text = _run(capsys, *w, *argv)
        assert code == 0, (argv, text)
    server.reject = True
    argv = [*w, "eval-translation", "--dialects", "chittagong", "--judge", "judge"]
    code, text = _run(capsys, *argv)
    assert code == 3, text
    line = _incomplete_line(text)
    assert "eval-translation: 1 of 1 translations not judged (last error: endpoint judge:" in line
    assert "HTTP 401" in line, line
    assert "- (0/1 valid, 1 not judged)" in text
    server.reject = False
    server.answer = json.dumps(
        {"reasoning": "ঠিক আছে", "inaccurate_words": 1, "score": 8}, ensure_ascii=False
    )
    code, text = _run(capsys, *argv, "--json")
    assert code == 0, text
    report = json.loads(text)
    judged = report["per_dialect"]["chittagong"]["judge"]
    assert judged["n_missing"] == 0 and judged["n_valid"] == 1 and judged["mean"] is not None
    with Workspace(w[1]) as ws:  # resumed in the same judge run
        assert ws.scalar("SELECT count(*) FROM runs WHERE kind = 'translation-judge'") == 1


def _add_gemma(w, embedded_gguf, capsys) -> None:
    """A copy of the embedded model registered as 'gemma' (a local model, its own worker)."""
    model = w[1] + ".model.gguf"
    shutil.copyfile(embedded_gguf, model)
    code, text = _run(capsys, *w, "models", "add", model, "--name", "gemma")
    assert code == 0, text


def _local_judge(w, server, embedded_gguf, capsys, *answer_models: str) -> None:
    """The questions answered in Bengali by ``answer_models`` (the script gate passes them to
    the judge), and 'gemma' to judge them."""
    with Workspace(w[1]) as ws:
        build_questions(ws)
    server.answer = "ঢাকা বাংলাদেশের রাজধানী এবং সবচেয়ে বড় শহর।"
    _answered(w, server, capsys, *answer_models)
    _add_gemma(w, embedded_gguf, capsys)


@pytest.mark.slow
def test_the_embedded_model_killed_while_loading_is_resumed(study, embedded_gguf, capsys):
    """The worker-side failure (ModelDidNotLoad from the model's own process), for the
    translating model and for the judge: exit 3 naming the signal; the translation resumes."""
    w = study
    _add_gemma(w, embedded_gguf, capsys)
    before = _rows(w[1])
    argv = [*w, "eval-translation", "--dialects", "chittagong"]
    with worker_killed_while_loading():
        code, text = _run(capsys, *argv, "--model", "gemma")
    assert code == 3, text
    line = _incomplete_line(text)
    assert "1 of 1 held-out pairs not translated (model 'gemma' did not load: " in line, line
    assert "SIGKILL" in line and line.endswith(RESUME), line
    assert _rows(w[1]) == before
    code, text = _run(capsys, *argv, "--model", "gemma", "--json")
    assert code == 0, text
    assert json.loads(text)["translated"] == 1
    with worker_killed_while_loading():
        code, text = _run(capsys, *argv, "--judge", "gemma")
    assert code == 3, text
    line = _incomplete_line(text)
    assert "1 of 1 translations not judged (model 'gemma' did not load: " in line, line
    assert "SIGKILL" in line, line


@pytest.mark.slow
def test_a_local_judge_killed_while_loading_leaves_no_run(study, server, embedded_gguf, capsys):
    """A local judge loads at its first decode, inside the judging rounds: the same count,
    the signal named, and no empty judge run (one was left open)."""
    w = study
    _local_judge(w, server, embedded_gguf, capsys, "echo")
    before = _rows(w[1])
    with worker_killed_while_loading():
        code, text = _run(capsys, *w, "judge", "--judge", "gemma")
    assert code == 3, text
    line = _incomplete_line(text)
    assert "judge: 6 of 6 answer pairs not judged (model 'gemma' did not load: " in line, line
    assert "SIGKILL" in line and line.endswith(RESUME), line
    assert _rows(w[1]) == before


def _judge_in_two_groups(w, tmp_path) -> list[str]:
    """``judge`` with 'gemma' in plan groups of 4 pairs (2 sequences at a time, 2 × 2 per
    group: the 6 pairs make two jobs) and the shortest reasoning cap (the 270M judge repeats
    itself up to it)."""
    rubric = str(short_rubric(tmp_path))
    groups = ["--n-seq", "2", "--refill", "2"]
    return [*w, "judge", "--judge", "gemma", *groups, "--rubric", rubric]


def _judge_replies(path: str) -> int:
    """Replies the judge has stored so far (read beside the running command)."""
    with contextlib.closing(sqlite3.connect(path, timeout=5)) as conn:
        return conn.execute(
            "SELECT count(*) FROM responses JOIN runs ON runs.id = responses.run_id "
            "WHERE runs.kind = 'judge' AND responses.status = 'done'"
        ).fetchone()[0]


@pytest.mark.slow
def test_a_local_judge_whose_worker_dies_mid_run_keeps_what_it_judged(
    study, server, embedded_gguf, capsys, tmp_path
):
    """The judge's worker SIGKILLed once it has stored the replies of its first plan group
    (4 of the 6 pairs), and every worker after it too (it dies again as it reloads, in the
    first round): exit 3 with how many pairs are left, the signal named; the replies stored
    before the kill are judged (all 6 were said to be left), and the same run resumes and
    finishes."""
    w = study
    _local_judge(w, server, embedded_gguf, capsys, "echo")
    argv = _judge_in_two_groups(w, tmp_path)
    with workers_killed(when=lambda: _judge_replies(w[1]) >= 1):
        code, text = _run(capsys, *argv)
    assert code == 3, text
    line = _incomplete_line(text)
    found = re.search(r"judge: (\d+) of 6 answer pairs not judged \(model 'gemma'", line)
    assert found and 0 < int(found[1]) < 6, line
    assert "SIGKILL" in line and line.endswith(RESUME), line
    left = int(found[1])
    with Workspace(w[1]) as ws:
        assert ws.scalar("SELECT count(*) FROM judgments") == 6 - left
    code, text = _run(capsys, *argv, "--json")
    assert code == 0, text
    report = json.loads(text[: text.rindex("}") + 1])
    assert report["pairs"] == 6 and report["judged_before"] == 6 - left
    assert report["judged_now"] == left and report["failed"] == 0
    with Workspace(w[1]) as ws:  # resumed in the same judge run
        assert ws.scalar("SELECT count(*) FROM runs WHERE kind = 'judge'") == 1
        assert ws.scalar("SELECT count(*) FROM judgments") == 6


@pytest.mark.slow
def test_a_local_judge_whose_worker_keeps_dying_says_why(
    study, server, embedded_gguf, monkeypatch, capsys, tmp_path
):
    """Fault injection: after its first job, the judge's real worker process is SIGKILLed
    as each job starts (it loads again each round, and dies again): exit 3, how many pairs
    have no verdict and why (it said only "have no valid verdict"); the same run resumes."""
    from engine.llm.runtime.worker import ModelWorker

    w = study
    _local_judge(w, server, embedded_gguf, capsys, "echo")
    generate, jobs = ModelWorker.generate, []

    def dies_after_the_first_job(self, *args, **kwargs):
        jobs.append(1)
        if len(jobs) > 1:
            os.kill(self.pid, signal.SIGKILL)
        yield from generate(self, *args, **kwargs)

    monkeypatch.setattr(ModelWorker, "generate", dies_after_the_first_job)
    argv = _judge_in_two_groups(w, tmp_path)
    code, text = _run(capsys, *argv)
    assert code == 3, text
    line = _incomplete_line(text)
    found = re.search(r"judge: (\d+) of 6 answer pairs have no valid verdict \(last error: ", line)
    assert found and 0 < int(found[1]) < 6, line
    assert "the model worker for gemma was killed by SIGKILL while generating" in line, line
    assert line.endswith(RESUME), line
    left = int(found[1])
    monkeypatch.setattr(ModelWorker, "generate", generate)
    code, text = _run(capsys, *argv, "--json")
    assert code == 0, text
    report = json.loads(text[: text.rindex("}") + 1])
    assert report["judged_before"] == 6 - left and report["failed"] == 0
    assert report["last_error"] is None
    with Workspace(w[1]) as ws:  # resumed in the same judge run
        assert ws.scalar("SELECT count(*) FROM runs WHERE kind = 'judge'") == 1


def test_replicate_with_a_model_that_cannot_be_opened_is_partial(
    tmp_path, server, memory_keyring, capsys
):
    """Found here: a model that could not be opened (its key gone from the keyring) made
    ``replicate`` exit 2 with the run's lease still held; it is a partial replication."""
    memory_keyring.set_password("echo-svc", "api-key", "sk-test-0123456789")
    prompts = tmp_path / "prompts.txt"
    prompts.write_text("এক\nদুই\n", encoding="utf-8")
    w = ["-w", str(tmp_path / "ws.sqlite")]
    assert main([*w, "init"]) == 0
    add = ["models", "add", server.url, "--api-model", "echo", "--name", "echo"]
    code, text = _run(capsys, *w, *add, "--keyring-service", "echo-svc", "--default")
    assert code == 0, text
    code, text = _run(capsys, *w, "run-prompts", str(prompts), "--json")
    assert code == 0, text
    run = str(json.loads(text[: text.rindex("}") + 1])["run_id"])
    memory_keyring.delete_password("echo-svc", "api-key")
    code, text = _run(capsys, *w, "replicate", run, "--sample", "2")
    assert code == 3, text
    line = _incomplete_line(text)
    assert "replicate: 2 of 2 sampled outputs could not be decoded again" in line, line
    assert "no API key in the OS keyring" in line and line.endswith(RESUME), line
    with Workspace(w[1]) as ws:
        assert ws.scalar("SELECT lease_owner FROM runs WHERE id = ?", (int(run),)) is None
    code, text = _run(capsys, *w, "replicate", "--list", "--json")
    (stored,) = json.loads(text)
    assert stored["summary"]["complete"] is False and stored["summary"]["agreement"] is None
    memory_keyring.set_password("echo-svc", "api-key", "sk-test-0123456789")
    code, text = _run(capsys, *w, "replicate", run, "--sample", "2")
    assert code == 0, text
