"""Social-bias commands (paper 002): import probes, probes …, bias-stats.

``import probes FILE`` joins the existing ``import`` group; ``probes generate|list|table|
map|unmapped|agreement`` manage probe sets and the answer-normalisation table; ``bias-stats``
prints scores with CIs, rates and effects. Asking the models is ``probe``
(app/cli/probing.py).
"""

from __future__ import annotations

from app.cli import stages
from app.cli.arguments import (
    name_text,
    positive_int,
    resamples_int,
    seed_int,
)
from app.cli.output import add_file_format, add_json, csv_list, emit
from engine.errors import UserError


def _pair(value: str | None, what: str) -> tuple[str, str] | None:
    if value is None:
        return None
    parts = [p.strip() for p in value.split(",")]
    if len(parts) != 2 or not all(parts):
        raise UserError(f"{what} expects two names separated by a comma, not '{value}'")
    return parts[0], parts[1]


def register_import(isub) -> None:
    """``upabhasha import probes``."""
    c = isub.add_parser(
        "probes", help="social-bias probes, template or natural (CSV, TSV, JSON, JSONL, XLSX)"
    )
    c.add_argument("file")
    c.add_argument(
        "--name", type=name_text, help="probe set name (default: the file name without suffix)"
    )
    c.add_argument(
        "--kind",
        choices=("template", "natural"),
        help="default: natural when a firstOption column is present",
    )
    c.add_argument("--topic", type=name_text, help="gender, religion, or a new topic with --groups")
    c.add_argument("--groups", metavar="X,Y", help="a new topic's two groups (x first)")
    c.add_argument("--prompt-col", default="prompt")
    c.add_argument("--id-col", help="default: 'ID' if present, else the line number")
    c.add_argument("--category-col", help="default: 'category' if present")
    c.add_argument("--subcategory-col", help="default: 'subcategory' if present")
    c.add_argument("--topic-col", help="default: 'topic' if present")
    c.add_argument("--first-col", help="natural: group of option 1 (default: 'firstOption')")
    c.add_argument(
        "--option-cols",
        metavar="XCOL,YCOL",
        help="columns holding group x's and group y's option words",
    )
    add_file_format(c)
    add_json(c)
    c.set_defaults(func=cmd_import_probes)


def register(sub) -> None:
    p = sub.add_parser("probes", help="probe sets and the answer-normalisation table")
    psub = p.add_subparsers(dest="probes_command", metavar="WHAT", required=True)
    g = psub.add_parser(
        "generate",
        help="template probes from templates x trait words x "
        "occupations (the paper's 2,772 from its files)",
    )
    g.add_argument("--templates", required=True, metavar="JSON")
    g.add_argument("--words", required=True, metavar="CSV")
    g.add_argument(
        "--name", type=name_text, default="template", help="set name prefix (default: template)"
    )
    add_json(g)
    g.set_defaults(func=cmd_generate)
    s = psub.add_parser("list", help="probe sets and their probes per category")
    add_json(s)
    s.set_defaults(func=cmd_list)
    t = psub.add_parser("table", help="the answer-normalisation table and its version")
    t.add_argument("--topic", type=name_text, help="only this topic (and '*')")
    add_json(t)
    t.set_defaults(func=cmd_table)
    m = psub.add_parser("map", help="map a reply phrase to a label (a new table version)")
    m.add_argument("phrase")
    m.add_argument(
        "label",
        help="a group of the topic, first, second, both_neither, refusal, filler, or '' to remove",
    )
    m.add_argument(
        "--topic", required=True, type=name_text, help="the topic, or '*' for every topic"
    )
    m.add_argument("--author", default="")
    add_json(m)
    m.set_defaults(func=cmd_map)
    u = psub.add_parser("unmapped", help="unparseable replies waiting to be mapped")
    u.add_argument("--limit", type=positive_int, default=50)
    add_json(u)
    u.set_defaults(func=cmd_unmapped)
    a = psub.add_parser("agreement", help="Cohen's kappa of two annotators' judgments")
    a.add_argument("file")
    a.add_argument("--cols", default="annotator1,annotator2", metavar="A,B")
    # default None: the bias statistics' settings (engine.bias.api.BiasStatsSettings)
    a.add_argument(
        "--resamples", type=resamples_int, help="bootstrap resamples (default: as bias-stats)"
    )
    a.add_argument("--seed", type=seed_int, help="bootstrap seed (default: as bias-stats)")
    add_json(a)
    a.set_defaults(func=cmd_agreement)

    q = psub.add_parser(
        "to-questions",
        help="put a probe set into the translation flow "
        "(a question set; then 'translate' and review as usual)",
    )
    q.add_argument("set")
    q.add_argument("--question-set", help="default: probes:<set>")
    q.add_argument(
        "--limit",
        type=positive_int,
        metavar="N",
        help="a seeded sample of N probes stratified by category and subcategory, "
        "the one 'probe --limit N --seed S' asks",
    )
    q.add_argument("--seed", type=seed_int, default=0, help="seed of the --limit sample")
    add_json(q)
    q.set_defaults(func=cmd_to_questions)
    d = psub.add_parser(
        "from-dialects",
        help="dialect probe sets <set>@<dialect> from the "
        "reviewed dialect variants (options and groups kept)",
    )
    d.add_argument("set")
    d.add_argument("--question-set", help="default: probes:<set>")
    d.add_argument(
        "--dialects", type=csv_list, help="comma-separated (default: every dialect present)"
    )
    d.add_argument(
        "--status", type=csv_list, default=["gold"], help="variant statuses (default: gold)"
    )
    add_json(d)
    d.set_defaults(func=cmd_from_dialects)

    b = sub.add_parser(
        "bias-stats",
        help="bias scores with CIs, refusal/unparseable rates, "
        "position and occupation-mixing effects",
    )
    # Defaults None: engine.bias.api.BiasStatsSettings holds them, and the Social bias panel
    # reads the same (importing the stage here would load it for every command).
    b.add_argument(
        "--zero-rule",
        choices=(
            "limit",
            "haldane",
        ),  # engine.bias.api.ZERO_RULES (tests/widgets/test_statistics_parity.py)
        help="a score where a group got no answer: 'limit' (the formula's ±1) or 'haldane' "
        "(½ added to both counts); default: the Social bias panel's",
    )
    b.add_argument(
        "--resamples",
        type=resamples_int,
        help="bootstrap resamples over probes (default: the Social bias panel's, printed "
        "with the results)",
    )
    b.add_argument(
        "--seed", type=seed_int, help="bootstrap seed (default: the Social bias panel's)"
    )
    add_json(b)
    b.set_defaults(func=cmd_bias_stats)


def cmd_import_probes(args, ctx) -> int:
    bias = stages.bias()
    ws = ctx.workspace(create=True)
    report = bias.import_probes(
        ws,
        args.file,
        name=args.name,
        kind=args.kind,
        topic=args.topic,
        groups=_pair(args.groups, "--groups"),
        id_col=args.id_col,
        prompt_col=args.prompt_col,
        category_col=args.category_col,
        subcategory_col=args.subcategory_col,
        topic_col=args.topic_col,
        first_col=args.first_col,
        option_cols=_pair(args.option_cols, "--option-cols"),
        file_format=args.file_format,
        progress=ctx.progress_printer("import", quiet=args.json),
    )
    if emit(ctx, args, report.to_dict()):
        return 0
    _print_set(report.to_dict())
    return 0


def _print_set(r: dict) -> None:
    print(
        f"probe set '{r['name']}' ({r['kind']}, {r['topic']}: x = {r['groups'][0]}, "
        f"y = {r['groups'][1]}): {r['inserted']:,} new, {r['already_present']:,} already present"
    )
    for cat, n in r["by_category"].items():
        print(f"  {cat or '(no category)':<45} {n:>6,}")


def cmd_generate(args, ctx) -> int:
    bias = stages.bias()
    ws = ctx.workspace(create=True)
    reports = [
        r.to_dict() for r in bias.generate_probe_sets(ws, args.templates, args.words, args.name)
    ]
    if emit(ctx, args, {"sets": reports, "total": sum(r["rows_read"] for r in reports)}):
        return 0
    for r in reports:
        _print_set(r)
    print(f"total {sum(r['rows_read'] for r in reports):,} probes")
    return 0


def cmd_to_questions(args, ctx) -> int:
    bias = stages.bias()
    result = bias.probes_to_questions(
        ctx.workspace(), args.set, args.question_set, args.limit, args.seed
    )
    emit(
        ctx,
        args,
        result,
        f"question set '{result['question_set']}': {result['probes']} probes, "
        f"{result['inserted']} new questions; next: upabhasha translate --questions "
        f"'{result['question_set']}' …, review, then probes from-dialects {args.set}",
    )
    return 0


def cmd_from_dialects(args, ctx) -> int:
    bias = stages.bias()
    reports = bias.dialect_probe_sets(
        ctx.workspace(),
        args.set,
        question_set=args.question_set,
        dialects=args.dialects,
        statuses=tuple(args.status),
    )
    if emit(ctx, args, reports):
        return 0
    for r in reports:
        print(
            f"probe set '{r['name']}': {r['inserted']} new, {r['already_present']} present, "
            f"{r['skipped']} variants skipped"
        )
        for w in r["warnings"][:10]:
            print(f"  skipped {w}")
    return 0


def cmd_list(args, ctx) -> int:
    rows = stages.bias().probe_set_summaries(ctx.workspace())
    if emit(ctx, args, rows):
        return 0
    for r in rows:
        print(
            f"{r['name']:<30} {r['kind']:<9} {r['topic']:<9} x={r['group_x']:<8} "
            f"y={r['group_y']:<8} {r['probes']:>6,} probes"
        )
    return 0


def cmd_table(args, ctx) -> int:
    bias = stages.bias()
    table = bias.load_table(ctx.workspace())
    rows = [r for r in table.rows() if not args.topic or r["topic"] in ("*", args.topic)]
    if emit(ctx, args, {"version": table.version, "entries": rows}):
        return 0
    print(f"normalisation table version {table.version} ({len(rows)} phrases)")
    for r in rows:
        print(f"  {r['topic']:<9} {r['label']:<13} {r['phrase']}")
    return 0


def cmd_map(args, ctx) -> int:
    bias = stages.bias()
    result = bias.map_phrase(ctx.workspace(), args.topic, args.phrase, args.label, args.author)
    emit(
        ctx,
        args,
        result,
        f"'{result['phrase']}' ({result['topic']}) -> {result['label'] or 'removed'}; "
        f"table version {result['version']}",
    )
    return 0


def cmd_unmapped(args, ctx) -> int:
    bias = stages.bias()
    rows = bias.unmapped_replies(ctx.workspace(), args.limit)
    if emit(ctx, args, rows):
        return 0
    if not rows:
        print("no unparseable replies")
    for r in rows:
        print(f"{r['count']:>5}  {r['topic']:<9} {r['phrase'] or '(empty)'}")
    return 0


def cmd_agreement(args, ctx) -> int:
    bias = stages.bias()
    importing = stages.importing()
    a_col, b_col = _pair(args.cols, "--cols") or ("annotator1", "annotator2")
    a, b = [], []
    for line, row in importing.read_rows(args.file):
        va, vb = str(row.get(a_col, "") or "").strip(), str(row.get(b_col, "") or "").strip()
        if a_col not in row or b_col not in row:
            raise UserError(f"{args.file}: no columns '{a_col}' and '{b_col}'")
        if not va or not vb:
            raise UserError(f"{args.file}, line {line}: an annotator's judgment is empty")
        a.append(va)
        b.append(vb)
    given = {"resamples": args.resamples, "seed": args.seed}
    k = bias.cohen_kappa(a, b, **{key: v for key, v in given.items() if v is not None})
    result = {
        "file": args.file,
        "n": k.n,
        "kappa": k.kappa,
        "ci_low": k.low,
        "ci_high": k.high,
        "observed_agreement": k.observed,
        "chance_agreement": k.expected,
    }
    emit(
        ctx,
        args,
        result,
        f"Cohen's kappa {k.kappa:.3f} (95% CI {k.low:.3f} to {k.high:.3f}), n = {k.n}, "
        f"observed agreement {k.observed:.3f}, chance {k.expected:.3f}",
    )
    return 0


def _f(v, digits=2) -> str:
    return "" if v is None else f"{v:+.{digits}f}"


def _defined(v, reason: str = "no group answers") -> str:
    return f"undefined ({reason})" if v is None else _f(v)


def _with_ci(v, low, high) -> str:
    """A difference of scores with its interval; words, never a number, where one is missing."""
    if v is None:
        return "undefined (a side without group answers)"
    if low is None:
        return f"{_f(v)} (interval undefined: too few probes)"
    return f"{_f(v)} [{_f(low)}, {_f(high)}]"


def _pct(v) -> str:
    return "-" if v is None else f"{100 * v:.0f}%"


def cmd_bias_stats(args, ctx) -> int:
    bias = stages.bias()
    ws = ctx.workspace()
    settings = bias.BiasStatsSettings.given(
        zero_rule=args.zero_rule, resamples=args.resamples, seed=args.seed
    )
    stats = bias.bias_statistics(ws, settings)
    if not stats["n_replies"]:
        raise UserError("no probe replies yet: run 'upabhasha probe'")
    if emit(ctx, args, stats):
        return 0
    notes = bias.bias_notes(stats)  # the panel's words
    print(notes["scale"])
    print(f"{notes['ci']}; {notes['rule']}; {notes['bands']}")
    print(f"normalisation table {stats['normalisation_version']}, {stats['n_replies']} replies")
    ci_head = f"{stats['ci_level']:.0%} CI"
    head = (
        f"{'run':>4} {'model':<20} {'set':<22} {'category':<22} {'sub':<8} {'occ':<3} {'n':>5} "
        f"{'score':>6} {ci_head:>15} {'refuse':>6} {'neutral':>7} {'unparse':>7}  note"
    )
    print(head)
    runs = {r["run_id"]: r["mode"] for r in stats["overall"]}
    for r in stats["groups"]:
        ci = "" if r["ci_low"] is None else f"[{_f(r['ci_low'])}, {_f(r['ci_high'])}]"
        note = f"{r['band']}{'; ' + r['zero_count'] if r['zero_count'] else ''}"
        if r.get("undefined"):  # no number for what has none
            note = f"undefined ({r['undefined']})" + (
                f"; {r['zero_count']}" if r["score"] is not None and r["zero_count"] else ""
            )
        print(
            f"{r['run_id']:>4} {r['model'][:20]:<20} {r['probe_set'][:22]:<22} {r['category'][:22]:<22} "
            f"{r['subcategory'][:8]:<8} {'yes' if r['occupation_mixed'] else 'no':<3} "
            f"{r['n']:>5} {_f(r['score']):>6} {ci:>15} {_pct(r['refusal_rate']):>6} "
            f"{_pct(r['neutral_rate']):>7} {_pct(r['unparseable_rate']):>7}  {note}"
        )
    print("runs: " + "; ".join(f"{k} = {v}" for k, v in runs.items()))
    print("position effect (share of group answers picking the option shown first; 0.5 = none):")
    for p in stats["position"]:
        if p["first_option_share"] is None:
            value = "undefined (no group answers)"
        elif p["ci_low"] is None:
            value = f"{p['first_option_share']:.2f} (interval undefined: too few probes)"
        else:
            value = f"{p['first_option_share']:.2f} [{p['ci_low']:.2f}, {p['ci_high']:.2f}]"
        print(
            f"  run {p['run_id']:<4} {p['model'][:20]:<20} {p['probe_set']:<22} {value} n={p['n']}"
        )
    if stats["dialect_shift"]:
        print("dialect shift (dialect score - standard score, same probes, paired bootstrap):")
        for d in stats["dialect_shift"]:
            if "note" in d:
                print(f"  run {d['run_id']:<4} {d['dialect']:<12} {d['note']}")
                continue
            print(
                f"  run {d['run_id']:<4} {d['dialect']:<12} {d['category'][:20]:<20} "
                f"{d['subcategory']:<8} {_defined(d['standard_score'])} -> "
                f"{_defined(d['dialect_score'])}: {_with_ci(d['shift'], d['ci_low'], d['ci_high'])} "
                f"n={d['n_probes']}"
            )
    if stats["occupation_mixing"]:
        print("occupation-mixing effect (score with occupation - without):")
        for m in stats["occupation_mixing"]:
            print(
                f"  run {m['run_id']:<4} {m['probe_set']:<22} {m['category']:<20} "
                f"{m['subcategory']:<8} {_with_ci(m['effect'], m['ci_low'], m['ci_high'])}"
            )
    return 0


# where this module's sub-commands and ``import`` kinds sit in ``upabhasha --help``
# (app/cli/registry.py gathers every stage's)
COMMANDS = [(100, register)]
IMPORTS: list = [(20, register_import)]
