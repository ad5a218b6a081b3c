"""The demo runs the whole pipeline through the CLI; a second run reuses everything and
reports each step to its hook."""

import json
import sqlite3

import pytest

from app.cli.demo import DEMO_REASONING_CHARS, run_demo


@pytest.mark.slow
def test_demo_end_to_end_then_resumes_without_new_work(demo_made, capsys):
    out = demo_made  # ``demo --questions 2 --dialects chittagong`` exited 0 (tests/cli/conftest)
    report = out / "report" / "report.html"
    assert report.is_file() and "<html" in report.read_text(encoding="utf-8").lower()
    conn = sqlite3.connect(out / "demo.sqlite")
    counts = conn.execute(
        "SELECT (SELECT count(*) FROM responses), (SELECT count(*) FROM judgments), "
        "(SELECT count(*) FROM variants WHERE dialect='chittagong' AND status='gold')"
    ).fetchone()
    (card,) = conn.execute("SELECT card FROM runs WHERE kind = 'judge'").fetchone()
    conn.close()
    # 2 translations + 4 answers (2 standard, 2 dialect) + judge replies for non-gated pairs
    assert counts[1] == 2 and counts[2] == 2
    # the judge ran with the demo's rubric: the bundled one with a shorter reasoning cap
    reasoning = json.loads(card)["schema"]["properties"]["chain_of_thought_reasoning"]
    assert reasoning["maxLength"] == DEMO_REASONING_CHARS < 800
    capsys.readouterr()

    heard = []  # the step hook bench/demo_steps.py times the steps with
    run_demo(
        out,
        questions=2,
        dialects="chittagong",
        on_step=lambda title, args, seconds: heard.append((args[2], seconds >= 0)),
    )
    assert heard == [
        (command, True)
        for command in (
            *("init", "import", "import", "index", "translate", "review"),
            *("generate", "judge", "stats", "report"),
        )
    ]
    second = capsys.readouterr().out
    assert "0 generated" in second or "0 new" in second
    conn = sqlite3.connect(out / "demo.sqlite")
    again = conn.execute(
        "SELECT (SELECT count(*) FROM responses), (SELECT count(*) FROM judgments), "
        "(SELECT count(*) FROM variants WHERE dialect='chittagong' AND status='gold')"
    ).fetchone()
    conn.close()
    assert again == counts
