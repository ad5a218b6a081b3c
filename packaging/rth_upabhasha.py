"""Runtime hook of the frozen Upabhasha (runs before the entry script, in every process).

1. Nothing is ever downloaded: the encoder and models are bundled or chosen by the user.
2. GPU builds carry a CPU-only llama.cpp in ``llama_cpp/lib_cpu``. When the GPU library
   cannot load (no NVIDIA driver, CUDA runtime missing), llama-cpp-python is pointed at
   the CPU copy *before* it loads, and the reason is left in UPABHASHA_LLAMA_FALLBACK for
   the start-up report. Worker processes inherit the environment, so they agree.
"""

import ctypes
import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def _gpu_library_problem(lib: Path):
    """Why the GPU llama.cpp in ``lib`` cannot be used here, or None."""
    if sys.platform == "darwin":
        return None  # Metal ships with macOS
    driver = "nvcuda.dll" if sys.platform == "win32" else "libcuda.so.1"
    try:
        ctypes.CDLL(driver)
    except OSError as exc:
        return f"no NVIDIA driver ({driver}: {exc})"
    for candidate in sorted(lib.glob("*ggml-cuda*")):
        try:
            ctypes.CDLL(str(candidate))
        except OSError as exc:
            return f"the CUDA build of llama.cpp does not load ({exc})"
    return None


_base = Path(getattr(sys, "_MEIPASS", Path(__file__).parent)) / "llama_cpp"
if (_base / "lib_cpu").is_dir() and "LLAMA_CPP_LIB_PATH" not in os.environ:
    _problem = _gpu_library_problem(_base / "lib")
    if _problem:
        os.environ["LLAMA_CPP_LIB_PATH"] = str(_base / "lib_cpu")
        os.environ["UPABHASHA_LLAMA_FALLBACK"] = _problem
