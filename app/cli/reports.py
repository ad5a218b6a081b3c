"""Report commands: ``stats`` (mean scores with clustered CIs, degradation, paired tests, judge
agreement) and ``report`` (HTML with figures, tables and run cards)."""

from __future__ import annotations

from app.cli import stages
from app.cli.arguments import (
    number_in,
    output_folder,
    resamples_int,
    row_id,
    seed_int,
)
from app.cli.hints import cli_words, for_cli
from app.cli.output import add_json, emit, fmt
from engine.errors import UserError


def _add_bootstrap_options(p) -> None:
    # Defaults None: engine.reports.api.StudyStatsSettings holds them, and the Charts panel
    # reads the same (importing the stage here would load it for every command).
    p.add_argument("--seed", type=seed_int, help="bootstrap seed (default: the Charts panel's)")
    p.add_argument(
        "--resamples",
        type=resamples_int,
        help="bootstrap resamples (default: the Charts panel's, printed with --json)",
    )


def _settings(reports, args):
    return reports.StudyStatsSettings.given(seed=args.seed, resamples=args.resamples)


def register(sub) -> None:
    p = sub.add_parser(
        "stats",
        help="mean scores with clustered CIs, degradation, paired tests, judge agreement",
    )
    p.add_argument("--judge-run", type=row_id, metavar="RUN", help="default: the primary judge")
    _add_bootstrap_options(p)
    p.add_argument(
        "--danger-threshold", type=number_in(0, 10), help="CBS threshold (default: rubric's)"
    )
    p.add_argument("--rubric", metavar="PATH")
    add_json(p)
    p.set_defaults(func=cmd_stats)

    p = sub.add_parser(
        "report",
        help="write an HTML report with figures (PNG, SVG), CSV/LaTeX tables and run cards",
    )
    p.add_argument(
        "--out",
        default="upabhasha-report",
        type=output_folder,
        metavar="DIR",
        help="output folder (default: upabhasha-report)",
    )
    p.add_argument("--judge-run", type=row_id, metavar="RUN", help="default: the primary judge")
    _add_bootstrap_options(p)
    p.add_argument("--rubric", metavar="PATH")
    add_json(p)
    p.set_defaults(func=cmd_report)


def cmd_stats(args, ctx) -> int:
    reports = stages.reports()
    rubric = stages.judging().load_rubric(args.rubric)
    threshold = (
        args.danger_threshold if args.danger_threshold is not None else rubric.danger_threshold
    )
    if not 0 <= threshold <= rubric.max_score:
        raise UserError(
            f"--danger-threshold must be in [0, {rubric.max_score:g}] (the rubric's final "
            f"score), not {threshold:g}"
        )
    stats = reports.study_statistics(
        ctx.workspace(),
        judge_run=args.judge_run,
        settings=_settings(reports, args),
        danger_threshold=threshold,
        review_threshold=rubric.review_confidence_threshold,
        max_score=rubric.max_score,
    )
    if emit(ctx, args, stats):
        return 0
    if stats["partial"]:
        print(f"*** PARTIAL STUDY: {stats['coverage']['text']} ***")
    else:
        print(f"coverage: {stats['coverage']['text']} (complete)")
    print(
        f"judge {stats['judge_model']} (run {stats['judge_run']}): {stats['n_items']} "
        f"judged answers over {stats['n_questions']} questions, "
        f"{stats['n_human_overrides']} human overrides; gates {stats['gates']}"
    )
    by = stats["judged_by"]
    print(
        f"judged by: {by['machine_only']} machine only, {by['human']} with a human score, "
        f"{by['flagged_awaiting_review']} flagged awaiting review ({stats['n_flagged']} flagged "
        "in all)"
    )
    level = stats["settings"]["level"]
    for name, rows in stats["groups"].items():
        print(
            f"\n{name.replace('_', ' x ')}: mean final score ({level:.0%} CI clustered by "
            "question); points lost against the standard answer"
        )
        for r in rows:
            label = " / ".join(str(r[k]) for k in r if k not in _FIGURES)
            print(
                f"  {label:<40} {fmt(r['mean'])} [{fmt(r['ci_low'])}, {fmt(r['ci_high'])}]  "
                f"lost {fmt(r['degradation'])}  n={r['n']} answers, {r['n_questions']} questions"
            )
    if stats["paired_tests"]:
        print("\npaired Wilcoxon tests per question (Holm-corrected across all comparisons):")
        for t in stats["paired_tests"]:
            print(
                f"  {t['a']} vs {t['b']}: mean diff {fmt(t['mean_diff'])}, "
                f"p={fmt(t['p'], 4)}, Holm p={fmt(t['p_holm'], 4)}, n={t['n']}"
            )
    for a in stats["agreement"]:
        print(
            f"\njudges {a['model_a']} (run {a['judge_a']}) vs {a['model_b']} "
            f"(run {a['judge_b']}): CCC {fmt(a['ccc'])}, MAE {fmt(a['mae'])}, "
            f"Pearson {fmt(a['pearson'])}, Spearman {fmt(a['spearman'])}, CBS {fmt(a['cbs'])}, "
            f"n={a['n']}"
        )
    for w in stats["warnings"]:
        print(f"warning: {for_cli(w)}")
    print(f"\n{stats['review_queue']} judgments wait for human review (upabhasha queue)")
    return 0


def cmd_report(args, ctx) -> int:
    reports = stages.reports()
    rubric = stages.judging().load_rubric(args.rubric)
    result = reports.write_report(
        ctx.workspace(),
        args.out,
        judge_run=args.judge_run,
        settings=_settings(reports, args),
        danger_threshold=rubric.danger_threshold,
        max_score=rubric.max_score,
        words=cli_words,
    )
    emit(
        ctx,
        args,
        result,
        f"report: {result['report']} ({result['n_items']} judged answers, "
        f"{len(result['runs'])} run cards; {result['coverage']['text']}"
        f"{' - PARTIAL STUDY, marked in the report' if result['partial'] else ''})",
    )
    return 0


_FIGURES = {
    "n",
    "n_questions",
    "mean",
    "ci_low",
    "ci_high",
    "degradation",
    "degradation_low",
    "degradation_high",
    "degradation_share",
}


# where this module's sub-commands and ``import`` kinds sit in ``upabhasha --help``
# (app/cli/registry.py gathers every stage's)
COMMANDS = [(80, register)]
IMPORTS: list = []
