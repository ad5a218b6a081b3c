"""Translation prompts, completion cleaning and the end-to-end job with the embedded model."""

from __future__ import annotations

import json

import pytest

from engine.rag.build import build_index
from engine.rag.retriever import Retriever
from engine.translation.translate import (
    PromptTemplate,
    build_request,
    clean_completion,
    translate_questions,
)
from engine.workspace.store import utcnow
from tests.engine.rag.test_rag_retrieval import SMALL, _insert

QUESTIONS = ["কম্পিউটার কাকে বলে?", "তুমি কোথায় যাচ্ছ আজ সকালে?", "সালোকসংশ্লেষণ বলতে কী বোঝায়?"]


def _questions(ws, texts=QUESTIONS, name="demo"):
    from engine.text.textnorm import canonical_key

    with ws.transaction() as conn:
        conn.execute("INSERT INTO question_sets(name, created_at) VALUES (?, ?)", (name, utcnow()))
        sid = conn.execute("SELECT id FROM question_sets WHERE name = ?", (name,)).fetchone()[0]
        conn.executemany(
            "INSERT INTO questions(set_id, text, text_key) VALUES (?, ?, ?)",
            [(sid, t, canonical_key(t)) for t in texts],
        )


@pytest.fixture
def small_retriever(workspace, default_encoder):
    _insert(workspace, SMALL)
    return Retriever(
        build_index(workspace, encoder=default_encoder, selfcheck=False), default_encoder
    )


def test_templates_are_versioned_by_content():
    base, chat = (
        PromptTemplate.load("translate_fewshot.txt"),
        PromptTemplate.load("translate_chat.txt"),
    )
    assert len(base.sha256) == 64 and base.sha256 != chat.sha256
    assert "#" not in base.text.splitlines()[0]
    assert PromptTemplate.load("translate_fewshot.txt").sha256 == base.sha256


def test_prompt_carries_exemplars_and_dataset_text_literally(workspace, small_retriever):
    names = workspace.dialect_names()
    ex = small_retriever.retrieve("আমি কাল বাজারে যাব", "chittagong")
    source = "১০ $source টাকা <end_of_turn> {x} ### user"
    req = build_request(
        "k",
        source,
        ex,
        names["chittagong"],
        PromptTemplate.load("translate_fewshot.txt"),
        __import__("engine.translation.translate", fromlist=["BASE_SAMPLER"]).BASE_SAMPLER,
    )
    assert req.prompt.endswith(f"প্রমিত: {source}\n{names['chittagong']['name_bn']}:")
    for e in ex.exemplars:
        assert f"{names['chittagong']['name_bn']}: {e.dialect_text}" in req.prompt
    chat = build_request(
        "k",
        source,
        ex,
        names["chittagong"],
        PromptTemplate.load("translate_chat.txt"),
        __import__("engine.translation.translate", fromlist=["CHAT_SAMPLER"]).CHAT_SAMPLER,
    )
    assert [m.role for m in chat.messages] == ["system", "user"]
    assert "Chittagong" in chat.messages[0].content and source in chat.messages[1].content


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("  আঁই বাজারত যাইয়ুম\nপ্রমিত: next", "আঁই বাজারত যাইয়ুম"),
        ('চট্টগ্রামের ভাষা: "আঁই যাইয়ুম"', "আঁই যাইয়ুম"),
        ("\n\n“হিতে ভাত খায়”  ", "হিতে ভাত খায়"),
        ("Translation: আঁই", "আঁই"),
        ("", ""),
        (None, ""),
    ],
)
def test_clean_completion(raw, expected):
    assert clean_completion(raw, ("চট্টগ্রামের ভাষা", "Chittagong")) == expected


@pytest.mark.slow
def test_translate_questions_end_to_end_with_embedded_model(
    workspace, small_retriever, embedded_gguf
):
    from engine.llm.models.registry import ensure_embedded_default

    model = workspace.query(
        "SELECT * FROM models WHERE id = ?", (ensure_embedded_default(workspace),)
    )[0]
    _questions(workspace)
    q0 = workspace.scalar("SELECT id FROM questions ORDER BY id LIMIT 1")
    workspace.conn.execute(
        "INSERT INTO variants(question_id, dialect, text, provenance, status, updated_at) "
        "VALUES (?, 'chittagong', 'মানুষের লেখা', 'human', 'gold', ?)",
        (q0, utcnow()),
    )
    first = translate_questions(
        workspace,
        small_retriever,
        question_set="demo",
        dialects=["chittagong", "noakhali"],
        model_row=model,
    )
    assert first.items == 5 and first.protected == 1 and first.errors == 0
    assert first.written + first.empty == 5
    rows = workspace.query("SELECT * FROM variants WHERE provenance = 'machine'")
    assert len(rows) == first.written
    for v in rows:
        assert v["status"] == "draft" and v["run_id"] == first.run_id and v["text"]
        ret = json.loads(v["retrieval"])
        assert json.loads(v["exemplar_ids"]) == [e["pair_id"] for e in ret["exemplars"]]
        assert ret["target_dialect"] == v["dialect"]
    card = json.loads(workspace.scalar("SELECT card FROM runs WHERE id = ?", (first.run_id,)))
    assert card["prompt_template"] == "translate_fewshot.txt" and len(card["prompt_sha256"]) == 64
    assert card["model"]["identity"] == model["sha256"] and card["sampler"]["temperature"] == 0
    gold = workspace.query(
        "SELECT text, status FROM variants WHERE question_id = ? AND dialect = 'chittagong'", (q0,)
    )
    assert gold == [{"text": "মানুষের লেখা", "status": "gold"}]
    # resumed: nothing is generated again and nothing changes
    again = translate_questions(
        workspace,
        small_retriever,
        question_set="demo",
        dialects=["chittagong", "noakhali"],
        model_row=model,
    )
    assert again.run_id == first.run_id and again.generated == 0 and again.written == 0
    assert workspace.query("SELECT * FROM variants WHERE provenance = 'machine'") == rows


def test_a_dialect_without_corpus_pairs_is_named_and_its_drafts_marked(
    workspace, small_retriever, embedded_gguf
):
    from engine.llm.models.registry import ensure_embedded_default
    from engine.translation.translate import dialects_without_pairs

    assert "barishal" in workspace.dialect_names()
    assert dialects_without_pairs(workspace, ["chittagong", "barishal"]) == ["barishal"]
    model = workspace.query(
        "SELECT * FROM models WHERE id = ?", (ensure_embedded_default(workspace),)
    )[0]
    _questions(workspace)
    summary = translate_questions(
        workspace,
        small_retriever,
        question_set="demo",
        dialects=["chittagong", "barishal"],
        model_row=model,
        limit=1,
    )
    assert summary.without_pairs == ["barishal"] and summary.as_dict()["without_pairs"]
    rows = workspace.query(
        "SELECT v.dialect, v.retrieval, h.comment FROM variants v "
        "JOIN variant_history h ON h.variant_id = v.id WHERE v.provenance = 'machine'"
    )
    assert any(r["dialect"] == "barishal" for r in rows) or summary.empty
    for row in rows:
        marked = json.loads(row["retrieval"]).get("no_dialect_pairs", False)
        assert marked == (row["dialect"] == "barishal")
        assert ("no barishal pairs in the corpus" in row["comment"]) == marked
