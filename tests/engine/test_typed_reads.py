"""The TypedDicts that mypy takes on trust (filled by a cast from ``dataclasses.asdict`` or a
``SELECT *``) name exactly the dataclass's fields or the table's columns, in order."""

from __future__ import annotations

import dataclasses

import pytest

from engine.bias.probes import ProbeReport, ProbeReportDict
from engine.importing.columns import ImportReport, ImportReportDict
from engine.llm.models.discovery import FoundModel, FoundModelDict
from engine.llm.models.gpu_plan import OffloadPlan, OffloadPlanDict
from engine.llm.models.registry import ModelRow

MIRRORS = [
    (ImportReport, ImportReportDict),
    (ProbeReport, ProbeReportDict),
    (OffloadPlan, OffloadPlanDict),
    (FoundModel, FoundModelDict),
]


@pytest.mark.parametrize(("cls", "typed"), MIRRORS, ids=[typed.__name__ for _cls, typed in MIRRORS])
def test_typed_dict_names_every_field_of_its_dataclass(cls, typed):
    assert list(typed.__annotations__) == [f.name for f in dataclasses.fields(cls)]


def test_model_row_names_every_column_of_models(workspace):
    columns = [r["name"] for r in workspace.query("PRAGMA table_info(models)")]
    assert list(ModelRow.__annotations__) == columns
