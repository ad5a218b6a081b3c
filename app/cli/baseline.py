"""``upabhasha baseline``: the copy-input baseline per dialect and direction on any corpus,
split or item set (engine.translation.baseline) — no index, no model."""

from __future__ import annotations

from app.cli import stages
from app.cli.arguments import name_text, output_file
from app.cli.hints import for_cli
from app.cli.options import add_normalize_option
from app.cli.output import add_json, csv_list, emit

# engine.translation.baseline.DIRECTIONS, written here so that --help does not load the stage
DIRECTIONS = ("standard-to-dialect", "dialect-to-standard")


def register(sub) -> None:
    p = sub.add_parser(
        "baseline",
        help="copy-input baseline (input returned unchanged) per dialect and direction",
    )
    p.add_argument(
        "--items",
        default="pairs",
        metavar="SOURCE",
        help="'pairs' (the workspace's sentence pairs) or 'items:<set name>' (default pairs)",
    )
    p.add_argument("--corpus", type=name_text, help="only this corpus (pairs)")
    p.add_argument(
        "--split", type=name_text, help="only this split (train, test or validation; default all)"
    )
    p.add_argument("--dialects", type=csv_list, help="only these dialects")
    p.add_argument(
        "--direction",
        choices=(*DIRECTIONS, "both"),
        default="both",
        help="standard-to-dialect, dialect-to-standard or both (default both)",
    )
    add_normalize_option(p, scoring=True)
    p.add_argument("--csv", type=output_file, metavar="FILE", help="also write the rows as CSV")
    add_json(p, "print one JSON document")
    p.set_defaults(func=cmd_baseline)


def cmd_baseline(args, ctx) -> int:
    translation = stages.translation()
    report = translation.copy_baselines(
        ctx.workspace(),
        source=args.items,
        corpus=args.corpus,
        split=args.split,
        dialects=args.dialects,
        directions=DIRECTIONS if args.direction == "both" else (args.direction,),
        normalize=args.normalize,
    )
    if args.csv:
        translation.write_baseline_csv(report, args.csv)
    if emit(ctx, args, report):
        return 0
    where = f"{report['source']}" + (f", corpus {report['corpus']}" if report["corpus"] else "")
    where += f", split {report['split']}" if report["split"] else ", all splits"
    print(f"copy-input baseline ({where}; --normalize {report['normalize']}):")
    print(f"  {'dialect':<14} {'direction':<20} {'script':<7} {'n':>6} {'BLEU':>7} {'chrF++':>7}")
    signatures: dict[str, str] = {}
    for r in report["rows"]:
        head = f"  {r['dialect']:<14} {r['direction']:<20} {r['script']:<7} {r['n']:>6}"
        if "not_applicable" in r:
            print(f"{head}  {r['not_applicable']}")
            continue
        print(f"{head} {r['bleu']:>7.2f} {r['chrf++']:>7.2f}")
        for key, sig in r["signatures"].items():
            signatures.setdefault(f"{key} {sig}", sig)
    for line in signatures:
        print(f"  signature {line.split(' ', 1)[0]}: {line.split(' ', 1)[1]}")
    for note in report["notes"]:
        print(f"  note: {for_cli(note)}")
    return 0


# where this module's sub-commands and ``import`` kinds sit in ``upabhasha --help``
# (app/cli/registry.py gathers every stage's)
COMMANDS = [(130, register)]
IMPORTS: list = []
