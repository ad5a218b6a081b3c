"""The study commands: judges, queue, override, stats on a real workspace; the whole
generate → judge → stats → calibrate path on the embedded model (slow)."""

import json
from pathlib import Path

import pytest

from app.cli import main
from engine.judging import store
from engine.workspace.store import Workspace
from tests.engine.judging.study_fixture import add_judge, build_questions, build_study, short_rubric


def run_json(capsys, argv):
    capsys.readouterr()
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 0, (argv, captured.err)
    return json.loads(captured.out)


@pytest.fixture
def judged(tmp_path):
    path = tmp_path / "study.sqlite"
    with Workspace(path) as ws:
        build_study(ws)
        rids = [p["dialect_response_id"] for p in store.answer_pairs(ws)]
        finals = {rid: float((i * 7) % 10) for i, rid in enumerate(rids)}
        first = add_judge(ws, "judge-a", "gemini", finals, confidence=2)
        second = add_judge(
            ws,
            "judge-b",
            "gemma",
            {rid: min(10.0, f + 0.5) for rid, f in finals.items()},
            confidence=5,
        )
    return str(path), first, second


def test_judges_queue_override_and_stats(judged, capsys):
    ws, first, second = judged
    rows = run_json(capsys, ["-w", ws, "judges", "--json"])
    assert [(r["run_id"], r["role"]) for r in rows] == [(first, "primary"), (second, "secondary")]
    rows = run_json(capsys, ["-w", ws, "judges", "--primary", str(second), "--json"])
    assert [r["role"] for r in rows] == ["secondary", "primary"]
    main(["-w", ws, "judges", "--primary", str(first)])

    queue = run_json(capsys, ["-w", ws, "queue", "--json"])
    assert len(queue) == 12 and {q["run_id"] for q in queue} == {first}
    target = queue[0]["judgment_id"]
    out = run_json(
        capsys,
        [
            "-w",
            ws,
            "override",
            str(target),
            "--annotator",
            "Rahim",
            "--reason",
            "misread dialect",
            "--scores",
            "5,5,4,4,5",
            "--json",
        ],
    )
    assert out["history"][-1]["score"] == pytest.approx(9.3)
    assert len(run_json(capsys, ["-w", ws, "queue", "--json"])) == 11
    # bad input: one line, exit 2, nothing stored
    capsys.readouterr()
    assert (
        main(
            [
                "-w",
                ws,
                "override",
                str(target),
                "--annotator",
                "R",
                "--reason",
                "x",
                "--scores",
                "5,5,9,4,5",
            ]
        )
        == 2
    )
    assert (
        main(["-w", ws, "override", "9999", "--annotator", "R", "--reason", "x", "--final", "3"])
        == 2
    )
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "Traceback" not in err

    stats = run_json(capsys, ["-w", ws, "stats", "--json", "--resamples", "500"])
    assert stats["judge_run"] == first and stats["n_items"] == 12
    assert stats["n_questions"] == 3 and stats["n_human_overrides"] == 1
    md = stats["groups"]["model_dialect"]
    assert len(md) == 4 and all(r["n"] == 3 and r["n_questions"] == 3 for r in md)
    assert all(r["degradation"] == pytest.approx(10 - r["mean"]) for r in md)
    assert {"dialect_domain", "dialect_type"} <= set(stats["groups"])
    assert len(stats["paired_tests"]) == 2  # one dialect pair per model
    [agreement] = stats["agreement"]
    assert agreement["n"] == 12 and agreement["a_is_primary"] and agreement["mae"] == 0.5
    assert stats["warnings"] == [
        f"self-preference risk: judge 'judge-b' (run {second}) shares family 'gemma' with "
        "answering model 'gemma-a'"
    ]
    assert stats["review_queue"] == 11
    capsys.readouterr()
    assert main(["-w", ws, "stats"]) == 0
    text = capsys.readouterr().out
    assert "clustered by" in text and "Holm" in text and "CCC" in text

    out_dir = Path(ws).parent / "report"
    report = run_json(
        capsys, ["-w", ws, "report", "--out", str(out_dir), "--resamples", "200", "--json"]
    )
    assert Path(report["report"]).is_file() and report["n_items"] == 12


def test_stats_without_a_judge_is_a_user_error(tmp_path, capsys):
    ws = tmp_path / "empty.sqlite"
    Workspace(ws).close()
    assert main(["-w", str(ws), "stats"]) == 2
    assert "no judge run yet" in capsys.readouterr().err
    assert main(["-w", str(ws), "calibrate", "--judge", "nobody"]) == 2


@pytest.mark.slow
def test_generate_judge_stats_calibrate_on_the_embedded_model(tmp_path, capsys, embedded_gguf):
    ws = str(tmp_path / "real.sqlite")
    assert main(["-w", ws, "init"]) == 0
    with Workspace(ws) as w:
        build_questions(w)
    rubric_path = short_rubric(tmp_path)

    gen = run_json(
        capsys, ["-w", ws, "generate", "--dialect", "sylhet", "--max-tokens", "24", "--json"]
    )
    [run] = gen["runs"]
    assert run["items"] == 6 and run["complete"] and run["errors"] == 0
    again = run_json(
        capsys, ["-w", ws, "generate", "--dialect", "sylhet", "--max-tokens", "24", "--json"]
    )
    assert again["runs"][0]["done_before"] == 6 and again["runs"][0]["done_now"] == 0

    judged = run_json(
        capsys, ["-w", ws, "judge", "--rubric", str(rubric_path), "--primary", "--json"]
    )
    assert judged["pairs"] == 3 and judged["failed"] == 0 and judged["primary"]
    assert judged["gated"] + judged["judged_now"] == 3
    # the embedded model judging its own answers: same model, flagged
    assert judged["warnings"] and "same model" in judged["warnings"][0]

    stats = run_json(capsys, ["-w", ws, "stats", "--json", "--rubric", str(rubric_path)])
    assert stats["n_items"] == 3 and stats["groups"]["model_dialect"][0]["n_questions"] == 3

    with Workspace(ws) as w:
        jid = w.scalar("SELECT min(id) FROM judgments")
    assert (
        main(
            [
                "-w",
                ws,
                "override",
                str(jid),
                "--annotator",
                "tester",
                "--reason",
                "calibration item",
                "--final",
                "6",
            ]
        )
        == 0
    )
    cal = run_json(capsys, ["-w", ws, "calibrate", "--rubric", str(rubric_path), "--json"])
    assert cal["n"] == 1 and cal["n_human_scored"] == 1
    assert sum(map(sum, cal["confusion"])) == 1 and "indicative" in cal["note"]
