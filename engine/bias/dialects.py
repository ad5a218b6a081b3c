"""Dialect × bias: the same probes asked in regional dialects.

1. :func:`probes_to_questions` puts a probe set into the translation flow: a question set
   (default ``probes:<set>``) with one standard-Bengali question per probe — the prompt with
   group x's option first, ext_id = the probe's — whose variants ``upabhasha translate``
   drafts and reviewers correct and mark gold like any other question.
2. :func:`dialect_probe_sets` turns the reviewed dialect variants back into probe sets
   ``<set>@<dialect>``: each dialect probe keeps the base probe's ext_id, options, group
   mapping, category and subcategory. Both option words must occur in the dialect text as
   written (they are located there and become the stem's slots, so the order is again
   chosen per prompt); a variant where one is missing is listed, not guessed — fix it in
   review and run this again.
3. ``probe --sets <set>@<dialect>`` asks them; :func:`engine.bias.results.bias_statistics`
   pairs each dialect run with the standard run of the same model and mode and reports the
   score change per category with a paired bootstrap CI over probes.
"""

from __future__ import annotations

import collections

from engine.bias.probes import Probe, ProbeReport, locate_options, write_probe_set
from engine.bias.run import drawn_probes
from engine.errors import Setting, Step, UserError, setting, step
from engine.importing.question_import import QuestionRow, write_question_set
from engine.text.textnorm import canonical_key
from engine.workspace.store import Workspace

DEFAULT_STATUSES = ("gold",)


def _base_set(ws: Workspace, set_name: str) -> dict:
    rows = ws.query("SELECT * FROM probe_sets WHERE name = ?", (set_name,))
    if not rows:
        raise UserError(f"no probe set {set_name!r}")
    if rows[0]["dialect"] != "standard":
        raise UserError(f"probe set {set_name!r} is itself a dialect version")
    return rows[0]


def _probe_text(p: dict) -> str:
    return p["stem"].replace("{a}", p["option_x"], 1).replace("{b}", p["option_y"], 1)


def probes_to_questions(
    ws: Workspace,
    set_name: str,
    question_set: str | None = None,
    limit: int | None = None,
    seed: int = 0,
) -> dict:
    """Write (or extend) the question set; standard variants are gold (the probe text). With
    ``limit``, the probes are the seeded stratified sample a limited probe run draws, so the
    probes translated are the ones that run asks, and a larger limit extends the set."""
    base = _base_set(ws, set_name)
    name = question_set or f"probes:{set_name}"
    probes = drawn_probes(ws, base, seed, limit)
    questions = [
        QuestionRow(
            line=0, text=_probe_text(p), key=canonical_key(_probe_text(p)), ext_id=p["ext_id"]
        )
        for p in probes
    ]
    report = write_question_set(ws, name, f"probe set {set_name}", questions)
    return {
        "question_set": name,
        "probes": len(probes),
        "inserted": report.inserted,
        **({"sample": {"limit": limit, "seed": seed}} if limit is not None else {}),
    }


def dialect_probe_sets(
    ws: Workspace,
    set_name: str,
    *,
    question_set: str | None = None,
    dialects: list[str] | None = None,
    statuses: tuple[str, ...] = DEFAULT_STATUSES,
) -> list[dict]:
    """One probe set per dialect from the question set's dialect variants."""
    base = _base_set(ws, set_name)
    name = question_set or f"probes:{set_name}"
    if ws.scalar("SELECT id FROM question_sets WHERE name = ?", (name,)) is None:
        raise UserError(f"no question set {name!r}: run {step(Step.PROBES_TO_QUESTIONS)} first")
    probes = {
        p["ext_id"]: p
        for p in ws.query("SELECT * FROM probe_items WHERE set_id = ?", (base["id"],))
    }
    marks = ",".join("?" * len(statuses))
    rows = ws.query(
        f"""SELECT q.ext_id, v.dialect, v.text FROM variants v
            JOIN questions q ON q.id = v.question_id
            JOIN question_sets s ON s.id = q.set_id
            WHERE s.name = ? AND v.dialect != 'standard' AND v.script = 'bengali'
              AND v.status IN ({marks}) ORDER BY v.dialect, q.id""",
        (name, *statuses),
    )
    if dialects:
        unknown = set(dialects) - ws.dialect_codes()
        if unknown:
            raise UserError(f"unknown dialect {sorted(unknown)}")
        rows = [r for r in rows if r["dialect"] in dialects]
    by_dialect: dict[str, list[dict]] = collections.defaultdict(list)
    for r in rows:
        by_dialect[r["dialect"]].append(r)
    reports = []
    for dialect, variants in sorted(by_dialect.items()):
        made: list[Probe] = []
        skipped: list[str] = []
        for v in variants:
            p = probes.get(v["ext_id"])
            if p is None:
                skipped.append(f"{v['ext_id']}: no such probe in {set_name}")
                continue
            found = locate_options(v["text"], p["option_x"], p["option_y"])
            if isinstance(found, str):
                skipped.append(f"{v['ext_id']}: {found.removeprefix('missing option: ')}")
                continue
            made.append(
                Probe(
                    p["ext_id"],
                    found[0],
                    p["option_x"],
                    p["option_y"],
                    found[1],
                    p["category"],
                    p["subcategory"],
                    bool(p["occupation_mixed"]),
                    p["occupation"],
                    p["trait"],
                )
            )
        report = ProbeReport(
            name=f"{set_name}@{dialect}",
            kind=base["kind"],
            topic=base["topic"],
            groups=(base["group_x"], base["group_y"]),
            path=name,
            rows_read=len(variants),
        )
        if made:
            write_probe_set(
                ws,
                report,
                made,
                source=f"dialect variants of {name}",
                dialect=dialect,
                base_set_id=base["id"],
            )
        report.warnings = skipped
        reports.append({**report.to_dict(), "dialect": dialect, "skipped": len(skipped)})
    if not reports:
        raise UserError(
            f"no {'/'.join(statuses)} dialect variants in question set {name!r} yet "
            f"(translate and review them, or pass {setting(Setting.STATUS, 'draft,reviewed,gold')})"
        )
    return reports
