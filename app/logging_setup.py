"""The one logging set-up: a rotating file in the platform's log folder (+ stderr with -v)."""

from __future__ import annotations

import logging
import logging.handlers
import os
from pathlib import Path

import platformdirs

from engine.text.redact import RedactingFilter

APP_NAME = "upabhasha"
# libraries that log their own set-up at INFO: faiss tries its AVX-512 and AVX2 builds
# first and logs a ModuleNotFoundError for each build the wheel lacks, which read as
# failures in a job's log
QUIET_LOGGERS = ("faiss.loader",)


def log_dir() -> Path:
    override = os.environ.get("UPABHASHA_LOG_DIR")
    return (
        Path(override) if override else Path(platformdirs.user_log_dir(APP_NAME, appauthor=False))
    )


def setup_logging(verbose: bool = False) -> Path:
    path = log_dir() / "upabhasha.log"
    root = logging.getLogger()
    if getattr(root, "_upabhasha_configured", False):
        return path
    root.setLevel(logging.INFO)
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)
    fmt = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.handlers.RotatingFileHandler(
            path, maxBytes=5_000_000, backupCount=3, encoding="utf-8"
        )
        handler.setFormatter(fmt)
        handler.addFilter(RedactingFilter())  # no key reaches the log file
        root.addHandler(handler)
    except OSError:
        pass  # a read-only home must not stop the program; stderr below still works with -v
    if verbose:
        stream = logging.StreamHandler()
        stream.setFormatter(fmt)
        stream.addFilter(RedactingFilter())
        root.addHandler(stream)
    root._upabhasha_configured = True  # type: ignore[attr-defined]
    return path
