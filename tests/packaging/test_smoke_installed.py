"""The installed ``upabhasha-gui --smoke-test`` passes, with user data in platform folders.

The user-data overrides the other tests use (UPABHASHA_DATA_DIR …) are removed and the XDG
folders point into tmp_path, so this checks where the installed program itself puts the
assembled model, settings and logs — and that nothing is written next to the program.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.widgets.test_main_window import PANEL_TITLES

pytestmark = pytest.mark.slow


def platform_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("UPABHASHA_")}
    env.update(
        HOME=str(home),
        XDG_DATA_HOME=str(home / "data"),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_STATE_HOME=str(home / "state"),
        XDG_CACHE_HOME=str(home / "cache"),
    )
    env.pop("QT_QPA_PLATFORM", None)  # the smoke test must choose offscreen by itself
    return env


def test_installed_gui_script_passes_its_smoke_test(tmp_path):
    """One run checks the script, the platform folders, every stage and the window: the
    sample study opened in it, every panel built, no heavy library loaded when it showed."""
    from engine.samples.workspace import build_sample_workspace

    script = Path(sys.executable).with_name("upabhasha-gui")
    if not script.exists():
        pytest.skip(f"{script} is not installed (pip install -e .)")
    home = tmp_path / "home"
    study = build_sample_workspace(tmp_path / "study" / "study.sqlite")
    out = subprocess.run(
        [str(script), "--smoke-test", str(study)],
        capture_output=True,
        text=True,
        env=platform_env(home),
        cwd=tmp_path,
        timeout=600,  # a loaded machine
    )
    assert out.stdout.strip(), f"no report; stderr:\n{out.stderr[-4000:]}"
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["failures"] == [], out.stderr[-4000:]
    assert out.returncode == 0 and report["ok"] is True
    assert report["shown"] is True and report["workspace"] == str(study)
    assert report["panels"] == PANEL_TITLES
    pipeline = report["pipeline"]
    assert pipeline["translation"]["written"] == 1
    assert pipeline["answers"][0]["done_now"] == 2
    assert pipeline["judgment"]["pairs"] == 1
    assert pipeline["chart"]["png_bytes"] > 1000
    # every stage, not only paper 000's chain
    assert pipeline["report"]["html_bytes"] > 1000
    assert pipeline["review_package"] == {"items": 1, "merged": 1, "merged_again": 0}
    assert (
        pipeline["task"]["runs"] == 3 and "dialect-to-standard/roman" in pipeline["task"]["metrics"]
    )
    assert pipeline["probe"] == {"replies": 1, "groups": 1}
    assert report["bengali_window"]["menus"][0].startswith("ফাইল")
    assert report["lazy_import_failures"] == {}
    assert report["tls"]["ca_certificates"] > 100  # certifi's bundle, in the context httpx makes
    assert report["heavy_modules_loaded"] == []  # at the moment the window showed
    # user data in the platform folders (XDG here), not next to the program
    assert Path(report["user_folders"]["data"]) == home / "data" / "upabhasha"
    assert Path(report["user_folders"]["config"]) == home / "config" / "upabhasha"
    assert Path(report["user_folders"]["log"]).is_relative_to(home / "state" / "upabhasha")
    model = Path(pipeline["model"]["path"])
    assert model.is_relative_to(home / "data" / "upabhasha") and model.is_file()
    assert (Path(report["user_folders"]["log"]) / "upabhasha.log").is_file()
    assert not list(tmp_path.glob("*.sqlite")), "the temporary workspace leaked into the cwd"


def test_stderr_lines_off_the_allow_list_fail(tmp_path):
    """The tee sees C-level writes to fd 2 (as llama.cpp makes them), not only sys.stderr."""
    code = (
        "import os, sys\n"
        "from app.smoke_test import StderrTee, unexpected_lines\n"
        "tee = StderrTee().start()\n"
        "os.write(2, b'Loading weights: 100%|####| 3/3 [00:00<00:00, 9.1it/s]\\n')\n"
        "os.write(2, b'ggml_backend: something new went wrong\\n')\n"
        "print('python-level warning', file=sys.stderr)\n"
        "lines = tee.stop()\n"
        "print(repr(unexpected_lines(lines)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
        timeout=60,
        check=True,
    )
    assert out.stdout.strip() == repr(
        ["ggml_backend: something new went wrong", "python-level warning"]
    )
    assert "something new went wrong" in out.stderr  # still shown to the user


def test_a_vulkan_build_that_leaves_an_installed_vulkan_driver_unused_fails(tmp_path, monkeypatch):
    """A bundled library that keeps the system's driver out (an older C++ runtime, loaded
    first, did) shows as a Vulkan build on the CPU where a Vulkan driver is installed."""
    from app import smoke_test

    (tmp_path / "lvp_icd.x86_64.json").write_text("{}")
    monkeypatch.setattr(smoke_test, "VULKAN_DRIVER_FOLDERS", (str(tmp_path),))
    backend = {
        "gpu_build": True,
        "backends": ["CPU"],
        "not_loaded": {"libggml-vulkan.so": "it found no driver or device"},
    }
    [failure] = smoke_test.vulkan_driver_unused(backend)
    assert "lvp_icd.x86_64.json" in failure and failure.endswith("it found no driver or device")
    assert smoke_test.vulkan_driver_unused({**backend, "backends": ["Vulkan", "CPU"]}) == []
    assert smoke_test.vulkan_driver_unused({**backend, "gpu_build": False}) == []
    monkeypatch.setattr(smoke_test, "VULKAN_DRIVER_FOLDERS", (str(tmp_path / "none"),))
    assert smoke_test.vulkan_driver_unused(backend) == []  # no driver here: the CPU it is
