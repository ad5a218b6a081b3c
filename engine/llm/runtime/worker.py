"""The model worker process: one loaded GGUF per process, spoken to over a pipe.

llama.cpp is C++; a malformed or hostile file can crash it. Loading and decoding therefore
happen in a child started with the 'spawn' method. If the child dies, the parent sees the
pipe close, reports a clear error (with the signal that killed it) and carries on.

Protocol (tuples over ``multiprocessing.Pipe``), parent -> child:
  ("generate", job, [Request...])   ("cancel", job)   ("prompt_tokens", Request)
  ("tokenize", text, special)       ("token_info", [ids])   ("close",)
child -> parent:
  ("ready", info) | ("error", message)           once, after loading
  ("results", job, [Result...])  ("progress", job, items_done, generated_tokens, seconds)
  ("done", job, stats)  ("failed", job, message)  ("reply", value)
"""

from __future__ import annotations

import dataclasses
import logging
import multiprocessing
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

from engine.errors import StepIncomplete, UserError
from engine.i18n import N_
from engine.llm.models.settings import LoadOptions, Schedule
from engine.llm.runtime.native_model import NativeModel
from engine.llm.runtime.prompting import prompt_tokens
from engine.llm.runtime.scheduler import BatchScheduler
from engine.llm.types import CancelFn, ProgressFn, Request, Result

log = logging.getLogger(__name__)

# Each message wakes the parent, and on a busy machine the woken parent can take the CPU
# from the worker mid-step: progress goes at most this often, and the results a step
# finished go together in one message after it.
PROGRESS_INTERVAL_S = 1.0
# What the pipe raises once the parent is gone (killed with SIGKILL, say): the worker stops
# quietly, as if told to close, since there is nobody left to tell.
PARENT_GONE = (BrokenPipeError, ConnectionResetError, EOFError)


def prefer_passive_threads() -> None:
    """Let llama.cpp's OpenMP threads sleep instead of spin while waiting (unless the user
    chose otherwise). Must run before llama_cpp is imported. On a shared 2-core machine with
    other busy processes, spinning threads cut our throughput several times over."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


class WorkerCrashed(StepIncomplete):
    """The worker process died; the message says how."""


class ModelDidNotLoad(StepIncomplete):
    """The worker could not load the model: llama.cpp refused it, or the worker died (was
    killed, ran out of memory, crashed) while loading it. A step reports the model as not
    loaded (engine.llm.runs.model_runs: exit 3, resumable), not as a user error."""


# -- child side ----------------------------------------------------------------------------
def worker_main(conn, path: str, schedule: dict, load: dict) -> None:
    """Entry point of the child process (module level, so 'spawn' can import it)."""
    prefer_passive_threads()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides about cancelling
    logging.basicConfig(level=logging.WARNING, format="worker %(levelname)s %(name)s: %(message)s")
    try:
        _serve(conn, path, schedule, load)
    except PARENT_GONE:
        return


def _serve(conn, path: str, schedule: dict, load: dict) -> None:
    sched_opts, load_opts = Schedule(**schedule), LoadOptions(**load)
    try:
        model = NativeModel(Path(path), load_opts)
        ctx = model.new_context(sched_opts, load_opts)
        scheduler = BatchScheduler(
            model, ctx, sched_opts, backend_sampling=load_opts.n_gpu_layers != 0
        )
    except Exception as exc:
        conn.send(("error", str(exc)))
        return
    conn.send(
        (
            "ready",
            {
                "chat_template": model.chat_template,
                "n_ctx_train": model.n_ctx_train,
                "n_vocab": model.n_vocab,
                "compute": model.compute,
            },
        )
    )
    while True:
        try:
            msg = conn.recv()
        except PARENT_GONE:
            return
        op = msg[0]
        if op == "close":
            return
        try:
            if op == "generate":
                _serve_generate(conn, scheduler, msg[1], msg[2])
            elif op == "tokenize":
                conn.send(("reply", model.tokenize(msg[1], special=msg[2])))
            elif op == "prompt_tokens":
                conn.send(("reply", prompt_tokens(model, msg[1])))
            elif op == "token_info":
                conn.send(
                    ("reply", [(t, model.token_text(t), model.is_control(t)) for t in msg[1]])
                )
            elif op == "cancel":
                pass  # a cancel that arrived after its job ended
            else:
                conn.send(("failed", None, f"unknown worker command {op!r}"))
        except UserError as exc:
            conn.send(("failed", msg[1] if op == "generate" else None, str(exc)))


def _serve_generate(conn, scheduler, job: int, requests: list[Request]) -> None:
    state = {"stop": False, "last": 0.0}

    def should_stop() -> bool:
        # called from llama.cpp's abort callback too, where an exception would only be
        # printed: a parent gone is a stop, and the next send ends the worker quietly
        try:
            while conn.poll():
                msg = conn.recv()
                if msg[0] == "cancel" and msg[1] == job:
                    state["stop"] = True
        except PARENT_GONE:
            state["stop"] = True
        return bool(state["stop"])

    finished: list[Result] = []

    def send_results() -> None:
        if finished:
            conn.send(("results", job, list(finished)))
            finished.clear()

    def on_step(stats) -> None:
        send_results()
        now = time.monotonic()
        if now - state["last"] >= PROGRESS_INTERVAL_S:
            state["last"] = now
            conn.send(("progress", job, stats.items, stats.generated_tokens, stats.seconds))

    try:
        stats = scheduler.run(requests, finished.append, should_stop, on_step)
        send_results()
    except PARENT_GONE:
        raise
    except Exception as exc:
        logging.getLogger(__name__).exception("generation failed")
        send_results()  # the items finished before the failure stay done
        conn.send(("failed", job, f"generation failed: {exc}"))
        return
    conn.send(("done", job, dataclasses.asdict(stats)))


# -- parent side ---------------------------------------------------------------------------
def _describe_exit(code: int | None) -> str:
    if code is None:
        return "is not responding"
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"


class ModelWorker:
    """Parent-side handle of one worker process."""

    def __init__(
        self,
        path: Path,
        schedule: Schedule,
        load: LoadOptions,
        *,
        label: str = "",
        load_timeout_s: float = 600.0,
        cancelled: CancelFn | None = None,
    ):
        self.label = label or Path(path).name
        mp = multiprocessing.get_context("spawn")
        self.conn, child = mp.Pipe()
        self.proc = mp.Process(
            target=worker_main,
            name=f"model-worker {self.label}",
            args=(child, str(path), schedule.as_dict(), load.as_dict()),
            daemon=True,
        )
        self.proc.start()
        child.close()
        self._job = 0
        try:
            msg = self._recv("loading the model", timeout_s=load_timeout_s, cancelled=cancelled)
        except WorkerCrashed as exc:
            raise ModelDidNotLoad(str(exc)) from None
        if msg[0] == "error":
            self.close()
            raise ModelDidNotLoad(f"{self.label}: cannot load model: {msg[1]}")
        self.ready = msg[1]
        log.info(N_("model worker %d ready for %s"), self.proc.pid, self.label)

    @property
    def pid(self) -> int | None:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc.is_alive()

    def _recv(self, phase: str, timeout_s: float | None = None, cancelled: CancelFn | None = None):
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        while True:
            if cancelled is not None and cancelled():
                self.kill()  # a load cannot be stopped part-way otherwise
                raise InterruptedError(f"{phase} cancelled")
            try:
                if self.conn.poll(0.2):
                    return self.conn.recv()
            except (EOFError, OSError):
                pass  # the pipe closed: the process is gone or going
            else:
                if self.proc.is_alive():
                    if deadline is not None and time.monotonic() > deadline:
                        self.kill()
                        raise WorkerCrashed(
                            f"the model worker for {self.label} did not answer "
                            f"within {timeout_s:.0f} s while {phase}"
                        )
                    continue
            self.proc.join(2.0)
            code = self.proc.exitcode
            self.conn.close()
            raise WorkerCrashed(
                f"the model worker for {self.label} {_describe_exit(code)} while {phase}"
            )

    def call(self, op: str, *args):
        self.conn.send((op, *args))
        msg = self._recv(op)
        if msg[0] == "failed":
            raise UserError(msg[2])
        return msg[1]

    def generate(
        self,
        requests: list[Request],
        progress: ProgressFn | None = None,
        cancelled: CancelFn | None = None,
    ) -> Iterator[Result]:
        self._job += 1
        job, total, done = self._job, len(requests), 0
        self.conn.send(("generate", job, list(requests)))
        cancel_sent = finished = False
        try:
            while True:
                if cancelled and not cancel_sent and cancelled():
                    self.conn.send(("cancel", job))
                    cancel_sent = True
                msg = self._recv("generating")
                kind = msg[0]
                if kind == "results" and msg[1] == job:
                    for result in msg[2]:
                        done += 1
                        yield result
                elif kind == "progress" and msg[1] == job and progress:
                    _, _, _items, tokens, seconds = msg
                    progress(done, total, f"{tokens / max(seconds, 1e-9):.1f} tok/s")
                elif kind == "done" and msg[1] == job:
                    finished = True
                    self.last_stats = msg[2]
                    return
                elif kind == "failed":
                    finished = True
                    raise UserError(f"{self.label}: {msg[2]}")
        finally:
            if not finished and self.proc.is_alive() and not self.conn.closed:
                self._abandon(job)

    def _abandon(self, job: int) -> None:
        """The caller stopped reading: cancel the job and drain it, so the next one starts clean."""
        try:
            self.conn.send(("cancel", job))
            while True:
                msg = self._recv("cancelling")
                if msg[0] in ("done", "failed") and msg[1] == job:
                    return
        except (WorkerCrashed, OSError):
            pass

    def kill(self) -> None:
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(5.0)

    def close(self) -> None:
        if self.proc.is_alive():
            try:
                self.conn.send(("close",))
            except (OSError, ValueError):
                pass
            self.proc.join(5.0)
            if self.proc.is_alive():
                self.kill()
        self.conn.close()
