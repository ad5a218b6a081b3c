"""The bounds a user sets on an endpoint: connect timeout, read timeout and retries, with
their defaults and the ranges allowed. ``models add`` and the Models panel store them in the
model's ``load_params`` under :attr:`EndpointLimit.key`; the registry checks them on every
write (:func:`checked_endpoint_limits`), so both front ends refuse the same values.

The upper ends keep a step bounded: a read timeout of an hour still ends a step against a
server that never answers after a few of them (the circuit breaker of
:mod:`engine.llm.endpoints.backend`), and more retries than the breaker allows are never used.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import Setting, UserError, setting
from engine.i18n import _

DEFAULT_CONNECT_TIMEOUT_S = 10.0
DEFAULT_READ_TIMEOUT_S = 60.0
DEFAULT_MAX_RETRIES = 4


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _plain(number) -> int | float:
    """300 rather than 300.0 (numbers stay numbers: a Bengali message shows its digits)."""
    return int(number) if float(number).is_integer() else number


@dataclass(frozen=True)
class EndpointLimit:
    """One bound: ``key`` in ``load_params``, the setting that names it, its default and
    its range (a timeout is more than ``low`` seconds; retries are a whole number from
    ``low``)."""

    key: str
    setting: Setting
    default: float
    low: float
    high: float
    whole: bool = False

    def problem(self, value: object) -> str | None:
        """Why ``value`` cannot be this bound, else None."""
        if self.whole:
            fits = _is_number(value) and isinstance(value, int)
            fits = fits and self.low <= value <= self.high  # type: ignore[operator]
            rule = _("a whole number from {low} to {high}")
        else:
            fits = _is_number(value) and self.low < value <= self.high  # type: ignore[operator]
            rule = _("more than {low} and at most {high} seconds")
        if fits:
            return None
        return _("{setting} must be {rule}, not {value}").format(
            setting=setting(self.setting),
            rule=rule.format(low=_plain(self.low), high=_plain(self.high)),
            value=_plain(value) if _is_number(value) else repr(value),
        )


CONNECT_TIMEOUT = EndpointLimit(
    "connect_timeout_s", Setting.CONNECT_TIMEOUT, DEFAULT_CONNECT_TIMEOUT_S, 0, 300
)
READ_TIMEOUT = EndpointLimit(
    "read_timeout_s", Setting.READ_TIMEOUT, DEFAULT_READ_TIMEOUT_S, 0, 3600
)
MAX_RETRIES = EndpointLimit(
    "max_retries", Setting.MAX_RETRIES, DEFAULT_MAX_RETRIES, 0, 20, whole=True
)
ENDPOINT_LIMITS = (CONNECT_TIMEOUT, READ_TIMEOUT, MAX_RETRIES)


def checked_endpoint_limits(load_params: dict) -> dict:
    """``load_params`` when every bound it holds is in range; a UserError naming the first
    that is not."""
    for limit in ENDPOINT_LIMITS:
        if limit.key in load_params:
            problem = limit.problem(load_params[limit.key])
            if problem is not None:
                raise UserError(problem)
    return load_params
