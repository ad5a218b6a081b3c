"""Dialect × bias: a probe set through the question/variant flow and back, dialect probes
keep options and groups, and the paired score change per category."""

from __future__ import annotations

import math

import pytest

from engine.bias.dialects import dialect_probe_sets, probes_to_questions
from engine.bias.order import parse_item_key
from engine.bias.probes import import_probes
from engine.bias.results import bias_statistics
from engine.bias.run import ProbeOptions, run_probes
from engine.bias.stats import BiasStatsSettings, bias_score
from engine.errors import Step, UserError, step
from engine.llm.types import ModelInfo, Result
from engine.workspace.store import utcnow


class Always:
    """Answers group x's option for standard probes; in dialect sets, group y's option for
    even-numbered probes (a dialect that moves the model toward y)."""

    def __init__(self, ws):
        self.probes = {
            p["id"]: p
            for p in ws.query(
                "SELECT p.*, s.dialect FROM probe_items p JOIN probe_sets s ON s.id = p.set_id"
            )
        }

    def info(self):
        return ModelInfo("always", "always", False)

    def generate(self, requests, progress=None, cancelled=None):
        for req in requests:
            pid, _order = parse_item_key(req.key)
            p = self.probes[pid]
            shift = p["dialect"] != "standard" and int(p["ext_id"]) % 2 == 0
            yield Result(req.key, p["option_y"] if shift else p["option_x"])

    def close(self):
        pass


def _review(ws, dialect, text_of):
    """What translation + review leave behind: gold dialect variants."""
    with ws.transaction() as conn:
        for q in conn.execute("SELECT id, ext_id, text FROM questions").fetchall():
            conn.execute(
                "INSERT INTO variants(question_id, dialect, text, provenance, status, updated_at) "
                "VALUES (?, ?, ?, 'human', 'gold', ?)",
                (q[0], dialect, text_of(q[1], q[2]), utcnow()),
            )


def test_dialect_probes_keep_options_and_the_shift_is_paired(workspace, bias_data):
    ws = workspace
    import_probes(ws, bias_data / "template" / "gender_prompts.csv", name="gt")
    made = probes_to_questions(ws, "gt", limit=12)
    assert made == {
        "question_set": "probes:gt",
        "probes": 12,
        "inserted": 12,
        "sample": {"limit": 12, "seed": 0},
    }
    # the sample a limited probe run draws (seeded, stratified), not the file's first rows
    drawn = [q["ext_id"] for q in ws.query("SELECT ext_id FROM questions ORDER BY id")]
    first = [p["ext_id"] for p in ws.query("SELECT ext_id FROM probe_items ORDER BY id LIMIT 12")]
    assert drawn != first
    lost = next(
        q["ext_id"]
        for q in ws.query("SELECT ext_id, text FROM questions ORDER BY id")
        if "মেয়ে" in q["text"] or "নারী" in q["text"]
    )
    kept = [e for e in drawn if e != lost]
    even = sum(int(e) % 2 == 0 for e in kept)
    assert (
        ws.scalar("SELECT count(*) FROM variants WHERE dialect = 'standard' AND status = 'gold'")
        == 12
    )

    # a Sylheti-flavoured rendering that keeps the option words; one probe lost one
    def sylhet(ext_id, text):
        text = text.replace("নিচের বাক্যটি", "তলর বাক্যটা")
        return text.replace("মেয়ে", "ফুড়ি").replace("নারী", "বেটি") if ext_id == lost else text

    _review(ws, "sylhet", sylhet)
    [report] = dialect_probe_sets(ws, "gt")
    assert (report["name"], report["dialect"], report["inserted"], report["skipped"]) == (
        "gt@sylhet",
        "sylhet",
        11,
        1,
    )
    assert report["warnings"][0].startswith(f"{lost}: ")
    base = {
        p["ext_id"]: p
        for p in ws.query(
            "SELECT * FROM probe_items WHERE set_id = (SELECT id FROM probe_sets WHERE name='gt')"
        )
    }
    for p in ws.query(
        "SELECT p.* FROM probe_items p JOIN probe_sets s ON s.id = p.set_id "
        "WHERE s.name = 'gt@sylhet'"
    ):
        b = base[p["ext_id"]]
        assert (p["option_x"], p["option_y"], p["category"], p["subcategory"]) == (
            b["option_x"],
            b["option_y"],
            b["category"],
            b["subcategory"],
        )
        assert p["stem"].startswith("তলর বাক্যটা") and "{a}" in p["stem"]

    ws.conn.execute(
        "INSERT INTO models(name, kind, base_urls, api_model, added_at) "
        "VALUES ('m', 'endpoint', '[]', 'm', ?)",
        (utcnow(),),
    )
    model = ws.query("SELECT * FROM models WHERE name = 'm'")
    # the standard set whole (a --limit draws a sample, not the 12 probes made into questions)
    for sets, limit in ((["gt"], None), (["gt@sylhet"], 12)):
        run_probes(
            ws,
            model,
            sets,
            options=ProbeOptions(counterbalance=True),
            limit=limit,
            backend_factory=lambda w, r: Always(w),
        )
    stats = bias_statistics(ws, BiasStatsSettings(resamples=300))
    [overall] = [d for d in stats["dialect_shift"] if d["category"] == "(all)"]
    # standard: all x -> +1; sylhet: 11 probes, those with an even ext_id answer y
    assert overall["n_probes"] == 11 and overall["standard_score"] == 1.0
    assert 0 < even < 11
    expected = bias_score(2 * (11 - even), 2 * even) - 1.0
    assert overall["dialect_score"] == pytest.approx(math.tanh(math.log((11 - even) / even)))
    assert overall["shift"] == pytest.approx(expected)
    assert overall["ci_low"] <= overall["shift"] <= overall["ci_high"] < 0
    assert all(d["dialect"] == "sylhet" for d in stats["dialect_shift"])


def test_dialect_sets_need_the_question_set_and_reviewed_variants(workspace, bias_data):
    import_probes(workspace, bias_data / "template" / "gender_prompts.csv", name="gt")
    with pytest.raises(UserError, match=step(Step.PROBES_TO_QUESTIONS)):
        dialect_probe_sets(workspace, "gt")
    probes_to_questions(workspace, "gt", limit=2)
    with pytest.raises(UserError, match="no gold dialect variants"):
        dialect_probe_sets(workspace, "gt")
