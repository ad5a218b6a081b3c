"""Every statistic's settings: built with its defaults, refused with a message naming the
statistic and the field when a value is out of range (whatever front end built it)."""

from __future__ import annotations

import dataclasses

import pytest

from engine.annotation.settings import AgreementSettings, PPISettings
from engine.bias.stats import BiasStatsSettings
from engine.errors import UserError
from engine.reports.settings import StudyStatsSettings
from engine.understanding.stats import TaskStatsSettings

BAD = [
    (BiasStatsSettings, "zero_rule", "none", "bias statistics: zero_rule must be one of limit, haldane"),
    (BiasStatsSettings, "resamples", 0, "bias statistics: resamples must be a whole number from 1 to 100000"),
    (TaskStatsSettings, "resamples", 10**8, "task statistics: resamples must be a whole number from 1 to 100000"),
    (AgreementSettings, "seed", 2**63, "seed must be a whole number from 0 to"),
    (BiasStatsSettings, "resamples", 2000.0, "resamples must be a whole number"),
    (BiasStatsSettings, "seed", -1, "seed must be a whole number from 0 to"),
    (BiasStatsSettings, "level", 1.0, "level must be a number between 0 and 1"),
    (TaskStatsSettings, "resamples", True, "task statistics: resamples must be a whole number"),
    (TaskStatsSettings, "level", float("nan"), "level must be a number between 0 and 1"),
    (AgreementSettings, "seed", "1", "agreement: seed must be a whole number"),
    (PPISettings, "alpha", 0, "prediction-powered estimates: alpha must be a number between 0 and 1"),
    (PPISettings, "width", -1.0, "width must be a number above 0"),
    (StudyStatsSettings, "resamples", -5, "study statistics: resamples must be a whole number"),
]  # fmt: skip


@pytest.mark.parametrize(("cls", "field", "value", "message"), BAD)
def test_a_bad_value_is_refused_naming_the_statistic_and_the_field(cls, field, value, message):
    with pytest.raises(UserError) as refused:
        cls(**{field: value})
    assert message in str(refused.value)


@pytest.mark.parametrize(
    "cls",
    [BiasStatsSettings, TaskStatsSettings, AgreementSettings, PPISettings, StudyStatsSettings],
)
def test_defaults_are_frozen_and_given_keeps_what_was_not_given(cls):
    default = cls()
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(default, dataclasses.fields(cls)[0].name, None)
    assert cls.given(**{f.name: None for f in dataclasses.fields(cls)}) == default
    assert cls(**default.as_dict()) == default
