"""Metric-vs-human commands: ``eval-metrics`` over an imported scored-translation set and
``human-score`` to record one person's score of a translation."""

from __future__ import annotations

from engine.errors import UserError


def register(sub) -> None:
    p = sub.add_parser(
        "eval-metrics",
        help="per-system BLEU/chrF++/WER and metric-vs-human correlations of a scored set",
    )
    p.add_argument("set", nargs="?", help="scored set name (omit to list the sets)")
    p.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples (0: none)")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed")
    p.add_argument(
        "--embeddings",
        action="store_true",
        help="also embedding cosine and BERTScore-style F1 (loads the encoder)",
    )
    p.add_argument("--encoder", help="sentence-transformers folder (default: the bundled one)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.set_defaults(func=cmd_eval_metrics)

    h = sub.add_parser("human-score", help="record one person's score of a translation")
    target = h.add_mutually_exclusive_group(required=True)
    target.add_argument("--segment", type=int, help="scored segment id (its set's scale)")
    target.add_argument("--response", type=int, help="translate-eval response id (scale 0-10)")
    h.add_argument("--annotator", required=True, help="who scored it")
    h.add_argument("--score", required=True, type=float, help="the score on the target's scale")
    h.add_argument("--reason", default="", help="a comment (translate-eval responses only)")
    h.set_defaults(func=cmd_human_score)


def cmd_eval_metrics(args, ctx) -> int:
    from engine.translation.scored_eval import evaluate_measures, scored_sets

    ws = ctx.workspace()
    if not args.set:
        sets = scored_sets(ws)
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
    encoder = None
    if args.embeddings:
        from engine.rag.encoder import Encoder

        encoder = Encoder(args.encoder)
    report = evaluate_measures(
        ws,
        args.set,
        encoder=encoder,
        bootstrap=args.bootstrap,
        seed=args.seed,
        progress=ctx.progress_printer("eval-metrics", quiet=args.json),
    )
    if args.json:
        ctx.emit_json(report)
        return 0
    for measure, one in report.get("measures", {"": report}).items():
        if measure:
            print(f"measure {measure} (correlated on its own):")
        _print_report(one)
    return 0


def _fmt(value, digits: int = 4) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


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
        from engine.importing.scored_import import record_segment_score

        row = record_segment_score(ws, args.segment, args.annotator, args.score)
        lo, hi = row["scale"]
        print(f"segment {row['segment_id']}: {row['annotator']} {row['score']:g} ({lo:g}-{hi:g})")
        return 0
    from engine.translation.evaluate import record_translation_score

    record_translation_score(ws, args.response, args.annotator, args.score, args.reason)
    print(f"response {args.response}: {args.annotator} {args.score:g} (0-10)")
    return 0
