"""Background tasks and reads of the judge configuration panel (Qt-free).

The tasks take the workspace path and a request (:mod:`engine.judging.request`, the same
that ``upabhasha judge`` and ``calibrate`` build) and open their own workspace connection, so
they run in a worker of the bridge: calibration on the human-scored items, a full judge run
and its time estimate.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict, cast

from engine.answering.generation import ANSWER_KIND
from engine.judging.answer_queries import FilterOptions, filter_options
from engine.judging.calibration import CalibrateResult, human_scores
from engine.judging.request import CalibrateRequest, JudgeRequest, JudgeResult
from engine.judging.rubric import rubric_from_dict
from engine.judging.store import JudgeRunRow, judge_runs, self_preference_warnings
from engine.llm.runs.estimates import ModelEstimate, estimate_planned
from engine.llm.types import CancelFn, ProgressFn
from engine.workspace.store import Workspace

__all__ = [
    "PREVIEW_ITEMS",
    "JudgeOverview",
    "JudgeRunDone",
    "calibrate_judge_at",
    "estimate_judge_at",
    "filter_options_at",
    "human_scored_count",
    "judge_models",
    "judge_overview_at",
    "preview_pairs",
    "rubric_versions",
    "run_judge_at",
    "save_rubric_version",
]

log = logging.getLogger(__name__)

PREVIEW_ITEMS = 50


class PreviewPair(TypedDict):
    """One (standard answer, dialect answer) pair of :func:`preview_pairs`."""

    dialect_response_id: int
    dialect: str
    dialect_name: str
    dialect_name_bn: str
    model: str | None
    ext_id: str
    standard_question: str
    dialect_question: str
    standard_answer: str
    dialect_answer: str


def preview_pairs(ws: Workspace, limit: int = PREVIEW_ITEMS) -> list[PreviewPair]:
    """Some real (standard answer, dialect answer) pairs for the prompt preview: the first
    ``limit`` of what :func:`engine.judging.store.answer_pairs` returns (by run, question,
    dialect), without reading them all: run by run, walking the variants in (question,
    dialect) order, so a run's first pairs come straight off the indexes (a single query
    sorted each run's rows first)."""
    out: list[PreviewPair] = []
    runs = [
        r[0]
        for r in ws.conn.execute(f"SELECT id FROM runs WHERE kind = '{ANSWER_KIND}' ORDER BY id")
    ]
    for run_id in runs:
        if len(out) >= limit:
            break
        out += cast(
            "list[PreviewPair]",
            ws.query(
                """
            SELECT d.id AS dialect_response_id, dv.dialect, dl.name_en AS dialect_name,
                   dl.name_bn AS dialect_name_bn,
                   m.name AS model, q.ext_id, q.text AS standard_question,
                   dv.text AS dialect_question, s.text AS standard_answer,
                   d.text AS dialect_answer
            FROM variants dv  -- CROSS JOIN: SQLite keeps this order (variants outermost)
            CROSS JOIN responses d ON d.variant_id = dv.id AND +d.run_id = ?
                 AND d.status = 'done'
            CROSS JOIN runs r ON r.id = d.run_id
            LEFT JOIN models m ON m.id = r.model_id
            JOIN dialects dl ON dl.code = dv.dialect
            JOIN questions q ON q.id = dv.question_id
            JOIN variants sv ON sv.question_id = q.id AND sv.dialect = 'standard'
            CROSS JOIN responses s ON s.variant_id = sv.id AND +s.run_id = d.run_id
                 AND +s.status = 'done'
            WHERE dv.dialect != 'standard'
            ORDER BY dv.question_id, dv.dialect, d.id LIMIT ?""",
                (run_id, limit - len(out)),
            ),
        )
    return out


class JudgeModel(TypedDict):
    """A model the judge panel offers (``is_default``: 0 or 1)."""

    id: int
    name: str
    kind: str
    family: str
    is_default: int


def judge_models(ws: Workspace) -> list[JudgeModel]:
    return cast(
        "list[JudgeModel]",
        ws.query("SELECT id, name, kind, family, is_default FROM models ORDER BY name"),
    )


def human_scored_count(ws: Workspace) -> int:
    return len(human_scores(ws))


def rubric_versions(folder: Path) -> list[Path]:
    """Saved rubric versions in a workspace's ``rubrics`` folder, newest first."""
    if not folder.is_dir():
        return []
    return sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)


def save_rubric_version(data: dict, folder: Path) -> Path:
    """Write a valid rubric as ``<name>@<hash12>.json``: a version is never overwritten."""
    rubric = rubric_from_dict(data)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{_safe(rubric.name)}@{rubric.content_hash[:12]}.json"
    if not path.exists():
        path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return path


def _safe(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in name) or "rubric"


def calibrate_judge_at(
    workspace_path: str,
    request: CalibrateRequest,
    *,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
) -> CalibrateResult:
    """Run ``request``: the candidate judge on the human-scored items; CCC, MAE, confusion."""
    with Workspace(workspace_path, create=False) as ws:
        return request.run(ws, progress=progress, cancelled=cancelled)


class JudgeOverview(TypedDict):
    """:func:`judge_overview_at`: what the judge panel shows of a workspace."""

    runs: list[JudgeRunRow]
    warnings: list[str]  # self-preference risks
    pairs: list[PreviewPair]
    human_count: int


@dataclass(frozen=True)
class JudgeRunDone:
    """A judge run's result and the panel's overview read after the run's last write."""

    result: JudgeResult
    overview: JudgeOverview


def run_judge_at(
    workspace_path: str,
    request: JudgeRequest,
    *,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
) -> JudgeRunDone:
    """Run ``request`` (resumable: a re-run continues where it stopped); ``overview`` is
    :func:`judge_overview_at` read after the run's last write, which the panel shows when the
    job ends (a read taken during the run may predate it)."""
    with Workspace(workspace_path, create=False) as ws:
        result = request.run(ws, progress=progress, cancelled=cancelled)
    return JudgeRunDone(result, judge_overview_at(workspace_path))


def estimate_judge_at(
    workspace_path: str,
    request: JudgeRequest,
    *,
    sample: int | None = None,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
) -> ModelEstimate | None:
    """The time estimate of :func:`run_judge_at`'s first round (every gate-passing pair not
    judged yet; retries of invalid verdicts come on top); None when cancelled."""
    with Workspace(workspace_path, create=False) as ws:
        model, planned = request.plan(ws)
        return estimate_planned(
            ws, model, [planned], sample=sample, progress=progress, cancelled=cancelled
        )


def judge_overview_at(workspace_path: str) -> JudgeOverview:
    """What the judge panel shows of a workspace (a background task: the reads grow with
    the study): judge runs, self-preference warnings, preview pairs, human-scored count."""
    with Workspace(workspace_path, create=False) as ws:
        return {
            "runs": judge_runs(ws),
            "warnings": self_preference_warnings(ws),
            "pairs": preview_pairs(ws),
            "human_count": human_scored_count(ws),
        }


def filter_options_at(workspace_path: str) -> FilterOptions:
    """What each filter of the answers panel offers (a background task: listing the judges
    counts their judgments, a scan of them all)."""
    with Workspace(workspace_path, create=False) as ws:
        return filter_options(ws)
