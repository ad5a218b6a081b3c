"""What a study's statistics rest on: how many translations, answers and judgments of the
study's grid exist, so a partial study is never reported as if it were whole.

The grid is every question a translation was attempted or stored for, times every dialect
any variant or translation attempt has (the ``translate`` item keys ``q<question>:<dialect>``
count, so a translation that failed still counts as expected). Then:

- translations: grid cells with a non-empty dialect variant;
- answers: for each answering model, the standard and every dialect variant of each grid
  question with a finished answer (``1 + dialects`` per question);
- judgments: for the judge run, grid dialect answers of each answering model with a
  judgment (one per question and dialect).

``complete`` is true only when all three are whole. Variants imported by hand without a
translation run form the grid just the same.
"""

from __future__ import annotations

import re

from engine.answering.generation import ANSWER_KIND
from engine.workspace.store import Workspace

_TRANSLATE_KEY = re.compile(r"^q(\d+):(.+)$")


def study_coverage(ws: Workspace, judge_run: int | None = None) -> dict:
    cells: set[tuple[int, str]] = {
        (r["question_id"], r["dialect"])
        for r in ws.query(
            "SELECT question_id, dialect FROM variants WHERE dialect != 'standard' "
            "AND script = 'bengali'"
        )
    }
    for r in ws.query(
        "SELECT p.item_key FROM responses p JOIN runs r ON r.id = p.run_id "
        "WHERE r.kind = 'translate'"
    ):
        m = _TRANSLATE_KEY.match(r["item_key"])
        if m:
            cells.add((int(m.group(1)), m.group(2)))
    questions = sorted({q for q, _ in cells})
    dialects = sorted({d for _, d in cells})
    qset = set(questions)
    translated = {
        (r["question_id"], r["dialect"])
        for r in ws.query(
            "SELECT question_id, dialect FROM variants WHERE dialect != 'standard' "
            "AND script = 'bengali' AND trim(coalesce(text, '')) != ''"
        )
        if r["question_id"] in qset
    }
    per_model = len(questions) * (1 + len(dialects))
    answer_runs = ws.query(f"SELECT id FROM runs WHERE kind = '{ANSWER_KIND}' ORDER BY id")
    answered = failed_answers = 0
    for run in answer_runs:
        rows = ws.query(
            "SELECT v.question_id, v.dialect, p.status FROM responses p "
            "JOIN variants v ON v.id = p.variant_id WHERE p.run_id = ? AND v.script = 'bengali'",
            (run["id"],),
        )
        done = {
            (r["question_id"], r["dialect"])
            for r in rows
            if r["status"] == "done"
            and r["question_id"] in qset
            and (r["dialect"] == "standard" or r["dialect"] in dialects)
        }
        answered += len(done)
        failed_answers += sum(r["status"] == "error" for r in rows)
    out: dict = {
        "questions": len(questions),
        "dialects": dialects,
        "translations": {"done": len(translated), "expected": len(questions) * len(dialects)},
        "answers": {
            "done": answered,
            "expected": per_model * len(answer_runs),
            "models": len(answer_runs),
            "errors": failed_answers,
        },
    }
    if judge_run is not None:
        judged = ws.scalar(
            "SELECT count(*) FROM judgments j JOIN responses d ON d.id = j.response_id "
            "JOIN variants v ON v.id = d.variant_id WHERE j.run_id = ? AND v.dialect != "
            f"'standard' AND v.question_id IN ({','.join('?' * len(questions)) or 'NULL'})",
            (judge_run, *questions),
        )
        out["judgments"] = {
            "done": judged,
            "expected": len(questions) * len(dialects) * len(answer_runs),
        }
    parts = [k for k in ("translations", "answers", "judgments") if k in out]
    out["complete"] = bool(answer_runs) and all(out[k]["done"] >= out[k]["expected"] for k in parts)
    out["text"] = coverage_text(out)
    return out


def coverage_text(cov: dict) -> str:
    """E.g. "36 of 36 translations, 48 of 48 answers, 36 of 36 judgments"."""
    bits = [
        f"{cov[k]['done']} of {cov[k]['expected']} {k}"
        for k in ("translations", "answers", "judgments")
        if k in cov
    ]
    return ", ".join(bits)
