"""The fidelity judge and the end-to-end translation evaluation (embedded model, real data)."""

from __future__ import annotations

import json

import pytest

from engine.rag.build import build_index
from engine.rag.index import LeakageError
from engine.rag.retriever import Retriever
from engine.translation import fidelity_judge as judge
from engine.translation.evaluate import evaluate_translations, heldout_pairs, record_human_score


@pytest.mark.parametrize(
    "reply, expected",
    [
        ('{"reasoning": "ok", "inaccurate_words": 0, "score": 9}', (9, 9, False)),
        ('{"reasoning": "one word", "inaccurate_words": 1, "score": 9}', (9, 7, True)),
        ('{"reasoning": "two", "inaccurate_words": 2, "score": 8}', (8, 6, True)),
        ('{"reasoning": "many", "inaccurate_words": 5, "score": 3}', (3, 3, False)),
        ('noise {"reasoning": "x", "inaccurate_words": 1, "score": 7} tail', (7, 7, False)),
    ],
)
def test_judge_ceilings_are_enforced_in_code(reply, expected):
    v = judge.parse_verdict(reply)
    assert (v.raw_score, v.score, v.ceiling_applied) == expected


@pytest.mark.parametrize(
    "reply",
    [
        None,
        "",
        "score: 7",
        '{"reasoning": "", "inaccurate_words": 0, "score": 9}',
        '{"reasoning": "x", "inaccurate_words": 0, "score": 1000000000000000}',
        '{"reasoning": "x", "inaccurate_words": 0, "score": 7.5}',
        '{"reasoning": "x", "inaccurate_words": true, "score": 7}',
        '{"reasoning": "x", "inaccurate_words": 0}',
    ],
)
def test_invalid_judge_replies_are_not_scores(reply):
    assert judge.parse_verdict(reply) is None


def test_judge_schema_uses_enums_and_puts_reasoning_first():
    props = judge.SCHEMA["properties"]
    assert list(props)[0] == "reasoning" and judge.SCHEMA["required"][0] == "reasoning"
    assert props["score"]["enum"] == list(range(11)) and "maximum" not in props["score"]
    assert judge.JUDGE_SAMPLER.max_tokens > props["reasoning"]["maxLength"]
    text = judge.load_template()
    for needle in ("native speaker", "Step 1", "Step 2", "Step 3", "at most 7", "at most 6"):
        assert needle in text
    req = judge.build_judge_request(
        "k",
        template=text,
        dialect={"name_en": "Sylhet", "name_bn": "সিলেটি"},
        source="উৎস",
        reference="রেফ",
        candidate="### user $x",
        chat=True,
    )
    assert [m.role for m in req.messages] == ["system", "user"] and "### user $x" in req.messages[
        1
    ].content


def test_evaluation_refuses_an_index_holding_the_evaluated_split(
    vashantor_ws, default_encoder, tmp_path
):
    leaky = build_index(
        vashantor_ws,
        encoder=default_encoder,
        splits=("test", "validation"),
        allow_eval_split=True,
        selfcheck=False,
        folder=tmp_path / "leaky",
    )
    with pytest.raises(LeakageError):
        heldout_pairs(vashantor_ws, leaky, ["chittagong"], "validation", limit=3)


def test_a_limit_draws_a_seeded_sample_of_the_held_out_items(vashantor_ws, vashantor_index):
    def ids(limit=None, seed=0):
        drawn, _ = heldout_pairs(
            vashantor_ws, vashantor_index, ["chittagong"], "validation", limit, seed
        )
        return [item["id"] for item in drawn]

    every = ids()
    assert len(ids(5)) == 5 and ids(5) != every[:5] and set(ids(5)) <= set(every)
    assert ids(5) == ids(5) and set(ids(5)) <= set(ids(9)) and ids(5, seed=1) != ids(5)


@pytest.mark.slow
def test_evaluate_translations_end_to_end(
    vashantor_ws, vashantor_index, default_encoder, embedded_gguf
):
    from engine.llm.models.registry import ensure_embedded_default

    ws = vashantor_ws
    model = ws.query("SELECT * FROM models WHERE id = ?", (ensure_embedded_default(ws),))[0]
    retriever = Retriever(vashantor_index, default_encoder)
    report = evaluate_translations(
        ws,
        retriever,
        dialects=["chittagong", "mymensingh"],
        model_row=model,
        judge_row=model,
        limit=2,
    )
    assert report["split"] == "validation" and report["pairs"] == 4 and report["translated"] == 4
    card = json.loads(ws.scalar("SELECT card FROM runs WHERE id = ?", (report["run_id"],)))
    assert card["sample"] == report["sample"] and report["sample"]["seed"] == 0
    assert report["sample"]["counts"] == {"chittagong": {"all": 2}, "mymensingh": {"all": 2}}
    for dialect in ("chittagong", "mymensingh"):
        entry = report["per_dialect"][dialect]
        assert entry["n"] == 2
        for block in ("system", "copy_baseline"):
            assert set(entry[block]) >= {"bleu", "chrf++", "wer", "cosine", "bertscore_f1"}
        assert entry["judge"]["n_valid"] + entry["judge"]["n_invalid"] == 2
    assert "nw:2" in report["signatures"]["chrf++"]
    assert report["selfcheck"]["char"]["r1"] > report["selfcheck"]["dense"]["r1"]
    assert report["correlation"]["table"] == []
    # humans score the four translations: a correlation table appears
    ids = [
        r["id"]
        for r in ws.query(
            "SELECT id FROM responses WHERE run_id = ? ORDER BY id", (report["run_id"],)
        )
    ]
    for rid, score in zip(ids, (2, 5, 9, 4)):
        record_human_score(ws, rid, "tester", score)
    again = evaluate_translations(
        ws,
        retriever,
        dialects=["chittagong", "mymensingh"],
        model_row=model,
        judge_row=model,
        limit=2,
    )
    assert again["run_id"] == report["run_id"] and again["judge_run_id"] == report["judge_run_id"]
    table = {row["metric"]: row for row in again["correlation"]["table"]}
    assert again["correlation"]["n_human"] == 4 and table["chrf++"]["n"] == 4
    assert set(table["chrf++"]) >= {"metric", "n", "pearson", "spearman", "kendall", "ccc"}
    assert table["chrf++"]["human_scale"] == [0.0, 10.0]
    assert table["chrf++"]["excluded"] == {"human_missing": 0, "metric_missing": 0}
    judge_replies = ws.query(
        "SELECT text FROM responses WHERE run_id = ?", (report["judge_run_id"],)
    )
    verdicts = [judge.parse_verdict(r["text"]) for r in judge_replies]
    assert sum(v is not None for v in verdicts) == sum(
        e["judge"]["n_valid"] for e in again["per_dialect"].values()
    )
