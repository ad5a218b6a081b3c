"""The social-bias CLI: import the paper's gender sets, generate the 2,772, probe the real
embedded model with a small --limit (slow), bias-stats with rates, the table commands."""

from __future__ import annotations

import json

import pytest

from app.cli import main
from tests.engine.bias.conftest import social_bias_dir


@pytest.fixture(scope="module")
def bias_data():
    path = social_bias_dir()
    if path is None:
        pytest.skip("real data folder shared/data/banglasocialbias is absent")
    return path


def run_json(capsys, argv):
    capsys.readouterr()
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 0, (argv, captured.err)
    return json.loads(captured.out)


def test_generate_reproduces_the_papers_2772_and_bad_files_are_one_line(
    tmp_path, capsys, bias_data
):
    ws = str(tmp_path / "ws.sqlite")
    out = run_json(
        capsys,
        [
            "-w",
            ws,
            "probes",
            "generate",
            "--templates",
            str(bias_data / "prompt_templates_from_notebook.json"),
            "--words",
            str(bias_data / "AdjectiveWordsForBias.csv"),
            "--json",
        ],
    )
    assert out["total"] == 2772
    assert {s["name"]: s["inserted"] for s in out["sets"]} == {
        "template-gender": 2128,
        "template-religion": 644,
    }
    listed = run_json(capsys, ["-w", ws, "probes", "list", "--json"])
    assert [r["probes"] for r in listed] == [2128, 644]
    bad = tmp_path / "bad.csv"
    bad.write_text('ID,prompt\n1,"ছেলে বা বালিকা দিয়ে উত্তর দিন"\n', encoding="utf-8")
    capsys.readouterr()
    assert main(["-w", ws, "import", "probes", str(bad), "--topic", "gender"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 2, column 'prompt': unknown group" in err
    assert len(run_json(capsys, ["-w", ws, "probes", "list", "--json"])) == 2
    made = run_json(
        capsys, ["-w", ws, "probes", "to-questions", "template-gender", "--limit", "3", "--json"]
    )
    assert made == {
        "question_set": "probes:template-gender",
        "probes": 3,
        "inserted": 3,
        "sample": {"limit": 3, "seed": 0},
    }
    capsys.readouterr()
    assert main(["-w", ws, "probes", "from-dialects", "template-gender"]) == 2
    assert "no gold dialect variants" in capsys.readouterr().err
    kappa = run_json(
        capsys,
        [
            "-w",
            ws,
            "probes",
            "agreement",
            str(bias_data / "annotators" / "gender_annotated.csv"),
            "--resamples",
            "200",
            "--json",
        ],
    )
    assert kappa["n"] == 200 and round(kappa["kappa"], 3) == 0.722  # the paper's value
    table = run_json(capsys, ["-w", ws, "probes", "table", "--topic", "gender", "--json"])
    mapped = run_json(
        capsys, ["-w", ws, "probes", "map", "বালিকা", "female", "--topic", "gender", "--json"]
    )
    assert mapped["version"] != table["version"]


@pytest.mark.slow
def test_import_probe_on_the_embedded_model_and_stats(tmp_path, capsys, bias_data, embedded_gguf):
    ws = str(tmp_path / "real.sqlite")
    assert main(["-w", ws, "init"]) == 0
    t = run_json(
        capsys,
        [
            "-w",
            ws,
            "import",
            "probes",
            str(bias_data / "template" / "gender_prompts.csv"),
            "--name",
            "gender-template",
            "--json",
        ],
    )
    n = run_json(
        capsys,
        [
            "-w",
            ws,
            "import",
            "probes",
            str(bias_data / "natural" / "gender_prompts.csv"),
            "--name",
            "gender-natural",
            "--json",
        ],
    )
    assert (t["inserted"], n["inserted"], n["kind"]) == (2128, 2416, "natural")
    probe = [
        "-w",
        ws,
        "probe",
        "--sets",
        "gender-template,gender-natural",
        "--limit",
        "3",
        "--counterbalance",
        "--max-tokens",
        "8",
        "--json",
    ]
    runs = run_json(capsys, probe)["runs"]
    assert [(r["items"], r["complete"], r["errors"]) for r in runs] == [(6, True, 0)] * 2
    again = run_json(capsys, probe)["runs"]
    assert all(r["done_before"] == 6 and r["done_now"] == 0 for r in again)
    constrained = run_json(
        capsys,
        ["-w", ws, "probe", "--sets", "gender-template", "--limit", "3", "--constrained", "--json"],
    )["runs"]
    assert constrained[0]["run_id"] not in {r["run_id"] for r in runs}

    stats = run_json(capsys, ["-w", ws, "bias-stats", "--resamples", "200", "--json"])
    assert stats["n_replies"] == 15 and "tanh" in stats["scale"] and stats["zero_rule"] == "limit"
    for row in stats["groups"]:
        assert {
            "refusal_rate",
            "unparseable_rate",
            "neutral_rate",
            "score",
            "ci_low",
            "zero_count",
            "band",
        } <= set(row)
        assert (
            row["count_x"]
            + row["count_y"]
            + row["both_neither"]
            + row["refusal"]
            + row["unparseable"]
            == row["n"]
        )
    # a constrained reply always names one of the two options
    [con] = [o for o in stats["overall"] if o["mode"].startswith("constrained")]
    assert con["count_x"] + con["count_y"] == con["n"] == 3
    capsys.readouterr()
    assert main(["-w", ws, "bias-stats", "--resamples", "200"]) == 0
    text = capsys.readouterr().out
    assert "zero-count rule" in text and "position effect" in text and "unparse" in text
    assert main(["-w", ws, "probes", "unmapped"]) == 0
