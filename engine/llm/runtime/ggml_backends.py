"""llama.cpp's compute backends: loaded from the package's library folder, and the devices
they see (name, vendor, memory, type).

A llama.cpp built with ``GGML_BACKEND_DL`` (the installer's Vulkan build) links no backend:
each one (``libggml-cpu.so``, ``libggml-vulkan.so``) is a plug-in that someone must load
before a model can load, and llama-cpp-python does not. :func:`load_backends` does it once per
process. A plug-in that cannot load (the Vulkan one on a machine without ``libvulkan.so.1``)
is skipped with its reason, and llama.cpp runs on the others. A build with its backends linked
in (PyPI's CPU build, the CUDA build) needs nothing loaded: the call only reads the devices.

Vulkan drivers that run on the CPU (Mesa's lavapipe, "llvmpipe"; SwiftShader) are marked
``cpu_driver``: they are never proposed for offload. llama.cpp itself skips them unless
``GGML_VK_VISIBLE_DEVICES`` names them (the tests do, to run the Vulkan path without a GPU).
"""

from __future__ import annotations

import ctypes
import logging
import threading
from dataclasses import dataclass, field
from pathlib import Path

from engine.i18n import _
from engine.llm.runtime.llama_log import route_llama_logs

log = logging.getLogger(__name__)

# enum ggml_backend_dev_type (ggml-backend.h)
DEVICE_TYPES = {0: "CPU", 1: "GPU", 2: "IGPU", 3: "ACCEL", 4: "META"}
# Vulkan implementations on the CPU, by the device names their drivers report
CPU_DRIVER_NAMES = ("llvmpipe", "lavapipe", "swiftshader")
# the vendor a device name starts with or contains (Vulkan and CUDA report marketing names)
VENDORS = (
    ("nvidia", "NVIDIA"),
    ("geforce", "NVIDIA"),
    ("quadro", "NVIDIA"),
    ("tesla", "NVIDIA"),
    ("amd", "AMD"),
    ("radeon", "AMD"),
    ("intel", "Intel"),
    ("apple", "Apple"),
    ("llvmpipe", "Mesa (CPU)"),
    ("swiftshader", "Google (CPU)"),
)
# libraries in llama_cpp/lib that are not backend plug-ins
NOT_PLUGINS = ("libggml.so", "libggml-base.so")


@dataclass(frozen=True)
class Device:
    backend: str  # the registry's name: "CPU", "Vulkan", "CUDA", "Metal"
    name: str  # llama.cpp's device name: "Vulkan0", "CUDA0", "CPU"
    description: str  # the hardware: "NVIDIA GeForce RTX 4090", "llvmpipe (LLVM 15.0.6, 256 bits)"
    vendor: str
    type: str  # "CPU" | "GPU" | "IGPU" | "ACCEL"
    free_bytes: int
    total_bytes: int
    cpu_driver: bool  # a Vulkan driver that runs on the CPU (lavapipe): never offload to it

    @property
    def offload_target(self) -> bool:
        return self.type in ("GPU", "IGPU") and not self.cpu_driver


@dataclass
class BackendLoad:
    """What :func:`load_backends` did: plug-ins loaded, those that failed and why."""

    dynamic: bool = False  # a GGML_BACKEND_DL build (backends are plug-ins)
    loaded: list[str] = field(default_factory=list)  # registry names: "CPU", "Vulkan"
    failed: dict[str, str] = field(default_factory=dict)  # plug-in file → the one-line reason


_lock = threading.Lock()
_load: BackendLoad | None = None


def vendor_of(description: str) -> str:
    low = description.lower()
    return next((vendor for key, vendor in VENDORS if key in low), "")


def is_cpu_driver(description: str) -> bool:
    low = description.lower()
    return any(name in low for name in CPU_DRIVER_NAMES)


def _lib():
    # lazy: llama.cpp's native library loads only when a local model is used
    from llama_cpp import llama_cpp as C

    lib = C._lib
    lib.ggml_backend_reg_count.restype = ctypes.c_size_t
    lib.ggml_backend_reg_get.restype = ctypes.c_void_p
    lib.ggml_backend_reg_get.argtypes = [ctypes.c_size_t]
    lib.ggml_backend_reg_name.restype = ctypes.c_char_p
    lib.ggml_backend_reg_name.argtypes = [ctypes.c_void_p]
    lib.ggml_backend_load_all_from_path.restype = None
    lib.ggml_backend_load_all_from_path.argtypes = [ctypes.c_char_p]
    return lib


def library_folder() -> Path:
    """llama_cpp/lib, or the folder LLAMA_CPP_LIB_PATH points llama-cpp-python at."""
    from llama_cpp import llama_cpp as C

    return Path(C._lib._name).resolve().parent


def registered(lib) -> list[str]:
    names = []
    for i in range(lib.ggml_backend_reg_count()):
        names.append((lib.ggml_backend_reg_name(lib.ggml_backend_reg_get(i)) or b"").decode())
    return names


def _plugin_problem(path: Path) -> str | None:
    """Why the dynamic loader refuses a plug-in (a missing ``libvulkan.so.1``), or None.
    llama.cpp loads plug-ins silently in release builds, so the reason is taken here."""
    import _ctypes  # not ctypes.CDLL: a frozen program's CDLL replaces the loader's reason

    try:
        _ctypes.dlopen(str(path), ctypes.RTLD_LOCAL)
    except OSError as exc:
        return str(exc)  # "libvulkan.so.1: cannot open shared object file: No such file…"
    return None


def _expected(problem: str | None) -> bool:
    """No GPU driver, or no Vulkan loader (the .deb only recommends it): a CPU machine's
    normal state, which the backend report words; anything else is a fault."""
    return problem is None or "cannot open shared object file" in problem


def load_backends() -> BackendLoad:
    """Load llama.cpp's backend plug-ins once (a no-op for builds that link them in)."""
    global _load
    with _lock:
        if _load is not None:
            return _load
        route_llama_logs()  # ggml's messages about the plug-ins go to the log, not stderr
        lib = _lib()
        result = BackendLoad()
        problems: dict[str, str | None] = {}
        if lib.ggml_backend_reg_count() == 0:
            result.dynamic = True
            folder = library_folder()
            plugins = sorted(
                p
                for p in folder.glob("libggml-*.so")
                if p.name not in NOT_PLUGINS and not p.is_symlink()
            )
            problems = {p.name: _plugin_problem(p) for p in plugins}
            lib.ggml_backend_load_all_from_path(str(folder).encode())
            names = registered(lib)
            for plugin, problem in problems.items():
                backend = plugin.removeprefix("libggml-").removesuffix(".so").split("-")[0]
                if any(n.lower() == backend for n in names):
                    continue
                result.failed[plugin] = problem or _("it found no driver or device")
        result.loaded = registered(lib)
        for plugin, reason in result.failed.items():
            level = logging.INFO if _expected(problems.get(plugin)) else logging.WARNING
            log.log(level, "llama.cpp backend %s not loaded: %s", plugin, reason)
        _load = result
        return result


def list_devices() -> list[Device]:
    """Every device llama.cpp can compute on, after :func:`load_backends`."""
    load_backends()
    lib = _lib()
    lib.ggml_backend_dev_count.restype = ctypes.c_size_t
    lib.ggml_backend_dev_get.restype = ctypes.c_void_p
    lib.ggml_backend_dev_get.argtypes = [ctypes.c_size_t]
    for fn in (lib.ggml_backend_dev_name, lib.ggml_backend_dev_description):
        fn.restype, fn.argtypes = ctypes.c_char_p, [ctypes.c_void_p]
    lib.ggml_backend_dev_type.restype = ctypes.c_int
    lib.ggml_backend_dev_type.argtypes = [ctypes.c_void_p]
    lib.ggml_backend_dev_backend_reg.restype = ctypes.c_void_p
    lib.ggml_backend_dev_backend_reg.argtypes = [ctypes.c_void_p]
    size = ctypes.c_size_t
    lib.ggml_backend_dev_memory.restype = None
    lib.ggml_backend_dev_memory.argtypes = [
        ctypes.c_void_p,
        ctypes.POINTER(size),
        ctypes.POINTER(size),
    ]
    devices = []
    for i in range(lib.ggml_backend_dev_count()):
        dev = lib.ggml_backend_dev_get(i)
        free, total = size(0), size(0)
        lib.ggml_backend_dev_memory(dev, ctypes.byref(free), ctypes.byref(total))
        description = (lib.ggml_backend_dev_description(dev) or b"").decode(errors="replace")
        kind = lib.ggml_backend_dev_type(dev)
        reg = lib.ggml_backend_dev_backend_reg(dev)
        devices.append(
            Device(
                backend=(lib.ggml_backend_reg_name(reg) or b"").decode() if reg else "",
                name=(lib.ggml_backend_dev_name(dev) or b"").decode(errors="replace"),
                description=description,
                vendor=vendor_of(description),
                type=DEVICE_TYPES.get(kind, str(kind)),
                free_bytes=free.value,
                total_bytes=total.value,
                cpu_driver=kind != 0 and is_cpu_driver(description),
            )
        )
    return devices
