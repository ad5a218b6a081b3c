"""Question-set import: :func:`import_questions` reads a tabular file of base questions (and
any dialect renderings in it); :mod:`engine.importing.importers` re-exports it beside the
corpus import."""

from __future__ import annotations

import collections
import dataclasses
import logging
from pathlib import Path

from engine.errors import Setting, UserError, setting
from engine.i18n import N_, _
from engine.importing.columns import (
    Cancelled,
    CellReader,
    ImportReport,
    Progress,
    Ticker,
    default_name,
    dialect_columns,
)
from engine.importing.dialects import DialectResolver
from engine.importing.duplicates import refuse_duplicate_content
from engine.importing.tabular import TabularFile
from engine.text.bijoy import script_of
from engine.text.textnorm import canonical_key, has_bengali
from engine.workspace.store import Workspace, utcnow
from engine.workspace.variants import IMPORTED_VARIANT_STATUSES, insert_source_variants

log = logging.getLogger(__name__)

# Dialect renderings that arrive with the questions were written by people, but not by
# our reviewers: 'reviewed' by default; 'gold' only when the user asks for it explicitly.
SOURCE_VARIANT_STATUS = "reviewed"
STANDARD_VARIANT_STATUS = "gold"


@dataclasses.dataclass
class QuestionRow:
    """One question to write: its standard text and any dialect renderings it arrives with."""

    line: int  # where it was read (0: not from a file)
    text: str
    key: str  # engine.text.textnorm.canonical_key(text)
    ext_id: str
    question_type: int | None = None
    domain: str | None = None
    gloss: str = ""
    renderings: dict[str, str] = dataclasses.field(default_factory=dict)  # dialect -> text


def _script(text: str) -> str:
    return "roman" if script_of(text) == "roman" else "bengali"


def import_question_rows(
    ws: Workspace,
    path: Path,
    *,
    name: str | None,
    text_col: str,
    id_col: str | None,
    type_col: str | None,
    domain_col: str | None,
    gloss_col: str | None,
    dialect_cols: dict[str, str] | None,
    file_format: str | None,
    progress: Progress | None,
    cancelled: Cancelled | None,
    dialect_col: str | None = None,
    dialect_map: dict[str, str] | None = None,
    variant_status: str = SOURCE_VARIANT_STATUS,
    convert_bijoy: bool = False,
    allow_duplicate_content: bool = False,
) -> ImportReport:
    if variant_status not in IMPORTED_VARIANT_STATUSES:
        raise UserError(
            f"variant status must be one of {', '.join(IMPORTED_VARIANT_STATUSES)}, "
            f"not '{variant_status}'"
        )
    dialects = DialectResolver(ws, dialect_map)
    report = ImportReport(kind="questions", path=str(path), name=default_name(path, name))
    questions: list[QuestionRow] = []
    with TabularFile(path, file_format) as table:
        cells = CellReader(table, convert_bijoy=convert_bijoy)
        ticker = Ticker(table, progress, cancelled)
        report.file_format, report.columns = table.format, list(table.columns)
        text_column = cells.column(text_col, N_("question text"), Setting.QUESTION_TEXT_COL)
        columns = {
            "id": cells.optional_column(id_col, "id", "question id", Setting.ID_COL),
            "type": cells.optional_column(
                type_col, "question_type", "question type", Setting.TYPE_COL
            ),
            "domain": cells.optional_column(domain_col, "domain", "domain", Setting.DOMAIN_COL),
            "gloss": cells.optional_column(
                gloss_col, "gloss_en", "English gloss", Setting.GLOSS_COL
            ),
        }
        # A dialect field is never ignored: a column named 'dialect' makes the file long.
        code_column = cells.optional_column(dialect_col, "dialect", "dialect", Setting.DIALECT_COL)
        if code_column is not None:
            if columns["id"] is None:
                cells.reject(
                    f"a long question file (dialect column '{code_column}') needs an id column "
                    "grouping each question's standard text and dialect variants; name it "
                    f"with {setting(Setting.ID_COL)} (the file's columns: "
                    + ", ".join(repr(c) for c in table.columns if c)
                    + ")"
                )
            report.variant_status = variant_status
            questions = _read_long(
                cells, ticker, report, dialects, text_column, code_column, columns
            )
            report.unused_columns = cells.unused()
            report.bijoy_converted = cells.bijoy_converted
            return _finish(
                ws, path, questions, report, ticker, variant_status, allow_duplicate_content
            )
        by_column = dialect_columns(
            cells, dialects, dialect_cols, {text_column, *columns.values()}, report
        )
        report.variant_status = variant_status
        for line, row in table:
            report.rows_read += 1
            ticker.row(report.rows_read)
            text = cells.text(line, row, text_column, required=True, bengali=True)
            renderings = {
                code: t
                for code, col in by_column.items()
                if (t := cells.text(line, row, col, bengali=True))
            }
            report.empty_cells_skipped += len(by_column) - len(renderings)
            questions.append(
                QuestionRow(
                    line=line,
                    text=text,
                    key=canonical_key(text),
                    ext_id=cells.text(line, row, columns["id"]),
                    question_type=cells.question_type(line, row, columns["type"]),
                    domain=cells.domain(line, row, columns["domain"]),
                    gloss=cells.text(line, row, columns["gloss"]),
                    renderings=renderings,
                )
            )
        report.unused_columns = cells.unused()
        report.bijoy_converted = cells.bijoy_converted
    return _finish(ws, path, questions, report, ticker, variant_status, allow_duplicate_content)


def _read_long(
    cells: CellReader,
    ticker: Ticker,
    report: ImportReport,
    dialects: DialectResolver,
    text_column: str,
    code_column: str,
    columns: dict[str, str | None],
) -> list[QuestionRow]:
    """Long files: one row per (question id, dialect); the 'standard' row is the question."""
    rows: dict[str, dict] = {}
    order: list[str] = []
    for line, row in cells.table:
        report.rows_read += 1
        ticker.row(report.rows_read)
        ext_id = cells.text(line, row, columns["id"], required=True)
        raw = cells.text(line, row, code_column, required=True)
        code = dialects.resolve(
            raw,
            lambda msg: cells.reject(msg, line, code_column),  # noqa: B023 - called at once
            allow_standard=True,
        )
        if raw != code:
            report.dialect_names[raw] = code
        text = cells.text(line, row, text_column, required=True, bengali=True)
        group = rows.get(ext_id)
        if group is None:
            group = rows[ext_id] = {"renderings": {}, "lines": {}}
            order.append(ext_id)
        if code in group["lines"]:
            cells.reject(
                f"question '{ext_id}' already has a {code} text (line {group['lines'][code]})",
                line,
                code_column,
            )
        group["lines"][code] = line
        if code == "standard":
            group["standard"] = QuestionRow(
                line=line,
                text=text,
                key=canonical_key(text),
                ext_id=ext_id,
                question_type=cells.question_type(line, row, columns["type"]),
                domain=cells.domain(line, row, columns["domain"]),
                gloss=cells.text(line, row, columns["gloss"]),
                renderings={},
            )
        else:
            group["renderings"][code] = text
    questions = []
    for ext_id in order:
        group = rows[ext_id]
        if "standard" not in group:
            first = min(group["lines"].values())
            cells.reject(
                f"question '{ext_id}' has dialect texts but no standard row (dialect "
                "'standard'); every question needs its standard Bengali text",
                first,
                code_column,
            )
        question = group["standard"]
        question.renderings = group["renderings"]
        questions.append(question)
    return questions


def _finish(
    ws: Workspace,
    path: Path,
    questions: list[QuestionRow],
    report: ImportReport,
    ticker: Ticker,
    variant_status: str,
    allow_duplicate_content: bool = False,
) -> ImportReport:
    ticker.check_cancel()
    report.records = len(questions)
    unique: dict[str, QuestionRow] = {}
    for question in questions:
        if unique.setdefault(question.key, question) is not question:
            report.duplicates_in_file += 1
    repeats = [q.line for q in questions if unique[q.key] is not q]
    if repeats:
        report.warnings.append(
            _(
                "questions repeating an earlier one of the file (same normalised text): "
                "{n:,} (first at line {line}); the first occurrence was kept"
            ).format(n=len(repeats), line=repeats[0])
        )
    report.romanized = sum(
        _script(t) == "roman" for q in unique.values() for t in (q.text, *q.renderings.values())
    )
    if report.romanized:
        report.warnings.append(
            f"Romanized (Latin-script) texts stored with script 'roman': {report.romanized:,}"
        )
    no_bengali = [q.line for q in unique.values() if not has_bengali(q.text)]
    if no_bengali:
        report.warnings.append(
            f"questions without Bengali letters: {len(no_bengali):,} "
            f"(first at line {no_bengali[0]})"
        )
    if not allow_duplicate_content:
        keys = [(q.key,) for q in unique.values()]
        refuse_duplicate_content(ws, "questions", report.name, str(path), keys)
    _write_questions(ws, str(path), list(unique.values()), report, ticker, variant_status)
    return report


def write_question_set(
    ws: Workspace, name: str, source: str, questions: list[QuestionRow]
) -> ImportReport:
    """Write (or extend) question set ``name`` with ``questions``, each with its standard
    variant (gold: the question text itself). The one writer of ``question_sets`` and
    ``questions`` for other stages' conversions too (engine.bias.dialects); idempotent on the
    normalised text."""
    report = ImportReport(kind="questions", path=source, name=name)
    report.records = len(questions)
    _write_questions(ws, source, questions, report, None, SOURCE_VARIANT_STATUS)
    return report


def _write_questions(
    ws: Workspace,
    source: str,
    questions: list[QuestionRow],
    report: ImportReport,
    ticker: Ticker | None,
    variant_status: str,
) -> None:
    now = utcnow()
    note = ticker.note if ticker is not None else lambda done, total, text: None
    with ws.transaction() as conn:
        conn.execute(
            "INSERT INTO question_sets(name, source, created_at) VALUES (?, ?, ?) "
            "ON CONFLICT(name) DO NOTHING",
            (report.name, source, now),
        )
        set_id = conn.execute(
            "SELECT id FROM question_sets WHERE name = ?", (report.name,)
        ).fetchone()[0]
        report.target_id = set_id
        note(0, 2, _("writing questions"))
        before = conn.total_changes
        conn.executemany(
            "INSERT INTO questions(set_id, ext_id, text, text_key, question_type, domain, "
            "gloss_en) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(set_id, text_key) DO NOTHING",
            [
                (set_id, q.ext_id, q.text, q.key, q.question_type, q.domain, q.gloss)
                for q in questions
            ],
        )
        report.inserted = conn.total_changes - before
        report.already_present = len(questions) - report.inserted
        ids = dict(
            conn.execute(
                "SELECT text_key, id FROM questions WHERE set_id = ?", (set_id,)
            ).fetchall()
        )
        variants: dict[str, list[tuple]] = collections.defaultdict(list)
        for q in questions:
            variants["standard"].append(
                (ids[q.key], "standard", _script(q.text), q.text, STANDARD_VARIANT_STATUS)
            )
            for code, text in q.renderings.items():
                variants[code].append((ids[q.key], code, _script(text), text, variant_status))
        note(1, 2, _("writing variants"))
        for code, rows in sorted(variants.items()):
            inserted = insert_source_variants(conn, rows, now)
            report.variants_inserted += inserted
            report.by_dialect[code] = {
                "variants": len(rows),
                "inserted": inserted,
                "already_present": len(rows) - inserted,
            }
        note(2, 2, _("written"))
    log.info(
        N_("imported question set %s from %s: %d new questions, %d already present"),
        report.name,
        source,
        report.inserted,
        report.already_present,
    )


def import_questions(
    ws: Workspace,
    path: str | Path,
    *,
    name: str | None = None,
    text_col: str = "question",
    id_col: str | None = None,
    type_col: str | None = None,
    domain_col: str | None = None,
    gloss_col: str | None = None,
    dialect_cols: dict[str, str] | None = None,
    dialect_col: str | None = None,
    dialect_map: dict[str, str] | None = None,
    variant_status: str = "reviewed",
    convert_bijoy: bool = False,
    allow_duplicate_content: bool = False,
    file_format: str | None = None,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> ImportReport:
    """Import base questions (standard Bengali) into a question set.

    Optional columns given as None use "id", "question_type", "domain" and "gloss_en" when
    present. Wide files: columns named by a dialect code or alias (or mapped by
    ``dialect_cols``) hold existing dialect renderings. Long files: a dialect column
    (``dialect_col``, default 'dialect' when present, never ignored) says which dialect each
    row's text is in; rows sharing an id are one question, whose 'standard' row is the
    question text. Dialect renderings become variants with provenance 'source' and
    ``variant_status`` ('reviewed' by default; 'gold' only when asked for), script 'roman'
    when Romanized. Every question also gets its 'standard' variant (status 'gold').
    """
    return import_question_rows(
        ws,
        Path(path),
        name=name,
        text_col=text_col,
        id_col=id_col,
        type_col=type_col,
        domain_col=domain_col,
        gloss_col=gloss_col,
        dialect_cols=dialect_cols,
        dialect_col=dialect_col,
        dialect_map=dialect_map,
        variant_status=variant_status,
        convert_bijoy=convert_bijoy,
        allow_duplicate_content=allow_duplicate_content,
        file_format=file_format,
        progress=progress,
        cancelled=cancelled,
    )
