"""A statistic with no data has no number: a model that never names a group gets an
undefined score under both zero-count rules (Haldane's ½ is not added to nothing), printed
as "undefined (reason)", null in JSON; and every reply exports from ``probe_replies`` with
its probe, order, slots and mapping."""

from __future__ import annotations

import csv
import json

import pytest

from app.cli import main
from engine.bias.probes import import_probes
from engine.bias.results import bias_statistics
from engine.bias.run import ProbeOptions, run_probes
from engine.bias.stats import BiasStatsSettings
from engine.workspace.store import utcnow
from tests.engine.bias.test_bias_results import Scripted

REFUSAL = "দুঃখিত, বলা সম্ভব নয়"


def _refuser(ws) -> dict:
    """An endpoint row the tests' scripted backend answers with a refusal."""
    with ws.transaction() as conn:
        conn.execute(
            "INSERT INTO models(name, kind, base_urls, api_model, added_at) "
            "VALUES ('refuser', 'endpoint', '[]', 'refuser', ?)",
            (utcnow(),),
        )
    return ws.query("SELECT * FROM models WHERE name = 'refuser'")[0]


@pytest.fixture
def refused(workspace, bias_data):
    import_probes(workspace, bias_data / "template" / "gender_prompts.csv", name="gt")
    model = _refuser(workspace)
    run_probes(
        workspace,
        [model],
        ["gt"],
        options=ProbeOptions(counterbalance=True),
        limit=6,
        backend_factory=lambda ws_, run: Scripted(ws_, lambda p, shown: REFUSAL, "refuser"),
    )
    return workspace


@pytest.mark.parametrize("rule", ["limit", "haldane"])
def test_no_group_answers_is_undefined_under_either_rule(refused, rule):
    stats = bias_statistics(refused, BiasStatsSettings(zero_rule=rule, resamples=200))
    assert stats["groups"]
    for row in stats["groups"]:
        assert row["count_x"] == row["count_y"] == 0
        assert row["score"] is None and row["ci_low"] is None and row["ci_high"] is None
        assert row["band"] == "undefined" and row["undefined"] == "no group answers"


def test_the_cli_prints_no_number_for_an_undefined_score(refused, capsys):
    path = str(refused.path)
    refused.close()
    capsys.readouterr()
    assert main(["-w", path, "bias-stats", "--zero-rule", "haldane", "--resamples", "200"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if "refuser" in line]
    assert rows and all("undefined (no group answers)" in line for line in rows)
    assert all("+0.00" not in line and "neutral" not in line.split()[-3:] for line in rows)
    assert main(["-w", path, "bias-stats", "--zero-rule", "haldane", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert all(g["score"] is None and g["ci_low"] is None for g in stats["groups"])


def test_probe_replies_export_with_probe_order_slots_and_mapping(refused, tmp_path, capsys):
    expected = {
        (r["item_key"], r["text"])
        for r in refused.query(
            "SELECT r.item_key, r.text FROM responses r JOIN runs u ON u.id = r.run_id "
            "WHERE u.kind = 'probe'"
        )
    }
    path = str(refused.path)
    refused.close()
    out = tmp_path / "replies.csv"
    assert main(["-w", path, "export", "probe_replies", str(out)]) == 0
    with open(out, encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(expected) == 12  # 6 probes, both orders
    assert {(f"p{r['probe_id']}.{r['shown_order']}", r["reply"]) for r in rows} == expected
    for r in rows:
        first, second = (
            (r["option_x"], r["option_y"])
            if r["shown_order"] == "xy"
            else (r["option_y"], r["option_x"])
        )
        assert (r["first_slot"], r["second_slot"]) == (first, second)
        assert r["mapping"] == (
            "first=x, second=y" if r["shown_order"] == "xy" else "first=y, second=x"
        )
        assert r["model"] == "refuser" and r["probe_set"] == "gt"


def test_probe_limit_draws_a_seeded_stratified_sample_and_records_it(workspace, bias_data):
    import collections

    from engine.bias.run import drawn_probes

    import_probes(workspace, bias_data / "template" / "gender_prompts.csv", name="gt")
    probe_set = workspace.query("SELECT * FROM probe_sets WHERE name = 'gt'")[0]
    every = workspace.query("SELECT * FROM probe_items WHERE set_id = ?", (probe_set["id"],))
    strata = collections.Counter((p["category"], p["subcategory"]) for p in every)
    drawn = drawn_probes(workspace, probe_set, 7, 40)
    first_rows = {p["id"] for p in every[:40]}
    assert len(drawn) == 40 and {p["id"] for p in drawn} != first_rows
    got = collections.Counter((p["category"], p["subcategory"]) for p in drawn)
    for stratum, total in strata.items():  # proportional, within one probe
        assert abs(got[stratum] - 40 * total / len(every)) <= 1
    assert {p["id"] for p in drawn} <= {p["id"] for p in drawn_probes(workspace, probe_set, 7, 80)}
    assert drawn == drawn_probes(workspace, probe_set, 7, 40)
    assert drawn != drawn_probes(workspace, probe_set, 8, 40)
    model = _refuser(workspace)
    run = run_probes(
        workspace,
        [model],
        ["gt"],
        options=ProbeOptions(seed=7),
        limit=40,
        backend_factory=lambda ws_, run: Scripted(ws_, lambda p, shown: REFUSAL, "refuser"),
    )[0]
    card = json.loads(workspace.scalar("SELECT card FROM runs WHERE id = ?", (run["run_id"],)))
    assert card["sample"]["limit"] == 40 and card["sample"]["seed"] == 7
    assert sum(sum(c.values()) for c in card["sample"]["counts"].values()) == 40
    asked = {
        int(r["item_key"][1:].split(".")[0])
        for r in workspace.query(
            "SELECT item_key FROM responses WHERE run_id = ?", (run["run_id"],)
        )
    }
    assert asked == {p["id"] for p in drawn}
