"""Local GGUF backend: validates the file, then runs it in a worker process.

If the worker dies mid-job, every request it had not answered comes back as an error
result naming the cause (never as an empty answer), and the next call starts a new worker.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from pathlib import Path

from engine.llm.models.embedded_model import sha256_file
from engine.llm.models.gguf_info import GGUFInfo, inspect_gguf
from engine.llm.models.settings import LoadOptions, Schedule, model_identity_with_adapter
from engine.llm.runtime.worker import ModelWorker, WorkerCrashed
from engine.llm.types import CancelFn, ModelInfo, ProgressFn, Request, Result

log = logging.getLogger(__name__)


class LocalGGUFBackend:
    def __init__(
        self,
        path: str | Path,
        *,
        name: str | None = None,
        sha256: str | None = None,
        schedule: Schedule | None = None,
        load: LoadOptions | None = None,
        validate: bool = True,
    ):
        self.path = Path(path)
        self.schedule = (schedule or Schedule()).resolved()
        self.load = load or LoadOptions()
        # validate=False exists for crash tests only: it hands llama.cpp the raw file
        self.gguf: GGUFInfo | None = inspect_gguf(self.path) if validate else None
        if sha256 is None:
            sha256 = sha256_file(self.path)
        self.sha256 = sha256
        self.model_id = model_identity_with_adapter(sha256, self.load.as_dict())
        self.name = name or self.path.name
        self._worker: ModelWorker | None = None

    # -- Backend protocol ------------------------------------------------------------------
    def info(self) -> ModelInfo:
        g = self.gguf
        template = bool(self.load.chat_template or (g and g.has_chat_template))
        return ModelInfo(
            model_id=self.model_id,
            name=self.name,
            has_chat_template=template,
            context_length=g.context_length if g else None,
            architecture=g.architecture if g else None,
        )

    def card(self) -> dict:
        """What a run card records about this backend: the schedule decides the bytes."""
        return {"schedule": self.schedule.as_dict(), "load": self.load.as_dict()}

    @property
    def compute(self) -> dict | None:
        """Where the loaded model computes (backends, devices, n_gpu_layers, a CPU fallback's
        reason), for the run card; None before the model is loaded."""
        if self._worker is None or not self._worker.alive():
            return None
        return self._worker.ready.get("compute")

    def worker(self, cancelled: CancelFn | None = None) -> ModelWorker:
        """The loaded model's worker, started when needed (``cancelled`` stops the load)."""
        if self._worker is None or not self._worker.alive():
            self._worker = ModelWorker(
                self.path, self.schedule, self.load, label=self.name, cancelled=cancelled
            )
        return self._worker

    def generate(
        self,
        requests: Iterable[Request],
        *,
        progress: ProgressFn | None = None,
        cancelled: CancelFn | None = None,
    ) -> Iterator[Result]:
        requests = list(requests)
        if not requests:
            return
        answered: set[str] = set()
        worker = self.worker(cancelled)  # a failure to load raises: no item was attempted
        try:
            for result in worker.generate(requests, progress, cancelled):
                answered.add(result.key)
                yield result
        except WorkerCrashed as exc:
            log.error("%s", exc)
            self._worker = None
            for req in requests:
                if req.key not in answered:
                    yield Result(req.key, None, finish_reason="error", error=str(exc))

    def close(self) -> None:
        if self._worker is not None:
            self._worker.close()
            self._worker = None

    # -- inspection helpers (tests, CLI) ---------------------------------------------------
    def prompt_tokens(self, request: Request) -> list[int]:
        return self.worker().call("prompt_tokens", request)

    def token_info(self, tokens: list[int]) -> list[tuple[int, str, bool]]:
        return self.worker().call("token_info", tokens)

    def __enter__(self) -> LocalGGUFBackend:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
