"""``upabhasha probe``: ask models the probe sets, option order controlled (resumable), as
one :class:`engine.bias.api.ProbeRequest` (the Social bias panel runs the same request)."""

from __future__ import annotations

from app.cli import stages
from app.cli.arguments import (
    add_schedule_options,
    comma_list,
    given,
    positive_int,
    seed_int,
    token_budget,
)
from app.cli.context import runs_outcome
from app.cli.output import add_json, add_quiet, csv_list, emit, run_line


def register(sub) -> None:
    r = sub.add_parser("probe", help="ask models the probes, option order controlled (resumable)")
    r.add_argument(
        "--models", type=csv_list, help="comma-separated model names (default: the default model)"
    )
    r.add_argument("--sets", type=csv_list, help="comma-separated probe sets (default: all)")
    r.add_argument("--counterbalance", action="store_true", help="ask both option orders")
    r.add_argument(
        "--seed",
        type=seed_int,
        help="seed of the per-prompt order draw and of the --limit sample (default: 0)",
    )
    r.add_argument(
        "--constrained", action="store_true", help="constrain the reply to the two options (JSON)"
    )
    r.add_argument(
        "--limit",
        type=positive_int,
        metavar="N",
        help="at most N probes of each set: a sample drawn with --seed, stratified by category "
        "and subcategory (as run-task draws), recorded in the run card",
    )
    which = r.add_mutually_exclusive_group()
    which.add_argument(
        "--instruction",
        metavar="FILE",
        help="system instruction before every probe (default: the bundled one)",
    )
    which.add_argument(
        "--no-instruction",
        action="store_true",
        help="ask the probes exactly as written, without an instruction",
    )
    r.add_argument("--max-tokens", type=token_budget, help="longest reply (default: 24)")
    add_schedule_options(r, "local models: sequences decoded together")
    add_json(r)
    add_quiet(r, None)
    r.set_defaults(func=cmd_probe, build_request=probe_request)


def probe_request(args):
    """The request ``upabhasha probe`` runs (options left out keep the request's defaults)."""
    bias = stages.bias()
    instruction = bias.instruction_file(args.instruction) if args.instruction else {}
    return bias.ProbeRequest(
        **given(
            models=args.models,
            sets=comma_list(args.sets),
            limit=args.limit,
            seed=args.seed,
            # a switch left off keeps the request's default
            counterbalance=args.counterbalance or None,
            constrained=args.constrained or None,
            max_tokens=args.max_tokens,
            no_instruction=args.no_instruction or None,
            n_seq=args.n_seq,
            refill=args.refill,
        ),
        **instruction,
    )


def cmd_probe(args, ctx) -> int:
    result = probe_request(args).run(
        ctx.workspace(),
        progress=ctx.progress_printer("probe", quiet=args.quiet or args.json),
    )
    summaries = list(result.runs)
    if not emit(ctx, args, result.as_dict()):
        for s in summaries:
            print(run_line(f"{s['model']} / {s['probe_set']}", s, "replies"))
    return runs_outcome(ctx, "probe", summaries, "replies")


# after ``probes`` in ``upabhasha --help`` (app/cli/registry.py gathers every stage's)
COMMANDS = [(101, register)]
IMPORTS: list = []
