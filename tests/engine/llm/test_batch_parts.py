"""The parts of batch files and prices: custom_ids, splitting, result-line validation,
price parsing and costs, and the llm track that can run again."""

from __future__ import annotations

import json

import pytest

from engine.errors import UserError
from engine.llm.batch import pricing
from engine.llm.endpoints import batch_wire
from engine.llm.schema import TRACK
from engine.llm.types import Message, Request, Sampler


def test_custom_ids_round_trip_and_anything_else_is_none():
    cid = batch_wire.custom_id("q1:sylhet@x", "ab12", 7, "f00d")
    assert batch_wire.parse_custom_id(cid) == batch_wire.CustomId("q1:sylhet@x", "ab12", 7, "f00d")
    for other in ("request-1", "a@b.c", "a@b.x.c", "@t.1.s", 12, None):
        assert batch_wire.parse_custom_id(other) is None, other


def test_signature_covers_token_run_item_and_body():
    base = batch_wire.signature("t", "run", "k", "h")
    changed = [
        batch_wire.signature("u", "run", "k", "h"),
        batch_wire.signature("t", "other", "k", "h"),
        batch_wire.signature("t", "run", "j", "h"),
        batch_wire.signature("t", "run", "k", "g"),
    ]
    assert base not in changed and len(set(changed)) == 4


def test_files_split_at_lines_and_bytes():
    lines = [b"x" * 10 + b"\n"] * 7
    assert [len(f) for f in batch_wire.split_lines(lines, 3, 10_000)] == [3, 3, 1]
    assert [len(f) for f in batch_wire.split_lines(lines, 100, 25)] == [2, 2, 2, 1]
    with pytest.raises(UserError, match="more than the 5 bytes"):
        batch_wire.split_lines(lines, 100, 5)


def test_the_body_is_the_endpoint_backends(tmp_path):
    row = {"name": "m", "kind": "endpoint", "base_urls": '["http://127.0.0.1:9/v1"]',
           "api_model": "served", "load_params": "{}"}  # fmt: skip
    req = Request(
        "k",
        messages=(Message("user", "প্রশ্ন"),),
        sampler=Sampler(max_tokens=9, seed=3, stop=("\n",)),
        json_schema={"type": "object"},
    )
    path, body = batch_wire.endpoint_body(row, req, "target")
    assert path == "/v1/chat/completions"
    assert body["model"] == "target" and body["seed"] == 3 and body["stop"] == ["\n"]
    assert body["response_format"]["json_schema"]["schema"] == {"type": "object"}
    assert body["messages"] == [{"role": "user", "content": "প্রশ্ন"}]


def test_result_lines_are_validated(tmp_path):
    ok = {"custom_id": "a", "response": {"status_code": 200, "body": {"choices": [{}]}}}
    lines = [
        json.dumps(ok),
        "[1, 2]",
        "\xff not utf-8",
        json.dumps({**ok, "error": {"message": "x"}}),
        json.dumps({"custom_id": "b", "response": {"status_code": 200, "body": {"choices": []}}}),
        "",
    ]
    path = tmp_path / "r.jsonl"
    path.write_bytes("\n".join(lines).encode("utf-8").replace(b"\xc3\xbf", b"\xff"))
    got = [(r.number, r.refused) for r in batch_wire.read_result_lines(path)]
    assert got == [(1, None), (2, "malformed"), (3, "malformed"), (4, "error"), (5, "error")]


def test_prices_parse_and_cost():
    assert pricing.parse_price("0.15/M") == pytest.approx(0.15)
    assert pricing.parse_price("0.00015/1K") == pytest.approx(0.15)
    assert pricing.parse_price("2") == 2.0
    assert pricing.parse_discount("50%") == 0.5 and pricing.parse_discount("0.25") == 0.25
    for bad in ("free", "-1", "1/G"):
        with pytest.raises(UserError):
            pricing.parse_price(bad)
    with pytest.raises(UserError):
        pricing.parse_discount("100%")
    price = pricing.Price(0.15, 0.60, None, 0.5)
    assert price.cost(1_000_000, 1_000_000, batch=False) == pytest.approx(0.75)
    assert price.cost(1_000_000, 1_000_000, batch=True) == pytest.approx(0.375)
    assert pricing.Price().cost(10, 10, batch=True) is None
    assert "cost unknown" in pricing.describe_price(pricing.Price())


def test_the_estimate_says_unknown_never_zero(workspace):
    with workspace.transaction() as conn:
        conn.execute(
            "INSERT INTO models(name, kind, api_model, added_at) VALUES ('e', 'endpoint', 'e', 'now')"
        )
    model_id = workspace.scalar("SELECT id FROM models WHERE name = 'e'")
    reqs = [Request(f"k{i}", prompt="অ" * 30, sampler=Sampler(max_tokens=5)) for i in range(4)]
    estimate = pricing.cost_estimate(workspace, {model_id: reqs})
    assert estimate["total"]["input_tokens"] == 40 and estimate["total"]["output_tokens"] == 20
    assert estimate["total"]["online_cost"] is None and estimate["total"]["batch_cost"] is None
    text = "\n".join(pricing.describe_estimate(estimate))
    assert "cost unknown" in text and "time unknown" in text and "cost 0" not in text
    pricing.set_price(workspace, model_id, price_in=1.0, price_out=2.0)
    pricing.set_price(workspace, model_id, batch_discount=0.5)  # the others stay
    estimate = pricing.cost_estimate(workspace, {model_id: reqs})
    assert estimate["total"]["online_cost"] == pytest.approx((40 * 1.0 + 20 * 2.0) / 1e6)
    assert estimate["total"]["batch_cost"] == pytest.approx((40 * 1.0 + 20 * 2.0) / 2e6)


def test_the_llm_track_runs_again(workspace):
    # the tables of batches and schedules predate stage versions: their statements run again;
    # later steps (columns added, moved) run once, recorded in stage_versions
    with workspace.transaction() as conn:
        for step in TRACK[:2]:
            for statement in step:
                conn.execute(statement)
    assert {"llm_batches", "llm_batch_items", "llm_batch_results", "llm_prices"} <= set(
        workspace.table_names()
    )
