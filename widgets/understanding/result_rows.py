"""The understanding results grid as text: one row per run (model × regime × script), laid
out like the paper's tables, as the Tasks panel shows it."""

from __future__ import annotations

import re

from engine.i18n import _, digits
from engine.understanding.api import macro_words
from widgets.common.labels import label


def number_text(value, digits: int = 2) -> str:
    """``value`` with ``digits`` decimals, or a dash when there is none."""
    return "—" if value is None else f"{value:.{digits}f}"


def result_rows(report: dict, *, labelled: bool = False) -> tuple[list[str], list[list[str]]]:
    """The results grid as text: one row per run (also the CSV export's content, which keeps
    the stored codes; ``labelled``: codes named and digits in the interface language)."""
    name = label if labelled else (lambda _kind, code: code)
    header = [
        _("Task"), _("Model"), _("Regime"), _("Script"), "k", "n",
        _("Metric 1"), _("Metric 2"), _("Copy baseline"),
        _("Unparseable"), _("Script drift"), _("Empty"),
    ]  # fmt: skip
    rows = []
    for r in report.get("runs", []):
        macro = r["macro"]
        if "chrf++" in macro:
            ci = r.get("chrf_macro_ci") or {}
            m1 = f"chrF++ {number_text(macro['chrf++'])} [{number_text(ci.get('low'))}, {number_text(ci.get('high'))}]"
            m2 = f"BLEU {number_text(macro['bleu'])}"
        else:
            f1 = macro.get("macro_f1")
            undefined = _("undefined")
            m1 = f"macro-F1 {undefined if f1 is None else number_text(f1, 3)}"
            accuracy = _("accuracy")
            m2 = f"{accuracy} {number_text(macro.get('accuracy'), 3)}"
        # what the macro score is over (dialects, or labels where the label is the dialect)
        scale = _("scale {scale}").format(scale=macro["scale"])
        m1 = " · ".join((m1, macro_words(macro["macro_over"]), scale))
        copy = r.get("copy_baseline_macro", {}).get("chrf++")
        failures = r["failures"]
        rows.append([
            name("task", r["task"]), r["model"] or "", name("regime", r["regime"]),
            name("script", r["script"])
            + (f" ({name('scheme', r['scheme'])})" if r.get("scheme") else "")
            + (" " + _("constrained") if r["constrained"] else ""),
            str(r["k"]), str(r["n"]), m1, m2,
            (_("not applicable") if r.get("copy_baseline_not_applicable") else "—")
            if copy is None
            else f"chrF++ {number_text(copy)}",
            number_text(failures["unparseable"], 3), number_text(failures["script_drift"], 3),
            number_text(failures["empty"], 3),
        ])  # fmt: skip
    if labelled:
        rows = [[row[0], row[1], *(native_numbers(cell) for cell in row[2:])] for row in rows]
    return header, rows


# a number, not the digit of a name written with it ("macro-F1", "chrF++" keep theirs)
_NUMBER = re.compile(r"(?<![A-Za-z])[0-9]+")


def native_numbers(text: str) -> str:
    """The numbers of ``text`` in the interface's digits."""
    return _NUMBER.sub(lambda m: digits(m.group()), text)
