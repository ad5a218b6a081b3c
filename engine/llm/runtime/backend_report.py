"""Which compute backend this llama.cpp offers: reported at start-up and by the smoke test.

A GPU build (CUDA, Metal, Vulkan) still runs on the CPU when no usable GPU or driver is found:
the frozen CUDA builds switch to their bundled CPU library before llama.cpp loads
(packaging/rth_upabhasha.py leaves the reason in UPABHASHA_LLAMA_FALLBACK); the Vulkan build
loads its backends as plug-ins and skips the Vulkan one when the system lacks the loader
(engine.llm.runtime.ggml_backends gives the reason). This module puts each case into one
sentence the user can act on.
"""

from __future__ import annotations

import dataclasses
import logging
import os

from engine.i18n import _
from engine.llm.runtime.ggml_backends import list_devices, load_backends
from engine.llm.runtime.vulkan_devices import VulkanDevice, vulkan_devices

log = logging.getLogger(__name__)


def describe_llama_backend() -> dict:
    """{'gpu_build', 'gpu_usable', 'devices', 'backends', 'not_loaded', 'vulkan_devices',
    'vulkan_problem', 'fallback', 'message', 'llama_cpp'}: ``devices`` as
    :class:`~engine.llm.runtime.ggml_backends.Device` dicts, ``vulkan_devices`` as the
    loader's :class:`~engine.llm.runtime.vulkan_devices.VulkanDevice` dicts."""
    # lazy: llama.cpp's native library loads only when a local model is used
    import llama_cpp

    loaded = load_backends()
    llama_cpp.llama_backend_init()
    devices = list_devices()
    # a Vulkan plug-in counts whether it loaded or not: the build can offload
    plugins = [n for n in loaded.loaded if n != "CPU"] + list(loaded.failed)
    gpu_build = bool(llama_cpp.llama_supports_gpu_offload() or plugins)
    gpus = [d for d in devices if d.offload_target]
    # the Vulkan loader's own list: llama.cpp hides a driver that runs on the CPU (lavapipe)
    vulkan: list[VulkanDevice] = []
    vulkan_problem: str | None = None
    if "Vulkan" in loaded.loaded or any("vulkan" in name for name in loaded.failed):
        vulkan, vulkan_problem = vulkan_devices()
    cpu_drivers = [d.description for d in devices if d.cpu_driver]
    cpu_drivers += [d.name for d in vulkan if d.on_cpu and d.name not in cpu_drivers]
    fallback = os.environ.get("UPABHASHA_LLAMA_FALLBACK")
    vulkan_missing = None  # a Vulkan build without a usable loader or driver: why
    if not fallback and not gpus and (loaded.failed or vulkan_problem):
        vulkan_missing = vulkan_problem or "; ".join(
            f"{name}: {why}" for name, why in loaded.failed.items()
        )
    if fallback:
        message = _("GPU build, but {reason}: llama.cpp runs on the CPU").format(reason=fallback)
    elif vulkan_missing:
        message = _(
            "Vulkan build of llama.cpp, but {reason} (a GPU needs the Vulkan loader and its "
            "Vulkan driver): models run on the CPU"
        ).format(reason=vulkan_missing)
    elif gpus:
        message = _("llama.cpp offloads to {devices}").format(
            devices=", ".join(f"{d.name} ({d.description})" for d in gpus)
        )
    elif cpu_drivers:
        message = _(
            "GPU build of llama.cpp; the only Vulkan device is {device}, a driver that runs "
            "on the CPU: models run on llama.cpp's own CPU backend"
        ).format(device=cpu_drivers[0])
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
        "gpu_usable": bool(gpus and not os.environ.get("UPABHASHA_LLAMA_FALLBACK")),
        "devices": [dataclasses.asdict(d) for d in devices],
        "backends": loaded.loaded,
        "not_loaded": loaded.failed,
        "vulkan_devices": [dataclasses.asdict(d) for d in vulkan],
        "vulkan_problem": vulkan_problem,
        "fallback": fallback or vulkan_missing,
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
