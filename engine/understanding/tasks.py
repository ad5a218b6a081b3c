"""Background tasks of the Tasks panel (Qt-free; run through the bridge).

A run is the request ``upabhasha run-task`` builds (:class:`RunTaskRequest`, the one path
of the step); the reads call the same engine functions as ``task-stats``. Each opens its own
workspace connection.
"""

from __future__ import annotations

import json
from typing import TypedDict, cast

from engine.importing.columns import ImportReportDict
from engine.importing.tasks import first_column, import_with
from engine.llm.runs.estimates import estimator
from engine.llm.runs.model_runs import RunSummary
from engine.llm.types import CancelFn, ProgressFn
from engine.understanding.items import import_items
from engine.understanding.request import RunTaskRequest, RunTaskResult
from engine.understanding.stats import TASK_STATS, TaskStats, TaskStatsSettings, task_stats
from engine.workspace.store import Workspace

__all__ = [
    "ITEM_OPTIONS",
    "estimate_task_at",
    "guess_item_mapping",
    "import_items_at",
    "item_details_at",
    "run_task_at",
    "run_task_with_report_at",
    "task_stats_at",
]


def run_task_at(
    workspace_path: str,
    request: RunTaskRequest,
    user_dir: str | None = None,
    *,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
) -> RunTaskResult:
    """Run ``request`` (the one ``upabhasha run-task`` builds); ``user_dir``: the folder of
    the user's own task files (default: this machine's)."""
    with Workspace(workspace_path, create=False) as ws:
        return request.run(ws, progress=progress, cancelled=cancelled, user_dir=user_dir)


class TaskRunReport(TypedDict):
    """:func:`run_task_with_report_at`: each run's summary and the task-stats report."""

    summaries: list[RunSummary]
    report: TaskStats


def run_task_with_report_at(
    workspace_path: str,
    request: RunTaskRequest,
    user_dir: str | None = None,
    *,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
) -> TaskRunReport:
    """:func:`run_task_at`, then the task's ``task-stats`` report read after the run's last
    write: ``{"summaries": […], "report": {…}}``. The panel shows this report when the job
    ends, so it holds every run of the job (a refresh read during the run may predate it)."""
    result = run_task_at(workspace_path, request, user_dir, progress=progress, cancelled=cancelled)
    return {"summaries": list(result.runs), "report": task_stats_at(workspace_path, None, user_dir)}


# the planner's per-model estimates of run_task_at with the same arguments
# (engine.llm.runs.estimates)
estimate_task_at = estimator(run_task_at, one_model=False)


def task_stats_at(
    workspace_path: str,
    task: str | None,
    user_dir: str | None = None,
    *,
    settings: TaskStatsSettings = TASK_STATS,
) -> TaskStats:
    """``upabhasha task-stats`` for the Tasks panel: the same report, with ``settings``
    (the CLI's defaults unless given), so the panel shows the CLI's intervals."""
    with Workspace(workspace_path, create=False) as ws:
        return task_stats(ws, task, user_dir=user_dir, settings=settings)


class ItemDetail(TypedDict):
    """One item of :func:`item_details_at` (output and status None: no response stored)."""

    item_key: str
    dialect: str
    script: str
    input_text: str
    native_text: str
    refs: list[str]
    label: str
    demo_ids: str  # the demonstrations' keys, as stored (JSON)
    output: str | None
    status: str | None
    demos: list[str]  # the demonstrations' texts


def item_details_at(workspace_path: str, run_id: int, limit: int = 500) -> list[ItemDetail]:
    """What one run showed and got per item: input (in its script), the native text, the
    output, the references and the demonstrations used (their inputs)."""
    with Workspace(workspace_path, create=False) as ws:
        rows = ws.query(
            "SELECT t.item_key, t.dialect, t.script, t.input_text, t.native_text, t.refs, "
            "t.label, t.demo_ids, s.text AS output, s.status FROM task_run_items t "
            "LEFT JOIN responses s ON s.run_id = t.run_id AND s.item_key = t.item_key "
            "WHERE t.run_id = ? ORDER BY t.dialect, t.item_key LIMIT ?",
            (run_id, limit),
        )
        demo_keys = {k for r in rows for k in json.loads(r["demo_ids"])}
        demos = _texts_of(ws, demo_keys)
    for row in rows:
        row["refs"] = json.loads(row["refs"])
        row["demos"] = [demos.get(k, k) for k in json.loads(row["demo_ids"])]
    return cast("list[ItemDetail]", rows)


def _texts_of(ws: Workspace, keys: set[str]) -> dict[str, str]:
    pairs = [int(k[4:]) for k in keys if k.startswith("pair")]
    items = [int(k[4:]) for k in keys if k.startswith("item")]
    out: dict[str, str] = {}
    for table, column, prefix, ids in (
        ("sentence_pairs", "dialect_text", "pair", pairs),
        ("task_items", "native_text", "item", items),
    ):
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            for r in ws.query(
                f"SELECT id, {column} AS text FROM {table} WHERE id IN "
                f"({','.join('?' * len(chunk))})",
                tuple(chunk),
            ):
                out[f"{prefix}{r['id']}"] = r["text"]
    return out


ITEM_OPTIONS = (
    "name",
    "native_col",
    "dialect_col",
    "dialect",
    "roman_col",
    "standard_cols",
    "english_cols",
    "label_col",
    "label_names",
    "label_name_col",
    "split_col",
    "split",
    "id_col",
    "dialect_map",
    "convert_bijoy",
    "file_format",
)


class ItemMapping(TypedDict):
    """:func:`guess_item_mapping`: each column guessed (None or empty: no guess)."""

    native_col: str | None
    dialect_col: str | None
    roman_col: str | None
    standard_cols: list[str]
    english_cols: list[str]
    label_col: str | None
    split_col: str | None
    id_col: str | None


def guess_item_mapping(columns: list[str]) -> ItemMapping:
    """A starting column mapping for an item file (the import dialog's guess)."""
    lowered = {c: c.casefold() for c in columns}
    return {
        "native_col": first_column(columns, ("text", "native", "native_text", "sentence")),
        "dialect_col": first_column(columns, ("dialect", "dialect_code", "region")),
        "roman_col": first_column(columns, ("roman", "romanized", "roman_text")),
        "standard_cols": [c for c, low in lowered.items() if low.startswith("standard")],
        "english_cols": [c for c, low in lowered.items() if low.startswith("english")],
        "label_col": first_column(columns, ("label", "class", "category")),
        "split_col": first_column(columns, ("split",)),
        "id_col": first_column(columns, ("id", "item_id")),
    }


def import_items_at(workspace_path: str, path: str, options: dict, **progress) -> ImportReportDict:
    """``upabhasha import items`` for the import dialog (writer lane, all-or-nothing)."""
    return import_with(import_items, ITEM_OPTIONS, workspace_path, path, options, **progress)
