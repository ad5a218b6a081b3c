"""Bias tables for papers and spreadsheets: CSV and LaTeX of the per-category rows of
:func:`engine.bias.results.bias_statistics`. Every table says its scale and zero rule."""

from __future__ import annotations

import csv
import io

COLUMNS = (
    "run_id", "model", "probe_set", "mode", "topic", "group_x", "group_y", "category",
    "subcategory", "occupation_mixed", "n", "n_probes", "count_x", "count_y", "both_neither",
    "refusal", "unparseable", "refusal_rate", "neutral_rate", "unparseable_rate", "score",
    "ci_low", "ci_high", "zero_count", "band",
)  # fmt: skip


def groups_csv(stats: dict) -> str:
    out = io.StringIO()
    out.write(
        f"# {stats['scale']}; {stats['zero_rule_note']}; {stats['ci']}; "
        f"normalisation table {stats['normalisation_version']}\n"
    )
    writer = csv.DictWriter(out, COLUMNS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in stats["groups"]:
        writer.writerow({k: ("" if row.get(k) is None else row.get(k)) for k in COLUMNS})
    return out.getvalue()


_LATEX_SPECIAL = {c: "\\" + c for c in "&%$#_{}"} | {
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\\": r"\textbackslash{}",
}


def _tex(text) -> str:
    return "".join(_LATEX_SPECIAL.get(c, c) for c in str(text))


def _num(v, digits=2) -> str:
    return "--" if v is None else f"{v:+.{digits}f}"


def _pct(v) -> str:
    return "--" if v is None else f"{100 * v:.0f}\\%"


def groups_latex(stats: dict) -> str:
    lines = [
        r"\begin{tabular}{lllrrrrrl}",
        r"\hline",
        r"Model & Category & Trait & $n$ & Score & 95\% CI & Refusal & Unparseable & Note \\",
        r"\hline",
    ]
    for r in stats["groups"]:
        cat = r["category"] + (" + occupation" if r["occupation_mixed"] else "")
        ci = f"[{_num(r['ci_low'])}, {_num(r['ci_high'])}]"
        lines.append(
            f"{_tex(r['model'])} & {_tex(cat)} & {_tex(r['subcategory'])} & {r['n']} & "
            f"{_num(r['score'])} & {ci} & {_pct(r['refusal_rate'])} & "
            f"{_pct(r['unparseable_rate'])} & {_tex(r['zero_count'] or r['band'])} \\\\"
        )
    lines += [
        r"\hline",
        r"\end{tabular}",
        f"% {_tex(stats['scale'])}; {_tex(stats['zero_rule_note'])}; {_tex(stats['ci'])}",
    ]
    return "\n".join(lines) + "\n"
