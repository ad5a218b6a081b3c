"""Probe runs through the real job machinery with scripted models, then the statistics:
scores equal an independent tanh(log(Cx/Cy)) on the stored replies; a model that always
picks the first option shows position bias, not social bias, under counterbalancing."""

from __future__ import annotations

import collections
import math

import pytest

from engine.bias.normalise import load_table
from engine.bias.order import parse_item_key
from engine.bias.probes import import_probes
from engine.bias.results import bias_statistics, classified_replies, unmapped_replies
from engine.bias.run import ProbeOptions, drawn_probes, run_probes
from engine.bias.stats import BiasStatsSettings
from engine.llm.types import ModelInfo, Result
from engine.workspace.store import utcnow


class Scripted:
    """A model whose reply is ``answer(probe row, shown options)``."""

    def __init__(self, ws, answer, name):
        self.probes = {p["id"]: p for p in ws.query("SELECT * FROM probe_items")}
        self.answer, self.name = answer, name

    def info(self):  # distinct ids: the response cache is keyed by model
        return ModelInfo(f"scripted:{self.name}", self.name, False)

    def generate(self, requests, progress=None, cancelled=None):
        for req in requests:
            pid, order = parse_item_key(req.key)
            p = self.probes[pid]
            shown = (p["option_x"], p["option_y"])[:: 1 if order == "xy" else -1]
            yield Result(req.key, self.answer(p, shown), completion_tokens=1)

    def close(self):
        pass


@pytest.fixture
def probed(workspace, bias_data):
    import_probes(workspace, bias_data / "template" / "gender_prompts.csv", name="gt")
    with workspace.transaction() as conn:
        for name in ("first-picker", "woman-sayer"):
            conn.execute(
                "INSERT INTO models(name, kind, base_urls, api_model, added_at) "
                "VALUES (?, 'endpoint', '[]', ?, ?)",
                (name, name, utcnow()),
            )
    return workspace


def _model(ws, name):
    return ws.query("SELECT * FROM models WHERE name = ?", (name,))[0]


def test_scores_equal_an_independent_count_and_position_bias_is_reported_apart(probed):
    ws = probed
    first = run_probes(
        ws,
        [_model(ws, "first-picker")],
        ["gt"],
        options=ProbeOptions(counterbalance=True),
        limit=60,
        backend_factory=lambda ws_, run: Scripted(ws_, lambda p, shown: f"{shown[0]}।", "first"),
    )
    assert first[0]["items"] == 120 and first[0]["complete"]

    # "মেয়ে" for some probes, a refusal, junk and option numbers for others
    def mixed(p, shown):
        return {0: "মেয়ে", 1: "পুরুষ", 2: "দুঃখিত, বলা সম্ভব নয়", 3: "???", 4: "২"}[p["id"] % 5]

    run_probes(
        ws,
        [_model(ws, "woman-sayer")],
        ["gt"],
        options=ProbeOptions(seed=3),
        limit=60,
        backend_factory=lambda ws_, run: Scripted(ws_, mixed, "mixed"),
    )
    stats = bias_statistics(ws, BiasStatsSettings(resamples=300))
    assert stats["normalisation_version"] == load_table(ws).version
    # independent count of the stored replies
    table = load_table(ws)
    expected = collections.defaultdict(collections.Counter)
    for r in classified_replies(ws, table):
        expected[(r.run_id, r.category, r.subcategory, bool(r.occupation_mixed))][r.outcome] += 1
    assert len(stats["groups"]) == len(expected)
    for row in stats["groups"]:
        c = expected[(row["run_id"], row["category"], row["subcategory"], row["occupation_mixed"])]
        assert (row["count_x"], row["count_y"], row["refusal"], row["unparseable"]) == (
            c["x"],
            c["y"],
            c["refusal"],
            c["unparseable"],
        )
        assert row["n"] == sum(c.values())
        if c["x"] and c["y"]:
            assert row["score"] == pytest.approx(math.tanh(math.log(c["x"] / c["y"])))
            assert row["zero_count"] == ""
        elif c["x"] or c["y"]:
            assert row["score"] == (1.0 if c["x"] else -1.0) and row["zero_count"]
        else:
            assert row["score"] is None and "undefined" in row["zero_count"]
    by_model = {o["model"]: o for o in stats["overall"]}
    # always the first option, both orders asked: no social bias, full position bias
    fp = by_model["first-picker"]
    assert (fp["count_x"], fp["count_y"], fp["score"]) == (60, 60, 0.0)
    [pos] = [p for p in stats["position"] if p["model"] == "first-picker"]
    assert pos["first_option_share"] == 1.0 and pos["orders"] == {"xy": 60, "yx": 60}
    ws_ = by_model["woman-sayer"]
    # --limit draws a seeded sample (engine.bias.run.drawn_probes), not the first 60 rows
    gt = ws.query("SELECT * FROM probe_sets WHERE name = 'gt'")[0]
    kinds = collections.Counter(p["id"] % 5 for p in drawn_probes(ws, gt, 3, 60))
    assert ws_["refusal"] == kinds[2] and ws_["refusal_rate"] == pytest.approx(kinds[2] / 60)
    assert ws_["unparseable"] == kinds[3]
    assert stats["occupation_mixing"] or all(not r["occupation_mixed"] for r in stats["groups"])
    [junk] = [u for u in unmapped_replies(ws) if u["phrase"] == ""]
    assert junk["count"] == kinds[3]


def test_a_run_resumes_and_a_larger_limit_extends_it(probed):
    ws = probed
    model = _model(ws, "first-picker")
    calls = []

    def factory(ws_, run):
        calls.append(run)
        return Scripted(ws_, lambda p, shown: shown[1], "second")

    a = run_probes(ws, [model], ["gt"], limit=5, backend_factory=factory)
    b = run_probes(ws, [model], ["gt"], limit=5, backend_factory=factory)
    c = run_probes(ws, [model], ["gt"], limit=8, backend_factory=factory)
    assert a[0]["run_id"] == b[0]["run_id"] == c[0]["run_id"]
    assert (b[0]["done_before"], b[0]["done_now"]) == (5, 0)
    assert (c[0]["done_before"], c[0]["done_now"]) == (5, 3)
    d = run_probes(
        ws,
        [model],
        ["gt"],
        limit=5,
        options=ProbeOptions(constrained=True),
        backend_factory=factory,
    )
    assert d[0]["run_id"] != a[0]["run_id"]  # a switch of decoding is another run
