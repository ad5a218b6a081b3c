"""Pieces shared by the corpus and question importers: the report, column resolution,
cell validation and the vocabularies (splits, domains) a cell is checked against."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, Protocol, TypedDict, TypeVar, cast

from engine.errors import ImportRejected, Setting, UserError, setting, setting_usage
from engine.i18n import _
from engine.importing.cells import Row, cell_text
from engine.importing.dialects import DialectResolver
from engine.importing.tabular import TabularFile
from engine.text.bijoy import UnknownGlyph, bijoy_to_unicode, looks_bijoy
from engine.text.text_rules import checked_name, control_problem
from engine.text.textnorm import encoding_problem, normalize_text, to_ascii_digits

log = logging.getLogger(__name__)

Progress = Callable[[int, int, str], None]
Cancelled = Callable[[], bool]

# docs/design.md: the six domains of the base question set, stored in this spelling.
DOMAINS = (
    "Technology",
    "Social Sciences",
    "Health & Sports",
    "Physical & Natural Sciences",
    "Arts & Humanities",
    "Business & Economics",
)
_DOMAIN_KEYS = {" ".join(d.casefold().replace("&", "and").split()): d for d in DOMAINS}

SPLITS = ("train", "test", "validation")
DEFAULT_SPLIT = "train"
# Spellings seen in public corpora. Vashantor's "validation_or_unknown" is its held-out
# part, so it maps to "validation" (never indexed for retrieval).
_SPLIT_ALIASES = {
    "train": "train",
    "training": "train",
    "test": "test",
    "testing": "test",
    "validation": "validation",
    "valid": "validation",
    "val": "validation",
    "dev": "validation",
    "validation_or_unknown": "validation",
}

PROGRESS_EVERY = 500  # rows between progress/cancel checks while reading


class ImportCancelled(UserError):
    """The user cancelled an import; nothing was written."""


Report = TypeVar("Report", covariant=True)
ReportDict = TypeVar("ReportDict")


class Reports(Protocol[Report]):
    """What an importer returns: a report whose :meth:`to_dict` gives it as plain data."""

    def to_dict(self) -> Report: ...


class ImportReportDict(TypedDict):
    """:meth:`ImportReport.to_dict` (``upabhasha import … --json``, the import dialog's
    report): every field of the report, by name."""

    kind: str
    path: str
    name: str
    target_id: int
    file_format: str
    rows_read: int
    records: int
    duplicates_in_file: int
    inserted: int
    already_present: int
    empty_cells_skipped: int
    variants_inserted: int
    by_dialect: dict[str, Any]
    columns: list[str]
    unused_columns: list[str]
    dialect_names: dict[str, str]
    bijoy_converted: int
    romanized: int
    variant_status: str
    leading_tokens: dict[str, Any]
    sets: list[dict[str, Any]]
    label_names: dict[str, str]
    merges: dict[str, dict[str, Any]]
    skipped_empty: dict[str, Any]
    split_note: str
    warnings: list[str]


@dataclasses.dataclass
class ImportReport:
    kind: str  # "corpus" or "questions"
    path: str
    name: str  # corpus or question-set name
    target_id: int = 0  # corpora.id or question_sets.id
    file_format: str = ""
    rows_read: int = 0  # data rows in the file (blank rows not counted)
    records: int = 0  # pairs or questions built from them (before dedup)
    duplicates_in_file: int = 0  # records repeating an earlier one of the same file
    inserted: int = 0  # new rows written
    already_present: int = 0  # unique records that the workspace already held
    empty_cells_skipped: int = 0  # wide files: dialect cells left empty
    variants_inserted: int = 0  # questions: variant rows written (standard + dialects)
    by_dialect: dict = dataclasses.field(default_factory=dict)
    columns: list = dataclasses.field(default_factory=list)  # the file's columns
    unused_columns: list = dataclasses.field(default_factory=list)  # columns not read
    dialect_names: dict = dataclasses.field(default_factory=dict)  # spelling -> code used
    bijoy_converted: int = 0  # cells converted from legacy Bijoy to Unicode
    romanized: int = 0  # Romanized Bengali texts (questions: variants with script 'roman')
    variant_status: str = ""  # questions: the status given to imported dialect variants
    leading_tokens: dict = dataclasses.field(default_factory=dict)
    sets: list = dataclasses.field(default_factory=list)  # scored: each set's scale summary
    label_names: dict = dataclasses.field(default_factory=dict)  # items: stored label -> name
    # records merged into an earlier one of the file, by kind: {"count", "first_lines"}
    merges: dict = dataclasses.field(default_factory=dict)
    # rows skipped for an empty required cell (when the import was asked to skip them)
    skipped_empty: dict = dataclasses.field(default_factory=dict)
    split_note: str = ""  # where the rows of a file without a split went
    warnings: list = dataclasses.field(default_factory=list)

    def to_dict(self) -> ImportReportDict:
        return cast(ImportReportDict, dataclasses.asdict(self))

    def merged(self, kind: str, line: int) -> None:
        """Count one record of the file merged into an earlier one, by ``kind``."""
        self.counted(kind, line)
        self.duplicates_in_file += 1

    def counted(self, kind: str, line: int) -> None:
        """Count one record of ``kind`` (a phrase saying what befell it) at ``line``."""
        _count_line(self.merges.setdefault(kind, {"count": 0, "first_lines": []}), line)

    def skipped(self, line: int) -> None:
        """Count one row skipped for an empty required cell."""
        if not self.skipped_empty:
            self.skipped_empty.update(count=0, first_lines=[])
        _count_line(self.skipped_empty, line)


# line numbers kept per counted kind: enough to find them in the file
FIRST_LINES = 10


def _count_line(entry: dict, line: int) -> None:
    entry["count"] += 1
    if len(entry["first_lines"]) < FIRST_LINES:
        entry["first_lines"].append(line)


def counted_lines(entry: dict) -> str:
    """ "3 (lines 4, 9, 12)" for a counted kind."""
    lines = ", ".join(str(n) for n in entry["first_lines"])
    more = ", …" if entry["count"] > len(entry["first_lines"]) else ""
    return f"{entry['count']:,} (line{'s' if entry['count'] > 1 else ''} {lines}{more})"


def unsplit_note(
    count: int,
    noun: str,
    split: str = DEFAULT_SPLIT,
    role: str = "which feeds few-shot demonstrations and the retrieval index and is not evaluated",
) -> str:
    """Where the rows of a file without a split went (``split``, ``role``), and how to
    choose another split."""
    return (
        f"the file has no split column: all {count:,} {noun} went to the '{split}' split, "
        f"{role}; name a split column with {setting_usage(Setting.SPLIT_COL)} or give one "
        f"split to every row with {setting(Setting.SPLIT, 'test')} (or validation)"
    )


def count_lines(report: dict) -> list[str]:
    """The report's merges, skipped rows and split note, one line each, for every front
    end."""
    lines = [f"{kind}: {counted_lines(entry)}" for kind, entry in report.get("merges", {}).items()]
    if report.get("skipped_empty"):
        lines.append(
            "rows skipped for an empty required cell: " + counted_lines(report["skipped_empty"])
        )
    if report.get("split_note"):
        lines.append(report["split_note"])
    return lines


# The way out of a Bijoy refusal; the import dialog replaces it with its checkbox.
BIJOY_HINT = f" (or import with {setting(Setting.CONVERT_BIJOY)})"


class CellReader:
    """Resolves column names and turns cells into validated, normalised values."""

    def __init__(self, table: TabularFile, *, convert_bijoy: bool = False):
        self.table = table
        self.path = table.path
        table.nested_checked_on_read = True  # text() refuses a nested value it reads
        self.used: set[str] = set()
        self.convert_bijoy = convert_bijoy
        self.bijoy_converted = 0

    def reject(self, message: str, line: int | None = None, column: str | None = None) -> NoReturn:
        raise ImportRejected(self.path, message, line, column)

    def column(
        self, name: str, what: str, option: Setting | None = None, fixed: Setting | None = None
    ) -> str:
        """A required column (exact name, else a unique case-insensitive match). The error
        names the ``option`` that chooses another column — and ``fixed``, the option giving
        one value for every row, when there is one — and lists the file's columns."""
        found = self._find(name)
        if found is None:
            what = _(what)  # a noun the caller marked with N_()
            how = (
                _("name the {what} column with {setting}").format(
                    what=what, setting=setting_usage(option)
                )
                if option
                else _("map it")
            )
            if fixed:
                how += _(", or give one {what} for every row with {setting}").format(
                    what=what, setting=setting_usage(fixed)
                )
            self.reject(
                _(
                    "no column '{name}' for the {what}; {how} (the file's columns: {columns})"
                ).format(
                    name=name,
                    what=what,
                    how=how,
                    columns=", ".join(repr(c) for c in self.table.columns if c),
                ),
                1 if self.table.format != "json" else None,
            )
        self.used.add(found)
        return found

    def optional_column(
        self, given: str | None, default: str, what: str, option: Setting | None = None
    ) -> str | None:
        """An explicitly named column must exist; the default name is used only if present."""
        if given is not None:
            return self.column(given, what, option)
        found = self._find(default)
        if found is not None:
            self.used.add(found)
        return found

    def unused(self) -> list[str]:
        """The file's columns this import did not read, in file order."""
        return [c for c in self.table.columns if c and c not in self.used]

    def _find(self, name: str) -> str | None:
        if name in self.table.columns:
            return name
        matches = [c for c in self.table.columns if c.casefold() == name.casefold()]
        return matches[0] if len(matches) == 1 else None

    def text(
        self,
        line: int,
        row: Row,
        column: str | None,
        *,
        required: bool = False,
        bengali: bool = False,
        raw: bool = False,
    ) -> str:
        """A normalised cell. ``bengali`` cells (sentences, questions) are also checked for
        mojibake and legacy Bijoy encoding (converted to Unicode when the import asked for
        it, else refused); codes, ids and English glosses are not checked, since the Bijoy
        heuristic would misread short Latin words ("dev"). ``raw``: the cell exactly as the
        file has it (checked on its normalised form), for ``--normalize none``."""
        if column is None:
            return ""
        value = row.get(column)
        if isinstance(value, (dict, list)):
            self.reject("nested JSON value; cells must be text or numbers", line, column)
        exact = cell_text(value)
        problem = control_problem(exact)  # the one text rule, on every cell an import reads
        if problem:
            self.reject(f"the cell {problem}", line, column)
        text = normalize_text(exact)
        if raw and text:
            text = exact
        if not text:
            if required:
                self.reject("empty cell where a value is required", line, column)
            return ""
        if not bengali:
            return text
        if self.convert_bijoy and looks_bijoy(text):
            try:
                converted = bijoy_to_unicode(text)
            except UnknownGlyph as exc:
                self.reject(f"cannot convert from Bijoy: {exc}", line, column)
            self.bijoy_converted += 1
            return normalize_text(converted)
        problem = encoding_problem(text)
        if problem:
            if problem.startswith("legacy Bijoy"):
                problem += BIJOY_HINT
            self.reject(problem, line, column)
        return text

    def split(self, line: int, row: Row, column: str | None, fixed: str | None) -> str:
        value = fixed if fixed is not None else self.text(line, row, column)
        if not value:
            return DEFAULT_SPLIT
        return normalize_split(value, lambda msg: self.reject(msg, line, column))

    def question_type(self, line: int, row: Row, column: str | None) -> int | None:
        raw = to_ascii_digits(self.text(line, row, column))
        if not raw:
            return None
        try:
            number = float(raw)
        except ValueError:
            number = 0.0
        if not number.is_integer() or not 1 <= number <= 4:
            self.reject(f"question type must be 1, 2, 3 or 4 (or empty), not '{raw}'", line, column)
        return int(number)

    def domain(self, line: int, row: Row, column: str | None) -> str | None:
        raw = self.text(line, row, column)
        if not raw:
            return None
        key = " ".join(raw.casefold().replace("&", "and").split())
        if key not in _DOMAIN_KEYS:
            self.reject(
                f"unknown domain '{raw}' (one of: {'; '.join(DOMAINS)}; or empty)", line, column
            )
        return _DOMAIN_KEYS[key]


def normalize_split(value: str, reject: Callable[[str], NoReturn]) -> str:
    split = _SPLIT_ALIASES.get(value.strip().casefold().replace("-", "_"))
    if split is None:
        reject(f"unknown split '{value}' (train, test or validation)")
    return split


def check_dialect(
    name: str, dialects: DialectResolver, reject: Callable[[str], object], report=None
) -> str:
    """A regional dialect known to the workspace by code or alias ('standard' is not one)."""
    code = dialects.resolve(name, reject)
    if report is not None and name != code:
        report.dialect_names[name] = code
    return code


def dialect_columns(
    cells: CellReader,
    dialects: DialectResolver,
    given: dict[str, str] | None,
    exclude: set[str | None],
    report=None,
) -> dict[str, str]:
    """Wide files: dialect code -> column. Default: every column named by a known code or
    alias (two columns naming the same dialect are refused)."""
    if given:
        resolved = {}
        for name, column in given.items():
            code = check_dialect(name, dialects, cells.reject, report)
            resolved[code] = cells.column(column, f"'{code}' texts", Setting.DIALECT_COLUMN)
        return resolved
    found: dict[str, str] = {}
    for column in cells.table.columns:
        known = dialects.lookup(column) if column and column not in exclude else None
        if known is None or known == "standard":
            continue
        code = known
        if code in found:
            cells.reject(
                f"columns '{found[code]}' and '{column}' both name dialect '{code}'; "
                f"choose one with {setting_usage(Setting.DIALECT_COLUMN)}"
            )
        found[code] = column
        cells.used.add(column)
        if report is not None and column != code:
            report.dialect_names[column] = code
    return found


class Ticker:
    """Throttled progress and cancel checks while rows stream in."""

    def __init__(self, table: TabularFile, progress: Progress | None, cancelled: Cancelled | None):
        self.table, self.progress, self.cancelled = table, progress, cancelled

    def row(self, count: int) -> None:
        if count % PROGRESS_EVERY:
            return
        self.check_cancel()
        if self.progress:
            done, total = self.table.progress()
            self.progress(done, max(total, done + 1), f"{count:,} rows read")

    def check_cancel(self) -> None:
        if self.cancelled and self.cancelled():
            raise ImportCancelled(f"{self.table.path}: import cancelled; nothing was written")

    def note(self, done: int, total: int, note: str) -> None:
        if self.progress:
            self.progress(done, total, note)


def default_name(path: Path, name: str | None) -> str:
    name = name if name is not None else path.stem
    if not name.strip():
        raise UserError("the name must not be empty")
    return checked_name(name, "set name")
