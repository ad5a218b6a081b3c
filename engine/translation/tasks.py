"""Background tasks of the translation widgets (Qt-free; run through the bridge).

The translate dialog and the metrics panel's held-out evaluation run the same requests as
``upabhasha translate`` and ``eval-translation`` (:class:`TranslateRequest`,
:class:`EvalTranslationRequest`, the one path of each step), opening their own workspace
connection; both steps are resumable, so a cancelled run continues where it stopped.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from engine.llm.types import CancelFn, ProgressFn
from engine.text.textnorm import DEFAULT_NORMALIZATION
from engine.translation.baseline import CopyBaselines
from engine.translation.draft_checks import DraftsChecked, check_drafts
from engine.translation.evaluate import TranslationScore, record_translation_score
from engine.translation.request import (
    EvalTranslationRequest,
    EvalTranslationResult,
    TranslateRequest,
    TranslateResult,
)
from engine.translation.scored_eval import ScoredEvaluation, evaluate_scored
from engine.workspace.store import Workspace

__all__ = [
    "check_drafts_at",
    "copy_baselines_at",
    "evaluate_scored_at",
    "evaluate_translations_at",
    "record_translation_score_at",
    "translate_question_set_at",
]

log = logging.getLogger(__name__)


def translate_question_set_at(
    workspace_path: str,
    request: TranslateRequest,
    *,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
) -> TranslateResult:
    """Run ``request``: build or reuse the retrieval index, then RAG-translate into machine
    drafts."""
    with Workspace(workspace_path, create=False) as ws:
        return request.run(ws, progress=progress, cancelled=cancelled)


def evaluate_translations_at(
    workspace_path: str,
    request: EvalTranslationRequest,
    *,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
) -> EvalTranslationResult:
    """Run ``request``: translate the held-out pairs, score them and, with a judge, judge
    their fidelity."""
    with Workspace(workspace_path, create=False) as ws:
        return request.run(ws, progress=progress, cancelled=cancelled)


def check_drafts_at(
    workspace_path: str,
    *,
    progress: Callable[[int, int, str], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> DraftsChecked:
    """The dialect check of the machine drafts not checked yet (the review panel's order by
    need), on its own connection."""
    with Workspace(workspace_path, create=False) as ws:
        return check_drafts(ws, progress=progress, cancelled=cancelled)


def record_translation_score_at(
    workspace_path: str, response_id: int, annotator: str, score: float
) -> TranslationScore:
    """:func:`record_translation_score` on its own connection (the GUI's writer lane)."""
    with Workspace(workspace_path, create=False) as ws:
        return record_translation_score(ws, response_id, annotator, score)


def copy_baselines_at(
    workspace_path: str,
    source: str = "pairs",
    split: str | None = None,
    normalize: str = DEFAULT_NORMALIZATION,
) -> CopyBaselines:
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
) -> ScoredEvaluation:
    """:func:`evaluate_scored` on its own connection (a background task of the GUI)."""
    with Workspace(workspace_path, create=False) as ws:
        return evaluate_scored(
            ws, set_name, bootstrap=bootstrap, seed=seed, progress=progress, cancelled=cancelled
        )
