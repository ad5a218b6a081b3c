"""The backend a run decodes with: its own model, opened with the schedule its card records,
so reruns reproduce; and what a step says of a model that did not load."""

from __future__ import annotations

import dataclasses

from engine.errors import UserError
from engine.llm.endpoints import batch_backends
from engine.llm.runs.output_mode import run_mode, with_mode
from engine.llm.runs.run import recorded_schedule, run_card
from engine.llm.runtime.factory import open_backend
from engine.llm.runtime.worker import ModelDidNotLoad
from engine.llm.types import Backend
from engine.workspace.store import Workspace


def backend_for_run(ws: Workspace, run_id: int, **options) -> Backend:
    """Open the run's model with the schedule its card records (reproducible reruns). A model
    that cannot be opened raises :class:`ModelDidNotLoad`, as one whose worker fails to load
    it does: every step reports it alike (incomplete, resumable)."""
    row = ws.query(
        "SELECT m.* FROM runs r JOIN models m ON m.id = r.model_id WHERE r.id = ?", (run_id,)
    )
    if not row:
        raise UserError(f"run {run_id} has no model")
    card = run_card(ws, run_id)
    model = with_mode(row[0], card)  # schemas go as the run's card says, online or in files
    serving = batch_backends.serving_factory()
    if (
        serving is not None
    ):  # a batch export records, a batch import replays (engine.llm.endpoints.batch_backends)
        return serving(ws, run_id, model)
    schedule = recorded_schedule(card)
    try:
        return open_backend(model, **{**schedule, **options})
    except UserError as exc:  # its file gone or invalid, its API key missing: resumable
        raise ModelDidNotLoad(not_loaded_reason(row[0], exc)) from exc


def follow_run_schedule(ws: Workspace, run_id: int, backend: Backend) -> None:
    """A model loaded for one run decodes the model's next runs too: give the backend the
    refill ``run_id`` records (it decides the plan's groups; the loaded context does not
    depend on it), so each run is decoded with its own card's schedule. A backend that files
    what it sends or replays by run (a batch export or import) files the next run's requests
    under that run: several runs of one model may ask for the same item key."""
    follow = getattr(backend, "follow_run", None)
    if follow is not None:
        follow(run_id)
    card = run_card(ws, run_id)
    if hasattr(backend, "structured_output"):  # an endpoint: this run's way to send schemas
        backend.structured_output = run_mode(card)
    schedule = getattr(backend, "schedule", None)
    recorded = recorded_schedule(card)
    if schedule is None or recorded.get("n_seq") != schedule.n_seq:
        return
    refill = recorded.get("refill")
    if refill and refill != schedule.refill:
        use_refill(backend, refill)


def use_refill(backend: Backend, refill: int) -> None:
    """Decode the backend's next plan groups with ``refill`` (its loaded context stays)."""
    schedule = backend.schedule  # type: ignore[attr-defined]
    backend.schedule = dataclasses.replace(schedule, refill=refill)  # type: ignore[attr-defined]


def not_loaded_reason(model: dict, exc: BaseException) -> str:
    """What a step says of a model that did not load: its name and why (said once)."""
    named, why = f"model {model['name']!r}", str(exc)
    if why.startswith(f"{named} did not load: "):
        return why
    return f"{named} did not load: {why.removeprefix(named + ': ')}"
