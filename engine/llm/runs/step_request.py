"""A model step as data: one immutable, validated request that every front end builds.

The CLI parses its options into a request, a dialog fills one from its fields, a batch file
carries one as JSON; all run it through the same engine function (:meth:`StepRequest.run`),
so the same study gives the same rows from any of them. Each step's defaults are defined
once, on its request's fields. A bad value raises :class:`RequestError` naming the field as
an engine :class:`~engine.errors.Setting`, which each front end words its own way.

The JSON form is ``{"step", "version", "fields"}``; :meth:`StepRequest.digest` hashes its
canonical text, so two requests with the same values have the same digest wherever built.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, TypeVar

from engine.errors import Setting, UserError, setting
from engine.i18n import _
from engine.llm.types import CancelFn, ProgressFn
from engine.text.text_rules import MAX_NAME_CHARS, ascii_safe, folded_name, name_problem
from engine.workspace.store import Workspace

# generous bounds: a request is small, and its values come from users and from files
MAX_NAMES = 1000
MAX_COUNT = 1_000_000_000
MAX_TOKENS = 1_000_000
MAX_TEXT_CHARS = 1_000_000
MAX_N_SEQ = 4096
MAX_REFILL = 1000

R = TypeVar("R", bound="StepRequest")


class RequestError(UserError):
    """A request value that cannot be used; ``setting`` names the field."""

    def __init__(self, name: Setting, message: str):
        super().__init__(f"{setting(name)}: {message}")
        self.setting = name


Check = Callable[[Any, Setting], Any]


def _whole(value: Any, name: Setting, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(name, _("a whole number is needed, not {value!r}").format(value=value))
    if not low <= value <= high:
        raise RequestError(
            name,
            _("must be from {low} to {high}, not {value}").format(low=low, high=high, value=value),
        )
    return value


def _name(value: Any, name: Setting) -> str:
    """A name (of a model, a dialect, a set): printable, one line, of bounded length."""
    if not isinstance(value, str) or not value.strip():
        raise RequestError(name, _("an empty name is not a name"))
    if len(value) > MAX_NAME_CHARS:
        raise RequestError(name, _("a name of more than {n} characters").format(n=MAX_NAME_CHARS))
    folded = folded_name(value)
    problem = name_problem(folded)
    if problem is not None:
        raise RequestError(name, f"{ascii_safe(value)} {problem}")
    return folded


def whole_field(name: Setting, default: int, low: int = 0, high: int = MAX_COUNT) -> Any:
    """A whole number from ``low`` to ``high``."""
    return dataclasses.field(
        default=default, metadata={"setting": name, "check": lambda v, n: _whole(v, n, low, high)}
    )


def count_field(name: Setting, default: int, high: int = MAX_COUNT) -> Any:
    """A whole number from 1 to ``high``."""
    return whole_field(name, default, 1, high)


def optional_count_field(name: Setting, high: int = MAX_COUNT) -> Any:
    """A whole number from 1 to ``high``, or None (no bound)."""
    return dataclasses.field(
        default=None,
        metadata={
            "setting": name,
            "check": lambda v, n: None if v is None else _whole(v, n, 1, high),
        },
    )


def n_seq_field() -> Any:
    """Local models: how many sequences are decoded together (None: the model's own)."""
    return optional_count_field(Setting.N_SEQ, MAX_N_SEQ)


def refill_field() -> Any:
    """Local models: groups of ``n_seq`` items planned at once (None: the calibrated choice)."""
    return optional_count_field(Setting.REFILL, MAX_REFILL)


def names_field(name: Setting, default: tuple[str, ...] = ()) -> Any:
    """A tuple of distinct names in the order given; () means the step's own choice."""

    def check(value: Any, setting_name: Setting) -> tuple[str, ...]:
        if isinstance(value, str) or not isinstance(value, Sequence):
            raise RequestError(setting_name, _("a list of names is needed"))
        if len(value) > MAX_NAMES:
            raise RequestError(setting_name, _("more than {n} names").format(n=MAX_NAMES))
        return tuple(dict.fromkeys(_name(v, setting_name) for v in value))

    return dataclasses.field(default=default, metadata={"setting": name, "check": check})


def optional_name_field(name: Setting) -> Any:
    return dataclasses.field(
        default=None,
        metadata={"setting": name, "check": lambda v, n: None if v is None else _name(v, n)},
    )


def optional_text_field(name: Setting) -> Any:
    """Text carried whole (a prompt template, a folder path): bounded, not empty."""

    def check(value: Any, setting_name: Setting) -> str | None:
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            raise RequestError(setting_name, _("an empty value is not a value"))
        if len(value) > MAX_TEXT_CHARS or "\0" in value:
            raise RequestError(setting_name, _("the value is too long or holds NUL characters"))
        return value

    return dataclasses.field(default=None, metadata={"setting": name, "check": check})


def flag_field(name: Setting, default: bool = False) -> Any:
    def check(value: Any, setting_name: Setting) -> bool:
        if not isinstance(value, bool):
            raise RequestError(
                setting_name, _("yes or no is needed, not {value!r}").format(value=value)
            )
        return value

    return dataclasses.field(default=default, metadata={"setting": name, "check": check})


class StepRequest:
    """Base of every step's request: a frozen dataclass whose fields carry their setting and
    check (the ``*_field`` helpers above). Subclasses set :attr:`STEP` and :attr:`VERSION`
    and implement :meth:`run`; :meth:`upgrade` reads an older version's fields."""

    STEP: ClassVar[str]
    VERSION: ClassVar[int] = 1

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):  # type: ignore[arg-type]  # subclasses are dataclasses
            check = f.metadata.get("check")
            if check is not None:
                object.__setattr__(
                    self, f.name, check(getattr(self, f.name), f.metadata["setting"])
                )
        self.validate()

    def validate(self) -> None:
        """Checks across fields (one field's own are on the field)."""

    @property
    def schedule(self) -> dict | None:
        """The batch schedule asked for (``n_seq_field``, ``refill_field``; None: each
        model's own)."""
        schedule = {key: getattr(self, key, None) for key in ("n_seq", "refill")}
        return {k: v for k, v in schedule.items() if v} or None

    # -- running ---------------------------------------------------------------------------
    def run(
        self,
        ws: Workspace,
        *,
        progress: ProgressFn | None = None,
        cancelled: CancelFn | None = None,
    ) -> Any:
        raise NotImplementedError

    # -- data ------------------------------------------------------------------------------
    def as_json(self) -> dict:
        values = {
            f.name: list(v) if isinstance(v := getattr(self, f.name), tuple) else v
            for f in dataclasses.fields(self)  # type: ignore[arg-type]
        }
        return {"step": self.STEP, "version": self.VERSION, "fields": values}

    def canonical_text(self) -> str:
        return json.dumps(self.as_json(), ensure_ascii=False, sort_keys=True, separators=(",", ":"))

    def digest(self) -> str:
        """The same values, the same digest (the step and its version included)."""
        return hashlib.sha256(self.canonical_text().encode("utf-8")).hexdigest()

    @classmethod
    def upgrade(cls, fields: dict, version: int) -> dict:
        """``fields`` of an older ``version`` as this version's (none older yet)."""
        return fields

    @classmethod
    def from_json(cls: type[R], data: object) -> R:
        """The request ``data`` holds (:meth:`as_json`'s form); every value checked."""
        if not isinstance(data, dict) or data.get("step") != cls.STEP:
            raise UserError(_("not a request of the step {step}").format(step=cls.STEP))
        version, fields = data.get("version"), data.get("fields")
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise UserError(_("a request without a valid version"))
        if version > cls.VERSION:
            raise UserError(
                _(
                    "this request of the step {step} was written by a newer version of "
                    "Upabhasha (request version {version}; this one reads up to {known})"
                ).format(step=cls.STEP, version=version, known=cls.VERSION)
            )
        if not isinstance(fields, dict):
            raise UserError(_("a request without fields"))
        fields = cls.upgrade(dict(fields), version)
        known = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        unknown = sorted(set(fields) - known)
        if unknown:
            raise UserError(
                _("unknown fields in a request of the step {step}: {names}").format(
                    step=cls.STEP, names=", ".join(map(repr, unknown[:5]))
                )
            )
        return cls(**fields)


def request_from_json(kinds: Sequence[type[StepRequest]], data: object) -> StepRequest:
    """The request ``data`` holds, of one of ``kinds`` (by its step name)."""
    step_name = data.get("step") if isinstance(data, dict) else None
    for kind in kinds:
        if kind.STEP == step_name:
            return kind.from_json(data)
    raise UserError(_("not a request of a known step: {step!r}").format(step=step_name))


# a seed or a row id is stored in run cards (JSON) and SQLite integers
MAX_INTEGER = 2**63 - 1


def seed_field(name: Setting, default: int = 0) -> Any:
    """A seed: a whole number from 0."""
    return whole_field(name, default, 0, MAX_INTEGER)


def id_field(name: Setting) -> Any:
    """A row id the request cannot do without (a run's): a whole number from 1, no default."""
    return dataclasses.field(
        metadata={"setting": name, "check": lambda v, n: _whole(v, n, 1, MAX_INTEGER)}
    )


# the run-task and run-prompts steps': a name always given, lists of whole numbers, numbers and
# choices among fixed values
def name_field(name: Setting, default: str) -> Any:
    """A name that always has a value (a task's)."""
    return dataclasses.field(default=default, metadata={"setting": name, "check": _name})


def wholes_field(name: Setting, low: int, high: int) -> Any:
    """A tuple of distinct whole numbers from ``low`` to ``high`` in the order given; ()
    means none."""

    def check(value: Any, setting_name: Setting) -> tuple[int, ...]:
        if isinstance(value, str) or not isinstance(value, Sequence):
            raise RequestError(setting_name, _("a list of whole numbers is needed"))
        if len(value) > MAX_NAMES:
            raise RequestError(setting_name, _("more than {n} values").format(n=MAX_NAMES))
        return tuple(dict.fromkeys(_whole(v, setting_name, low, high) for v in value))

    return dataclasses.field(default=(), metadata={"setting": name, "check": check})


def number_field(name: Setting, default: float, low: float, high: float) -> Any:
    """A finite number from ``low`` to ``high`` (a sampling temperature)."""

    def check(value: Any, setting_name: Setting) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise RequestError(
                setting_name, _("a number is needed, not {value!r}").format(value=value)
            )
        if not low <= value <= high:  # NaN fails both comparisons
            raise RequestError(
                setting_name,
                _("must be from {low} to {high}, not {value}").format(
                    low=low, high=high, value=value
                ),
            )
        return float(value)

    return dataclasses.field(default=default, metadata={"setting": name, "check": check})


def _choice(value: Any, name: Setting, choices: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise RequestError(
            name,
            _("unknown value {value!r} (one of: {known})").format(
                value=value, known=", ".join(choices)
            ),
        )
    return value


def choice_field(name: Setting, choices: Sequence[str], default: str | None) -> Any:
    """One of ``choices``; None too where the default is None (the step's own choice)."""

    def check(value: Any, setting_name: Setting) -> str | None:
        if value is None and default is None:
            return None
        return _choice(value, setting_name, choices)

    return dataclasses.field(default=default, metadata={"setting": name, "check": check})


def choices_field(name: Setting, choices: Sequence[str], default: tuple[str, ...]) -> Any:
    """A tuple of distinct values of ``choices``, at least one, in the order given."""

    def check(value: Any, setting_name: Setting) -> tuple[str, ...]:
        if isinstance(value, str) or not isinstance(value, Sequence):
            raise RequestError(setting_name, _("a list of values is needed"))
        if len(value) > MAX_NAMES:
            raise RequestError(setting_name, _("more than {n} values").format(n=MAX_NAMES))
        if not value:
            raise RequestError(
                setting_name, _("choose at least one of: {known}").format(known=", ".join(choices))
            )
        return tuple(dict.fromkeys(_choice(v, setting_name, choices) for v in value))

    return dataclasses.field(default=default, metadata={"setting": name, "check": check})
