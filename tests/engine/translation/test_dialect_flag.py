"""The "likely another dialect" flag fires only at the model's calibrated confidence: genuine
held-out dialect sentences are rarely flagged, copies of the standard source always are, and
the review queue is ordered by the target dialect's probability."""

import csv

import numpy as np

from engine.text.dialect_id import dialect_model
from engine.translation import api as translation
from engine.translation.draft_checks import COPY_CHRF, check_text, explain
from engine.workspace.store import utcnow

DIALECTS = ("barishal", "chittagong", "mymensingh", "noakhali", "sylhet")


def _held_out(shared_data, n):
    """Vashantor sentences of the test split (no source of theirs in training or tuning)."""
    with (shared_data / "vashantor" / "vashantor_multiway.csv").open(encoding="utf-8") as fh:
        return [r for r in csv.DictReader(fh) if r["vashantor_split"] == "test"][:n]


def test_the_flag_waits_for_the_models_confidence():
    model = dialect_model()
    tau = model.flag_confidence
    col = {c: i for i, c in enumerate(model.classes)}

    def row(likeliest: str, p: float) -> np.ndarray:
        out = np.full(len(model.classes), (1 - p) / (len(model.classes) - 1))
        out[col[likeliest]] = p
        return out

    probs = np.array(
        [
            row("standard", tau),  # another class at the confidence: flagged
            row("standard", tau - 0.02),  # likeliest, but not sure enough: not flagged
            row("sylhet", 0.99),  # the target itself
            row("standard", 0.99),  # a dialect the model does not know: never flagged
        ]
    )
    flags = model.flags_other(probs, ["sylhet", "sylhet", "sylhet", "rangpur"])
    assert flags.tolist() == [True, False, False, False]
    assert model.flags_other(probs[1:2], ["sylhet"], confidence=0.5).tolist() == [True]


def test_a_draft_reading_more_as_another_dialect_below_the_confidence_is_not_flagged(
    shared_data,
):
    tau = dialect_model().flag_confidence
    checks = [
        (check_text(r[d], d, r["bangla_speech"]), d)
        for r in _held_out(shared_data, 120)
        for d in DIALECTS
    ]
    unsure = [c for c, d in checks if c.likeliest != d and c.likeliest_probability < tau]
    sure = [c for c, d in checks if c.likeliest != d and c.likeliest_probability >= tau]
    assert unsure and all(c.flag in ("", "copy") for c in unsure)
    assert all(c.flag in ("other", "copy") for c in sure)
    c = next(c for c in unsure if c.flag == "")
    line = explain({**c.__dict__})
    assert "below the flag's" in line and c.likeliest in line


def test_genuine_held_out_dialect_sentences_are_rarely_flagged(shared_data):
    rows = _held_out(shared_data, 80)
    flags = [check_text(r[d], d, r["bangla_speech"]).flag for r in rows for d in DIALECTS]
    assert sum(1 for f in flags if f) <= 0.05 * len(flags)


def test_copies_of_standard_questions_from_another_collection_are_all_flagged(shared_data):
    with (shared_data / "blanck" / "BlanCK.csv").open(encoding="utf-8") as fh:
        questions = [r["question"] for r in csv.DictReader(fh)][:30]
    for q in questions:
        for copy in (q, q.rstrip("?।")):  # the copy itself, and without its end mark
            for d in DIALECTS:
                c = check_text(copy, d, q)
                assert c.copy_chrf >= COPY_CHRF and c.flag == "copy"


def test_the_panels_query_orders_the_queue_by_probability(workspace, shared_data):
    rows = _held_out(shared_data, 12)
    copy_q = rows[0]["bangla_speech"]
    with workspace.transaction() as conn:
        conn.execute("INSERT INTO question_sets(name, created_at) VALUES ('s', ?)", (utcnow(),))
        for n, r in enumerate(rows):
            qid = conn.execute(
                "INSERT INTO questions(set_id, ext_id, text, text_key) VALUES (1, ?, ?, ?)",
                (f"q{n}", r["bangla_speech"], f"k{n}"),
            ).lastrowid
            dialect = DIALECTS[n % len(DIALECTS)]
            text = copy_q if n == 0 else r[dialect]
            conn.execute(
                "INSERT INTO variants(question_id, dialect, text, provenance, status, "
                "updated_at) VALUES (?, ?, ?, 'machine', 'draft', ?)",
                (qid, dialect, text, utcnow()),
            )
    translation.check_drafts(workspace)
    checks = {
        r["question_id"]: translation.draft_checks(workspace)[r["id"]]
        for r in workspace.query("SELECT id, question_id FROM variants")
    }
    ids = sorted(checks)
    ordered = translation.questions_by_need(workspace, ids)  # the panel's arrange()
    assert ordered[0] == ids[0] and checks[ids[0]]["flag"] == "copy"
    flagged = [q for q in ordered if checks[q]["flag"]]
    assert ordered[: len(flagged)] == flagged
    rest = [checks[q]["target_probability"] for q in ordered[len(flagged) :]]
    assert rest == sorted(rest) and len(set(rest)) > 3
    need = translation.variants_to_review(workspace, order="need")
    assert [r["target_probability"] for r in need[len(flagged) :]] == rest
