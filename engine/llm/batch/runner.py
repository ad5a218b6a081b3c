"""A model step as batch files and back: export what it would send, import what came back.

Both run the step's request itself, unchanged (:meth:`StepRequest.run`, the one path of the
step): the export against a recording backend, the import against a replaying one
(:mod:`engine.llm.endpoints.batch_backends`), so the files hold what the online path sends and the
results are stored, rejected and retried as online. The workspace keeps each batch's request;
what the replay asked and no result answered is what is missing, and exporting the same
request again writes only that.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NotRequired, TypedDict

from engine.errors import StepIncomplete, UserError
from engine.i18n import _
from engine.llm.batch import store
from engine.llm.batch.pricing import CostEstimate, cost_estimate
from engine.llm.endpoints.batch_backends import Recorder, Replayer, serving
from engine.llm.endpoints.batch_wire import (
    BAD_SIGNATURE,
    CONFLICT,
    FOREIGN_ID,
    REFUSES_FILE,
    UNKNOWN_ID,
    WRONG_MODEL,
    body_sha256,
    custom_id,
    endpoint_body,
    parse_custom_id,
    read_result_lines,
    request_line,
    signature,
    split_lines,
)
from engine.llm.runs.run import canonical_json
from engine.llm.runs.step_request import StepRequest, request_from_json
from engine.text.text_rules import reply_problem
from engine.workspace.store import Workspace


def record_step(ws: Workspace, request: StepRequest) -> Recorder:
    """Run the step against recording backends: what it would send now."""
    recorder = Recorder()
    with serving(recorder.factory):
        try:
            request.run(ws)
        except StepIncomplete:  # nothing is answered while recording
            pass
    if recorder.refused:
        raise UserError(recorder.refused[0])
    return recorder


def _by_model(recorder: Recorder) -> dict[int, list]:
    out: dict[int, list] = {}
    for rec in recorder.requests.values():
        out.setdefault(int(rec.model_row["id"]), []).append(rec)
    return out


def _cost_estimate(ws: Workspace, groups: dict[int, list]) -> CostEstimate:
    """:func:`cost_estimate` of the recorded requests, each model timed by its run's kind."""
    kinds = {
        m: ws.scalar("SELECT kind FROM runs WHERE id = ?", (recs[0].run_id,))
        for m, recs in groups.items()
    }
    return cost_estimate(ws, {m: [r.request for r in recs] for m, recs in groups.items()}, kinds)


class BatchFile(TypedDict):
    """One batch file of an export: its model, the name its lines ask for, size, checksum."""

    name: str
    model: str
    target_model: str
    lines: int
    bytes: int
    sha256: str


class BatchManifest(TypedDict):
    """:func:`export_step`: the batch, the request it carries, its runs, items, files and
    estimate. Nothing to send: only ``items`` (0), ``files``, ``runs`` and ``estimate``."""

    batch: NotRequired[str]
    step: NotRequired[str]
    request: NotRequired[dict[str, Any]]
    digest: NotRequired[str]
    items: int
    runs: list[int]
    files: list[BatchFile]
    estimate: CostEstimate


class ResultFile(TypedDict):
    """One result file of :func:`import_results`: its lines taken and refused (by why);
    ``problems``: the first lines that refused it whole, each named (line, custom_id, why)."""

    file: str
    lines: int
    accepted: int
    new: int
    refused: dict[str, int]
    file_refused: bool
    problems: list[str]


# lines named in a refusal (the counts say how many there were)
MAX_PROBLEMS = 5


class BatchImport(TypedDict):
    """:func:`import_results`: each file, the requests replayed, and what is still missing;
    ``actual``: per run, the tokens and cost of its batch results."""

    files: list[ResultFile]
    steps: list[dict[str, Any]]
    answered: int
    changed: int
    missing: int
    actual: dict[int, dict[str, Any]]


def estimate_step(ws: Workspace, request: StepRequest) -> CostEstimate:
    """Tokens, time and cost of what the step would send (engine.llm.batch.pricing)."""
    return _cost_estimate(ws, _by_model(record_step(ws, request)))


def _file_part(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name)[:40] or "model"


def export_step(
    ws: Workspace,
    request: StepRequest,
    out_dir: Path,
    *,
    target_model: str | None = None,
    max_lines: int,
    max_bytes: int,
) -> BatchManifest:
    """Write what ``request`` would send as OpenAI Batch files in ``out_dir``; return the
    manifest (the request, run, items, files with their checksums, estimate). Nothing to
    send: an empty manifest and no file."""
    groups = _by_model(record_step(ws, request))
    estimate = _cost_estimate(ws, groups)
    if not groups:
        return {"items": 0, "files": [], "runs": [], "estimate": estimate}
    if target_model and len(groups) > 1:
        names = sorted(recs[0].model_row["name"] for recs in groups.values())
        raise UserError(
            _(
                "the step asks {n} models ({names}): one target model name cannot serve them "
                "all; export without it (each model's own served name) or one model at a time"
            ).format(n=len(names), names=", ".join(names))
        )
    out_dir.mkdir(parents=True, exist_ok=True)
    batch_id, token = store.new_batch(ws, request)
    files: list[BatchFile] = []
    items = []
    runs_files: dict[int, set[str]] = {}
    for recs in groups.values():
        row = recs[0].model_row
        target = target_model or row.get("api_model") or ""
        lines, meta = [], []
        for rec in recs:
            path, body = endpoint_body(rec.model_row, rec.request, target)
            digest = body_sha256(body)
            run_key = ws.scalar("SELECT run_key FROM runs WHERE id = ?", (rec.run_id,))
            sig = signature(token, run_key, rec.request.key, digest)
            lines.append(
                request_line(custom_id(rec.request.key, token, rec.run_id, sig), path, body)
            )
            meta.append((rec.run_id, rec.request.key, target, digest, sig))
        pos = 0
        for number, chunk in enumerate(split_lines(lines, max_lines, max_bytes), 1):
            name = f"{request.STEP}-{token}-{_file_part(row['name'])}-{number:03d}.jsonl"
            data = b"".join(chunk)
            (out_dir / name).write_bytes(data)
            files.append(
                {
                    "name": name,
                    "model": row["name"],
                    "target_model": target,
                    "lines": len(chunk),
                    "bytes": len(data),
                    "sha256": hashlib.sha256(data).hexdigest(),
                }
            )
            for m in meta[pos : pos + len(chunk)]:
                items.append((*m, name))
                runs_files.setdefault(m[0], set()).add(name)
            pos += len(chunk)
    store.add_items(ws, batch_id, items)
    manifest: BatchManifest = {
        "batch": token,
        "step": request.STEP,
        "request": request.as_json(),
        "digest": request.digest(),
        "items": len(items),
        "runs": sorted(runs_files),
        "files": files,
        "estimate": estimate,
    }
    store.set_manifest(ws, batch_id, manifest)
    for run_id, run_files in runs_files.items():
        store.note_export(
            ws,
            run_id,
            {
                "batch": token,
                "items": sum(1 for i in items if i[0] == run_id),
                "files": [f for f in files if f["name"] in run_files],
                "estimate": estimate,
            },
        )
    return manifest


def _model_matches(reply_model: object, target: str) -> bool:
    """A reply names the model asked for, or a dated snapshot of it (``name-2024-07-18``);
    a reply that names no model is taken as the one asked."""
    if not isinstance(reply_model, str):
        return True
    return reply_model == target or reply_model.startswith(target + "-")


def _check_file(ws: Workspace, path: Path) -> tuple[Counter, list, int, list[str]]:
    """Each line's verdict: (refusals by reason, accepted rows, lines read, the lines that
    refuse the file whole, named)."""
    refused: Counter = Counter()
    accepted = []
    count = 0
    batches: dict[str, dict | None] = {}
    seen: dict[tuple[int, int, str], tuple[int, str]] = {}  # item -> (line, canonical body)
    problems: list[str] = []

    def refuse(line, why: str, detail: str | None = None) -> None:
        refused[why] += 1
        if why in REFUSES_FILE and len(problems) < MAX_PROBLEMS:
            named = _("line {line}: {field} {cid}: {why}").format(
                line=line.number, field="custom_id", cid=repr(str(line.custom_id)[:120]), why=why
            )
            problems.append(named if detail is None else f"{named} ({detail})")

    for line in read_result_lines(path):
        count += 1
        if line.refused:
            refused[line.refused] += 1
            continue
        cid = parse_custom_id(line.custom_id)
        if cid is not None and cid.token not in batches:
            batches[cid.token] = store.batch_of_token(ws, cid.token)
        batch = batches.get(cid.token) if cid is not None else None
        if cid is None or batch is None:
            refuse(line, FOREIGN_ID)
            continue
        item = store.batch_item(ws, batch["id"], cid.run_id, cid.item_key)
        if item is None:
            refuse(line, UNKNOWN_ID, _("no such item in batch {token}").format(token=cid.token))
        elif item["signature"] != cid.signature:
            refuse(line, BAD_SIGNATURE)
        elif not _model_matches((line.body or {}).get("model"), item["target_model"]):
            refused[WRONG_MODEL] += 1
        else:
            _refuse_unstorable_reply(path, line.number, cid.item_key, line.body or {})
            key = (batch["id"], cid.run_id, cid.item_key)
            body = canonical_json(line.body)
            kept = store.stored_result(ws, *key)
            if key in seen and seen[key][1] != body:
                refuse(line, CONFLICT, _("line {n} answers it otherwise").format(n=seen[key][0]))
            elif kept is not None and kept != body:
                refuse(line, CONFLICT, _("a result imported before answers it otherwise"))
            elif key not in seen:
                seen[key] = (line.number, body)
                accepted.append((*key, line.body))
    return refused, accepted, count, problems


def _refuse_unstorable_reply(path: Path, number: int, item_key: str, body: dict) -> None:
    """A reply keeps what the model wrote (hidden characters are shown where a person reads
    it), except what cannot be stored as text: a NUL refuses the file, naming line and item."""
    choice = body["choices"][0]
    message = choice.get("message")
    text = message.get("content") if isinstance(message, dict) else choice.get("text")
    problem = reply_problem(text) if isinstance(text, str) else None
    if problem is not None:
        raise UserError(
            _(
                "{file}, line {line}: the reply to item {item} {problem}; the file is not imported"
            ).format(file=path, line=number, item=item_key, problem=problem)
        )


def import_results(
    ws: Workspace, kinds: Sequence[type[StepRequest]], paths: list[Path]
) -> BatchImport:
    """Take in result files (any order, partial, again), replay their batches' requests (of
    one of ``kinds``) and say what is still missing. A file with a foreign, unknown or
    tampered line, or a second reply to one request that differs from the first (in the file
    or imported before), is refused whole."""
    report_files: list[ResultFile] = []
    touched: set[int] = set()
    for path in paths:
        refused, accepted, count, problems = _check_file(ws, path)
        whole = any(refused[why] for why in REFUSES_FILE)
        new = 0 if whole else store.store_results(ws, accepted)
        if not whole:
            touched |= {a[0] for a in accepted}
        report_files.append(
            {
                "file": str(path),
                "lines": count,
                "accepted": 0 if whole else len(accepted),
                "new": new,
                "refused": dict(sorted(refused.items())),
                "file_refused": whole,
                "problems": problems,
            }
        )
    batches = store.batches_with_results(ws, touched)
    runs = set().union(*(b["runs"] for b in batches)) if batches else set()
    requests: dict[str, StepRequest] = {}
    for batch in batches:
        if batch["request"] is None:
            raise UserError(
                _(
                    "batch {token} was exported by an earlier version and its request is not "
                    "known yet: it cannot be replayed"
                ).format(token=batch["token"])
            )
        request = request_from_json(kinds, batch["request"])
        requests.setdefault(request.digest(), request)
    replayer = Replayer(store.replay_results(ws, runs))
    with serving(replayer.factory):
        for request in requests.values():
            try:
                request.run(ws)
            except StepIncomplete:  # what no result answered is counted below
                pass
    actual = {run_id: store.note_actual(ws, run_id) for run_id in sorted(runs)}
    return {
        "files": report_files,
        "steps": [r.as_json() for r in requests.values()],
        "answered": replayer.answered,
        "changed": replayer.changed,
        # asked in the replay with no result, or answered by one the step did not take
        "missing": len(replayer.unanswered | store.exported_not_done(ws, runs)),
        "actual": actual,
    }
