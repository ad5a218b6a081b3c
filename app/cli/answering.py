"""Answering command: ``generate`` - every model answers the standard question and each
dialect variant. It resumes where it stopped and prints a one-line progress on stderr;
``--json`` prints one JSON document on stdout."""

from __future__ import annotations

import dataclasses

from app.cli import stages
from app.cli.arguments import add_schedule_options, positive_int, schedule_options
from app.cli.context import runs_outcome
from app.cli.output import add_summary_options, emit, run_line


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
    p.add_argument(
        "--limit",
        type=positive_int,
        metavar="N",
        help="only the variants of the first N questions (a small first run)",
    )
    p.add_argument("--max-tokens", type=positive_int, default=384)
    p.add_argument(
        "--prompts",
        metavar="DIR",
        help="folder with this workspace's own answer_<dialect>.txt files",
    )
    add_schedule_options(p, "local models: sequences decoded together")
    add_summary_options(p)
    p.set_defaults(func=cmd_generate)


def cmd_generate(args, ctx) -> int:
    answering, llm = stages.answering(), stages.llm()
    ws = ctx.workspace()
    models = llm.all_models(ws) if args.all_models else llm.find_models(ws, args.model)
    dialects = [d for item in (args.dialect or []) for d in item.split(",") if d]
    sampler = dataclasses.replace(answering.DEFAULT_SAMPLER, max_tokens=args.max_tokens)
    summaries = answering.generate_answers(
        ws,
        models,
        statuses=tuple(s.strip() for s in args.status.split(",") if s.strip()),
        dialects=dialects or None,
        question_set=args.question_set,
        limit=args.limit,
        sampler=sampler,
        prompt_dir=args.prompts,
        schedule=schedule_options(args),
        progress=ctx.progress_printer("answers", quiet=args.quiet or args.json),
    )
    if not emit(ctx, args, {"runs": summaries}):
        for s in summaries:
            print(run_line(s["model"], s, "answers"))
    return runs_outcome(ctx, "generate", summaries, "answers")


# where this module's sub-commands and ``import`` kinds sit in ``upabhasha --help``
# (app/cli/registry.py gathers every stage's)
COMMANDS = [(60, register)]
IMPORTS: list = []
