"""Route Qt's own messages (qDebug/qWarning/...) into Python logging under the ``qt`` logger."""

from __future__ import annotations

import logging

from PySide6.QtCore import QtMsgType, qInstallMessageHandler

log = logging.getLogger("qt")

_installed = False


def _level(mode) -> int:
    return {
        QtMsgType.QtDebugMsg: logging.DEBUG,
        QtMsgType.QtInfoMsg: logging.INFO,
        QtMsgType.QtWarningMsg: logging.WARNING,
        QtMsgType.QtCriticalMsg: logging.ERROR,
        QtMsgType.QtFatalMsg: logging.CRITICAL,
    }.get(mode, logging.WARNING)


def _handler(mode, context, message: str) -> None:
    category = getattr(context, "category", None) or ""
    name = f"qt.{category}" if category and category != "default" else "qt"
    logging.getLogger(name).log(_level(mode), "%s", message)


def install_qt_message_handler():
    """Route Qt messages into logging; returns the handler it replaced (idempotent)."""
    global _installed
    if _installed:
        return None
    previous = qInstallMessageHandler(_handler)
    _installed = True
    return previous


def uninstall_qt_message_handler(previous=None) -> None:
    global _installed
    qInstallMessageHandler(previous)
    _installed = False
