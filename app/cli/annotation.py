"""Field annotation from the command line: annotators, assignment, offline review packages,
agreement, adjudication and prediction-powered estimates (engine/annotation)."""

from __future__ import annotations

from app.cli import stages
from app.cli.arguments import (
    any_number,
    fraction,
    name_text,
    positive_int,
    positive_number,
    probability_open01,
    resamples_int,
    row_id,
    seed_int,
    share,
)
from app.cli.output import add_json, csv_list, emit
from engine.annotation import api as annotation
from engine.errors import UserError
from engine.text.text_rules import visible


def _batch_id(ws, name: str | None) -> int | None:
    """The batch named ``name``; None: every batch."""
    return None if name is None else annotation.batch_id(ws, name)


def _batch_for(ws, name: str | None, purpose: str) -> int:
    """The batch named ``name``, else the newest one made for ``purpose``."""
    if name is not None:
        return annotation.batch_id(ws, name)
    found = annotation.latest_batch_id(ws, purpose)
    if found is None:
        raise UserError(f"no {purpose} batch yet")
    return found


def register(sub) -> None:
    p = sub.add_parser("annotators", help="add and list annotators (with their dialects)")
    asub = p.add_subparsers(dest="annotators_command", required=True)
    q = asub.add_parser("add", help="add a named annotator")
    q.add_argument("name", type=name_text)
    q.add_argument(
        "--dialects", required=True, type=csv_list, help="comma-separated dialect codes they speak"
    )
    q.set_defaults(func=cmd_annotators_add)
    q = asub.add_parser("list", help="annotators, their dialects and progress")
    add_json(q)
    q.set_defaults(func=cmd_annotators_list)

    p = sub.add_parser("assign", help="assign items to annotators (balanced, seeded overlap)")
    p.add_argument("--name", type=name_text, required=True, help="name of the new batch")
    p.add_argument("--kind", choices=("variant", "judgment"), default="variant")
    p.add_argument("--annotators", type=csv_list, help="comma-separated names (default: all)")
    p.add_argument("--dialects", type=csv_list, help="comma-separated dialect codes (default: all)")
    p.add_argument(
        "--status", type=csv_list, help="variants only: comma-separated statuses, e.g. draft"
    )
    p.add_argument("--judge-run", type=row_id, help="judgments only: the judge run")
    p.add_argument("--overlap", type=fraction, default=0.2, help="share double-annotated (0.2)")
    p.add_argument("--raters", type=positive_int, default=2, help="annotators per overlap item (2)")
    p.add_argument("--seed", type=seed_int, help="random seed (default: drawn and recorded)")
    p.add_argument("--blind", action="store_true", help="hide the machine draft / judge score")
    p.add_argument("--scale", help="score scale LOW..HIGH (variant 1..5, judgment 0..10)")
    p.add_argument(
        "--order",
        choices=("question", "need"),
        default="question",
        help="variants only: the queue's order, by question (default) or by need (flagged "
        "drafts first, then the least likely in their target dialect)",
    )
    p.add_argument(
        "--flagged", action="store_true", help="variants only: drafts the dialect check flagged"
    )
    add_json(p)
    p.set_defaults(func=cmd_assign)

    p = sub.add_parser("package", help="offline review packages for annotators")
    psub = p.add_subparsers(dest="package_command", required=True)
    q = psub.add_parser("export", help="write one annotator's package (a single file)")
    q.add_argument("--annotator", required=True, type=name_text)
    q.add_argument(
        "--out", required=True, help=f"package file (e.g. name{annotation.PACKAGE_SUFFIX})"
    )
    q.add_argument("--batch", help="only this batch")
    add_json(q)
    q.set_defaults(func=cmd_package_export)
    q = psub.add_parser("import", help="merge packages back (idempotent, any order)")
    q.add_argument("files", nargs="+")
    add_json(q)
    q.set_defaults(func=cmd_package_import)

    p = sub.add_parser("agreement", help="Cohen/Fleiss kappa, Krippendorff alpha per dialect")
    p.add_argument("--batch", help="only this batch")
    # the Agreement panel's settings (engine.annotation.api.AgreementSettings)
    p.add_argument(
        "--resamples",
        type=resamples_int,
        default=annotation.AGREEMENT.resamples,
        help="bootstrap resamples over items (default: %(default)s)",
    )
    p.add_argument(
        "--seed",
        type=seed_int,
        default=annotation.AGREEMENT.seed,
        help="bootstrap seed (default: %(default)s)",
    )
    add_json(p)
    p.set_defaults(func=cmd_agreement)

    p = sub.add_parser("adjudicate", help="the adjudication queue; decide items (gold)")
    p.add_argument("item", nargs="?", type=row_id, help="item to decide (omit to list the queue)")
    p.add_argument("--adjudicator", type=name_text)
    p.add_argument("--decision", choices=annotation.ADJUDICATIONS)
    p.add_argument("--text", help="the gold text (with --decision edit)")
    p.add_argument("--score", type=any_number, help="the score on the batch's scale")
    p.add_argument("--comment", default="")
    p.add_argument("--agreed", action="store_true", help="make gold of every unanimous item")
    p.add_argument("--batch", help="only this batch")
    add_json(p)
    p.set_defaults(func=cmd_adjudicate)

    p = sub.add_parser("ppi", help="human labels correct the judge (prediction-powered means)")
    p.add_argument("--batch", help="the PPI batch (default: the latest)")
    # the Agreement panel's settings (engine.annotation.api.PPISettings)
    p.add_argument(
        "--alpha",
        type=probability_open01,
        default=annotation.PPI.alpha,
        help="1 - confidence level (default: %(default)s)",
    )
    p.add_argument(
        "--width",
        type=positive_number,
        default=annotation.PPI.width,
        help="target CI width for the n needed (default: %(default)s)",
    )
    p.add_argument("--draw", action="store_true", help="draw a random subset to label instead")
    p.add_argument(
        "--plan",
        action="store_true",
        help="with --judge-run: the labels each cell needs for --width (uniform and active, "
        "from the run's latest PPI batch as pilot), without drawing",
    )
    p.add_argument("--name", type=name_text, help="with --draw: name of the new batch")
    p.add_argument("--judge-run", type=row_id, help="with --draw: the judge run")
    p.add_argument(
        "--annotators", type=csv_list, help="with --draw: comma-separated names (default: all)"
    )
    p.add_argument("--share", type=share, default=0.1, help="with --draw: share per cell (0.1)")
    p.add_argument(
        "--seed", type=seed_int, help="with --draw: random seed (default: drawn, recorded)"
    )
    p.add_argument(
        "--active",
        action="store_true",
        help="with --draw: each answer with a probability from the judge's uncertainty "
        "(estimated with inverse-probability weights) instead of uniformly",
    )
    p.add_argument(
        "--floor",
        type=share,
        help="with --active: no answer below this probability (default: "
        f"{annotation.ACTIVE_FLOOR_SHARE:g} x --share)",
    )
    add_json(p)
    p.set_defaults(func=cmd_ppi)


def cmd_annotators_add(args, ctx) -> int:
    row = annotation.add_annotator(ctx.workspace(), args.name, args.dialects)
    print(f"annotator {row['name']} ({', '.join(row['dialects'])})")
    return 0


def cmd_annotators_list(args, ctx) -> int:
    ws = ctx.workspace()
    done = {r["annotator"]: r for r in annotation.progress(ws)}
    rows = [
        dict(a, **{k: v for k, v in done.get(a["name"], {}).items() if k != "annotator"})
        for a in annotation.list_annotators(ws)
    ]
    if emit(ctx, args, rows):
        return 0
    for r in rows:
        secs = r.get("median_seconds")
        print(
            f"{r['name']:<20} {','.join(r['dialects']):<30} {r.get('decided', 0)}/"
            f"{r.get('assigned', 0)} decided" + (f", median {secs:.0f} s" if secs else "")
        )
    return 0


def cmd_assign(args, ctx) -> int:
    ws = ctx.workspace()
    if args.kind == "variant" and (args.order == "need" or args.flagged):
        stages.translation().check_drafts(ws)  # drafts not checked yet
    targets = annotation.candidate_targets(
        ws,
        args.kind,
        dialects=args.dialects,
        statuses=args.status,
        judge_run=args.judge_run,
        flagged=args.flagged,
    )
    res = annotation.assign(
        ws,
        args.name,
        args.kind,
        args.annotators or [],
        targets=targets,
        overlap=args.overlap,
        raters=args.raters,
        seed=args.seed,
        blind_draft=args.blind,
        score_scale=args.scale,
        order=args.order,
    )
    if emit(ctx, args, res.__dict__):
        return 0
    print(f"batch {res.name}: {res.items} items ({res.overlap_items} shared), seed {res.seed}")
    for name, n in res.per_annotator.items():
        print(f"  {name:<20} {n}")
    for note in res.notes:
        print(f"  note: {note}")
    return 0


def cmd_package_export(args, ctx) -> int:
    ws = ctx.workspace()
    res = annotation.export_package(
        ws, args.annotator, args.out, batch_id=_batch_id(ws, args.batch)
    )
    emit(ctx, args, res, f"{res['path']}: {res['items']} items for {args.annotator}")
    return 0


def cmd_package_import(args, ctx) -> int:
    ws = ctx.workspace()
    # all or none: every package is checked before any is merged
    results = annotation.import_packages(ws, args.files)
    if args.json:
        ctx.emit_json(results)
        return 0
    for res in results:
        print(
            f"{res['path']}: {res['new']} new decisions from {res['annotator']} "
            f"({res['already_merged']} already merged, {res['stale']} on changed items)"
        )
    return 0


def cmd_agreement(args, ctx) -> int:
    ws = ctx.workspace()
    batch = _batch_id(ws, args.batch)
    settings = annotation.AgreementSettings(resamples=args.resamples, seed=args.seed)
    report = annotation.agreement(ws, batch_id=batch, settings=settings)
    progress = annotation.progress(ws, batch_id=batch)
    data = dict(report.as_dict(), progress=progress)
    if emit(ctx, args, data):
        return 0
    if not report.by_dialect or not report.by_dialect["all"]["decision"]["items"]:
        print("no item has two or more annotators' decisions yet")
    for dialect, fields in report.by_dialect.items():
        dec, score = fields["decision"], fields["score"]
        print(f"{dialect} ({dec['items']} items, {dec['annotators']} annotators)")
        _line("  decision  Krippendorff alpha (nominal)", dec["alpha_nominal"])
        _line(
            f"  decision  Fleiss kappa ({dec['fleiss_kappa']['raters']} raters)",
            dec["fleiss_kappa"],
        )
        for pair in dec["cohen_kappa"]:
            _line(f"  decision  Cohen kappa {pair['pair'][0]} / {pair['pair'][1]}", pair)
        _line("  score     Krippendorff alpha (ordinal)", score["alpha_ordinal"])
        _line("  score     Krippendorff alpha (interval)", score["alpha_interval"])
        e = fields["edits"]
        if e["pairs"]:
            print(
                f"  edits     chrF {e['chrf']:.1f} (0-100), ROUGE-L F1 {e['rouge_l_f1']:.3f} "
                f"(0-1) over {e['pairs']} pairs"
            )
    print(f"intervals: {annotation.AgreementSettings.of(data).interval_note()}")
    for r in progress:
        secs = r["median_seconds"]
        print(
            f"progress {r['annotator']}: {r['decided']}/{r['assigned']}"
            + (f", median {secs:.0f} s per item" if secs is not None else "")
        )
    return 0


def _line(label: str, est: dict) -> None:
    if est["value"] is None:
        print(f"{label}: undefined (n={est['n']})")
        return
    ci = "" if est["low"] is None else f" [{est['low']:.3f}, {est['high']:.3f}]"
    print(f"{label}: {est['value']:.3f}{ci} (n={est['n']})")
    if est.get("note"):
        print(f"    note: {est['note']}")


def cmd_adjudicate(args, ctx) -> int:
    ws = ctx.workspace()
    batch = _batch_id(ws, args.batch)
    if args.agreed:
        if not args.adjudicator:
            raise UserError("--agreed needs --adjudicator")
        n = annotation.accept_agreed(ws, args.adjudicator, batch_id=batch)
        print(f"{n} unanimous item(s) made gold by {args.adjudicator}")
        return 0
    if args.item is None:
        entries = annotation.adjudication_queue(ws, batch_id=batch)
        if emit(ctx, args, entries):
            return 0
        for e in entries:
            votes = "; ".join(
                f"{d['annotator']}: {d['decision']}"
                + (f" '{visible(d['text'])}'" if d["text"] else "")
                + ("" if d["score"] is None else f" ({d['score']:g})")
                for d in e["decisions"]
            )
            print(f"{e['item_id']:>6} {e['dialect']:<12} {', '.join(e['reasons'])} | {votes}")
        print(f"{len(entries)} item(s) to adjudicate")
        return 0
    if not args.decision or not args.adjudicator:
        detail = annotation.item_detail(ws, args.item)
        if emit(ctx, args, detail):
            return 0
        raise UserError("to decide an item give --decision and --adjudicator (or --json to show)")
    res = annotation.adjudicate(
        ws,
        args.item,
        args.adjudicator,
        args.decision,
        text=args.text,
        score=args.score,
        comment=args.comment,
    )
    print(f"item {res['item_id']}: {res['decision']} is gold")
    return 0


def cmd_ppi(args, ctx) -> int:
    ws = ctx.workspace()
    settings = annotation.PPISettings(alpha=args.alpha, width=args.width)
    if args.plan:
        if args.judge_run is None:
            raise UserError("--plan needs --judge-run")
        plan = annotation.labels_needed(ws, args.judge_run, settings)
        if not emit(ctx, args, plan):
            _print_needs(plan)
        return 0
    if args.draw:
        if not args.name or args.judge_run is None:
            raise UserError("--draw needs --name and --judge-run")
        # sized before the draw: the pilot is the run's latest batch, not the new one
        plan = annotation.labels_needed(ws, args.judge_run, settings)
        names = args.annotators or [a["name"] for a in annotation.list_annotators(ws)]
        res = annotation.draw_subset(
            ws,
            args.name,
            args.judge_run,
            names,
            share=args.share,
            seed=args.seed,
            active=args.active,
            floor=args.floor,
        )
        how = "by the judge's uncertainty" if args.active else "at random"
        if not emit(ctx, args, dict(res, labels_needed=plan)):
            _print_needs(plan)
            print(f"batch {args.name}: {res['drawn']} answers drawn {how}, seed {res['seed']}")
        return 0
    study = annotation.ppi_study(ws, _batch_for(ws, args.batch, "ppi"), settings)
    if emit(ctx, args, study):
        return 0
    design = study["design"]
    drawn = "uniform draw"
    if design["design"] == "active":
        drawn = f"active draw, floor {design['floor']:g}, inverse-probability weights"
    print(f"scale {study['scale']}, {settings.interval_note()}, seed {study['seed']}, {drawn}")
    for c in study["cells"]:
        p, j, h = c["ppi"], c["judge_only"], c["human_only"]
        need, state = c["labels_for_width"], c.get("labels_for_width_state")
        print(
            f"{c['model']:<16} {c['dialect']:<12} PPI {_ci(p)} (n={p['n']}, N={p['N']}) | "
            f"judge {_ci(j)} (t, n={j['n']}) | human {_ci(h)} (t, n={h['n']}) | labels for "
            f"width {args.width:g}: {state if need is None else int(need)}"
        )
        if need is None and c.get("labels_for_width_note"):
            print(f"  labels for width {c['labels_for_width_note']}")
        t = c["ppi_t"]
        if t:
            print(f"  PPI with Student t {_ci(t)}: {t['note']}")
        for what, e in (("PPI", p), ("judge", j), ("human", h)):
            if e.get("note"):
                print(f"  note ({what}): {e['note']}")
    for g in study["gaps"]:
        print(f"gap {g['model']} {g['dialect']} - standard: {_ci(dict(g, estimate=g['gap']))}")
    return 0


def _print_needs(need: annotation.LabelsNeeded) -> None:
    """Labels each cell needs for the target width, uniform and active."""
    pilot = f"batch {need['pilot_batch']}" if need["pilot_batch"] else "none yet"
    print(
        f"labels needed for a {round(100 * (1 - need['alpha']))}% interval {need['width']:g} "
        f"wide (pilot: {pilot}; a cell needs at least {need['pilot_min']} pilot labels):"
    )
    for c in need["cells"]:
        head = f"  {c['model']:<16} {c['dialect']:<12} N={c['N']:<6} pilot={c['pilot']:<4}"
        if c["state"] == "pilot":
            print(f"{head} {c['note']}")
            continue
        uniform, active = (
            c[k] if c[k] is not None else "unreachable" for k in ("uniform", "active")
        )
        print(f"{head} uniform {uniform}, active {active}")
        if c["note"]:
            print(f"    {c['note']}")


def _ci(e: dict) -> str:
    if e.get("estimate") is None:
        return "n/a"
    return f"{e['estimate']:.2f} [{e['low']:.2f}, {e['high']:.2f}]"


# where this module's sub-commands and ``import`` kinds sit in ``upabhasha --help``
# (app/cli/registry.py gathers every stage's)
COMMANDS = [(110, register)]
IMPORTS: list = []
