"""Model commands: ``models add/list/inspect`` and ``run-prompts`` (the engine, alone)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from app.cli import stages
from app.cli.arguments import (
    add_schedule_options,
    given,
    name_text,
    non_negative_int,
    number_in,
    positive_int,
    positive_number,
    seed_int,
    token_budget,
)
from app.cli.batch import add_price_options, register_price, save_prices
from app.cli.context import incomplete, last_error_words
from app.cli.output import add_json, add_quiet, emit
from engine.errors import UserError
from engine.files.user_files import PROMPT_FILE, read_user_text
from engine.text.redact import redact
from engine.text.text_rules import visible


def register(sub) -> None:
    p = sub.add_parser("models", help="manage models")
    msub = p.add_subparsers(dest="models_command", required=True)

    q = msub.add_parser("list", help="models in this workspace")
    add_json(q)
    q.set_defaults(func=cmd_list)

    q = msub.add_parser("add", help="add a GGUF file or an OpenAI-compatible endpoint")
    q.add_argument(
        "source",
        nargs="+",
        metavar="PATH|URL",
        help="a .gguf file, or one or more base URLs served round-robin",
    )
    q.add_argument(
        "--name", type=name_text, help="name in this workspace (default: file name / api model)"
    )
    q.add_argument(
        "--api-model", type=name_text, help="model name the endpoint serves (endpoints only)"
    )
    q.add_argument(
        "--keyring-service",
        type=name_text,
        help="OS keyring service holding the endpoint's API key (user 'api-key')",
    )
    q.add_argument("--concurrency", type=positive_int, help="parallel requests (endpoints)")
    q.add_argument("--default", action="store_true", help="make it the default model")
    add_price_options(q)
    _add_endpoint_limits(q)
    add_json(q)
    q.set_defaults(func=cmd_add)
    register_price(msub)

    q = msub.add_parser(
        "probe",
        help="find again how an endpoint takes a JSON schema (json_schema, json_object, "
        "grammar, guided_json or text); a step that needs one finds it once by itself",
    )
    q.add_argument("target", metavar="NAME")
    add_json(q)
    q.set_defaults(func=cmd_probe)

    q = msub.add_parser("inspect", help="metadata, sha256 and a short self-test generation")
    q.add_argument("target", metavar="NAME|PATH")
    q.add_argument("--no-selftest", action="store_true")
    add_json(q)
    q.set_defaults(func=cmd_inspect)

    # run-prompts: options default to None, so the request's defaults hold (RunPromptsRequest)
    q = sub.add_parser("run-prompts", help="run a file of prompts as a resumable job")
    q.add_argument("file", help="one prompt per line, or JSONL with prompt|messages [, key]")
    q.add_argument("--model", help="model name (default: the workspace's default model)")
    q.add_argument("--max-tokens", type=token_budget, help="longest reply (default 128)")
    q.add_argument(
        "--temperature", type=number_in(0, 100), help="sampling temperature (default 0: greedy)"
    )
    q.add_argument("--seed", type=seed_int, help="sampling seed (default 0)")
    add_schedule_options(q, "sequences decoded together (local models)")
    add_json(q)
    add_quiet(q)
    q.set_defaults(func=cmd_run_prompts, build_request=run_prompts_request)


_LIST_COLUMNS = (
    "id",
    "name",
    "kind",
    "path",
    "sha256",
    "architecture",
    "quantization",
    "context_length",
    "has_chat_template",
    "base_urls",
    "api_model",
    "is_default",
)


def cmd_list(args, ctx) -> int:
    llm = stages.llm()
    ws = ctx.workspace()
    # name: the workspace name (--name), never the file's internal general.name
    rows = [
        {
            **{k: r[k] for k in _LIST_COLUMNS},
            "structured_output": llm.structured_output(ws, dict(r))["mode"],
        }
        for r in llm.all_models(ws)
    ]
    if emit(ctx, args, rows):
        return 0
    for r in rows:
        where = redact(r["path"] or ", ".join(json.loads(r["base_urls"] or "[]")))
        print(
            f"{r['id']:>3} {r['name']} [{r['kind']}] {r['quantization'] or r['api_model'] or ''} "
            f"{'(default) ' if r['is_default'] else ''}{where} "
            f"(JSON: {r['structured_output'] or 'not probed yet'})"
        )
    return 0


def cmd_probe(args, ctx) -> int:
    llm = stages.llm()
    ws = ctx.workspace()
    model = dict(llm.find_model(ws, args.target))
    if model["kind"] != "endpoint":
        raise UserError(
            f"model {model['name']!r} is a local model: it always takes a JSON schema as a "
            "grammar; only endpoints are probed"
        )
    found = llm.find_structured_output(ws, model)
    if emit(ctx, args, found):
        return 0 if found["found"] else 1
    tried = ", ".join(f"{m} {how}" for m, how in (found["probe"] or {}).get("tried", []))
    if found["found"]:
        print(f"{found['name']}: JSON schemas go as {found['mode']} ({tried})")
        return 0
    print(
        f"{found['name']}: not found ({redact(found['reason'])}); "
        f"{found['mode'] or 'json_schema'} is sent"
    )
    return 1


def _is_url(text: str) -> bool:
    return text.startswith(("http://", "https://"))


def cmd_add(args, ctx) -> int:
    llm = stages.llm()
    ws = ctx.workspace()
    if all(_is_url(s) for s in args.source):
        if not args.api_model:
            raise UserError("an endpoint needs --api-model (the model name the server serves)")
        if args.keyring_service:
            llm.read_api_key(args.keyring_service)  # fail now, clearly, if the key is missing
        name = args.name or args.api_model
        model_id = llm.register_endpoint(
            ws,
            name,
            args.source,
            args.api_model,
            keyring_service=args.keyring_service,
            load_params=_endpoint_limits(args),
            is_default=args.default,
        )
        stored = llm.find_model(ws, model_id)
        row = {
            "id": model_id,
            "name": stored["name"],
            "kind": "endpoint",
            "base_urls": json.loads(stored["base_urls"]),
        }
    elif len(args.source) == 1 and not _is_url(args.source[0]):
        path = llm.checked_model_path(args.source[0])
        info = llm.inspect_gguf(path, with_sha256=True, progress=ctx.progress_printer("sha256"))
        name = args.name or path.stem
        model_id = llm.register_gguf(
            ws,
            path,
            name=name,
            sha256=info.sha256,
            size_bytes=info.size_bytes,
            metadata=info.as_metadata(),
            is_default=args.default,
        )
        row = {**info.as_dict(), "id": model_id, "name": name, "kind": "gguf"}
    else:
        raise UserError("give one GGUF file, or one or more http(s) URLs")
    save_prices(ctx, args, model_id)
    emit(ctx, args, row, f"added {row['kind']} model {row['name']!r}")
    return 0


# The engine's defaults (engine.llm.endpoints.backend), named here so --help stays cheap;
# tests/cli/test_cli_endpoint_bounds.py checks that the two agree.
ENDPOINT_DEFAULTS = {"connect": 10, "read": 60, "retries": 4}


def _add_endpoint_limits(q) -> None:
    """An endpoint's bounds (README: "Endpoints"), saved with it."""
    q.add_argument(
        "--connect-timeout",
        type=positive_number,
        metavar="S",
        help=f"endpoints: seconds to wait for a connection (default {ENDPOINT_DEFAULTS['connect']})",
    )
    q.add_argument(
        "--read-timeout",
        type=positive_number,
        metavar="S",
        help=f"endpoints: seconds to wait for a whole reply (default {ENDPOINT_DEFAULTS['read']})",
    )
    q.add_argument(
        "--max-retries",
        type=non_negative_int,
        metavar="N",
        help=f"endpoints: retries of a failed request (default {ENDPOINT_DEFAULTS['retries']})",
    )


def _endpoint_limits(args) -> dict:
    given = {
        "concurrency": args.concurrency,
        "connect_timeout_s": args.connect_timeout,
        "read_timeout_s": args.read_timeout,
        "max_retries": args.max_retries,
    }
    return {k: v for k, v in given.items() if v is not None}


def _looks_like_path(text: str) -> bool:
    return (
        text.lower().endswith(".gguf")
        or "/" in text
        or "\\" in text
        or os.path.lexists(os.path.expanduser(text))
    )


def cmd_inspect(args, ctx) -> int:
    llm = stages.llm()
    ws = ctx.workspace()
    named = any(m["name"] == args.target for m in llm.all_models(ws))
    if Path(args.target).expanduser().is_file() or (
        not named and _looks_like_path(args.target)
    ):  # a file (as before), or a bad path: one line naming what is wrong with it
        path = llm.checked_model_path(args.target)
        row = {"name": path.name, "kind": "gguf", "path": str(path)}
    else:
        row = llm.find_model(ws, args.target)
    report: dict = {"name": row["name"], "kind": row["kind"]}
    if row["kind"] == "gguf":
        info = llm.inspect_gguf(
            row["path"], with_sha256=True, progress=ctx.progress_printer("sha256", quiet=args.json)
        )
        row = {**row, "sha256": info.sha256}
        report.update(info.as_dict())
        report["name"] = row["name"]
    else:
        report.update(
            {
                "base_urls": json.loads(row["base_urls"]),
                "api_model": row["api_model"],
                "keyring_service": row["keyring_service"],
            }
        )
    if not args.no_selftest:
        options = {"n_seq": 1} if row["kind"] == "gguf" else {}
        with llm.open_backend(row, **options) as backend:
            t = time.perf_counter()
            result = next(
                iter(
                    backend.generate(
                        [
                            llm.Request(
                                key="selftest",
                                prompt="The capital of France is",
                                sampler=llm.Sampler(max_tokens=16),
                            )
                        ]
                    )
                )
            )
            seconds = time.perf_counter() - t
        report["selftest"] = {
            "ok": result.ok,
            "text": result.text,
            "error": result.error,
            "completion_tokens": result.completion_tokens,
            "seconds": round(seconds, 2),
        }
    if emit(ctx, args, report):
        return 0
    for key, value in report.items():
        if key != "selftest":
            print(f"{key:>16}: {value}")
    if "selftest" in report:
        st = report["selftest"]
        print(
            f"{'self-test':>16}: "
            + (
                f"{st['text']!r} ({st['completion_tokens']} tokens, {st['seconds']} s)"
                if st["ok"]
                else f"FAILED {st['error']}"
            )
        )
    return 0 if report.get("selftest", {}).get("ok", True) else 1


def run_prompts_request(args):
    """The request ``upabhasha run-prompts`` runs: the file's prompts as data (read whole,
    bounded), options left out keeping the request's defaults."""
    path = Path(args.file)
    return stages.llm().RunPromptsRequest(
        **given(
            prompts=read_user_text(path, PROMPT_FILE),
            jsonl=path.suffix.lower() in (".jsonl", ".ndjson"),
            model=args.model,
            max_tokens=args.max_tokens,
            temperature=args.temperature,
            seed=args.seed,
            n_seq=args.n_seq,
            refill=args.refill,
        )
    )


def cmd_run_prompts(args, ctx) -> int:
    request = run_prompts_request(args)
    result = request.run(
        ctx.workspace(), progress=ctx.progress_printer("prompts", quiet=args.quiet or args.json)
    )
    if args.json:
        ctx.emit_json(result.as_dict())
    else:
        for r in result.responses:
            shown = r["text"] if r["status"] == "done" else f"[error] {r['error']}"
            print(f"{r['key']}\t{json.dumps(visible(shown), ensure_ascii=False)}")
    summary = result.summary
    if summary.complete:
        return 0
    failed = summary.total - summary.done_before - summary.done_now
    why = f" ({last_error_words(summary.last_error)})" if summary.last_error else ""
    return incomplete(
        ctx, f"run-prompts: {failed} of {summary.total} prompts failed or missing{why}"
    )


# where this module's sub-commands and ``import`` kinds sit in ``upabhasha --help``
# (app/cli/registry.py gathers every stage's)
COMMANDS = [(30, register)]
IMPORTS: list = []
