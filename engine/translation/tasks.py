"""Background task of the translate dialog (Qt-free; run through the bridge).

It calls the same engine functions as ``upabhasha translate`` (app/cli/translation.py) with
plain inputs, opening its own workspace connection; translation is resumable, so a cancelled
run continues where it stopped.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from engine.errors import UserError
from engine.i18n import N_
from engine.llm.model_registry import find_model
from engine.llm.types import labelled_progress
from engine.rag.build import ensure_index
from engine.rag.encoder import Encoder
from engine.rag.index import default_cache
from engine.rag.retriever import Retriever
from engine.text.textnorm import DEFAULT_NORMALIZATION
from engine.translation.draft_checks import check_drafts
from engine.translation.evaluate import record_translation_score
from engine.translation.scored_eval import evaluate_scored
from engine.translation.translate import translate_questions
from engine.workspace.store import Workspace

__all__ = [
    "DEFAULT_SPLITS",
    "check_drafts_at",
    "copy_baselines_at",
    "evaluate_scored_at",
    "record_translation_score_at",
    "translate_question_set_at",
]

log = logging.getLogger(__name__)

DEFAULT_SPLITS = ("train", "test")


def translate_question_set_at(
    workspace_path: str,
    question_set: str,
    dialects: list[str],
    model_id: int,
    limit: int | None = None,
    *,
    encoder: str | None = None,
    corpora: list[str] | None = None,
    splits: tuple[str, ...] = DEFAULT_SPLITS,
    progress=None,
    cancelled=None,
) -> dict:
    """Build or reuse the retrieval index, then RAG-translate into machine drafts."""
    if not dialects:
        raise UserError("choose at least one dialect to translate into")
    with Workspace(workspace_path, create=False) as ws:
        if not ws.scalar("SELECT count(*) FROM sentence_pairs"):
            raise UserError(
                "no parallel corpus in this workspace: import one first (File → Import corpus…)"
            )
        model = find_model(ws, model_id)
        enc = Encoder(encoder, default_cache(ws))
        index, rebuilt = ensure_index(
            ws,
            encoder=enc,
            corpora=corpora,
            splits=list(splits),
            progress=labelled_progress(progress, "index"),
            cancelled=cancelled,
        )
        log.info(N_("retrieval index rebuilt") if rebuilt else N_("retrieval index reused"))
        summary = translate_questions(
            ws,
            Retriever(index, enc),
            question_set=question_set,
            dialects=dialects,
            model_row=model,
            limit=limit or None,
            progress=progress,
            cancelled=cancelled,
        )
    return {**summary.as_dict(), "model": model["name"], "index_rebuilt": rebuilt}


def check_drafts_at(
    workspace_path: str,
    *,
    progress: Callable[[int, int, str], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> dict:
    """The dialect check of the machine drafts not checked yet (the review panel's order by
    need), on its own connection."""
    with Workspace(workspace_path, create=False) as ws:
        return check_drafts(ws, progress=progress, cancelled=cancelled)


def record_translation_score_at(
    workspace_path: str, response_id: int, annotator: str, score: float
) -> dict:
    """:func:`record_translation_score` on its own connection (the GUI's writer lane)."""
    with Workspace(workspace_path, create=False) as ws:
        return record_translation_score(ws, response_id, annotator, score)


def copy_baselines_at(
    workspace_path: str,
    source: str = "pairs",
    split: str | None = None,
    normalize: str = DEFAULT_NORMALIZATION,
) -> dict:
    """:func:`engine.translation.baseline.copy_baselines` on its own connection (the
    metrics panel's background task)."""
    from engine.translation.baseline import copy_baselines

    with Workspace(workspace_path, create=False) as ws:
        return copy_baselines(ws, source=source, split=split, normalize=normalize)


def evaluate_scored_at(
    workspace_path: str,
    set_name: str,
    bootstrap: int = 1000,
    seed: int = 0,
    *,
    progress: Callable[[int, int, str], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> dict:
    """:func:`evaluate_scored` on its own connection (a background task of the GUI)."""
    with Workspace(workspace_path, create=False) as ws:
        return evaluate_scored(
            ws, set_name, bootstrap=bootstrap, seed=seed, progress=progress, cancelled=cancelled
        )
