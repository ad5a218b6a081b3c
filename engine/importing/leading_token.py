"""A label token at the start of every dialect text of a corpus, such as Vashantor's region
name ("সিলেট …"): found, reported, and stripped when the import asks."""

from __future__ import annotations

import collections
from collections.abc import Sequence

from engine.errors import Setting, setting
from engine.importing.columns import CellReader, ImportReport

# A leading token shared by >= 90% of a dialect's texts (and not by the standard side) is
# a label, not part of the sentence.
LEADING_TOKEN_SHARE = 0.9
LEADING_TOKEN_MIN_TEXTS = 20


def detect_leading_token(texts: list[str], standards: list[str] | None = None):
    """(token, count, share) when one first token dominates ``texts``, else None."""
    firsts = [t.split(" ", 1)[0] for t in texts if " " in t]
    if len(texts) < LEADING_TOKEN_MIN_TEXTS or not firsts:
        return None
    token, count = collections.Counter(firsts).most_common(1)[0]
    share = count / len(texts)
    if share < LEADING_TOKEN_SHARE:
        return None
    if standards and sum(s.split(" ", 1)[0] == token for s in standards) >= len(standards) / 2:
        return None  # the standard side starts the same way: real content, not a label
    return token, count, share


def apply_leading_token(
    cells: CellReader, pairs: Sequence, strip: str | None, report: ImportReport
) -> None:
    """Strip ``strip`` ("auto": the detected label token) from the texts of ``pairs`` (each
    with ``dialect``, ``text``, ``standard``, ``line`` and ``column``), and report what was
    found per dialect."""
    by_dialect: dict[str, list] = collections.defaultdict(list)
    for pair in pairs:
        by_dialect[pair.dialect].append(pair)
    explicit = strip if strip not in (None, "auto") else None
    for code, group in sorted(by_dialect.items()):
        found = detect_leading_token([p.text for p in group], [p.standard for p in group])
        token = explicit or (found[0] if found and strip == "auto" else None)
        stripped = 0
        if token:
            for pair in group:
                if pair.text == token:
                    cells.reject(
                        f"nothing left after stripping the leading token '{token}'",
                        pair.line,
                        pair.column,
                    )
                if pair.text.startswith(token + " "):
                    pair.text = pair.text[len(token) + 1 :]
                    stripped += 1
        if found:
            detected, count, share = found
            report.leading_tokens[code] = {
                "token": detected,
                "texts": len(group),
                "count": count,
                "share": round(share, 4),
                "stripped": stripped,
            }
            advice = (
                f"stripped it from {stripped:,} texts"
                if stripped
                else "kept it; use strip_leading_token='auto' "
                f"({setting(Setting.STRIP_LEADING_TOKEN, 'auto')}) "
                "to remove it, into a new corpus name"
            )
            report.warnings.append(
                f"{code}: {count:,} of {len(group):,} dialect texts ({share:.1%}) begin with "
                f"'{detected}', probably a label (such as the region's name), not part of the "
                f"sentence; {advice}"
            )
        elif token:
            report.leading_tokens[code] = {
                "token": token,
                "texts": len(group),
                "count": stripped,
                "share": None,
                "stripped": stripped,
            }
            report.warnings.append(
                f"{code}: stripped the leading token '{token}' from "
                f"{stripped:,} of {len(group):,} texts"
            )
    if strip == "auto" and not report.leading_tokens:
        report.warnings.append("no leading label token detected; nothing was stripped")
