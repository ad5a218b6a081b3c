"""Background tasks of the Social bias panel (Qt-free): plain inputs, own connection.

:func:`bias_view_at` reads everything the panel shows (statistics, replies for drill-down, the
unmapped replies and the normalisation table); :func:`run_probes_at` runs a probe request,
:func:`run_probes_with_view_at` too and then reads the view after its last write;
:func:`map_phrase_at` edits the normalisation table.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from engine.bias.generator import generate_probe_sets
from engine.bias.normalise import load_table, map_phrase
from engine.bias.probes import import_probes
from engine.bias.request import ProbeRequest, ProbeResult
from engine.bias.results import bias_statistics, classified_replies, unmapped_replies
from engine.bias.stats import BIAS_STATS, BiasStatsSettings
from engine.i18n import _, digits
from engine.importing.tasks import first_column, import_with
from engine.llm.run_estimates import estimator
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


def bias_view_at(
    workspace_path: str | Path,
    rule: str | None = None,
    *,
    settings: BiasStatsSettings = BIAS_STATS,
) -> dict:
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
            "models": ws.query("SELECT id, name FROM models ORDER BY is_default DESC, id"),
            "sets": ws.query(
                "SELECT name, topic, group_x, group_y, dialect FROM probe_sets ORDER BY id"
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


def run_probes_with_view_at(
    workspace_path: str | Path,
    request: ProbeRequest,
    *,
    settings: BiasStatsSettings = BIAS_STATS,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
) -> dict:
    """:func:`run_probes_at`, then :func:`bias_view_at` read after the run's last write:
    ``{"summaries": […], "view": {…}}``. The panel shows this view when the job ends, so it
    counts every reply of the job (a read taken during the run may predate it)."""
    result = run_probes_at(workspace_path, request, progress=progress, cancelled=cancelled)
    return {
        "summaries": list(result.runs),
        "view": bias_view_at(workspace_path, settings=settings),
    }


# the planner's estimate of run_probes_at with the same arguments (engine.llm.run_estimates)
estimate_probes_at = estimator(run_probes_at)


def map_phrase_at(
    workspace_path: str | Path, topic: str, phrase: str, label: str, author: str = ""
) -> dict:
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


def guess_probe_mapping(columns: list[str]) -> dict:
    """A starting column mapping for a probe file (the import dialog's guess)."""
    return {
        "prompt_col": first_column(columns, ("prompt", "text", "question")),
        "id_col": first_column(columns, ("ID", "id")),
        "category_col": first_column(columns, ("category",)),
        "subcategory_col": first_column(columns, ("subcategory",)),
        "topic_col": first_column(columns, ("topic",)),
        "first_col": first_column(columns, ("firstOption", "first_option")),
    }


def import_probes_at(workspace_path: str, path: str, options: dict, **progress) -> dict:
    """``upabhasha import probes`` for the import dialog (writer lane, all-or-nothing)."""

    report = import_with(import_probes, PROBE_OPTIONS, workspace_path, path, options, **progress)
    return {**report, "kind": "probes", "probe_kind": report["kind"]}


def generate_probes_at(
    workspace_path: str, templates: str, options: dict, *, progress=None, cancelled=None
) -> dict:
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


def describe_probe_report(report: dict) -> list[str]:
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
