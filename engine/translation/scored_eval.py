"""Metric-vs-human evaluation of imported scored translations (``upabhasha eval-metrics``).

For one scored set (:mod:`engine.importing.scored_import`):

- per system: corpus BLEU, chrF++ and WER (sacrebleu signatures; every segment against all
  its references), optionally embedding cosine and BERTScore-style F1, and the mean human
  score on the set's declared scale;
- segment level: every metric's sentence score against the segment's mean human score
  (over its annotators) — Pearson, Spearman, Kendall τ-b and CCC with bootstrap CIs;
- system level: each system's corpus metric against its mean human score (few systems
  give "unavailable: n < 3", never a number).

Segments without any human score are scored by the metrics but left out of correlations
(counted). Nothing is rounded here.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any, TypedDict

from engine.errors import UserError
from engine.translation.metrics import (
    CI_LEVEL,
    METRICS,
    corpus_scores,
    correlation_table,
    sentence_scores,
    sentence_signatures,
)
from engine.workspace.store import Workspace

log = logging.getLogger(__name__)

CHUNK = 200  # segments between progress/cancel checks


class EvalCancelled(UserError):
    """The user cancelled the evaluation."""


def scored_sets(ws: Workspace) -> list[dict]:
    return ws.query(
        "SELECT t.id, t.name, t.scale_min, t.scale_max, t.dialect, t.source, t.normalization, "
        "(SELECT count(*) FROM scored_segments s WHERE s.set_id = t.id) AS segments, "
        "(SELECT count(DISTINCT system) FROM scored_segments s WHERE s.set_id = t.id) AS systems, "
        "(SELECT count(*) FROM scored_human h JOIN scored_segments s ON s.id = h.segment_id "
        "WHERE s.set_id = t.id) AS human_scores FROM scored_sets t ORDER BY t.id"
    )


def load_segments(ws: Workspace, set_name: str) -> tuple[dict, list[dict]]:
    sets = ws.query("SELECT * FROM scored_sets WHERE name = ?", (set_name,))
    if not sets:
        known = ", ".join(s["name"] for s in scored_sets(ws)) or "none"
        raise UserError(f"no scored set '{set_name}' (known: {known})")
    segs = ws.query(
        "SELECT s.id, s.system, s.seg_key, s.source, s.hypothesis, s.refs, "
        "avg(h.score) AS human, count(h.id) AS annotators FROM scored_segments s "
        "LEFT JOIN scored_human h ON h.segment_id = s.id WHERE s.set_id = ? "
        "GROUP BY s.id ORDER BY s.id",
        (sets[0]["id"],),
    )
    for s in segs:
        s["refs"] = json.loads(s["refs"])
    return sets[0], segs


class ScoredEvaluation(TypedDict):
    """:func:`evaluate_scored` (``upabhasha eval-metrics --json``, the metrics panel): the
    set, each system's scores, and the metrics' correlations with the human scores."""

    set: str
    dialect: str | None
    human_scale: list[float]
    observed_range: list[float] | None  # what the human scores use of the scale
    segments: int
    segments_averaged: int
    segments_scored_by_humans: int
    annotations: int
    systems: dict[str, dict[str, Any]]
    normalize: str
    signatures: dict[str, str]
    sentence_signatures: dict[str, str]
    encoder: str | None
    segment_level: list[dict[str, Any]]
    system_level: list[dict[str, Any]]
    bootstrap: dict[str, Any]


def evaluate_scored(
    ws: Workspace,
    set_name: str,
    *,
    encoder=None,
    bootstrap: int = 1000,
    seed: int = 0,
    progress: Callable[[int, int, str], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> ScoredEvaluation:
    """The per-system table and the segment- and system-level correlation tables."""
    info, segs = load_segments(ws, set_name)
    if not segs:
        raise UserError(f"scored set '{set_name}' has no segments")
    scale = (float(info["scale_min"]), float(info["scale_max"]))
    normalize = info["normalization"]
    rows: list[dict] = []
    for start in range(0, len(segs), CHUNK):
        if cancelled and cancelled():
            raise EvalCancelled(f"eval-metrics of '{set_name}' cancelled")
        if progress:
            progress(start, len(segs), "sentence scores")
        chunk = segs[start : start + CHUNK]
        rows += sentence_scores(
            [s["hypothesis"] for s in chunk],
            [s["refs"] for s in chunk],
            encoder,
            normalize=normalize,
        )
    if progress:
        progress(len(segs), len(segs), "correlations")
    systems: dict[str, list[int]] = {}
    for i, s in enumerate(segs):
        systems.setdefault(s["system"], []).append(i)
    per_system = {}
    for name, idx in sorted(systems.items()):
        humans = [segs[i]["human"] for i in idx if segs[i]["human"] is not None]
        per_system[name] = {
            **corpus_scores(
                [segs[i]["hypothesis"] for i in idx],
                [segs[i]["refs"] for i in idx],
                encoder,
                normalize=normalize,
            ),
            "human_mean": sum(humans) / len(humans) if humans else None,
            "human_n": len(humans),
        }
    first = next(iter(per_system.values()))
    observed = ws.query(
        "SELECT min(h.score) AS lo, max(h.score) AS hi FROM scored_human h "
        "JOIN scored_segments s ON s.id = h.segment_id WHERE s.set_id = ?",
        (info["id"],),
    )[0]
    system_rows = [{m: v[m] for m in METRICS if m in v} for v in per_system.values()]
    return {
        "set": info["name"],
        "dialect": info["dialect"],
        "human_scale": list(scale),
        # beside the declared scale, what the scores use of it
        "observed_range": None if observed["lo"] is None else [observed["lo"], observed["hi"]],
        "segments": len(segs),
        "segments_averaged": sum(s["annotators"] > 1 for s in segs),
        "segments_scored_by_humans": sum(s["human"] is not None for s in segs),
        "annotations": sum(s["annotators"] for s in segs),
        "systems": per_system,
        "normalize": normalize,
        "signatures": first["signatures"],
        # the segment-level correlations use sentence scores (BLEU with effective order)
        "sentence_signatures": sentence_signatures([s["refs"] for s in segs], normalize),
        "encoder": getattr(encoder, "encoder_id", None),
        "segment_level": correlation_table(
            rows, [s["human"] for s in segs], human_scale=scale, bootstrap=bootstrap, seed=seed
        ),
        "system_level": correlation_table(
            system_rows,
            [v["human_mean"] for v in per_system.values()],
            human_scale=scale,
            bootstrap=bootstrap,
            seed=seed,
        ),
        # what every interval of the tables is, for the text beside them
        "bootstrap": {
            "method": "percentile bootstrap",
            "level": CI_LEVEL,
            "resamples": bootstrap,
            "seed": seed,
            "unit": "segment / system",
        },
    }


def measure_sets(ws: Workspace, set_name: str) -> list[str]:
    """The sets of a file imported with named measures (``<name>/<measure>``), by name."""
    rows = ws.query(
        "SELECT name FROM scored_sets WHERE substr(name, 1, ?) = ? ORDER BY name",
        (len(set_name) + 1, set_name + "/"),
    )
    return [r["name"] for r in rows]


class ScoredMeasures(TypedDict):
    """:func:`evaluate_measures` of a name that holds several measures: each one's report."""

    set: str
    measures: dict[str, ScoredEvaluation]


def evaluate_measures(ws: Workspace, set_name: str, **options) -> ScoredEvaluation | ScoredMeasures:
    """:func:`evaluate_scored` of one set, or of each measure of ``set_name`` separately
    (never pooled: DA and MQM are different questions) as ``{"measures": {name: report}}``."""
    exists = ws.scalar("SELECT id FROM scored_sets WHERE name = ?", (set_name,))
    names = [] if exists is not None else measure_sets(ws, set_name)
    if not names:
        return evaluate_scored(ws, set_name, **options)
    return {
        "set": set_name,
        "measures": {n.split("/", 1)[1]: evaluate_scored(ws, n, **options) for n in names},
    }
