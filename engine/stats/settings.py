"""The base of every statistic's settings: a frozen dataclass whose defaults are the one
place a front end reads them from, checked when built.

A stage declares its statistic's settings as a subclass (``BiasStatsSettings``,
``TaskStatsSettings``, …) with each field's default written once; the CLI's options and the
panels' background reads both build it, so the same study shows the same intervals in both.
A bad value raises :class:`engine.errors.UserError` naming the statistic and the field.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, ClassVar, Self

from engine.errors import UserError
from engine.i18n import N_, _

# bootstrap resamples (1,000 is usual; the bound refuses a slip of the finger, which would
# otherwise run for days) and seeds (stored as SQLite integers)
MAX_RESAMPLES = 100_000
MAX_SEED = 2**63 - 1


@dataclasses.dataclass(frozen=True)
class StatSettings:
    """Settings of one statistic. Subclasses are frozen dataclasses that call the checks
    below from ``__post_init__``; ``WHAT`` names the statistic in error messages."""

    WHAT: ClassVar[str] = N_("statistics")

    @classmethod
    def given(cls, **values: Any) -> Self:
        """The defaults with the values a front end was given (None: not given)."""
        return cls(**{k: v for k, v in values.items() if v is not None})

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)

    # -- checks, each naming the field -------------------------------------------------------
    def _fail(self, field: str, rule: str, value: object) -> None:
        raise UserError(
            _("{what}: {field} must be {rule}, not {value!r}").format(
                what=_(self.WHAT), field=field, rule=rule, value=value
            )
        )

    def check_whole(self, field: str, *, at_least: int, at_most: int) -> None:
        value = getattr(self, field)
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not at_least <= value <= at_most
        ):
            rule = _("a whole number from {low} to {high}").format(low=at_least, high=at_most)
            self._fail(field, rule, value)

    def check_resamples(self, field: str = "resamples") -> None:
        self.check_whole(field, at_least=1, at_most=MAX_RESAMPLES)

    def check_seed(self, field: str = "seed") -> None:
        self.check_whole(field, at_least=0, at_most=MAX_SEED)

    def check_between(self, field: str, low: float, high: float) -> None:
        """``low < value < high`` (both open)."""
        value = getattr(self, field)
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not math.isfinite(value)
            or not low < value < high
        ):
            self._fail(
                field, _("a number between {low:g} and {high:g}").format(low=low, high=high), value
            )

    def check_positive(self, field: str) -> None:
        value = getattr(self, field)
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not math.isfinite(value)
            or value <= 0
        ):
            self._fail(field, _("a number above 0"), value)

    def check_choice(self, field: str, choices: tuple[str, ...]) -> None:
        value = getattr(self, field)
        if value not in choices:
            self._fail(field, _("one of {choices}").format(choices=", ".join(choices)), value)
