"""Background tasks and reads of the import dialog (Qt-free; run through the task bridge).

The tasks take plain values (the workspace path, the file path, an options dict) and open
their own workspace connection, so the import runs on the writer lane without sharing the
GUI thread's connection. The reads guess a column mapping from a file's real header.
"""

from __future__ import annotations

import logging
from pathlib import Path

from engine.bijoy import UnknownGlyph, bijoy_to_unicode, looks_bijoy
from engine.importing.dialects import BUILTIN_ALIASES, add_dialect, list_dialects, spelling_key
from engine.importing.importers import import_corpus, import_questions
from engine.importing.scored_import import record_segment_score
from engine.importing.tabular import TabularFile
from engine.textnorm import normalize_text
from engine.workspace.store import Workspace

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
    "file_format",
)
BIJOY_SCAN_ROWS = 5_000  # rows the dialog scans for legacy Bijoy text before the import


def read_columns(path: str) -> list[str]:
    """The header of a tabular file (no row count: the dialog asks before the import)."""
    with TabularFile(path, precount=False) as table:
        return [c for c in table.columns if c]


def _first(columns: list[str], names: tuple[str, ...]) -> str | None:
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
    has_code_col = _first(columns, ("dialect",)) is not None
    fmt = "wide" if dialect_named and not has_code_col else "long"
    return {
        "fmt": fmt,
        "standard_col": _first(columns, STANDARD_NAMES),
        "dialect_text_col": _first(columns, DIALECT_TEXT_NAMES),
        "dialect_col": _first(columns, ("dialect", "dialect_code", "region")),
        "district_col": _first(columns, ("district",)),
        "split_col": next((c for c in columns if SPLIT_HINT in c.casefold()), None),
        "dialect_cols": dict(sorted(dialect_named.items())),
    }


def guess_question_mapping(columns: list[str], dialect_codes: set[str]) -> dict:
    return {
        "text_col": _first(columns, QUESTION_NAMES),
        "id_col": _first(columns, ("id", "question_id", "qid")),
        "type_col": _first(columns, ("question_type", "type")),
        "domain_col": _first(columns, ("domain",)),
        "gloss_col": _first(columns, ("gloss_en", "gloss", "english")),
        "dialect_col": _first(columns, ("dialect",)),
        "dialect_cols": _dialect_named(columns, dialect_codes),
    }


def scan_bijoy(path: str, *, max_rows: int = BIJOY_SCAN_ROWS, samples: int = 5) -> dict:
    """Legacy Bijoy/SutonnyMJ cells among the first ``max_rows`` rows, with a preview of
    their conversion (the dialog asks before converting). ``complete``: the whole file
    was scanned."""
    found, rows = 0, 0
    shown: list[dict] = []
    complete = True
    with TabularFile(path, precount=False) as table:
        for line, row in table:
            rows += 1
            if rows > max_rows:
                complete = False
                break
            for column, value in row.items():
                if not isinstance(value, str) or not looks_bijoy(value):
                    continue
                found += 1
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
    }


def list_workspace_dialects(ws: Workspace) -> list[dict]:
    """``upabhasha dialects list`` for the GUI: codes, names, aliases and counts."""
    return list_dialects(ws)


def add_workspace_dialect(workspace_path: str, code: str, fields: dict) -> dict:
    """``upabhasha dialects add`` for the GUI (writer lane)."""
    with Workspace(workspace_path, create=False) as ws:
        return add_dialect(ws, code, **fields)


def workspace_dialects(ws: Workspace) -> list[dict]:
    """Regional dialects known to the workspace, with names, in code order."""
    return ws.query(
        "SELECT code, name_bn, name_en FROM dialects WHERE code != 'standard' ORDER BY code"
    )


def import_corpus_file(
    workspace_path: str, path: str, options: dict, *, progress=None, cancelled=None
) -> dict:
    """Import a parallel corpus (all-or-nothing); returns the report as a dict."""
    kwargs = {k: v for k, v in options.items() if k in CORPUS_OPTIONS}
    with Workspace(workspace_path, create=False) as ws:
        report = import_corpus(ws, Path(path), progress=progress, cancelled=cancelled, **kwargs)
    return report.to_dict()


def import_questions_file(
    workspace_path: str, path: str, options: dict, *, progress=None, cancelled=None
) -> dict:
    """Import a question set (all-or-nothing); returns the report as a dict."""
    kwargs = {k: v for k, v in options.items() if k in QUESTION_OPTIONS}
    with Workspace(workspace_path, create=False) as ws:
        report = import_questions(ws, Path(path), progress=progress, cancelled=cancelled, **kwargs)
    return report.to_dict()


def describe_report(report: dict) -> list[str]:
    """The report as short lines for a dialog or a log (counts per dialect, warnings)."""
    what = "pairs" if report["kind"] == "corpus" else "questions"
    lines = [
        f"{report['name']}: {report['rows_read']:,} rows read, {report['inserted']:,} new "
        f"{what}, {report['already_present']:,} already present, "
        f"{report['duplicates_in_file']:,} repeated in the file"
    ]
    if report.get("variants_inserted"):
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
