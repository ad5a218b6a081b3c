"""``upabhasha-gui [WORKSPACE] [--smoke-test]``: start the workstation window.

Start-up imports only Qt, the store and the panels; llama_cpp, torch, faiss and
matplotlib load when first used, so the window shows fast. ``--smoke-test`` shows the
window offscreen, records the start-up (time, heavy modules loaded by then), closes it,
then runs the end-to-end checks of :mod:`app.smoke_test` (model, translation, answer,
judgment, chart, every lazy import, stderr allow-list) and prints one JSON line; exit 0
when all passed.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time

# none may be loaded when the first window shows (the smoke test reports them)
HEAVY_MODULES = (
    "llama_cpp",
    "torch",
    "faiss",
    "sentence_transformers",
    "matplotlib.pyplot",
    "pandas",  # sqlite-utils imports it with itself: the workspace loads it when first used
    "sqlite_utils",
    "scipy",
    "sklearn",
    "nltk",
    "numpy",  # the statistics and the nesting check import it when they first run
)
# loaded when a workspace opens (its panels' stages import numpy with themselves): not
# counted when the window shows with a workspace given on the command line
WORKSPACE_LOADS = ("numpy",)

log = logging.getLogger(__name__)


def process_age_s() -> float | None:
    """Seconds since this process started (Linux /proc), to time start-up honestly."""
    try:
        with open("/proc/self/stat", encoding="ascii") as fh:
            start_ticks = int(fh.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime", encoding="ascii") as fh:
            uptime = float(fh.read().split()[0])
        return uptime - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def open_file(window, path: str, *, create: bool) -> bool:
    """A workspace, or a review package (the menu entry opens both file types)."""
    from engine.annotation.api import PACKAGE_SUFFIX

    if path.endswith(PACKAGE_SUFFIX) and not create:
        return window.annotation.open_package_file(path) is not None
    return window.open_workspace(path, create=create)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="upabhasha-gui", description="Upabhasha workstation")
    parser.add_argument(
        "workspace", nargs="?", help="workspace file to open (or a review package, .upkg)"
    )
    parser.add_argument("--new", action="store_true", help="create WORKSPACE if it is missing")
    parser.add_argument(
        "--smoke-test",
        action="store_true",
        help="start offscreen, run the end-to-end self-check, print a "
        "JSON line and exit (0 = passed)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log to stderr too")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    started = time.perf_counter()
    args = parse_args(argv)
    smoke = None
    # Imports follow the start-up order: the smoke test's offscreen platform and the language
    # come before Qt and any panel loads, and the platform check before PySide6 is imported.
    if args.smoke_test:
        from app.smoke_test import SmokeTest

        smoke = SmokeTest()  # offscreen platform and stderr capture, before Qt loads
    from app.logging_setup import setup_logging

    log_path = setup_logging(args.verbose)
    from app.language_menu import apply_language, startup_language
    from app.settings import load_settings

    settings = load_settings()
    apply_language(startup_language(settings.language))  # before any panel is imported or built
    from app.qt_platform_check import platform_problem

    problem = platform_problem()
    if problem:  # instead of Qt's plugin error and abort
        log.error("%s", problem)
        print(problem, file=sys.stderr)
        return 3
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication

    from app.qt_logging import install_qt_message_handler
    from widgets.common.fonts import register_qt_fonts

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Upabhasha")
    app.setOrganizationName("Upabhasha")
    QGuiApplication.setApplicationDisplayName("Upabhasha")  # a static of the GUI class
    install_qt_message_handler()
    register_qt_fonts(app)
    from app.gc_guard import GarbageCollector

    collector = GarbageCollector(app)
    from app.main_window import MainWindow

    window = MainWindow(settings)
    window.show()
    if args.workspace and not open_file(window, args.workspace, create=args.new):
        if smoke:
            smoke.abort()
            return 2
    opened = WORKSPACE_LOADS if args.workspace else ()
    heavy = [m for m in HEAVY_MODULES if m in sys.modules and m not in opened]
    # the frozen build's start check (bench/frozen_start.py) reads this line
    log.info(
        "window shown after %.2f s (log: %s); %d modules loaded, heavy: %s",
        time.perf_counter() - started,
        log_path,
        len(sys.modules),
        ",".join(heavy) or "none",
    )
    startup: dict = {}
    if not smoke:

        def report_backend() -> None:  # after the window shows: llama_cpp loads here
            from engine.llm.api import log_llama_backend

            info = log_llama_backend()
            if info:
                window.statusBar().showMessage(info["message"], 15000)

        QTimer.singleShot(1000, report_backend)
    if smoke:

        def report() -> None:
            age = process_age_s()
            startup.update(
                {
                    "startup_s": round(
                        age if age is not None else time.perf_counter() - started, 3
                    ),
                    "main_to_shown_s": round(time.perf_counter() - started, 3),
                    "shown": window.isVisible(),
                    "workspace": str(window.workspace.path) if window.workspace else None,
                    "panels": [window.tabs.tabText(i) for i in range(window.tabs.count())],
                    "heavy_modules_loaded": heavy,
                }
            )
            window.close()
            app.quit()

        QTimer.singleShot(0, report)
    code = app.exec()
    collector.stop()
    if smoke:
        return smoke.finish(startup)  # the headless checks run after the window closed
    if window.jobs_left_running:
        from app.window_closing import exit_leaving

        exit_leaving(window.jobs_left_running, code)
    return code


if __name__ == "__main__":
    sys.exit(main())
