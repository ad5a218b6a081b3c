"""``upabhasha replicate RUN``: decode a sample of a run again and report the agreement
(byte-identical outputs) and, for judge runs, how far the final scores moved."""

from __future__ import annotations


def register(sub) -> None:
    p = sub.add_parser(
        "replicate",
        help="decode a sample of a run again; report agreement and the spread of scores",
    )
    p.add_argument("run", type=int, nargs="?", metavar="RUN", help="run id (see 'judges')")
    p.add_argument("--sample", type=int, default=20, help="items to decode again (default 20)")
    p.add_argument("--seed", type=int, default=0, help="seed of the sample")
    p.add_argument("--list", action="store_true", help="list stored replications")
    p.add_argument("--json", action="store_true")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.set_defaults(func=cmd_replicate)


def cmd_replicate(args, ctx) -> int:
    from engine.errors import UserError
    from engine.judging.replication import replicate
    from engine.llm.replicate import replications

    ws = ctx.workspace()
    if args.list or args.run is None:
        rows = replications(ws, [args.run] if args.run else None)
        if args.json:
            ctx.emit_json(rows)
            return 0
        if not rows:
            print("no replications yet (upabhasha replicate RUN)")
        for r in rows:
            print(
                f"#{r['id']} run {r['run_id']} at {r['created_at']}: {r['identical']} of "
                f"{r['sample']} identical"
            )
        return 0
    if args.sample < 1:
        raise UserError("--sample must be at least 1")
    result = replicate(
        ws,
        args.run,
        sample=args.sample,
        seed=args.seed,
        progress=ctx.progress_printer("replicating", quiet=args.quiet or args.json),
    )
    if args.json:
        ctx.emit_json(result.as_dict())
        return 0
    agreement = result.agreement
    print(
        f"run {result.run_id} ({result.kind}): {result.identical} of {result.sample} sampled "
        f"outputs identical ({'n/a' if agreement is None else f'{agreement:.1%}'}; "
        f"{result.groups} batch group(s) decoded again, {result.failed} failed)"
    )
    f = result.finals
    if f.get("n"):
        print(
            f"final scores (0-{f['scale']:g}) of {f['n']} sampled judgments: mean "
            f"{f['mean_then']:.3f} stored, {f['mean_now']:.3f} now; mean |difference| "
            f"{f['mean_abs_diff']:.3f}, largest {f['max_abs_diff']:.3f}"
        )
    if result.differing:
        print(
            "outputs differ: this machine or build does not reproduce the run exactly; "
            "report the spread above with its figures (differing: "
            + ", ".join(result.differing[:10])
            + (" ..." if len(result.differing) > 10 else "")
            + ")"
        )
    return 0
