"""Model commands: ``models add/list/inspect`` and ``run-prompts`` (the engine, alone)."""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path

from engine.errors import UserError
from engine.redact import redact


def register(sub) -> None:
    p = sub.add_parser("models", help="manage models")
    msub = p.add_subparsers(dest="models_command", required=True)

    q = msub.add_parser("list", help="models in this workspace")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_list)

    q = msub.add_parser("add", help="add a GGUF file or an OpenAI-compatible endpoint")
    q.add_argument(
        "source",
        nargs="+",
        metavar="PATH|URL",
        help="a .gguf file, or one or more base URLs served round-robin",
    )
    q.add_argument("--name", help="name in this workspace (default: file name / api model)")
    q.add_argument("--api-model", help="model name the endpoint serves (endpoints only)")
    q.add_argument(
        "--keyring-service",
        help="OS keyring service holding the endpoint's API key (user 'api-key')",
    )
    q.add_argument("--concurrency", type=int, help="parallel requests (endpoints)")
    q.add_argument("--default", action="store_true", help="make it the default model")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_add)

    q = msub.add_parser("inspect", help="metadata, sha256 and a short self-test generation")
    q.add_argument("target", metavar="NAME|PATH")
    q.add_argument("--no-selftest", action="store_true")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_inspect)

    q = sub.add_parser("run-prompts", help="run a file of prompts as a resumable job")
    q.add_argument("file", help="one prompt per line, or JSONL with prompt|messages [, key]")
    q.add_argument("--model", help="model name (default: the workspace's default model)")
    q.add_argument("--max-tokens", type=int, default=128)
    q.add_argument("--temperature", type=float, default=0.0)
    q.add_argument("--seed", type=int, default=0)
    q.add_argument("--n-seq", type=int, help="sequences decoded together (local models)")
    q.add_argument("--json", action="store_true")
    q.add_argument("--quiet", action="store_true", help="no progress line")
    q.set_defaults(func=cmd_run_prompts)


def cmd_list(args, ctx) -> int:
    rows = ctx.workspace().query(
        "SELECT id, name, kind, path, sha256, architecture, quantization, context_length, "
        "has_chat_template, base_urls, api_model, is_default FROM models ORDER BY id"
    )
    if args.json:
        ctx.emit_json(rows)
        return 0
    for r in rows:
        where = redact(r["path"] or ", ".join(json.loads(r["base_urls"] or "[]")))
        print(
            f"{r['id']:>3} {r['name']} [{r['kind']}] {r['quantization'] or r['api_model'] or ''} "
            f"{'(default) ' if r['is_default'] else ''}{where}"
        )
    return 0


def _is_url(text: str) -> bool:
    return text.startswith(("http://", "https://"))


def cmd_add(args, ctx) -> int:
    from engine.llm.model_registry import register_gguf
    from engine.workspace.store import utcnow

    ws = ctx.workspace()
    if all(_is_url(s) for s in args.source):
        if not args.api_model:
            raise UserError("an endpoint needs --api-model (the model name the server serves)")
        from engine.llm.endpoint_backend import normalise_base_url, read_api_key

        urls = [normalise_base_url(u) for u in args.source]
        if args.keyring_service:
            read_api_key(args.keyring_service)  # fail now, clearly, if the key is missing
        name = args.name or args.api_model
        params = {"concurrency": args.concurrency} if args.concurrency else {}
        with ws.transaction() as conn:
            if args.default:
                conn.execute("UPDATE models SET is_default = 0")
            conn.execute(
                """INSERT INTO models(name, kind, base_urls, api_model, keyring_service,
                       load_params, has_chat_template, is_default, added_at)
                   VALUES (?, 'endpoint', ?, ?, ?, ?, 1, ?, ?)
                   ON CONFLICT(name) DO UPDATE SET base_urls = excluded.base_urls,
                       api_model = excluded.api_model, keyring_service = excluded.keyring_service,
                       load_params = excluded.load_params""",
                (
                    name,
                    json.dumps(urls),
                    args.api_model,
                    args.keyring_service,
                    json.dumps(params),
                    int(args.default),
                    utcnow(),
                ),
            )
        row = {"name": name, "kind": "endpoint", "base_urls": urls}
    elif len(args.source) == 1 and not _is_url(args.source[0]):
        from engine.llm.gguf_info import inspect_gguf

        path = Path(args.source[0]).expanduser().resolve()
        info = inspect_gguf(path, with_sha256=True, progress=ctx.progress_printer("sha256"))
        name = args.name or path.stem
        register_gguf(
            ws,
            path,
            name=name,
            sha256=info.sha256,
            size_bytes=info.size_bytes,
            metadata=info.as_metadata(),
            is_default=args.default,
        )
        row = {"name": name, "kind": "gguf", **info.as_dict()}
    else:
        raise UserError("give one GGUF file, or one or more http(s) URLs")
    if args.json:
        ctx.emit_json(row)
    else:
        print(f"added {row['kind']} model {row['name']!r}")
    return 0


def _find_model(ws, name: str | None) -> dict:
    from engine.llm.model_registry import default_model, ensure_embedded_default

    if name:
        rows = ws.query("SELECT * FROM models WHERE name = ?", (name,))
        if not rows:
            raise UserError(f"no model named {name!r} in this workspace ('models list')")
        return rows[0]
    row = default_model(ws)
    if row is None:
        ensure_embedded_default(ws)
        row = default_model(ws)
    return row


def cmd_inspect(args, ctx) -> int:
    from engine.llm.factory import open_backend
    from engine.llm.gguf_info import inspect_gguf
    from engine.llm.types import Request, Sampler

    path = Path(args.target).expanduser()
    if path.is_file():
        row = {"name": path.name, "kind": "gguf", "path": str(path.resolve())}
    else:
        row = _find_model(ctx.workspace(), args.target)
    report: dict = {"name": row["name"], "kind": row["kind"]}
    if row["kind"] == "gguf":
        info = inspect_gguf(
            row["path"], with_sha256=True, progress=ctx.progress_printer("sha256", quiet=args.json)
        )
        row = {**row, "sha256": info.sha256}
        report.update(info.as_dict())
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
        with open_backend(row, **options) as backend:
            t = time.perf_counter()
            result = next(
                iter(
                    backend.generate(
                        [
                            Request(
                                key="selftest",
                                prompt="The capital of France is",
                                sampler=Sampler(max_tokens=16),
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
    if args.json:
        ctx.emit_json(report)
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


def read_prompt_file(path: Path, sampler) -> list:
    from engine.llm.types import Message, Request

    if not path.is_file():
        raise UserError(f"{path}: no such file")
    requests, keys = [], set()
    is_jsonl = path.suffix.lower() in (".jsonl", ".ndjson")
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        if is_jsonl:
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise UserError(f"{path}, line {n}: not JSON ({exc.msg})") from None
            key = str(obj.get("key") or obj.get("id") or f"line-{n}")
            if "messages" in obj:
                msgs = tuple(Message(m["role"], m["content"]) for m in obj["messages"])
                req = Request(key=key, messages=msgs, sampler=sampler)
            elif "prompt" in obj:
                req = Request(key=key, prompt=str(obj["prompt"]), sampler=sampler)
            else:
                raise UserError(f"{path}, line {n}: needs 'prompt' or 'messages'")
        else:
            key = f"line-{n}"
            req = Request(key=key, prompt=line, sampler=sampler)
        if key in keys:
            raise UserError(f"{path}, line {n}: duplicate key {key!r}")
        keys.add(key)
        requests.append(req)
    if not requests:
        raise UserError(f"{path}: no prompts")
    return requests


def cmd_run_prompts(args, ctx) -> int:
    from engine.llm.jobs import backend_for_run, open_run, run_job
    from engine.llm.types import Sampler

    ws = ctx.workspace()
    model = _find_model(ws, args.model)
    sampler = Sampler(temperature=args.temperature, seed=args.seed, max_tokens=args.max_tokens)
    path = Path(args.file)
    requests = read_prompt_file(path, sampler)
    card = {
        "template": "run-prompts",
        "file_sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        "sampler": sampler.as_dict(),
    }
    if args.n_seq and model["kind"] == "gguf":
        card["schedule"] = {"n_seq": args.n_seq}
    run = open_run(ws, "prompts", model, card)
    with backend_for_run(ws, run) as backend:
        summary = run_job(
            ws,
            run,
            backend,
            requests,
            progress=ctx.progress_printer("prompts", quiet=args.quiet or args.json),
        )
    rows = ws.query(
        "SELECT item_key AS key, status, text, error, attempts, completion_tokens "
        "FROM responses WHERE run_id = ?",
        (run,),
    )
    order = {r.key: i for i, r in enumerate(requests)}
    rows.sort(key=lambda r: order.get(r["key"], len(order)))
    if args.json:
        ctx.emit_json({"run_id": run, "summary": summary.__dict__, "responses": rows})
    else:
        for r in rows:
            shown = r["text"] if r["status"] == "done" else f"[error] {r['error']}"
            print(f"{r['key']}\t{json.dumps(shown, ensure_ascii=False)}")
    return 0 if summary.complete else 1
