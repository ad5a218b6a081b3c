"""Answering command: ``generate`` - every model answers the standard question and each
dialect variant. It resumes where it stopped and prints a one-line progress on stderr;
``--json`` prints one JSON document on stdout."""

from __future__ import annotations

from app.cli.arguments import positive_int
from app.cli.context import runs_outcome
from app.cli.output import add_summary_options
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
    p.add_argument("--max-tokens", type=positive_int, default=384)
    p.add_argument(
        "--prompts",
        metavar="DIR",
        help="folder with this workspace's own answer_<dialect>.txt files",
    )
    p.add_argument("--n-seq", type=positive_int, help="local models: sequences decoded together")
    add_summary_options(p)
    p.set_defaults(func=cmd_generate)


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
    return runs_outcome(ctx, "generate", summaries, "answers")
