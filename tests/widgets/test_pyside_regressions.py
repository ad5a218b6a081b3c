"""Guards against PySide6 releases with bugs that break this application."""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal


class Emitter(QObject):
    sig = Signal(object)


def test_signal_emit_keeps_the_refcount_of_true(qapp):
    # PySide6 6.12.0 returned True from emit() without a reference: after enough emits
    # the interpreter aborts with "bool_dealloc: deallocating True or False".
    emitter = Emitter()
    emitter.sig.connect(lambda value: None)
    before = sys.getrefcount(True)
    for _ in range(100):
        emitter.sig.emit(1.5)
    assert sys.getrefcount(True) - before > -50
