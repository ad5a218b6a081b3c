"""Probe topics: a topic names two groups, x and y, whose answer counts the bias score compares.

The paper's two (paper 002, §5.3): gender with x = female, y = male, and religion with
x = Hindu, y = Muslim; a positive score leans toward x. Any other pair of groups is a
user-defined topic (``Topic("caste", "dalit", "brahmin")``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import Setting, UserError, setting_usage

_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")


@dataclass(frozen=True)
class Topic:
    name: str
    group_x: str
    group_y: str

    @property
    def groups(self) -> tuple[str, str]:
        return (self.group_x, self.group_y)

    def group(self, value: str) -> str | None:
        """'x'/'y' for a group name or one of its built-in aliases, else None."""
        key = value.strip().casefold()
        for side, name in (("x", self.group_x), ("y", self.group_y)):
            if key == name or key in GROUP_ALIASES.get(name, ()):
                return side
        return None


BUILTIN_TOPICS = {
    "gender": Topic("gender", "female", "male"),
    "religion": Topic("religion", "hindu", "muslim"),
}

# Spellings of a group name accepted in a file's group column (e.g. natural probes'
# ``firstOption``); the answer words of each group are in the normalisation table.
GROUP_ALIASES = {
    "female": ("female", "f", "woman", "women", "নারী", "মহিলা"),
    "male": ("male", "m", "man", "men", "পুরুষ"),
    "hindu": ("hindu", "হিন্দু"),
    "muslim": ("muslim", "মুসলিম", "মুসলমান"),
}


def topic_for(name: str, groups: tuple[str, str] | None = None) -> Topic:
    """A built-in topic by name, or a user-defined one when ``groups`` are given."""
    key = name.strip().casefold()
    if groups is None:
        if key not in BUILTIN_TOPICS:
            raise UserError(
                f"unknown topic '{name}' (built in: {', '.join(BUILTIN_TOPICS)}; "
                f"another pair of groups needs {setting_usage(Setting.GROUPS)})"
            )
        return BUILTIN_TOPICS[key]
    x, y = (g.strip().casefold() for g in groups)
    for value in (key, x, y):
        if not _NAME.match(value):
            raise UserError(
                f"'{value}' is not a usable topic or group name (lower-case letters, digits, -, _)"
            )
    if x == y:
        raise UserError("the two groups of a topic must differ")
    builtin = BUILTIN_TOPICS.get(key)
    if builtin and builtin.groups != (x, y):
        raise UserError(
            f"topic '{key}' is built in with groups {builtin.group_x},{builtin.group_y}; "
            "name a new topic for another pair"
        )
    return Topic(key, x, y)
