"""``upabhasha report``: one self-contained HTML file (figures inlined as PNG, the Bengali
font embedded), plus every figure as PNG and SVG and every table as CSV and LaTeX, and the
run cards of all runs the report covers. Dialects are named in English and Bengali in the
figures and the HTML; the CSV and LaTeX tables keep the codes (machine-readable, and pdfLaTeX
has no Bengali).

Layout of the output folder::

    report.html
    figures/<name>.png, figures/<name>.svg
    tables/<name>.csv, tables/<name>.tex
    run_cards.json
"""

from __future__ import annotations

import base64
import json
import logging
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path

from engine.bias.run import PROBE_KIND
from engine.errors import Reference, Step, UserError, plain_words, render, step
from engine.judging import paired_scores, store
from engine.judging.judged_items import counted_items_from
from engine.llm.runs.replicate import replications
from engine.reports import figures, tables
from engine.reports.settings import STUDY_STATS, StudyStatsSettings
from engine.reports.study_statistics import study_statistics
from engine.text.fonts import font_paths
from engine.translation.draft_checks import flagged_notice
from engine.understanding.run import TASK_KIND_PREFIX
from engine.workspace.stages import load, report_sections
from engine.workspace.store import Workspace, utcnow

log = logging.getLogger(__name__)

SUMMARY_FIGURES = ("mean", "ci_low", "ci_high", "degradation", "n", "n_questions")
EMBEDDED_NOTICE = (
    "The embedded Gemma 3 270M base model took part in this study. It "
    "demonstrates the pipeline; its answers and judgments are not research "
    "findings. Real studies add real GGUF files or endpoints."
)


def write_report(
    ws: Workspace,
    out_dir: str | Path,
    *,
    judge_run: int | None = None,
    settings: StudyStatsSettings = STUDY_STATS,
    danger_threshold: float = 4.0,
    max_score: float = 10.0,
    words: Callable[[Reference], str] = plain_words,
) -> dict:
    """``words`` words the settings and steps the report's warnings name: the front end that
    writes the report passes its own, so the report speaks as the reader's tool does.
    A study without a judge run (paper 002's bias probes, understanding tasks) gets the
    report of what it has: its bias and task figures and tables."""
    out = Path(out_dir)
    judged = judge_run is not None or store.primary_judge(ws) is not None
    if judged:
        stats = study_statistics(
            ws,
            judge_run=judge_run,
            settings=settings,
            danger_threshold=danger_threshold,
            max_score=max_score,
            groupings=("model_dialect", "dialect", "dialect_domain", "dialect_type"),
        )
        sections = _judge_sections(ws, out, stats, max_score)
    else:
        stats = _unjudged_stats(settings, max_score)
        sections = []
    names = ws.dialect_names()
    # every stage's own sections (paper 002's if probed, paper 001's tasks if run), as each
    # declares them, their intervals drawn as the study's
    parts = [part for path in report_sections() for part in load(path)(ws, settings)]
    for part in parts:
        sections.append(
            _plain_section(
                out, part["stem"], part["title"], part["rows"], part["n_labels"], part["figure"]
            )
        )
    if not sections:
        raise UserError(
            f"nothing to report yet: no judge run, probe replies or task outputs (run "
            f"{step(Step.JUDGE)}, probe the models or run a task first)"
        )
    out.mkdir(parents=True, exist_ok=True)
    runs = _runs(ws, stats["judge_run"])
    (out / "run_cards.json").write_text(
        json.dumps(
            [{**r, "card": json.loads(r["card"])} for r in runs], ensure_ascii=False, indent=2
        ),
        encoding="utf-8",
    )
    by_run: dict[int, list[dict]] = {}
    for rep in replications(ws, [r["id"] for r in runs]):
        by_run.setdefault(rep["run_id"], []).append(rep)
    stats["warnings"] = [render(w, words) for w in stats["warnings"]]
    html = _render(
        stats=stats,
        sections=sections,
        runs=runs,
        replications=by_run,
        notices=_notices(ws, stats["judge_run"]) if judged else _model_notices(ws),
        workspace=str(ws.path),
        generated_at=utcnow(),
        font=_embedded_font(),
        show=lambda column, value: _show(names, column, value),
    )
    path = out / "report.html"
    path.write_text(html, encoding="utf-8")
    log.info("report written to %s", path)
    return {
        "report": str(path),
        "folder": str(out),
        "judge_run": stats["judge_run"],
        "n_items": stats["n_items"],
        "coverage": stats["coverage"],
        "replicated_runs": sorted(by_run),
        "partial": stats["partial"],
        "runs": [r["id"] for r in runs],
    }


def _judge_sections(ws: Workspace, out: Path, stats: dict, max_score: float) -> list[dict]:
    """The judged study's sections: its mean scores, tests and judge agreement."""
    names = ws.dialect_names()
    groups = stats["groups"]
    labels = {code: f"{d['name_en']}\n{d['name_bn']}" for code, d in names.items()}
    sections = [
        _section(
            out,
            "model_dialect",
            "Mean score per model and dialect",
            groups["model_dialect"],
            ("model", "dialect"),
            figures.heatmap(
                groups["model_dialect"],
                "model",
                "dialect",
                "Mean final score, model x dialect",
                max_score,
                labels,
            ),
        ),
        _section(
            out,
            "dialect",
            "Mean score per dialect (all models), 95% CI",
            groups["dialect"],
            ("dialect",),
            figures.bars_with_ci(
                groups["dialect"], "dialect", "Mean final score per dialect", max_score, labels
            ),
        ),
        _section(
            out,
            "dialect_domain",
            "Dialect x domain",
            groups["dialect_domain"],
            ("dialect", "domain"),
            figures.heatmap(
                groups["dialect_domain"],
                "domain",
                "dialect",
                "Mean final score, domain x dialect",
                max_score,
                labels,
            ),
        ),
        _section(
            out,
            "dialect_type",
            "Dialect x question type",
            groups["dialect_type"],
            ("dialect", "question_type"),
            figures.heatmap(
                groups["dialect_type"],
                "question_type",
                "dialect",
                "Mean final score, question type x dialect",
                max_score,
                labels,
            ),
        ),
        _plain_section(
            out,
            "paired_tests",
            "Paired Wilcoxon tests per question (Holm-corrected)",
            stats["paired_tests"],
            2,
        ),
        _agreement_section(ws, out, stats, max_score),
    ]
    return sections


def _unjudged_stats(settings: StudyStatsSettings, max_score: float) -> dict:
    """The report's header fields for a study without a judge run."""
    return {
        "judge_run": None,
        "judge_model": None,
        "n_items": 0,
        "coverage": {"text": "no judged answers (no judge run)", "complete": True},
        "partial": False,
        "warnings": [],
        "settings": {**settings.as_dict(), "max_score": max_score},
    }


def _section(out: Path, stem: str, title: str, rows: list[dict], labels: tuple, fig) -> dict:
    columns = [*labels, *SUMMARY_FIGURES]
    rows = [{c: r.get(c) for c in columns} for r in rows]
    return _finish(out, stem, title, rows, columns, len(labels), fig)


def _plain_section(
    out: Path, stem: str, title: str, rows: list[dict], n_labels: int, fig=None
) -> dict:
    columns = list(rows[0]) if rows else []
    return _finish(out, stem, title, rows, columns, n_labels, fig)


def _finish(out, stem, title, rows, columns, n_labels, fig) -> dict:
    if rows:
        tables.write_csv(rows, out / "tables" / f"{stem}.csv")
        tables.write_latex(rows, out / "tables" / f"{stem}.tex", title)
    png = None
    if fig is not None:
        paths = figures.save(fig, out / "figures", stem)
        png = base64.b64encode(Path(paths["png"]).read_bytes()).decode("ascii")
    return {"title": title, "rows": rows, "columns": columns, "n_labels": n_labels, "figure": png}


def _agreement_section(ws, out, stats, max_score) -> dict:
    rows = stats["agreement"]
    panels = []
    for r in rows:
        xs, ys = paired_scores.paired_machine_finals(ws, r["judge_a"], r["judge_b"])
        panels.append(
            (
                f"{r['model_a']} (run {r['judge_a']})",
                f"{r['model_b']} (run {r['judge_b']})",
                xs,
                ys,
                r,
            )
        )
    fig = figures.agreement_scatter(panels, max_score)
    return _plain_section(
        out,
        "judge_agreement",
        "Judge agreement (Pearson, Spearman, Lin's CCC, MAE, CBS)",
        rows,
        4,
        fig,
    )


def _runs(ws: Workspace, judge_run: int | None) -> list[dict]:
    """The judge runs and the answer runs whose answers they judged, and the probe and task
    runs whose figures the report shows."""
    return ws.query(f"""
        SELECT r.id, r.kind, r.status, r.created_at, r.card, m.name AS model
        FROM runs r LEFT JOIN models m ON m.id = r.model_id
        WHERE r.kind IN ('{store.JUDGE_KIND}', '{PROBE_KIND}')
           OR r.kind LIKE '{TASK_KIND_PREFIX}%' OR r.id IN (
            SELECT DISTINCT d.run_id FROM judgments j JOIN responses d ON d.id = j.response_id)
        ORDER BY r.id""")


def _show(names: dict, column: str, value) -> str:
    """A table cell of the HTML: dialects by name, "Chittagong (চট্টগ্রামের ভাষা)"."""
    if column == "dialect" and value in names:
        return f"{names[value]['name_en']} ({names[value]['name_bn']})"
    return _fmt(value)


def _embedded_font() -> str:
    """The bundled Noto Sans Bengali as base64, for an @font-face: Bengali renders in the
    report on a machine with no Bengali font (OFL permits embedding)."""
    return base64.b64encode(font_paths()[0].read_bytes()).decode("ascii")


def _gold_provenance(ws: Workspace, judge_run: int) -> str | None:
    """Who gold-labelled the judged dialect questions (the newest change to gold of each)."""
    rows = ws.query(
        """
        SELECT h.actor, count(*) AS n FROM variant_history h
        JOIN (SELECT max(h2.id) AS id FROM variant_history h2
              WHERE h2.new_status = 'gold' AND h2.variant_id IN (
                  SELECT d.variant_id FROM judgments j
                  JOIN responses d ON d.id = j.response_id WHERE j.run_id = ?)
              GROUP BY h2.variant_id) newest ON newest.id = h.id
        GROUP BY h.actor ORDER BY n DESC, h.actor""",
        (judge_run,),
    )
    if not rows:
        return None
    return (
        "Gold labels of the judged dialect questions set by: "
        + "; ".join(f"{r['actor'] or 'unnamed'} ({r['n']})" for r in rows)
        + "."
    )


def _model_notices(ws: Workspace) -> list[str]:
    names = [
        r["name"]
        for r in ws.query("SELECT DISTINCT m.name FROM runs r JOIN models m ON m.id = r.model_id")
    ]
    return [EMBEDDED_NOTICE] if any("embedded" in (n or "") for n in names) else []


def _notices(ws: Workspace, judge_run: int) -> list[str]:
    notices = _model_notices(ws)
    statuses = ws.query(  # the judged items the figures count (engine.judging.judged_items)
        f"""
        SELECT v.status, count(*) AS n {
            counted_items_from(
                "JOIN responses d ON d.id = ji.response_id",
                "JOIN variants v ON v.id = d.variant_id",
            )
        }
        AND v.status != 'gold' GROUP BY v.status""",
        (judge_run,),
    )
    if statuses:
        counts = ", ".join(f"{r['n']} {r['status']}" for r in statuses)
        notices.append(
            f"Not every dialect question is gold-labelled: {counts}. Figures on "
            "unreviewed machine translations measure the translation as much as "
            "the model."
        )
    drafts = flagged_notice(ws)
    if drafts:
        notices.append(drafts)
    provenance = _gold_provenance(ws, judge_run)
    if provenance:
        notices.append(provenance)
    return notices


def _fmt(value) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.3f}" if abs(value) < 1 else f"{value:.2f}"
    return str(value)


def _render(**context) -> str:
    # lazy: jinja2 is slow to import
    from jinja2 import Environment, select_autoescape

    source = (files("resources") / "report" / "report.html.j2").read_text(encoding="utf-8")
    env = Environment(autoescape=select_autoescape(default=True, default_for_string=True))
    return env.from_string(source).render(fmt=_fmt, **context)
