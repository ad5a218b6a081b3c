"""Why a llama.cpp backend plug-in did not load: the dynamic loader's own reason (a frozen
program's ctypes wrapper would replace it), and which reasons are a CPU machine's normal
state rather than a fault."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from engine.llm.runtime import ggml_backends


def test_a_plugin_missing_a_library_names_it_and_counts_as_a_cpu_machines_state(tmp_path):
    if sys.platform != "linux" or not shutil.which("gcc"):
        pytest.skip("builds two shared libraries with gcc")
    (tmp_path / "dep.c").write_text("int dep(void) { return 1; }\n")
    (tmp_path / "plugin.c").write_text("int dep(void);\nint plugin(void) { return dep(); }\n")
    gcc = ["gcc", "-shared", "-fPIC"]
    subprocess.run([*gcc, "-o", str(tmp_path / "libdep.so"), str(tmp_path / "dep.c")], check=True)
    plugin = tmp_path / "libggml-demo.so"
    subprocess.run(
        [*gcc, "-o", str(plugin), str(tmp_path / "plugin.c"), f"-L{tmp_path}", "-ldep"],
        check=True,
    )
    (tmp_path / "libdep.so").unlink()  # as libvulkan.so.1 is on a machine without the loader
    problem = ggml_backends._plugin_problem(plugin)
    assert problem is not None and "libdep.so: cannot open shared object file" in problem
    assert ggml_backends._expected(problem)
    assert ggml_backends._expected(None)  # loaded, but no driver or device
    assert not ggml_backends._expected("libvulkan.so.1: file too short")
