"""Retrieval commands: ``index``, and the index options and self-check report that
``translate`` and ``eval-translation`` (app/cli/translation.py) share: there the options are
fields of the step's request (:func:`index_fields`), whose defaults they keep.

The index is reused while its manifest matches, and a rebuild encodes only new sentences.
"""

from __future__ import annotations

import argparse

from app.cli import stages
from app.cli.arguments import given, value_text
from app.cli.output import add_json, csv_list, emit


def index_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--corpus",
        type=csv_list,
        help="corpus name(s), comma-separated (default: every corpus)",
    )
    p.add_argument(
        "--splits",
        type=csv_list,
        help="splits to index (default: train,test; the validation split is refused)",
    )
    p.add_argument(
        "--encoder",
        type=value_text,
        help="sentence-transformers folder or a name in the local Hugging Face cache "
        "(default: the bundled English all-MiniLM-L6-v2)",
    )


def register(sub) -> None:
    p = sub.add_parser("index", help="build or refresh the retrieval index over sentence pairs")
    index_options(p)
    p.add_argument(
        "--allow-eval-split",
        action="store_true",
        help="index a validation split anyway (eval-translation will refuse the index)",
    )
    add_json(p, "print one JSON document")
    p.set_defaults(func=cmd_index)


def index_fields(args) -> dict:
    """The request fields of the index options given (the others keep the request's
    defaults)."""
    return given(corpora=args.corpus, splits=args.splits, encoder=args.encoder)


def retriever_for(args, ctx, ws):
    """The retriever of ``index``'s options (built or reused), and whether it was rebuilt."""
    rag = stages.rag()
    return rag.open_retriever(
        ws,
        args.encoder,
        corpora=args.corpus,
        splits=rag.DEFAULT_SPLITS if args.splits is None else args.splits,
        allow_eval_split=args.allow_eval_split,
        progress=None if args.json else ctx.progress_printer("index"),
    )


def print_selfcheck(check: dict | None) -> None:
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
    retriever, rebuilt = retriever_for(args, ctx, ws)
    summary = {**retriever.index.summary(), "rebuilt": rebuilt}
    for info in summary["partitions"].values():
        info.pop("rows", None)
    if emit(ctx, args, summary):
        return 0
    print(f"index {'built' if rebuilt else 'up to date'}: {summary['folder']}")
    print(
        f"  {summary['pairs']} pairs, splits {','.join(summary['splits'])}, encoder {summary['encoder']}"
    )
    for dialect, info in summary["partitions"].items():
        print(f"  {dialect:<12} {info['count']:>6} pairs ({info['dense_kind']})")
    print_selfcheck(summary["selfcheck"])
    return 0


# where this module's sub-commands and ``import`` kinds sit in ``upabhasha --help``
# (app/cli/registry.py gathers every stage's)
COMMANDS = [(40, register)]
IMPORTS: list = []
