"""The study stages' front ends, in one ordered list: ``STAGES``.

Each entry pairs a stage's command-line modules (``app/cli/<stage>.py``: ``COMMANDS`` and
``IMPORTS``, each a list of ``(place, register)``) with its widgets package
(``widgets/<stage>/__init__.py``: ``PANELS``, ``IMPORT_PAGES`` and ``STUDY_ENTRIES``,
widgets.common.stage_parts). The CLI's parser, the main window's tabs and menus and the
import dialog iterate it; nothing else names a stage's commands, panels or menu entries. The
widgets package is named, not imported: the command line never loads Qt (.importlinter),
and the window imports it when a workspace opens. The list runs bottom-up through the
engine's levels (tests/app/test_stage_registry.py); ``place`` orders the listings, so a stage
can put a command or a tab where readers expect it. ``smoke`` names the stage's own steps of
``upabhasha-gui --smoke-test`` (app.smoke_pipeline): ``(name, "module:function")``, each
``function(ws, model) -> dict``, named by a string so the command line loads none of them.
The engine side of a stage (its tables, change topics, model steps, report sections and
labelled codes) is engine/workspace/stages.py; docs/design.md, "A study stage is one unit",
says what a new study adds.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

from app.cli import (
    annotation,
    answering,
    baseline,
    batch,
    bias,
    demo,
    importing,
    judging,
    llm,
    probing,
    rag,
    reports,
    translation,
    understanding,
    validity,
    workspace,
)


@dataclass(frozen=True)
class Stage:
    name: str  # the engine stage (engine/<name>)
    cli: tuple[ModuleType, ...] = ()
    widgets: str | None = None  # the widgets package's dotted name
    smoke: tuple[tuple[str, str], ...] = ()  # (step name, "module:function")


STAGES: list[Stage] = [
    Stage("workspace", (workspace,)),
    Stage("llm", (llm, batch), "widgets.llm"),
    Stage("rag", (rag,)),
    Stage("importing", (importing,)),
    Stage("answering", (answering,), "widgets.answering"),
    Stage("translation", (translation, baseline), "widgets.translation"),
    Stage(
        "understanding",
        (understanding,),
        "widgets.understanding",
        smoke=(("task", "app.smoke_pipeline:task_run"),),
    ),
    Stage(
        "bias", (bias, probing), "widgets.bias", smoke=(("probe", "app.smoke_pipeline:probe_run"),)
    ),
    Stage("judging", (judging,), "widgets.judging"),
    Stage("reports", (reports,), "widgets.reports"),
    Stage("annotation", (annotation,), "widgets.annotation"),
    Stage("validity", (validity,), "widgets.validity"),
    Stage("samples", (demo,)),
]


def _placed(attribute: str) -> list[Callable]:
    entries = [
        (place, register)
        for stage in STAGES
        for module in stage.cli
        for place, register in getattr(module, attribute, [])
    ]
    places = [place for place, _register in entries]
    if len(places) != len(set(places)):
        raise ValueError(f"two {attribute} share a place: {sorted(places)}")
    return [register for _place, register in sorted(entries, key=lambda e: e[0])]


def commands() -> list[Callable]:
    """Every stage's ``register(subparsers)``, in the order ``upabhasha --help`` lists them."""
    return _placed("COMMANDS")


def imports() -> list[Callable]:
    """Every stage's ``register_import(subparsers)`` for ``upabhasha import WHAT``."""
    return _placed("IMPORTS")


def smoke_steps() -> list[tuple[str, Callable]]:
    """Every stage's own smoke-test steps, in stage order, each imported now."""
    steps = []
    for stage in STAGES:
        for name, path in stage.smoke:
            module, _sep, function = path.partition(":")
            steps.append((name, getattr(importlib.import_module(module), function)))
    return steps
