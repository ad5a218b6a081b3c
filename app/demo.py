"""``make demo``: the headless end-to-end demo on the embedded model and the sample data.

It drives the same CLI a user types, so the demo proves the user path. Each step is
idempotent: running the demo twice reuses everything already done.
"""

from __future__ import annotations

import sys
import time
from importlib.resources import files
from pathlib import Path

from app.cli import main as cli

DEMO_DIR = Path("demo-output")


def step(title: str, argv: list[str]) -> None:
    print(f"\n== {title}: upabhasha {' '.join(argv)}", flush=True)
    started = time.monotonic()
    code = cli(argv)
    if code != 0:
        print(f"demo: step '{title}' failed with exit code {code}", file=sys.stderr)
        sys.exit(code)
    print(f"   ({time.monotonic() - started:.1f} s)", flush=True)


def main() -> int:
    DEMO_DIR.mkdir(exist_ok=True)
    ws = str(DEMO_DIR / "demo.sqlite")
    sample = files("resources") / "sample"
    print("Upabhasha demo. The embedded Gemma 3 270M is a small base model: it demonstrates\n"
          "the pipeline; its Bengali output is not a research finding.")
    step("create the workspace and register the embedded model", ["-w", ws, "init"])
    step("import the sample parallel corpus", ["-w", ws, "import", "corpus", str(sample / "corpus.csv"), "--name", "sample corpus"])
    step("import the sample questions", ["-w", ws, "import", "questions", str(sample / "questions.csv"), "--name", "sample questions"])
    step("workspace status", ["-w", ws, "status"])
    print(f"\ndemo workspace: {Path(ws).resolve()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
