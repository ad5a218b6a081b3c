"""Item sets for understanding tasks: import (all-or-nothing) and selection.

An item has a dialect, a split, its native-script text, optionally a Romanized form written
by the dataset, references (several standard-Bengali and several English ones) and a label.
Files are read through :class:`engine.importing.tabular.TabularFile` and cells through
:class:`engine.importing.columns.CellReader`, so the same hostile-input guards apply as to
corpora; every row is validated before anything is written, and the write is one
transaction: a bad file changes nothing.

Items come from two sources, behind one shape (:class:`Item`):

- ``pairs``: the workspace's sentence pairs (dialect text = input, standard text =
  reference, dialect = label) — they serve dialect-to-standard and dialect-id as imported;
- ``items:<set>``: an imported item set.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import UserError
from engine.importing.columns import (
    Cancelled,
    CellReader,
    ImportReport,
    Progress,
    Ticker,
    check_dialect,
    default_name,
)
from engine.importing.dialects import DialectResolver
from engine.importing.tabular import TabularFile
from engine.textnorm import canonical_key
from engine.workspace.store import Workspace, utcnow

log = logging.getLogger(__name__)

DEFAULT_ITEM_SPLIT = "test"


@dataclass(frozen=True)
class Item:
    source_id: int  # sentence_pairs.id or task_items.id
    key: str  # stable within its source: "pair<id>" or "item<id>"
    dialect: str
    split: str
    native: str
    roman: str = ""  # the dataset's own Romanization, if any
    refs: dict[str, list[str]] = field(default_factory=dict)  # "standard"/"english" -> texts
    label: str = ""


@dataclass
class _Row:
    line: int
    ext_id: str
    key: str
    dialect: str
    split: str
    native: str
    roman: str
    refs: dict
    label: str


def import_items(
    ws: Workspace,
    path: str | Path,
    *,
    name: str | None = None,
    native_col: str = "text",
    dialect_col: str | None = "dialect",
    dialect: str | None = None,
    roman_col: str | None = None,
    standard_cols: list[str] | None = None,
    english_cols: list[str] | None = None,
    label_col: str | None = None,
    split_col: str | None = None,
    split: str | None = None,
    id_col: str | None = None,
    dialect_map: dict[str, str] | None = None,
    convert_bijoy: bool = False,
    file_format: str | None = None,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> ImportReport:
    """Import one item file into the set ``name`` (default: the file name).
    ``dialect_map`` reads other dialect spellings as codes; ``convert_bijoy`` converts
    legacy Bijoy cells (else refused), as for corpora."""
    path = Path(path)
    known = DialectResolver(ws, dialect_map)
    report = ImportReport(kind="items", path=str(path), name=default_name(path, name))
    rows: list[_Row] = []
    with TabularFile(path, file_format) as table:
        cells = CellReader(table, convert_bijoy=convert_bijoy)
        ticker = Ticker(table, progress, cancelled)
        report.file_format = table.format
        native = cells.column(native_col, "native-script text")
        dialect_column = None if dialect else cells.column(dialect_col or "dialect", "dialect")
        roman = cells.column(roman_col, "Romanized text") if roman_col else None
        standard = [cells.column(c, "standard reference") for c in standard_cols or []]
        english = [cells.column(c, "English reference") for c in english_cols or []]
        label = cells.column(label_col, "label") if label_col else None
        split_column = None if split else cells.optional_column(split_col, "split", "split")
        ident = cells.optional_column(id_col, "id", "item id")
        fixed_dialect = None
        if dialect:
            fixed_dialect = _item_dialect(dialect, known, lambda m: cells.reject(m))
        for line, row in table:
            report.rows_read += 1
            ticker.row(report.rows_read)
            text = cells.text(line, row, native, required=True, bengali=True)
            code = fixed_dialect or _item_dialect(
                cells.text(line, row, dialect_column, required=True),
                known,
                lambda m, line=line: cells.reject(m, line, dialect_column),
            )
            refs = {
                "standard": [t for c in standard if (t := cells.text(line, row, c, bengali=True))],
                "english": [t for c in english if (t := cells.text(line, row, c))],
            }
            for kind, cols in (("standard", standard), ("english", english)):
                if cols and not refs[kind]:
                    cells.reject(f"no {kind} reference in this row", line, cols[0])
            rows.append(
                _Row(
                    line=line,
                    ext_id=cells.text(line, row, ident),
                    key=canonical_key(text),
                    dialect=code,
                    split=cells.split(line, row, split_column, split)
                    if split_column or split
                    else DEFAULT_ITEM_SPLIT,
                    native=text,
                    roman=cells.text(line, row, roman),
                    refs={k: v for k, v in refs.items() if v},
                    label=cells.text(line, row, label, required=label is not None),
                )
            )
        report.unused_columns = cells.unused()
        report.bijoy_converted = cells.bijoy_converted
    ticker.check_cancel()
    if not rows:
        raise UserError(f"{path}: no items in the file")
    report.records = len(rows)
    unique: dict[tuple[str, str], _Row] = {}
    for r in rows:
        first = unique.setdefault((r.dialect, r.key), r)
        if first is not r:
            report.duplicates_in_file += 1
            if first.split != r.split:
                raise UserError(
                    f"{path}, line {r.line}: the same {r.dialect} text as line {first.line} "
                    f"but in split '{r.split}' (not '{first.split}'): an item cannot be in two "
                    "splits (demonstrations would leak)"
                )
    _write(ws, path, list(unique.values()), report)
    return report


def _item_dialect(code: str, known: DialectResolver, reject) -> str:
    """Items may also be in standard Bengali (few-shot's "plus standard" demonstrations)."""
    return (
        "standard" if code.strip().casefold() == "standard" else check_dialect(code, known, reject)
    )


def _write(ws: Workspace, path: Path, rows: list[_Row], report: ImportReport) -> None:
    with ws.transaction() as conn:
        conn.execute(
            "INSERT INTO task_item_sets(name, source, created_at) VALUES (?, ?, ?) "
            "ON CONFLICT(name) DO NOTHING",
            (report.name, str(path), utcnow()),
        )
        set_id = conn.execute(
            "SELECT id FROM task_item_sets WHERE name = ?", (report.name,)
        ).fetchone()[0]
        report.target_id = set_id
        before = conn.total_changes
        conn.executemany(
            "INSERT INTO task_items(set_id, ext_id, item_key, dialect, split, native_text, "
            "roman_text, refs, label) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT(set_id, dialect, item_key) DO NOTHING",
            [
                (
                    set_id,
                    r.ext_id,
                    r.key,
                    r.dialect,
                    r.split,
                    r.native,
                    r.roman,
                    json.dumps(r.refs, ensure_ascii=False),
                    r.label,
                )
                for r in rows
            ],
        )
        report.inserted = conn.total_changes - before
        report.already_present = len(rows) - report.inserted
    for r in rows:
        entry = report.by_dialect.setdefault(r.dialect, {"items": 0, "splits": {}})
        entry["items"] += 1
        entry["splits"][r.split] = entry["splits"].get(r.split, 0) + 1
    log.info("imported item set %s from %s: %d new", report.name, path, report.inserted)


def item_sets(ws: Workspace) -> list[dict]:
    return ws.query(
        "SELECT s.name, s.source, count(i.id) AS items FROM task_item_sets s "
        "LEFT JOIN task_items i ON i.set_id = s.id GROUP BY s.id ORDER BY s.name"
    )


def load_items(ws: Workspace, source: str, dialects: list[str] | None = None) -> list[Item]:
    """Every item of a source (``pairs`` or ``items:<set name>``), ordered by key."""
    where = ""
    params: tuple[str, ...] = ()
    if dialects:
        where = f" AND dialect IN ({','.join('?' * len(dialects))})"
        params = tuple(dialects)
    if source == "pairs":
        rows = ws.query(
            "SELECT id, dialect, split, dialect_text, standard_text FROM sentence_pairs "
            f"WHERE 1{where} ORDER BY id",
            params,
        )
        return [
            Item(
                source_id=r["id"],
                key=f"pair{r['id']}",
                dialect=r["dialect"],
                split=r["split"],
                native=r["dialect_text"],
                refs={"standard": [r["standard_text"]]},
                label=r["dialect"],
            )
            for r in rows
        ]
    if source.startswith("items:"):
        name = source.split(":", 1)[1]
        set_id = ws.scalar("SELECT id FROM task_item_sets WHERE name = ?", (name,))
        if set_id is None:
            known = ", ".join(s["name"] for s in item_sets(ws)) or "none"
            raise UserError(f"no item set {name!r} (known: {known})")
        rows = ws.query(
            f"SELECT * FROM task_items WHERE set_id = ?{where} ORDER BY id", (set_id, *params)
        )
        return [
            Item(
                source_id=r["id"],
                key=f"item{r['id']}",
                dialect=r["dialect"],
                split=r["split"],
                native=r["native_text"],
                roman=r["roman_text"],
                refs=json.loads(r["refs"]),
                label=r["label"],
            )
            for r in rows
        ]
    raise UserError(f"unknown item source {source!r}: use 'pairs' or 'items:<set name>'")
