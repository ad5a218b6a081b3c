"""engine.translation.review: every reviewer edit is saved at once, in one transaction, with history."""

from __future__ import annotations

import json

import pytest

from engine.errors import UserError
from engine.translation import review
from engine.workspace.store import utcnow

RETRIEVAL = {
    "query": "কৃত্রিম বুদ্ধিমত্তা কাকে বলে?",
    "target_dialect": "sylhet",
    "short": False,
    "weights": {"dense": 0.4, "sparse": 0.6},
    "fallback_fired": False,
    "exemplars": [
        {
            "rank": 1,
            "pair_id": 1,
            "standard_text": "তুমি কী বলো?",
            "dialect_text": "তুমি কিতা কও?",
            "dense_score": 0.61,
            "sparse_score": 3.2,
            "dialect_bonus": 0.1,
            "final": 0.77,
        }
    ],
}


@pytest.fixture
def ws(workspace):
    now = utcnow()
    c = workspace.conn
    c.execute("INSERT INTO corpora(id, name, created_at) VALUES (1, 'c', ?)", (now,))
    c.execute(
        "INSERT INTO sentence_pairs(id, corpus_id, standard_text, dialect_text, dialect, "
        "standard_key, dialect_key) VALUES (1, 1, 'তুমি কী বলো?', 'তুমি কিতা কও?', "
        "'sylhet', 'a', 'b'), (2, 1, 'আমি যাব।', 'আঁই যাইয়ুম।', 'chittagong', 'c', 'd')"
    )
    c.execute("INSERT INTO question_sets(id, name, created_at) VALUES (1, 'qs', ?)", (now,))
    c.execute(
        "INSERT INTO questions(id, set_id, ext_id, text, text_key, gloss_en) VALUES "
        "(1, 1, 'q01', 'কৃত্রিম বুদ্ধিমত্তা কাকে বলে?', 'k1', 'What is AI?'), "
        "(2, 1, 'q02', 'সৌরজগতের বৃহত্তম গ্রহের নাম কী?', 'k2', '')"
    )
    c.execute(
        "INSERT INTO runs(id, kind, run_key, card, created_at) VALUES "
        "(1, 'translate', 'r', '{}', ?)",
        (now,),
    )
    rows = [
        (1, 1, "standard", "কৃত্রিম বুদ্ধিমত্তা কাকে বলে?", "source", "gold", "[]", "{}", None),
        (
            2,
            1,
            "sylhet",
            "কৃত্রিম বুদ্ধিমত্তা কিতারে কয়?",
            "machine",
            "draft",
            "[1]",
            json.dumps(RETRIEVAL, ensure_ascii=False),
            1,
        ),
        (3, 1, "chittagong", "কৃত্রিম বুদ্ধিমত্তা হারে হয়?", "source", "reviewed", "[2]", "{}", None),
        (4, 2, "sylhet", "সৌরজগতর সবচেয়ে বড় গ্রহর নাম কিতা?", "machine", "flagged", "[]", "{}", 1),
    ]
    c.executemany(
        "INSERT INTO variants(id, question_id, dialect, text, provenance, status, "
        "exemplar_ids, retrieval, run_id, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
        [(*r, now) for r in rows],
    )
    return workspace


def test_grid_reads_dialects_in_paper_order_and_cells(ws):
    assert [d["code"] for d in review.review_dialects(ws)] == ["chittagong", "sylhet"]
    ids = review.review_question_ids(ws)
    assert ids == [1, 2]
    cells = review.variant_cells(ws, ids, ["chittagong", "sylhet"])
    assert cells[(1, "sylhet")]["status"] == "draft"
    assert (2, "chittagong") not in cells
    assert review.review_question_ids(ws, status="flagged") == [2]
    assert review.review_question_ids(ws, dialect="chittagong") == [1]


def test_detail_carries_question_gloss_exemplar_scores_and_machine_text(ws):
    detail = review.variant_detail(ws, 2)
    assert detail["question_text"] == "কৃত্রিম বুদ্ধিমত্তা কাকে বলে?"
    assert detail["gloss_en"] == "What is AI?"
    assert detail["retrieval"]["weights"] == {"dense": 0.4, "sparse": 0.6}
    assert detail["exemplars"][0]["dense_score"] == 0.61
    assert detail["machine_text"] == "কৃত্রিম বুদ্ধিমত্তা কিতারে কয়?"
    # an imported rendering: exemplars resolved from exemplar_ids, no machine draft
    source = review.variant_detail(ws, 3)
    assert source["exemplars"][0]["dialect_text"] == "আঁই যাইয়ুম।"
    assert source["machine_text"] is None


def test_edit_saves_normalised_text_and_history(ws):
    decomposed = "কৃত্রিম বুদ্ধিমত্তা কিতারে কয়  ?".replace("ো", "ে" + "া")
    state = review.set_variant_text(ws, 2, decomposed + " ", actor="রহিম", comment="spacing")
    assert state.status == "reviewed" and state.provenance == "human"
    row = ws.query("SELECT text, status, reviewer, provenance FROM variants WHERE id = 2")[0]
    assert row == {
        "text": "কৃত্রিম বুদ্ধিমত্তা কিতারে কয় ?",
        "status": "reviewed",
        "reviewer": "রহিম",
        "provenance": "human",
    }
    history = review.variant_history(ws, 2)
    assert len(history) == 1
    assert history[0]["action"] == "edit" and history[0]["actor"] == "রহিম"
    assert history[0]["old_text"] == "কৃত্রিম বুদ্ধিমত্তা কিতারে কয়?"
    assert (history[0]["old_status"], history[0]["new_status"]) == ("draft", "reviewed")
    # the machine draft survives the edit
    assert review.machine_text(ws, 2) == "কৃত্রিম বুদ্ধিমত্তা কিতারে কয়?"


def test_accept_flag_reject_and_undo_are_all_recorded(ws):
    before = review.variant_state(ws, 2)
    review.set_variant_status(ws, 2, "gold", actor="r")
    review.set_variant_status(ws, 2, "flagged", actor="r", comment="wrong verb form")
    review.set_variant_status(ws, 2, "rejected", actor="r")
    after_undo = review.restore_variant(ws, before, actor="r")
    assert after_undo == review.variant_state(ws, 2)
    state = review.variant_state(ws, 2)
    assert (state.text, state.status, state.provenance) == (before.text, "draft", "machine")
    actions = [h["action"] for h in review.variant_history(ws, 2)]
    assert actions == ["accept", "flag", "reject", "undo"]
    assert review.variant_history(ws, 2)[1]["comment"] == "wrong verb form"
    assert review.review_counts(ws)["sylhet"] == {"draft": 1, "flagged": 1}


def test_machine_text_ignores_retranslations_and_is_the_draft_before_human_edits(ws):
    # a re-translation replaced an older draft, as engine.translation.translate records it
    ws.conn.execute(
        "INSERT INTO variant_history(variant_id, at, actor, action, old_text, "
        "new_text, old_status, new_status) VALUES (2, ?, 'run:1', "
        "'machine-translate', 'পুরনো খসড়া', 'কৃত্রিম বুদ্ধিমত্তা কিতারে কয়?', "
        "'draft', 'draft')",
        (utcnow(),),
    )
    assert review.machine_text(ws, 2) == "কৃত্রিম বুদ্ধিমত্তা কিতারে কয়?"
    review.set_variant_text(ws, 2, "মানুষর বানানি বুদ্ধি কিতা?", actor="r")
    assert review.machine_text(ws, 2) == "কৃত্রিম বুদ্ধিমত্তা কিতারে কয়?"


def test_status_only_change_keeps_provenance(ws):
    state = review.set_variant_status(ws, 3, "gold", actor="r")
    assert state.provenance == "source" and state.text == "কৃত্রিম বুদ্ধিমত্তা হারে হয়?"


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda ws: review.set_variant_text(ws, 2, "   ", actor="r"), "cannot be empty"),
        (
            lambda ws: review.set_variant_status(ws, 2, "approved", actor="r"),
            "unknown review status",
        ),
        (lambda ws: review.set_variant_status(ws, 2, "gold", actor=" "), "reviewer name"),
        (lambda ws: review.set_variant_status(ws, 99, "gold", actor="r"), "does not exist"),
    ],
)
def test_bad_edits_are_refused_and_write_nothing(ws, call, message):
    with pytest.raises(UserError, match=message):
        call(ws)
    assert ws.scalar("SELECT count(*) FROM variant_history") == 0
    assert review.variant_state(ws, 2).status == "draft"


def test_a_failed_history_insert_rolls_back_the_variant_update(ws):
    # fault injection: a trigger makes the history insert fail inside the transaction
    ws.conn.execute(
        "CREATE TRIGGER boom BEFORE INSERT ON variant_history "
        "BEGIN SELECT RAISE(ABORT, 'disk full'); END"
    )
    with pytest.raises(Exception, match="disk full"):
        review.set_variant_text(ws, 2, "নতুন লেখা", actor="r")
    assert review.variant_state(ws, 2).text == "কৃত্রিম বুদ্ধিমত্তা কিতারে কয়?"
