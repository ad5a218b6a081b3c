"""A synthetic study added to a workspace: answer runs, judge runs and judgments.

For the demos of the charts, answers and judge panels, their tests and
``bench/gui_latency.py``. Nothing here is a measurement: the models are named
"synthetic …", the answers are templated, the scores are drawn from a seeded
model × dialect effect. Answers are stored as ``kind='answer'`` runs and judgments go
through :func:`engine.judging.store.insert_judgments`, so every reader (statistics, review
queue, overrides, calibration) sees the shape a real study has. Qt-free: runs in a worker.
"""

from __future__ import annotations

import json
import logging
import random
import time
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import UserError
from engine.importing.columns import DOMAINS
from engine.judging import store
from engine.judging.rubric import Rubric, load_rubric
from engine.llm.models.embedded_model import data_dir
from engine.llm.models.registry import ensure_embedded_default
from engine.samples.workspace import build_sample_workspace
from engine.workspace.store import Workspace, utcnow

log = logging.getLogger(__name__)

SYNTHETIC_SET = "synthetic questions"
# Paper 000 found Chittagong and Sylhet hardest; the rest ordered loosely after it.
DIALECT_DIFFICULTY = {
    "chittagong": 0.30,
    "sylhet": 0.26,
    "noakhali": 0.22,
    "habiganj": 0.2,
    "barishal": 0.14,
    "kishoreganj": 0.12,
    "rangpur": 0.11,
    "mymensingh": 0.08,
    "tangail": 0.06,
}
SENTENCES = (
    "এটি একটি গুরুত্বপূর্ণ বিষয়।",
    "এর মূল কারণ কয়েকটি ধাপে বোঝা যায়।",
    "প্রথমত, এর সংজ্ঞা স্পষ্ট করা দরকার।",
    "দ্বিতীয়ত, বাস্তব জীবনে এর প্রভাব দেখা যায়।",
    "উদাহরণ হিসেবে বাংলাদেশের কথা বলা যায়।",
    "সবশেষে, এটি নিয়ে আরও গবেষণা প্রয়োজন।",
)
DRIFT = (
    "তবে প্রশ্নটি পুরোপুরি পরিষ্কার নয়।",
    "এ বিষয়ে নিশ্চিত করে বলা কঠিন।",
    "সম্ভবত প্রশ্নটি অন্য কিছু জানতে চাইছে।",
)
DOMAIN_EFFECT = {
    "Technology": 0.04,
    "Physical & Natural Sciences": 0.02,
    "Health & Sports": 0.0,
    "Business & Economics": -0.01,
    "Social Sciences": -0.03,
    "Arts & Humanities": -0.06,
}
TYPE_EFFECT = {1: 0.03, 2: -0.05, 3: 0.02, 4: -0.01}  # contrasting questions suffer most
ENGLISH_ANSWER = "This is an important topic, and its main causes can be explained in a few steps."
REFUSAL = "দুঃখিত, আমি এই প্রশ্নের উত্তর দিতে পারছি না।"


@dataclass
class SyntheticStudy:
    answer_runs: list[int] = field(default_factory=list)
    judge_runs: list[int] = field(default_factory=list)
    responses: int = 0
    judgments: int = 0  # stored, all judges
    held_back: list[dict] = field(default_factory=list)  # primary-judge rows not stored yet

    def as_dict(self) -> dict:
        return {
            "answer_runs": self.answer_runs,
            "judge_runs": self.judge_runs,
            "responses": self.responses,
            "judgments": self.judgments,
            "held_back": len(self.held_back),
        }


def add_synthetic_questions(ws: Workspace, count: int, dialects: list[str]) -> None:
    """A question set of ``count`` templated questions, each with a gold variant per dialect."""
    now = utcnow()
    with ws.transaction() as conn:
        conn.execute(
            "INSERT OR IGNORE INTO question_sets(name, source, created_at) "
            "VALUES (?, 'synthetic', ?)",
            (SYNTHETIC_SET, now),
        )
        set_id = conn.execute(
            "SELECT id FROM question_sets WHERE name = ?", (SYNTHETIC_SET,)
        ).fetchone()[0]
        for i in range(count):
            text = f"প্রশ্ন {i + 1}: {DOMAINS[i % 6]} বিষয়ে মূল ধারণাটি কী?"
            cur = conn.execute(
                "INSERT INTO questions(set_id, ext_id, text, text_key, question_type, domain) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (set_id, f"s{i + 1:04d}", text, text, i % 4 + 1, DOMAINS[i % 6]),
            )
            if not cur.rowcount:
                continue
            qid = cur.lastrowid
            rows = [(qid, "standard", text, "source", "gold", now)]
            rows += [(qid, d, f"{text} ({d})", "human", "gold", now) for d in dialects]
            conn.executemany(
                "INSERT INTO variants(question_id, dialect, text, provenance, "
                "status, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                rows,
            )


def add_synthetic_study(
    ws: Workspace,
    *,
    models: int = 3,
    seed: int = 0,
    secondary_share: float = 1.0,
    missing: int = 0,
    hold_back: float = 0.0,
    rubric: Rubric | None = None,
    progress=None,
    cancelled=None,
) -> SyntheticStudy:
    """Answer every variant of every question that has a dialect variant with ``models``
    synthetic models, and judge the dialect answers with a primary judge (all but
    ``missing`` of them, less a ``hold_back`` share returned for streaming) and a secondary
    judge (a ``secondary_share`` of them)."""
    rubric = rubric or load_rubric()
    rng = random.Random(seed)
    variants = _variants(ws)
    study = SyntheticStudy()
    judges = [
        _model(ws, "synthetic judge A (primary)", "judge-a"),
        _model(ws, "synthetic judge B", "judge-b"),
    ]
    study.judge_runs = [
        _run(ws, "judge", judges[0], {"judge_role": "primary"}),
        _run(ws, "judge", judges[1], {"judge_role": "secondary"}),
    ]
    primary_rows: list[dict] = []
    for m in range(models):
        if cancelled and cancelled():
            break
        skill = 0.62 + 0.3 * rng.random()
        model_id = _model(ws, f"synthetic model {m + 1:02d}", f"family-{m % 5}")
        run_id = _run(ws, "answer", model_id, {})
        study.answer_runs.append(run_id)
        written, quality = _answer(ws, run_id, variants, skill, rng)
        study.responses += written
        rows_a, rows_b = _judge(ws, run_id, variants, quality, rng, rubric, secondary_share)
        primary_rows += rows_a
        study.judgments += store.insert_judgments(ws, study.judge_runs[1], rows_b)
        if progress:
            progress(m + 1, models, f"synthetic model {m + 1}")
    if missing:
        primary_rows = primary_rows[:-missing]  # judgments that never came (failed items)
    keep = len(primary_rows) - round(hold_back * len(primary_rows))
    study.judgments += store.insert_judgments(ws, study.judge_runs[0], primary_rows[:keep])
    study.held_back = primary_rows[keep:]
    log.info("synthetic study: %s", study.as_dict())
    return study


def stream_judgments(
    workspace_path: str,
    run_id: int,
    rows: list[dict],
    *,
    batch: int = 200,
    pause_s: float = 0.05,
    progress=None,
    cancelled=None,
) -> int:
    """Store ``rows`` batch by batch, as a judge run does (the live-chart demo and bench)."""
    written = 0
    with Workspace(workspace_path, create=False) as ws:
        for start in range(0, len(rows), batch):
            if cancelled and cancelled():
                break
            written += store.insert_judgments(ws, run_id, rows[start : start + batch])
            if progress:
                progress(min(start + batch, len(rows)), len(rows), "judgments")
            time.sleep(pause_s)
    return written


def demo_stream(workspace_path: str, *, pause_s: float = 0.2, progress=None, cancelled=None) -> int:
    """Add one more synthetic model and stream its primary-judge verdicts in, 20 at a time
    (``python -m widgets.reports.charts_panel --live``: watch the heatmap grow a row)."""
    with Workspace(workspace_path, create=False) as ws:
        count = ws.scalar("SELECT count(*) FROM runs WHERE kind = 'answer'")
        run_id, rows = add_answer_model(ws, f"synthetic model {count + 1:02d} (live)", seed=count)
        judge = store.primary_judge(ws)
    if judge is None:
        raise UserError("the sample study has no judge run")
    return stream_judgments(
        workspace_path,
        judge,
        rows,
        batch=20,
        pause_s=pause_s,
        progress=progress,
        cancelled=cancelled,
    )


def add_answer_model(
    ws: Workspace, name: str, *, seed: int = 0, rubric: Rubric | None = None
) -> tuple[int, list[dict]]:
    """One more synthetic model with its answers stored; returns its answer run and the
    primary judge's verdict rows on them, not yet stored."""
    rubric = rubric or load_rubric()
    rng = random.Random(seed)
    run_id = _run(ws, "answer", _model(ws, name, "family-live"), {})
    variants = _variants(ws)
    _written, quality = _answer(ws, run_id, variants, 0.62 + 0.3 * rng.random(), rng)
    rows, _secondary_rows = _judge(ws, run_id, variants, quality, rng, rubric, 0.0)
    return run_id, rows


def build_sample_study(path: str | Path, progress=None, cancelled=None) -> Path:
    """The sample workspace plus a small synthetic study (idempotent): panel demos."""
    path = Path(path)
    build_sample_workspace(path, cancelled=cancelled)
    with Workspace(path) as ws:
        if not ws.scalar("SELECT count(*) FROM judgments"):
            add_synthetic_study(ws, models=3, progress=progress, cancelled=cancelled)
        try:  # a real local model to calibrate or run a judge with
            ensure_embedded_default(ws)
        except Exception as exc:  # the demo still shows everything else
            log.warning("embedded model not registered: %s", exc)
    return path


def sample_study_path() -> Path:
    return data_dir() / "sample-study.sqlite"


# -- helpers -----------------------------------------------------------------------------
def _variants(ws: Workspace) -> list[dict]:
    """Every variant of every question that has a dialect variant (standard included)."""
    return ws.query("""
        SELECT v.id, v.question_id, v.dialect, q.domain, q.question_type FROM variants v
        JOIN questions q ON q.id = v.question_id
        WHERE v.script = 'bengali' AND v.question_id IN
              (SELECT question_id FROM variants WHERE dialect != 'standard')
        ORDER BY v.question_id, v.dialect""")


def _model(ws: Workspace, name: str, family: str) -> int:
    with ws.transaction() as conn:
        conn.execute(
            "INSERT OR IGNORE INTO models(name, kind, base_urls, api_model, family, "
            "has_chat_template, added_at) VALUES (?, 'endpoint', ?, 'synthetic', ?, 1, ?)",
            (name, json.dumps(["http://synthetic.invalid/v1"]), family, utcnow()),
        )
    return ws.scalar("SELECT id FROM models WHERE name = ?", (name,))


def _run(ws: Workspace, kind: str, model_id: int, card: dict) -> int:
    key = f"synthetic:{kind}:{model_id}"
    with ws.transaction() as conn:
        conn.execute(
            "INSERT OR IGNORE INTO runs(kind, run_key, model_id, card, created_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (kind, key, model_id, json.dumps({"synthetic": True, **card}), utcnow()),
        )
    return ws.scalar("SELECT id FROM runs WHERE run_key = ?", (key,))


def _answer(
    ws: Workspace, run_id: int, variants: list[dict], skill: float, rng
) -> tuple[int, dict[int, float]]:
    """Store one answer per variant; returns the count and each variant's latent quality."""
    now, rows, quality = utcnow(), [], {}
    for v in variants:
        q = (
            skill
            - DIALECT_DIFFICULTY.get(v["dialect"], 0.15)
            + rng.gauss(0, 0.15)
            + DOMAIN_EFFECT.get(v["domain"], 0.0)
            + TYPE_EFFECT.get(v["question_type"], 0.0)
        )
        quality[v["id"]] = q
        rows.append((run_id, f"v{v['id']}", v["id"], _answer_text(v, q, rng), now))
    with ws.transaction() as conn:
        before = conn.total_changes
        conn.executemany(
            "INSERT INTO responses(run_id, item_key, variant_id, text, created_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            rows,
        )
        return conn.total_changes - before, quality


def _answer_text(variant: dict, quality: float, rng) -> str:
    if variant["dialect"] == "standard":
        return " ".join(SENTENCES)
    if quality < 0.2 and rng.random() < 0.5:
        return ENGLISH_ANSWER if rng.random() < 0.6 else REFUSAL
    kept = [s for s in SENTENCES if rng.random() < 0.4 + quality]
    if quality < 0.55:
        kept.insert(rng.randrange(len(kept) + 1), rng.choice(DRIFT))
    return " ".join(kept) or rng.choice(DRIFT)


def _judge(
    ws: Workspace,
    run_id: int,
    variants: list[dict],
    quality: dict[int, float],
    rng,
    rubric: Rubric,
    secondary_share: float,
) -> tuple[list[dict], list[dict]]:
    """Verdicts on every (standard, dialect) answer pair of one answer run. The pairs are
    assembled here from the rows just written (what store.answer_pairs returns)."""
    answers = {
        r["variant_id"]: r
        for r in ws.query("SELECT id, variant_id, text FROM responses WHERE run_id = ?", (run_id,))
    }
    names = dict(ws.conn.execute("SELECT code, name_en FROM dialects").fetchall())
    standard = {
        v["question_id"]: answers[v["id"]]["id"] for v in variants if v["dialect"] == "standard"
    }
    primary, secondary = [], []
    for v in variants:
        if v["dialect"] == "standard" or v["question_id"] not in standard:
            continue
        pair = {
            "dialect_response_id": answers[v["id"]]["id"],
            "dialect_name": names[v["dialect"]],
            "standard_response_id": standard[v["question_id"]],
        }
        text, q = answers[v["id"]]["text"], quality[v["id"]]
        gate = "script" if text == ENGLISH_ANSWER else "refusal" if text == REFUSAL else "ok"
        primary.append(_verdict(pair, q, gate, rng, rubric))
        if rng.random() < secondary_share:
            secondary.append(_verdict(pair, q - 0.04 + rng.gauss(0, 0.08), gate, rng, rubric))
    return primary, secondary


def _verdict(pair: dict, quality: float, gate: str, rng, rubric: Rubric) -> dict:
    if gate != "ok":
        scores = dict.fromkeys(rubric.keys, 0)
        confidence, reasoning = None, f"Gate '{gate}': every criterion is zero."
    else:
        scores = {k: max(0, min(5, round(5 * quality + rng.gauss(0, 0.6)))) for k in rubric.keys}
        confidence = max(1, min(5, round(3.6 + 2 * abs(quality - 0.5) + rng.gauss(0, 0.8))))
        lost = [c.name.lower() for c in rubric.criteria if scores[c.key] <= 2]
        reasoning = f"The {pair['dialect_name']} answer follows the standard answer" + (
            f" but falls short on {', '.join(lost)}." if lost else " closely."
        )
    return {
        "response_id": pair["dialect_response_id"],
        "standard_response_id": pair["standard_response_id"],
        "judge_response_id": None,
        "gate": gate,
        "reasoning": reasoning,
        "scores": scores,
        "confidence": confidence,
        "final": rubric.final_score(scores),
    }
