"""The understanding results grid as text: one row per run (model × regime × script), laid
out like the paper's tables, as the Tasks panel shows it."""

from __future__ import annotations

from engine.i18n import _


def number_text(value, digits: int = 2) -> str:
    """``value`` with ``digits`` decimals, or a dash when there is none."""
    return "—" if value is None else f"{value:.{digits}f}"


def result_rows(report: dict) -> tuple[list[str], list[list[str]]]:
    """The results grid as text: one row per run (also the CSV export's content)."""
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
            m1 = f"macro-F1 {number_text(macro.get('macro_f1'), 3)}"
            m2 = f"acc {number_text(macro.get('accuracy'), 3)}"
        copy = r.get("copy_baseline_macro", {}).get("chrf++")
        failures = r["failures"]
        rows.append([
            r["task"], r["model"] or "", r["regime"],
            r["script"] + (f" ({r['scheme']})" if r.get("scheme") else "")
            + (" " + _("constrained") if r["constrained"] else ""),
            str(r["k"]), str(r["n"]), m1 + " · " + _("scale {scale}").format(scale=macro["scale"]), m2,
            (_("not applicable") if r.get("copy_baseline_not_applicable") else "—")
            if copy is None
            else f"chrF++ {number_text(copy)}",
            number_text(failures["unparseable"], 3), number_text(failures["script_drift"], 3),
            number_text(failures["empty"], 3),
        ])  # fmt: skip
    return header, rows
