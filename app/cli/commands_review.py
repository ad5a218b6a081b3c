"""Translation review from the command line: list variants, set one status, or accept many.

Every change goes through engine.translation.review, so it is one transaction with a history row
naming the reviewer, exactly as in the review panel.
"""

from __future__ import annotations

from engine.errors import UserError
from engine.translation.review import STATUSES, set_variant_status


def register(sub) -> None:
    p = sub.add_parser("review", help="list and change the review status of dialect variants")
    rsub = p.add_subparsers(dest="review_command", required=True)

    q = rsub.add_parser("list", help="variants with their status")
    q.add_argument("--status", choices=STATUSES)
    q.add_argument("--dialects", help="comma-separated dialect codes")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_list)

    q = rsub.add_parser("set", help="set the status of one variant")
    q.add_argument("variant_id", type=int)
    q.add_argument("--status", required=True, choices=STATUSES)
    q.add_argument("--reviewer", required=True)
    q.add_argument("--comment")
    q.set_defaults(func=cmd_set)

    q = rsub.add_parser(
        "bulk",
        help="move every variant in one status to another "
        "(e.g. a demo marking machine drafts gold without review)",
    )
    q.add_argument("--from", dest="from_status", required=True, choices=STATUSES)
    q.add_argument("--to", dest="to_status", required=True, choices=STATUSES)
    q.add_argument("--reviewer", required=True)
    q.add_argument("--dialects", help="comma-separated dialect codes")
    q.add_argument("--comment", default="")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_bulk)


def _select(ws, status: str | None, dialects: str | None) -> list[dict]:
    sql = (
        "SELECT v.id, q.ext_id AS question, v.dialect, v.status, v.provenance, v.text "
        "FROM variants v JOIN questions q ON q.id = v.question_id WHERE v.dialect != 'standard'"
    )
    params: list = []
    if status:
        sql += " AND v.status = ?"
        params.append(status)
    if dialects:
        codes = [c.strip() for c in dialects.split(",") if c.strip()]
        unknown = set(codes) - ws.dialect_codes()
        if unknown:
            raise UserError(f"unknown dialect(s): {', '.join(sorted(unknown))}")
        sql += f" AND v.dialect IN ({','.join('?' * len(codes))})"
        params += codes
    return ws.query(sql + " ORDER BY v.question_id, v.dialect", tuple(params))


def cmd_list(args, ctx) -> int:
    rows = _select(ctx.workspace(), args.status, args.dialects)
    if args.json:
        ctx.emit_json(rows)
        return 0
    for r in rows:
        print(f"{r['id']:>6} {r['question']:<8} {r['dialect']:<12} {r['status']:<9} {r['text']}")
    return 0


def cmd_set(args, ctx) -> int:
    ws = ctx.workspace()
    if not ws.scalar("SELECT count(*) FROM variants WHERE id = ?", (args.variant_id,)):
        raise UserError(f"no variant with id {args.variant_id}")
    state = set_variant_status(
        ws, args.variant_id, args.status, actor=args.reviewer, comment=args.comment
    )
    print(f"variant {state.id}: {state.status}")
    return 0


def cmd_bulk(args, ctx) -> int:
    ws = ctx.workspace()
    rows = _select(ws, args.from_status, args.dialects)
    progress = ctx.progress_printer("review", quiet=args.json)
    for i, row in enumerate(rows, 1):
        set_variant_status(
            ws, row["id"], args.to_status, actor=args.reviewer, comment=args.comment or None
        )
        progress(i, len(rows), "")
    if args.json:
        ctx.emit_json({"changed": len(rows), "from": args.from_status, "to": args.to_status})
    else:
        print(
            f"{len(rows)} variant(s) moved from {args.from_status} to {args.to_status} "
            f"by {args.reviewer}"
        )
    return 0
