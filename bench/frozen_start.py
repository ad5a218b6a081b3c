"""Start-up of the frozen (PyInstaller) Upabhasha, as a user meets it.

Times, from process start, with a fresh home each run and the build's environment removed
(packaging/frozen_smoke.user_env):
- ``upabhasha --help`` until it exits (the bootloader, the runtime hooks, the CLI parser);
- ``upabhasha-gui`` (offscreen) until its log says the main window was shown; the program is
  then stopped. ``main_to_shown_s`` is the program's own figure from main() to the window;
  the same log line names the heavy modules (``app.gui_main.HEAVY_MODULES``) loaded by then:
  ``heavy_at_window`` must stay empty;
- the modules loaded before the entry script runs (``upabhasha --modules-at-start``): the
  runtime hooks must not import what the sources import lazily.

``--program`` is the program folder: the PyInstaller output (build/pyinstaller/dist/upabhasha,
the default) or an install (/opt/upabhasha). Without one, it says so and exits 0 (``make
bench`` runs every bench). ``--quick`` does 2 runs of each instead of 5.
Last line: one JSON object, ``{"help_s": …, "first_window_s": …, "heavy_at_start": […],
"heavy_at_window": […], …}``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "packaging"))
from frozen_smoke import user_env  # noqa: E402 - packaging/ is not a package

DEFAULT_PROGRAM = ROOT / "build" / "pyinstaller" / "dist" / "upabhasha"
# what the sources import only when a step needs it; none may be loaded before main()
LAZY_HEAVY = (
    "nltk",
    "numpy",
    "scipy",
    "sklearn",
    "pandas",
    "torch",
    "setuptools",
    "pkg_resources",
)
SHOWN = re.compile(
    r"window shown after ([\d.]+) s.*?; (\d+) modules loaded, heavy: (\S+)$", re.MULTILINE
)
WINDOW_TIMEOUT_S = 120


def modules_at_start(program: Path) -> list[str]:
    with tempfile.TemporaryDirectory(prefix="upabhasha-bench-home-") as home:
        out = subprocess.run(
            [str(program / "upabhasha"), "--modules-at-start"],
            env=user_env(Path(home)),
            capture_output=True,
            text=True,
            check=True,
        )
    return json.loads(out.stdout.strip().splitlines()[-1])


def heavy(modules: list[str]) -> list[str]:
    return sorted({m.split(".")[0] for m in modules} & set(LAZY_HEAVY))


def time_help(program: Path) -> float:
    with tempfile.TemporaryDirectory(prefix="upabhasha-bench-home-") as home:
        started = time.perf_counter()
        subprocess.run(
            [str(program / "upabhasha"), "--help"],
            env=user_env(Path(home)),
            stdout=subprocess.DEVNULL,
            check=True,
        )
        return time.perf_counter() - started


def time_first_window(program: Path) -> tuple[float, float, int, list[str]]:
    """Seconds from spawn until the log says the window was shown, main() to shown, and the
    modules loaded by then: how many, and the heavy ones."""
    with tempfile.TemporaryDirectory(prefix="upabhasha-bench-home-") as home:
        env = user_env(Path(home)) | {"QT_QPA_PLATFORM": "offscreen"}
        log = Path(home) / ".local/state/upabhasha/log/upabhasha.log"
        started = time.perf_counter()
        proc = subprocess.Popen(
            [str(program / "upabhasha-gui")],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            while time.perf_counter() - started < WINDOW_TIMEOUT_S:
                found = SHOWN.search(log.read_text(errors="replace")) if log.is_file() else None
                if found:
                    heavy_loaded = [] if found.group(3) == "none" else found.group(3).split(",")
                    shown_s = time.perf_counter() - started
                    return shown_s, float(found.group(1)), int(found.group(2)), heavy_loaded
                if proc.poll() is not None:
                    raise SystemExit(f"upabhasha-gui exited ({proc.returncode}) before a window")
                time.sleep(0.01)
            raise SystemExit(f"no window within {WINDOW_TIMEOUT_S} s")
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()


def spread(values: list[float]) -> dict:
    return {
        "median": round(statistics.median(values), 3),
        "min": round(min(values), 3),
        "max": round(max(values), 3),
    }


def measure(program: Path, runs: int) -> dict:
    loaded = modules_at_start(program)
    helps = [time_help(program) for _ in range(runs)]
    windows = [time_first_window(program) for _ in range(runs)]
    first, main_to_shown, loaded_at_window, heavy_at_window = zip(*windows, strict=True)
    return {
        "program": str(program),
        "runs": runs,
        "load_average": round(os.getloadavg()[0], 2),
        "modules_at_start": len(loaded),
        "heavy_at_start": heavy(loaded),
        "help_s": round(statistics.median(helps), 3),
        "help": spread(helps),
        "first_window_s": round(statistics.median(first), 3),
        "first_window": spread(list(first)),
        "main_to_shown": spread(list(main_to_shown)),
        "modules_at_window": max(loaded_at_window),
        "heavy_at_window": sorted(set().union(*heavy_at_window)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--program", type=Path, default=DEFAULT_PROGRAM)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="2 runs of each")
    args = parser.parse_args(argv)
    if not (args.program / "upabhasha").is_file():
        print(f"no frozen program in {args.program} (make installer builds one); skipped")
        return 0
    result = measure(args.program, 2 if args.quick else args.runs)
    print(json.dumps(result), flush=True)
    return 1 if result["heavy_at_start"] or result["heavy_at_window"] else 0


if __name__ == "__main__":
    sys.exit(main())
