"""How long a job will take, from a short calibration on this machine or endpoint.

Before a generate, judge, task or probe job the planner decodes a small sample of the job's
own items three times through the job's backend — with a one-token budget (what the prompts
cost), with the regime's budget (what generating costs), and with the one-token budget again
— and scales the first two to the whole job: prompt cost by the items' prompt characters,
generation cost by the sample's mean output length times the number of items (at most the
budget). Prompt tokens are the job's prompt characters at the sample's tokens per character.

**The 90 % interval** combines three independent errors:

- *output length*: the Student-t 90 % interval of the sample's mean output length, turned
  into seconds at the measured cost per output token;
- *machine noise*: the two one-token passes decode the same prompts, one before and one
  after the full pass, so their difference is what load and clock changes did to the same
  work within the calibration. The machine's relative standard deviation is taken as
  ``|a - b| / (sqrt(2) * mean(a, b))`` (the spread of one difference of two equal
  measurements), and its 90 % half-width as 1.645 times that share of the estimate;
- *model error*: what the calibration cannot see — the sample's items are not the whole
  job's, the job's batches mix other lengths and reuse other cached prefixes than the
  sample's, prompt cost is extrapolated by characters, and a job may start on a busier
  machine than the one calibrated. Its 90 % half-width is a share of the estimate: at least
  :data:`MODEL_ERROR_FLOOR`, and where the workspace has past runs of the same model with
  estimate and actual in their cards (:func:`engine.llm.runs.run.past_errors`), the 90 %
  quantile of their ``|actual / estimate - 1|`` if that is larger. The observed errors
  already contain those runs' own length and noise errors, so the sum counts them twice: the
  interval errs wide.

Each side's half-width is the root of the sum of the three squares. The noise term is a
rough one (one difference: one degree of freedom), and it covers only load that changed
while the calibration ran; the model-error term covers the rest.

**The schedule.** Asked to compare ``refills`` (a local model's batch schedules: slot refill
against whole groups, engine.llm.planning.schedule_choice), the full pass is decoded once per
candidate, cut into that schedule's plan groups, on a sample of ``n_seq`` times the largest
refill (so a refill group is whole in it); the one with the most output tokens per second is
:attr:`Calibration.refill` — the default unless another beats it by more than the machine's
noise could (:func:`fastest`) — and its pass is the one the estimate scales. The candidates'
groups run between the two one-token passes, the whole groups split around the refill
group, so that load rising or falling steadily meanwhile weighs on both alike; a load that
jumps still favours one of them (the noise term shows how much it changed).

After the job :func:`engine.llm.runs.run.record_actual` adds the measured seconds and tokens
next to the estimate (:func:`engine.llm.runs.run.record_estimate`) in the run card
(``plan_timing.estimate`` / ``plan_timing.actual``), so a study's cards show how good the
estimates were, and the next estimate's model-error term learns from them.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.llm.planning.batch_plan import plan_groups
from engine.llm.types import Backend, CancelFn, ProgressFn, Request, Result, Sampler

log = logging.getLogger(__name__)

NOISE_QUANTILE = 1.645  # two-sided 90 % of a normal: the machine-noise half-width
# The model-error half-width's floor (a share of the estimate): the largest error the benches
# saw, |actual / estimate - 1| of bench/probes.py --quick on an idle machine, which fell
# outside the two-term interval; the other benches, idle and under load, missed by less.
# A handful of measurements give no finer 90 % quantile than their largest, rounded up.
# Load that changes between calibration and job is outside it (the load average rose during
# both benches, and their estimates missed by far more): the past runs' term is for a
# machine where that recurs.
MODEL_ERROR_FLOOR = 0.13
MODEL_ERROR_QUANTILE = 0.9  # of the past runs' |actual / estimate - 1|


def relative_noise(a: float, b: float) -> float:
    """The relative standard deviation of two timings of the same work (the module
    docstring's machine noise)."""
    return abs(a - b) / (math.sqrt(2) * max((a + b) / 2, 1e-12))


@dataclass(frozen=True)
class Calibration:
    """What a sample of the job cost on its backend."""

    items: int
    prompt_chars: int
    prompt_seconds: float  # the sample with a one-token budget
    seconds: float  # the sample with the job's budget
    output_tokens: tuple[int, ...]  # per sample item, with the job's budget
    prompt_tokens: int = 0  # of the sample, as the backend counted them
    prompt_seconds_after: float | None = None  # the one-token pass again, after the full one
    refill: int | None = None  # the faster of the compared schedules (None: none compared)
    # per compared refill: the full pass's seconds and output tokens
    schedules: dict[int, dict] = field(default_factory=dict)

    @property
    def noise(self) -> float:
        """The machine's relative standard deviation (see the module docstring)."""
        if self.prompt_seconds_after is None:
            return 0.0
        return relative_noise(self.prompt_seconds, self.prompt_seconds_after)

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
        data["schedules"] = {str(k): v for k, v in self.schedules.items()}
        data["prompt_chars_per_s"] = round(1 / max(self.seconds_per_prompt_char, 1e-12), 1)
        data["output_tokens_per_s"] = round(1 / max(self.seconds_per_output_token, 1e-12), 1)
        data["noise"] = round(self.noise, 4)
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
    prompt_tokens: int = 0
    noise: float = 0.0  # the machine's relative standard deviation (Calibration.noise)
    model_error: float = 0.0  # the model-error 90 % half-width, a share of ``seconds``
    past_runs: int = 0  # the past runs whose errors it was taken from (0: the floor alone)

    @property
    def tokens(self) -> int:
        """Prompt and output tokens of the job."""
        return self.prompt_tokens + self.output_tokens

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
            f"{_duration(self.seconds_high)}, 90 % interval of output length, machine noise and model error)"
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
    return max(8, _n_seq(backend) or 8)


def _n_seq(backend: Backend) -> int | None:
    n_seq = getattr(getattr(backend, "schedule", None), "n_seq", None)
    return int(n_seq) if n_seq else None


def _with_budget(req: Request, max_tokens: int) -> Request:
    sampler = Sampler(**{**req.sampler.as_dict(), "max_tokens": max_tokens})
    return dataclasses.replace(req, key=f"calibration:{req.key}", sampler=sampler)


def _interleaved(candidates: dict[int, list[list[Request]]]) -> list[tuple[int, list[Request]]]:
    """Every candidate's groups in one order: the candidate with the most groups split around
    the others, so that load rising or falling steadily meanwhile weighs on each alike."""
    most = max(candidates, key=lambda r: len(candidates[r]))
    groups, half = candidates[most], len(candidates[most]) // 2
    middle = [(r, g) for r in candidates if r != most for g in candidates[r]]
    return [(most, g) for g in groups[:half]] + middle + [(most, g) for g in groups[half:]]


def fastest(schedules: dict[int, dict], noise: float = 0.0) -> int:
    """The refill with the most output tokens per second. The first one (the default) stays
    unless another beats it by more than the machine's noise could: the 90 % half-width of a
    difference of two measurements at relative standard deviation ``noise``."""
    first, *others = schedules
    margin = 1 + NOISE_QUANTILE * math.sqrt(2) * noise
    best = first
    for refill in others:
        rate = schedules[refill]["output_tokens_per_s"]
        if rate > schedules[best]["output_tokens_per_s"] * (margin if best == first else 1):
            best = refill
    return best


def _pass_timing(seconds: float, results: list[Result]) -> dict:
    """One candidate schedule's full pass: seconds, output tokens and their rate."""
    tokens = sum(r.completion_tokens for r in results)
    return {
        "seconds": round(seconds, 3),
        "output_tokens": tokens,
        "output_tokens_per_s": round(tokens / max(seconds, 1e-9), 1),
    }


class CalibrationCancelled(Exception):
    """The calibration was cancelled before it finished (nothing is estimated)."""


def calibrate(
    backend: Backend,
    requests: list[Request],
    size: int | None = None,
    *,
    refills: Sequence[int] = (),
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
) -> Calibration:
    """Decode a sample of ``requests`` on ``backend`` three times, the full pass once per
    schedule in ``refills`` when the backend has a batch schedule and there are two to
    compare (see the module docstring; results are not stored). ``progress`` counts the
    sample's items over the passes; a cancel raises :class:`CalibrationCancelled`."""
    n_seq = _n_seq(backend)
    refills = tuple(dict.fromkeys(refills)) if n_seq and len(set(refills)) > 1 else ()
    size = size or sample_size(backend)
    if refills and n_seq:
        size = max(size, n_seq * max(refills))
    sample = calibration_sample(requests, size)
    if not sample:
        raise ValueError("nothing to calibrate on")
    if len(sample) <= (n_seq or 0):
        refills = ()  # one group whichever the schedule: nothing to compare
    short = [_with_budget(r, 1) for r in sample]
    full = [_with_budget(r, r.sampler.max_tokens) for r in sample]
    candidates = {r: plan_groups(full, (n_seq or 1) * r) for r in refills} or {0: [full]}
    steps = [("short", short), *_interleaved(candidates), ("after", short)]
    seconds_of: dict = {}
    results_of: dict[object, list[Result]] = {}
    total = (2 + len(candidates)) * len(sample)
    for label, group in steps:
        if cancelled and cancelled():
            raise CalibrationCancelled()
        t = time.perf_counter()
        results = results_of.setdefault(label, [])
        for result in backend.generate(group, cancelled=cancelled):
            results.append(result)
            if progress:
                progress(sum(map(len, results_of.values())), total, "calibration")
        seconds_of[label] = seconds_of.get(label, 0.0) + time.perf_counter() - t
        if cancelled and cancelled():
            raise CalibrationCancelled()
        failed = [r for r in results if not r.ok]
        if failed:
            raise RuntimeError(f"calibration failed: {failed[0].error}")
    schedules = {refill: _pass_timing(seconds_of[refill], results_of[refill]) for refill in refills}
    prompt_seconds, after = seconds_of["short"], seconds_of["after"]
    chosen = fastest(schedules, relative_noise(prompt_seconds, after)) if schedules else None
    seconds, results = seconds_of[chosen or 0], results_of[chosen or 0]
    by_key = {r.key: r for r in results}
    results = [by_key[r.key] for r in full]  # in sample order, whatever the groups' order
    return Calibration(
        items=len(sample),
        prompt_chars=sum(prompt_chars(r) for r in sample),
        prompt_seconds=prompt_seconds,
        seconds=seconds,
        output_tokens=tuple(r.completion_tokens for r in results),
        prompt_tokens=sum(r.prompt_tokens for r in results),
        prompt_seconds_after=after,
        refill=chosen,
        schedules=schedules,
    )


def model_error(past: Sequence[float] = ()) -> float:
    """The model-error 90 % half-width as a share of the estimate, from past runs'
    relative errors ``actual / estimate - 1`` (module docstring): the empirical
    :data:`MODEL_ERROR_QUANTILE` of their sizes (the ceil(0.9 n)-th smallest, so with fewer
    than ten runs their largest), never below :data:`MODEL_ERROR_FLOOR`."""
    sizes = sorted(abs(e) for e in past)
    if not sizes:
        return MODEL_ERROR_FLOOR
    observed = sizes[math.ceil(MODEL_ERROR_QUANTILE * len(sizes)) - 1]
    return max(MODEL_ERROR_FLOOR, observed)


def estimate(
    requests: list[Request], cal: Calibration, past_errors: Sequence[float] = ()
) -> Estimate:
    """Tokens and seconds of the whole job from ``cal``; ``past_errors``: the relative
    errors of past runs of the same model (:func:`engine.llm.runs.run.past_errors`; see the
    module docstring)."""
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
    centre = seconds(mid)
    noise_half = NOISE_QUANTILE * cal.noise * centre
    model_share = model_error(past_errors)
    model_half = model_share * centre
    seconds_low = centre - math.hypot(centre - seconds(low), noise_half, model_half)
    seconds_high = centre + math.hypot(seconds(high) - centre, noise_half, model_half)
    prompt_tokens = int(round(chars * cal.prompt_tokens / max(cal.prompt_chars, 1)))
    return Estimate(
        n,
        chars,
        mid,
        low,
        high,
        centre,
        max(seconds_low, 0.0),
        seconds_high,
        prompt_tokens=prompt_tokens,
        noise=round(cal.noise, 4),
        model_error=round(model_share, 4),
        past_runs=len(past_errors),
    )
