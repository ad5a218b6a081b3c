"""The two model jobs of the held-out evaluation (engine.translation.evaluate): the held-out
pairs translated (run kind ``translate-eval``, item key ``pair<id>``) and the translations
judged for fidelity (run kind ``translation-judge``).

A model that does not load is reported, not raised, as in engine.llm.runs.model_runs: what an
earlier call finished stays, a run that holds nothing is removed, and the caller counts
what is left (the step is incomplete; the CLI exits 3).
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass

from engine.llm.runs.backend import not_loaded_reason
from engine.llm.runs.jobs import run_job_on_model
from engine.llm.runs.responses import finished_responses
from engine.llm.runs.run import open_run
from engine.llm.runtime.worker import ModelDidNotLoad
from engine.translation import fidelity_judge as judge_mod
from engine.translation.translate import build_request, run_card, sampler_for, template_for
from engine.workspace.store import Workspace

log = logging.getLogger(__name__)


@dataclass
class ModelJob:
    """One job of :func:`translate_pairs` or :func:`judge_translations`: its run (None when
    the model did not load and nothing was ever stored), the finished response rows by item
    key, and the reason when its model did not load."""

    run_id: int | None
    done: dict[str, dict]
    load_error: str | None = None
    last_error: str | None = None  # why the last failed item failed


def _run_model_job(
    ws: Workspace,
    kind: str,
    model_row: dict,
    card: dict,
    requests: list,
    *,
    batch_size: int = 16,
    **job_options,
) -> ModelJob:
    """Open (or resume) the run and run its job; a model that does not load is reported."""
    run_id = open_run(ws, kind, model_row, card)
    load_error = last_error = None
    try:
        job = run_job_on_model(ws, run_id, requests, batch_size=batch_size, **job_options)
        last_error = job.last_error or None
    except ModelDidNotLoad as exc:
        load_error = not_loaded_reason(model_row, exc)
        log.error("%s", load_error)
    done = finished_responses(ws, run_id)
    kept = ws.scalar("SELECT 1 FROM runs WHERE id = ?", (run_id,))  # or removed, empty
    return ModelJob(run_id if kept else None, done, load_error, last_error)


def translate_pairs(
    ws: Workspace,
    retriever,
    pairs: list[dict],
    *,
    model_row: dict,
    **job_options,
) -> tuple[ModelJob, dict[int, dict]]:
    """Translate held-out pairs; returns (the job, {pair id: finished response row}).
    ``job_options``: of engine.llm.runs.jobs.run_job (backend, batch_size, progress, cancelled)."""
    cancelled = job_options.get("cancelled")
    names = ws.dialect_names()
    template, sampler = template_for(model_row), sampler_for(model_row)
    explanations = retriever.retrieve_many(
        [(p["standard_text"], p["dialect"], p["district"]) for p in pairs], cancelled=cancelled
    )
    requests = [
        build_request(
            f"pair{p['id']}", p["standard_text"], ex, names[p["dialect"]], template, sampler
        )
        for p, ex in zip(pairs, explanations)
    ]
    card = {
        **run_card(template, sampler, retriever, "translate-eval"),
        "pairs": [p["id"] for p in pairs],
    }
    job = _run_model_job(ws, "translate-eval", model_row, card, requests, **job_options)
    return job, {int(key[4:]): row for key, row in job.done.items()}


def judge_translations(
    ws: Workspace,
    items: list[dict],
    *,
    judge_row: dict,
    translate_run: int | None,
    **job_options,
) -> tuple[ModelJob, dict[int, judge_mod.JudgeVerdict | None]]:
    """Judge scores per pair id of every item the judge replied to (None: the reply was not
    a valid verdict); an item without a reply (its model refused or did not load) is left
    out."""
    names = ws.dialect_names()
    template = judge_mod.load_template()
    chat = bool(judge_row.get("has_chat_template"))
    requests = [
        judge_mod.build_judge_request(
            f"pair{it['pair']['id']}",
            template=template,
            dialect=names[it["pair"]["dialect"]],
            source=it["pair"]["standard_text"],
            reference=it["pair"]["dialect_text"],
            candidate=it["hyp"],
            chat=chat,
        )
        for it in items
    ]

    card = {
        "task": "translation-judge",
        "translate_run": translate_run,
        "prompt_template": judge_mod.JUDGE_TEMPLATE,
        "prompt_sha256": hashlib.sha256(template.encode()).hexdigest(),
        "sampler": judge_mod.JUDGE_SAMPLER.as_dict(),
        "schema": judge_mod.SCHEMA,
    }
    job = _run_model_job(ws, "translation-judge", judge_row, card, requests, **job_options)
    return job, {
        int(key[4:]): judge_mod.parse_verdict(row["text"]) for key, row in job.done.items()
    }
