"""The study stages a workspace knows, in order: what each declares, once.

Each stage declares its pieces as pure data in ``engine/<stage>/schema.py``, a leaf module
that imports nothing (tests/engine/workspace/test_stages.py), so reading the declarations
loads none of a stage's code. For the workspace's schema:

- ``RELEASED``: its statements of the released migrations, keyed by the schema version that
  introduced them; a version's migration is the shared tables' statements
  (engine.workspace.schema) and then every stage's, in stage order (:func:`migrations`);
- ``TOPICS``: change topic -> SQL expressions whose values together are the topic's stamp
  (engine.workspace.changes);
- ``RUN_HOLDERS`` (optional): queries, each taking a run id, that find a row of the stage's
  own tables pointing at the run; such a run is never dropped as empty
  (engine.llm.runs.run.discard_if_empty), though it stored no response;
- ``LABELS`` (optional): kind -> the stored codes of that kind a person sees, each shown
  through ``_()`` with the code as its English name (widgets.common.labels); a kind two
  stages declare has the codes of both;
- ``TRACK`` (optional): the stage's own migration track, a list of statement lists
  numbered from 1. The shared history (engine.workspace.schema, ``PRAGMA user_version``) is
  released and stays as it is; a stage added later keeps its tables here, and
  ``stage_versions`` records how far its track has run, so it is created in a new workspace
  and in an existing one alike.

For the steps and the report, each naming code as ``"module:attribute"`` (a string, so the
declaration stays data; the layer that uses it loads it with :func:`load`):

- ``REQUESTS`` (optional): step name -> its request class (an
  :class:`engine.llm.runs.step_request.StepRequest`), the model steps a batch file can carry
  and every front end runs (engine.steps.kinds);
- ``REPORT_SECTIONS`` (optional): functions ``(ws, settings) -> list of parts`` (``stem``,
  ``title``, ``rows``, ``n_labels``, ``figure``), the stage's sections of the HTML report
  (engine.reports.html_report); ``settings`` has the study's ``seed``, ``resamples``, ``level``.

A new study adds its own package, its entry below, and its front ends' entry in
app/cli/registry.py (docs/design.md, "A study stage is one unit"). ``STAGES`` is read when a workspace
opens, when a tracker starts, when a request is read back and when a report is written, so a
test may extend it.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

# the one place the bottom layer reads the stages above it: their leaf data modules only
# (.importlinter, engine-stages: ignore_imports)
from engine.annotation import schema as annotation
from engine.answering import schema as answering
from engine.bias import schema as bias
from engine.judging import schema as judging
from engine.llm import schema as llm
from engine.translation import schema as translation
from engine.understanding import schema as understanding
from engine.validity import schema as validity
from engine.workspace import schema as shared


@dataclass(frozen=True)
class StageSchema:
    name: str
    topics: dict[str, tuple[str, ...]] = field(default_factory=dict)
    migrations: list[list[str]] = field(default_factory=list)
    released: dict[int, list[str]] = field(default_factory=dict)
    run_holders: tuple[str, ...] = ()
    requests: dict[str, str] = field(default_factory=dict)  # step -> "module:class"
    report_sections: tuple[str, ...] = ()  # "module:function"
    labels: dict[str, tuple[str, ...]] = field(default_factory=dict)  # kind -> codes

    @classmethod
    def of(cls, name: str, module: ModuleType) -> StageSchema:
        return cls(
            name,
            dict(getattr(module, "TOPICS", {})),
            list(getattr(module, "TRACK", [])),
            dict(getattr(module, "RELEASED", {})),
            tuple(getattr(module, "RUN_HOLDERS", ())),
            dict(getattr(module, "REQUESTS", {})),
            tuple(getattr(module, "REPORT_SECTIONS", ())),
            {k: tuple(v) for k, v in getattr(module, "LABELS", {}).items()},
        )


# bottom-up through the engine's levels, as app/cli/registry.py's list of front ends
# (tests/app/test_stage_registry.py)
STAGES: list[StageSchema] = [
    StageSchema.of("workspace", shared),
    StageSchema.of("llm", llm),
    StageSchema.of("answering", answering),
    StageSchema.of("translation", translation),
    StageSchema.of("understanding", understanding),
    StageSchema.of("bias", bias),
    StageSchema.of("judging", judging),
    StageSchema.of("annotation", annotation),
    StageSchema.of("validity", validity),
]


def migrations() -> list[list[str]]:
    """``[i]`` brings a workspace from schema ``i`` to ``i + 1`` (``PRAGMA user_version``)."""
    versions = range(1, shared.SCHEMA_VERSION + 1)
    unknown = {v for stage in STAGES for v in stage.released} - set(versions)
    if unknown:  # a new statement belongs to a new shared version or to the stage's TRACK
        raise ValueError(f"statements for unreleased schema versions: {sorted(unknown)}")
    return [[s for stage in STAGES for s in stage.released.get(v, [])] for v in versions]


def stamps() -> dict[str, tuple[str, ...]]:
    """Every stage's change topics, in stage order."""
    out: dict[str, tuple[str, ...]] = {}
    for stage in STAGES:
        clash = out.keys() & stage.topics.keys()
        if clash:
            raise ValueError(f"stage {stage.name} declares topics another has: {sorted(clash)}")
        out.update(stage.topics)
    return out


def topics() -> tuple[str, ...]:
    return tuple(stamps())


def tracks() -> list[StageSchema]:
    """The stages with a migration track of their own, in stage order."""
    return [stage for stage in STAGES if stage.migrations]


def run_holders() -> tuple[str, ...]:
    """Every stage's queries for rows that keep a run, in stage order."""
    return tuple(query for stage in STAGES for query in stage.run_holders)


def requests() -> dict[str, str]:
    """Every stage's model steps: step name -> ``"module:class"``, in stage order."""
    out: dict[str, str] = {}
    for stage in STAGES:
        clash = out.keys() & stage.requests.keys()
        if clash:
            raise ValueError(f"stage {stage.name} declares steps another has: {sorted(clash)}")
        out.update(stage.requests)
    return out


def model_steps() -> tuple[str, ...]:
    """The model steps' names (a batch file can carry each), read without loading them."""
    return tuple(requests())


def report_sections() -> tuple[str, ...]:
    """Every stage's report sections (``"module:function"``), in stage order."""
    return tuple(path for stage in STAGES for path in stage.report_sections)


def labelled_codes() -> dict[str, tuple[str, ...]]:
    """Every stage's stored codes a person sees, by kind (a kind's codes in stage order)."""
    out: dict[str, tuple[str, ...]] = {}
    for stage in STAGES:
        for kind, codes in stage.labels.items():
            out[kind] = tuple(dict.fromkeys((*out.get(kind, ()), *codes)))
    return out


def load(path: str) -> Any:
    """What a declaration names (``"package.module:attribute"``), imported now: by the layer
    that uses it, never when the declarations are read."""
    module, _sep, attribute = path.partition(":")
    return getattr(importlib.import_module(module), attribute)
