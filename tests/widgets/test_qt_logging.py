"""Qt's own warnings end up in Python logging."""

from __future__ import annotations

import logging

from PySide6.QtCore import qWarning

from app.qt_logging import install_qt_message_handler, uninstall_qt_message_handler


def test_qt_warning_is_logged(qapp, caplog):
    previous = install_qt_message_handler()
    try:
        with caplog.at_level(logging.DEBUG, logger="qt"):
            qWarning("font fallback failed for বাংলা")
    finally:
        uninstall_qt_message_handler(previous)
    records = [r for r in caplog.records if r.name.startswith("qt")]
    assert records and records[0].levelno == logging.WARNING
    assert records[0].getMessage() == "font fallback failed for বাংলা"
