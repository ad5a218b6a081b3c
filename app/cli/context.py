"""What every CLI command receives: the workspace, opened on first use, and output helpers."""

from __future__ import annotations

import json
import sys
import time

from engine.workspace import Workspace


class CliContext:
    def __init__(self, workspace_path: str):
        self.workspace_path = workspace_path
        self._ws: Workspace | None = None

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
        json.dump(data, sys.stdout, ensure_ascii=False, indent=2, default=str)
        sys.stdout.write("\n")

    @staticmethod
    def progress_printer(label: str, quiet: bool = False):
        """A ``progress(done, total, note)`` callable that redraws one stderr line (≤ 5 Hz)."""
        state = {"last": 0.0, "start": time.monotonic()}

        def progress(done: int, total: int, note: str = "") -> None:
            if quiet:
                return
            now = time.monotonic()
            if done < total and now - state["last"] < 0.2:
                return
            state["last"] = now
            elapsed = now - state["start"]
            eta = ""
            if 0 < done < total:
                eta = f" ETA {elapsed / done * (total - done):.0f}s"
            sys.stderr.write(f"\r{label}: {done}/{total}{eta} {note}"[:120].ljust(60))
            if done >= total:
                sys.stderr.write("\n")
            sys.stderr.flush()

        return progress
