"""The two backends a batch runs a step with, unchanged: one that records, one that replays.

While a batch session serves (:func:`serving`), every run's backend
(:func:`engine.llm.runs.backend.backend_for_run`) comes from it. A *recording* backend keeps
each request the step would send and answers none, so an export holds exactly what the
online path sends. A *replaying* backend answers a request with the result line imported
for its run and item, when the request is still the one exported (its body's hash); the
step's own job runner then stores it, rejects it or retries it as it would online. What it
cannot answer it leaves unanswered: the item stays missing and a later export writes it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from engine.errors import UserError
from engine.i18n import _
from engine.llm.endpoints.backend import EndpointBackend
from engine.llm.endpoints.batch_wire import body_sha256, endpoint_body
from engine.llm.endpoints.openai_wire import parse_reply
from engine.llm.types import Backend, CancelFn, ModelInfo, ProgressFn, Request, Result
from engine.workspace.store import Workspace

BackendFactory = Callable[[Workspace, int, dict], Backend]

_serving: list[BackendFactory] = []  # a stack: the innermost session serves


def serving_factory() -> BackendFactory | None:
    return _serving[-1] if _serving else None


@contextmanager
def serving(factory: BackendFactory):
    """Every run's backend comes from ``factory(ws, run_id, model_row)`` inside."""
    _serving.append(factory)
    try:
        yield
    finally:
        _serving.pop()


def replaying_runs() -> set[int] | None:
    """The runs the serving replay holds results for; None when no replay serves."""
    owner = getattr(serving_factory(), "__self__", None)
    return set(owner.results) if isinstance(owner, Replayer) else None


def endpoint_info(model_row: dict) -> ModelInfo:
    """The model identity the online endpoint backend gives (cache keys match)."""
    if model_row.get("kind") != "endpoint":
        raise UserError(
            _(
                "model {name!r} is a local model: only endpoint models can be exported as "
                "batch files (run it online, or register its server as an endpoint)"
            ).format(name=model_row.get("name"))
        )
    return EndpointBackend.from_row({**model_row, "keyring_service": None}).info()


class _Silent:
    run_id: int
    timed = False  # answers come from files: no online time to record (engine.llm.runs.jobs)

    def __init__(self, model_row: dict):
        self.model_row = model_row
        self._info = endpoint_info(model_row)

    def info(self) -> ModelInfo:
        return self._info

    def follow_run(self, run_id: int) -> None:
        """Serve the model's next run (engine.llm.runs.backend.follow_run_schedule)."""
        self.run_id = run_id

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@dataclass
class Recorded:
    run_id: int
    model_row: dict
    request: Request


@dataclass
class Recorder:
    """What a step would send, per (run, item key), in the order it asked."""

    requests: dict[tuple[int, str], Recorded] = field(default_factory=dict)
    # why a model could not be recorded (a local one): a step may report a model that did
    # not open and go on, so the refusal is kept here for the export to raise
    refused: list[str] = field(default_factory=list)

    def factory(self, ws: Workspace, run_id: int, model_row: dict) -> Backend:
        try:
            return RecordingBackend(self, run_id, model_row)
        except UserError as exc:
            self.refused.append(str(exc))
            raise


class RecordingBackend(_Silent):
    def __init__(self, recorder: Recorder, run_id: int, model_row: dict):
        super().__init__(model_row)
        self.recorder, self.run_id = recorder, run_id

    def generate(
        self,
        requests: Iterable[Request],
        *,
        progress: ProgressFn | None = None,
        cancelled: CancelFn | None = None,
    ) -> Iterator[Result]:
        for req in requests:
            self.recorder.requests.setdefault(
                (self.run_id, req.key), Recorded(self.run_id, self.model_row, req)
            )
        return iter(())


@dataclass
class Replayer:
    """Answers from imported result lines: ``results[run_id][item_key]`` lists
    ``(target model, exported body hash, reply body)``, one per export of the item."""

    results: dict[int, dict[str, list[tuple[str, str, dict]]]]
    answered: int = 0
    changed: int = 0  # the step now asks something else than was exported
    # (run, item) the step asked and no result answered: what is still missing
    unanswered: set[tuple[int, str]] = field(default_factory=set)

    def factory(self, ws: Workspace, run_id: int, model_row: dict) -> Backend:
        return ReplayingBackend(self, run_id, model_row)


class ReplayingBackend(_Silent):
    def __init__(self, replayer: Replayer, run_id: int, model_row: dict):
        super().__init__(model_row)
        self.replayer, self.run_id = replayer, run_id

    def generate(
        self,
        requests: Iterable[Request],
        *,
        progress: ProgressFn | None = None,
        cancelled: CancelFn | None = None,
    ) -> Iterator[Result]:
        own = self.replayer.results.get(self.run_id, {})
        for req in requests:
            candidates = own.get(req.key)
            if not candidates:
                self.replayer.unanswered.add((self.run_id, req.key))
                continue
            reply = next(
                (
                    reply
                    for target, exported_hash, reply in candidates
                    if body_sha256(endpoint_body(self.model_row, req, target)[1]) == exported_hash
                ),
                None,
            )
            if reply is None:
                self.replayer.changed += 1
                self.replayer.unanswered.add((self.run_id, req.key))
                continue
            self.replayer.unanswered.discard((self.run_id, req.key))
            self.replayer.answered += 1
            yield parse_reply(req, reply, 0.0)
