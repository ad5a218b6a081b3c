"""Study commands: generate, judge, judges, queue, override, calibrate, stats.

Every long command resumes where it stopped and prints a one-line progress on stderr;
``--json`` prints one JSON document on stdout.
"""

from __future__ import annotations

import math

from app.cli.context import incomplete
from engine.errors import UserError
from engine.llm.model_registry import all_models, find_model


def register(sub) -> None:
    p = sub.add_parser(
        "generate",
        help="every model answers the standard question and each dialect variant (resumable)",
    )
    p.add_argument(
        "--model",
        action="append",
        metavar="NAME",
        help="answering model (repeatable; default: the default model)",
    )
    p.add_argument("--all-models", action="store_true", help="every model in the workspace")
    p.add_argument(
        "--status",
        default="gold",
        help="variant statuses to answer, comma-separated (default: gold; "
        "drafts on request: draft,reviewed,gold)",
    )
    p.add_argument("--dialect", action="append", metavar="CODE", help="only these dialects")
    p.add_argument("--question-set", metavar="NAME")
    p.add_argument("--max-tokens", type=int, default=384)
    p.add_argument(
        "--prompts",
        metavar="DIR",
        help="folder with this workspace's own answer_<dialect>.txt files",
    )
    p.add_argument("--n-seq", type=int, help="local models: sequences decoded together")
    _common(p)
    p.set_defaults(func=cmd_generate)

    p = sub.add_parser(
        "judge",
        help="score dialect answers against standard answers with a judge model (resumable)",
    )
    _judge_options(p)
    p.add_argument(
        "--answers-of",
        action="append",
        metavar="MODEL",
        help="only the answers of this model (repeatable)",
    )
    p.add_argument("--primary", action="store_true", help="mark this judge as the primary one")
    _common(p)
    p.set_defaults(func=cmd_judge)

    p = sub.add_parser("judges", help="judge runs and their roles; choose the primary judge")
    p.add_argument("--primary", type=int, metavar="RUN", help="make this judge run primary")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_judges)

    p = sub.add_parser("queue", help="judgments waiting for human review (low confidence)")
    p.add_argument(
        "--threshold",
        type=int,
        default=3,
        help="queue judgments with confidence at or below this (default 3)",
    )
    p.add_argument("--judge-run", type=int, metavar="RUN")
    p.add_argument("--all", action="store_true", help="include already reviewed ones")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_queue)

    p = sub.add_parser(
        "override", help="record a human score for a judgment (the machine judgment is kept)"
    )
    p.add_argument("judgment", type=int, metavar="JUDGMENT_ID")
    p.add_argument("--annotator", required=True, help="who scores")
    p.add_argument("--reason", required=True, help="why the machine score is overridden")
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--final", type=float, help="final score 0-10")
    group.add_argument(
        "--scores",
        metavar="C,C,C,C,C",
        help="Likert 0-5 for comprehension,correctness,completeness,clarity,length",
    )
    p.add_argument("--rubric", metavar="PATH")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_override)

    p = sub.add_parser(
        "calibrate",
        help="score the human-scored items with a judge and report CCC, MAE and a confusion table",
    )
    _judge_options(p)
    _common(p)
    p.set_defaults(func=cmd_calibrate)

    p = sub.add_parser(
        "stats",
        help="mean scores with clustered 95%% CIs, degradation, paired tests, judge agreement",
    )
    p.add_argument("--judge-run", type=int, metavar="RUN", help="default: the primary judge")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--resamples", type=int, default=2000)
    p.add_argument("--danger-threshold", type=float, help="CBS threshold (default: rubric's)")
    p.add_argument("--rubric", metavar="PATH")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_stats)

    p = sub.add_parser(
        "report",
        help="write an HTML report with figures (PNG, SVG), CSV/LaTeX tables and run cards",
    )
    p.add_argument(
        "--out",
        default="upabhasha-report",
        metavar="DIR",
        help="output folder (default: upabhasha-report)",
    )
    p.add_argument("--judge-run", type=int, metavar="RUN", help="default: the primary judge")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--resamples", type=int, default=2000)
    p.add_argument("--rubric", metavar="PATH")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_report)


def _common(p) -> None:
    p.add_argument("--json", action="store_true", help="print a JSON summary")
    p.add_argument("--quiet", action="store_true", help="no progress line")


def _judge_options(p) -> None:
    p.add_argument("--judge", metavar="NAME", help="judge model (default: the default model)")
    p.add_argument("--rubric", metavar="PATH", help="rubric JSON (default: bundled)")
    p.add_argument("--template", metavar="PATH", help="judge prompt (default: bundled)")
    p.add_argument(
        "--max-attempts",
        type=int,
        default=3,
        help="asks per item when the reply is not a valid verdict",
    )
    p.add_argument("--n-seq", type=int, help="local models: sequences decoded together")


def _rubric(path):
    from engine.judging.rubric import load_rubric

    return load_rubric(path)


def cmd_generate(args, ctx) -> int:
    from engine.answering.generation import DEFAULT_SAMPLER, generate_answers
    from engine.llm.types import Sampler

    ws = ctx.workspace()
    if args.all_models:
        models = all_models(ws)
    else:
        models = [find_model(ws, n) for n in (args.model or [None])]
    dialects = [d for item in (args.dialect or []) for d in item.split(",") if d]
    sampler = Sampler(
        **{**DEFAULT_SAMPLER.as_dict(), "max_tokens": args.max_tokens, "stop": DEFAULT_SAMPLER.stop}
    )
    summaries = generate_answers(
        ws,
        models,
        statuses=tuple(s.strip() for s in args.status.split(",") if s.strip()),
        dialects=dialects or None,
        question_set=args.question_set,
        sampler=sampler,
        prompt_dir=args.prompts,
        schedule={"n_seq": args.n_seq} if args.n_seq else None,
        progress=ctx.progress_printer("answers", quiet=args.quiet or args.json),
    )
    if args.json:
        ctx.emit_json({"runs": summaries})
    else:
        for s in summaries:
            print(
                f"{s['model']}: run {s['run_id']}, {s['done_before'] + s['done_now']}/"
                f"{s['items']} answers ({s['done_now']} new, {s['cached']} from cache, "
                f"{s['errors']} errors){'' if s['complete'] else ' - incomplete, run again'}"
            )
    missing = sum(s["items"] - s["done_before"] - s["done_now"] for s in summaries)
    if missing:
        total = sum(s["items"] for s in summaries)
        return incomplete(ctx, f"generate: {missing} of {total} answers failed or missing")
    return 0


def _judge_kwargs(args) -> dict:
    from engine.judging.prompt import load_judge_template

    kwargs = {
        "rubric": _rubric(args.rubric),
        "max_attempts": args.max_attempts,
        "template": load_judge_template(args.template),
    }
    if args.n_seq:
        kwargs["schedule"] = {"n_seq": args.n_seq}
    return kwargs


def cmd_judge(args, ctx) -> int:
    from engine.judging.run import finish_judge_run, judge_answers

    ws = ctx.workspace()
    judge = find_model(ws, args.judge)
    runs = None
    if args.answers_of:
        runs = [
            r["id"]
            for name in args.answers_of
            for r in ws.query(
                "SELECT id FROM runs WHERE kind = 'answer' AND model_id = ?",
                (find_model(ws, name)["id"],),
            )
        ]
        if not runs:
            raise UserError("those models have no answers yet: run 'upabhasha generate'")
    kwargs = _judge_kwargs(args)
    summary = judge_answers(
        ws,
        judge,
        answer_run_ids=runs,
        progress=ctx.progress_printer("judging", quiet=args.quiet or args.json),
        **kwargs,
    )
    result = {
        **summary.as_dict(),
        "judge_model": judge["name"],
        **finish_judge_run(
            ws,
            summary.run_id,
            primary=args.primary,
            review_threshold=kwargs["rubric"].review_confidence_threshold,
        ),
    }
    queue, warnings = result["review_queue"], result["warnings"]
    if args.json:
        ctx.emit_json(result)
    else:
        s = summary
        print(
            f"judge {judge['name']} (run {s.run_id}{', primary' if result['primary'] else ''}): "
            f"{s.judged_before + s.gated + s.judged_now}/{s.pairs} answer pairs judged "
            f"({s.gated} zeroed by the script/refusal gate, {s.judged_now} by the judge, "
            f"{s.invalid_replies} invalid replies asked again, {s.failed} still failing)"
        )
        if s.flagged:
            print(
                f"{s.flagged} judgment(s) flagged (answers addressing the judge, or verdicts "
                "the texts cannot support): sent to human review whatever the confidence"
            )
        print(f"{queue} judgments wait for human review (upabhasha queue)")
        for w in warnings:
            print(f"warning: {w}")
    if summary.cancelled:
        return 130
    if summary.failed:
        return incomplete(
            ctx,
            f"judge: {summary.failed} of {summary.pairs} answer pairs have no valid verdict",
        )
    return 0


def cmd_judges(args, ctx) -> int:
    from engine.judging import store

    ws = ctx.workspace()
    if args.primary is not None:
        store.set_primary_judge(ws, args.primary)
    rows = store.judge_runs(ws)
    if args.json:
        ctx.emit_json(rows)
        return 0
    if not rows:
        print("no judge runs yet (upabhasha judge)")
    for r in rows:
        print(
            f"run {r['run_id']:>3}  {r['role']:<9}  {r['judgments']:>6} judgments  "
            f"{r['model']} [{r['family'] or 'family unknown'}]"
        )
    return 0


def cmd_queue(args, ctx) -> int:
    from engine.judging import store

    rows = store.review_queue(
        ctx.workspace(), threshold=args.threshold, run_id=args.judge_run, include_reviewed=args.all
    )
    if args.json:
        ctx.emit_json(rows)
        return 0
    print(
        f"{len(rows)} judgments flagged or with confidence <= {args.threshold}"
        f"{'' if args.all else ' not yet reviewed'}"
    )
    for r in rows:
        human = "" if r["human_final"] is None else f", human {r['human_final']:.1f}"
        human += f", FLAGGED {r['flags']}" if r["flags"] else ""
        print(
            f"#{r['judgment_id']} [{r['dialect']}] confidence {r['confidence']}, "
            f"machine {r['final']:.1f}{human}: {r['dialect_question'][:60]}"
        )
    return 0


def cmd_override(args, ctx) -> int:
    from engine.judging import store
    from engine.judging.rubric import CRITERION_KEYS

    rubric = _rubric(args.rubric)
    scores = None
    if args.scores:
        parts = [p.strip() for p in args.scores.split(",")]
        if len(parts) != len(CRITERION_KEYS) or not all(p.isdigit() for p in parts):
            raise UserError(
                f"--scores needs {len(CRITERION_KEYS)} integers 0-5 for {','.join(CRITERION_KEYS)}"
            )
        scores = dict(zip(rubric.keys, map(int, parts)))
    ws = ctx.workspace()
    annotation = store.add_override(
        ws,
        args.judgment,
        annotator=args.annotator,
        reason=args.reason,
        rubric=rubric,
        scores=scores,
        final=args.final,
    )
    history = store.override_history(ws, args.judgment)
    if args.json:
        ctx.emit_json({"annotation_id": annotation, "history": history})
    else:
        print(
            f"judgment {args.judgment}: human score {history[-1]['score']:.2f} recorded "
            f"(annotation {annotation}; {len(history)} in its history; machine score kept)"
        )
    return 0


def cmd_calibrate(args, ctx) -> int:
    from engine.judging.calibration import calibrate

    ws = ctx.workspace()
    kwargs = _judge_kwargs(args)
    result = calibrate(
        ws,
        find_model(ws, args.judge),
        danger_threshold=kwargs["rubric"].danger_threshold,
        progress=ctx.progress_printer("calibrating", quiet=args.quiet or args.json),
        **kwargs,
    )
    if args.json:
        ctx.emit_json(result)
        return 0
    print(f"judge {result['judge_model']} on {result['n']} human-scored answers:")
    print(
        f"  CCC {_f(result['ccc'])}  MAE {_f(result['mae'])}  Pearson {_f(result['pearson'])}"
        f"  Spearman {_f(result['spearman'])}  CBS {_f(result['cbs'])} "
        f"(n critical {result['n_critical']})"
    )
    width = max(len(b) for b in result["bands"]) + 1
    print("  confusion (rows: human, columns: judge)")
    print("  " + " " * width + "".join(b.rjust(width) for b in result["bands"]))
    for label, row in zip(result["bands"], result["confusion"]):
        print("  " + label.rjust(width) + "".join(str(v).rjust(width) for v in row))
    if result["note"]:
        print(f"  note: {result['note']}")
    return 0


def cmd_stats(args, ctx) -> int:
    from engine.reports.study_statistics import study_statistics

    rubric = _rubric(args.rubric)
    threshold = (
        args.danger_threshold if args.danger_threshold is not None else rubric.danger_threshold
    )
    stats = study_statistics(
        ctx.workspace(),
        judge_run=args.judge_run,
        seed=args.seed,
        resamples=args.resamples,
        danger_threshold=threshold,
        review_threshold=rubric.review_confidence_threshold,
        max_score=rubric.max_score,
    )
    if args.json:
        ctx.emit_json(stats)
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
    for name, rows in stats["groups"].items():
        print(
            f"\n{name.replace('_', ' x ')}: mean final score (95% CI clustered by "
            "question); points lost against the standard answer"
        )
        for r in rows:
            label = " / ".join(str(r[k]) for k in r if k not in _FIGURES)
            print(
                f"  {label:<40} {_f(r['mean'])} [{_f(r['ci_low'])}, {_f(r['ci_high'])}]  "
                f"lost {_f(r['degradation'])}  n={r['n']} answers, {r['n_questions']} questions"
            )
    if stats["paired_tests"]:
        print("\npaired Wilcoxon tests per question (Holm-corrected across all comparisons):")
        for t in stats["paired_tests"]:
            print(
                f"  {t['a']} vs {t['b']}: mean diff {_f(t['mean_diff'])}, "
                f"p={_f(t['p'], 4)}, Holm p={_f(t['p_holm'], 4)}, n={t['n']}"
            )
    for a in stats["agreement"]:
        print(
            f"\njudges {a['model_a']} (run {a['judge_a']}) vs {a['model_b']} "
            f"(run {a['judge_b']}): CCC {_f(a['ccc'])}, MAE {_f(a['mae'])}, "
            f"Pearson {_f(a['pearson'])}, Spearman {_f(a['spearman'])}, CBS {_f(a['cbs'])}, "
            f"n={a['n']}"
        )
    for w in stats["warnings"]:
        print(f"warning: {w}")
    print(f"\n{stats['review_queue']} judgments wait for human review (upabhasha queue)")
    return 0


def cmd_report(args, ctx) -> int:
    from engine.reports.html_report import write_report

    rubric = _rubric(args.rubric)
    result = write_report(
        ctx.workspace(),
        args.out,
        judge_run=args.judge_run,
        seed=args.seed,
        resamples=args.resamples,
        danger_threshold=rubric.danger_threshold,
        max_score=rubric.max_score,
    )
    if args.json:
        ctx.emit_json(result)
    else:
        print(
            f"report: {result['report']} ({result['n_items']} judged answers, "
            f"{len(result['runs'])} run cards; {result['coverage']['text']}"
            f"{' - PARTIAL STUDY, marked in the report' if result['partial'] else ''})"
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


def _f(value, digits: int = 2) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return f"{value:.{digits}f}"
