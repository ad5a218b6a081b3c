"""How long a job will take, from a short calibration on this machine or endpoint.

Before a generate, judge, task or probe job the planner decodes a small sample of the job's
own items twice through the job's backend — once with a one-token budget (what the prompts
cost) and once with the regime's budget (what generating costs) — and scales both to the
whole job: prompt cost by the items' prompt characters, generation cost by the sample's mean
output length times the number of items (at most the budget). The interval is the 90 %
interval of that mean output length (a Student-t interval over the sample), which is what
varies most between jobs; the machine's own noise is not in it.

After the job :func:`engine.llm.jobs.record_actual` adds the measured seconds and tokens
next to the estimate (:func:`engine.llm.jobs.record_estimate`) in the run card (``plan_timing.estimate`` / ``plan_timing.actual``), so a study's cards
show how good the estimates were.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import statistics
import time
from dataclasses import dataclass

from engine.llm.types import Backend, Request, Sampler

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Calibration:
    """What a sample of the job cost on its backend."""

    items: int
    prompt_chars: int
    prompt_seconds: float  # the sample with a one-token budget
    seconds: float  # the sample with the job's budget
    output_tokens: tuple[int, ...]  # per sample item, with the job's budget

    @property
    def seconds_per_prompt_char(self) -> float:
        return self.prompt_seconds / max(self.prompt_chars, 1)

    @property
    def seconds_per_output_token(self) -> float:
        # the one-token run already produced one token per item
        extra = sum(self.output_tokens) - self.items
        return max(self.seconds - self.prompt_seconds, 0.0) / max(extra, 1)

    def as_dict(self) -> dict:
        data = dataclasses.asdict(self)
        data["output_tokens"] = list(self.output_tokens)
        data["prompt_chars_per_s"] = round(1 / max(self.seconds_per_prompt_char, 1e-12), 1)
        data["output_tokens_per_s"] = round(1 / max(self.seconds_per_output_token, 1e-12), 1)
        return data


@dataclass(frozen=True)
class Estimate:
    items: int
    prompt_chars: int
    output_tokens: int
    output_tokens_low: int
    output_tokens_high: int
    seconds: float
    seconds_low: float
    seconds_high: float

    def as_dict(self) -> dict:
        return {
            k: round(v, 2) if isinstance(v, float) else v
            for k, v in dataclasses.asdict(self).items()
        }

    def describe(self) -> str:
        return (
            f"{self.items} items: about {self.output_tokens} output tokens "
            f"({self.output_tokens_low}–{self.output_tokens_high}) in "
            f"{_duration(self.seconds)} ({_duration(self.seconds_low)}–"
            f"{_duration(self.seconds_high)}, 90 % interval of the output length)"
        )


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def prompt_chars(request: Request) -> int:
    if request.messages is not None:
        return sum(len(m.content) for m in request.messages)
    return len(request.prompt or "")


def calibration_sample(requests: list[Request], size: int) -> list[Request]:
    """``size`` items spread evenly over the job (a job is often sorted by dialect or
    set, and the first items alone would miss the others' lengths)."""
    if len(requests) <= size:
        return list(requests)
    step = len(requests) / size
    return [requests[int(i * step)] for i in range(size)]


def sample_size(backend: Backend) -> int:
    """One full batch of the backend (a local model's n_seq), at least 8 items."""
    n_seq = getattr(getattr(backend, "schedule", None), "n_seq", None)
    return max(8, int(n_seq or 8))


def _with_budget(req: Request, max_tokens: int) -> Request:
    sampler = Sampler(**{**req.sampler.as_dict(), "max_tokens": max_tokens})
    return dataclasses.replace(req, key=f"calibration:{req.key}", sampler=sampler)


def calibrate(backend: Backend, requests: list[Request], size: int | None = None) -> Calibration:
    """Decode a sample of ``requests`` on ``backend`` (results are not stored)."""
    sample = calibration_sample(requests, size or sample_size(backend))
    if not sample:
        raise ValueError("nothing to calibrate on")
    short = [_with_budget(r, 1) for r in sample]
    full = [_with_budget(r, r.sampler.max_tokens) for r in sample]
    t = time.perf_counter()
    list(backend.generate(short))
    prompt_seconds = time.perf_counter() - t
    t = time.perf_counter()
    results = list(backend.generate(full))
    seconds = time.perf_counter() - t
    failed = [r for r in results if not r.ok]
    if failed:
        raise RuntimeError(f"calibration failed: {failed[0].error}")
    return Calibration(
        items=len(sample),
        prompt_chars=sum(prompt_chars(r) for r in sample),
        prompt_seconds=prompt_seconds,
        seconds=seconds,
        output_tokens=tuple(r.completion_tokens for r in results),
    )


def estimate(requests: list[Request], cal: Calibration) -> Estimate:
    """Tokens and seconds of the whole job from ``cal`` (see the module docstring)."""
    n = len(requests)
    chars = sum(prompt_chars(r) for r in requests)
    budget = sum(r.sampler.max_tokens for r in requests)
    lengths = list(cal.output_tokens)
    mean = statistics.fmean(lengths)
    half = 0.0
    if len(lengths) > 1:
        from scipy.stats import t

        quantile = float(t.ppf(0.95, len(lengths) - 1))  # two-sided 90 %
        half = quantile * statistics.stdev(lengths) / math.sqrt(len(lengths))

    def tokens(per_item: float) -> int:
        return int(round(min(max(per_item, 1.0) * n, budget)))

    def seconds(total_tokens: int) -> float:
        prompt = chars * cal.seconds_per_prompt_char
        return prompt + max(total_tokens - n, 0) * cal.seconds_per_output_token

    mid, low, high = tokens(mean), tokens(mean - half), tokens(mean + half)
    return Estimate(n, chars, mid, low, high, seconds(mid), seconds(low), seconds(high))
