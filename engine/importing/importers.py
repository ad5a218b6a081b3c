"""Import parallel corpora and question sets from tabular files into a workspace (the
question import lives in :mod:`engine.importing.question_import`, re-exported here).

All-or-nothing: every row is read and validated first; only then is everything written in
one transaction with ``INSERT ... ON CONFLICT DO NOTHING`` on the natural keys, so a bad
row anywhere commits nothing and re-importing the same file adds nothing.
"""

from __future__ import annotations

import collections
import dataclasses
import fnmatch
import logging
from pathlib import Path
from typing import Literal

from engine.errors import Setting, UserError, setting, setting_usage
from engine.i18n import N_, _
from engine.importing.cells import cell_text
from engine.importing.columns import (
    Cancelled,
    CellReader,
    ImportCancelled,
    ImportReport,
    Progress,
    Ticker,
    check_dialect,
    default_name,
    dialect_columns,
    normalize_split,
    unsplit_note,
)
from engine.importing.dialects import DialectResolver
from engine.importing.duplicates import refuse_duplicate_content
from engine.importing.leading_token import apply_leading_token, detect_leading_token
from engine.importing.question_import import import_questions
from engine.importing.tabular import TabularFile
from engine.text.bijoy import banglish_share, script_of
from engine.text.textnorm import (
    DEFAULT_NORMALIZATION,
    check_normalization,
    has_bengali,
    normalize_text,
    record_key,
)
from engine.workspace.store import Workspace, utcnow

log = logging.getLogger(__name__)

__all__ = [
    "import_corpus",
    "import_questions",
    "ImportReport",
    "ImportCancelled",
    "detect_leading_token",
]


# the kinds of merge a corpus import counts
IDENTICAL = "identical pairs merged"
RESPELLED = "pairs merged as equal once normalised"


@dataclasses.dataclass
class _Pair:
    line: int
    standard: str
    text: str
    dialect: str
    district: str
    split: str
    column: str  # where ``text`` came from, for error messages
    written: tuple[str, str] = ("", "")  # both cells exactly as the file has them


def import_corpus(
    ws: Workspace,
    path: str | Path,
    *,
    fmt: Literal["long", "wide"] = "long",
    name: str | None = None,
    standard_col: str = "standard",
    dialect_text_col: str = "dialect_text",
    dialect_col: str = "dialect",
    dialect: str | None = None,
    district_col: str | None = None,
    district: str | None = None,
    split_col: str | None = None,
    split: str | None = None,
    dialect_cols: dict[str, str] | list[tuple[str, str]] | None = None,
    variant_cols: str | None = None,
    dialect_map: dict[str, str] | None = None,
    strip_leading_token: str | None = None,
    convert_bijoy: bool = False,
    allow_duplicate_content: bool = False,
    normalize: str = DEFAULT_NORMALIZATION,
    skip_empty: bool = False,
    file_format: str | None = None,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> ImportReport:
    """Import standard <-> dialect sentence pairs.

    ``long``: one pair per row (``standard_col``, ``dialect_text_col``, and the dialect from
    ``dialect_col`` or the fixed ``dialect``). ``wide``: one standard sentence per row and
    one column per dialect (``dialect_cols`` code -> column; default: columns named by a
    known dialect code or alias); empty dialect cells are skipped.

    Several references per source (a corpus *item* is one standard sentence of one dialect
    with all its references): ``variant_cols`` (long) names the text columns, a
    comma-separated list or a glob such as ``dialect_v*``; in wide files a code may be
    given several columns (``dialect_cols`` as a list of (code, column)); repeated source
    rows of a long file add references too. Empty variant cells are skipped.

    Dialect names may be codes or aliases (:mod:`engine.importing.dialects`);
    ``dialect_map`` maps further spellings. ``district_col``/``split_col`` of None use
    columns named "district"/"split" when present; a fixed ``district`` or ``split``
    overrides them. ``strip_leading_token``: "auto" strips a detected label token, any
    other string strips exactly that token. ``convert_bijoy``: legacy Bijoy/SutonnyMJ
    cells are converted to Unicode (otherwise they are refused). ``normalize`` "none" stores
    the sentences exactly as the file has them and merges only byte-equal pairs (spellings
    that differ in encoding or white space stay distinct), so ``baseline --normalize none``
    reproduces sacrebleu on the file; the corpus records the choice. Every merge is counted
    by kind with its first lines (``report.merges``). ``skip_empty``: a row whose standard
    or dialect text is empty is skipped and counted instead of refusing the file. A file whose every pair another corpus of the same
    normalisation holds already is refused unless ``allow_duplicate_content``
    (:mod:`engine.importing.duplicates`).
    """
    path = Path(path)
    keep_raw = check_normalization(normalize) == "none"
    if fmt not in ("long", "wide"):
        raise ValueError(f"fmt must be 'long' or 'wide', not {fmt!r}")
    dialects = DialectResolver(ws, dialect_map)
    report = ImportReport(kind="corpus", path=str(path), name=default_name(path, name))
    pairs: list[_Pair] = []
    with TabularFile(path, file_format) as table:
        cells, ticker = (
            CellReader(table, convert_bijoy=convert_bijoy),
            Ticker(table, progress, cancelled),
        )
        report.file_format, report.columns = table.format, list(table.columns)
        std_col = cells.column(standard_col, "standard text", Setting.STANDARD_COL)
        fixed_split = normalize_split(split, cells.reject) if split is not None else None
        split_column = (
            None
            if split is not None
            else cells.optional_column(split_col, "split", "split", Setting.SPLIT_COL)
        )
        district_column = (
            None
            if district is not None
            else cells.optional_column(district_col, "district", "district", Setting.DISTRICT_COL)
        )
        code_col = None
        fixed_dialect = None
        if fmt == "long":
            text_cols = (
                variant_columns(cells, variant_cols)
                if variant_cols
                else [cells.column(dialect_text_col, "dialect text", Setting.DIALECT_TEXT_COL)]
            )
            if dialect is not None:
                fixed_dialect = check_dialect(dialect, dialects, cells.reject, report)
            else:
                code_col = cells.column(dialect_col, "dialect name", Setting.DIALECT_COL)
        else:
            by_code = _wide_columns(cells, dialects, dialect_cols, variant_cols, report)
            if not by_code:
                cells.reject(
                    "no dialect columns: name columns by dialect code or alias (known codes: "
                    f"{', '.join(dialects.regional())}) or map them with "
                    f"{setting_usage(Setting.DIALECT_COLUMN)}; the file's columns: "
                    + ", ".join(repr(c) for c in table.columns if c)
                )
            used = {c for cols in by_code.values() for c in cols}
            if used & {std_col, split_column, district_column}:
                cells.reject("a dialect column is also the standard, split or district column")
        seen_names: dict[str, str] = {}
        for line, row in table:
            report.rows_read += 1
            ticker.row(report.rows_read)
            standard = cells.text(
                line, row, std_col, required=not skip_empty, bengali=True, raw=keep_raw
            )
            if not standard:
                report.skipped(line)
                continue
            where = (
                cells.text(line, row, district_column)
                if district is None
                else normalize_text(district)
            )
            row_split = cells.split(line, row, split_column, fixed_split)
            if fmt == "long":
                code = fixed_dialect
                if code is None:
                    raw = cells.text(line, row, code_col, required=True)
                    code = seen_names.get(raw)
                    if code is None:
                        code = check_dialect(
                            raw,
                            dialects,
                            lambda msg: cells.reject(msg, line, code_col),  # noqa: B023
                            report,
                        )
                        seen_names[raw] = code
                texts = [
                    (c, cells.text(line, row, c, bengali=True, raw=keep_raw)) for c in text_cols
                ]
                found = [(c, t) for c, t in texts if t]
                if not found and skip_empty:
                    report.skipped(line)
                    continue
                if not found:
                    cells.reject(
                        "empty cell where a value is required"
                        if len(text_cols) == 1
                        else f"all {len(text_cols)} variant columns are empty",
                        line,
                        text_cols[0],
                    )
                report.empty_cells_skipped += len(texts) - len(found)
                for column, text in found:
                    written = (cell_text(row.get(std_col)), cell_text(row.get(column)))
                    pairs.append(
                        _Pair(line, standard, text, code, where, row_split, column, written)
                    )
                continue
            for code, columns in by_code.items():
                for column in columns:
                    text = cells.text(line, row, column, bengali=True, raw=keep_raw)
                    if not text:
                        report.empty_cells_skipped += 1
                        continue
                    written = (cell_text(row.get(std_col)), cell_text(row.get(column)))
                    pairs.append(
                        _Pair(line, standard, text, code, where, row_split, column, written)
                    )
        apply_leading_token(cells, pairs, strip_leading_token, report)
        report.unused_columns = cells.unused()
        report.bijoy_converted = cells.bijoy_converted
        if split_column is None and split is None and pairs:
            report.split_note = unsplit_note(len(pairs), "pairs")
    if report.bijoy_converted:
        report.warnings.append(
            f"converted {report.bijoy_converted:,} legacy Bijoy/SutonnyMJ cells to Unicode"
        )
    ticker.check_cancel()
    _write_pairs(ws, path, pairs, report, ticker, normalize, allow_duplicate_content)
    return report


def variant_columns(
    cells: CellReader,
    spec: str,
    option: Setting = Setting.VARIANT_COLS,
    what: str = "reference variants",
) -> list[str]:
    """Columns named by ``spec`` (given as ``option``): a comma-separated list of names or
    glob patterns (``dialect_v*``), matched case-insensitively, in file order; none matching
    is an error naming ``option``."""
    patterns = [p.strip() for p in spec.split(",") if p.strip()]
    found: list[str] = []
    for pattern in patterns:
        if not any(ch in pattern for ch in "*?["):
            column = cells.column(pattern, what, option)
            if column not in found:
                found.append(column)
            continue
        matched = [
            c
            for c in cells.table.columns
            if c and fnmatch.fnmatchcase(c.casefold(), pattern.casefold())
        ]
        if not matched:
            cells.reject(
                f"no column matches {setting(option)} '{pattern}' (the file's columns: "
                + ", ".join(repr(c) for c in cells.table.columns if c)
                + ")"
            )
        found += [c for c in matched if c not in found]
    cells.used.update(found)
    return found


def _wide_columns(
    cells: CellReader,
    dialects: DialectResolver,
    given: dict[str, str] | list[tuple[str, str]] | None,
    variant_cols: str | None,
    report: ImportReport,
) -> dict[str, list[str]]:
    """Wide files: code -> its columns (several columns = several references)."""
    by_code: dict[str, list[str]] = collections.defaultdict(list)
    if given:
        items = list(given.items()) if isinstance(given, dict) else list(given)
        for name_, column in items:
            code = check_dialect(name_, dialects, cells.reject, report)
            by_code[code].append(cells.column(column, f"'{code}' texts", Setting.DIALECT_COLUMN))
    else:
        for code, column in dialect_columns(cells, dialects, None, set(), report).items():
            by_code[code].append(column)
    if variant_cols:
        # Wide with variants: '<dialect>_*' style columns, e.g. 'sylhet_v1, sylhet_v2'.
        for column in variant_columns(cells, variant_cols):
            prefix = column.rsplit("_", 1)[0] if "_" in column else column
            found = dialects.lookup(prefix)
            if found is None or found == "standard":
                cells.reject(
                    f"variant column '{column}': '{prefix}' is not a dialect; in wide files "
                    "variant columns are named DIALECT_SUFFIX (e.g. sylhet_v1)"
                )
            assert found is not None
            if column not in by_code[found]:
                by_code[found].append(column)
    return dict(by_code)


def _write_pairs(
    ws: Workspace,
    path: Path,
    pairs: list[_Pair],
    report: ImportReport,
    ticker: Ticker,
    normalize: str = DEFAULT_NORMALIZATION,
    allow_duplicate_content: bool = False,
) -> None:
    report.records = len(pairs)
    key_of = record_key(normalize)
    unique: dict[tuple, _Pair] = {}
    split_conflicts: list[int] = []
    no_bengali: list[int] = []
    for pair in pairs:
        key = (pair.dialect, key_of(pair.standard), key_of(pair.text))
        first = unique.setdefault(key, pair)
        if first is not pair:
            same = first.written == pair.written
            report.merged(IDENTICAL if same else RESPELLED, pair.line)
            if first.split != pair.split:
                split_conflicts.append(pair.line)
        elif not (has_bengali(pair.standard) and has_bengali(pair.text)):
            no_bengali.append(pair.line)
            if script_of(pair.text) == "roman" and banglish_share(pair.text) > 0:
                report.romanized += 1
    if split_conflicts:
        report.warnings.append(
            f"repeated pairs with a split other than their first "
            f"occurrence's: {len(split_conflicts):,} (first at line "
            f"{split_conflicts[0]}); the first occurrence was kept"
        )
    if no_bengali:
        report.warnings.append(
            f"pairs with a side without Bengali letters: {len(no_bengali):,} "
            f"(first at line {no_bengali[0]})"
            + (
                f"; {report.romanized:,} of them Romanized Bengali, kept as written"
                if report.romanized
                else ""
            )
        )
    groups: dict[str, list[tuple]] = collections.defaultdict(list)
    for (code, std_key, text_key), p in unique.items():
        groups[code].append(
            (
                p.standard,
                p.text,
                code,
                p.district,
                p.split,
                f"{path.name}:{p.line}",
                std_key,
                text_key,
            )
        )
    if not allow_duplicate_content:  # a raw copy of a normalised corpus is not a duplicate
        refuse_duplicate_content(
            ws, "corpus", report.name, str(path), unique, same={"normalization": normalize}
        )
    with ws.transaction() as conn:
        stored = conn.execute(
            "SELECT normalization FROM corpora WHERE name = ?", (report.name,)
        ).fetchone()
        if stored is not None and stored[0] != normalize:
            raise UserError(
                f"corpus '{report.name}' was imported with "
                f"{setting(Setting.NORMALIZE, stored[0])}, not {normalize}; import into "
                f"another corpus ({setting(Setting.SET_NAME)})"
            )
        conn.execute(
            "INSERT INTO corpora(name, source, normalization, created_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(name) DO NOTHING",
            (report.name, str(path), normalize, utcnow()),
        )
        corpus_id = conn.execute(
            "SELECT id FROM corpora WHERE name = ?", (report.name,)
        ).fetchone()[0]
        report.target_id = corpus_id
        for done, (code, rows) in enumerate(sorted(groups.items())):
            ticker.note(done, len(groups), _("writing {code}").format(code=code))
            before = conn.total_changes
            conn.executemany(
                "INSERT INTO sentence_pairs(corpus_id, standard_text, dialect_text, dialect, "
                "district, split, source, standard_key, dialect_key) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(corpus_id, dialect, standard_key, dialect_key) DO NOTHING",
                [(corpus_id, *r) for r in rows],
            )
            inserted = conn.total_changes - before
            splits = collections.Counter(r[4] for r in rows)
            report.by_dialect[code] = {
                "pairs": len(rows),
                "inserted": inserted,
                "already_present": len(rows) - inserted,
                "splits": dict(sorted(splits.items())),
            }
            report.inserted += inserted
        ticker.note(len(groups), len(groups), _("written"))
    report.already_present = len(unique) - report.inserted
    log.info(
        N_("imported corpus %s from %s: %d new pairs, %d already present"),
        report.name,
        path,
        report.inserted,
        report.already_present,
    )
