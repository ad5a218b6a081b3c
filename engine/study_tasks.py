"""Background tasks of the translate and generate dialogs (Qt-free; run through the bridge).

They call the same engine functions as ``upabhasha translate`` and ``upabhasha generate``
(app/cli/commands_rag.py, app/cli/commands_study.py) with plain inputs, opening their own
workspace connection; both are resumable, so a cancelled run continues where it stopped.
"""

from __future__ import annotations

import logging

from engine.errors import UserError
from engine.workspace import Workspace

log = logging.getLogger(__name__)

DEFAULT_SPLITS = ("train", "test")


def _model_row(ws: Workspace, model_id: int) -> dict:
    rows = ws.query("SELECT * FROM models WHERE id = ?", (model_id,))
    if not rows:
        raise UserError(f"no model {model_id} in this workspace")
    return rows[0]


def study_choices(ws: Workspace) -> dict:
    """What the dialogs offer: question sets, regional dialects, models (default first)."""
    return {
        "question_sets": ws.query(
            "SELECT s.name, count(q.id) AS questions FROM question_sets s "
            "LEFT JOIN questions q ON q.set_id = s.id GROUP BY s.id ORDER BY s.id"),
        "dialects": ws.query("SELECT code, name_bn, name_en FROM dialects "
                             "WHERE code != 'standard' ORDER BY code"),
        "models": ws.query("SELECT id, name, kind, is_default FROM models "
                           "ORDER BY is_default DESC, name"),
        "corpus_pairs": ws.scalar("SELECT count(*) FROM sentence_pairs") or 0,
        "variant_counts": {r["status"]: r["n"] for r in ws.query(
            "SELECT status, count(*) AS n FROM variants WHERE dialect != 'standard' "
            "GROUP BY status")},
    }


def translate_question_set(workspace_path: str, question_set: str, dialects: list[str],
                           model_id: int, limit: int | None = None, *, encoder: str | None = None,
                           corpora: list[str] | None = None,
                           splits: tuple[str, ...] = DEFAULT_SPLITS, progress=None,
                           cancelled=None) -> dict:
    """Build or reuse the retrieval index, then RAG-translate into machine drafts."""
    from engine.rag.encoder import Encoder
    from engine.rag.index import default_cache, ensure_index
    from engine.rag.retriever import Retriever
    from engine.translation import translate_questions

    if not dialects:
        raise UserError("choose at least one dialect to translate into")
    with Workspace(workspace_path, create=False) as ws:
        if not ws.scalar("SELECT count(*) FROM sentence_pairs"):
            raise UserError("no parallel corpus in this workspace: import one first "
                            "(File → Import corpus…)")
        model = _model_row(ws, model_id)
        enc = Encoder(encoder, default_cache(ws))
        index, rebuilt = ensure_index(ws, encoder=enc, corpora=corpora, splits=list(splits),
                                      progress=_prefixed(progress, "index"),
                                      cancelled=cancelled)
        log.info("retrieval index %s", "rebuilt" if rebuilt else "reused")
        summary = translate_questions(ws, Retriever(index, enc), question_set=question_set,
                                      dialects=dialects, model_row=model, limit=limit or None,
                                      progress=progress, cancelled=cancelled)
    return {**summary.as_dict(), "model": model["name"], "index_rebuilt": rebuilt}


def generate_for_model(workspace_path: str, model_id: int, statuses: list[str],
                       max_tokens: int = 384, dialects: list[str] | None = None,
                       question_set: str | None = None, *, progress=None,
                       cancelled=None) -> dict:
    """One model answers the standard question and each chosen dialect variant."""
    from engine.generation import DEFAULT_SAMPLER, generate_answers
    from engine.llm.types import Sampler

    if not statuses:
        raise UserError("choose at least one variant status to answer")
    sampler = Sampler(**{**DEFAULT_SAMPLER.as_dict(), "max_tokens": int(max_tokens),
                         "stop": DEFAULT_SAMPLER.stop})
    with Workspace(workspace_path, create=False) as ws:
        model = _model_row(ws, model_id)
        summaries = generate_answers(ws, [model], statuses=tuple(statuses),
                                     dialects=dialects or None, question_set=question_set,
                                     sampler=sampler, progress=progress, cancelled=cancelled)
    if not summaries:
        return {"model": model["name"], "run_id": None, "items": 0, "done_before": 0,
                "done_now": 0, "cached": 0, "errors": 0, "complete": False, "cancelled": True}
    return summaries[0]


def _prefixed(progress, label: str):
    if progress is None:
        return None
    return lambda done, total, note="": progress(done, total, f"{label}: {note}")
