"""``make demo`` / ``upabhasha demo``: the whole pipeline, headless, on the embedded model and
the bundled sample data.

It drives the same CLI a user types, so the demo proves the user path: create workspace →
import → index → RAG-translate into three dialects → mark the drafts gold (demo only: no
human reviewed them) → answer → judge → statistics → report. Every step is resumable and
idempotent, so a second run reuses everything and finishes in seconds.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path

from app.cli.arguments import output_folder, positive_int
from app.cli.output import csv_list

DEMO_DIALECTS = "chittagong,sylhet,noakhali"
DEMO_QUESTIONS = 12  # of the 40 sample questions: keeps the demo within minutes on 2 cores
DEMO_REVIEWER = "demo (machine drafts accepted without human review)"
# The embedded 270M judge mostly repeats itself ("1.1.1.…") up to the rubric's reasoning cap,
# and a batch lasts as long as its longest reply: the demo's rubric caps reasoning shorter
# than the bundled one (800 characters). Real studies judge with the bundled rubric.
DEMO_REASONING_CHARS = 200

# called after each step that exits 0 with its title, its CLI arguments and its seconds
StepHook = Callable[[str, list[str], float], None]


class DemoStopped(Exception):
    """A step failed or finished incomplete: the demo stops there (nothing after it would
    rest on complete data) and exits with that step's code."""

    def __init__(self, title: str, code: int):
        super().__init__(f"step '{title}' exited {code}")
        self.title, self.code = title, code


def run_step(title: str, argv: list[str], on_step: StepHook | None = None) -> None:
    from app.cli import main as cli  # not at the top: app.cli imports this module (demo)

    print(f"\n== {title}\n   upabhasha {' '.join(argv)}", flush=True)
    started = time.monotonic()
    code = cli(argv)
    if code != 0:
        what = "is incomplete" if code == 3 else "failed"
        print(
            f"demo: stopped - step '{title}' {what} (exit code {code}); no statistics or "
            "report were written from it. Run the demo again (same options) to resume.",
            file=sys.stderr,
        )
        raise DemoStopped(title, code)
    seconds = time.monotonic() - started
    print(f"   ({seconds:.1f} s)", flush=True)
    if on_step is not None:
        on_step(title, argv, seconds)


def demo_rubric(out_dir: Path) -> Path:
    """The bundled rubric with the demo's reasoning cap, written beside the demo workspace
    (the judge run card records its hash)."""
    from app.cli import stages

    data = json.loads(stages.judging().default_rubric_path().read_text(encoding="utf-8"))
    data["reasoning_max_chars"] = DEMO_REASONING_CHARS
    path = out_dir / "demo-rubric.json"
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return path


def run_demo(
    out_dir: Path,
    *,
    questions: int = DEMO_QUESTIONS,
    dialects: str = DEMO_DIALECTS,
    workspace: Path | None = None,
    on_step: StepHook | None = None,
) -> Path:
    """Run every step; ``workspace`` defaults to ``out_dir/demo.sqlite``; ``on_step`` hears
    of each finished step (bench/demo_steps.py). Raises :class:`DemoStopped` at the first
    step that does not exit 0."""
    out_dir.mkdir(parents=True, exist_ok=True)
    ws = ["-w", str(workspace or out_dir / "demo.sqlite")]
    sample = files("resources") / "sample"
    report_dir = out_dir / "report"
    print(
        "Upabhasha demo on the embedded Gemma 3 270M and the bundled sample data.\n"
        "A 270M base model demonstrates the pipeline; its Bengali output and these scores\n"
        "are NOT research findings, and the sample data is illustrative, not gold."
    )
    started = time.monotonic()

    def step(title: str, argv: list[str]) -> None:
        run_step(title, argv, on_step)

    step("create the workspace and register the embedded model", ws + ["init"])
    step(
        "import the sample parallel corpus",
        ws + ["import", "corpus", str(sample / "corpus.csv"), "--name", "sample corpus"],
    )
    step(
        "import the sample questions",
        ws + ["import", "questions", str(sample / "questions.csv"), "--name", "sample questions"],
    )
    step(
        "build the retrieval index (train + test splits)",
        ws + ["index", "--corpus", "sample corpus"],
    )
    step(
        "RAG-translate questions into dialects",
        ws
        + [
            "translate",
            "--questions",
            "sample questions",
            "--dialects",
            dialects,
            "--limit",
            str(questions),
        ],
    )
    step(
        "mark the machine drafts gold (DEMO ONLY: a real study has native speakers review them)",
        ws + ["review", "bulk", "--from", "draft", "--to", "gold", "--reviewer", DEMO_REVIEWER],
    )
    step("answer the standard and dialect questions", ws + ["generate", "--max-tokens", "64"])
    rubric = str(demo_rubric(out_dir))
    step(
        "judge every dialect answer against its standard answer (the bundled rubric, its "
        f"reasoning capped at {DEMO_REASONING_CHARS} characters for the 270M judge)",
        ws + ["judge", "--primary", "--rubric", rubric],
    )
    step("statistics", ws + ["stats"])
    step("report", ws + ["report", "--out", str(report_dir)])
    print(f"\ndemo finished in {time.monotonic() - started:.0f} s")
    report = (report_dir / "report.html").resolve()
    print(f"report: {report}")
    return report


def _dialects(text: str) -> str:
    """The dialects as the translate step reads them (one that names none refused here,
    before the demo writes anything)."""
    return ",".join(csv_list(text))


def register(sub) -> None:
    p = sub.add_parser("demo", help="run the whole pipeline on the embedded model and sample data")
    p.add_argument(
        "--out",
        type=output_folder,
        default="demo-output",
        help="folder for the demo workspace and report",
    )
    p.add_argument(
        "--questions", type=positive_int, default=DEMO_QUESTIONS, help="sample questions to use"
    )
    p.add_argument(
        "--dialects", type=_dialects, default=DEMO_DIALECTS, help="comma-separated dialect codes"
    )
    p.set_defaults(func=cmd_demo)


def cmd_demo(args, ctx) -> int:
    """``upabhasha [-w FILE] demo``: an explicit ``-w`` names the demo workspace."""
    explicit = getattr(args, "workspace_given", False)
    ctx.close()  # the steps open the workspace themselves
    try:
        run_demo(
            Path(args.out),
            questions=args.questions,
            dialects=args.dialects,
            workspace=Path(ctx.workspace_path) if explicit else None,
        )
    except DemoStopped as stop:
        return stop.code
    return 0


# where this module's sub-commands and ``import`` kinds sit in ``upabhasha --help``
# (app/cli/registry.py gathers every stage's)
COMMANDS = [(160, register)]
IMPORTS: list = []
