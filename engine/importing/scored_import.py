"""Import scored translations: system outputs with references and human scores.

The classic metric-validation study (IndicMT-Eval, WMT DA/MQM): a file of segments, each a
source, one system's hypothesis, one or more references, and one or more human scores.
Columns are mapped by the caller; CSV/TSV/JSON/JSONL/XLSX are read by
:class:`engine.importing.tabular.TabularFile`.

- Human scores carry a declared scale (``human_scale``, required): a score outside it is
  refused naming line and column; an empty or NaN score is missing (counted, not stored).
- Scores come wide (``score_cols``: one column per annotator, named by the column) or long
  (``score_col`` + ``annotator_col``: one row per annotator; rows repeating a segment are
  joined on (system, segment id)).
- A segment is identified by ``seg_id_col`` when given, else by its normalised source.

All-or-nothing as every import: everything is validated first, then written in one
transaction; re-importing the same file adds nothing.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import math
from pathlib import Path

from engine.errors import UserError
from engine.importing.columns import (
    Cancelled,
    CellReader,
    ImportReport,
    Progress,
    Ticker,
    default_name,
)
from engine.importing.dialects import DialectResolver
from engine.importing.importers import variant_columns
from engine.importing.tabular import TabularFile
from engine.scales import Scale, check_on_scale, scale_text
from engine.textnorm import canonical_key, to_ascii_digits
from engine.workspace.store import Workspace, utcnow

log = logging.getLogger(__name__)


@dataclasses.dataclass
class _Segment:
    line: int
    system: str
    seg_key: str
    source: str
    hypothesis: str
    references: list[str]
    scores: dict[str, float]  # annotator -> score


def import_scored_translations(
    ws: Workspace,
    path: str | Path,
    *,
    human_scale: Scale,
    name: str | None = None,
    source_col: str = "source",
    hyp_col: str = "hypothesis",
    ref_cols: str = "reference",
    system_col: str | None = "system",
    system: str | None = None,
    score_cols: str | None = None,
    score_col: str | None = None,
    annotator_col: str | None = None,
    annotator: str | None = None,
    seg_id_col: str | None = None,
    dialect: str | None = None,
    convert_bijoy: bool = False,
    file_format: str | None = None,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> ImportReport:
    """Import a scored-translation file into the set ``name`` (default: the file name).

    ``ref_cols``/``score_cols``: comma-separated names or globs (``ref*``). Wide scores:
    ``score_cols`` (annotator = column name). Long scores: ``score_col`` with
    ``annotator_col`` or one fixed ``annotator``. ``system`` names the one system of a file
    without a system column. ``dialect`` (code or alias) records the target dialect."""
    path = Path(path)
    lo, hi = human_scale
    if not lo < hi:
        raise UserError(f"the human scale needs MIN < MAX, not {scale_text(human_scale)}")
    if (score_cols is None) == (score_col is None):
        raise UserError(
            "name the human scores with either --score-cols (one column per annotator) or "
            "--score-col with --annotator-col / --annotator (one row per annotator)"
        )
    code = None
    if dialect is not None:
        code = DialectResolver(ws).resolve(dialect, _raise, allow_standard=True)
    report = ImportReport(kind="scored-translations", path=str(path), name=default_name(path, name))
    segments: dict[tuple[str, str], _Segment] = {}
    missing = 0
    with TabularFile(path, file_format) as table:
        cells = CellReader(table, convert_bijoy=convert_bijoy)
        ticker = Ticker(table, progress, cancelled)
        report.file_format, report.columns = table.format, list(table.columns)
        src = cells.column(source_col, "source", "--source-col")
        hyp = cells.column(hyp_col, "system output", "--hyp-col")
        refs = variant_columns(cells, ref_cols)
        sys_col = (
            None
            if system is not None
            else cells.column(
                system_col or "system", "system name", "--system-col (or --system NAME)"
            )
        )
        id_col = cells.column(seg_id_col, "segment id", "--seg-id-col") if seg_id_col else None
        score_column = ""
        ann_col = None
        if score_cols is not None:
            wide = variant_columns(cells, score_cols)
        else:
            wide = []
            score_column = cells.column(score_col or "score", "human score", "--score-col")
            ann_col = (
                None
                if annotator is not None
                else cells.column(annotator_col or "annotator", "annotator", "--annotator-col")
            )
        for line, row in table:
            report.rows_read += 1
            ticker.row(report.rows_read)
            source = cells.text(line, row, src, required=True)
            hypothesis = cells.text(line, row, hyp, bengali=True)
            references = [t for c in refs if (t := cells.text(line, row, c, bengali=True))]
            if not references:
                cells.reject("no reference (every reference column is empty)", line, refs[0])
            name_ = system if system is not None else cells.text(line, row, sys_col, required=True)
            seg_key = (
                cells.text(line, row, id_col, required=True) if id_col else canonical_key(source)
            )
            if wide:
                raw = {c: cells.text(line, row, c) for c in wide}
            else:
                who = (
                    annotator
                    if annotator is not None
                    else cells.text(line, row, ann_col, required=True)
                )
                raw = {who: cells.text(line, row, score_column)}
            scores: dict[str, float] = {}
            for who, text in raw.items():
                column = who if wide else score_column
                value = _score(cells, line, column, text)
                if value is None:
                    missing += 1
                    continue
                problem = check_on_scale(value, human_scale)
                if problem:
                    cells.reject(f"human score {problem}", line, column)
                scores[who] = value
            key = (name_, seg_key)
            seen = segments.get(key)
            if seen is None:
                segments[key] = _Segment(
                    line, name_, seg_key, source, hypothesis, references, scores
                )
                continue
            if (seen.source, seen.hypothesis) != (source, hypothesis):
                cells.reject(
                    f"segment '{seg_key}' of system '{name_}' appears at line {seen.line} with "
                    "another source or output; give a segment id column with --seg-id-col",
                    line,
                )
            for who, value in scores.items():
                if who in seen.scores and seen.scores[who] != value:
                    cells.reject(
                        f"annotator '{who}' scored segment '{seg_key}' of '{name_}' twice "
                        f"({seen.scores[who]:g} at line {seen.line})",
                        line,
                    )
                seen.scores[who] = value
            seen.references += [r for r in references if r not in seen.references]
        report.unused_columns = cells.unused()
        report.bijoy_converted = cells.bijoy_converted
    ticker.check_cancel()
    report.records = len(segments)
    report.empty_cells_skipped = missing
    if missing:
        report.warnings.append(f"empty or NaN human scores left out: {missing:,}")
    _write(ws, path, list(segments.values()), report, human_scale, code)
    return report


def _raise(message: str):
    raise UserError(message)


def _score(cells: CellReader, line: int, column: str, text: str) -> float | None:
    if not text or text.casefold() in ("nan", "na", "n/a", "none", "null"):
        return None
    try:
        value = float(to_ascii_digits(text))
    except ValueError:
        cells.reject(f"human score '{text}' is not a number", line, column)
    return None if math.isnan(value) else value


def _write(
    ws: Workspace,
    path: Path,
    segments: list[_Segment],
    report: ImportReport,
    scale: Scale,
    dialect: str | None,
) -> None:
    now = utcnow()
    with ws.transaction() as conn:
        row = conn.execute(
            "SELECT id, scale_min, scale_max FROM scored_sets WHERE name = ?", (report.name,)
        ).fetchone()
        if row is not None and (row[1], row[2]) != tuple(scale):
            raise UserError(
                f"scored set '{report.name}' holds scores on {scale_text((row[1], row[2]))}, "
                f"not {scale_text(scale)}; import into another set (--name)"
            )
        if row is None:
            conn.execute(
                "INSERT INTO scored_sets(name, source, scale_min, scale_max, dialect, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (report.name, str(path), scale[0], scale[1], dialect, now),
            )
        set_id = conn.execute(
            "SELECT id FROM scored_sets WHERE name = ?", (report.name,)
        ).fetchone()[0]
        report.target_id = set_id
        before = conn.total_changes
        conn.executemany(
            "INSERT INTO scored_segments(set_id, system, seg_key, source, hypothesis, refs, "
            "line) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(set_id, system, seg_key) DO NOTHING",
            [
                (
                    set_id,
                    s.system,
                    s.seg_key,
                    s.source,
                    s.hypothesis,
                    json.dumps(s.references, ensure_ascii=False),
                    f"{path.name}:{s.line}",
                )
                for s in segments
            ],
        )
        report.inserted = conn.total_changes - before
        report.already_present = len(segments) - report.inserted
        ids = {
            (r[0], r[1]): r[2]
            for r in conn.execute(
                "SELECT system, seg_key, id FROM scored_segments WHERE set_id = ?", (set_id,)
            )
        }
        before = conn.total_changes
        conn.executemany(
            "INSERT INTO scored_human(segment_id, annotator, score, created_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT(segment_id, annotator) DO NOTHING",
            [
                (ids[(s.system, s.seg_key)], who, value, now)
                for s in segments
                for who, value in s.scores.items()
            ],
        )
        report.variants_inserted = conn.total_changes - before  # human scores written
        systems: dict[str, int] = {}
        for s in segments:
            systems[s.system] = systems.get(s.system, 0) + 1
        report.by_dialect = {k: {"segments": v} for k, v in sorted(systems.items())}
    log.info("imported scored set %s from %s: %d segments", report.name, path, len(segments))


def record_segment_score(ws: Workspace, segment_id: int, annotator: str, score: float) -> dict:
    """Record (or replace) one annotator's score of one scored segment, on its set's scale."""
    row = ws.query(
        "SELECT s.id, t.scale_min, t.scale_max, t.name FROM scored_segments s "
        "JOIN scored_sets t ON t.id = s.set_id WHERE s.id = ?",
        (segment_id,),
    )
    if not row:
        raise UserError(f"no scored segment with id {segment_id}")
    scale = (row[0]["scale_min"], row[0]["scale_max"])
    problem = check_on_scale(float(score), scale)
    if problem or math.isnan(score):
        raise UserError(f"score {problem or 'NaN is not a score'} (set '{row[0]['name']}')")
    if not annotator.strip():
        raise UserError("the annotator must be named")
    with ws.transaction() as conn:
        conn.execute(
            "INSERT INTO scored_human(segment_id, annotator, score, created_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT(segment_id, annotator) DO UPDATE SET "
            "score = excluded.score, created_at = excluded.created_at",
            (segment_id, annotator.strip(), float(score), utcnow()),
        )
    return {
        "segment_id": segment_id,
        "annotator": annotator.strip(),
        "score": float(score),
        "scale": list(scale),
    }
