"""Open one panel alone, ``python -m widgets.<stage>.<panel>`` (house style 8), on a workspace given
on the command line or on sample data built on first use."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable


def run_panel(
    prog: str,
    title: str,
    build: Callable,
    *,
    sample: str | None = "workspace",
    size: tuple[int, int] = (1280, 760),
    add_arguments: Callable | None = None,
    after_show: Callable | None = None,
    argv: list[str] | None = None,
) -> int:
    """``build(workspace, bridge, args)`` returns the panel; ``sample`` is "workspace" (the
    bundled sample data), "study" (a synthetic judged study) or None (no workspace)."""
    from PySide6.QtWidgets import QApplication

    from engine.workspace.store import Workspace
    from widgets.common.fonts import register_qt_fonts
    from widgets.common.task_bridge import TaskBridge

    parser = argparse.ArgumentParser(prog=prog)
    if sample:
        parser.add_argument(
            "workspace", nargs="?", help=f"workspace file (default: the sample {sample})"
        )
    if add_arguments:
        add_arguments(parser)
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    app = QApplication(sys.argv[:1])
    register_qt_fonts(app)
    workspace = None
    if sample:
        workspace = Workspace(args.workspace or _sample_path(sample), create=False)
    bridge = TaskBridge(app)
    panel = build(workspace, bridge, args)
    panel.setWindowTitle(f"{title} — {workspace.path.name}" if workspace else title)
    panel.resize(*size)
    panel.show()
    if after_show:
        after_show(panel, bridge, args, workspace)
    try:
        return app.exec()
    finally:
        bridge.shutdown()


def _sample_path(kind: str):
    if kind == "study":
        from engine.samples import study as sample_study

        return sample_study.build_sample_study(sample_study.sample_study_path())
    from engine.samples.workspace import build_sample_workspace, sample_workspace_path

    return build_sample_workspace(sample_workspace_path())
