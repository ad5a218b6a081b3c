"""Answering command: ``generate`` - every model answers the standard question and each
dialect variant. It resumes where it stopped and prints a one-line progress on stderr;
``--json`` prints one JSON document on stdout."""

from __future__ import annotations

from app.cli import stages
from app.cli.arguments import (
    add_schedule_options,
    comma_list,
    given,
    positive_int,
    token_budget,
)
from app.cli.context import runs_outcome
from app.cli.output import add_summary_options, csv_list, emit, run_line


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
        type=csv_list,
        help="variant statuses to answer, comma-separated (default: gold; "
        "drafts on request: draft,reviewed,gold)",
    )
    p.add_argument(
        "--dialect", action="append", type=csv_list, metavar="CODE", help="only these dialects"
    )
    p.add_argument("--question-set", metavar="NAME")
    p.add_argument(
        "--limit",
        type=positive_int,
        metavar="N",
        help="only the variants of the first N questions (a small first run)",
    )
    p.add_argument("--max-tokens", type=token_budget, help="longest answer (default: 384)")
    p.add_argument(
        "--prompts",
        metavar="DIR",
        help="folder with this workspace's own answer_<dialect>.txt files",
    )
    add_schedule_options(p, "local models: sequences decoded together")
    add_summary_options(p)
    p.set_defaults(func=cmd_generate, build_request=generate_request)


def generate_request(args):
    """The request ``upabhasha generate`` runs (options left out keep the request's defaults)."""
    return stages.answering().GenerateRequest(
        **given(
            models=args.model or (),
            all_models=args.all_models,
            statuses=comma_list(args.status),
            dialects=comma_list(args.dialect),
            question_set=args.question_set,
            limit=args.limit,
            max_tokens=args.max_tokens,
            prompts=args.prompts,
            n_seq=args.n_seq,
            refill=args.refill,
        )
    )


def cmd_generate(args, ctx) -> int:
    request = generate_request(args)
    result = request.run(
        ctx.workspace(),
        progress=ctx.progress_printer("answers", quiet=args.quiet or args.json),
    )
    summaries = list(result.runs)
    if not emit(ctx, args, result.as_dict()):
        for s in summaries:
            print(run_line(s["model"], s, "answers"))
    return runs_outcome(ctx, "generate", summaries, "answers")


# where this module's sub-commands and ``import`` kinds sit in ``upabhasha --help``
# (app/cli/registry.py gathers every stage's)
COMMANDS = [(60, register)]
IMPORTS: list = []
