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

from engine.errors import Setting, UserError, setting
from engine.importing.cells import cell_text
from engine.importing.columns import (
    Cancelled,
    CellReader,
    ImportReport,
    Progress,
    Ticker,
    check_dialect,
    default_name,
    unsplit_note,
)
from engine.importing.dialects import DialectResolver
from engine.importing.tabular import TabularFile
from engine.text.textnorm import DEFAULT_NORMALIZATION, check_normalization, record_key
from engine.workspace.store import Workspace, utcnow

log = logging.getLogger(__name__)

# the split run-task evaluates by default, so an item file without splits runs as imported
DEFAULT_ITEM_SPLIT = "validation"


@dataclass(frozen=True)
class Item:
    source_id: int  # sentence_pairs.id or task_items.id
    key: str  # stable within its source: "pair<id>" or "item<id>"
    dialect: str
    split: str
    native: str
    roman: str = ""  # the dataset's own Romanization, if any
    refs: dict[str, list[str]] = field(default_factory=dict)  # "standard"/"english" -> texts
    label: str = ""  # the label's name when the set names its labels, else as stored
    stored_label: str = ""  # the label as the file had it


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
    written: str = ""  # the native text exactly as the file has it


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
    label_names: dict[str, str] | None = None,
    label_name_col: str | None = None,
    split_col: str | None = None,
    split: str | None = None,
    id_col: str | None = None,
    dialect_map: dict[str, str] | None = None,
    convert_bijoy: bool = False,
    normalize: str = DEFAULT_NORMALIZATION,
    skip_empty: bool = False,
    file_format: str | None = None,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> ImportReport:
    """Import one item file into the set ``name`` (default: the file name).

    ``normalize`` "none" stores every text exactly as the file has it and merges only
    byte-equal items; the set records the choice, which its runs and baselines score.
    Every merge is counted with its first lines. ``skip_empty``: a row with an empty native
    text is skipped and counted instead of refusing the file.

    ``label_names`` (stored label -> name, ``--label-names 0=not-offensive,1=offensive``) or
    ``label_name_col`` (a column naming each row's label) name the labels: prompts, parsers
    and reports then use the names; the stored label stays as the file has it.
    ``dialect_map`` reads other dialect spellings as codes; ``convert_bijoy`` converts
    legacy Bijoy cells (else refused), as for corpora."""
    path = Path(path)
    keep_raw = check_normalization(normalize) == "none"
    key_of = record_key(normalize)
    if (label_names or label_name_col) and not label_col:
        raise UserError(f"label names need the label column ({setting(Setting.LABEL_COL)})")
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
        label = cells.column(label_col, "label", Setting.LABEL_COL) if label_col else None
        name_column = (
            cells.column(label_name_col, "label name", Setting.LABEL_NAME_COL)
            if label_name_col
            else None
        )
        names: dict[str, str] = dict(label_names or {})
        name_lines: dict[str, int] = {}
        split_column = None if split else cells.optional_column(split_col, "split", "split")
        ident = cells.optional_column(id_col, "id", "item id")
        fixed_dialect = None
        if dialect:
            fixed_dialect = _item_dialect(dialect, known, lambda m: cells.reject(m))
        for line, row in table:
            report.rows_read += 1
            ticker.row(report.rows_read)
            text = cells.text(
                line, row, native, required=not skip_empty, bengali=True, raw=keep_raw
            )
            if not text:
                report.skipped(line)
                continue
            code = fixed_dialect or _item_dialect(
                cells.text(line, row, dialect_column, required=True),
                known,
                lambda m, line=line: cells.reject(m, line, dialect_column),
            )
            refs = {
                "standard": [
                    t
                    for c in standard
                    if (t := cells.text(line, row, c, bengali=True, raw=keep_raw))
                ],
                "english": [t for c in english if (t := cells.text(line, row, c))],
            }
            for kind, cols in (("standard", standard), ("english", english)):
                if cols and not refs[kind]:
                    cells.reject(f"no {kind} reference in this row", line, cols[0])
            rows.append(
                _Row(
                    line=line,
                    ext_id=cells.text(line, row, ident),
                    key=key_of(text),
                    dialect=code,
                    split=cells.split(line, row, split_column, split)
                    if split_column or split
                    else DEFAULT_ITEM_SPLIT,
                    native=text,
                    roman=cells.text(line, row, roman, raw=keep_raw),
                    refs={k: v for k, v in refs.items() if v},
                    label=cells.text(line, row, label, required=label is not None),
                    written=cell_text(row.get(native)),
                )
            )
            if name_column:
                stored, given = rows[-1].label, cells.text(line, row, name_column, required=True)
                if names.setdefault(stored, given) != given:
                    cells.reject(
                        f"label '{stored}' is named '{names[stored]}' at line "
                        f"{name_lines[stored]} and '{given}' here",
                        line,
                        name_column,
                    )
                name_lines.setdefault(stored, line)
        report.unused_columns = cells.unused()
        report.columns = list(table.columns)
        report.bijoy_converted = cells.bijoy_converted
        if not (split_column or split) and rows:
            report.split_note = unsplit_note(
                len(rows), "items", DEFAULT_ITEM_SPLIT, "which run-task evaluates by default"
            )
    ticker.check_cancel()
    if not rows:
        raise UserError(f"{path}: no items in the file")
    if names:
        _check_label_names(path, names, {r.label for r in rows})
    report.records = len(rows)
    unique: dict[tuple[str, str], _Row] = {}
    for r in rows:
        first = unique.setdefault((r.dialect, r.key), r)
        if first is not r:
            same = first.written == r.written
            report.merged(
                "identical items merged" if same else "items merged as equal once normalised",
                r.line,
            )
            if first.split != r.split:
                raise UserError(
                    f"{path}, line {r.line}: the same {r.dialect} text as line {first.line} "
                    f"but in split '{r.split}' (not '{first.split}'): an item cannot be in two "
                    "splits (demonstrations would leak)"
                )
    if names:
        report.label_names = dict(sorted(names.items()))
    _write(ws, path, list(unique.values()), report, names, normalize)
    return report


def parse_label_names(text: str) -> dict[str, str]:
    """'0=not-offensive,1=offensive' -> {"0": "not-offensive", "1": "offensive"}."""
    out: dict[str, str] = {}
    for part in (p.strip() for p in (text or "").split(",")):
        stored, sep, name = part.partition("=")
        if not part or not sep or not stored.strip() or not name.strip():
            raise UserError(
                f"{setting(Setting.LABEL_NAMES)} expects LABEL=NAME,LABEL=NAME "
                f"(0=not-offensive), not '{text}'"
            )
        if stored.strip() in out:
            raise UserError(f"{setting(Setting.LABEL_NAMES)} names label '{stored.strip()}' twice")
        out[stored.strip()] = name.strip()
    return out


def _check_label_names(path: Path, names: dict[str, str], labels: set[str]) -> None:
    unnamed = sorted(labels - set(names))
    if unnamed:
        raise UserError(
            f"{path}: label '{unnamed[0]}' has no name (named: {', '.join(sorted(names))})"
        )
    seen: dict[str, str] = {}
    for stored, name in sorted(names.items()):
        key = name.casefold()
        if key in seen:
            raise UserError(f"labels '{seen[key]}' and '{stored}' have the same name '{name}'")
        seen[key] = stored


def _item_dialect(code: str, known: DialectResolver, reject) -> str:
    """Items may also be in standard Bengali (few-shot's "plus standard" demonstrations)."""
    return (
        "standard" if code.strip().casefold() == "standard" else check_dialect(code, known, reject)
    )


def _write(
    ws: Workspace,
    path: Path,
    rows: list[_Row],
    report: ImportReport,
    names: dict[str, str],
    normalize: str,
) -> None:
    with ws.transaction() as conn:
        conn.execute(
            "INSERT INTO task_item_sets(name, source, created_at) VALUES (?, ?, ?) "
            "ON CONFLICT(name) DO NOTHING",
            (report.name, str(path), utcnow()),
        )
        set_id, stored = conn.execute(
            "SELECT id, label_names FROM task_item_sets WHERE name = ?", (report.name,)
        ).fetchone()
        held = item_set_normalization(ws, report.name)
        has_items = conn.execute("SELECT 1 FROM task_items WHERE set_id = ?", (set_id,))
        if held != normalize and has_items.fetchone() is not None:
            raise UserError(
                f"item set '{report.name}' was imported with "
                f"{setting(Setting.NORMALIZE, held)}, not {normalize}; import into another "
                f"set ({setting(Setting.SET_NAME)})"
            )
        conn.execute(
            "INSERT INTO task_item_set_normalization(set_id, normalization) VALUES (?, ?) "
            "ON CONFLICT(set_id) DO NOTHING",
            (set_id, normalize),
        )
        merged = json.loads(stored)
        clash = [k for k, v in names.items() if merged.get(k, v) != v]
        if clash:
            raise UserError(
                f"item set '{report.name}' names label '{clash[0]}' "
                f"'{merged[clash[0]]}', not '{names[clash[0]]}'"
            )
        merged.update(names)
        conn.execute(
            "UPDATE task_item_sets SET label_names = ? WHERE id = ?",
            (json.dumps(merged, ensure_ascii=False, sort_keys=True), set_id),
        )
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


def item_set_normalization(ws: Workspace, name: str) -> str:
    """What the item set ``name`` stores: "none" (as written) or "nfc" (the default, and
    every set imported before the choice was recorded)."""
    return (
        ws.scalar(
            "SELECT n.normalization FROM task_item_set_normalization n JOIN task_item_sets s "
            "ON s.id = n.set_id WHERE s.name = ?",
            (name,),
        )
        or DEFAULT_NORMALIZATION
    )


def label_names(ws: Workspace, source: str) -> dict[str, str]:
    """The stored label -> name mapping of an item source ({} for pairs or unnamed sets)."""
    if not source.startswith("items:"):
        return {}
    text = ws.scalar(
        "SELECT label_names FROM task_item_sets WHERE name = ?", (source.split(":", 1)[1],)
    )
    return json.loads(text) if text else {}


def item_sets(ws: Workspace) -> list[dict]:
    return ws.query(
        "SELECT s.name, s.source, count(i.id) AS items FROM task_item_sets s "
        "LEFT JOIN task_items i ON i.set_id = s.id GROUP BY s.id ORDER BY s.name"
    )


def split_counts(ws: Workspace, source: str) -> dict[str, int]:
    """Items per split of a source (``pairs`` or ``items:<set name>``)."""
    if source == "pairs":
        rows = ws.query("SELECT split, count(*) AS n FROM sentence_pairs GROUP BY split")
    else:
        rows = ws.query(
            "SELECT i.split, count(*) AS n FROM task_items i JOIN task_item_sets s "
            "ON s.id = i.set_id WHERE s.name = ? GROUP BY i.split",
            (source.removeprefix("items:"),),
        )
    return {r["split"]: r["n"] for r in rows if r["split"]}


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
        found = ws.query("SELECT id, label_names FROM task_item_sets WHERE name = ?", (name,))
        if not found:
            known = ", ".join(s["name"] for s in item_sets(ws)) or "none"
            raise UserError(f"no item set {name!r} (known: {known})")
        set_id, names = found[0]["id"], json.loads(found[0]["label_names"])
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
                label=names.get(r["label"], r["label"]),
                stored_label=r["label"],
            )
            for r in rows
        ]
    raise UserError(f"unknown item source {source!r}: use 'pairs' or 'items:<set name>'")
