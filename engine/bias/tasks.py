"""Background tasks of the Social bias panel (Qt-free): plain inputs, own connection.

:func:`bias_view_at` reads everything the panel shows (statistics, replies for drill-down, the
unmapped replies and the normalisation table); :func:`run_probes_at` runs a probe request,
:func:`run_probes_with_view_at` too and then reads the view after its last write;
:func:`map_phrase_at` edits the normalisation table.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypedDict, cast

from engine.bias.generator import generate_probe_sets
from engine.bias.normalise import PhraseMapped, TableEntry, load_table, map_phrase
from engine.bias.probes import ProbeReportDict, import_probes
from engine.bias.request import ProbeRequest, ProbeResult
from engine.bias.results import (
    BiasStatistics,
    UnmappedReply,
    bias_statistics,
    classified_replies,
    unmapped_replies,
)
from engine.bias.stats import BIAS_STATS, BiasStatsSettings
from engine.i18n import _, digits
from engine.importing.tasks import first_column, import_with
from engine.llm.runs.estimates import estimator
from engine.llm.runs.model_runs import RunSummary
from engine.llm.types import CancelFn, ProgressFn
from engine.workspace.store import Workspace

__all__ = [
    "PROBE_OPTIONS",
    "bias_view_at",
    "describe_probe_report",
    "estimate_probes_at",
    "generate_probes_at",
    "guess_probe_mapping",
    "import_probes_at",
    "map_phrase_at",
    "run_probes_at",
    "run_probes_with_view_at",
]


class ModelName(TypedDict):
    id: int
    name: str


class ProbeSetRow(TypedDict):
    name: str
    topic: str
    group_x: str
    group_y: str
    dialect: str


class BiasView(TypedDict):
    """:func:`bias_view_at`: what the Social bias panel shows."""

    stats: BiasStatistics
    replies: list[dict[str, Any]]  # each classified reply (``results.Reply``'s fields)
    unmapped: list[UnmappedReply]
    table: list[TableEntry]
    version: str  # the normalisation table's
    topics: list[str]
    models: list[ModelName]  # the default model first
    sets: list[ProbeSetRow]
    responses: int
    rule: str  # the zero-count rule the statistics used


def bias_view_at(
    workspace_path: str | Path,
    rule: str | None = None,
    *,
    settings: BiasStatsSettings = BIAS_STATS,
) -> BiasView:
    """The panel's view, its statistics computed with ``settings`` (``upabhasha bias-stats``
    uses the same defaults); ``rule``, when given, replaces its zero-count rule."""
    if rule is not None:
        settings = dataclasses.replace(settings, zero_rule=rule)
    with Workspace(workspace_path, create=False) as ws:
        table = load_table(ws)
        stats = bias_statistics(ws, settings)
        replies = [dataclasses.asdict(r) for r in classified_replies(ws, table)]
        topics = sorted({r["topic"] for r in ws.query("SELECT topic FROM probe_sets")})
        return {
            "stats": stats,
            "replies": replies,
            "unmapped": unmapped_replies(ws, limit=500),
            "table": table.rows(),
            "version": table.version,
            "topics": topics,
            # the default model first: the one a request without models asks
            "models": cast(
                "list[ModelName]",
                ws.query("SELECT id, name FROM models ORDER BY is_default DESC, id"),
            ),
            "sets": cast(
                "list[ProbeSetRow]",
                ws.query(
                    "SELECT name, topic, group_x, group_y, dialect FROM probe_sets ORDER BY id"
                ),
            ),
            "responses": ws.scalar("SELECT count(*) FROM responses"),
            "rule": settings.zero_rule,
        }


def run_probes_at(
    workspace_path: str | Path,
    request: ProbeRequest,
    *,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
) -> ProbeResult:
    """Run ``request`` (the one path of the probe step, as ``upabhasha probe`` runs it)."""
    with Workspace(workspace_path, create=False) as ws:
        return request.run(ws, progress=progress, cancelled=cancelled)


class ProbesWithView(TypedDict):
    """:func:`run_probes_with_view_at`: each run's summary and the view read after them."""

    summaries: list[RunSummary]
    view: BiasView


def run_probes_with_view_at(
    workspace_path: str | Path,
    request: ProbeRequest,
    *,
    settings: BiasStatsSettings = BIAS_STATS,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
) -> ProbesWithView:
    """:func:`run_probes_at`, then :func:`bias_view_at` read after the run's last write:
    ``{"summaries": […], "view": {…}}``. The panel shows this view when the job ends, so it
    counts every reply of the job (a read taken during the run may predate it)."""
    result = run_probes_at(workspace_path, request, progress=progress, cancelled=cancelled)
    return {
        "summaries": list(result.runs),
        "view": bias_view_at(workspace_path, settings=settings),
    }


# the planner's estimate of run_probes_at with the same arguments (engine.llm.runs.estimates)
estimate_probes_at = estimator(run_probes_at)


def map_phrase_at(
    workspace_path: str | Path, topic: str, phrase: str, label: str, author: str = ""
) -> PhraseMapped:
    with Workspace(workspace_path, create=False) as ws:
        return map_phrase(ws, topic, phrase, label, author)


PROBE_OPTIONS = (
    "name",
    "kind",
    "topic",
    "groups",
    "id_col",
    "prompt_col",
    "category_col",
    "subcategory_col",
    "topic_col",
    "first_col",
    "option_cols",
    "convert_bijoy",
    "file_format",
)


class ProbeMapping(TypedDict):
    """:func:`guess_probe_mapping`: each column guessed (None: no guess)."""

    prompt_col: str | None
    id_col: str | None
    category_col: str | None
    subcategory_col: str | None
    topic_col: str | None
    first_col: str | None


def guess_probe_mapping(columns: list[str]) -> ProbeMapping:
    """A starting column mapping for a probe file (the import dialog's guess)."""
    return {
        "prompt_col": first_column(columns, ("prompt", "text", "question")),
        "id_col": first_column(columns, ("ID", "id")),
        "category_col": first_column(columns, ("category",)),
        "subcategory_col": first_column(columns, ("subcategory",)),
        "topic_col": first_column(columns, ("topic",)),
        "first_col": first_column(columns, ("firstOption", "first_option")),
    }


class ProbeImport(ProbeReportDict):
    """:func:`import_probes_at`: the probe set's report, its ``kind`` the import's
    (``probes``) and ``probe_kind`` the set's (template or natural)."""

    probe_kind: str


def import_probes_at(workspace_path: str, path: str, options: dict, **progress) -> ProbeImport:
    """``upabhasha import probes`` for the import dialog (writer lane, all-or-nothing)."""

    report = import_with(import_probes, PROBE_OPTIONS, workspace_path, path, options, **progress)
    return {**report, "kind": "probes", "probe_kind": report["kind"]}


class GeneratedProbes(TypedDict):
    """:func:`generate_probes_at`: one report per probe set made, and their totals."""

    kind: str
    name: str
    inserted: int
    already_present: int
    sets: list[ProbeReportDict]


def generate_probes_at(
    workspace_path: str, templates: str, options: dict, *, progress=None, cancelled=None
) -> GeneratedProbes:
    """``upabhasha probes generate --templates JSON --words CSV`` for the import dialog:
    one probe set per topic, '<name>-<topic>'. ``options``: ``words`` (the CSV), ``name``."""
    name = options.get("name") or Path(templates).stem
    with Workspace(workspace_path, create=False) as ws:
        reports = [r.to_dict() for r in generate_probe_sets(ws, templates, options["words"], name)]
    return {
        "kind": "probes",
        "name": ", ".join(r["name"] for r in reports),
        "inserted": sum(r["inserted"] for r in reports),
        "already_present": sum(r["already_present"] for r in reports),
        "sets": reports,
    }


def describe_probe_report(report: Mapping[str, Any]) -> list[str]:
    """An import or a generation of probe sets as short lines (the dialog's report), in the
    interface language; names, topics, groups and categories are quoted as they are."""
    kinds = {"template": _("template"), "natural": _("natural")}
    lines = []
    for r in report.get("sets", [report]):
        kind = r.get("probe_kind", r["kind"])
        lines.append(
            _(
                "probe set '{name}' ({kind}, {topic}: x = {x}, y = {y}): {new:,} new, "
                "{present:,} already present"
            ).format(
                name=r["name"],
                kind=kinds.get(kind, kind),
                topic=r["topic"],
                x=r["groups"][0],
                y=r["groups"][1],
                new=r["inserted"],
                present=r["already_present"],
            )
        )
        uncategorised = _("(no category)")
        lines += [
            f"  {cat or uncategorised}: {digits(format(n, ','))}"
            for cat, n in sorted(r["by_category"].items())
        ]
        lines += [_("warning: {message}").format(message=w) for w in r.get("warnings", [])]
    return lines
