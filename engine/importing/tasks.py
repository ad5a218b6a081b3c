"""Background tasks and reads of the import dialog (Qt-free; run through the task bridge).

The tasks take plain values (the workspace path, the file path, an options dict) and open
their own workspace connection, so the import runs on the writer lane without sharing the
GUI thread's connection. The reads guess a column mapping from a file's real header.
"""

from __future__ import annotations

import logging
from pathlib import Path

from engine.importing.tabular import TabularFile
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
    "file_format",
)


def read_columns(path: str) -> list[str]:
    """The header of a tabular file (no row count: the dialog asks before the import)."""
    with TabularFile(path, precount=False) as table:
        return [c for c in table.columns if c]


def _first(columns: list[str], names: tuple[str, ...]) -> str | None:
    folded = {c.casefold(): c for c in columns}
    return next((folded[n] for n in names if n in folded), None)


def guess_corpus_mapping(columns: list[str], dialect_codes: set[str]) -> dict:
    """A starting mapping the user then corrects: long when a dialect-code column exists,
    wide when columns are named by dialect codes (Vashantor's multiway file)."""
    regional = dialect_codes - {"standard"}
    dialect_named = {c.casefold(): c for c in columns if c.casefold() in regional}
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
    regional = dialect_codes - {"standard"}
    return {
        "text_col": _first(columns, QUESTION_NAMES),
        "id_col": _first(columns, ("id", "question_id", "qid")),
        "type_col": _first(columns, ("question_type", "type")),
        "domain_col": _first(columns, ("domain",)),
        "gloss_col": _first(columns, ("gloss_en", "gloss", "english")),
        "dialect_cols": {c.casefold(): c for c in columns if c.casefold() in regional},
    }


def workspace_dialects(ws: Workspace) -> list[dict]:
    """Regional dialects known to the workspace, with names, in code order."""
    return ws.query(
        "SELECT code, name_bn, name_en FROM dialects WHERE code != 'standard' ORDER BY code"
    )


def import_corpus_file(
    workspace_path: str, path: str, options: dict, *, progress=None, cancelled=None
) -> dict:
    """Import a parallel corpus (all-or-nothing); returns the report as a dict."""
    from engine.importing.importers import import_corpus

    kwargs = {k: v for k, v in options.items() if k in CORPUS_OPTIONS}
    with Workspace(workspace_path, create=False) as ws:
        report = import_corpus(ws, Path(path), progress=progress, cancelled=cancelled, **kwargs)
    return report.to_dict()


def import_questions_file(
    workspace_path: str, path: str, options: dict, *, progress=None, cancelled=None
) -> dict:
    """Import a question set (all-or-nothing); returns the report as a dict."""
    from engine.importing.importers import import_questions

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
