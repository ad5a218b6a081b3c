"""Translation commands: ``translate`` and ``eval-translation`` (RAG drafts and their quality),
``review list|set|bulk`` (the review status of dialect variants) and the metric-vs-human study
(``eval-metrics``, ``human-score``).

Translation and evaluation are resumable: items already done in their run are not generated
again. Every review change goes through engine.translation.review, so it is one transaction
with a history row naming the reviewer, exactly as in the review panel.
"""

from __future__ import annotations

import sys

from app.cli import stages
from app.cli.arguments import (
    any_number,
    bootstrap_int,
    given,
    name_text,
    positive_int,
    row_id,
    seed_int,
    value_text,
)
from app.cli.context import incomplete, last_error_words
from app.cli.hints import for_cli
from app.cli.options import add_normalize_option
from app.cli.output import add_json, csv_list, emit
from app.cli.rag import index_fields, index_options, print_selfcheck
from engine.errors import UserError
from engine.text.text_rules import visible
from engine.workspace.api import VARIANT_STATUSES as STATUSES

# engine.translation.api.REVIEW_ORDERS, named here so that --help loads no stage
REVIEW_ORDERS = ("question", "need")


def register(sub) -> None:
    p = sub.add_parser(
        "translate", help="RAG-translate a question set into dialects (machine drafts)"
    )
    p.add_argument("--questions", required=True, help="question set name")
    p.add_argument("--dialects", required=True, type=csv_list, help="e.g. chittagong,sylhet")
    p.add_argument("--model", help="model name (default: the workspace default)")
    p.add_argument(
        "--limit",
        type=positive_int,
        help="only the first N questions (those whose every chosen dialect came rendered with the imported file are passed over)",
    )
    index_options(p)
    add_json(p)
    p.set_defaults(func=cmd_translate, build_request=translate_request)

    p = sub.add_parser(
        "eval-translation",
        help="translate held-out pairs and score them (BLEU, chrF++, WER, embeddings, judge)",
    )
    p.add_argument("--dialects", required=True, type=csv_list)
    p.add_argument("--model", help="translation model (default: workspace default)")
    p.add_argument("--judge", help="judge model name (no judge when omitted)")
    p.add_argument(
        "--limit",
        type=positive_int,
        help="at most N held-out items per dialect: a seeded sample (as run-task draws), "
        "recorded in the run card",
    )
    p.add_argument("--seed", type=seed_int, help="seed of the --limit sample (default 0)")
    p.add_argument("--split", type=name_text, help="held-out split (default: the validation split)")
    add_normalize_option(p, scoring=True)
    index_options(p)
    add_json(p)
    p.set_defaults(func=cmd_eval, build_request=eval_request)


def translate_request(args):
    """The request ``upabhasha translate`` runs (options left out keep its defaults)."""
    return stages.translation().TranslateRequest(
        **given(
            question_set=args.questions,
            dialects=args.dialects,
            model=args.model,
            limit=args.limit,
            **index_fields(args),
        )
    )


def eval_request(args):
    """The request ``upabhasha eval-translation`` runs (options left out keep its defaults)."""
    return stages.translation().EvalTranslationRequest(
        **given(
            dialects=args.dialects,
            model=args.model,
            judge=args.judge,
            limit=args.limit,
            seed=args.seed,
            split=args.split,
            normalize=args.normalize,
            **index_fields(args),
        )
    )


def register_review(sub) -> None:
    p = sub.add_parser("review", help="list and change the review status of dialect variants")
    rsub = p.add_subparsers(dest="review_command", required=True)

    q = rsub.add_parser("list", help="variants with their status")
    q.add_argument("--status", choices=STATUSES)
    q.add_argument("--dialects", type=csv_list, help="comma-separated dialect codes")
    q.add_argument(
        "--order",
        choices=REVIEW_ORDERS,
        default="question",
        help="question (default) or need: flagged drafts first, then the least likely in "
        "their target dialect",
    )
    q.add_argument("--flagged", action="store_true", help="only drafts the dialect check flagged")
    add_json(q)
    q.set_defaults(func=cmd_review_list)

    q = rsub.add_parser("set", help="set the status of one variant")
    q.add_argument("variant_id", type=row_id)
    q.add_argument("--status", required=True, choices=STATUSES)
    q.add_argument("--reviewer", required=True, type=name_text)
    q.add_argument("--comment")
    q.set_defaults(func=cmd_review_set)

    q = rsub.add_parser(
        "bulk",
        help="move every variant in one status to another "
        "(e.g. a demo marking machine drafts gold without review)",
    )
    q.add_argument("--from", dest="from_status", required=True, choices=STATUSES)
    q.add_argument("--to", dest="to_status", required=True, choices=STATUSES)
    q.add_argument("--reviewer", required=True, type=name_text)
    q.add_argument("--dialects", type=csv_list, help="comma-separated dialect codes")
    q.add_argument("--comment", default="")
    add_json(q)
    q.set_defaults(func=cmd_review_bulk)


def register_scored(sub) -> None:
    p = sub.add_parser(
        "eval-metrics",
        help="per-system BLEU/chrF++/WER and metric-vs-human correlations of a scored set",
    )
    p.add_argument("set", nargs="?", help="scored set name (omit to list the sets)")
    p.add_argument(
        "--bootstrap", type=bootstrap_int, default=1000, help="bootstrap resamples (0: none)"
    )
    p.add_argument("--seed", type=seed_int, default=0, help="bootstrap seed")
    p.add_argument(
        "--embeddings",
        action="store_true",
        help="also embedding cosine and BERTScore-style F1 (loads the encoder)",
    )
    p.add_argument(
        "--encoder", type=value_text, help="sentence-transformers folder (default: the bundled one)"
    )
    add_json(p, "print one JSON document")
    p.set_defaults(func=cmd_eval_metrics)

    h = sub.add_parser(
        "human-score",
        help="record one person's score: of a translation, a scored segment, or an item of an "
        "annotation batch (what ppi reads: judged answers drawn by 'ppi --draw')",
    )
    target = h.add_mutually_exclusive_group(required=True)
    target.add_argument("--segment", type=row_id, help="scored segment id (its set's scale)")
    target.add_argument("--response", type=row_id, help="translate-eval response id (scale 0-10)")
    target.add_argument(
        "--item",
        type=row_id,
        help="annotation item id (its batch's scale), e.g. one drawn by 'ppi --draw'; "
        "recorded as the annotator's accept decision with this score",
    )
    h.add_argument("--annotator", required=True, type=name_text, help="who scored it")
    h.add_argument(
        "--score", required=True, type=any_number, help="the score on the target's scale"
    )
    h.add_argument("--reason", default="", help="a comment (responses and items)")
    h.set_defaults(func=cmd_human_score)


def cmd_translate(args, ctx) -> int:
    translation = stages.translation()
    request = translate_request(args)
    ws = ctx.workspace()
    for dialect in translation.dialects_without_pairs(ws, request.dialects):  # before it starts
        print(
            f"warning: no {dialect} pairs in the corpus: the exemplars will be other dialects' "
            "and the drafts are marked so (import a corpus with this dialect first for "
            "real exemplars)",
            file=sys.stderr,
        )
    result = request.run(ws, progress=None if args.json else ctx.progress_printer("translate"))
    s = result.summary
    emit(
        ctx,
        args,
        result.as_dict(),
        f"translated {s.items} item(s) with {result.model} (run {s.run_id}): "
        f"{s.generated} generated, {s.cached} from cache, {s.errors} errors, "
        f"{s.written} drafts written, {s.empty} empty; "
        f"{s.protected} reviewed/gold variant(s) left alone; dialect check: {s.flagged} of "
        f"{s.checked} checked draft(s) flagged",
    )
    if s.cancelled:
        return 130
    if not s.complete:
        cause = s.load_error or (s.last_error and last_error_words(s.last_error))
        why = f" ({cause})" if cause else ""
        return incomplete(ctx, f"translate: {s.failed} of {s.items} translations failed{why}")
    return 0


def cmd_eval(args, ctx) -> int:
    request = eval_request(args)
    result = request.run(
        ctx.workspace(), progress=None if args.json else ctx.progress_printer("eval")
    )
    report = result.report
    what = _eval_incomplete(report)
    if args.json:
        ctx.emit_json(report)
        return incomplete(ctx, what) if what else 0
    judged = request.judge is not None
    runs = f"run {report['run_id']}" + (f", judge run {report['judge_run_id']}" if judged else "")
    print(
        f"translation quality on split {report['split']}: {report['translated']}/{report['pairs']} "
        f"translated ({runs})"
    )
    head = (
        f"  {'dialect':<12} {'system':<14} {'n':>4} {'BLEU':>6} {'chrF++':>7} {'WER':>6} "
        f"{'cos':>6} {'BERTS':>6}  judge (0-10)"
    )
    print(head)
    for dialect, e in report["per_dialect"].items():
        for label in ("system", "copy_baseline"):
            m = e[label]
            j = e.get("judge") if label == "system" else None
            jtext = "" if not j else _judge_cell(j, m["n"])
            print(
                f"  {dialect:<12} {label:<14} {m['n']:>4} {m['bleu']:>6.1f} {m['chrf++']:>7.1f} "
                f"{m['wer']:>6.2f} {m.get('cosine', 0):>6.3f} {m.get('bertscore_f1', 0):>6.3f}  {jtext}"
            )
    for dialect, e in report["per_dialect"].items():
        c = e["dialect_check"]
        if c["n"]:
            print(
                f"  dialect check {dialect}: {c['flagged']}/{c['n']} flagged ({c['share']:.0%}; "
                f"{c['copies']} copies, {c['other']} likely another dialect)"
            )
    sig = report["signatures"]
    print(f"  signatures: BLEU {sig.get('bleu')}; chrF++ {sig.get('chrf++')}")
    print(f"  texts scored: --normalize {report['normalize']}")
    for note in report.get("notes", ()):
        print(f"  note: {for_cli(note)}")
    print("  copy_baseline = the standard sentence unchanged; a system below it has not translated")
    corr = report["correlation"]
    if corr["table"]:
        print(f"correlation with human scores (n = {corr['n_human']}, human scale 0-10):")
        for key, value in corr["sentence_signatures"].items():
            print(f"  sentence {key} signature: {value}")
        for row in corr["table"]:
            if row.get("unavailable"):
                print(f"  {row['metric']:<13} n={row['n']:<4} unavailable: {row['unavailable']}")
                continue
            print(
                f"  {row['metric']:<13} n={row['n']:<4} "
                + "  ".join(f"{k} {row[k]:.3f}" for k in ("pearson", "spearman", "kendall", "ccc"))
            )
    else:
        print(f"no correlation table: {corr.get('note', '')}")
    print_selfcheck(result.selfcheck)
    return incomplete(ctx, what) if what else 0


def _eval_incomplete(report: dict) -> str:
    """What an eval-translation run left undone (translations, judge replies), with the
    counts and why a model did not load; empty when it is complete."""

    def why(load_error: str | None, last_error: str | None) -> str:
        cause = load_error or (last_error and last_error_words(last_error))
        return f" ({cause})" if cause else ""

    parts = []
    if report["missing"]:
        parts.append(
            f"{report['missing']} of {report['pairs']} held-out pairs not translated"
            + why(report["load_error"], report.get("last_error"))
        )
    if report["judge_missing"]:
        parts.append(
            f"{report['judge_missing']} of {report['translated']} translations not judged"
            + why(report["judge_load_error"], report.get("judge_last_error"))
        )
    return "eval-translation: " + "; ".join(parts) if parts else ""


def _judge_cell(judge: dict, n: int) -> str:
    mean = "-" if judge["mean"] is None else f"{judge['mean']:.2f}"
    unjudged = f", {judge['n_missing']} not judged" if judge["n_missing"] else ""
    return f"{mean} ({judge['n_valid']}/{n} valid{unjudged})"


def cmd_review_list(args, ctx) -> int:
    translation = stages.translation()
    ws = ctx.workspace()
    if args.order == "need" or args.flagged:
        translation.check_drafts(ws)  # drafts not checked yet (older runs, edited text)
    rows = translation.variants_to_review(
        ws, args.status, args.dialects or [], order=args.order, flagged=args.flagged
    )
    if emit(ctx, args, rows):
        return 0
    for r in rows:
        print(
            f"{r['id']:>6} {r['question']:<8} {r['dialect']:<12} {r['status']:<9} {visible(r['text'])}"
        )
        if r["explanation"]:
            print(f"{'':>6} {'flagged' if r['flag'] else 'check':<8} {r['explanation']}")
    return 0


def cmd_review_set(args, ctx) -> int:
    translation = stages.translation()
    ws = ctx.workspace()
    if not translation.variant_exists(ws, args.variant_id):
        raise UserError(f"no variant with id {args.variant_id}")
    state = translation.set_variant_status(
        ws, args.variant_id, args.status, actor=args.reviewer, comment=args.comment
    )
    print(f"variant {state.id}: {state.status}")
    return 0


def cmd_review_bulk(args, ctx) -> int:
    translation = stages.translation()
    ws = ctx.workspace()
    rows = translation.variants_to_review(ws, args.from_status, args.dialects or [])
    progress = ctx.progress_printer("review", quiet=args.json)
    for i, row in enumerate(rows, 1):
        translation.set_variant_status(
            ws, row["id"], args.to_status, actor=args.reviewer, comment=args.comment or None
        )
        progress(i, len(rows), "")
    emit(
        ctx,
        args,
        {"changed": len(rows), "from": args.from_status, "to": args.to_status},
        f"{len(rows)} variant(s) moved from {args.from_status} to {args.to_status} "
        f"by {args.reviewer}",
    )
    return 0


def cmd_eval_metrics(args, ctx) -> int:
    translation = stages.translation()
    ws = ctx.workspace()
    if not args.set:
        sets = translation.scored_sets(ws)
        if args.json:
            ctx.emit_json(sets)
        elif not sets:
            print("no scored sets; import one with 'upabhasha import scored-translations'")
        for s in [] if args.json else sets:
            print(
                f"{s['name']}: {s['segments']:,} segments, {s['systems']} systems, "
                f"{s['human_scores']:,} human scores on {s['scale_min']:g}-{s['scale_max']:g}"
            )
        return 0
    if args.bootstrap < 0:
        raise UserError("--bootstrap must be 0 or more")
    encoder = stages.rag().Encoder(args.encoder) if args.embeddings else None
    report = translation.evaluate_measures(
        ws,
        args.set,
        encoder=encoder,
        bootstrap=args.bootstrap,
        seed=args.seed,
        progress=ctx.progress_printer("eval-metrics", quiet=args.json),
    )
    if emit(ctx, args, report):
        return 0
    for measure, one in report.get("measures", {"": report}).items():
        if measure:
            print(f"measure {measure} (correlated on its own):")
        _print_report(one)
    return 0


def _fmt(value, digits: int = 4) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _interval_words(boot: dict) -> str:
    """What the bracketed intervals are: method, level, resamples and seed."""
    if not boot.get("resamples"):
        return "none (--bootstrap 0)"
    return (
        f"{boot.get('level', 0.95):.0%} {boot.get('method', 'percentile bootstrap')} over "
        f"items (segments at segment level, systems at system level), "
        f"{boot['resamples']} resamples, seed {boot['seed']}"
    )


def _print_report(report: dict) -> None:
    lo, hi = report["human_scale"]
    seen = report.get("observed_range")
    print(
        f"scored set {report['set']}: {report['segments']:,} segments "
        f"({report['segments_scored_by_humans']:,} with human scores, "
        f"{report['annotations']:,} scores on {lo:g}-{hi:g}"
        + (f", observed {seen[0]:g}-{seen[1]:g}" if seen else "")
        + (
            f"; {report['segments_averaged']:,} segments averaged over annotators"
            if report.get("segments_averaged")
            else ""
        )
        + ")"
    )
    metrics = [
        m
        for m in ("bleu", "chrf++", "wer", "cosine", "bertscore_f1")
        if m in next(iter(report["systems"].values()))
    ]
    print(f"  {'system':<24} {'n':>6} " + " ".join(f"{m:>12}" for m in metrics) + "   human")
    for name, row in report["systems"].items():
        print(
            f"  {name:<24} {row['n']:>6} "
            + " ".join(f"{_fmt(row[m], 2 if m in ('bleu', 'chrf++') else 4):>12}" for m in metrics)
            + f"   {_fmt(row['human_mean'])}"
        )
    print(f"  texts scored: --normalize {report['normalize']}")
    for key, sig in report["signatures"].items():
        print(f"  corpus {key} signature: {sig}")
    for key, sig in report["sentence_signatures"].items():
        print(f"  sentence {key} signature (segment-level correlations): {sig}")
    print(f"  intervals: {_interval_words(report.get('bootstrap') or {})}")
    for level in ("segment_level", "system_level"):
        print(f"{level.replace('_', ' ')} correlation with human scores:")
        for row in report[level]:
            if row["unavailable"]:
                print(f"  {row['metric']:<13} n={row['n']:<6} unavailable: {row['unavailable']}")
                continue
            parts = []
            for k in ("pearson", "spearman", "kendall", "ccc"):
                ci = (row.get("ci") or {}).get(k)
                parts.append(f"{k} {row[k]:.3f}" + (f" [{ci[0]:.3f}, {ci[1]:.3f}]" if ci else ""))
            excluded = row["excluded"]["human_missing"] + row["excluded"]["metric_missing"]
            print(
                f"  {row['metric']:<13} n={row['n']:<6} "
                + "  ".join(parts)
                + (f"  (excluded {excluded})" if excluded else "")
            )


def cmd_human_score(args, ctx) -> int:
    ws = ctx.workspace()
    if args.segment is not None:
        row = stages.importing().record_segment_score(ws, args.segment, args.annotator, args.score)
        lo, hi = row["scale"]
        print(f"segment {row['segment_id']}: {row['annotator']} {row['score']:g} ({lo:g}-{hi:g})")
        return 0
    if args.item is not None:
        from engine.annotation import api as annotation  # only this path needs the stage

        row = annotation.record_decision(
            ws, args.item, args.annotator, "accept", score=args.score, comment=args.reason
        )
        print(f"item {row['item_id']}: {row['annotator']} {row['score']:g} (accept)")
        return 0
    stages.translation().record_translation_score(
        ws, args.response, args.annotator, args.score, args.reason
    )
    print(f"response {args.response}: {args.annotator} {args.score:g} (0-10)")
    return 0


# where this module's sub-commands and ``import`` kinds sit in ``upabhasha --help``
# (app/cli/registry.py gathers every stage's)
COMMANDS = [(50, register), (90, register_review), (120, register_scored)]
IMPORTS: list = []
