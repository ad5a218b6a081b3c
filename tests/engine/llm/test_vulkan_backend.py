"""The installer's Vulkan build of llama.cpp, run here without a GPU on Mesa's lavapipe (a
Vulkan driver on the CPU): the embedded model with every layer offloaded decodes what the
CPU backend decodes, and without a Vulkan driver the same build starts on the CPU and says
why in one line.

The Vulkan build is the one the installer makes (packaging/vulkan_build.py, cached in
``~/.cache/upabhasha/wheels``) or this venv's own llama-cpp-python when it has the Vulkan
backend; the workers load it through ``LLAMA_CPP_LIB_PATH``. Skipped, with the reason, when
neither exists or no lavapipe is installed (apt-get install mesa-vulkan-drivers).
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
log = logging.getLogger(__name__)
ROOT = Path(__file__).resolve().parents[3]
WHEEL_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "upabhasha/wheels"


def _own_vulkan_lib() -> Path | None:
    import llama_cpp

    lib = Path(llama_cpp.__file__).parent / "lib"
    return lib if (lib / "libggml-vulkan.so").is_file() else None


@pytest.fixture(scope="module")
def vulkan_lib(tmp_path_factory) -> Path:
    """A llama_cpp/lib folder holding the Vulkan backend, or a skip saying why there is none."""
    from engine.llm.runtime.vulkan_devices import cpu_driver_index

    lib = _own_vulkan_lib()
    if lib is None:
        wheels = sorted(WHEEL_CACHE.glob("*-vulkan-*/llama_cpp_python-*.whl"))
        if not wheels:
            pytest.skip(
                "no Vulkan build of llama-cpp-python: neither this venv's nor one in "
                f"{WHEEL_CACHE} (make installer builds it: packaging/vulkan_build.py)"
            )
        out = tmp_path_factory.mktemp("vulkan-llama")
        with zipfile.ZipFile(wheels[-1]) as whl:
            names = [n for n in whl.namelist() if n.startswith("llama_cpp/lib/")]
            whl.extractall(out, names)
        lib = out / "llama_cpp" / "lib"
    if cpu_driver_index() is None:
        pytest.skip("no Vulkan driver that runs on the CPU: apt-get install mesa-vulkan-drivers")
    return lib


def _in_child(code: str, env: dict[str, str]) -> dict:
    """Run ``code`` in a fresh interpreter (llama.cpp loads its backends once per process)
    and return the JSON object it prints last."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_vulkan_offload_decodes_what_the_cpu_decodes(vulkan_lib, embedded_gguf, monkeypatch):
    from engine.llm.runtime.vulkan_check import offload_agreement
    from engine.llm.runtime.vulkan_devices import cpu_driver_index

    monkeypatch.setenv("LLAMA_CPP_LIB_PATH", str(vulkan_lib))  # the workers' llama.cpp
    # 16 tokens, not the check's 32: lavapipe decodes at about 2 tokens/s whatever the
    # batch, so the length is the test's time. The bounds hold with margin at 16,
    # measured here: 4 of 8 identical, 62.5 % of tokens (first differences 1, 1, 3, 11).
    found = offload_agreement(embedded_gguf, device_index=cpu_driver_index(), n_tokens=16)
    log.warning("Vulkan (lavapipe) vs CPU: %s, rate %.3f", found, found.rate)
    assert "llvmpipe" in found.vulkan_device  # every layer went to the Vulkan device
    assert found.problems() == []  # no CPU fallback; agreement at least as measured


def test_lavapipe_is_listed_as_a_cpu_driver_and_never_proposed(vulkan_lib):
    report = _in_child(
        "import json; from engine.llm.tasks import gpu_offload_report, offload_plan\n"
        "r = gpu_offload_report(); print(json.dumps(r))",
        {"LLAMA_CPP_LIB_PATH": str(vulkan_lib)},
    )
    lavapipe = [g for g in report["llama_devices"] if "llvmpipe" in g["name"]]
    assert lavapipe and all(g["cpu_driver"] and g["kind"] == "vulkan" for g in lavapipe)
    assert report["gpu_build"]
    assert "CPU" in report["backend_message"]
    assert "llvmpipe" in report["backend_message"]

    from engine.llm.models.gpu_plan import Gpu, best_gpu

    assert best_gpu([Gpu(**g) for g in report["llama_devices"]]) is None


def test_without_a_vulkan_driver_the_build_runs_on_the_cpu_and_says_why(
    vulkan_lib, embedded_gguf, tmp_path
):
    code = (
        "import json\n"
        "from engine.llm.runtime.backend_report import describe_llama_backend\n"
        "from engine.llm.models.settings import LoadOptions, Schedule\n"
        "from engine.llm.runtime.local_backend import LocalGGUFBackend\n"
        "from engine.llm.types import Request, Sampler\n"
        "info = describe_llama_backend()\n"
        f"with LocalGGUFBackend({str(embedded_gguf)!r}, schedule=Schedule(n_seq=1, n_ctx=256),"
        " load=LoadOptions(n_gpu_layers=-1)) as b:\n"
        "    req = Request(key='a', prompt='The capital of France is', sampler=Sampler(max_tokens=8))\n"
        "    [r] = b.generate([req])\n"
        "    info['reply'], info['compute'] = r.text, b.compute\n"
        "print(json.dumps(info))"
    )
    empty = tmp_path / "no-driver.json"  # the loader reads no driver from a missing file
    info = _in_child(code, {"LLAMA_CPP_LIB_PATH": str(vulkan_lib), "VK_ICD_FILENAMES": str(empty)})
    assert info["gpu_build"] and not info["gpu_usable"]
    assert "\n" not in info["message"] and "CPU" in info["message"]
    assert info["vulkan_problem"].startswith("the Vulkan loader found no driver")
    assert info["reply"]  # it decoded, on the CPU
    assert info["compute"]["devices"] == [] and info["compute"]["n_gpu_layers"] == 0
    assert info["compute"]["backends"][-1] == "CPU"


def test_without_the_vulkan_loader_the_build_runs_on_the_cpu_and_says_why(vulkan_lib):
    """The loader hidden in a private mount namespace (root only): the Vulkan plug-in does
    not load, the CPU one does, and the reason names the loader."""
    import shutil

    loader = Path("/usr/lib/x86_64-linux-gnu/libvulkan.so.1")
    if os.geteuid() != 0 or not shutil.which("unshare") or not loader.exists():
        pytest.skip("hiding the Vulkan loader needs root, unshare and a Debian library path")
    code = (
        "import json; from engine.llm.runtime.backend_report import describe_llama_backend; "
        "print(json.dumps(describe_llama_backend()))"
    )
    script = f"mount --bind /dev/null {loader} && exec {sys.executable} -c {code!r}"
    done = subprocess.run(
        ["unshare", "-m", "sh", "-c", script],
        env={**os.environ, "PYTHONPATH": str(ROOT), "LLAMA_CPP_LIB_PATH": str(vulkan_lib)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if done.returncode != 0 and "mount" in done.stderr:
        pytest.skip(f"no private mount namespace here: {done.stderr.strip()[:200]}")
    assert done.returncode == 0, done.stderr[-2000:]
    info = json.loads(done.stdout.strip().splitlines()[-1])
    assert info["backends"] == ["CPU"]
    assert "libvulkan.so.1" in info["not_loaded"]["libggml-vulkan.so"]
    assert "libvulkan.so.1" in info["message"] and "\n" not in info["message"]
    assert info["message"].endswith("models run on the CPU")
