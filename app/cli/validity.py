"""``upabhasha validity``: how far to trust a judge run, per dialect (engine/validity).

A seeded sample of each dialect's judged answers goes back to the same judge changed in one
respect each (the two answers' order, a second decoding, changes that must not move the
verdict, a wrong or empty answer that must lower it); the card gives per dialect the flip
rate, retest agreement, invariance and discrimination with n, interval and band, weighted κ
and Krippendorff's α beside exact agreement, and a sentence to take away. Resumable: run
the same command again after a stop. ``--json`` prints the result on stdout. The stage's
front door is imported when the command runs (``--help`` stays quick).
"""

from __future__ import annotations

from pathlib import Path

from app.cli import stages
from app.cli.arguments import add_schedule_options, fraction, given, positive_int, row_id, seed_int
from app.cli.context import runs_outcome
from app.cli.output import add_summary_options, emit, fmt, run_line

SHOWN = {"position": "flip rate", "retest": "retest agreement", "invariance": "invariance"}


def register(sub) -> None:
    p = sub.add_parser(
        "validity",
        help="how far to trust a judge run, per dialect: order, retest, invariance and "
        "discrimination checks (resumable)",
    )
    p.add_argument(
        "--judge-run", type=row_id, metavar="RUN", help="the judge run (default: the primary)"
    )
    p.add_argument(
        "--per-dialect", type=positive_int, metavar="N", help="items per dialect (default 20)"
    )
    p.add_argument("--seed", type=seed_int, help="seed of the sample and the retest (default 0)")
    for option, default, words in (
        ("--flip-max", 0.05, "most verdicts that may flip with the answers' order"),
        ("--retest-min", 0.95, "fewest verdicts that must agree when decoded again"),
        ("--invariance-min", 0.95, "fewest verdicts that must hold under neutral changes"),
        ("--discrimination-min", 0.90, "fewest scores that must drop for a wrong or empty answer"),
    ):
        p.add_argument(option, type=fraction, metavar="SHARE", help=f"{words} (default {default})")
    p.add_argument("--rubric", metavar="PATH", help="the judge run's rubric (default: bundled)")
    p.add_argument("--template", metavar="PATH", help="the judge run's prompt (default: bundled)")
    add_schedule_options(p, "local models: sequences decoded together")
    add_summary_options(p)
    p.set_defaults(func=cmd_validity, build_request=validity_request)


def validity_request(args):
    """The request ``upabhasha validity`` runs (options left out keep its defaults)."""
    from engine.validity.api import ValidityRequest

    judging = stages.judging()
    return ValidityRequest(
        **given(
            judge_run=args.judge_run,
            per_dialect=args.per_dialect,
            seed=args.seed,
            flip_max=args.flip_max,
            retest_min=args.retest_min,
            invariance_min=args.invariance_min,
            discrimination_min=args.discrimination_min,
            rubric=None if args.rubric is None else judging.rubric_data(args.rubric),
            template=None if args.template is None else judging.judge_template_text(args.template),
            template_name=None if args.template is None else Path(args.template).name,
            n_seq=args.n_seq,
            refill=args.refill,
        )
    )


def _interval(rate) -> str:
    if rate.value is None:
        return "n/a"
    if rate.low is None:
        return f"{rate.value:.0%}"
    return f"{rate.value:.0%} [{rate.low:.0%}, {rate.high:.0%}]"


def _agreement(fig) -> str:
    def ci(x) -> str:
        if x.value is None:
            return "n/a"
        return fmt(x.value) + ("" if x.low is None else f" [{fmt(x.low)}, {fmt(x.high)}]")

    exact = "n/a" if fig.exact is None else f"{fig.exact:.0%}"
    return f"exact {exact}, kappa {ci(fig.kappa)}, alpha {ci(fig.alpha)}"


def card_lines(card) -> list[str]:
    bands = card.bands
    lines = [
        f"judge {card.judge_model} (judge run {card.judge_run_id}; probes: run {card.run_id}): "
        f"{card.per_dialect} items per dialect, seed {card.seed}, "
        f"{card.level:.0%} intervals; bands: flip <= {bands.flip_max:g}, retest >= "
        f"{bands.retest_min:g}, invariance >= {bands.invariance_min:g}, discrimination >= "
        f"{bands.discrimination_min:g}"
    ]
    for d in card.dialects:
        lines.append(f"{d.dialect_name} ({d.n_items} item{'' if d.n_items == 1 else 's'})")
        for f in d.families:
            what = SHOWN.get(f.family, "discrimination")
            shift = "" if f.mean_shift.value is None else f", mean shift {f.mean_shift.value:+.2f}"
            agreement = "" if f.family == "sensitivity" else f"; {_agreement(f)}"
            invalid = f"; {f.invalid} replies no verdict" if f.invalid else ""
            lines.append(
                f"  {what:<17} {_interval(f.rate):<18} n={f.n:<4} {f.status}{shift}{agreement}"
                f"{invalid}"
            )
        for c in d.checks:
            if c.family not in ("invariance", "sensitivity"):
                continue
            if not c.n and c.same_prompt:
                lines.append(
                    f"    {c.check:<15} not asked: the change leaves the judge's prompt as it "
                    f"was (n={c.same_prompt}; the prompt's text is normalised)"
                )
                continue
            notes = [f"{c.same_prompt} same prompt, not asked"] if c.same_prompt else []
            notes += [f"{c.invalid} replies no verdict"] if c.invalid else []
            if c.check == "romanized":
                notes.append("not in the band: the rubric's script rule may move it")
            extra = f" ({'; '.join(notes)})" if notes else ""
            lines.append(f"    {c.check:<15} {_interval(c.rate):<18} n={c.n}{extra}")
        lines.append(f"  {d.sentence}")
    lines.append("passed every band" if card.passed else "outside a band: see 'fail' above")
    return lines


def cmd_validity(args, ctx) -> int:
    from engine.steps.tasks import run_request_at  # the one runner of every stage's request

    result = run_request_at(
        str(ctx.workspace().path),
        validity_request(args),
        progress=ctx.progress_printer("validity", quiet=args.quiet or args.json),
    )
    if not emit(ctx, args, result.as_dict()):
        for s in result.runs:
            print(run_line(f"judge {s['model']}", s, "probes"))
        if result.card is not None:
            print("\n".join(card_lines(result.card)))
    return runs_outcome(ctx, "validity", list(result.runs), "probes")


COMMANDS = [(152, register)]  # after replicate
IMPORTS: list = []
