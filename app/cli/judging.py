"""Judging commands: ``judge``, ``judges``, ``queue``, ``override``, ``calibrate`` and
``replicate`` (decode a sample of a run again).

Every long command resumes where it stopped and prints a one-line progress on stderr;
``--json`` prints one JSON document on stdout.
"""

from __future__ import annotations

from pathlib import Path

from app.cli import stages
from app.cli.arguments import (
    add_schedule_options,
    given,
    int_in,
    name_text,
    number_in,
    positive_int,
    row_id,
    seed_int,
)
from app.cli.context import incomplete
from app.cli.hints import for_cli
from app.cli.output import add_json, add_quiet, add_summary_options, emit, fmt
from engine.errors import UserError
from engine.scales import parse_whole


def register(sub) -> None:
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
    add_summary_options(p)
    p.set_defaults(func=cmd_judge, build_request=judge_request)

    p = sub.add_parser("judges", help="judge runs and their roles; choose the primary judge")
    p.add_argument("--primary", type=row_id, metavar="RUN", help="make this judge run primary")
    add_json(p)
    p.set_defaults(func=cmd_judges)

    p = sub.add_parser("queue", help="judgments waiting for human review (low confidence)")
    p.add_argument(
        "--threshold",
        type=int_in(0, 5),
        default=3,
        help="queue judgments with confidence at or below this (default 3)",
    )
    p.add_argument("--judge-run", type=row_id, metavar="RUN")
    p.add_argument("--all", action="store_true", help="include already reviewed ones")
    add_json(p)
    p.set_defaults(func=cmd_queue)

    p = sub.add_parser(
        "override", help="record a human score for a judgment (the machine judgment is kept)"
    )
    p.add_argument("judgment", type=row_id, metavar="JUDGMENT_ID")
    p.add_argument("--annotator", required=True, type=name_text, help="who scores")
    p.add_argument("--reason", required=True, help="why the machine score is overridden")
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--final", type=number_in(0, 10), help="final score")
    group.add_argument(
        "--scores",
        metavar="C,C,C,C,C",
        help="Likert 0-5 for comprehension,correctness,completeness,clarity,length",
    )
    p.add_argument("--rubric", metavar="PATH")
    add_json(p)
    p.set_defaults(func=cmd_override)

    p = sub.add_parser(
        "calibrate",
        help="score the human-scored items with a judge and report CCC, MAE and a confusion table",
    )
    _judge_options(p)
    add_summary_options(p)
    p.set_defaults(func=cmd_calibrate, build_request=calibrate_request)


def _judge_options(p) -> None:
    p.add_argument("--judge", metavar="NAME", help="judge model (default: the default model)")
    p.add_argument("--rubric", metavar="PATH", help="rubric JSON (default: bundled)")
    p.add_argument("--template", metavar="PATH", help="judge prompt (default: bundled)")
    p.add_argument(
        "--max-attempts",
        type=positive_int,
        metavar="N",
        help="asks per item when the reply is not a valid verdict (default 3)",
    )
    add_schedule_options(p, "local models: sequences decoded together")


def _judge_settings(args) -> dict:
    """The judge run's settings the options set, the user's files read into them (a file
    that cannot be used is refused here, naming it, before any other work)."""
    judging = stages.judging()
    return given(
        judge=args.judge,
        rubric=None if args.rubric is None else judging.rubric_data(args.rubric),
        template=None if args.template is None else judging.judge_template_text(args.template),
        template_name=None if args.template is None else Path(args.template).name,
        max_attempts=args.max_attempts,
        n_seq=args.n_seq,
        refill=args.refill,
    )


def judge_request(args):
    """The request ``upabhasha judge`` runs (options left out keep the request's defaults)."""
    return stages.judging().JudgeRequest(
        **_judge_settings(args),
        **given(answers_of=args.answers_of or (), primary=args.primary),
    )


def calibrate_request(args):
    """The request ``upabhasha calibrate`` runs."""
    return stages.judging().CalibrateRequest(**_judge_settings(args))


def _judge_name(ctx, request) -> str:
    return stages.llm().find_model(ctx.workspace(), request.judge)["name"]


def cmd_judge(args, ctx) -> int:
    judging = stages.judging()
    request = judge_request(args)
    try:
        result = request.run(
            ctx.workspace(),
            progress=ctx.progress_printer("judging", quiet=args.quiet or args.json),
        )
    except judging.JudgeStopped as exc:
        return _not_judged(
            ctx, args, "judge", exc, "answer pairs", judge_model=_judge_name(ctx, request)
        )
    s = result.summary
    if args.json:
        ctx.emit_json(result.as_dict())
    else:
        print(
            f"judge {result.judge_model} (run {s.run_id}{', primary' if result.primary else ''}): "
            f"{s.judged_before + s.gated + s.judged_now}/{s.pairs} answer pairs judged "
            f"({s.gated} zeroed by the script/refusal gate, {s.judged_now} by the judge, "
            f"{s.invalid_replies} invalid replies asked again, {s.failed} still failing)"
        )
        if s.flagged:
            print(
                f"{s.flagged} judgment(s) flagged (answers addressing the judge, or verdicts "
                "the texts cannot support): sent to human review whatever the confidence"
            )
        print(f"{result.review_queue} judgments wait for human review (upabhasha queue)")
        for w in result.warnings:
            print(f"warning: {for_cli(w)}")
    if s.cancelled:
        return 130
    if s.failed:
        return incomplete(ctx, f"judge: {_no_verdict(s.failed, s.pairs, s.last_error)}")
    return 0


def cmd_judges(args, ctx) -> int:
    judging = stages.judging()
    ws = ctx.workspace()
    if args.primary is not None:
        judging.set_primary_judge(ws, args.primary)
    rows = judging.judge_runs(ws)
    if emit(ctx, args, rows):
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
    judging = stages.judging()
    if args.judge_run is not None:
        known = [r["run_id"] for r in judging.judge_runs(ctx.workspace())]
        if args.judge_run not in known:
            raise UserError(
                f"no judge run {args.judge_run} (judge runs: "
                f"{', '.join(map(str, known)) or 'none yet'}; upabhasha judges)"
            )
    rows = judging.review_queue(
        ctx.workspace(), threshold=args.threshold, run_id=args.judge_run, include_reviewed=args.all
    )
    if emit(ctx, args, rows):
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
    judging = stages.judging()
    rubric = judging.load_rubric(args.rubric)
    scores = None
    if args.scores:
        parts = [parse_whole(p) for p in args.scores.split(",")]
        if len(parts) != len(judging.CRITERION_KEYS) or not all(
            p is not None and 0 <= p <= 5 for p in parts
        ):
            raise UserError(
                f"--scores needs {len(judging.CRITERION_KEYS)} integers 0-5 for {','.join(judging.CRITERION_KEYS)}"
            )
        scores = dict(zip(rubric.keys, parts))
    ws = ctx.workspace()
    annotation = judging.add_override(
        ws,
        args.judgment,
        annotator=args.annotator,
        reason=args.reason,
        rubric=rubric,
        scores=scores,
        final=args.final,
    )
    history = judging.override_history(ws, args.judgment)
    emit(
        ctx,
        args,
        {"annotation_id": annotation, "history": history},
        f"judgment {args.judgment}: human score {history[-1]['score']:.2f} recorded "
        f"(annotation {annotation}; {len(history)} in its history; machine score kept)",
    )
    return 0


def cmd_calibrate(args, ctx) -> int:
    judging = stages.judging()
    request = calibrate_request(args)
    try:
        calibration = request.run(
            ctx.workspace(),
            progress=ctx.progress_printer("calibrating", quiet=args.quiet or args.json),
        )
    except judging.JudgeStopped as exc:
        return _not_judged(
            ctx,
            args,
            "calibrate",
            exc,
            "human-scored answers",
            judge_model=_judge_name(ctx, request),
        )
    result = calibration.as_dict()
    if emit(ctx, args, result):
        return _calibration_outcome(ctx, result)
    print(f"judge {result['judge_model']} on {result['n']} human-scored answers:")
    print(
        f"  CCC {fmt(result['ccc'])}  MAE {fmt(result['mae'])}  Pearson {fmt(result['pearson'])}"
        f"  Spearman {fmt(result['spearman'])}  CBS {fmt(result['cbs'])} "
        f"(n critical {result['n_critical']})"
    )
    width = max(len(b) for b in result["bands"]) + 1
    print("  confusion (rows: human, columns: judge)")
    print("  " + " " * width + "".join(b.rjust(width) for b in result["bands"]))
    for label, row in zip(result["bands"], result["confusion"]):
        print("  " + label.rjust(width) + "".join(str(v).rjust(width) for v in row))
    if result["note"]:
        print(f"  note: {result['note']}")
    return _calibration_outcome(ctx, result)


def _not_judged(ctx, args, step: str, exc, unit: str, **report) -> int:
    """A judge that stopped (did not load, its worker died): how many of ``unit`` are left
    and why (``--json``: as a report too; ``load_error`` as eval-translation's, None when the
    model loaded); exit 3, the same command resumes."""
    if args.json:
        did_not_load = isinstance(exc, stages.judging().JudgeDidNotLoad)
        ctx.emit_json(
            {
                **report,
                "run_id": exc.run_id,
                "pairs": exc.pairs,
                "not_judged": exc.left,
                "stopped": exc.reason,
                "load_error": exc.reason if did_not_load else None,
            }
        )
    return incomplete(ctx, f"{step}: {exc.left} of {exc.pairs} {unit} not judged ({exc.reason})")


def _calibration_outcome(ctx, result: dict) -> int:
    failed = result["judge"].get("failed", 0)
    if not failed:
        return 0
    no_verdict = _no_verdict(
        failed, result["n_human_scored"], result["judge"].get("last_error"), "human-scored answers"
    )
    return incomplete(ctx, f"calibrate: {no_verdict}, which the figures above leave out")


def _no_verdict(failed: int, pairs: int, last_error: str | None, unit="answer pairs") -> str:
    """'N of M … have no valid verdict', with why the last one failed (a dead worker, a
    refusing server, an invalid reply)."""
    # one line, however the server or worker worded it
    why = f" (last error: {' '.join(last_error.split())[:200]})" if last_error else ""
    return f"{failed} of {pairs} {unit} have no valid verdict{why}"


def register_replicate(sub) -> None:
    p = sub.add_parser(
        "replicate",
        help="decode a sample of a run again; report agreement and the spread of scores",
    )
    p.add_argument("run", type=row_id, nargs="?", metavar="RUN", help="run id (see 'judges')")
    p.add_argument("--sample", type=positive_int, help="items to decode again (default 20)")
    p.add_argument("--seed", type=seed_int, help="seed of the sample (default 0)")
    p.add_argument("--list", action="store_true", help="list stored replications")
    add_json(p)
    add_quiet(p)
    p.set_defaults(func=cmd_replicate, build_request=replicate_request)


def replicate_request(args):
    """The request ``upabhasha replicate RUN`` runs (without RUN it lists, and this refuses)."""
    return stages.judging().ReplicateRequest(
        run_id=args.run, **given(sample=args.sample, seed=args.seed)
    )


def cmd_replicate(args, ctx) -> int:
    llm = stages.llm()
    ws = ctx.workspace()
    if args.list or args.run is None:
        rows = llm.replications(ws, [args.run] if args.run else None)
        if emit(ctx, args, rows):
            return 0
        if not rows:
            print("no replications yet (upabhasha replicate RUN)")
        for r in rows:
            failed = r["summary"].get("failed", 0)
            print(
                f"#{r['id']} run {r['run_id']} at {r['created_at']}: {r['identical']} of "
                f"{r['sample']} identical" + (f" (partial: {failed} failed)" if failed else "")
            )
        return 0
    result = replicate_request(args).run(
        ws, progress=ctx.progress_printer("replicating", quiet=args.quiet or args.json)
    )
    if emit(ctx, args, result.as_dict()):
        return _replication_outcome(ctx, result)
    agreement = result.agreement
    print(
        f"run {result.run_id} ({result.kind}): {result.identical} of {result.sample} sampled "
        f"outputs identical ({'partial, no agreement figure' if agreement is None else f'{agreement:.1%}'}; "
        f"{result.groups} batch group(s) decoded again, {result.failed} failed)"
    )
    f = result.finals
    if f.get("n"):
        print(
            f"final scores (0-{f['scale']:g}) of {f['n']} sampled judgments: mean "
            f"{f['mean_then']:.3f} stored, {f['mean_now']:.3f} now; mean |difference| "
            f"{f['mean_abs_diff']:.3f}, largest {f['max_abs_diff']:.3f}"
        )
    if result.differing:
        print(
            "outputs differ: this machine or build does not reproduce the run exactly; "
            "report the spread above with its figures (differing: "
            + ", ".join(result.differing[:10])
            + (" ..." if len(result.differing) > 10 else "")
            + ")"
        )
    return _replication_outcome(ctx, result)


def _replication_outcome(ctx, result) -> int:
    if result.complete:
        return 0
    return incomplete(
        ctx,
        f"replicate: {result.failed} of {result.sample} sampled outputs could not be decoded "
        "again (stored as a partial replication, with no agreement figure"
        + (f"; {result.error}" if result.error else "")
        + ")",
    )


# where this module's sub-commands and ``import`` kinds sit in ``upabhasha --help``
# (app/cli/registry.py gathers every stage's)
COMMANDS = [(70, register), (150, register_replicate)]
IMPORTS: list = []
