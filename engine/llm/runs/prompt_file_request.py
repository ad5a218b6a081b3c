"""The run-prompts step as a request: a file of prompts run as one resumable job.

The prompts travel in the request as data (the file's text, and whether it is JSON lines),
not as a path: the file is read whole before anything runs and its sha256 is the run's
identity (the card's ``file_sha256``), so the request's digest changes exactly when the
prompts do, and a batch file or a replay carries them to a machine without the file.
``upabhasha run-prompts`` reads the file (bounded like every user file) into the request;
:meth:`RunPromptsRequest.run` runs it and returns the responses in the file's order.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass
from typing import Any

from engine.errors import Setting
from engine.files.user_files import PROMPT_FILE
from engine.i18n import _
from engine.llm.models.registry import find_model
from engine.llm.runs.jobs import JobSummary, run_job_on_model
from engine.llm.runs.responses import run_responses
from engine.llm.runs.run import open_run
from engine.llm.runs.step_request import (
    MAX_TOKENS,
    RequestError,
    StepRequest,
    count_field,
    flag_field,
    n_seq_field,
    number_field,
    optional_name_field,
    refill_field,
    seed_field,
)
from engine.llm.types import CancelFn, Message, ProgressFn, Request, Sampler
from engine.workspace.store import Workspace

MAX_TEMPERATURE = 100.0


def _prompt_text(value: Any, name: Setting) -> str:
    if not isinstance(value, str) or not value.strip():
        raise RequestError(name, _("no prompts"))
    if len(value) > PROMPT_FILE.max_bytes or len(value.encode("utf-8")) > PROMPT_FILE.max_bytes:
        raise RequestError(
            name, _("more than {n} bytes of prompts").format(n=PROMPT_FILE.max_bytes)
        )
    return value


@dataclass(frozen=True)
class RunPromptsResult:
    """The run, its job's summary and every response, in the order of the prompts."""

    run_id: int
    summary: JobSummary
    responses: tuple[dict, ...]

    def as_dict(self) -> dict:
        return {
            "run_id": self.run_id,
            "summary": dataclasses.asdict(self.summary),
            "responses": list(self.responses),
        }


@dataclass(frozen=True)
class RunPromptsRequest(StepRequest):
    """One model answers every prompt of ``prompts``: one prompt per line (key
    ``line-<n>``), or with ``jsonl`` one JSON object per line with ``prompt`` or
    ``messages`` and an optional ``key`` (or ``id``)."""

    STEP = "run-prompts"

    prompts: str = dataclasses.field(  # the prompt file's text
        metadata={"setting": Setting.PROMPT_FILE, "check": _prompt_text}
    )
    jsonl: bool = flag_field(Setting.PROMPT_FILE)
    model: str | None = optional_name_field(Setting.MODEL)  # None: the default model
    max_tokens: int = count_field(Setting.MAX_TOKENS, 128, MAX_TOKENS)
    temperature: float = number_field(Setting.TEMPERATURE, 0.0, 0.0, MAX_TEMPERATURE)
    seed: int = seed_field(Setting.SEED)
    n_seq: int | None = n_seq_field()
    refill: int | None = refill_field()

    def validate(self) -> None:
        self.prompt_requests()  # a bad line is refused when the request is made

    @property
    def sampler(self) -> Sampler:
        return Sampler(temperature=self.temperature, seed=self.seed, max_tokens=self.max_tokens)

    def prompt_requests(self) -> list[Request]:
        """One request per prompt, keyed as the file says (or by its line)."""
        sampler = self.sampler
        requests, keys = [], set()
        for n, line in enumerate(self.prompts.splitlines(), start=1):
            if not line.strip():
                continue
            key, request = (
                _json_line(line, n, sampler)
                if self.jsonl
                else (f"line-{n}", Request(key=f"line-{n}", prompt=line, sampler=sampler))
            )
            if key in keys:
                raise _bad_line(n, _("the key {key!r} is there twice").format(key=key))
            keys.add(key)
            requests.append(request)
        return requests

    def run(
        self,
        ws: Workspace,
        *,
        progress: ProgressFn | None = None,
        cancelled: CancelFn | None = None,
    ) -> RunPromptsResult:
        model = find_model(ws, self.model, embedded_fallback=True)
        requests = self.prompt_requests()
        card: dict = {
            "template": "run-prompts",
            "file_sha256": hashlib.sha256(self.prompts.encode("utf-8")).hexdigest(),
            "sampler": self.sampler.as_dict(),
        }
        if self.schedule and model["kind"] == "gguf":
            card["schedule"] = self.schedule
        run_id = open_run(ws, "prompts", model, card)
        summary = run_job_on_model(  # its model opened and closed; no empty run left behind
            ws, run_id, requests, progress=progress, cancelled=cancelled
        )
        order = {r.key: i for i, r in enumerate(requests)}
        rows = sorted(run_responses(ws, run_id), key=lambda r: order.get(r["key"], len(order)))
        return RunPromptsResult(run_id, summary, tuple(rows))


def _bad_line(n: int, why: str) -> RequestError:
    return RequestError(Setting.PROMPT_FILE, _("line {n}: {why}").format(n=n, why=why))


def _json_line(line: str, n: int, sampler: Sampler) -> tuple[str, Request]:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise _bad_line(n, _("not JSON ({why})").format(why=exc.msg)) from None
    if not isinstance(obj, dict):
        raise _bad_line(n, _("not a JSON object"))
    key = str(obj.get("key") or obj.get("id") or f"line-{n}")
    if "messages" in obj:
        messages = obj["messages"]
        if (
            not isinstance(messages, list)
            or not messages
            or not all(
                isinstance(m, dict)
                and isinstance(m.get("role"), str)
                and isinstance(m.get("content"), str)
                for m in messages
            )
        ):
            raise _bad_line(
                n,
                _("'messages' needs a list of messages, each with a role and a content"),
            )
        chat = tuple(Message(m["role"], m["content"]) for m in messages)
        return key, Request(key=key, messages=chat, sampler=sampler)
    if "prompt" in obj:
        return key, Request(key=key, prompt=str(obj["prompt"]), sampler=sampler)
    raise _bad_line(n, _("needs 'prompt' or 'messages'"))
