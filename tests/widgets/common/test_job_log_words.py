"""A job's log line words the settings and steps an engine message names, as the window does."""

from __future__ import annotations

import logging

from engine.errors import Step, step
from widgets.common.job_log import job_log_line


def test_a_logged_engine_message_names_the_step_in_the_windows_words():
    record = logging.LogRecord(
        "engine.llm.runs.model_runs",
        logging.ERROR,
        __file__,
        1,
        "model %r did not load: file gone (%s)",
        ("x", step(Step.ADD_MODEL)),
        None,
    )
    line = job_log_line(record)
    assert "⟦" not in line and "⟧" not in line
    assert "the Models panel" in line
