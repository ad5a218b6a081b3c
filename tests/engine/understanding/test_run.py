"""Task runs with a scripted backend: records, resume, and the statistics they lead to."""

from __future__ import annotations

import json

import pytest

from engine.errors import UserError
from engine.understanding.items import load_items
from engine.understanding.metrics import corpus_text_scores
from engine.understanding.run import run_task
from engine.understanding.stats import TaskStatsSettings, task_stats
from engine.understanding.task_spec import get_task

NORM = get_task("dialect-to-standard")


def _items(ws):
    return {i.key: i for i in load_items(ws, "pairs")}


def _reply_for(ws):
    items = _items(ws)

    def reply(req):
        prompt = req.messages[-1].content
        item = items[req.key]
        if "Examples:" in prompt:  # few-shot: sylhet copies a demonstration's answer
            if item.dialect == "sylhet":
                return '{"standard": "আমি বাজারে যাচ্ছি"}'
            return json.dumps({"standard": item.refs["standard"][0]}, ensure_ascii=False)
        if item.dialect == "sylhet":  # zero-shot: sylhet right, chittagong unparseable
            return json.dumps({"standard": item.refs["standard"][0]}, ensure_ascii=False)
        return "I cannot do that."

    return reply


def test_run_records_resumes_and_scores(pairs_ws, model_row):
    from tests.scripted_backend import ScriptedBackend

    backends = []

    def factory(ws, run_id):
        backends.append(ScriptedBackend(_reply_for(ws)))
        return backends[-1]

    kwargs = dict(
        regimes=["zero", "few"], scripts=["native", "roman"], k=1, seed=3, backend_factory=factory
    )
    first = run_task(pairs_ws, NORM, [model_row], **kwargs)
    assert [(s["regime"], s["script"], s["items"], s["done_now"]) for s in first] == [
        ("zero", "native", 4, 4),
        ("zero", "roman", 4, 4),
        ("few", "native", 4, 4),
        ("few", "roman", 4, 4),
    ]
    again = run_task(pairs_ws, NORM, [model_row], **kwargs)
    assert all(s["done_now"] == 0 and s["complete"] for s in again)
    assert len(backends) == 2  # one model load per call serves its four runs
    assert not backends[1].seen  # nothing redone
    assert all(b.closed for b in backends)

    items = _items(pairs_ws)
    recorded = pairs_ws.query("SELECT * FROM task_run_items ORDER BY run_id, item_key")
    assert len(recorded) == 16
    for row in recorded:
        assert items[row["item_key"]].split == "validation"
        for demo in json.loads(row["demo_ids"]):
            assert items[demo].split == "train"  # no leakage: demos only from train
        if row["script"] == "roman":
            assert not any("\u0980" <= c <= "\u09ff" for c in row["input_text"])
    few_native = [r for r in recorded if r["run_id"] == 3]
    assert all(len(json.loads(r["demo_ids"])) == 2 for r in few_native)  # k=1 x 2 dialects

    stats = task_stats(pairs_ws, "dialect-to-standard", settings=TaskStatsSettings(resamples=200))
    runs = {(r["regime"], r["script"]): r for r in stats["runs"]}
    zero = runs[("zero", "native")]
    assert zero["failures"]["unparseable"] == 0.5 and zero["failures"]["empty"] == 0.0
    assert zero["per_dialect"]["sylhet"]["chrf++"] == pytest.approx(100.0)
    assert zero["per_dialect"]["chittagong"]["chrf++"] == 0.0
    assert zero["macro"]["chrf++"] == pytest.approx(50.0)
    ci = zero["chrf_macro_ci"]
    assert ci["mean"] == pytest.approx(zero["macro"]["chrf++"], abs=1e-9)
    assert ci["low"] <= ci["mean"] <= ci["high"]
    assert zero["taxonomy"] == {"success": 0.5, "partial": 0.0, "complete": 0.5}
    # copy baseline = the inputs scored against the references
    chit = [r for r in few_native if r["dialect"] == "chittagong"]
    want = corpus_text_scores(
        [r["input_text"] for r in chit], [json.loads(r["refs"]) for r in chit]
    )
    assert zero["per_dialect"]["chittagong"]["copy_baseline"]["chrf++"] == pytest.approx(
        want["chrf++"]
    )
    # zero-shot sylhet correct -> few-shot a demonstration's answer: flipped
    flips = {f["script"]: f for f in stats["flips"]}
    assert flips["native"]["flips"] == 2 and flips["native"]["flip_rate"] == 0.5
    gap = {g["regime"]: g for g in stats["script_gap"]}
    assert gap["zero"]["items"] == 4 and gap["zero"]["gap"]["mean"] == pytest.approx(0.0)


def test_classification_run_and_refusals(pairs_ws, model_row):
    from tests.scripted_backend import ScriptedBackend

    spec = get_task("dialect-id")
    factory = lambda ws, run_id: ScriptedBackend(lambda req: '{"label": "sylhet"}')  # noqa: E731
    run_task(pairs_ws, spec, [model_row], backend_factory=factory)
    stats = task_stats(pairs_ws, "dialect-id")
    run = stats["runs"][0]
    assert run["overall"]["accuracy"] == 0.5
    assert run["overall"]["macro_recall"] == pytest.approx(0.5)
    assert run["overall"]["confusion"]["labels"] == ["chittagong", "sylhet", "<unparseable>"]
    with pytest.raises(UserError, match="train split feeds"):
        run_task(pairs_ws, NORM, [model_row], split="train", backend_factory=factory)
    with pytest.raises(UserError, match="unknown regime or script 'many'"):
        run_task(pairs_ws, NORM, [model_row], regimes=["many"], backend_factory=factory)
    with pytest.raises(UserError, match="takes items from items, not pairs"):
        run_task(pairs_ws, get_task("subjectivity"), [model_row], backend_factory=factory)


def test_round_trip_and_divergence_in_stats(pairs_ws, model_row):
    from engine.understanding.scripts import cer, romanize, to_bengali
    from tests.scripted_backend import ScriptedBackend

    factory = lambda ws, run_id: ScriptedBackend(lambda req: '{"standard": "আমি"}')  # noqa: E731
    run_task(pairs_ws, NORM, [model_row], scripts=["roman"], backend_factory=factory)
    run = task_stats(pairs_ws, "dialect-to-standard", settings=TaskStatsSettings(resamples=100))[
        "runs"
    ][0]
    natives = [i.native for i in _items(pairs_ws).values() if i.split == "validation"]
    want = cer(to_bengali(romanize(natives)), natives)
    assert run["round_trip"]["scheme"] == "avro"
    assert run["round_trip"]["mean_cer"] == pytest.approx(sum(want) / len(want))
    assert run["lexical_divergence"]["n"] == 4


def test_results_table_csv_and_latex(pairs_ws, model_row, tmp_path):
    import csv

    from engine.understanding.tables import write_csv, write_latex
    from tests.scripted_backend import ScriptedBackend

    factory = lambda ws, run_id: ScriptedBackend(lambda req: '{"standard": "আমি"}')  # noqa: E731
    run_task(pairs_ws, NORM, [model_row], backend_factory=factory)
    report = task_stats(pairs_ws, settings=TaskStatsSettings(resamples=100))
    assert write_csv(report, tmp_path / "t.csv") == 1
    rows = list(csv.DictReader((tmp_path / "t.csv").open(encoding="utf-8")))
    assert rows[0]["chrF++ (0-100)"] == f"{report['runs'][0]['macro']['chrf++']:.2f}"
    assert rows[0]["copy chrF++ (0-100)"] and rows[0]["macro-F1 (0-1)"] == ""
    write_latex(report, tmp_path / "t.tex")
    tex = (tmp_path / "t.tex").read_text(encoding="utf-8")
    assert (
        r"\begin{tabular}" in tex and r"copy chrF++ (0-100)" in tex and "dialect-to-standard" in tex
    )


def test_a_run_scores_the_stored_choice_and_notes_another(pairs_ws, model_row):
    """'none' asked of NFC-stored pairs: the card says nfc (what was scored) and why; the
    note lies outside the run key, so asking again reuses the run."""
    from tests.scripted_backend import ScriptedBackend

    def factory(ws, run_id):
        return ScriptedBackend(_reply_for(ws))

    def card(run_id):
        return json.loads(pairs_ws.scalar("SELECT card FROM runs WHERE id = ?", (run_id,)))

    [default] = run_task(pairs_ws, NORM, [model_row], backend_factory=factory)
    assert card(default["run_id"])["normalize"] == "nfc"
    assert card(default["run_id"])["normalize_notes"] == []
    [asked] = run_task(pairs_ws, NORM, [model_row], normalize="none", backend_factory=factory)
    assert asked["run_id"] == default["run_id"] and card(asked["run_id"])["normalize"] == "nfc"
    assert "scored nfc, not none" in card(asked["run_id"])["normalize_notes"][0]
    stats = task_stats(pairs_ws, NORM.name)
    assert all(sig.endswith("norm:nfc") for r in stats["runs"] for sig in r["signatures"].values())
