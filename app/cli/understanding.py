"""Understanding-task commands (paper 001): tasks list|show, import items, run-task, task-stats."""

from __future__ import annotations

import sys

from app.cli import stages
from app.cli.arguments import (
    given,
    name_text,
    non_negative_int,
    number_in,
    output_file,
    positive_int,
    resamples_int,
    seed_int,
    token_budget,
)
from app.cli.context import runs_outcome
from app.cli.hints import for_cli
from app.cli.options import add_normalize_option, add_skip_empty
from app.cli.output import add_file_format, add_json, add_quiet, csv_list, emit, run_line


def register_import(isub) -> None:
    """``upabhasha import items``."""
    q = isub.add_parser("items", help="an item set for understanding tasks (all-or-nothing)")
    q.add_argument("file")
    q.add_argument(
        "--name", type=name_text, help="item set name (default: the file name without suffix)"
    )
    q.add_argument("--text-col", default="text", help="native-script text column")
    which = q.add_mutually_exclusive_group()
    which.add_argument("--dialect-col", default="dialect", help="dialect code column")
    which.add_argument("--dialect", metavar="CODE", help="one dialect for every row")
    q.add_argument("--roman-col", help="the dataset's own Romanized text")
    q.add_argument("--standard-col", action="append", help="standard reference (repeatable)")
    q.add_argument("--english-col", action="append", help="English reference (repeatable)")
    q.add_argument("--label-col", help="label column (classification)")
    names = q.add_mutually_exclusive_group()
    names.add_argument(
        "--label-names",
        metavar="L=NAME,...",
        help="names of the stored labels, e.g. 0=not-offensive,1=offensive: prompts, parsing "
        "and reports use the names, the stored label stays",
    )
    names.add_argument("--label-name-col", help="a column naming each row's label")
    split = q.add_mutually_exclusive_group()
    split.add_argument(
        "--split-col", help="split column (default: 'split' if present, else validation)"
    )
    split.add_argument("--split", help="one split for every row")
    q.add_argument("--id-col", help="external id column (default: 'id' if present)")
    add_normalize_option(q)
    add_skip_empty(q)
    add_file_format(q, None)
    add_json(q)
    q.set_defaults(func=cmd_import_items)


def register(sub) -> None:
    p = sub.add_parser("tasks", help="understanding tasks (built-in and your own task files)")
    tsub = p.add_subparsers(dest="tasks_command", metavar="WHAT", required=True)
    t = tsub.add_parser("list", help="every task")
    add_json(t)
    t.set_defaults(func=cmd_tasks_list)
    t = tsub.add_parser("show", help="one task file, validated")
    t.add_argument("name")
    add_json(t)
    t.set_defaults(func=cmd_tasks_show)
    t = tsub.add_parser(
        "export-fold",
        help="dialect-balanced fine-tuning fold (chat JSONL), disjoint from every prompted item",
    )
    t.add_argument("name")
    t.add_argument("out", type=output_file, help="JSONL file to write")
    t.add_argument("--items", default="pairs", metavar="SOURCE")
    t.add_argument("--train", type=positive_int, default=160, help="train items per dialect")
    t.add_argument("--test", type=positive_int, default=40, help="test items per dialect")
    t.add_argument("--dialects", type=csv_list)
    t.add_argument("--seed", type=seed_int, default=0)
    add_json(t)
    t.set_defaults(func=cmd_export_fold)

    p = sub.add_parser("adapter", help="LoRA adapters: a base GGUF model plus an adapter GGUF")
    asub = p.add_subparsers(dest="adapter_command", metavar="WHAT", required=True)
    a = asub.add_parser("add", help="register BASE + ADAPTER as a model of its own")
    a.add_argument("base", help="the base model's name")
    a.add_argument("adapter", help="LoRA adapter GGUF file")
    a.add_argument("--name", type=name_text, required=True, help="name of the adapted model")
    a.add_argument(
        "--scale", type=number_in(-100, 100), default=1.0, help="adapter scale (default 1.0)"
    )
    add_json(a)
    a.set_defaults(func=cmd_adapter_add)

    # run-task: options default to None, so the request's defaults hold (RunTaskRequest)
    p = sub.add_parser("run-task", help="run a task over models x regimes x scripts (resumable)")
    p.add_argument("task")
    p.add_argument("--models", type=csv_list, help="model names (default: the default model)")
    p.add_argument(
        "--items",
        metavar="SOURCE",
        help="'pairs' (the workspace's sentence pairs; the default) or 'items:<set name>'",
    )
    p.add_argument("--regimes", type=csv_list, help="zero,few,cot (default: zero)")
    p.add_argument("--scripts", type=csv_list, help="native,roman (default: native)")
    p.add_argument("--scheme", help="Romanization: avro (the default), itrans, iso15919")
    p.add_argument("--dialects", type=csv_list, help="only these dialects")
    p.add_argument("--split", help="evaluated split: validation (the default) or test")
    p.add_argument(
        "--k", type=non_negative_int, help="few-shot demonstrations per dialect (default 6)"
    )
    p.add_argument(
        "--k-sweep",
        type=counts_list,
        metavar="K,K,...",
        help="demo-count sweep in one command, e.g. 0,1,2,4,6 (0 = zero-shot; "
        "replaces --regimes/--k)",
    )
    p.add_argument("--limit", type=positive_int, help="at most N items per dialect")
    p.add_argument("--seed", type=seed_int, help="demonstration sampling seed (default 0)")
    p.add_argument(
        "--draw-train",
        type=positive_int,
        metavar="N",
        help="a set with no train split: draw N items per dialect (seeded, recorded in the "
        "card) from the evaluated split as few-shot demonstrations; they are not evaluated",
    )
    p.add_argument(
        "--constrained",
        action="store_true",
        default=None,
        help="JSON-schema constrained decoding",
    )
    add_normalize_option(p, scoring=True)
    p.add_argument("--max-tokens", type=token_budget)
    add_json(p)
    add_quiet(p, None)
    p.set_defaults(func=cmd_run_task, build_request=run_task_request)

    p = sub.add_parser("task-stats", help="task results: metrics, copy baseline, failure modes")
    p.add_argument("--task", help="only this task")
    # Defaults None: engine.understanding.api.TaskStatsSettings holds them, and the Tasks panel
    # reads the same (importing the stage here would load it for every command).
    p.add_argument("--seed", type=seed_int, help="bootstrap seed (default: the Tasks panel's)")
    p.add_argument(
        "--resamples",
        type=resamples_int,
        help="bootstrap resamples (default: the Tasks panel's, printed with the results)",
    )
    p.add_argument(
        "--fertility",
        action="store_true",
        help="token fertility per model and script from each GGUF model's own tokenizer, and "
        "the native-Romanized gap regressed on token inflation",
    )
    p.add_argument(
        "--csv", type=output_file, metavar="FILE", help="also write the results table as CSV"
    )
    p.add_argument(
        "--latex", type=output_file, metavar="FILE", help="also write the results table as LaTeX"
    )
    add_json(p)
    p.set_defaults(func=cmd_task_stats)


def cmd_tasks_list(args, ctx) -> int:
    understanding = stages.understanding()
    tasks, problems = understanding.load_tasks(understanding.user_task_dir())
    for problem in problems.values():  # skipped, never blocking the other tasks
        print(f"upabhasha: warning: task file skipped: {problem}", file=sys.stderr)
    listing = [
        {"name": t.name, "title": t.title, "kind": t.kind, "path": t.path} for t in tasks.values()
    ]
    if emit(ctx, args, listing):
        return 0
    for t in tasks.values():
        print(f"{t.name:<22} {t.kind:<15} {t.title}")
    return 0


def cmd_tasks_show(args, ctx) -> int:
    understanding = stages.understanding()
    spec = understanding.get_task(args.name, understanding.user_task_dir())
    if emit(ctx, args, spec.as_dict()):
        return 0
    print(
        f"{spec.name}: {spec.title}\n  file: {spec.path}\n  kind: {spec.kind}, output {spec.output}"
    )
    print(f"  metrics: {', '.join(spec.metrics)}; items from: {', '.join(spec.sources)}")
    for regime, text in spec.prompts.items():
        print(f"  --- prompt {regime} ---")
        print("    " + text.replace("\n", "\n    "))
    return 0


def cmd_adapter_add(args, ctx) -> int:
    understanding = stages.understanding()
    report = understanding.add_adapter_model(
        ctx.workspace(), args.base, args.adapter, name=args.name, scale=args.scale
    )
    emit(
        ctx,
        args,
        report,
        f"{report['name']}: {report['base']} + {report['adapter']} (scale {report['scale']:g},"
        f" {report['tensors']} adapter tensors)",
    )
    return 0


def cmd_export_fold(args, ctx) -> int:
    understanding = stages.understanding()
    report = understanding.export_fold(
        ctx.workspace(),
        understanding.get_task(args.name, understanding.user_task_dir()),
        args.out,
        source=args.items,
        train_per_dialect=args.train,
        test_per_dialect=args.test,
        dialects=args.dialects,
        seed=args.seed,
    )
    emit(
        ctx,
        args,
        report,
        f"{report['path']}: {report['lines']} lines ({len(report['per_dialect'])} dialects, "
        f"{args.train} train + {args.test} test each; {report['excluded_as_prompted']} "
        "prompted items excluded)",
    )
    return 0


def cmd_import_items(args, ctx) -> int:
    understanding = stages.understanding()
    ws = ctx.workspace(create=True)
    report = understanding.import_items(
        ws,
        args.file,
        name=args.name,
        native_col=args.text_col,
        dialect_col=args.dialect_col,
        dialect=args.dialect,
        roman_col=args.roman_col,
        standard_cols=args.standard_col,
        english_cols=args.english_col,
        label_col=args.label_col,
        label_names=understanding.parse_label_names(args.label_names) if args.label_names else None,
        label_name_col=args.label_name_col,
        split_col=args.split_col,
        split=args.split,
        id_col=args.id_col,
        normalize=args.normalize,
        skip_empty=args.skip_empty,
        file_format=args.file_format,
        progress=ctx.progress_printer("import", quiet=args.json),
    )
    if emit(ctx, args, report.to_dict()):
        return 0
    print(
        f"{report.name}: {report.rows_read:,} rows, {report.inserted:,} new items, "
        f"{report.already_present:,} already present, {report.duplicates_in_file:,} "
        "repeated in the file (dropped)"
    )
    print(f"  texts stored: --normalize {args.normalize}")
    for line in stages.importing().count_lines(report.to_dict()):
        print(f"  {for_cli(line)}")
    for code, info in sorted(report.by_dialect.items()):
        splits = ", ".join(f"{k} {v:,}" for k, v in sorted(info["splits"].items()))
        print(f"  {code:<12} {info['items']:>7,} items ({splits})")
    if report.unused_columns:
        print(f"columns not used: {', '.join(report.unused_columns)}")
    for warning in report.warnings:
        print(f"warning: {for_cli(warning)}")
    return 0


def counts_list(text: str) -> list[int]:
    """``0,1,2``: comma-separated whole numbers of at least 0 (an argparse ``type=``)."""
    return [non_negative_int(part) for part in csv_list(text)]


counts_list.range_text = non_negative_int.range_text  # type: ignore[attr-defined]


def run_task_request(args):
    """The request ``upabhasha run-task`` runs (options left out keep the request's
    defaults)."""
    return stages.understanding().RunTaskRequest(
        **given(
            task=args.task,
            models=args.models,
            source=args.items,
            regimes=args.regimes,
            scripts=args.scripts,
            scheme=args.scheme,
            dialects=args.dialects,
            split=args.split,
            k=args.k,
            k_sweep=args.k_sweep,
            limit=args.limit,
            seed=args.seed,
            draw_train=args.draw_train,
            constrained=args.constrained,
            normalize=args.normalize,
            max_tokens=args.max_tokens,
        )
    )


def cmd_run_task(args, ctx) -> int:
    request = run_task_request(args)
    result = request.run(
        ctx.workspace(),
        progress=ctx.progress_printer(request.task, quiet=args.quiet or args.json),
    )
    summaries = list(result.runs)
    if not emit(ctx, args, result.as_dict()):
        for s in summaries:
            print(run_line(f"{s['model']} {s['regime']}/{s['script']}", s, "outputs", cached=False))
        print(f"  texts scored: --normalize {result.normalize}")
        for note in result.notes:
            print(f"  note: {for_cli(note)}")
    return runs_outcome(ctx, "run-task", summaries, "outputs")


def _f(value, digits=2) -> str:
    # a statistic without data prints as a word, never as a number
    return "undefined" if value is None else f"{value:.{digits}f}"


def print_structure(r: dict) -> None:
    """What the macro hides: the warnings, one row per dialect and the confusion matrix."""
    for warning in r.get("warnings", []):
        print(f"  warning: {for_cli(warning)}")
    sample = r.get("sample") or {}
    if sample.get("limit"):
        counts = "; ".join(
            f"{d} " + ", ".join(f"{k} {v}" for k, v in sorted(c.items()))
            for d, c in sorted(sample["counts"].items())
        )
        print(
            f"  sample: --limit {sample['limit']} per dialect, seed {sample['seed']}, "
            f"stratified by {sample['strata']}: {counts}"
        )
    metrics = [k for k in r["macro"] if k not in ("scale", "macro_over")]
    for dialect, entry in r["per_dialect"].items():
        values = ", ".join(f"{k} {_f(entry.get(k))}" for k in metrics)
        print(f"  {dialect:<14} n={entry['n']:<5} {values}")
    confusion = (r.get("overall") or {}).get("confusion")
    if confusion:
        labels = confusion["labels"]
        width = max(8, *(len(x) for x in labels)) + 1
        print("  confusion (rows gold, columns predicted):")
        print("  " + " " * width + "".join(f"{x:>{width}}" for x in labels))
        for gold, counts in zip(labels, confusion["matrix"]):
            print(f"  {gold:>{width}}" + "".join(f"{c:>{width}}" for c in counts))


def failure_text(f: dict) -> str:
    """Each failure share with its denominator: 'unparseable 0.270 of 100 outputs …'."""
    if not f.get("n"):
        return "no outputs"
    den = f.get("denominators", {})
    parts = [
        f"unparseable {_f(f['unparseable'], 3)} of {den.get('unparseable', f['n'])} outputs"
        + (f" (placeholder copied {_f(f['placeholder'], 3)})" if f.get("placeholder") else ""),
        f"empty {_f(f['empty'], 3)} of {den.get('empty', f['n'])} outputs",
        f"script drift {_f(f['script_drift'], 3)} of "
        f"{den.get('script_drift', f['n'])} parsed answers",
    ]
    return ", ".join(parts)


def cmd_task_stats(args, ctx) -> int:
    understanding = stages.understanding()
    ws = ctx.workspace()
    report = understanding.task_stats(
        ws,
        args.task,
        user_dir=understanding.user_task_dir(),
        settings=understanding.TaskStatsSettings.given(seed=args.seed, resamples=args.resamples),
        with_fertility=args.fertility,
    )

    if args.csv:
        understanding.write_csv(report, args.csv)
    if args.latex:
        understanding.write_latex(report, args.latex)
    if emit(ctx, args, report):
        return 0
    if not report["runs"]:
        print("no task outputs yet (upabhasha run-task TASK ...)")
        return 0
    print(f"intervals: {understanding.TaskStatsSettings.of(report).interval_note()}")
    for r in report["runs"]:
        m, f = r["macro"], r["failures"]
        head = f"{r['task']} | {r['model']} | {r['regime']}" + (f" k={r['k']}" if r["k"] else "")
        head += f" | {r['script']}{'/' + r['scheme'] if r['scheme'] else ''}"
        head += " | constrained" if r["constrained"] else ""
        print(f"{head}  (n={r['n']}{', pending ' + str(r['pending']) if r['pending'] else ''})")
        scale = m.get("scale")
        values = ", ".join(f"{k} {_f(v)}" for k, v in m.items() if k not in ("scale", "macro_over"))
        print(f"  {understanding.macro_words(m['macro_over'])} ({scale}): {values}")
        for key, why in (r.get("undefined") or {}).items():
            state = "undefined" if m.get(key) is None else "mean of the defined"
            print(f"    {key} {state}: {why}")
        if r.get("chrf_macro_ci"):
            ci = r["chrf_macro_ci"]
            print(
                f"  chrF++ macro {_f(ci['mean'])} [{_f(ci['low'])}, {_f(ci['high'])}] "
                f"({ci['level']:.0%} CI)"
            )
        if "copy_baseline_macro" in r:
            print(
                "  copy-input baseline: "
                + ", ".join(f"{k} {_f(v)}" for k, v in r["copy_baseline_macro"].items())
            )
        elif r.get("copy_baseline_not_applicable"):
            print(f"  copy-input baseline: {r['copy_baseline_not_applicable']}")
        print("  failures: " + failure_text(f))
        if "taxonomy" in r:
            print("  taxonomy: " + ", ".join(f"{k} {_f(v, 3)}" for k, v in r["taxonomy"].items()))
        if r.get("round_trip"):
            rt = r["round_trip"]
            print(
                f"  round trip ({rt['scheme']}): CER {_f(rt['mean_cer'], 3)}, exact "
                f"{_f(rt['exact_share'], 3)}"
            )
        divergence = r.get("lexical_divergence") or {}
        if divergence.get("spearman_rho") is not None:
            print(
                f"  lexical divergence: Spearman rho {_f(divergence['spearman_rho'], 3)}"
                f" (copy chrF++ vs item chrF++, p {_f(divergence['p'], 3)})"
            )
        elif divergence.get("undefined"):
            print(f"  lexical divergence: undefined ({divergence['undefined']})")
        for key, sig in r.get("signatures", {}).items():
            print(f"  corpus {key} signature: {sig}")
        print_structure(r)
    for g in report["script_gap"]:
        gap = g["gap"]
        print(
            f"native - Romanized ({g['scheme']}) | {g['task']} | {g['model']} | {g['regime']}: "
            f"{_f(gap['mean'])} [{_f(gap['low'])}, {_f(gap['high'])}] over {g['items']} items "
            f"(native {_f(g['native_mean'])}, Romanized {_f(g['roman_mean'])})"
        )
    for fert in report.get("fertility", []):
        if not fert["tokenizer"]:
            print(f"fertility | {fert['model']}: {fert['reason']}")
            continue
        scripts = "; ".join(
            f"{s}: {_f(e['tokens_per_char'], 3)} tokens/char, {_f(e['tokens_per_word'], 2)} "
            f"tokens/word"
            for s, e in fert["per_script"].items()
        )
        print(f"fertility | {fert['model']}: {scripts}")
        for reg in fert["gap_on_inflation"]:
            print(
                f"  gap on token inflation ({reg['task']}, {reg['regime']}): beta "
                f"{_f(reg['beta'])} [{_f(reg['low'])}, {_f(reg['high'])}], p {_f(reg['p'], 3)}, "
                f"n={reg['n']}"
            )
    for fl in report["flips"]:
        print(
            f"zero->few flips | {fl['task']} | {fl['model']} | {fl['script']} k={fl['k']}: "
            f"{fl['flips']}/{fl['items']} ({_f(fl['flip_rate'], 3)})"
        )
    return 0


# where this module's sub-commands and ``import`` kinds sit in ``upabhasha --help``
# (app/cli/registry.py gathers every stage's)
COMMANDS = [(140, register)]
IMPORTS: list = [(30, register_import)]
