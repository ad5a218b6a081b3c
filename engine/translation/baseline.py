"""The copy-input baseline on any corpus, split or item set (``upabhasha baseline``).

Copying the input unchanged is what a system must beat: a dialect sentence is often close to
its standard form. Per dialect and direction —

- ``standard-to-dialect``: the standard sentence as the "translation", against every dialect
  rendering of it (an item = one standard sentence of one corpus and dialect);
- ``dialect-to-standard``: the dialect sentence as the "normalisation", against every
  standard sentence it renders;

scored with the evaluations' own metrics (:func:`engine.translation.metrics.corpus_scores`:
multi-reference BLEU and chrF++ with their signatures, WER). No index and no model are
needed, and any split works, validation-only corpora included. Item sets
(``items:<set>``) give dialect→standard from the native text and, where the set carries
Romanized forms, a ``roman`` row that is *not applicable*: Romanized input shares no
characters with Bengali-script references, and its 0.00 would carry no information.
"""

from __future__ import annotations

import csv
import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypedDict

from engine.errors import Setting, UserError, setting
from engine.importing.stored_choice import scoring_normalization
from engine.text.textnorm import record_key
from engine.translation.metrics import corpus_scores
from engine.workspace.store import Workspace

log = logging.getLogger(__name__)

DIRECTIONS = ("standard-to-dialect", "dialect-to-standard")
NOT_APPLICABLE_ROMAN = "not applicable: Romanized input against Bengali-script references"


def _pair_items(
    ws: Workspace,
    corpus: str | None,
    split: str | None,
    dialects: Sequence[str] | None,
    normalize: str,
) -> dict[tuple[str, str], list[tuple[str, list[str]]]]:
    """(dialect, direction) -> [(input, references)] from the sentence pairs, grouped as an
    import under ``normalize`` groups them: a raw corpus scored nfc merges the pairs that
    differ only in encoding (the first one's split kept), so its items are an NFC import's."""
    sql = (
        "SELECT p.corpus_id, p.dialect, p.standard_text, p.dialect_text, p.split "
        "FROM sentence_pairs p JOIN corpora c ON c.id = p.corpus_id WHERE 1"
    )
    params: list = []
    if corpus:
        sql += " AND c.name = ?"
        params.append(corpus)
    if dialects:
        sql += f" AND p.dialect IN ({','.join('?' * len(dialects))})"
        params += list(dialects)
    key_of = record_key(normalize)
    forward: dict[tuple, tuple[str, list[str]]] = {}
    backward: dict[tuple, tuple[str, list[str]]] = {}
    seen_refs: dict[tuple, set[str]] = {}
    seen_pairs: set[tuple] = set()
    for r in ws.query(sql + " ORDER BY p.id", tuple(params)):
        std_key, dia_key = key_of(r["standard_text"]), key_of(r["dialect_text"])
        pair = (r["corpus_id"], r["dialect"], std_key, dia_key)
        if pair in seen_pairs:
            continue
        seen_pairs.add(pair)
        if split and r["split"] != split:
            continue
        std = (r["corpus_id"], r["dialect"], std_key)
        forward.setdefault(std, (r["standard_text"], []))[1].append(r["dialect_text"])
        dia = (r["corpus_id"], r["dialect"], dia_key)
        refs = backward.setdefault(dia, (r["dialect_text"], []))[1]
        if std_key not in seen_refs.setdefault(dia, set()):
            seen_refs[dia].add(std_key)
            refs.append(r["standard_text"])
    out: dict[tuple[str, str], list[tuple[str, list[str]]]] = {}
    for (_, dialect, _), item in forward.items():
        out.setdefault((dialect, "standard-to-dialect"), []).append(item)
    for (_, dialect, _), item in backward.items():
        out.setdefault((dialect, "dialect-to-standard"), []).append(item)
    return out


def _set_items(
    ws: Workspace, name: str, split: str | None, dialects: Sequence[str] | None, normalize: str
) -> tuple[dict[tuple[str, str], list[tuple[str, list[str]]]], set[str]]:
    """The same from an item set (task_items, read here since the understanding stage sits
    above this one), plus the dialects whose items carry Romanized forms."""
    set_id = ws.scalar("SELECT id FROM task_item_sets WHERE name = ?", (name,))
    if set_id is None:
        known = ", ".join(r["name"] for r in ws.query("SELECT name FROM task_item_sets"))
        raise UserError(f"no item set {name!r} (known: {known or 'none'})")
    out: dict[tuple[str, str], list[tuple[str, list[str]]]] = {}
    roman: set[str] = set()
    key_of = record_key(normalize)
    forward: dict[tuple[str, str], tuple[str, list[str]]] = {}
    for item in ws.query("SELECT * FROM task_items WHERE set_id = ? ORDER BY id", (set_id,)):
        standard = json.loads(item["refs"]).get("standard") or []
        if (
            (split and item["split"] != split)
            or (dialects and item["dialect"] not in dialects)
            or item["dialect"] == "standard"
            or not standard
        ):
            continue
        dialect, native = item["dialect"], item["native_text"]
        out.setdefault((dialect, "dialect-to-standard"), []).append((native, standard))
        if item["roman_text"]:
            roman.add(dialect)
        key = (dialect, key_of(standard[0]))
        forward.setdefault(key, (standard[0], []))[1].append(native)
    for (dialect, _), entry in forward.items():
        out.setdefault((dialect, "standard-to-dialect"), []).append(entry)
    return out, roman


class CopyBaselines(TypedDict):
    """:func:`copy_baselines` (``upabhasha baseline --json``): where the items came from, what
    the metrics score, and one row per dialect × direction (× script)."""

    source: str
    corpus: str | None
    split: str | None
    normalize: str
    notes: list[str]
    rows: list[dict[str, Any]]


def copy_baselines(
    ws: Workspace,
    *,
    source: str = "pairs",
    corpus: str | None = None,
    split: str | None = None,
    dialects: Sequence[str] | None = None,
    directions: Sequence[str] = DIRECTIONS,
    normalize: str | None = None,
) -> CopyBaselines:
    """Rows of the copy baseline, one per dialect × direction (× script for item sets):
    ``corpus_scores`` of the inputs as outputs, or ``not_applicable`` with the reason.
    ``normalize``: what the metrics score; None scores the source's stored choice
    (:mod:`engine.importing.stored_choice`, whose notes the report carries)."""
    bad = [d for d in directions if d not in DIRECTIONS]
    if bad or not directions:
        raise UserError(
            f"{setting(Setting.DIRECTION)} is one of {', '.join(DIRECTIONS)}, not {bad[0]!r}"
        )
    unknown = set(dialects or ()) - ws.dialect_codes()
    if unknown:
        raise UserError(f"unknown dialect {sorted(unknown)[0]!r}")
    roman: set[str] = set()
    if source == "pairs":
        if corpus and ws.scalar("SELECT id FROM corpora WHERE name = ?", (corpus,)) is None:
            known = ", ".join(r["name"] for r in ws.query("SELECT name FROM corpora")) or "none"
            raise UserError(f"no corpus {corpus!r} (known: {known})")
        normalize, notes = scoring_normalization(ws, source, corpus, normalize)
        groups = _pair_items(ws, corpus, split, dialects, normalize)
    elif source.startswith("items:"):
        normalize, notes = scoring_normalization(ws, source, corpus, normalize)
        groups, roman = _set_items(ws, source.split(":", 1)[1], split, dialects, normalize)
    else:
        raise UserError(f"unknown item source {source!r}: use 'pairs' or 'items:<set name>'")
    if not any(d in directions for _, d in groups):
        where = f" in split {split!r}" if split else ""
        splits = _splits(ws, source)
        raise UserError(
            f"no items{where} in {source}"
            + (f" (splits with items: {', '.join(splits)})" if splits else "")
        )
    rows = []
    for (dialect, direction), items in sorted(groups.items()):
        if direction not in directions:
            continue
        scores = corpus_scores(
            [i for i, _ in items], [refs for _, refs in items], normalize=normalize
        )
        rows.append({"dialect": dialect, "direction": direction, "script": "native", **scores})
        if dialect in roman and direction == "dialect-to-standard":
            rows.append(
                {
                    "dialect": dialect,
                    "direction": direction,
                    "script": "roman",
                    "n": len(items),
                    "not_applicable": NOT_APPLICABLE_ROMAN,
                }
            )
    return {
        "source": source,
        "corpus": corpus,
        "split": split,
        "normalize": normalize,
        "notes": notes,
        "rows": rows,
    }


def _splits(ws: Workspace, source: str) -> list[str]:
    if source == "pairs":
        return [r["split"] for r in ws.query("SELECT DISTINCT split FROM sentence_pairs")]
    return [
        r["split"]
        for r in ws.query(
            "SELECT DISTINCT i.split FROM task_items i JOIN task_item_sets s ON s.id = i.set_id "
            "WHERE s.name = ? ORDER BY i.split",
            (source.split(":", 1)[1],),
        )
    ]


CSV_COLUMNS = ("dialect", "direction", "script", "n", "references", "bleu", "chrf++", "wer")


def write_baseline_csv(report: dict, path: str | Path) -> int:
    """The rows as CSV (UTF-8 with BOM, for Excel): figures unrounded, or the reason in
    ``note``; the signatures as JSON. Returns the number of rows."""
    with open(path, "w", encoding="utf-8-sig", newline="") as fh:
        writer = csv.DictWriter(fh, [*CSV_COLUMNS, "note", "signatures"])
        writer.writeheader()
        for r in report["rows"]:
            row = {k: r.get(k, "") for k in CSV_COLUMNS}
            row["note"] = r.get("not_applicable", "")
            row["signatures"] = json.dumps(r.get("signatures", {}), ensure_ascii=False)
            writer.writerow(row)
    return len(report["rows"])
