"""The batch schedule a kind of job uses on a model and a machine: slot refill or whole groups.

Slot refill (plan groups of ``n_seq * refill`` items whose freed slots take the group's next
item) and whole groups (``refill`` 1: groups of ``n_seq`` decoded whole) decode the same items
at different speeds, and which one wins depends on the model, on the job's shape (how much
its output lengths vary) and on the machine (its kernels, its load): on one CPU whole groups
have won for answers where refill won for one-word probes. So a job that calibrates
(:mod:`engine.llm.planning.planner`) also times the candidates on its own sample, and a fresh run
takes the faster one (:func:`engine.llm.runs.jobs.run_job`). A refill the user set (in the
model's load parameters or the job's schedule) is never overridden.

**Where the choice is remembered**: in the workspace, table ``llm_schedule_choices`` (the llm
stage's own track), keyed by the job's kind, the model's identity, ``n_seq`` and the machine
(:func:`machine`: CPU model, threads, GPU layers); not in the user's config, because

- the workspace is what reproduces: everything that decides a run's bytes (its card, its plan
  groups) lives there, and the next run of the same kind opens the key the choice gives
  (:func:`engine.llm.runs.run.open_run`) without deciding again;
- a fresh workspace starts from the default schedule, so what other studies did on this
  machine never changes its bytes;
- a workspace taken to another machine decides again there (another machine, another key),
  while its runs resume with the schedule their cards record (``open_run`` finds a run
  under any candidate refill);
- the engine reads no front end's settings.

The kind is in the key because the job's shape decides (probes and answers chose
differently on the same machine). A job too small to calibrate uses the remembered choice,
else the default.
"""

from __future__ import annotations

import json
import platform
from functools import cache

from engine.llm.models.settings import Schedule
from engine.workspace.store import Workspace, utcnow

# what a calibration compares: the default (slot refill) first, then whole groups
CANDIDATE_REFILLS = (Schedule().refill, 1)


@cache
def cpu_name() -> str:
    """The CPU's model name (``/proc/cpuinfo`` on Linux), else what the platform says."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine(schedule: dict, options: dict) -> dict:
    """What decides a schedule's speed besides model and job: this CPU, the run's threads
    and how many layers run on a GPU (``options``: the model's load options)."""
    return {
        "cpu": cpu_name(),
        "threads": schedule.get("n_threads"),
        "n_gpu_layers": int(options.get("n_gpu_layers") or 0),
    }


def _machine_key(machine_: dict) -> str:
    return json.dumps(machine_, sort_keys=True, separators=(",", ":"))


def remembered(ws: Workspace, kind: str, model: str, n_seq: int, machine_: dict) -> dict | None:
    """The choice made for (kind, model identity, n_seq, machine): refill and timings."""
    rows = ws.query(
        "SELECT refill, timings, chosen_at FROM llm_schedule_choices "
        "WHERE kind = ? AND model = ? AND n_seq = ? AND machine = ?",
        (kind, model, n_seq, _machine_key(machine_)),
    )
    if not rows:
        return None
    row = rows[0]
    return {"refill": row["refill"], "timings": json.loads(row["timings"]), "at": row["chosen_at"]}


def remember(
    ws: Workspace,
    kind: str,
    model: str,
    n_seq: int,
    machine_: dict,
    refill: int,
    timings: dict,
) -> None:
    """Keep the choice for the next run of (kind, model, n_seq, machine); the first one
    stays (a run opened meanwhile already used it)."""
    with ws.transaction() as conn:
        conn.execute(
            "INSERT INTO llm_schedule_choices"
            "(kind, model, n_seq, machine, refill, timings, chosen_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (
                kind,
                model,
                n_seq,
                _machine_key(machine_),
                refill,
                json.dumps(timings, sort_keys=True),
                utcnow(),
            ),
        )
