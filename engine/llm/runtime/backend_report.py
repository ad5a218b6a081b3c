"""Which compute backend this llama.cpp offers: reported at start-up and by the smoke test.

A GPU build (CUDA, Metal) still runs on the CPU when no usable GPU or driver is found;
the frozen GPU builds then switch to their bundled CPU library before llama.cpp loads
(packaging/rth_upabhasha.py leaves the reason in UPABHASHA_LLAMA_FALLBACK). This module
puts either case into one sentence the user can act on.
"""

from __future__ import annotations

import ctypes
import logging
import os

from engine.i18n import _

log = logging.getLogger(__name__)

# enum ggml_backend_dev_type (ggml-backend.h)
DEVICE_TYPES = {0: "CPU", 1: "GPU", 2: "IGPU", 3: "ACCEL"}


def _devices(lib) -> list[dict]:
    """The devices ggml registered (name, description, type); [] when not exposed."""
    try:
        count, get = lib.ggml_backend_dev_count, lib.ggml_backend_dev_get
        name, desc, kind = (
            lib.ggml_backend_dev_name,
            lib.ggml_backend_dev_description,
            lib.ggml_backend_dev_type,
        )
    except AttributeError:  # symbols not reachable through libllama (e.g. Windows)
        return []
    count.restype, get.restype = ctypes.c_size_t, ctypes.c_void_p
    get.argtypes = [ctypes.c_size_t]
    for fn in (name, desc):
        fn.restype, fn.argtypes = ctypes.c_char_p, [ctypes.c_void_p]
    kind.restype, kind.argtypes = ctypes.c_int, [ctypes.c_void_p]
    devices = []
    for i in range(count()):
        dev = get(i)
        devices.append(
            {
                "name": (name(dev) or b"").decode(errors="replace"),
                "description": (desc(dev) or b"").decode(errors="replace"),
                "type": DEVICE_TYPES.get(kind(dev), str(kind(dev))),
            }
        )
    return devices


def describe_llama_backend() -> dict:
    """{'gpu_build', 'gpu_usable', 'devices', 'fallback', 'message', 'llama_cpp'}."""
    # lazy: llama.cpp's native library loads only when a local model is used
    import llama_cpp
    from llama_cpp import llama_cpp as C

    llama_cpp.llama_backend_init()
    gpu_build = bool(llama_cpp.llama_supports_gpu_offload())
    devices = _devices(C._lib)
    gpus = [d for d in devices if d["type"] in ("GPU", "IGPU")]
    fallback = os.environ.get("UPABHASHA_LLAMA_FALLBACK")
    if fallback:
        message = _("GPU build, but {reason}: llama.cpp runs on the CPU").format(reason=fallback)
    elif gpu_build and gpus:
        message = _("llama.cpp offloads to {devices}").format(
            devices=", ".join(f"{d['name']} ({d['description']})" for d in gpus)
        )
    elif gpu_build:
        message = _(
            "GPU build of llama.cpp, but no usable GPU was found (driver missing or "
            "too old?): models run on the CPU"
        )
    else:
        message = _("CPU build of llama.cpp: models run on the CPU")
    return {
        "llama_cpp": llama_cpp.__version__,
        "gpu_build": gpu_build,
        "gpu_usable": bool(gpu_build and gpus and not fallback),
        "devices": devices,
        "fallback": fallback,
        "message": message,
    }


def log_llama_backend() -> dict | None:
    """Describe the backend into the log (a warning when a GPU build fell back to CPU)."""
    try:
        info = describe_llama_backend()
    except Exception as exc:  # noqa: BLE001 - a report must never stop the program
        log.error("llama.cpp does not load: %s: %s", type(exc).__name__, exc)
        return None
    level = logging.WARNING if info["gpu_build"] and not info["gpu_usable"] else logging.INFO
    log.log(level, "%s", info["message"])
    return info
