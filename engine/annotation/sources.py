"""Where an annotator's queue lives: the lab's workspace or an offline review package.

The annotation panel talks to either through the same three calls (``annotators``,
``queue``, ``record``), so the same screen serves the lab and a field laptop with no
workspace. Module-level ``*_at`` functions take file paths, for the GUI's background lanes.
"""

from __future__ import annotations

from pathlib import Path

from engine.annotation.annotators import list_annotators
from engine.annotation.decisions import my_queue, record_decision
from engine.annotation.packages import ReviewPackage, export_package, import_packages
from engine.workspace.store import Workspace


class WorkspaceQueue:
    """Queues of the annotators of an open workspace."""

    def __init__(self, ws: Workspace):
        self.ws = ws
        self.title = ws.path.name

    def annotators(self) -> list[str]:
        return [a["name"] for a in list_annotators(self.ws)]

    def queue(self, annotator: str) -> list[dict]:
        return my_queue(self.ws, annotator)

    def record(self, item_id: int, annotator: str, decision: str, **kw) -> dict:
        return record_decision(self.ws, item_id, annotator, decision, **kw)


class PackageQueue:
    """The one annotator's queue inside a review package (no workspace needed)."""

    def __init__(self, path: str | Path):
        self.package = ReviewPackage(path)
        self.title = Path(path).name

    def annotators(self) -> list[str]:
        return [self.package.annotator]

    def queue(self, annotator: str) -> list[dict]:
        return self.package.queue()

    def record(self, item_id: int, annotator: str, decision: str, **kw) -> dict:
        return self.package.record(item_id, decision, **kw)


def export_package_at(workspace_path: str, annotator: str, out: str) -> dict:
    with Workspace(workspace_path, create=False) as ws:
        return export_package(ws, annotator, out)


def import_packages_at(workspace_path: str, paths: list[str], progress=None, cancelled=None):
    """Merge packages, all or none (every package is checked before any is merged)."""
    with Workspace(workspace_path, create=False) as ws:
        return import_packages(ws, paths, progress=progress, cancelled=cancelled)
