"""Where an annotator's queue lives: the lab's workspace or an offline review package.

The annotation panel talks to either through the same three calls (``annotators``,
``queue``, ``record``), so the same screen serves the lab and a field laptop with no
workspace. Their background entry points (``export_package_at``, ``import_packages_at``) are in
engine/annotation/tasks.py.
"""

from __future__ import annotations

from pathlib import Path

from engine.annotation.annotators import list_annotators
from engine.annotation.decisions import my_queue, record_decision
from engine.annotation.packages import ReviewPackage
from engine.workspace.schema import DIALECTS
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

    def dialect_names(self) -> dict[str, dict]:
        return self.ws.dialect_names()


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

    def dialect_names(self) -> dict[str, dict]:
        """The built-in dialects' names (a package carries codes only; a lab's own dialect
        shows its code)."""
        return {code: {"name_bn": bn, "name_en": en} for code, bn, en, _region in DIALECTS}
