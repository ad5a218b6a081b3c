"""The study-time estimate of a job before it starts, for the dialogs and panels that start
generate, judge, task and probe jobs (engine.llm.planning.planner).

An "Estimate time" button runs the stage's estimate task (its ``tasks.estimate_*``) through
the bridge, one task per chosen model on that model's lane (a calibration loads the model
and decodes a sample, as the job would; the job of the same model waits for it), with
progress and cancel. The box then shows, per model and in total, the duration with its 90 %
interval and the tokens (prompt and output). When the inputs change the owner calls
:meth:`JobEstimateBox.mark_stale`: a shown estimate is withdrawn (never a number for other
inputs) and a running one is cancelled.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

import shiboken6
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from engine.i18n import _, digits
from widgets.common.dialog_parts import show_status
from widgets.common.task_bridge import Task, TaskBridge, describe_error, model_lane

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class EstimateJob:
    """One model's estimate task: ``fn(*args, **kwargs)`` returns an estimate dict (or a
    list of them), or None when cancelled."""

    model_id: int
    model_name: str
    fn: Callable
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)


def _cancel_all(running: dict[int, Task]) -> None:
    for task in running.values():
        task.cancel()


def _inputs_key(jobs: list[EstimateJob] | str) -> str:
    if isinstance(jobs, str):
        return jobs
    return repr([(j.model_id, j.fn.__qualname__, j.args, sorted(j.kwargs.items())) for j in jobs])


def about_duration(seconds: float) -> str:
    seconds = max(seconds, 0.0)
    if seconds < 60:
        return _("{s} s").format(s=digits(int(round(seconds))))
    minutes = int(round(seconds / 60))
    if minutes < 60:
        return _("{m} min").format(m=digits(minutes))
    return _("{h} h {m} min").format(h=digits(minutes // 60), m=digits(minutes % 60))


def format_tokens(tokens: int) -> str:
    if tokens < 1000:
        return _("{n} tokens").format(n=digits(tokens))
    if tokens < 1_000_000:
        return _("{n} k tokens").format(n=digits(f"{tokens / 1000:.1f}"))
    return _("{n} M tokens").format(n=digits(f"{tokens / 1_000_000:.1f}"))


def describe_estimate(seconds: float, low: float, high: float, tokens: int) -> str:
    """'About 2 h 10 min (90 %: 1 h 50 min – 2 h 40 min) · 1.2 M tokens'."""
    return _("About {mid} (90 %: {low} – {high}) · {tokens}").format(
        mid=about_duration(seconds),
        low=about_duration(low),
        high=about_duration(high),
        tokens=format_tokens(tokens),
    )


class JobEstimateBox(QWidget):
    """The estimate button, its cancel button and the estimate's lines."""

    sig_estimated = Signal(list)  # the per-model estimate dicts, once all are in

    def __init__(
        self, bridge: TaskBridge, jobs: Callable[[], list[EstimateJob] | str], parent=None
    ):
        """``jobs()``: the estimate tasks for the dialog's current inputs, or a message
        saying what to choose first."""
        super().__init__(parent)
        self.bridge = bridge
        self.jobs = jobs
        self.generation = 0  # a result of an older generation is for other inputs: dropped
        self.running: dict[int, Task] = {}
        self.results: dict[int, list[dict]] = {}
        self.names: dict[int, str] = {}
        self.sample_items: int | None = None  # the calibration's sample (None: one batch)
        self.stale = False
        self.took = 0.0  # seconds the estimate itself took (its slowest model)
        self.inputs = ""  # what the estimate shown or running is for (_inputs_key)
        self.estimate_button = QPushButton(_("Estimate time"))
        self.estimate_button.setToolTip(
            _(
                "Decodes a small sample of the job with each chosen model to estimate its "
                "duration and tokens on this machine or endpoint."
            )
        )
        self.cancel_button = QPushButton(_("Cancel estimate"))
        self.cancel_button.setVisible(False)
        self.estimate_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self.cancel)
        self.label = QLabel()
        self.label.setWordWrap(True)
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.estimate_button)
        buttons.addWidget(self.cancel_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(buttons)
        layout.addWidget(self.label)
        # a dialog closed while its estimate runs: the calibration stops, its result is dropped
        self.destroyed.connect(lambda *_a, running=self.running: _cancel_all(running))

    def start(self, _checked: bool = False) -> list[Task]:
        jobs = self.jobs()
        if isinstance(jobs, str):
            show_status(self.label, jobs, error=True)
            return []
        self.cancel()
        self.generation += 1
        self.results.clear()
        self.stale = False
        self.took = 0.0
        self.inputs = _inputs_key(jobs)
        self.names = {job.model_id: job.model_name for job in jobs}
        started = []
        for job in jobs:
            task = self.bridge.run(
                job.fn,
                args=job.args,
                kwargs={
                    **job.kwargs,
                    **({"sample": self.sample_items} if self.sample_items else {}),
                },
                lane=model_lane(job.model_id),
                label=_("Time estimate for {model}").format(model=job.model_name),
                on_done=functools.partial(self._done, self.generation, job.model_id),
                on_error=functools.partial(self._failed, self.generation, job.model_name),
                on_progress=functools.partial(self._progress, self.generation, job.model_name),
            )
            if task.running:
                self.running[job.model_id] = task
            started.append(task)
        if self.running:
            self.cancel_button.setVisible(True)
            show_status(self.label, _("Estimating: loading the model and decoding a sample…"))
        return started

    def cancel(self, _checked: bool = False) -> None:
        if not self.running:
            return
        _cancel_all(self.running)
        self.running.clear()
        self.generation += 1
        self.cancel_button.setVisible(False)
        show_status(self.label, _("Estimate cancelled."))

    def mark_stale(self, *_args) -> None:
        """The inputs may have changed: if they did, withdraw the estimate shown (or cancel
        the running one). A refill of the same choices (a panel following the workspace)
        changes nothing."""
        if not self.running and not self.results:
            return
        if _inputs_key(self.jobs()) == self.inputs:
            return
        self.cancel()
        self.results.clear()
        self.stale = True
        show_status(
            self.label,
            _("The choices changed: the estimate is out of date. Press “Estimate time” again."),
        )

    def shown_seconds(self) -> float | None:
        """The estimated seconds of every job together, while an estimate for the current
        choices is shown (``None``: none asked, running, failed or out of date)."""
        if self.running or not self.results:
            return None
        return sum(
            est["seconds"] for one in self.results.values() for est in one if est.get("left")
        )

    def _current(self, generation: int) -> bool:
        """Whether a task's callback is for the estimate this box waits for (and the box
        still exists: the bridge cannot tell that of a partial)."""
        return shiboken6.isValid(self) and generation == self.generation

    def _progress(self, generation: int, name: str, done: int, total: int, note: str) -> None:
        if self._current(generation):
            show_status(
                self.label,
                _("Estimating {model}: {done}/{total} sample items decoded").format(
                    model=name, done=digits(done), total=digits(total)
                ),
            )

    def _done(self, generation: int, model_id: int, result) -> None:
        if not self._current(generation) or result is None:
            return  # for other inputs, or cancelled
        task = self.running.pop(model_id, None)
        if task is not None:
            self.took = max(self.took, task.elapsed_s)
        self.results[model_id] = result if isinstance(result, list) else [result]
        if not self.running:
            self.cancel_button.setVisible(False)
            self._show()
            self.sig_estimated.emit([e for one in self.results.values() for e in one])

    def _failed(self, generation: int, name: str, exc: BaseException) -> None:
        if not self._current(generation):
            return
        self.cancel()
        show_status(
            self.label,
            _("No estimate for {model}: {error}").format(
                model=name, error=describe_error(exc, one_line=True)
            ),
            error=True,
        )

    def _show(self) -> None:
        lines: list[str] = []
        seconds = low = high = 0.0
        tokens = 0
        for model_id, estimates in self.results.items():
            for est in estimates:
                name = est.get("model") or self.names.get(model_id, "")
                if not est.get("left"):
                    lines.append(_("{model}: nothing left to decode").format(model=name))
                    continue
                seconds, low, high = (
                    seconds + est["seconds"],
                    low + est["seconds_low"],
                    high + est["seconds_high"],
                )
                tokens += est["tokens"]
                estimate = describe_estimate(
                    est["seconds"], est["seconds_low"], est["seconds_high"], est["tokens"]
                )
                lines.append(_("{model}: {estimate}").format(model=name, estimate=estimate))
        if sum(len(e) for e in self.results.values()) > 1:
            total = describe_estimate(seconds, low, high, tokens)
            lines.append(_("In total: {estimate}").format(estimate=total))
        if seconds > 0 and self.took > seconds / 10:
            # loading the model and one sample batch cost the same whatever the job's size
            lines.append(
                _(
                    "Estimating took {took}, more than a tenth of the {job} it estimates: "
                    "loading the model and decoding a sample cost that much at any job size, "
                    "so a job this small costs little more to run."
                ).format(took=about_duration(self.took), job=about_duration(seconds))
            )
        show_status(self.label, "\n".join(lines))


def estimate_and_actual(*summaries: dict) -> str:
    """Finished runs' estimate beside what they took, summed over the runs that estimated
    themselves ('' when none did: a job of ``engine.llm.runs.jobs.ESTIMATE_MIN_ITEMS`` items or
    more estimates itself; its run card keeps both as ``plan_timing``)."""
    timed = [s for s in summaries if s.get("estimate") and s.get("actual")]
    if not timed:
        return ""
    return _("estimated {estimate}, took {actual}").format(
        estimate=about_duration(sum(s["estimate"]["seconds"] for s in timed)),
        actual=about_duration(sum(s["actual"]["seconds"] for s in timed)),
    )
