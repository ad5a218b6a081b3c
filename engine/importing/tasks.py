"""Background tasks and reads of the import dialog (Qt-free; run through the task bridge).

The tasks take plain values (the workspace path, the file path, an options dict) and open
their own workspace connection, so the import runs on the writer lane without sharing the
GUI thread's connection. The reads guess a column mapping from a file's real header.
"""

from __future__ import annotations

import logging
from pathlib import Path

from engine.importing.columns import count_lines
from engine.importing.dialects import BUILTIN_ALIASES, add_dialect, list_dialects, spelling_key
from engine.importing.importers import import_corpus, import_questions
from engine.importing.scored_import import import_scored_translations, record_segment_score
from engine.importing.tabular import TabularFile
from engine.scales import parse_scale
from engine.text.bijoy import UnknownGlyph, bijoy_to_unicode, looks_bijoy
from engine.text.textnorm import normalize_text
from engine.workspace.store import Workspace

__all__ = [
    "BIJOY_SCAN_ROWS",
    "CORPUS_OPTIONS",
    "DIALECT_TEXT_NAMES",
    "NOUNS",
    "QUESTION_NAMES",
    "QUESTION_OPTIONS",
    "SCORED_OPTIONS",
    "SPLIT_HINT",
    "STANDARD_NAMES",
    "add_dialect_at",
    "describe_report",
    "first_column",
    "guess_corpus_mapping",
    "guess_question_mapping",
    "guess_scored_mapping",
    "import_corpus_at",
    "import_questions_at",
    "import_scored_at",
    "import_with",
    "list_workspace_dialects",
    "read_columns",
    "record_segment_score_at",
    "scan_bijoy",
    "workspace_dialects",
]

log = logging.getLogger(__name__)

# Header spellings seen in real files, best first (Vashantor: "bangla_speech").
STANDARD_NAMES = ("standard", "standard_text", "bangla_speech", "bangla", "bengali", "source")
DIALECT_TEXT_NAMES = ("dialect_text", "dialect_sentence", "text", "target")
QUESTION_NAMES = ("question", "text", "question_text", "prompt")
SPLIT_HINT = "split"

CORPUS_OPTIONS = (
    "fmt",
    "name",
    "standard_col",
    "dialect_text_col",
    "dialect_col",
    "dialect",
    "district_col",
    "district",
    "split_col",
    "split",
    "dialect_cols",
    "variant_cols",
    "dialect_map",
    "convert_bijoy",
    "strip_leading_token",
    "allow_duplicate_content",
    "file_format",
)
QUESTION_OPTIONS = (
    "name",
    "text_col",
    "id_col",
    "type_col",
    "domain_col",
    "gloss_col",
    "dialect_cols",
    "dialect_col",
    "dialect_map",
    "variant_status",
    "convert_bijoy",
    "allow_duplicate_content",
    "file_format",
)
SCORED_OPTIONS = (
    "name",
    "source_col",
    "hyp_col",
    "ref_cols",
    "system_col",
    "system",
    "score_cols",
    "score_col",
    "annotator_col",
    "annotator",
    "average_annotators",
    "accept_scale",
    "seg_id_col",
    "dialect",
    "convert_bijoy",
    "file_format",
)
BIJOY_SCAN_ROWS = 5_000  # rows the dialog scans for legacy Bijoy text before the import


def read_columns(path: str) -> list[str]:
    """The header of a tabular file (no row count: the dialog asks before the import)."""
    with TabularFile(path, precount=False) as table:
        return [c for c in table.columns if c]


def first_column(columns: list[str], names: tuple[str, ...]) -> str | None:
    folded = {c.casefold(): c for c in columns}
    return next((folded[n] for n in names if n in folded), None)


def _dialect_named(columns: list[str], dialect_codes: set[str]) -> dict[str, str]:
    """code -> column for columns named by a dialect code or a built-in alias."""
    lookup = {spelling_key(c): c for c in dialect_codes - {"standard"}}
    for code, aliases in BUILTIN_ALIASES.items():
        if code in lookup.values():
            lookup.update({spelling_key(a): code for a in aliases})
    found: dict[str, str] = {}
    for column in columns:
        match = lookup.get(spelling_key(column))
        if match and match not in found:
            found[match] = column
    return found


def guess_corpus_mapping(columns: list[str], dialect_codes: set[str]) -> dict:
    """A starting mapping the user then corrects: long when a dialect-code column exists,
    wide when columns are named by dialect codes or aliases (Vashantor's multiway file)."""
    dialect_named = _dialect_named(columns, dialect_codes)
    has_code_col = first_column(columns, ("dialect",)) is not None
    fmt = "wide" if dialect_named and not has_code_col else "long"
    return {
        "fmt": fmt,
        "standard_col": first_column(columns, STANDARD_NAMES),
        "dialect_text_col": first_column(columns, DIALECT_TEXT_NAMES),
        "dialect_col": first_column(columns, ("dialect", "dialect_code", "region")),
        "district_col": first_column(columns, ("district",)),
        "split_col": next((c for c in columns if SPLIT_HINT in c.casefold()), None),
        "dialect_cols": dict(sorted(dialect_named.items())),
    }


def guess_question_mapping(columns: list[str], dialect_codes: set[str]) -> dict:
    return {
        "text_col": first_column(columns, QUESTION_NAMES),
        "id_col": first_column(columns, ("id", "question_id", "qid")),
        "type_col": first_column(columns, ("question_type", "type")),
        "domain_col": first_column(columns, ("domain",)),
        "gloss_col": first_column(columns, ("gloss_en", "gloss", "english")),
        "dialect_col": first_column(columns, ("dialect",)),
        "dialect_cols": _dialect_named(columns, dialect_codes),
    }


def guess_scored_mapping(columns: list[str]) -> dict:
    """Scored translations: source, system output, references and score columns."""
    lowered = [c.casefold() for c in columns]
    return {
        "source_col": first_column(columns, ("source", "src", "standard")),
        "hyp_col": first_column(columns, ("hypothesis", "hyp", "output", "mt", "translation")),
        "ref_cols": [c for c, low in zip(columns, lowered, strict=True) if low.startswith("ref")],
        "system_col": first_column(columns, ("system", "model")),
        "score_cols": [
            c
            for c, low in zip(columns, lowered, strict=True)
            if low.startswith(("score_", "human_", "rater"))
        ],
        "score_col": first_column(columns, ("score", "human_score")),
        "annotator_col": first_column(columns, ("annotator", "rater")),
        "seg_id_col": first_column(columns, ("seg_id", "segment", "id")),
    }


def scan_bijoy(
    path: str,
    *,
    columns: list[str] | None = None,
    max_rows: int = BIJOY_SCAN_ROWS,
    samples: int = 5,
) -> dict:
    """Legacy Bijoy/SutonnyMJ cells among the first ``max_rows`` rows, with a preview of
    their conversion (the dialog asks before converting). ``columns``: only these, the ones
    the import reads as Bengali text (an English or identifier column can look like Bijoy);
    ``in_columns`` names those where some were found. ``complete``: the whole file was
    scanned."""
    found, rows = 0, 0
    shown: list[dict] = []
    in_columns: list[str] = []
    wanted = None if columns is None else set(columns)
    complete = True
    with TabularFile(path, precount=False) as table:
        for line, row in table:
            rows += 1
            if rows > max_rows:
                complete = False
                break
            for column, value in row.items():
                if wanted is not None and column not in wanted:
                    continue
                if not isinstance(value, str) or not looks_bijoy(value):
                    continue
                found += 1
                if column not in in_columns:
                    in_columns.append(column)
                if len(shown) < samples:
                    try:
                        converted, error = normalize_text(bijoy_to_unicode(value)), None
                    except UnknownGlyph as exc:
                        converted, error = None, str(exc)
                    shown.append(
                        {
                            "line": line,
                            "column": column,
                            "bijoy": value,
                            "unicode": converted,
                            "error": error,
                        }
                    )
    return {
        "cells": found,
        "rows_scanned": min(rows, max_rows),
        "complete": complete,
        "samples": shown,
        "in_columns": in_columns,
    }


def list_workspace_dialects(ws: Workspace) -> list[dict]:
    """``upabhasha dialects list`` for the GUI: codes, names, aliases and counts."""
    return list_dialects(ws)


def add_dialect_at(workspace_path: str, code: str, fields: dict) -> dict:
    """``upabhasha dialects add`` for the GUI (writer lane)."""
    with Workspace(workspace_path, create=False) as ws:
        return add_dialect(ws, code, **fields)


def workspace_dialects(ws: Workspace) -> list[dict]:
    """Regional dialects known to the workspace, with names, in code order."""
    return ws.query(
        "SELECT code, name_bn, name_en FROM dialects WHERE code != 'standard' ORDER BY code"
    )


def import_with(
    importer,
    allowed: tuple[str, ...],
    workspace_path: str,
    path: str,
    options: dict,
    *,
    progress=None,
    cancelled=None,
    **fixed,
) -> dict:
    """Run one importer on its own connection (the writer lane) with the dialog's options
    it takes (``allowed``); returns its report as a dict. Shared by every stage's import
    task (corpus, questions, scored translations, task items, probes)."""
    kwargs = {k: v for k, v in options.items() if k in allowed}
    with Workspace(workspace_path, create=False) as ws:
        report = importer(ws, Path(path), progress=progress, cancelled=cancelled, **fixed, **kwargs)
    return report.to_dict()


def import_corpus_at(workspace_path: str, path: str, options: dict, **progress) -> dict:
    """Import a parallel corpus (all-or-nothing); returns the report as a dict."""
    return import_with(import_corpus, CORPUS_OPTIONS, workspace_path, path, options, **progress)


def import_questions_at(workspace_path: str, path: str, options: dict, **progress) -> dict:
    """Import a question set (all-or-nothing); returns the report as a dict."""
    return import_with(
        import_questions, QUESTION_OPTIONS, workspace_path, path, options, **progress
    )


def import_scored_at(workspace_path: str, path: str, options: dict, **progress) -> dict:
    """Import scored translations on the declared human scale (all-or-nothing)."""
    scale = parse_scale(options["human_scale"])
    return import_with(
        import_scored_translations,
        SCORED_OPTIONS,
        workspace_path,
        path,
        options,
        human_scale=scale,
        **progress,
    )


NOUNS = {"corpus": "pairs", "items": "items", "scored-translations": "segments"}


def describe_report(report: dict) -> list[str]:
    """The report as short lines for a dialog or a log (counts per dialect, warnings)."""
    what = NOUNS.get(report["kind"], "questions")
    lines = [
        f"{report['name']}: {report['rows_read']:,} rows read, {report['inserted']:,} new "
        f"{what}, {report['already_present']:,} already present, "
        f"{report['duplicates_in_file']:,} repeated in the file"
    ]
    lines += count_lines(report)
    if report.get("variants_inserted") and report["kind"] == "scored-translations":
        lines.append(f"{report['variants_inserted']:,} human scores written")
    elif report.get("variants_inserted"):
        lines.append(
            f"{report['variants_inserted']:,} variants written (standard + dialect renderings)"
        )
    if report.get("empty_cells_skipped"):
        lines.append(f"{report['empty_cells_skipped']:,} empty dialect cells skipped")
    if report.get("dialect_names"):
        lines.append(
            "dialect names read as codes: "
            + ", ".join(f"{k} → {v}" for k, v in report["dialect_names"].items())
        )
    if report.get("bijoy_converted"):
        lines.append(f"{report['bijoy_converted']:,} Bijoy cells converted to Unicode")
    if report.get("unused_columns"):
        lines.append("columns not used: " + ", ".join(report["unused_columns"]))
    for code, info in sorted(report.get("by_dialect", {}).items()):
        if isinstance(info, dict) and "pairs" in info:
            splits = ", ".join(f"{k} {v:,}" for k, v in info.get("splits", {}).items())
            lines.append(
                f"  {code}: {info['pairs']:,} pairs ({info['inserted']:,} new"
                f"{'; ' + splits if splits else ''})"
            )
        elif isinstance(info, dict) and "items" in info:
            splits = ", ".join(f"{k} {v:,}" for k, v in sorted(info["splits"].items()))
            lines.append(f"  {code}: {info['items']:,} items ({splits})")
        elif isinstance(info, dict) and "segments" in info:
            lines.append(f"  {code}: {info['segments']:,} segments")
        elif isinstance(info, dict) and "variants" in info:
            lines.append(f"  {code}: {info['variants']:,} variants ({info['inserted']:,} new)")
    lines += [f"warning: {w}" for w in report.get("warnings", [])]
    return lines


def record_segment_score_at(
    workspace_path: str, segment_id: int, annotator: str, score: float
) -> dict:
    """:func:`record_segment_score` on its own connection (the GUI's writer lane)."""
    with Workspace(workspace_path, create=False) as ws:
        return record_segment_score(ws, segment_id, annotator, score)
