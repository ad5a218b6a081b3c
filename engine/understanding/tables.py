"""The task results as a table (one row per run, like the paper's tables): text rows for the
panel, CSV and LaTeX files. Every score column names its scale."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from engine.files.output_path import write_text_atomic

HEADER = [
    "task", "model", "regime", "k", "script", "scheme", "constrained", "n",
    "chrF++ (0-100)", "BLEU (0-100)", "ROUGE-L (0-100)", "exact match (0-100)",
    "macro-F1 (0-1)", "accuracy (0-1)", "copy chrF++ (0-100)",
    "unparseable (0-1)", "script drift (0-1, of parsed)", "empty (0-1)",
    "round-trip CER (0-1)", "normalize",
]  # fmt: skip
# CSV only (too long for a LaTeX cell): what the sample lacks
CSV_EXTRA = ["warnings"]


def _num(value, digits: int) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def result_table(report: dict) -> tuple[list[str], list[list[str]]]:
    rows = []
    for r in report.get("runs", []):
        m, f = r["macro"], r["failures"]
        rows.append(
            [
                r["task"], r["model"] or "", r["regime"], str(r["k"]), r["script"],
                r.get("scheme") or "", "yes" if r["constrained"] else "no", str(r["n"]),
                _num(m.get("chrf++"), 2), _num(m.get("bleu"), 2), _num(m.get("rougeL"), 2),
                _num(m.get("exact_match"), 2), _num(m.get("macro_f1"), 3),
                _num(m.get("accuracy"), 3),
                "n/a" if r.get("copy_baseline_not_applicable")
                else _num(r.get("copy_baseline_macro", {}).get("chrf++"), 2),
                _num(f["unparseable"], 3), _num(f["script_drift"], 3), _num(f["empty"], 3),
                _num((r.get("round_trip") or {}).get("mean_cer"), 3),
                r.get("normalize", "nfc"),
            ]
        )  # fmt: skip
    return HEADER, rows


def write_csv(report: dict, path: str | Path) -> int:
    header, rows = result_table(report)
    warnings = ["; ".join(r.get("warnings", [])) for r in report.get("runs", [])]
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(header + CSV_EXTRA)
    writer.writerows(row + [w] for row, w in zip(rows, warnings))
    write_text_atomic(path, buffer.getvalue())  # whole or not at all
    return len(rows)


_LATEX = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
          "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}"}  # fmt: skip


def latex_escape(text: str) -> str:
    return "".join(_LATEX.get(c, c) for c in text)


def write_latex(report: dict, path: str | Path) -> int:
    header, rows = result_table(report)
    lines = [
        r"\begin{tabular}{" + "l" * 7 + "r" * (len(header) - 7) + "}",
        r"\toprule",
        " & ".join(latex_escape(h) for h in header) + r" \\",
        r"\midrule",
        *(" & ".join(latex_escape(c) for c in row) + r" \\" for row in rows),
        r"\bottomrule",
        r"\end{tabular}",
    ]
    write_text_atomic(path, "\n".join(lines) + "\n")
    return len(rows)
