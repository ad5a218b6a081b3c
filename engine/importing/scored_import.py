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
- A segment is identified by ``seg_id_col`` when given, else by its normalised source (a
  second output of the same system for that source is ``<source>#2``, by position).
- Several human measures (DA, MQM) are named measures, each its own set on its own scale;
  several annotators of one measure are averaged only when the import says so.
- A declared scale the scores use less than a tenth of is refused (0–1 scores declared
  0–100), naming the observed range and ``--accept-scale``.

All-or-nothing as every import: everything is validated first, then written in one
transaction; re-importing the same file adds nothing.
"""

# Stays whole: it is the one writer of scored_sets, scored_segments and scored_human, and the
# validation and the all-or-nothing write share its channel and segment types.
from __future__ import annotations

import dataclasses
import json
import logging
import math
from collections.abc import Sequence
from pathlib import Path
from typing import TypedDict

from engine.errors import Setting, UserError, setting, setting_usage
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
from engine.scales import (
    Scale,
    check_on_scale,
    implausible_scale,
    parse_number,
    parse_scale,
    scale_text,
)
from engine.text.textnorm import (
    DEFAULT_NORMALIZATION,
    check_normalization,
    record_key,
    to_ascii_digits,
)
from engine.workspace.store import Workspace, utcnow

log = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class Measure:
    """One human measure of a file (``--measure da=da_norm_score:0-1``): its name, its
    column and its scale. Each measure becomes a set of its own, ``<set>/<measure>``."""

    name: str
    column: str
    scale: Scale


def parse_measure(text: str) -> Measure:
    """'NAME=COLUMN:MIN-MAX' -> :class:`Measure` (the column may contain ':' itself)."""
    name, sep, rest = text.partition("=")
    column, colon, scale = rest.rpartition(":")
    if not sep or not colon or not name.strip() or not column.strip():
        raise UserError(
            f"{setting(Setting.MEASURE)} expects NAME=COLUMN:MIN-MAX (da=da_score:0-1), "
            f"not '{text}'"
        )
    return Measure(name.strip(), column.strip(), parse_scale(scale))


@dataclasses.dataclass
class _Channel:
    """Where one set's scores come from: wide columns (annotator = column, or the measure's
    name) or a long score column with its annotator column or fixed annotator."""

    set_name: str
    scale: Scale
    wide: dict[str, str]  # column -> annotator
    long_column: str = ""
    annotator_col: str | None = None
    annotator: str | None = None


@dataclasses.dataclass
class _Segment:
    line: int
    system: str
    seg_key: str
    source: str
    hypothesis: str
    references: list[str]
    scores: dict[str, dict[str, float]]  # set name -> annotator -> score


def import_scored_translations(
    ws: Workspace,
    path: str | Path,
    *,
    human_scale: Scale | None = None,
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
    measures: Sequence[Measure] = (),
    average_annotators: bool = False,
    accept_scale: bool = False,
    seg_id_col: str | None = None,
    positional_ids: bool = False,
    average_duplicates: bool = False,
    dialect: str | None = None,
    convert_bijoy: bool = False,
    normalize: str = DEFAULT_NORMALIZATION,
    skip_empty: bool = False,
    file_format: str | None = None,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> ImportReport:
    """Import a scored-translation file into the set ``name`` (default: the file name).

    ``ref_cols``/``score_cols``: comma-separated names or globs (``ref*``). Wide scores:
    ``score_cols`` (annotator = column name). Long scores: ``score_col`` with
    ``annotator_col`` or one fixed ``annotator``. Several *measures* (DA and MQM are not two
    annotators): ``measures``, each its own set ``<name>/<measure>`` on its own scale.
    A segment scored by several annotators is refused unless ``average_annotators`` says
    they may be averaged (the summary counts those segments). A declared scale that the
    scores use less than a tenth of is refused unless ``accept_scale``
    (:func:`engine.scales.implausible_scale`). ``system`` names the one system of a file
    without a system column. ``dialect`` (code or alias) records the target dialect.
    ``normalize`` "none" stores source, output and references exactly as the file has them
    (the metrics then reproduce sacrebleu on the raw file); the set records the choice.
    Without ``seg_id_col`` a segment is its source (compared as ``normalize`` stores it:
    exactly as written under "none"); further outputs of one system for the same source are
    numbered by their position (``#2``, ``#3``; said in the summary). ``positional_ids``:
    every row is its own segment, numbered by its position in the file. A repeated (source,
    output) pair that an annotator scored differently is refused, unless
    ``average_duplicates`` averages those scores. Every merge and every numbered output is
    counted by kind with its first lines (``report.merges``). ``skip_empty``: a row with an
    empty source or no reference is skipped and counted instead of refusing the file."""
    path = Path(path)
    keep_raw = check_normalization(normalize) == "none"
    key_of = record_key(normalize)
    if seg_id_col and positional_ids:
        raise UserError(
            f"{setting(Setting.SEG_ID_COL)} and {setting(Setting.POSITIONAL_IDS)} both name "
            "the segments; give one"
        )
    if measures and (score_cols or score_col or human_scale):
        raise UserError(
            f"{setting(Setting.MEASURE)} names each score column with its own scale; leave out "
            f"{setting(Setting.SCORE_COLS)}, {setting(Setting.SCORE_COL)} and "
            f"{setting(Setting.HUMAN_SCALE)}"
        )
    if not measures:
        if human_scale is None:
            raise UserError(
                f"declare the scale of the human scores with {setting_usage(Setting.HUMAN_SCALE)}"
            )
        if not human_scale[0] < human_scale[1]:
            raise UserError(f"the human scale needs MIN < MAX, not {scale_text(human_scale)}")
        if (score_cols is None) == (score_col is None):
            raise UserError(
                f"name the human scores with either {setting(Setting.SCORE_COLS)} (one column "
                f"per annotator) or {setting(Setting.SCORE_COL)} with "
                f"{setting(Setting.ANNOTATOR_COL)} / {setting(Setting.ANNOTATOR)} (one row per "
                f"annotator), or several measures with {setting_usage(Setting.MEASURE)}"
            )
    if len({m.name for m in measures}) != len(measures):
        raise UserError(f"two {setting(Setting.MEASURE)} options share a name")
    code = None
    if dialect is not None:
        code = DialectResolver(ws).resolve(dialect, _raise, allow_standard=True)
    report = ImportReport(kind="scored-translations", path=str(path), name=default_name(path, name))
    segments: dict[tuple[str, str], _Segment] = {}
    outputs_of: dict[tuple[str, str], list[tuple[str, str]]] = {}
    numbered = 0
    missing = 0
    repeated: dict[tuple, list[float]] = {}  # (segment, set, annotator) -> scores to average
    with TabularFile(path, file_format) as table:
        cells = CellReader(table, convert_bijoy=convert_bijoy)
        ticker = Ticker(table, progress, cancelled)
        report.file_format, report.columns = table.format, list(table.columns)
        src = cells.column(source_col, "source", Setting.SOURCE_COL)
        hyp = cells.column(hyp_col, "system output", Setting.HYP_COL)
        refs = variant_columns(cells, ref_cols, Setting.REF_COLS, "references")
        sys_col = (
            None
            if system is not None
            else cells.column(
                system_col or "system", "system name", Setting.SYSTEM_COL, Setting.SYSTEM
            )
        )
        id_col = cells.column(seg_id_col, "segment id", Setting.SEG_ID_COL) if seg_id_col else None
        channels = _channels(
            cells,
            report.name,
            human_scale,
            score_cols,
            score_col,
            annotator_col,
            annotator,
            measures,
        )
        for line, row in table:
            report.rows_read += 1
            ticker.row(report.rows_read)
            source = cells.text(line, row, src, required=not skip_empty, raw=keep_raw)
            hypothesis = cells.text(line, row, hyp, bengali=True, raw=keep_raw)
            references = [
                t for c in refs if (t := cells.text(line, row, c, bengali=True, raw=keep_raw))
            ]
            if skip_empty and not (source and references):
                report.skipped(line)
                continue
            if not references:
                cells.reject("no reference (every reference column is empty)", line, refs[0])
            name_ = system if system is not None else cells.text(line, row, sys_col, required=True)
            if id_col:
                seg_key = cells.text(line, row, id_col, required=True)
            elif positional_ids:
                seg_key = f"#{report.rows_read}"
            else:
                # several outputs of one system for one source: numbered by position
                base = key_of(source)
                seen_outputs = outputs_of.setdefault((name_, base), [])
                if (source, hypothesis) not in seen_outputs:
                    seen_outputs.append((source, hypothesis))
                    if len(seen_outputs) > 1:
                        numbered += 1
                        report.counted(NUMBERED, line)
                position = seen_outputs.index((source, hypothesis)) + 1
                seg_key = base if position == 1 else f"{base}#{position}"
            scores: dict[str, dict[str, float]] = {}
            for channel in channels:
                mine = scores.setdefault(channel.set_name, {})
                for column, who, text in _cells(cells, line, row, channel):
                    value = _score(cells, line, column, text)
                    if value is None:
                        missing += 1
                        continue
                    problem = check_on_scale(value, channel.scale)
                    if problem:
                        cells.reject(f"human score {problem}", line, column)
                    mine[who] = value
            key = (name_, seg_key)
            seen = segments.get(key)
            if seen is None:
                segments[key] = _Segment(
                    line, name_, seg_key, source, hypothesis, references, scores
                )
                continue
            scored = [
                (seen.scores.get(n, {}), w, v) for n, g in scores.items() for w, v in g.items()
            ]
            same_text = (seen.source, seen.hypothesis) == (source, hypothesis)
            if same_text and scored and all(w not in held for held, w, _ in scored):
                report.counted(ANNOTATOR_ROWS, line)  # long scores: one row per annotator
            else:
                identical = (
                    same_text
                    and seen.references == references
                    and all(held.get(w) == v for held, w, v in scored)
                )
                report.merged(_merge_kind(seen, source, identical, bool(id_col)), line)
            if (seen.source, seen.hypothesis) != (source, hypothesis):
                cells.reject(
                    f"segment '{seg_key}' of system '{name_}' appears at line {seen.line} with "
                    "another source or output; segment ids must be unique per system",
                    line,
                )
            for set_name, given in scores.items():
                held = seen.scores.setdefault(set_name, {})
                for who, value in given.items():
                    if who in held and held[who] != value and not average_duplicates:
                        cells.reject(
                            f"annotator '{who}' scored segment '{seg_key}' of '{name_}' twice "
                            f"({held[who]:g} at line {seen.line}, {value:g} here); "
                            + REPEATED_PAIR_ADVICE,
                            line,
                        )
                    if who in held:
                        repeated.setdefault((key, set_name, who), [held[who]]).append(value)
                    else:
                        held[who] = value
            seen.references += [r for r in references if r not in seen.references]
        report.unused_columns = cells.unused()
        report.bijoy_converted = cells.bijoy_converted
    ticker.check_cancel()
    for (key, set_name, who), values in repeated.items():  # asked for: average_duplicates
        segments[key].scores[set_name][who] = sum(values) / len(values)
    averaged = len({k[0] for k, values in repeated.items() if len(set(values)) > 1})
    if averaged:
        report.warnings.append(
            f"repeated (source, output) pairs scored differently, their scores averaged: "
            f"{averaged:,}"
        )
    report.records = len(segments)
    report.empty_cells_skipped = missing
    if missing:
        report.warnings.append(f"empty or NaN human scores left out: {missing:,}")
    if numbered:
        report.warnings.append(
            "outputs numbered by their position within a source "
            f"(no {setting(Setting.SEG_ID_COL)}; another "
            f"output of the same system has that source): {numbered:,}"
        )
    report.sets = [
        _check_set(channel, list(segments.values()), average_annotators, accept_scale)
        for channel in channels
    ]
    for info in report.sets:
        if info["averaged_segments"]:
            report.warnings.append(
                f"{info['name']}: segments scored by several annotators, averaged in "
                f"eval-metrics: {info['averaged_segments']:,}"
            )
    _write(ws, path, list(segments.values()), report, channels, code, normalize)
    return report


# The ways out when one (source, output) pair repeats with another score.
REPEATED_PAIR_ADVICE = (
    f"if the rows are different segments, name them with {setting_usage(Setting.SEG_ID_COL)} "
    f"or number every row by its position with {setting(Setting.POSITIONAL_IDS)}; if they are "
    f"one segment scored twice, average the scores with {setting(Setting.AVERAGE_DUPLICATES)}"
)
NUMBERED = "repeated sources, their other outputs numbered by position"
ANNOTATOR_ROWS = "rows adding another annotator's score to their segment"


def _merge_kind(seen: _Segment, source: str, identical: bool, by_id: bool) -> str:
    """What kind of merge a row repeating the segment ``seen`` makes."""
    if identical:
        return "identical rows merged"
    if by_id:
        return "rows of one segment id merged"
    if seen.source != source:
        return "(source, output) pairs merged as equal once normalised"
    return "repeated (source, output) pairs merged"


def _channels(
    cells: CellReader,
    set_name: str,
    human_scale: Scale | None,
    score_cols: str | None,
    score_col: str | None,
    annotator_col: str | None,
    annotator: str | None,
    measures: Sequence[Measure],
) -> list[_Channel]:
    if measures:
        return [
            _Channel(
                f"{set_name}/{m.name}",
                m.scale,
                {cells.column(m.column, f"'{m.name}' scores", Setting.MEASURE): m.name},
            )
            for m in measures
        ]
    assert human_scale is not None
    if score_cols is not None:
        wide = variant_columns(cells, score_cols, Setting.SCORE_COLS, "human scores")
        return [_Channel(set_name, human_scale, {c: c for c in wide})]
    return [
        _Channel(
            set_name,
            human_scale,
            {},
            long_column=cells.column(score_col or "score", "human score", Setting.SCORE_COL),
            annotator_col=None
            if annotator is not None
            else cells.column(
                annotator_col or "annotator", "annotator", Setting.ANNOTATOR_COL, Setting.ANNOTATOR
            ),
            annotator=annotator,
        )
    ]


def _cells(cells: CellReader, line: int, row, channel: _Channel):
    """(column, annotator, cell text) of one row's scores for ``channel``."""
    if channel.wide:
        for column, who in channel.wide.items():
            yield column, who, cells.text(line, row, column)
        return
    who = (
        channel.annotator
        if channel.annotator is not None
        else cells.text(line, row, channel.annotator_col, required=True)
    )
    yield channel.long_column, who, cells.text(line, row, channel.long_column)


def _check_set(
    channel: _Channel, segments: list[_Segment], average_annotators: bool, accept_scale: bool
) -> dict:
    """The scale check and the averaging rule of one set; its summary."""
    values = [v for s in segments for v in s.scores.get(channel.set_name, {}).values()]
    problem = implausible_scale(values, channel.scale)
    if problem and not accept_scale:
        raise UserError(
            f"{channel.set_name}: {problem}; declare the scale the file uses, or import "
            f"anyway with {setting(Setting.ACCEPT_SCALE)}"
        )
    several = [s for s in segments if len(s.scores.get(channel.set_name, {})) > 1]
    if several and not average_annotators:
        first = several[0]
        who = ", ".join(sorted(first.scores[channel.set_name]))
        raise UserError(
            f"{channel.set_name}: {len(several):,} segments have scores from several "
            f"annotators (first: '{first.seg_key}' of '{first.system}', line {first.line}: "
            f"{who}); eval-metrics would average them: say so with "
            f"{setting(Setting.AVERAGE_ANNOTATORS)}, or import different measures separately "
            f"with {setting_usage(Setting.MEASURE)}"
        )
    return {
        "name": channel.set_name,
        "scale": list(channel.scale),
        "observed": [min(values), max(values)] if values else None,
        "scores": len(values),
        "averaged_segments": len(several),
        "scale_check": problem or "ok",
    }


def _raise(message: str):
    raise UserError(message)


def _score(cells: CellReader, line: int, column: str, text: str) -> float | None:
    if not text or text.casefold() in ("nan", "na", "n/a", "none", "null"):
        return None
    value = parse_number(to_ascii_digits(text))  # strict: no '8_0', 'inf'
    if value is None:
        cells.reject(f"human score '{text}' is not a number", line, column)
    return value


def _write(
    ws: Workspace,
    path: Path,
    segments: list[_Segment],
    report: ImportReport,
    channels: list[_Channel],
    dialect: str | None,
    normalize: str,
) -> None:
    """Every set of the file in one transaction (all or nothing)."""
    now = utcnow()
    with ws.transaction() as conn:
        report.inserted = report.variants_inserted = 0
        for channel in channels:
            set_id = _set_row(conn, path, channel, dialect, normalize, now)
            report.target_id = report.target_id or set_id
            before = conn.total_changes
            conn.executemany(
                "INSERT INTO scored_segments(set_id, system, seg_key, source, hypothesis, "
                "refs, line) VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(set_id, system, seg_key) DO NOTHING",
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
            report.inserted = max(report.inserted, conn.total_changes - before)
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
                    for who, value in s.scores.get(channel.set_name, {}).items()
                ],
            )
            report.variants_inserted += conn.total_changes - before  # human scores written
        report.already_present = len(segments) - report.inserted
        systems: dict[str, int] = {}
        for s in segments:
            systems[s.system] = systems.get(s.system, 0) + 1
        report.by_dialect = {k: {"segments": v} for k, v in sorted(systems.items())}
    log.info("imported scored set %s from %s: %d segments", report.name, path, len(segments))


def _set_row(conn, path: Path, channel: _Channel, dialect, normalize: str, now: str) -> int:
    name, scale = channel.set_name, channel.scale
    row = conn.execute(
        "SELECT id, scale_min, scale_max, normalization FROM scored_sets WHERE name = ?", (name,)
    ).fetchone()
    if row is not None and (row[1], row[2]) != tuple(scale):
        raise UserError(
            f"scored set '{name}' holds scores on {scale_text((row[1], row[2]))}, "
            f"not {scale_text(scale)}; import into another set ({setting(Setting.SET_NAME)})"
        )
    if row is not None and row[3] != normalize:
        raise UserError(
            f"scored set '{name}' was imported with {setting(Setting.NORMALIZE, row[3])}, not "
            f"{normalize}; import into another set ({setting(Setting.SET_NAME)})"
        )
    if row is not None:
        return int(row[0])
    conn.execute(
        "INSERT INTO scored_sets(name, source, scale_min, scale_max, dialect, normalization, "
        "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (name, str(path), scale[0], scale[1], dialect, normalize, now),
    )
    return int(conn.execute("SELECT id FROM scored_sets WHERE name = ?", (name,)).fetchone()[0])


class SegmentScore(TypedDict):
    """:func:`record_segment_score`: the score recorded and its set's scale (min, max)."""

    segment_id: int
    annotator: str
    score: float
    scale: list[float]


def record_segment_score(
    ws: Workspace, segment_id: int, annotator: str, score: float
) -> SegmentScore:
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
