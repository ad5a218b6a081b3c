"""Writers for real tabular files in every format and encoding (importer tests)."""

from __future__ import annotations

import codecs
import csv
import io
import json
from pathlib import Path

# Encodings a user's file may arrive in; "utf-16-be" is written with its BOM.
ENCODINGS = ("utf-8", "utf-8-sig", "utf-16", "utf-16-be")


def encode(text: str, encoding: str) -> bytes:
    if encoding == "utf-16-be":
        return codecs.BOM_UTF16_BE + text.encode("utf-16-be")
    return text.encode(encoding)


def write_table(
    path: Path, rows: list[dict], *, encoding: str = "utf-8", columns: list[str] | None = None
) -> Path:
    """Write ``rows`` as the format named by ``path``'s suffix."""
    columns = columns or list(rows[0])
    suffix = path.suffix.lower()
    if suffix in (".csv", ".tsv"):
        out = io.StringIO(newline="")
        writer = csv.writer(out, delimiter="," if suffix == ".csv" else "\t", lineterminator="\n")
        writer.writerow(columns)
        for row in rows:
            writer.writerow(["" if row.get(c) is None else row.get(c) for c in columns])
        path.write_bytes(encode(out.getvalue(), encoding))
    elif suffix == ".json":
        path.write_bytes(encode(json.dumps(rows, ensure_ascii=False, indent=1), encoding))
    elif suffix == ".jsonl":
        text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
        path.write_bytes(encode(text, encoding))
    elif suffix == ".xlsx":
        import openpyxl

        workbook = openpyxl.Workbook()
        sheet = workbook.active
        sheet.append(columns)
        for row in rows:
            sheet.append([row.get(c) for c in columns])
        workbook.save(path)
    else:
        raise ValueError(suffix)
    return path


def dump(ws) -> list[str]:
    """The workspace's whole content as SQL, to prove a rejected import changed nothing."""
    return list(ws.conn.iterdump())
