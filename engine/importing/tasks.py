"""Background tasks and reads of the import dialog (Qt-free; run through the task bridge).

The tasks take plain values (the workspace path, the file path, an options dict) and open
their own workspace connection, so the import runs on the writer lane without sharing the
GUI thread's connection. The reads guess a column mapping from a file's real header.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypedDict, cast

from engine.i18n import N_, _, digits
from engine.importing.columns import ImportReportDict, ReportDict, Reports
from engine.importing.dialects import (
    BUILTIN_ALIASES,
    DialectInfo,
    DialectNames,
    add_dialect,
    list_dialects,
    spelling_key,
)
from engine.importing.importers import import_corpus, import_questions
from engine.importing.scored_import import (
    SegmentScore,
    import_scored_translations,
    record_segment_score,
)
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


class CorpusMapping(TypedDict):
    """:func:`guess_corpus_mapping`: the format and each column guessed (None: no guess)."""

    fmt: str
    standard_col: str | None
    dialect_text_col: str | None
    dialect_col: str | None
    district_col: str | None
    split_col: str | None
    dialect_cols: dict[str, str]  # dialect code -> column


class QuestionMapping(TypedDict):
    """:func:`guess_question_mapping`: each column guessed (None: no guess)."""

    text_col: str | None
    id_col: str | None
    type_col: str | None
    domain_col: str | None
    gloss_col: str | None
    dialect_col: str | None
    dialect_cols: dict[str, str]  # dialect code -> column


class ScoredMapping(TypedDict):
    """:func:`guess_scored_mapping`: each column guessed (None or empty: no guess)."""

    source_col: str | None
    hyp_col: str | None
    ref_cols: list[str]
    system_col: str | None
    score_cols: list[str]
    score_col: str | None
    annotator_col: str | None
    seg_id_col: str | None


def guess_corpus_mapping(columns: list[str], dialect_codes: set[str]) -> CorpusMapping:
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


def guess_question_mapping(columns: list[str], dialect_codes: set[str]) -> QuestionMapping:
    return {
        "text_col": first_column(columns, QUESTION_NAMES),
        "id_col": first_column(columns, ("id", "question_id", "qid")),
        "type_col": first_column(columns, ("question_type", "type")),
        "domain_col": first_column(columns, ("domain",)),
        "gloss_col": first_column(columns, ("gloss_en", "gloss", "english")),
        "dialect_col": first_column(columns, ("dialect",)),
        "dialect_cols": _dialect_named(columns, dialect_codes),
    }


def guess_scored_mapping(columns: list[str]) -> ScoredMapping:
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


class BijoySample(TypedDict):
    """One Bijoy cell :func:`scan_bijoy` found: where, and its conversion or why not."""

    line: int
    column: str
    bijoy: str
    unicode: str | None
    error: str | None


class BijoyScan(TypedDict):
    """:func:`scan_bijoy`: how many cells look like Bijoy, in how many rows scanned."""

    cells: int
    rows_scanned: int
    complete: bool
    samples: list[BijoySample]
    in_columns: list[str]


def scan_bijoy(
    path: str,
    *,
    columns: list[str] | None = None,
    max_rows: int = BIJOY_SCAN_ROWS,
    samples: int = 5,
) -> BijoyScan:
    """Legacy Bijoy/SutonnyMJ cells among the first ``max_rows`` rows, with a preview of
    their conversion (the dialog asks before converting). ``columns``: only these, the ones
    the import reads as Bengali text (an English or identifier column can look like Bijoy);
    ``in_columns`` names those where some were found. ``complete``: the whole file was
    scanned."""
    found, rows = 0, 0
    shown: list[BijoySample] = []
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


def list_workspace_dialects(ws: Workspace) -> list[DialectInfo]:
    """``upabhasha dialects list`` for the GUI: codes, names, aliases and counts."""
    return list_dialects(ws)


def add_dialect_at(workspace_path: str, code: str, fields: dict) -> DialectInfo:
    """``upabhasha dialects add`` for the GUI (writer lane)."""
    with Workspace(workspace_path, create=False) as ws:
        return add_dialect(ws, code, **fields)


def workspace_dialects(ws: Workspace) -> list[DialectNames]:
    """Regional dialects known to the workspace, with names, in code order."""
    rows = ws.query(
        "SELECT code, name_bn, name_en FROM dialects WHERE code != 'standard' ORDER BY code"
    )
    return cast("list[DialectNames]", rows)


def import_with(
    importer: Callable[..., Reports[ReportDict]],
    allowed: tuple[str, ...],
    workspace_path: str,
    path: str,
    options: dict,
    *,
    progress=None,
    cancelled=None,
    **fixed,
) -> ReportDict:
    """Run one importer on its own connection (the writer lane) with the dialog's options
    it takes (``allowed``); returns its report as a dict. Shared by every stage's import
    task (corpus, questions, scored translations, task items, probes)."""
    kwargs = {k: v for k, v in options.items() if k in allowed}
    with Workspace(workspace_path, create=False) as ws:
        report = importer(ws, Path(path), progress=progress, cancelled=cancelled, **fixed, **kwargs)
    return report.to_dict()


def import_corpus_at(workspace_path: str, path: str, options: dict, **progress) -> ImportReportDict:
    """Import a parallel corpus (all-or-nothing); returns the report as a dict."""
    return import_with(import_corpus, CORPUS_OPTIONS, workspace_path, path, options, **progress)


def import_questions_at(
    workspace_path: str, path: str, options: dict, **progress
) -> ImportReportDict:
    """Import a question set (all-or-nothing); returns the report as a dict."""
    return import_with(
        import_questions, QUESTION_OPTIONS, workspace_path, path, options, **progress
    )


def import_scored_at(workspace_path: str, path: str, options: dict, **progress) -> ImportReportDict:
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


# What each kind of report counts ("questions" for the kinds not named), marked for the
# catalogue: the report words it in the interface language.
NOUNS = {"corpus": N_("pairs"), "items": N_("items"), "scored-translations": N_("segments")}

# The kinds of records an import merges or counts (engine.importing.importers and
# scored_import, engine.understanding.items name them in English), marked for the catalogue
# so that the report shows them in the interface language.
MERGE_KINDS = (
    N_("identical pairs merged"),
    N_("pairs merged as equal once normalised"),
    N_("identical items merged"),
    N_("items merged as equal once normalised"),
    N_("identical rows merged"),
    N_("rows of one segment id merged"),
    N_("(source, output) pairs merged as equal once normalised"),
    N_("repeated (source, output) pairs merged"),
    N_("repeated sources, their other outputs numbered by position"),
    N_("rows adding another annotator's score to their segment"),
)


def describe_report(
    report: Mapping[str, Any], dialect_names: Mapping[str, str] | None = None
) -> list[str]:
    """The report as short lines for a dialog, in the interface language (counts per dialect,
    warnings). Names and the engine's own notes are quoted as they are; a dialect code is
    shown by its name in ``dialect_names`` when the front end gives one."""
    what = _(NOUNS.get(report["kind"]) or N_("questions"))
    lines = [
        _(
            "{name}: {rows:,} rows read, {new:,} new {what}, {present:,} already present, "
            "{repeated:,} repeated in the file"
        ).format(
            name=report["name"],
            rows=report["rows_read"],
            new=report["inserted"],
            what=what,
            present=report["already_present"],
            repeated=report["duplicates_in_file"],
        )
    ]
    for kind, entry in report.get("merges", {}).items():
        lines.append(_("{kind}: {counted}").format(kind=_(kind), counted=_counted(entry)))
    if report.get("skipped_empty"):
        lines.append(
            _("rows skipped for an empty required cell: {counted}").format(
                counted=_counted(report["skipped_empty"])
            )
        )
    if report.get("split_note"):
        lines.append(report["split_note"])
    if report.get("variants_inserted") and report["kind"] == "scored-translations":
        lines.append(_("{n:,} human scores written").format(n=report["variants_inserted"]))
    elif report.get("variants_inserted"):
        lines.append(
            _("{n:,} variants written (standard + dialect renderings)").format(
                n=report["variants_inserted"]
            )
        )
    if report.get("empty_cells_skipped"):
        lines.append(_("{n:,} empty dialect cells skipped").format(n=report["empty_cells_skipped"]))
    if report.get("dialect_names"):
        names = ", ".join(f"{k} → {v}" for k, v in report["dialect_names"].items())
        lines.append(_("dialect names read as codes: {names}").format(names=names))
    if report.get("bijoy_converted"):
        lines.append(
            _("{n:,} Bijoy cells converted to Unicode").format(n=report["bijoy_converted"])
        )
    if report.get("unused_columns"):
        lines.append(
            _("columns not used: {columns}").format(columns=", ".join(report["unused_columns"]))
        )
    for code, info in sorted(report.get("by_dialect", {}).items()):
        line = _dialect_line(info)
        if line:
            lines.append(f"  {(dialect_names or {}).get(code, code)}: {line}")
    lines += [_("warning: {message}").format(message=w) for w in report.get("warnings", [])]
    return lines


def _counted(entry: dict) -> str:
    """ "3 (lines 4, 9, 12)" for a counted kind, in the interface language."""
    numbers = ", ".join(digits(n) for n in entry["first_lines"])
    if entry["count"] > len(entry["first_lines"]):
        numbers += ", …"
    if entry["count"] > 1:
        return _("{n:,} (lines {numbers})").format(n=entry["count"], numbers=numbers)
    return _("{n:,} (line {numbers})").format(n=entry["count"], numbers=numbers)


def _dialect_line(info: object) -> str:
    """One dialect's counts in a report's ``by_dialect`` (empty for an entry it does not know)."""
    if not isinstance(info, dict):
        return ""
    if "pairs" in info:
        if not info.get("splits"):
            return _("{n:,} pairs ({new:,} new)").format(n=info["pairs"], new=info["inserted"])
        return _("{n:,} pairs ({new:,} new; {splits})").format(
            n=info["pairs"], new=info["inserted"], splits=_splits(info["splits"].items())
        )
    if "items" in info:
        return _("{n:,} items ({splits})").format(
            n=info["items"], splits=_splits(sorted(info["splits"].items()))
        )
    if "segments" in info:
        return _("{n:,} segments").format(n=info["segments"])
    if "variants" in info:
        return _("{n:,} variants ({new:,} new)").format(n=info["variants"], new=info["inserted"])
    return ""


def _splits(counts) -> str:
    """ "train 1,200, test 300": each split's name and count."""
    names = {"train": _("train"), "validation": _("validation"), "dev": _("dev"), "test": _("test")}
    return ", ".join(f"{names.get(name, name)} {digits(format(n, ','))}" for name, n in counts)


def record_segment_score_at(
    workspace_path: str, segment_id: int, annotator: str, score: float
) -> SegmentScore:
    """:func:`record_segment_score` on its own connection (the GUI's writer lane)."""
    with Workspace(workspace_path, create=False) as ws:
        return record_segment_score(ws, segment_id, annotator, score)
