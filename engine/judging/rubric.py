"""The judging rubric as data (``resources/rubrics/*.json``), validated and content-hashed.

A rubric names five weighted criteria, each an agreement statement scored on a Likert
scale 0–5 relative to the standard answer (paper 000, Table 1), a confidence scale 1–5,
the danger threshold used by CBS and the confidence at or below which a judgment goes to
human review. ``final = Σ wᵢ·Lᵢ/5``: with the default weights it ranges over 0–10.

The criterion keys are the score columns of the ``judgments`` table, so a rubric may change
statements, names and weights but not the set of keys.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from engine.errors import UserError
from engine.files.nesting import too_deep
from engine.files.user_files import RUBRIC, read_user_text
from engine.i18n import _

CRITERION_KEYS = ("comprehension", "correctness", "completeness", "clarity", "length")
LIKERT_VALUES = tuple(range(0, 6))
CONFIDENCE_VALUES = tuple(range(1, 6))
LIKERT_MAX = LIKERT_VALUES[-1]


@dataclass(frozen=True)
class Criterion:
    key: str
    name: str
    weight: float
    statement: str


@dataclass(frozen=True)
class Rubric:
    name: str
    description: str
    criteria: tuple[Criterion, ...]
    likert: tuple[tuple[int, str], ...]  # (value, verbal anchor), 0..5
    confidence: tuple[tuple[int, str], ...]  # (value, verbal anchor), 1..5
    danger_threshold: float
    review_confidence_threshold: int
    reasoning_max_chars: int
    content_hash: str  # sha256 of the canonical JSON

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(c.key for c in self.criteria)

    @property
    def max_score(self) -> float:
        return sum(c.weight for c in self.criteria)

    @property
    def version(self) -> str:
        """Short id for run cards and reports: name@first 12 hex digits of the hash."""
        return f"{self.name}@{self.content_hash[:12]}"

    def final_score(self, scores: Mapping[str, int]) -> float:
        """Σ wᵢ·Lᵢ/L_max over the criteria; every criterion must be present and in range."""
        total = 0.0
        for c in self.criteria:
            value = scores[c.key]
            if isinstance(value, bool) or value not in LIKERT_VALUES:
                raise ValueError(
                    _("{key}: {value!r} is not on the Likert scale 0-5").format(
                        key=c.key, value=value
                    )
                )
            total += c.weight * value / LIKERT_MAX
        return round(total, 6)


def default_rubric_path():
    return files("resources") / "rubrics" / "default.json"


def load_rubric(path: str | Path | None = None) -> Rubric:
    """Read and validate a rubric; ``None`` loads the bundled default."""
    return rubric_from_dict(rubric_data(path))


def rubric_data(path: str | Path | None = None) -> dict:
    """A rubric file's data, validated (an error names the file); ``None``: the bundled
    default. What a step's request carries, so the request holds the rubric itself."""
    source = default_rubric_path() if path is None else Path(path)
    if path is None:
        raw = source.read_text(encoding="utf-8")
    else:  # a user's file: only a regular file of sane size, measured before parsing
        raw = read_user_text(source, RUBRIC)
    deep = too_deep(raw)
    if deep:
        raise UserError(f"{source}: rubric is {deep}")
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise UserError(
            _("{source}: rubric is not valid JSON (line {line}: {error})").format(
                source=source, line=exc.lineno, error=exc.msg
            )
        ) from None
    try:
        rubric_from_dict(data)
    except ValueError as exc:
        raise UserError(
            _("{source}: invalid rubric: {error}").format(source=source, error=exc)
        ) from None
    return data


def rubric_from_dict(data: dict) -> Rubric:
    """Validate ``data``; raises ValueError naming the first problem."""
    if not isinstance(data, dict):
        raise ValueError(_("the rubric must be a JSON object"))
    for field in (
        "name",
        "criteria",
        "likert",
        "confidence",
        "danger_threshold",
        "review_confidence_threshold",
    ):
        if field not in data:
            raise ValueError(_("missing field '{field}'").format(field=field))
    criteria = []
    for i, item in enumerate(data["criteria"]):
        try:
            weight = float(item["weight"])
            crit = Criterion(str(item["key"]), str(item["name"]), weight, str(item["statement"]))
        except (KeyError, TypeError, ValueError):
            raise ValueError(
                _("criterion {n} needs key, name, a numeric weight and statement").format(n=i + 1)
            ) from None
        if not math.isfinite(weight) or weight <= 0:
            raise ValueError(
                _("criterion '{key}': weight must be positive, got {weight}").format(
                    key=crit.key, weight=weight
                )
            )
        if not crit.statement.strip():
            raise ValueError(_("criterion '{key}': empty statement").format(key=crit.key))
        criteria.append(crit)
    keys = [c.key for c in criteria]
    if len(set(keys)) != len(keys):
        raise ValueError(_("criterion keys must be unique, got {keys}").format(keys=keys))
    if sorted(keys) != sorted(CRITERION_KEYS):
        raise ValueError(
            _(
                "criterion keys must be exactly {expected} (the judgments table's columns), "
                "got {keys}"
            ).format(expected=list(CRITERION_KEYS), keys=keys)
        )
    likert = _scale(data["likert"], LIKERT_VALUES, "likert")
    confidence = _scale(data["confidence"], CONFIDENCE_VALUES, "confidence")
    danger = float(data["danger_threshold"])
    max_score = sum(c.weight for c in criteria)
    if not 0 < danger <= max_score:
        raise ValueError(
            _("danger_threshold must lie in (0, {max:g}], got {danger}").format(
                max=max_score, danger=danger
            )
        )
    review = data["review_confidence_threshold"]
    if isinstance(review, bool) or review not in (0,) + CONFIDENCE_VALUES:
        raise ValueError(
            _("review_confidence_threshold must be 0-5, got {value!r}").format(value=review)
        )
    max_chars = int(data.get("reasoning_max_chars", 800))
    if not 50 <= max_chars <= 8000:
        raise ValueError(
            _("reasoning_max_chars must be 50-8000, got {value}").format(value=max_chars)
        )
    canonical = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return Rubric(
        name=str(data["name"]),
        description=str(data.get("description", "")),
        criteria=tuple(criteria),
        likert=likert,
        confidence=confidence,
        danger_threshold=danger,
        review_confidence_threshold=int(review),
        reasoning_max_chars=max_chars,
        content_hash=hashlib.sha256(canonical.encode("utf-8")).hexdigest(),
    )


def _scale(raw, expected: tuple[int, ...], label: str) -> tuple[tuple[int, str], ...]:
    if not isinstance(raw, dict):
        raise ValueError(
            _("'{label}' must map each scale value to its verbal anchor").format(label=label)
        )
    try:
        values = sorted(int(k) for k in raw)
    except ValueError:
        raise ValueError(
            _("'{label}' keys must be integers, got {keys}").format(label=label, keys=sorted(raw))
        ) from None
    if tuple(values) != expected or len(raw) != len(expected):
        raise ValueError(
            _("'{label}' must define exactly the values {low}-{high}, got {values}").format(
                label=label, low=expected[0], high=expected[-1], values=values
            )
        )
    anchors = {int(k): str(v).strip() for k, v in raw.items()}
    if not all(anchors.values()):
        raise ValueError(_("'{label}': every value needs a verbal anchor").format(label=label))
    return tuple((v, anchors[v]) for v in expected)
