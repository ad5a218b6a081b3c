"""What every CLI command receives: the workspace, opened on first use, and output helpers."""

from __future__ import annotations

import json
import re
import sys
import time

from app.cli.hints import for_cli
from engine.text.redact import redact
from engine.workspace.api import Workspace

_NUMBERS = re.compile(r"[\d.,/%]+")  # a note less these is its phase

# The exit code of a step that finished with items still missing (errors, a dead worker):
# the finished part is saved and running the same command again resumes it.
EXIT_INCOMPLETE = 3


def incomplete(ctx: CliContext, what: str) -> int:
    """Say on stderr that a step is incomplete, how many items failed and how to resume;
    return :data:`EXIT_INCOMPLETE`."""
    ctx.end_progress_line()
    print(
        f"upabhasha: incomplete: {for_cli(what)}; the finished items are saved - run the same "
        "command again to resume (exit 3)",
        file=sys.stderr,
    )
    return EXIT_INCOMPLETE


def runs_outcome(ctx: CliContext, step: str, summaries: list[dict], unit: str) -> int:
    """The exit code of a step over job runs (their summaries): 0 when every item is done,
    else :func:`incomplete` with the count of failed or missing ``unit``."""
    missing = sum(s["items"] - s["done_before"] - s["done_now"] for s in summaries)
    if not missing and all(s.get("complete", True) for s in summaries):
        return 0
    total = sum(s["items"] for s in summaries)
    causes = sorted({s["load_error"] for s in summaries if s.get("load_error")})
    last_errors = {
        s["model"]: s["last_error"]
        for s in summaries
        if s.get("last_error") and not s.get("load_error")
    }
    causes += [f"{model}: {last_error_words(error)}" for model, error in last_errors.items()]
    why = f" ({'; '.join(causes)})" if causes else ""
    return incomplete(ctx, f"{step}: {missing} of {total} {unit} failed or missing{why}")


def last_error_words(error: str) -> str:
    """``last error: …`` on one line, short enough for a summary."""
    return f"last error: {' '.join(error.split())[:200]}"


class CliContext:
    def __init__(self, workspace_path: str):
        self.workspace_path = workspace_path
        self._ws: Workspace | None = None
        self._line_open = False

    def workspace(self, *, create: bool = False) -> Workspace:
        if self._ws is None:
            self._ws = Workspace(self.workspace_path, create=create)
        return self._ws

    def close(self) -> None:
        if self._ws is not None:
            self._ws.close()
            self._ws = None

    @staticmethod
    def emit_json(data) -> None:
        data = _redacted(data)  # no key leaves through --json either
        json.dump(data, sys.stdout, ensure_ascii=False, indent=2, default=str)
        sys.stdout.write("\n")

    def progress_printer(self, label: str, quiet: bool = False):
        """A ``progress(done, total, note)`` callable for stderr. On a terminal it redraws one
        line (at most 5 Hz); otherwise (logs, CI) it prints a line at most every 10 s."""
        tty = sys.stderr.isatty()
        interval = 0.2 if tty else 10.0
        start = time.monotonic()
        state: dict = {"last": 0.0, "phase": None, "start": start, "base": 0}
        state.update(reported=start, done=0, total=0)

        def progress(done: int, total: int, note: str = "") -> None:
            if quiet:
                return
            now = time.monotonic()
            # the ETA is the current phase's (a note less its numbers, and its total), as the
            # window's (widgets.common.task_progress.PhaseClock): timed from its first report
            # when that counts nothing yet, else from the previous phase's last one, and
            # counted from 0 unless the total is the same, so the index build never slows
            # the drafts' pace
            phase = (_NUMBERS.sub("", note), total)
            if phase != state["phase"]:
                same = total == state["total"] and done >= state["done"]
                base = state["done"] if same else 0
                state.update(
                    phase=phase, base=base, start=now if done == base else state["reported"]
                )
            state.update(reported=now, done=done, total=total)
            if done < total and now - state["last"] < interval:
                return
            state["last"] = now
            counted, elapsed = done - state["base"], now - state["start"]
            eta = ""
            if counted > 0 and done < total:
                eta = f" ETA {elapsed / counted * (total - done):.0f}s"
            text = f"{label}: {done}/{total}{eta} {for_cli(note)}".rstrip()
            if tty:
                sys.stderr.write("\r" + text[:120].ljust(60))
                self._line_open = done < total
                if not self._line_open:
                    sys.stderr.write("\n")
            else:
                sys.stderr.write(text + "\n")
            sys.stderr.flush()

        return progress

    def end_progress_line(self) -> None:
        """Called before an error message so it does not land on a progress line."""
        if self._line_open:
            sys.stderr.write("\n")
            self._line_open = False


def _redacted(data):
    """``data`` with secrets masked and engine messages in the CLI's words."""
    if isinstance(data, str):
        return for_cli(redact(data))
    if isinstance(data, dict):
        return {k: _redacted(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_redacted(v) for v in data]
    return data
