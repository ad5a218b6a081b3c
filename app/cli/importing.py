"""Importing commands: ``import corpus|questions|scored-translations``, ``export`` and
``dialects list|add``."""

from __future__ import annotations

from app.cli import stages
from app.cli.arguments import name_text
from app.cli.hints import for_cli
from app.cli.options import add_normalize_option, add_skip_empty
from app.cli.output import add_file_format, add_json, emit
from engine.errors import UserError
from engine.scales import parse_scale, scale_text
from engine.workspace.api import IMPORTED_VARIANT_STATUSES, Workspace


def register(sub) -> None:
    p = sub.add_parser("export", help="write a table or view to CSV, JSONL or XLSX")
    p.add_argument("table", nargs="?", help="table or view name (e.g. sentence_pairs, questions)")
    p.add_argument("file", nargs="?")
    p.add_argument("--list", action="store_true", help="list the tables and views to export")
    add_json(p, "with --list: one JSON document")
    p.add_argument(
        "--format", choices=("csv", "jsonl", "xlsx"), help="default: from the file suffix"
    )
    p.set_defaults(func=cmd_export)

    d = sub.add_parser("dialects", help="list the workspace's dialects or add one")
    dsub = d.add_subparsers(dest="dialects_command", metavar="ACTION", required=True)
    dl = dsub.add_parser("list", help="codes, names, aliases and counts")
    add_json(dl, "print one JSON document")
    dl.set_defaults(func=cmd_dialects_list)
    da = dsub.add_parser("add", help="add a dialect, or aliases/names to an existing one")
    da.add_argument("code", help="lower-case code, e.g. comilla")
    da.add_argument("--name-en", default="", help="English name (required for a new dialect)")
    da.add_argument("--name-bn", default="", help="Bengali name (required for a new dialect)")
    da.add_argument("--region", default="", help="division or region")
    da.add_argument(
        "--alias",
        action="append",
        default=[],
        help="another spelling that resolves to this code (repeatable)",
    )
    da.add_argument(
        "--rename",
        action="store_true",
        help="replace an existing dialect's names with --name-en/--name-bn",
    )
    add_json(da, "print the dialect as JSON")
    da.set_defaults(func=cmd_dialects_add)


def register_import(isub) -> None:
    """``upabhasha import corpus | questions | scored-translations``."""
    c = isub.add_parser(
        "corpus", help="standard <-> dialect sentence pairs (CSV, TSV, JSON, JSONL, XLSX)"
    )
    c.add_argument("file")
    c.add_argument(
        "--format",
        choices=("long", "wide"),
        default="long",
        dest="layout",
        help="long: one pair per row; wide: one column per dialect (default long)",
    )
    c.add_argument(
        "--name", type=name_text, help="corpus name (default: the file name without suffix)"
    )
    c.add_argument("--standard-col", default="standard", help="standard text column")
    which = c.add_mutually_exclusive_group()
    which.add_argument("--dialect-col", default="dialect", help="dialect code column (long)")
    which.add_argument("--dialect", metavar="CODE", help="one dialect for every row (long)")
    c.add_argument("--text-col", default="dialect_text", help="dialect text column (long)")
    where = c.add_mutually_exclusive_group()
    where.add_argument("--district-col", help="district column (default: 'district' if present)")
    where.add_argument("--district", help="one district for every row")
    split = c.add_mutually_exclusive_group()
    split.add_argument(
        "--split-col", help="split column (default: 'split' if present, else every pair is train)"
    )
    split.add_argument("--split", help="one split for every row: train, test or validation")
    c.add_argument(
        "--dialect-column",
        action="append",
        default=[],
        metavar="CODE=COL",
        help="wide: the column holding a dialect (repeatable; default: columns "
        "named by a dialect code)",
    )
    c.add_argument(
        "--variant-cols",
        metavar="COLS",
        help="several references per source: the text columns, comma-separated names or a "
        "glob such as 'dialect_v*' (long); wide: DIALECT_SUFFIX columns such as 'sylhet_v*'",
    )
    _common_import_options(c)
    c.add_argument(
        "--strip-leading-token",
        metavar="auto|TOKEN",
        help="strip a label token from the start of every dialect text",
    )
    add_normalize_option(c)
    add_skip_empty(c)
    add_file_format(c)
    add_json(c, "print the report as JSON")
    c.set_defaults(func=cmd_import_corpus)

    q = isub.add_parser("questions", help="base questions in standard Bengali")
    q.add_argument("file")
    q.add_argument(
        "--name", type=name_text, help="question set name (default: the file name without suffix)"
    )
    q.add_argument("--text-col", default="question", help="question text column")
    q.add_argument("--id-col", help="external id column (default: 'id' if present)")
    q.add_argument("--type-col", help="question type 1-4 (default: 'question_type' if present)")
    q.add_argument("--domain-col", help="domain column (default: 'domain' if present)")
    q.add_argument("--gloss-col", help="English gloss column (default: 'gloss_en' if present)")
    q.add_argument(
        "--dialect-column",
        action="append",
        default=[],
        metavar="CODE=COL",
        help="a column of existing dialect renderings (repeatable; default: "
        "columns named by a dialect code or alias)",
    )
    q.add_argument(
        "--dialect-col",
        help="long files: the column saying each row's dialect (default: 'dialect' if "
        "present); rows sharing --id-col are one question, its 'standard' row the question",
    )
    q.add_argument(
        "--variant-status",
        choices=IMPORTED_VARIANT_STATUSES,
        default="reviewed",
        help="status of imported dialect variants (default reviewed; gold only if you say so)",
    )
    _common_import_options(q)
    add_file_format(q)
    add_json(q, "print the report as JSON")
    q.set_defaults(func=cmd_import_questions)

    t = isub.add_parser(
        "scored-translations",
        help="system outputs with references and human scores (metric-vs-human study)",
    )
    t.add_argument("file")
    t.add_argument(
        "--human-scale",
        metavar="MIN-MAX",
        help="the scale of the human scores: 0-1, 0-10, 0-100 or any MIN-MAX (required "
        "unless --measure; a score outside it is refused)",
    )
    t.add_argument(
        "--accept-scale",
        action="store_true",
        help="import even when the scores use less than a tenth of the declared scale",
    )
    t.add_argument(
        "--name", type=name_text, help="scored set name (default: the file name without suffix)"
    )
    t.add_argument("--source-col", default="source", help="source text column")
    t.add_argument("--hyp-col", default="hypothesis", help="system output column")
    t.add_argument(
        "--ref-cols",
        default="reference",
        metavar="COLS",
        help="reference column(s): comma-separated names or a glob such as 'ref*'",
    )
    system = t.add_mutually_exclusive_group()
    system.add_argument("--system-col", default="system", help="system name column")
    system.add_argument("--system", help="one system name for every row")
    scores = t.add_mutually_exclusive_group(required=True)
    scores.add_argument(
        "--measure",
        action="append",
        metavar="NAME=COL:MIN-MAX",
        help="one human measure with its column and scale, repeatable (da=da_score:0-1 "
        "--measure mqm=mqm_score:0-100); each becomes set NAME/<measure>, correlated apart",
    )
    scores.add_argument(
        "--score-cols",
        metavar="COLS",
        help="wide: one score column per annotator (names or a glob; annotator = column)",
    )
    scores.add_argument("--score-col", help="long: the score column (one row per annotator)")
    who = t.add_mutually_exclusive_group()
    who.add_argument("--annotator-col", help="long: the annotator column (default 'annotator')")
    who.add_argument("--annotator", type=name_text, help="long: one annotator for every row")
    t.add_argument(
        "--average-annotators",
        action="store_true",
        help="several annotators of one segment may be averaged (otherwise refused)",
    )
    ids = t.add_mutually_exclusive_group()
    ids.add_argument(
        "--seg-id-col",
        help="segment id column (default: the source text; several outputs of a system for "
        "one source are numbered by position)",
    )
    ids.add_argument(
        "--positional-ids",
        action="store_true",
        help="every row is its own segment, numbered by its position in the file",
    )
    t.add_argument(
        "--average-duplicates",
        action="store_true",
        help="a (source, output) pair repeated with another score by the same annotator is "
        "one segment: average its scores (otherwise refused)",
    )
    t.add_argument("--dialect", help="target dialect of the set (code or alias), if any")
    t.add_argument(
        "--convert-bijoy",
        action="store_true",
        help="convert legacy Bijoy/SutonnyMJ ASCII cells to Unicode (otherwise refused)",
    )
    add_normalize_option(t)
    add_skip_empty(t)
    add_file_format(t)
    add_json(t, "print the report as JSON")
    t.set_defaults(func=cmd_import_scored)


def _common_import_options(p) -> None:
    p.add_argument(
        "--dialect-map",
        action="append",
        default=[],
        metavar="FROM=TO",
        help="read dialect name FROM as code TO (repeatable), e.g. noyakhali=noakhali; "
        "common spellings and Bengali names are known already",
    )
    p.add_argument(
        "--convert-bijoy",
        action="store_true",
        help="convert legacy Bijoy/SutonnyMJ ASCII cells to Unicode (otherwise refused)",
    )
    p.add_argument(
        "--allow-duplicate-content",
        action="store_true",
        help="import even if another set already holds every record of the file (a second "
        "copy under a new name; otherwise refused)",
    )


def _mapping(pairs: list[str]) -> list[tuple[str, str]] | None:
    mapping = []
    for item in pairs:
        code, sep, column = item.partition("=")
        if not sep or not code.strip() or not column.strip():
            raise UserError(f"--dialect-column expects CODE=COLUMN, not '{item}'")
        mapping.append((code.strip(), column.strip()))
    return mapping or None


def cmd_import_corpus(args, ctx) -> int:
    importing = stages.importing()
    ws: Workspace = ctx.workspace(create=True)
    progress = ctx.progress_printer("import", quiet=args.json)
    report = importing.import_corpus(
        ws,
        args.file,
        fmt=args.layout,
        name=args.name,
        standard_col=args.standard_col,
        dialect_text_col=args.text_col,
        dialect_col=args.dialect_col,
        dialect=args.dialect,
        district_col=args.district_col,
        district=args.district,
        split_col=args.split_col,
        split=args.split,
        dialect_cols=_mapping(args.dialect_column),
        variant_cols=args.variant_cols,
        dialect_map=importing.parse_dialect_map(args.dialect_map),
        convert_bijoy=args.convert_bijoy,
        allow_duplicate_content=args.allow_duplicate_content,
        strip_leading_token=args.strip_leading_token,
        normalize=args.normalize,
        skip_empty=args.skip_empty,
        file_format=args.file_format,
        progress=progress,
    )
    if emit(ctx, args, report.to_dict()):
        return 0
    _print_summary(report, "pairs")
    for code, info in report.by_dialect.items():
        splits = ", ".join(f"{k} {v:,}" for k, v in info["splits"].items())
        print(f"  {code:<12} {info['pairs']:>7,} pairs, {info['inserted']:>7,} new  ({splits})")
    _print_warnings(report)
    return 0


def cmd_import_questions(args, ctx) -> int:
    importing = stages.importing()
    ws: Workspace = ctx.workspace(create=True)
    progress = ctx.progress_printer("import", quiet=args.json)
    report = importing.import_questions(
        ws,
        args.file,
        name=args.name,
        text_col=args.text_col,
        id_col=args.id_col,
        type_col=args.type_col,
        domain_col=args.domain_col,
        gloss_col=args.gloss_col,
        dialect_cols=dict(_mapping(args.dialect_column) or ()) or None,
        dialect_col=args.dialect_col,
        dialect_map=importing.parse_dialect_map(args.dialect_map),
        variant_status=args.variant_status,
        convert_bijoy=args.convert_bijoy,
        allow_duplicate_content=args.allow_duplicate_content,
        file_format=args.file_format,
        progress=progress,
    )
    if emit(ctx, args, report.to_dict()):
        return 0
    _print_summary(report, "questions")
    for code, info in report.by_dialect.items():
        print(f"  {code:<12} {info['variants']:>7,} variants, {info['inserted']:>7,} new")
    _print_warnings(report)
    return 0


def cmd_import_scored(args, ctx) -> int:
    importing = stages.importing()
    scale = parse_scale(args.human_scale) if args.human_scale else None
    ws: Workspace = ctx.workspace(create=True)
    report = importing.import_scored_translations(
        ws,
        args.file,
        human_scale=scale,
        name=args.name,
        source_col=args.source_col,
        hyp_col=args.hyp_col,
        ref_cols=args.ref_cols,
        system_col=args.system_col,
        system=args.system,
        score_cols=args.score_cols,
        score_col=args.score_col,
        annotator_col=args.annotator_col,
        annotator=args.annotator,
        measures=[importing.parse_measure(m) for m in args.measure or ()],
        average_annotators=args.average_annotators,
        accept_scale=args.accept_scale,
        seg_id_col=args.seg_id_col,
        positional_ids=args.positional_ids,
        average_duplicates=args.average_duplicates,
        skip_empty=args.skip_empty,
        dialect=args.dialect,
        convert_bijoy=args.convert_bijoy,
        normalize=args.normalize,
        file_format=args.file_format,
        progress=ctx.progress_printer("import", quiet=args.json),
    )
    if emit(ctx, args, report.to_dict()):
        return 0
    _print_summary(report, "segments")
    print(f"  texts stored for the metrics: --normalize {args.normalize}")
    print(f"  human scores written: {report.variants_inserted:,}")
    for info in report.sets:
        lo, hi = info["observed"] or (None, None)
        print(
            f"  set {info['name']}: {info['scores']:,} scores on {scale_text(info['scale'])}"
            + (f" (observed {lo:g}-{hi:g})" if lo is not None else "")
            + (
                f"; averaged segments {info['averaged_segments']:,}"
                if info["averaged_segments"]
                else ""
            )
        )
    for system, info in report.by_dialect.items():
        print(f"  {system:<24} {info['segments']:>7,} segments")
    _print_warnings(report)
    return 0


def _print_summary(report, noun: str) -> None:
    print(
        f"{report.path} -> {report.kind} '{report.name}' (id {report.target_id}): "
        f"{report.rows_read:,} rows, {report.records:,} {noun}, {report.inserted:,} new, "
        f"{report.already_present:,} already present, "
        f"{report.duplicates_in_file:,} repeated in the file"
    )
    for line in stages.importing().count_lines(report.to_dict()):
        print(f"  {for_cli(line)}")


def _print_warnings(report) -> None:
    if report.dialect_names:
        names = ", ".join(f"{k} -> {v}" for k, v in report.dialect_names.items())
        print(f"dialect names read as codes: {names}")
    if report.unused_columns:
        print(f"columns not used: {', '.join(report.unused_columns)}")
    for warning in report.warnings:
        print(f"warning: {for_cli(warning)}")


def cmd_dialects_list(args, ctx) -> int:
    rows = stages.importing().list_dialects(ctx.workspace(create=True))
    if emit(ctx, args, rows):
        return 0
    for d in rows:
        aliases = ", ".join(d["aliases"] + d["builtin_aliases"])
        print(
            f"{d['code']:<12} {d['name_en']} · {d['name_bn']}"
            + (f" ({d['region']})" if d["region"] else "")
            + f"  pairs {d['pairs']:,}, variants {d['variants']:,}"
            + (f"\n{'':<12} aliases: {aliases}" if aliases else "")
        )
    return 0


def cmd_dialects_add(args, ctx) -> int:
    row = stages.importing().add_dialect(
        ctx.workspace(create=True),
        args.code,
        name_en=args.name_en,
        name_bn=args.name_bn,
        region=args.region,
        aliases=args.alias,
        rename=args.rename,
    )
    kept = stages.importing().aliases_kept(row["code"], row["aliases"])
    emit(
        ctx,
        args,
        row,
        f"dialect {row['code']}: {row['name_en']} · {row['name_bn']}; aliases: "
        + (", ".join(kept) or "none"),
    )
    return 0


def cmd_export(args, ctx) -> int:
    importing = stages.importing()
    ws: Workspace = ctx.workspace()
    if args.list:
        listing = importing.exportable(ws)
        if args.json:
            ctx.emit_json(listing)
        else:
            for t in listing:
                print(f"{t['name']:<24} {t['type']:<5} {t['rows']:>10,} rows")
        return 0
    if not args.table or not args.file:
        raise UserError("export needs TABLE and FILE (or --list to see the tables and views)")
    count = importing.export_table(ws, args.table, args.file, fmt=args.format)
    print(f"exported {count:,} rows of {args.table} to {args.file}")
    return 0


# where this module's sub-commands and ``import`` kinds sit in ``upabhasha --help``
# (app/cli/registry.py gathers every stage's)
COMMANDS = [(20, register)]
IMPORTS: list = [(10, register_import)]
