"""llama.cpp's own log lines go to Python logging (logger ``llama.cpp``), not to stderr.

llama-cpp-python 0.3.36 installs a callback that echoes to stderr every line at or above its
logger's level, but maps ggml's levels with an older enum (WARN = 2): llama.cpp's WARN (3)
counts as ERROR there, so load-time notes ("control-looking token …", "using full-size SWA
cache") printed into every CLI run. This callback reads the enum of the bundled ggml.h
(NONE 0, DEBUG 1, INFO 2, WARN 3, ERROR 4, CONT 5) and logs llama.cpp's warnings at INFO:
they describe the model file, not a problem of the run.
"""

from __future__ import annotations

import ctypes
import logging

log = logging.getLogger("llama.cpp")

_LEVELS = {0: logging.DEBUG, 1: logging.DEBUG, 2: logging.DEBUG, 3: logging.INFO, 4: logging.ERROR}
_CONTINUE = 5
_installed = None  # the ctypes callback, kept alive for as long as llama.cpp may call it
_last_level = logging.DEBUG


def route_llama_logs() -> None:
    """Install the callback (once per process)."""
    global _installed
    if _installed is not None:
        return
    # lazy: llama.cpp's native library loads only when a local model is used
    import llama_cpp as L

    @L.llama_log_callback
    def callback(level: int, text: bytes, _user_data) -> None:
        global _last_level
        if level != _CONTINUE:
            _last_level = _LEVELS.get(level, logging.DEBUG)
        message = text.decode("utf-8", "replace").rstrip()
        if message and log.isEnabledFor(_last_level):
            log.log(_last_level, "%s", message)

    L.llama_log_set(callback, ctypes.c_void_p(0))
    _installed = callback
