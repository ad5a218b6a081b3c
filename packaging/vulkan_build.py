"""The installer's llama-cpp-python: llama.cpp with its Vulkan backend beside the CPU backend,
both as run-time plug-ins (``GGML_BACKEND_DL``), so one bundle uses an NVIDIA, AMD or Intel
GPU through the system's Vulkan driver and still starts on a machine without one (the app
loads the plug-ins: engine/llm/runtime/ggml_backends.py).

``GGML_NATIVE=OFF``: the CPU backend is built for x86-64 with AVX2/FMA/F16C, not for the build
host (PyPI's sdist built on this host took its AVX-512 instructions, which a user's CPU may
lack). ``GGML_CPU_ALL_VARIANTS`` would add one CPU plug-in per instruction-set level, but
llama-cpp-python 0.3.36 installs only the ``ggml-cpu`` target, so its variants would never
reach the wheel; it also multiplies the build time.

The wheel is built once per version and flags and kept outside the clone
(``~/.cache/upabhasha/wheels/<version>-vulkan-<hash>/``), so CI's clean clone reuses it. Its
build needs the Vulkan headers and the shader compiler (``libvulkan-dev``, ``glslc``):
installed with apt-get when missing and running as root, as package_checks does for lint (the
Debian 11 build root of build_root.py brings its own ``glslc``); cmake and ninja come from PyPI.
"""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
from pathlib import Path

LLAMA_CPP_VERSION = "0.3.36"
CMAKE_ARGS = "-DGGML_VULKAN=ON -DGGML_BACKEND_DL=ON -DGGML_NATIVE=OFF"
BUILD_PACKAGES = ("libvulkan-dev", "glslc", "g++")
# newer than Debian 11's cmake 3.18, whose FindVulkan knows no glslc: from PyPI, into the venv
BUILD_TOOLS = ("cmake>=3.28", "ninja")
# Debian 12's Vulkan headers (1.3.239) predate VK_EXT_layer_settings (1.3.272), which
# llama.cpp uses only to switch on the validation layer's best-practice checks when that
# layer is present: compiled only with headers that know it. (path, text, replacement)
PATCHES = (
    (
        "vendor/llama.cpp/ggml/src/ggml-vulkan/ggml-vulkan.cpp",
        """    VkBool32 enable_best_practice = layer_settings;
    std::vector<vk::LayerSettingEXT> settings = {""",
        """#if VK_HEADER_VERSION >= 272
    VkBool32 enable_best_practice = layer_settings;
    std::vector<vk::LayerSettingEXT> settings = {""",
    ),
    (
        "vendor/llama.cpp/ggml/src/ggml-vulkan/ggml-vulkan.cpp",
        """    vk::InstanceCreateInfo instance_create_info(vk::InstanceCreateFlags{}, &app_info, layers, extensions, &layer_setting_info);
""",
        """    vk::InstanceCreateInfo instance_create_info(vk::InstanceCreateFlags{}, &app_info, layers, extensions, &layer_setting_info);
#else
    vk::InstanceCreateInfo instance_create_info(vk::InstanceCreateFlags{}, &app_info, layers, extensions);
#endif
""",
    ),
)


def say(text: str) -> None:
    print(f"[installer] {text}", flush=True)


def cache_folder() -> Path:
    """Per version, flags and glibc: a wheel built on a newer system needs its glibc."""
    made_from = f"{LLAMA_CPP_VERSION} {CMAKE_ARGS} {platform.libc_ver()}"
    key = hashlib.sha256(made_from.encode()).hexdigest()[:12]
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "upabhasha" / "wheels" / f"{LLAMA_CPP_VERSION}-vulkan-{key}"


def cached_wheel() -> Path | None:
    found = sorted(cache_folder().glob("llama_cpp_python-*.whl"))
    return found[-1] if found else None


def missing_packages() -> list[str]:
    if not shutil.which("dpkg-query"):
        return []  # not Debian: the build says what it lacks
    missing = []
    for package in BUILD_PACKAGES:
        if shutil.which(package):  # a tool the build root provides without a package (glslc)
            continue
        done = subprocess.run(
            ["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True
        )
        if "install ok installed" not in done.stdout:
            missing.append(package)
    return missing


def ensure_build_packages() -> None:
    missing = missing_packages()
    if not missing:
        return
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        raise SystemExit(
            f"the Vulkan build of llama.cpp needs {', '.join(missing)}: "
            f"sudo apt-get install {' '.join(missing)}"
        )
    say(f"apt-get install {' '.join(missing)} (the Vulkan build's headers and shader compiler)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "install", "-y", "-q", *missing], check=True, env=env)


def patched_source(python: str, work: Path) -> Path:
    """llama-cpp-python's sdist from the package index, unpacked and patched (:data:`PATCHES`);
    the build backend goes into ``python``'s environment (the build runs without isolation,
    so the patched tree is what gets built)."""
    pip = [python, "-m", "pip"]
    subprocess.run(
        [
            *pip,
            "download",
            "--quiet",
            "--no-deps",
            "--no-binary",
            "llama-cpp-python",  # its source; its build tools as wheels
            "-d",
            str(work),
            f"llama-cpp-python=={LLAMA_CPP_VERSION}",
        ],
        check=True,
    )
    [sdist] = work.glob("llama_cpp_python-*.tar.gz")
    with tarfile.open(sdist) as tar:
        # the build root's Python 3.11.2 predates extraction filters; the sdist's own build
        # code runs next anyway
        if hasattr(tarfile, "data_filter"):
            tar.extractall(work, filter="data")
        else:
            tar.extractall(work)  # noqa: S202
    source = work / sdist.name.removesuffix(".tar.gz")
    requires = tomllib.loads((source / "pyproject.toml").read_text())["build-system"]["requires"]
    subprocess.run([*pip, "install", "--quiet", *requires, *BUILD_TOOLS], check=True)
    for rel, text, replacement in PATCHES:
        path = source / rel
        code = path.read_text(encoding="utf-8")
        if code.count(text) != 1:
            raise SystemExit(f"{rel}: the code packaging/vulkan_build.py patches has changed")
        path.write_text(code.replace(text, replacement), encoding="utf-8")
    return source


def vulkan_wheel(python: str = sys.executable) -> Path:
    """The cached Vulkan wheel, built now when there is none (tens of minutes on 2 cores)
    with ``python``'s environment (the build venv: its build backend lands there)."""
    wheel = cached_wheel()
    if wheel is not None:
        say(f"reusing {wheel}")
        return wheel
    ensure_build_packages()
    folder = cache_folder()
    folder.parent.mkdir(parents=True, exist_ok=True)
    say(f"building llama-cpp-python {LLAMA_CPP_VERSION} with {CMAKE_ARGS} (once; cached)")
    started = time.perf_counter()
    # the venv's cmake and ninja (BUILD_TOOLS) before the system's
    path = f"{Path(python).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    env = {**os.environ, "CMAKE_ARGS": CMAKE_ARGS, "PATH": path}
    env.setdefault("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2))
    with tempfile.TemporaryDirectory(dir=folder.parent) as tmp:
        source = patched_source(python, Path(tmp))
        out = Path(tmp) / "wheel"
        command = [
            python,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(out),
        ]
        build_dir = os.environ.get("UPABHASHA_VULKAN_BUILD_DIR")  # kept: a rerun is incremental
        if build_dir:
            command += ["--config-settings", f"build-dir={build_dir}"]
        subprocess.run([*command, str(source)], check=True, env=env)
        shutil.rmtree(folder, ignore_errors=True)
        os.replace(out, folder)  # whole or not at all: a killed build leaves no half cache
    wheel = cached_wheel()
    if wheel is None:
        raise SystemExit(f"pip wheel left no llama_cpp_python wheel in {folder}")
    say(f"built {wheel.name} in {(time.perf_counter() - started) / 60:.1f} min")
    return wheel


def install_vulkan_llama(venv_python: Path) -> Path:
    """Install the Vulkan wheel into the build venv before the project, so that resolving the
    project's ``llama-cpp-python`` requirement keeps it."""
    wheel = vulkan_wheel(str(venv_python))
    subprocess.run([str(venv_python), "-m", "pip", "install", "--quiet", str(wheel)], check=True)
    return wheel
