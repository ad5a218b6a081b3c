"""A study written straight into a real workspace, and judges with planted behaviour.

Question ``i`` asks ``প্রশ্ন-i`` and each model's answer to it carries ``উত্তর-i``; a planted
judge reads the fenced texts of the real judge prompt, scores an answer by whether it
answers its own question (a wrong or empty answer gets 0 everywhere, a right one the
question's quality level, 2–4 on every criterion) and replies with a valid verdict. Its
bias is the planted part: :func:`first_preferring` scores a dialect answer shown before the
standard one 5 on every criterion for a fixed share of the questions (the share it is
known to flip), :func:`order_blind` never looks at the order, :func:`all_fives` scores
everything 5. The scripted backend is the fault injection; prompts, runs, responses,
judgments and cards are the product's own, in real SQLite."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable

from engine.answering.generation import ANSWER_KIND
from engine.judging.rubric import CRITERION_KEYS
from engine.judging.run import judge_answers
from engine.workspace.store import Workspace, utcnow
from tests.scripted_backend import ScriptedBackend

DIALECTS = ("chittagong", "sylhet")
FIRST_SHARE = 0.3  # the share of questions whose verdict the first-preferring judge flips
_FENCE = re.compile(r"BEGIN (\w+) \w+⟧\n(.*?)\n⟦END \1 ", re.S)
_NUMBER = re.compile(r"-(\d+)")


def build(ws: Workspace, questions: int) -> None:
    """``questions`` questions in standard Bengali and both dialects, one answering model's
    run with every answer, and the scripted judge's model row."""
    now = utcnow()
    with ws.transaction() as conn:
        conn.execute("INSERT INTO question_sets(name, created_at) VALUES ('planted', ?)", (now,))
        model = conn.execute(
            "INSERT INTO models(name, kind, path, sha256, family, added_at) "
            "VALUES ('answerer', 'gguf', '/m/a.gguf', 'aaaa', 'gemma', ?)",
            (now,),
        ).lastrowid
        conn.execute(
            # an address nothing answers at: the scripted backend (or a batch file) replies
            "INSERT INTO models(name, kind, api_model, base_urls, family, added_at) "
            "VALUES ('planted-judge', 'endpoint', 'x', '[\"http://127.0.0.1:9/v1\"]', 'llama', ?)",
            (now,),
        )
        run = conn.execute(
            "INSERT INTO runs(kind, run_key, model_id, card, created_at) VALUES (?, 'a', ?, '{}', ?)",
            (ANSWER_KIND, model, now),
        ).lastrowid
        for i in range(1, questions + 1):
            text = f"প্রশ্ন-{i}: বাংলাদেশের নদীগুলোর বিষয়ে আপনি কী জানেন?"
            qid = conn.execute(
                "INSERT INTO questions(set_id, ext_id, text, text_key, question_type, domain) "
                "VALUES (1, ?, ?, ?, 1, 'Geography')",
                (f"q{i}", text, text),
            ).lastrowid
            for code in ("standard", *DIALECTS):
                vid = conn.execute(
                    "INSERT INTO variants(question_id, dialect, text, provenance, status, "
                    "updated_at) VALUES (?, ?, ?, 'human', 'gold', ?)",
                    (qid, code, text if code == "standard" else f"{text} ({code})", now),
                ).lastrowid
                answer = (
                    f"উত্তর-{i}। বাংলাদেশে অনেক নদী আছে। পদ্মা, মেঘনা ও যমুনা প্রধান নদী। "
                    "নদীগুলো দেশের কৃষি ও যাতায়াতের জন্য খুবই গুরুত্বপূর্ণ।"
                )
                conn.execute(
                    "INSERT INTO responses(run_id, item_key, variant_id, status, text, "
                    "created_at) VALUES (?, ?, ?, 'done', ?, ?)",
                    (run, f"v{vid}", vid, answer, now),
                )


def fenced(request) -> dict[str, str]:
    user = request.messages[-1].content
    return {label: body for label, body in _FENCE.findall(user)}


def quality(question: int) -> int:
    return 2 + question % 3


def biased(question: int) -> bool:
    digest = hashlib.sha256(f"first:{question}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < FIRST_SHARE


def verdict(score: int) -> str:
    return json.dumps(
        {
            "chain_of_thought_reasoning": "বিশ্লেষণ",
            **dict.fromkeys(CRITERION_KEYS, score),
            "confidence": 4,
        }
    )


def _content_score(request) -> tuple[int, int, bool]:
    """(question number, the honest score, whether the dialect answer came first)."""
    texts = fenced(request)
    asked = int(_NUMBER.search(texts["dialect_question"]).group(1))
    given = _NUMBER.search(texts.get("dialect_answer", ""))
    right = given is not None and int(given.group(1)) == asked
    user = request.messages[-1].content
    first = user.index("BEGIN dialect_answer") < user.index("BEGIN standard_answer")
    return asked, quality(asked) if right else 0, first


def order_blind(request) -> str:
    return verdict(_content_score(request)[1])


def first_preferring(request) -> str:
    asked, score, first = _content_score(request)
    return verdict(5 if first and score and biased(asked) else score)


def all_fives(_request) -> str:
    return verdict(5)


def judge_run(ws: Workspace, reply: Callable) -> int:
    """A real judge run (engine.judging.run) of the planted judge; its run id."""
    judge = ws.query("SELECT * FROM models WHERE name = 'planted-judge'")[0]
    summary = judge_answers(ws, judge, backend_factory=lambda _ws, _run: ScriptedBackend(reply))
    assert summary.failed == 0 and summary.judged_now == summary.pairs
    return summary.run_id
