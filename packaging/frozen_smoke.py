"""Run the smoke test of a built (frozen) Upabhasha as a user would meet it.

A fresh temporary HOME and XDG folders (user data must land there), no environment of the
build (no UPABHASHA_*, PYTHON*, VIRTUAL_ENV, QT_*), and the program folder checked for
changes: nothing may be written next to the program. ``packaging/build.py`` runs it on the
tarball's folder (unpacked or staged, made read-only first, as an install under /opt is),
through its launcher, and on the installed ``.deb`` through ``/usr/bin/upabhasha-gui``.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import tempfile
import time
from pathlib import Path

SMOKE_TIMEOUT_S = 600
# A user's home may gain settings, logs, a workspace and a small model stamp; anything this
# large is a copy of something the install already holds (the embedded model is 253 MB).
LARGE_FILE_BYTES = 8 << 20


def large_files(home: Path) -> list[str]:
    return [
        f"{p.relative_to(home)} ({p.stat().st_size >> 20} MiB)"
        for p in home.rglob("*")
        if p.is_file() and not p.is_symlink() and p.stat().st_size >= LARGE_FILE_BYTES
    ]


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {
        str(p.relative_to(folder)): (p.lstat().st_size, p.lstat().st_mtime_ns)
        for p in folder.rglob("*")
    }


def set_writable(folder: Path, writable: bool) -> None:
    for path in [folder, *folder.rglob("*")]:
        if path.is_symlink():
            continue
        mode = path.stat().st_mode
        mode = (
            mode | stat.S_IWUSR
            if writable
            else mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)
        )
        path.chmod(mode)


def user_env(home: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("UPABHASHA_", "PYTHON", "VIRTUAL_ENV", "QT_", "XDG_"))
    }
    env.update(
        HOME=str(home),
        XDG_DATA_HOME=str(home / ".local/share"),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_STATE_HOME=str(home / ".local/state"),
        XDG_CACHE_HOME=str(home / ".cache"),
    )
    return env


def run_smoke(command: list[str], program: Path, *, read_only: bool = True) -> dict:
    """Run ``command --smoke-test`` with a fresh home; check the report, the exit code, that
    ``program`` did not change, and that user data went to the home."""
    with tempfile.TemporaryDirectory(prefix="upabhasha-smoke-home-") as tmp:
        tmp = Path(tmp)
        home = tmp / "home"
        (tmp / "cwd").mkdir()
        if read_only:
            set_writable(program, False)
        before = snapshot(program)
        started = time.perf_counter()
        try:
            out = subprocess.run(
                [*command, "--smoke-test"],
                env=user_env(home),
                cwd=tmp / "cwd",
                stdout=subprocess.PIPE,
                text=True,
                timeout=SMOKE_TIMEOUT_S,
            )
        finally:
            changed = sorted(set(snapshot(program).items()) ^ set(before.items()))
            if read_only:
                set_writable(program, True)
        seconds = time.perf_counter() - started
        lines = out.stdout.strip().splitlines()
        report = json.loads(lines[-1]) if lines and lines[-1].startswith("{") else {}
        failures = list(report.get("failures", ["no JSON report on stdout"]))
        if out.returncode != 0:
            failures.append(f"exit code {out.returncode}")
        if changed:
            failures.append(f"files written next to the program: {[c[0] for c in changed][:10]}")
        for kind, folder in (report.get("user_folders") or {}).items():
            if not Path(folder).is_relative_to(home):
                failures.append(f"{kind} folder {folder} is not in the user's home")
        if not report.get("frozen"):
            failures.append("the program that ran was not the frozen one")
        copied = large_files(home) if home.is_dir() else []
        if copied:
            failures.append(f"large files written into the user's home: {copied}")
        return {
            "ok": not failures,
            "failures": failures,
            "seconds": round(seconds, 1),
            "report": report,
        }


def summary(smoke: dict) -> dict:
    """The part of a smoke result the build's JSON line carries."""
    report = smoke["report"]
    pipeline = report.get("pipeline") or {}
    return {
        "ok": smoke["ok"],
        "seconds": smoke["seconds"],
        "failures": smoke["failures"],
        "gui_startup_s": report.get("startup_s"),
        "steps_s": pipeline.get("steps_s"),
        "bengali_menus": (report.get("bengali_window") or {}).get("menus"),
        "llama_backend": (report.get("llama_backend") or {}).get("message"),
        "llama_backends": (report.get("llama_backend") or {}).get("backends"),
        "vulkan_offload": report.get("vulkan_offload"),
        "tls": report.get("tls"),
    }
