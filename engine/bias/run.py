"""Probing: every model answers every probe of the chosen sets, a resumable job per model
and set (``engine.llm.runs.jobs``; run kind ``probe``).

Items have stable keys ``p<probe id>.<order>``: the order shown ('xy' = group x's option
first) is drawn per probe from the card's seed, or both orders are asked under
counterbalancing (engine.bias.order). The run card records the set, seed, counterbalancing,
constrained decoding and sampler, so changing any of them makes a new run; ``limit`` (a
seeded sample stratified by category and subcategory, recorded in the stored card outside
the run key) is not in the key: a later call with a larger limit extends the same run (or opens a new one
where the larger limit would change a decoded batch: :func:`engine.llm.runs.run.open_run`).

Constrained decoding (a switch): the reply must be the JSON object {"answer": <one of
the two options as shown>}; the normaliser reads its answer. Off, the reply is free text.

An instruction (``resources/prompts/probe_instruction.txt`` or the user's file; its sha256
in the card) goes before every probe as a system message: answer with one option only.
Without it (``--no-instruction``) the paper's prompts are asked exactly as written.
"""

from __future__ import annotations

import functools
import hashlib
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from engine.bias.order import item_key, orders_for, render
from engine.errors import Setting, Step, UserError, setting, step
from engine.files.user_files import PROBE_INSTRUCTION, read_user_text
from engine.llm.runs.model_runs import PlannedRun, RunSummary, run_models
from engine.llm.runs.run import note_in_card
from engine.llm.types import CancelFn, Message, ProgressFn, Request, Sampler
from engine.stats.sample import sample_counts
from engine.stats.sample import stratified_order as seeded_order
from engine.workspace.store import Workspace

log = logging.getLogger(__name__)

PROBE_KIND = "probe"
# One-word answers; base models continue with invented turns, so stop there.
DEFAULT_SAMPLER = Sampler(temperature=0.0, max_tokens=24, stop=("\nUser:", "\nAssistant:"))


@dataclass(frozen=True)
class Instruction:
    text: str  # comments stripped
    sha256: str  # of the file as written
    source: str


def load_instruction(path: str | Path | None = None) -> Instruction:
    """The bundled probe instruction, or the user's file."""
    source = Path(path) if path else files("resources") / "prompts" / "probe_instruction.txt"
    raw = read_user_text(path, PROBE_INSTRUCTION) if path else source.read_text(encoding="utf-8")
    return parse_instruction(raw, str(source))


def parse_instruction(raw: str, source: str) -> Instruction:
    """An instruction file's text (``raw``, as read) without its comments; ``source`` names
    the file (the run card records its name)."""
    text = "\n".join(ln for ln in raw.splitlines() if not ln.lstrip().startswith("#")).strip()
    if not text:
        raise UserError(f"{source}: the probe instruction is empty")
    return Instruction(text, hashlib.sha256(raw.encode("utf-8")).hexdigest(), source)


@dataclass(frozen=True)
class ProbeOptions:
    seed: int = 0
    counterbalance: bool = False
    constrained: bool = False
    sampler: Sampler = DEFAULT_SAMPLER
    # a system message before every probe (one shared prefix); None asks the bare probe
    instruction: Instruction | None = None

    def card(self, probe_set: dict) -> dict:
        ins = self.instruction
        return {
            "task": "probe",
            "instruction": (
                {"sha256": ins.sha256, "source": Path(ins.source).name} if ins else None
            ),
            "probe_set": probe_set["name"],
            "topic": probe_set["topic"],
            "groups": [probe_set["group_x"], probe_set["group_y"]],
            "order": {"seed": self.seed, "counterbalance": self.counterbalance},
            "constrained": self.constrained,
            "sampler": self.sampler.as_dict(),
            "chat": "user message",
        }


def probe_sets(ws: Workspace, names: list[str] | None) -> list[dict]:
    rows = ws.query("SELECT * FROM probe_sets ORDER BY id")
    if not rows:
        raise UserError(
            f"no probe sets yet: {step(Step.IMPORT_PROBES)} or {step(Step.GENERATE_PROBES)}"
        )
    if not names:
        return rows
    by_name = {r["name"]: r for r in rows}
    unknown = [n for n in names if n not in by_name]
    if unknown:
        raise UserError(f"no probe set {unknown[0]!r} (known: {', '.join(by_name)})")
    return [by_name[n] for n in names]


def drawn_probes(ws: Workspace, probe_set: dict, seed: int, limit: int | None) -> list:
    """The set's probes, or with ``limit`` a seeded sample stratified by category and
    subcategory (the groups bias-stats reports), as run-task draws: never the file's first
    rows, and a larger limit takes a superset (the run is extended)."""
    probes = ws.query("SELECT * FROM probe_items WHERE set_id = ? ORDER BY id", (probe_set["id"],))
    if limit is None:
        return probes
    drawn = seeded_order(
        probes,
        seed,
        lambda p: p["ext_id"],  # a probe and its dialect renderings draw alike
        lambda p: f"{p['category']}\x1f{p['subcategory']}",
    )[:limit]
    return sorted(drawn, key=lambda p: p["id"])


def probe_sample(probes: list, limit: int | None, seed: int) -> dict:
    """What the run card records of a ``limit`` sample: seed, strata and counts."""
    return {
        "limit": limit,
        "seed": seed,
        "strata": "category x subcategory",
        "counts": sample_counts(probes, lambda p: (p["category"], p["subcategory"])),
    }


def probe_requests(
    ws: Workspace, probe_set: dict, options: ProbeOptions, limit: int | None = None
) -> list[Request]:
    requests = []
    for p in drawn_probes(ws, probe_set, options.seed, limit):
        for order in orders_for(
            options.seed, probe_set["name"], p["ext_id"], options.counterbalance
        ):
            shown = (
                (p["option_x"], p["option_y"]) if order == "xy" else (p["option_y"], p["option_x"])
            )
            schema = (
                {
                    "type": "object",
                    "properties": {"answer": {"type": "string", "enum": list(shown)}},
                    "required": ["answer"],
                }
                if options.constrained
                else None
            )
            text = render(p["stem"], p["option_x"], p["option_y"], order)
            messages: tuple[Message, ...] = (Message("user", text),)
            if options.instruction:
                messages = (Message("system", options.instruction.text), *messages)
            requests.append(
                Request(
                    key=item_key(p["id"], order),
                    messages=messages,
                    sampler=options.sampler,
                    json_schema=schema,
                )
            )
    return requests


def _note_sample(ws: Workspace, run_id: int, *, sample: dict) -> None:
    note_in_card(ws, run_id, "sample", sample)


def run_probes(
    ws: Workspace,
    model_rows: list[dict],
    set_names: list[str] | None = None,
    *,
    options: ProbeOptions = ProbeOptions(),
    limit: int | None = None,
    schedule: dict | None = None,
    backend_factory=None,
    batch_size: int = 16,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
) -> list[RunSummary]:
    """Run (or resume) one probe run per model × set; one summary each. One local model is
    loaded at a time and serves all sets."""
    if limit is not None and limit < 1:
        raise UserError(f"{setting(Setting.LIMIT)} must be at least 1")
    sets = probe_sets(ws, set_names)

    def plan(model: dict) -> Iterator[PlannedRun]:
        for probe_set in sets:
            card = options.card(probe_set)
            if schedule:
                card["schedule"] = schedule
            sample = probe_sample(
                drawn_probes(ws, probe_set, options.seed, limit), limit, options.seed
            )
            yield PlannedRun(
                PROBE_KIND,
                card,
                probe_requests(ws, probe_set, options, limit),
                label=f"/ {probe_set['name']}",
                summary={"probe_set": probe_set["name"]},
                # the sample goes into the stored card, outside the run key: a larger limit
                # still extends the same run
                before_job=functools.partial(_note_sample, ws, sample=sample) if limit else None,
            )

    return run_models(
        ws,
        model_rows,
        plan,
        backend_factory=backend_factory,
        batch_size=batch_size,
        progress=progress,
        cancelled=cancelled,
    )
