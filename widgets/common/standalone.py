"""Open one panel alone, ``python -m widgets.<stage>.<panel>`` (house style 8), on a workspace given
on the command line or on sample data built on first use."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable

from PySide6.QtWidgets import QApplication

from engine.workspace.api import Workspace
from widgets.common.fonts import register_qt_fonts
from widgets.common.qt_translations import install_qt_translations
from widgets.common.task_bridge import TaskBridge


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
    bundled sample data), "study" (a synthetic judged study), "annotation" (the sample data,
    or the given workspace, with two annotators and a blind batch when it has none; a
    throw-away copy) or None (no workspace)."""
    # the sample builders: slow to import, and no panel needs them
    from engine.samples import api as samples

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
    install_qt_translations(app)
    workspace = None
    if sample:
        workspace = Workspace(args.workspace or _sample_path(sample), create=False)
        if sample == "annotation":
            workspace = samples.with_sample_batch(workspace)
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
    from engine.samples import api as samples  # see run_panel

    if kind == "study":
        return samples.build_sample_study(samples.sample_study_path())
    return samples.build_sample_workspace(samples.sample_workspace_path())
