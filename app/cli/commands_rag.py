"""RAG commands: ``index``, ``translate``, ``eval-translation``.

Each is resumable: the index is reused while its manifest matches (and a rebuild encodes
only new sentences), and translation/evaluation items already done in their run are not
generated again.
"""

from __future__ import annotations

import argparse

from app.cli.context import incomplete
from app.cli.options import add_normalize_option


def _csv(value: str) -> list[str]:
    return [v.strip() for v in value.split(",") if v.strip()]


def _index_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--corpus",
        type=_csv,
        default=None,
        help="corpus name(s), comma-separated (default: every corpus)",
    )
    p.add_argument(
        "--splits",
        type=_csv,
        default=["train", "test"],
        help="splits to index (default: train,test; the validation split is refused)",
    )
    p.add_argument(
        "--encoder",
        default=None,
        help="sentence-transformers folder or a name in the local Hugging Face cache "
        "(default: the bundled English all-MiniLM-L6-v2)",
    )


def register(sub) -> None:
    p = sub.add_parser("index", help="build or refresh the retrieval index over sentence pairs")
    _index_options(p)
    p.add_argument(
        "--allow-eval-split",
        action="store_true",
        help="index a validation split anyway (eval-translation will refuse the index)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.set_defaults(func=cmd_index)

    p = sub.add_parser(
        "translate", help="RAG-translate a question set into dialects (machine drafts)"
    )
    p.add_argument("--questions", required=True, help="question set name")
    p.add_argument("--dialects", required=True, type=_csv, help="e.g. chittagong,sylhet")
    p.add_argument("--model", default=None, help="model name (default: the workspace default)")
    p.add_argument("--limit", type=int, default=None, help="first N questions only")
    _index_options(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_translate)

    p = sub.add_parser(
        "eval-translation",
        help="translate held-out pairs and score them (BLEU, chrF++, WER, embeddings, judge)",
    )
    p.add_argument("--dialects", required=True, type=_csv)
    p.add_argument("--model", default=None, help="translation model (default: workspace default)")
    p.add_argument("--judge", default=None, help="judge model name (no judge when omitted)")
    p.add_argument("--limit", type=int, default=None, help="first N held-out pairs per dialect")
    p.add_argument("--split", default=None, help="held-out split (default: the validation split)")
    add_normalize_option(p)
    _index_options(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_eval)


def _retriever(args, ctx, ws):
    from engine.rag.build import ensure_index
    from engine.rag.encoder import Encoder
    from engine.rag.index import default_cache
    from engine.rag.retriever import Retriever

    encoder = Encoder(args.encoder, default_cache(ws))
    index, rebuilt = ensure_index(
        ws,
        encoder=encoder,
        corpora=args.corpus,
        splits=args.splits,
        allow_eval_split=getattr(args, "allow_eval_split", False),
        progress=None if args.json else ctx.progress_printer("index"),
    )
    return Retriever(index, encoder), rebuilt


def _print_selfcheck(check: dict | None) -> None:
    if not check or not check.get("per_dialect"):
        print("retrieval self-check: not measured")
        return
    print(
        f"retrieval self-check (cross-dialect: dialect sentence -> its standard counterpart), "
        f"encoder {check['encoder_id']}"
    )
    print(
        f"  {'dialect':<12} {'n':>4}  {'dense':>11} {'sparse':>11} {'char':>11} {'hybrid':>11}  trust"
    )
    rows = list(check["per_dialect"].items()) + [("overall", check["overall"])]
    for name, r in rows:
        cells = " ".join(
            f"{r[leg]['r1']:>5.1%}/{r[leg]['r5']:<5.0%}"
            for leg in ("dense", "sparse", "char", "hybrid")
        )
        print(f"  {name:<12} {r['queries']:>4}  {cells}  {r['dense_trust']:.2f}")
    print("  (recall@1/@5; trust scales the dense weight)")


def cmd_index(args, ctx) -> int:
    ws = ctx.workspace()
    retriever, rebuilt = _retriever(args, ctx, ws)
    summary = {**retriever.index.summary(), "rebuilt": rebuilt}
    for info in summary["partitions"].values():
        info.pop("rows", None)
    if args.json:
        ctx.emit_json(summary)
        return 0
    print(f"index {'built' if rebuilt else 'up to date'}: {summary['folder']}")
    print(
        f"  {summary['pairs']} pairs, splits {','.join(summary['splits'])}, encoder {summary['encoder']}"
    )
    for dialect, info in summary["partitions"].items():
        print(f"  {dialect:<12} {info['count']:>6} pairs ({info['dense_kind']})")
    _print_selfcheck(summary["selfcheck"])
    return 0


def cmd_translate(args, ctx) -> int:
    from engine.llm.model_registry import find_model
    from engine.translation.translate import translate_questions

    ws = ctx.workspace()
    model = find_model(ws, args.model)
    retriever, _ = _retriever(args, ctx, ws)
    summary = translate_questions(
        ws,
        retriever,
        question_set=args.questions,
        dialects=args.dialects,
        model_row=model,
        limit=args.limit,
        progress=None if args.json else ctx.progress_printer("translate"),
    )
    s = summary
    if args.json:
        ctx.emit_json(s.as_dict())
    else:
        print(
            f"translated {s.items} item(s) with {model['name']} (run {s.run_id}): "
            f"{s.generated} generated, {s.cached} from cache, {s.errors} errors, "
            f"{s.written} drafts written, {s.empty} empty; "
            f"{s.protected} reviewed/gold variant(s) left alone"
        )
    if s.cancelled:
        return 130
    if not s.complete:
        return incomplete(ctx, f"translate: {s.failed} of {s.items} translations failed")
    return 0


def cmd_eval(args, ctx) -> int:
    from engine.llm.model_registry import find_model
    from engine.translation.evaluate import evaluate_translations

    ws = ctx.workspace()
    model = find_model(ws, args.model)
    judge = find_model(ws, args.judge) if args.judge else None
    retriever, _ = _retriever(args, ctx, ws)
    report = evaluate_translations(
        ws,
        retriever,
        dialects=args.dialects,
        model_row=model,
        judge_row=judge,
        limit=args.limit,
        split=args.split,
        normalize=args.normalize,
        progress=None if args.json else ctx.progress_printer("eval"),
    )
    missing = report["pairs"] - report["translated"]
    what = f"eval-translation: {missing} of {report['pairs']} held-out pairs not translated"
    if args.json:
        ctx.emit_json(report)
        return incomplete(ctx, what) if missing else 0
    runs = f"run {report['run_id']}" + (f", judge run {report['judge_run_id']}" if judge else "")
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
            jtext = (
                ""
                if not j or j["mean"] is None
                else f"{j['mean']:.2f} ({j['n_valid']}/{m['n']} valid)"
            )
            print(
                f"  {dialect:<12} {label:<14} {m['n']:>4} {m['bleu']:>6.1f} {m['chrf++']:>7.1f} "
                f"{m['wer']:>6.2f} {m.get('cosine', 0):>6.3f} {m.get('bertscore_f1', 0):>6.3f}  {jtext}"
            )
    sig = report["signatures"]
    print(f"  signatures: BLEU {sig.get('bleu')}; chrF++ {sig.get('chrf++')}")
    print(f"  texts scored: --normalize {report['normalize']}")
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
    _print_selfcheck(
        {
            "encoder_id": report["encoder"],
            "per_dialect": retriever.index.selfcheck.get("per_dialect", {}),
            "overall": retriever.index.selfcheck.get("overall", {}),
        }
    )
    return incomplete(ctx, what) if missing else 0
