"""Question-set import (the public entry point is :func:`engine.importing.importers.import_questions`)."""

from __future__ import annotations

import collections
import dataclasses
import logging
from pathlib import Path

from engine.importing.columns import (
    Cancelled,
    CellReader,
    ImportReport,
    Progress,
    Ticker,
    default_name,
    dialect_columns,
)
from engine.importing.tabular import TabularFile
from engine.textnorm import canonical_key, has_bengali
from engine.workspace.store import Workspace, utcnow

log = logging.getLogger(__name__)

# Dialect renderings that arrive with the questions were written by people, but not by
# our reviewers: 'reviewed', never 'gold'. The standard text is the question itself.
SOURCE_VARIANT_STATUS = "reviewed"
STANDARD_VARIANT_STATUS = "gold"


@dataclasses.dataclass
class _Question:
    line: int
    text: str
    key: str
    ext_id: str
    question_type: int | None
    domain: str | None
    gloss: str
    renderings: dict[str, str]  # dialect code -> text


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
) -> ImportReport:
    known = ws.dialect_codes()
    report = ImportReport(kind="questions", path=str(path), name=default_name(path, name))
    questions: list[_Question] = []
    with TabularFile(path, file_format) as table:
        cells, ticker = CellReader(table), Ticker(table, progress, cancelled)
        report.file_format = table.format
        text_column = cells.column(text_col, "question text")
        columns = {
            "id": cells.optional_column(id_col, "id", "question id"),
            "type": cells.optional_column(type_col, "question_type", "question type"),
            "domain": cells.optional_column(domain_col, "domain", "domain"),
            "gloss": cells.optional_column(gloss_col, "gloss_en", "English gloss"),
        }
        by_column = dialect_columns(cells, known, dialect_cols, {text_column, *columns.values()})
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
                _Question(
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
    ticker.check_cancel()
    report.records = len(questions)
    unique: dict[str, _Question] = {}
    for question in questions:
        if unique.setdefault(question.key, question) is not question:
            report.duplicates_in_file += 1
    repeats = [q.line for q in questions if unique[q.key] is not q]
    if repeats:
        report.warnings.append(
            f"questions repeating an earlier one of the file (same "
            f"normalised text): {len(repeats):,} (first at line "
            f"{repeats[0]}); the first occurrence was kept"
        )
    no_bengali = [q.line for q in unique.values() if not has_bengali(q.text)]
    if no_bengali:
        report.warnings.append(
            f"questions without Bengali letters: {len(no_bengali):,} "
            f"(first at line {no_bengali[0]})"
        )
    _write_questions(ws, path, list(unique.values()), report, ticker)
    return report


def _write_questions(
    ws: Workspace, path: Path, questions: list[_Question], report: ImportReport, ticker: Ticker
) -> None:
    now = utcnow()
    with ws.transaction() as conn:
        conn.execute(
            "INSERT INTO question_sets(name, source, created_at) VALUES (?, ?, ?) "
            "ON CONFLICT(name) DO NOTHING",
            (report.name, str(path), now),
        )
        set_id = conn.execute(
            "SELECT id FROM question_sets WHERE name = ?", (report.name,)
        ).fetchone()[0]
        report.target_id = set_id
        ticker.note(0, 2, "writing questions")
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
            variants["standard"].append((ids[q.key], "standard", q.text, STANDARD_VARIANT_STATUS))
            for code, text in q.renderings.items():
                variants[code].append((ids[q.key], code, text, SOURCE_VARIANT_STATUS))
        ticker.note(1, 2, "writing variants")
        for code, rows in sorted(variants.items()):
            before = conn.total_changes
            conn.executemany(
                "INSERT INTO variants(question_id, dialect, script, text, provenance, status, "
                "updated_at) VALUES (?, ?, 'bengali', ?, 'source', ?, ?) "
                "ON CONFLICT(question_id, dialect, script) DO NOTHING",
                [(*r, now) for r in rows],
            )
            inserted = conn.total_changes - before
            report.variants_inserted += inserted
            report.by_dialect[code] = {
                "variants": len(rows),
                "inserted": inserted,
                "already_present": len(rows) - inserted,
            }
        ticker.note(2, 2, "written")
    log.info(
        "imported question set %s from %s: %d new questions, %d already present",
        report.name,
        path,
        report.inserted,
        report.already_present,
    )
