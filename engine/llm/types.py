"""The one backend interface every stage (translation, answering, judging) talks to.

A request is *data*: the prompt is either plain completion text (``prompt``) or chat
``messages``. Both are untrusted text: backends must never let a dataset string such as
``<end_of_turn>`` become a control token (local backends tokenize user content with
special-token parsing off and assemble chat prompts from pieces).
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Protocol

# progress(done, total, note); one that takes keywords also gets ``tokens=`` (generated so far)
ProgressFn = Callable[..., None]


def takes_metrics(progress: Callable | None) -> bool:
    """Whether ``progress`` takes keyword metrics (``tokens=``): the GUI's task bridge does;
    a plain ``progress(done, total, note)`` (the CLI's printer) is called without them."""
    if progress is None:
        return False
    try:
        params = inspect.signature(progress).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.kind is p.VAR_KEYWORD or p.name == "tokens" for p in params)


def labelled_progress(progress: ProgressFn | None, label: str) -> ProgressFn | None:
    """``progress`` with every note prefixed by ``label`` (one model, one step of several)."""
    if progress is None:
        return None
    outer: ProgressFn = progress
    forward = takes_metrics(outer)

    def labelled(done: int, total: int, note: str = "", **metrics) -> None:
        outer(done, total, f"{label}: {note}", **(metrics if forward else {}))

    return labelled


class JobProgress:
    """Progress of a job of several runs (a task over models × regimes × scripts): done and
    total count the whole job, so a cancelled job stops at its real fraction; each note
    names its run; generated tokens add up over the runs (each counts its own from 0)."""

    def __init__(self, progress: ProgressFn | None, total: int):
        self.progress, self.total = progress, total
        self.forward = takes_metrics(progress)
        self.done_before = self.tokens_before = 0
        self._step_done = self._step_tokens = 0

    def step(self, label: str) -> ProgressFn | None:
        """The progress function of the next run (the previous one is counted as finished)."""
        self.done_before += self._step_done
        self.tokens_before += self._step_tokens
        self._step_done = self._step_tokens = 0
        if self.progress is None:
            return None
        outer: ProgressFn = self.progress

        def report(done: int, total: int, note: str = "", **metrics) -> None:
            self._step_done = done
            extra = {}
            if self.forward and metrics.get("tokens") is not None:
                self._step_tokens = int(metrics["tokens"])
                extra = {"tokens": self.tokens_before + self._step_tokens}
            outer(self.done_before + done, max(self.total, self.done_before + total),
                  f"{label}: {note}", **extra)  # fmt: skip

        return report


CancelFn = Callable[[], bool]  # returns True when the caller wants to stop


@dataclass(frozen=True)
class Sampler:
    temperature: float = 0.0  # 0 means greedy
    top_p: float = 1.0
    top_k: int = 0  # 0 = off
    repeat_penalty: float = 1.0
    seed: int = 0
    max_tokens: int = 256
    stop: tuple[str, ...] = ()

    @property
    def greedy(self) -> bool:
        return self.temperature <= 0.0

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class Message:
    role: str  # "system" | "user" | "assistant"
    content: str


@dataclass(frozen=True)
class Request:
    key: str  # stable item key within its job
    prompt: str | None = None  # plain completion (base models)
    messages: tuple[Message, ...] | None = None  # chat (models with a template)
    sampler: Sampler = field(default_factory=Sampler)
    json_schema: dict | None = None  # constrain output to this JSON schema

    def __post_init__(self):
        if (self.prompt is None) == (self.messages is None):
            raise ValueError("a Request needs exactly one of prompt or messages")

    def cache_key(self, model_id: str) -> str:
        """Hash of the full request (model, prompt, sampler, schema): the response-cache key."""
        body = {
            "model": model_id,
            "prompt": self.prompt,
            "messages": [dataclasses.asdict(m) for m in self.messages] if self.messages else None,
            "sampler": self.sampler.as_dict(),
            # kept as a string: property order shapes the output, so it is part of the key
            "schema": json.dumps(self.json_schema, ensure_ascii=False),
        }
        blob = json.dumps(body, sort_keys=True, ensure_ascii=False).encode("utf-8")
        return hashlib.sha256(blob).hexdigest()


@dataclass
class Result:
    key: str
    text: str | None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    finish_reason: str = ""  # "stop" | "length" | "error" | "cancelled"
    elapsed_ms: float = 0.0
    error: str | None = None  # set when the item failed; never scored as 0

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass(frozen=True)
class ModelInfo:
    model_id: str  # sha256 for GGUF files, "endpoint:<url>#<model>" otherwise
    name: str
    has_chat_template: bool
    context_length: int | None = None
    architecture: str | None = None


class Backend(Protocol):
    """Generates results for requests, in any order, each exactly once."""

    def info(self) -> ModelInfo: ...

    def generate(
        self,
        requests: Iterable[Request],
        *,
        progress: ProgressFn | None = None,
        cancelled: CancelFn | None = None,
    ) -> Iterator[Result]: ...

    def close(self) -> None: ...
