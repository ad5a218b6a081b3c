"""Bad paths and values a hostile tester gave: each exits 2 with one line that names the
option or the value, and leaves the workspace unchanged (the runner of
tests/cli/test_cli_hostile_inputs.py, with its workspace)."""

from __future__ import annotations

import pytest

from tests.cli.test_cli_hostile_inputs import hostile  # noqa: F401 - the shared workspace
from tests.cli.test_cli_hostile_inputs import (
    test_hostile_case_exits_2_with_one_line_and_changes_nothing as _runner,
)

RLO = "\u202e"
CASES = [
    # bad output paths (an internal error before)
    ("report --out /etc/passwd", ["report", "--out", "/etc/passwd"], "not a folder"),
    ("report --out /dev/null", ["report", "--out", "/dev/null"], "not a folder"),
    ("report --out in a missing folder", ["report", "--out", "/nonexistent/r"], "does not exist"),
    ("baseline --csv DIR", ["baseline", "--csv", "{dir}"], "is a folder"),
    # bad values accepted before
    ("generate --prompts missing", ["generate", "--prompts", "/nonexistent"], "not a folder"),
    ("generate --prompts a file", ["generate", "--prompts", "/etc/passwd"], "not a folder"),
    ("generate --prompts empty folder", ["generate", "--prompts", "{dir}"], "no answer_"),
    ("probe --models ''", ["probe", "--models", ""], "--models"),
    ("probe --models ,,,", ["probe", "--models", ",,,"], "names nothing"),
    ("run-task --models ,", ["run-task", "dialect-id", "--models", ","], "--models"),
    ("stats --danger-threshold -1", ["stats", "--danger-threshold", "-1"], "--danger-threshold"),
    ("stats --danger-threshold 99", ["stats", "--danger-threshold", "99"], "[0, 10]"),
    (
        "models add a bad IPv6 URL",
        ["models", "add", "http://[::1:bad/v1", "--api-model", "m"],
        "not a valid URL",
    ),
    (
        "models add a bad port",
        ["models", "add", "http://localhost:99999/v1", "--api-model", "m"],
        "not a valid URL",
    ),
    ("queue --judge-run 999", ["queue", "--judge-run", "999"], "no judge run 999"),
    (
        "translate --dialects ''",
        ["translate", "--questions", "q", "--dialects", ""],
        "--dialects",
    ),
    (
        "review bulk --reviewer ''",
        ["review", "bulk", "--from", "draft", "--to", "gold", "--reviewer", ""],
        "--reviewer",
    ),
    (
        "review set --reviewer with U+202E",
        ["review", "set", "1", "--status", "gold", "--reviewer", f"Karim{RLO}evil"],
        "bidirectional control U+202E",
    ),
    (
        "annotators add with U+202E",
        ["annotators", "add", f"Rahim{RLO}lirpA", "--dialects", "sylhet"],
        "bidirectional control U+202E",
    ),
    (
        "annotators add with a bell",
        ["annotators", "add", "Ra\x07him", "--dialects", "sylhet"],
        "control character U+0007",
    ),
    (
        "annotators add --dialects ''",
        ["annotators", "add", "Rahim", "--dialects", ""],
        "--dialects",
    ),
    ("assign --annotators ,", ["assign", "--name", "b9", "--annotators", ","], "--annotators"),
    (
        "import questions --name with U+202E",
        ["import", "questions", "{prompts}", "--name", f"set{RLO}evil"],
        "bidirectional control U+202E",
    ),
    ("assign --name ''", ["assign", "--name", " "], "--name"),
    # every name a user gives goes through one rule, endpoint bounds through one range
    (
        "models add --name with U+202E",
        ["models", "add", "http://127.0.0.1:9/v1", "--api-model", "m", "--name", f"lab{RLO}evil"],
        "bidirectional control U+202E",
    ),
    (
        "models add --read-timeout over an hour",
        ["models", "add", "http://127.0.0.1:9/v1", "--api-model", "m", "--read-timeout", "5000"],
        "--read-timeout must be more than 0 and at most 3600 seconds, not 5000",
    ),
    (
        "models add --max-retries 21",
        ["models", "add", "http://127.0.0.1:9/v1", "--api-model", "m", "--max-retries", "21"],
        "--max-retries must be a whole number from 0 to 20",
    ),
    (
        "dialects add --name-en with U+202E",
        ["dialects", "add", "comilla", "--name-en", f"Com{RLO}illa", "--name-bn", "কুমিল্লা"],
        "bidirectional control U+202E",
    ),
    (
        "dialects add --alias with U+202E",
        ["dialects", "add", "sylhet", "--alias", f"syl{RLO}"],
        "bidirectional control U+202E",
    ),
    (
        "override --annotator with U+202E",
        ["override", "1", "--annotator", f"Karim{RLO}", "--reason", "r", "--final", "5"],
        "bidirectional control U+202E",
    ),
    (
        "adjudicate --adjudicator with U+202E",
        ["adjudicate", "1", "--adjudicator", f"Karim{RLO}", "--decision", "accept"],
        "bidirectional control U+202E",
    ),
    # the small ones
    (
        "generate --question-set nosuch",
        ["generate", "--status", "reviewed", "--question-set", "nosuch"],
        "no question set 'nosuch'",
    ),
    (
        "dialects add sylhet renamed",
        ["dialects", "add", "sylhet", "--name-en", "Evil"],
        "needs --rename",
    ),
]


@pytest.mark.parametrize("case,argv,expected", CASES, ids=[c[0] for c in CASES])
def test_bad_value_exits_2_with_one_line_and_changes_nothing(
    hostile,  # noqa: F811
    capsys,
    monkeypatch,
    case,
    argv,
    expected,
):
    _runner(hostile, capsys, monkeypatch, case, argv, expected)


def test_renaming_a_dialect_needs_rename_and_the_summary_lists_the_aliases_kept(tmp_path, capsys):
    from app.cli import main

    w = ["-w", str(tmp_path / "ws.sqlite")]
    assert main([*w, "dialects", "add", "sylhet", "--alias", "syl"]) == 0
    out = capsys.readouterr().out
    assert "aliases: none" not in out and "syl" in out
    code = main([*w, "dialects", "add", "sylhet", "--name-en", "Evil", "--rename"])
    out = capsys.readouterr().out
    assert code == 0 and "Evil" in out and "syl" in out and "sylheti" in out.lower()
