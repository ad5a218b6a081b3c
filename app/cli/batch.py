"""``upabhasha batch export STEP …`` and ``batch import RESULTS.jsonl…``: a model step as
OpenAI Batch files for engines that take work as files (vLLM run-batch, Batch APIs, Ray
Data), and back; ``models price`` and the price options of ``models add``.

The step's own options make its request exactly as its command would (the parser, then the
command's request builder); the engine runs that request against recording or replaying
backends and keeps it with the batch (engine.steps), so importing needs no command line.
Batches exported before batches kept their request are converted here, once, from the
command line they kept.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from app.cli import stages
from app.cli.arguments import positive_int
from app.cli.output import add_json, emit
from engine.errors import StepIncomplete, UserError
from engine.workspace.api import model_steps

log = logging.getLogger(__name__)

EXIT_MISSING = 3


def register(sub) -> None:
    p = sub.add_parser("batch", help="a model step as OpenAI Batch files, and their results back")
    bsub = p.add_subparsers(dest="batch_command", required=True)

    q = bsub.add_parser(
        "export",
        help="write the requests STEP would send as OpenAI Batch JSONL files",
        description="Options come before STEP; everything after STEP is the step's own.",
    )
    q.add_argument("--model", help="the target model's name on the engine (one model only)")
    q.add_argument("--out", default=".", help="folder for the files (default: here)")
    # the defaults are the providers' limits (engine.llm.endpoints.batch_wire), read when exporting
    q.add_argument("--max-lines", type=positive_int, help="lines per file (default 50,000)")
    q.add_argument("--max-bytes", type=positive_int, help="bytes per file (default 200 MiB)")
    q.add_argument(
        "--estimate",
        action="store_true",
        help="print tokens, time and cost per model, online and as a batch; write nothing",
    )
    add_json(q)
    # the model steps a batch can carry, as their stages declare them (engine.workspace.stages);
    # each is the name of the command that builds its request (``build_request``)
    q.add_argument("step", choices=model_steps())
    q.add_argument("step_args", nargs=argparse.REMAINDER, metavar="…")
    q.set_defaults(func=cmd_export)

    q = bsub.add_parser("import", help="store result files of exported batches (any order)")
    q.add_argument("files", nargs="+", metavar="RESULTS.jsonl")
    add_json(q)
    q.set_defaults(func=cmd_import)


def step_request(argv: list[str]):
    """The request the command line ``argv`` (a model step's) makes: its own parser, then its
    command's request builder."""
    from app.cli import build_parser  # the full parser (every stage's commands)

    try:
        args = build_parser().parse_args(argv)
    except SystemExit:  # the parser said why on stderr
        raise UserError(f"the step's options do not read: {' '.join(argv)}") from None
    build = getattr(args, "build_request", None)
    if build is None:
        raise UserError(f"{argv[0]!r} is not a model step a batch can carry")
    return build(args)


def convert_legacy_batches(ws) -> None:
    """Give every batch exported before batches kept their request the request its kept
    command line makes today."""
    steps = stages.steps()
    for batch in steps.legacy_batches(ws):
        try:
            request = step_request(batch["argv"])
        except UserError as exc:  # each front end words the settings the message names
            raise UserError(
                f"batch {batch['token']} (exported by an earlier version): {exc}"
            ) from None
        steps.set_batch_request(ws, batch["id"], request)
        log.info("batch %s: its command line became a %s request", batch["token"], request.STEP)


def cmd_export(args, ctx) -> int:
    steps, tasks = stages.steps(), stages.steps_tasks()
    request = step_request([args.step, *args.step_args])
    path = str(ctx.workspace().path)
    if args.estimate:
        estimate = tasks.estimate_batch_at(path, request)
        if emit(ctx, args, estimate):
            return 0
        print("\n".join(steps.describe_estimate(estimate)))
        return 0
    manifest = tasks.export_batch_at(
        path,
        request,
        Path(args.out),
        target_model=args.model,
        max_lines=args.max_lines or steps.DEFAULT_MAX_LINES,
        max_bytes=args.max_bytes or steps.DEFAULT_MAX_BYTES,
    )
    if emit(ctx, args, manifest):
        return 0
    if not manifest["files"]:
        print(f"{args.step}: nothing to send (every item is done)")
        return 0
    for f in manifest["files"]:
        print(
            f"{Path(args.out) / f['name']}: {f['lines']} requests, {f['bytes']} bytes, sha256 {f['sha256']}"
        )
    print(
        f"batch {manifest['batch']}: {manifest['items']} requests in {len(manifest['files'])} "
        f"files, runs {', '.join(map(str, manifest['runs']))}"
    )
    print("\n".join(steps.describe_estimate(manifest["estimate"])))
    return 0


def cmd_import(args, ctx) -> int:
    ws = ctx.workspace()
    convert_legacy_batches(ws)
    report = stages.steps_tasks().import_batch_at(str(ws.path), list(args.files))
    refusal = _refusal(report)
    code = 2 if refusal else (EXIT_MISSING if report["missing"] else 0)
    if emit(ctx, args, report):
        if refusal:
            print(f"upabhasha: error: batch import: {refusal}", file=sys.stderr)
        return code
    for f in report["files"]:
        refused = ", ".join(f"{n} {why}" for why, n in f["refused"].items()) or "none"
        whole = " - file refused, nothing stored" if f["file_refused"] else ""
        print(
            f"{f['file']}: {f['lines']} lines, {f['accepted']} accepted ({f['new']} new), "
            f"refused: {refused}{whole}"
        )
        for problem in f["problems"]:
            print(f"  {f['file']}, {problem}")
    for run_id, actual in report["actual"].items():
        cost = "cost unknown" if actual["cost"] is None else f"cost {actual['cost']:.4f}"
        print(
            f"run {run_id}: {actual['items']} items from batch results, "
            f"{actual['input_tokens']} input + {actual['output_tokens']} output tokens, {cost}"
        )
    if report["changed"]:
        print(f"{report['changed']} results answer requests the step no longer sends: not used")
    if refusal:
        if report["missing"]:
            print(f"{report['missing']} items still missing")
        print(f"upabhasha: error: batch import: {refusal}", file=sys.stderr)
        return 2
    if report["missing"]:
        raise_missing(report["missing"])
    return code


# refused lines that are not the provider's own error replies: the input is at fault (exit 2)
_PROVIDER_ERRORS = {"error"}


def _refusal(report: dict) -> str | None:
    """What was refused, in one line (None: nothing but the provider's error lines). Any
    file refused whole, or any line refused, makes the exit code 2, whatever else was
    stored."""
    files = report["files"]
    whole = [f for f in files if f["file_refused"]]
    lines = sum(
        n
        for f in files
        if not f["file_refused"]
        for why, n in f["refused"].items()
        if why not in _PROVIDER_ERRORS
    )
    if not whole and not lines:
        return None
    parts = []
    if whole:
        first = whole[0]
        reason = first["problems"][0] if first["problems"] else "refused"
        parts.append(
            f"{len(whole)} of {len(files)} files refused whole, nothing of them stored "
            f"({first['file']}, {reason})"
        )
    if lines:
        parts.append(f"{lines} refused line{'' if lines == 1 else 's'} in the files taken in")
    return "; ".join(parts)


def raise_missing(missing: int) -> None:
    raise StepIncomplete(
        f"batch import: {missing} items still missing; export them with the same "
        "'upabhasha batch export' command and import their results"
    )


def add_price_options(q) -> None:
    """The price options of ``models add`` and ``models price``."""
    q.add_argument("--price-in", help="price per million input tokens (0.15 or 0.15/M)")
    q.add_argument("--price-out", help="price per million output tokens")
    q.add_argument("--price-cached-in", help="price per million cached input tokens")
    q.add_argument("--batch-discount", help="discount as a batch (0.5 or 50%%)")


def given_prices(args) -> dict:
    llm = stages.llm()
    prices = {
        key: llm.parse_price(getattr(args, key))
        for key in ("price_in", "price_out", "price_cached_in")
        if getattr(args, key, None) is not None
    }
    if getattr(args, "batch_discount", None) is not None:
        prices["batch_discount"] = llm.parse_discount(args.batch_discount)
    return prices


def save_prices(ctx, args, model_id: int) -> None:
    """Store the prices ``models add`` was given (none given: nothing changes)."""
    prices = given_prices(args)
    if prices:
        stages.llm().set_price(ctx.workspace(), model_id, **prices)


def register_price(msub) -> None:
    q = msub.add_parser("price", help="show or set a model's prices per million tokens")
    q.add_argument("name", nargs="?", help="model name (default: every model)")
    add_price_options(q)
    add_json(q)
    q.set_defaults(func=cmd_price)


def cmd_price(args, ctx) -> int:
    llm = stages.llm()
    ws = ctx.workspace()
    prices = given_prices(args)
    if prices and not args.name:
        raise UserError("name the model whose prices to set")
    models = [llm.find_model(ws, args.name)] if args.name else llm.models_default_first(ws)
    rows = []
    for model in models:
        price = (
            llm.set_price(ws, model["id"], **prices) if prices else llm.model_price(ws, model["id"])
        )
        rows.append({"name": model["name"], **llm.price_fields(price)})
        if not args.json:
            print(f"{model['name']}: {llm.describe_price(price)}")
    if args.json:
        ctx.emit_json(rows)
    return 0


COMMANDS = [(145, register)]
IMPORTS: list = []
