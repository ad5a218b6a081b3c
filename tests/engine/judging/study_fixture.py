"""A small study written straight into a real workspace: questions, variants, answering
models, answer runs with responses. Judge runs and judgments are added by the tests."""

from __future__ import annotations

import json
from pathlib import Path

from engine.answering.generation import ANSWER_KIND
from engine.judging.rubric import default_rubric_path
from engine.judging.store import JUDGE_KIND
from engine.workspace.store import Workspace, utcnow

QUESTIONS = [
    (
        "q1",
        "কৃত্রিম বুদ্ধিমত্তা কাকে বলে?",
        1,
        "Technology",
        {"sylhet": "কৃত্রিম বুদ্ধিমত্তা কিতারে কয়?", "chittagong": "কৃত্রিম বুদ্ধিমত্তা হারে হয়?"},
    ),
    (
        "q2",
        "সৌরজগতের বৃহত্তম গ্রহের নাম কী?",
        3,
        "Physical & Natural Sciences",
        {"sylhet": "সৌরজগতর সবচে বড় গ্রহর নাম কিতা?", "chittagong": "সৌরজগতর সবচে বড় গ্রহর নাম কী?"},
    ),
    (
        "q3",
        "কেন্দ্রীয় ব্যাংকের প্রধান কাজ কী?",
        4,
        "Business & Economics",
        {"sylhet": "কেন্দ্রীয় ব্যাংকর আসল কাম কিতা?", "chittagong": "কেন্দ্রীয় ব্যাংকর আসল হাম কী?"},
    ),
]


def short_rubric(folder: Path) -> Path:
    """The bundled rubric with the shortest reasoning cap, so the 270M judge stays quick (it
    mostly repeats itself up to the cap), written to ``folder/rubric.json``."""
    data = json.loads(default_rubric_path().read_text(encoding="utf-8"))
    data["reasoning_max_chars"] = 50
    path = folder / "rubric.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def add_model(ws: Workspace, name: str, family: str) -> int:
    with ws.transaction() as conn:
        conn.execute(
            "INSERT INTO models(name, kind, path, sha256, family, added_at) "
            "VALUES (?, 'gguf', ?, ?, ?, ?)",
            (name, f"/models/{name}.gguf", name * 4, family, utcnow()),
        )
    return ws.scalar("SELECT id FROM models WHERE name = ?", (name,))


def add_run(ws: Workspace, kind: str, model_id: int, card: dict | None = None) -> int:
    card = card or {}
    with ws.transaction() as conn:
        cur = conn.execute(
            "INSERT INTO runs(kind, run_key, model_id, card, created_at) VALUES (?, ?, ?, ?, ?)",
            (kind, f"{kind}-{model_id}-{json.dumps(card)}", model_id, json.dumps(card), utcnow()),
        )
        return cur.lastrowid


def build_questions(ws: Workspace, draft_dialect: str | None = None) -> dict:
    """Questions with standard, Sylhet and Chittagong variants (gold unless drafted).
    Returns {'variants': {(ext_id, dialect): id}}."""
    now = utcnow()
    ids: dict = {"models": {}, "answer_runs": {}, "variants": {}}
    with ws.transaction() as conn:
        conn.execute("INSERT INTO question_sets(name, created_at) VALUES ('sample', ?)", (now,))
        for ext, text, qtype, domain, dialects in QUESTIONS:
            qid = conn.execute(
                "INSERT INTO questions(set_id, ext_id, text, text_key, question_type, domain) "
                "VALUES (1, ?, ?, ?, ?, ?)",
                (ext, text, text, qtype, domain),
            ).lastrowid
            for code, vtext in [("standard", text), *dialects.items()]:
                status = "draft" if code == draft_dialect else "gold"
                vid = conn.execute(
                    "INSERT INTO variants(question_id, dialect, text, provenance, status, "
                    "updated_at) VALUES (?, ?, ?, 'human', ?, ?)",
                    (qid, code, vtext, status, now),
                ).lastrowid
                ids["variants"][(ext, code)] = vid
    return ids


def build_study(ws: Workspace, draft_dialect: str | None = None) -> dict:
    """Questions plus two answering models with an answer run each. Returns ids:
    {'models': {name: id}, 'answer_runs': {name: run id}, 'variants': {(ext_id, dialect): id}}."""
    ids = build_questions(ws, draft_dialect)
    now = utcnow()
    for name, family in (("gemma-a", "gemma"), ("llama-b", "llama")):
        ids["models"][name] = add_model(ws, name, family)
        run = add_run(ws, ANSWER_KIND, ids["models"][name])
        ids["answer_runs"][name] = run
        with ws.transaction() as conn:
            for (ext, code), vid in ids["variants"].items():
                answer = (
                    f"এটি মডেল {name} এর উত্তর: প্রশ্নটির বিস্তারিত ব্যাখ্যা নিচে দেওয়া হলো, উপভাষা ({code})।"
                )
                conn.execute(
                    "INSERT INTO responses(run_id, item_key, variant_id, status, text, "
                    "created_at) VALUES (?, ?, ?, 'done', ?, ?)",
                    (run, f"v{vid}", vid, answer, now),
                )
    return ids


def add_judge(
    ws: Workspace, name: str, family: str, finals: dict[int, float], confidence: int = 4
) -> int:
    """A judge run with one judgment per dialect response id in ``finals``."""
    model_id = add_model(ws, name, family)
    run = add_run(ws, JUDGE_KIND, model_id, {"judge": name})
    now = utcnow()
    with ws.transaction() as conn:
        for response_id, final in finals.items():
            conn.execute(
                "INSERT INTO judgments(run_id, response_id, gate, confidence, final, "
                "comprehension, correctness, completeness, clarity, length, created_at) "
                "VALUES (?, ?, 'ok', ?, ?, 3, 3, 3, 3, 3, ?)",
                (run, response_id, confidence, final, now),
            )
    return run
