"""A job's log line as the Jobs panel shows it: in the interface language.

The engine logs English templates (the log file stays English); those a job's log shows are
marked with ``N_`` so the catalogue holds them, and here they, the level names and the
numbers (in the interface's digits) are put in the interface language.
"""

from __future__ import annotations

import logging
import re
import time

from engine.i18n import _, digits
from widgets.common.hints import for_gui

_PERCENT_D = re.compile(r"%d")


def level_name(levelname: str) -> str:
    """A log level as the Jobs panel shows it, in the interface language."""
    return {"INFO": _("INFO"), "WARNING": _("WARNING"), "ERROR": _("ERROR")}.get(
        levelname, levelname
    )


def job_log_line(record: logging.LogRecord) -> str:
    """A record as a line of a job's log, in the interface language: the template through
    the catalogue (engine templates are marked with ``N_``), numbers in its digits."""
    # numbers become the interface's digits, so a template's %d takes them as text
    template = _PERCENT_D.sub("%s", _(str(record.msg)))
    args = record.args if isinstance(record.args, tuple) else (record.args,)
    try:
        message = template % tuple(digits(a) if isinstance(a, int) else a for a in args)
    except (TypeError, ValueError):  # a translated template that does not take the numbers
        message = record.getMessage()
    message = for_gui(message)  # an engine message names settings and steps neutrally
    stamp = digits(time.strftime("%H:%M:%S", time.localtime(record.created)))
    return f"{stamp} {level_name(record.levelname)} {record.name}: {message}"
