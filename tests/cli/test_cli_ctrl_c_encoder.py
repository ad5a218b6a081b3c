"""Ctrl-C (SIGINT, as a terminal sends it) to a `translate` process while its encoder loads
stops it within 2 s, non-zero, with the hint that running the command again resumes; the
workspace holds no run of it. A real process on the sample workspace, real encoder."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from importlib.resources import as_file, files
from pathlib import Path

import pytest

from engine.importing.importers import import_corpus, import_questions
from engine.llm.models.registry import ensure_embedded_default
from engine.workspace.store import Workspace

REPO = Path(__file__).resolve().parents[2]
CLI = "import sys; from app.cli import main; sys.exit(main(sys.argv[1:]))"
STOPS_WITHIN_S = 2.0


@pytest.fixture
def sample_ws(tmp_path, embedded_gguf) -> Path:
    path = tmp_path / "study.sqlite"
    with Workspace(path, create=True) as ws:
        sample = files("resources") / "sample"
        with as_file(sample / "corpus.csv") as corpus, as_file(sample / "questions.csv") as qs:
            import_corpus(ws, corpus, name="sample corpus")
            import_questions(ws, qs, name="sample questions")
        ensure_embedded_default(ws)
    return path


@pytest.mark.slow
def test_ctrl_c_while_the_encoder_loads_stops_within_2_s(sample_ws):
    argv = [sys.executable, "-c", CLI, "-w", str(sample_ws), "translate"]
    argv += ["--questions", "sample questions", "--dialects", "sylhet", "--limit", "1"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(argv, cwd=REPO, env=env, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        lines = []
        for line in process.stderr:  # the progress line names the phase as it begins
            lines.append(line)
            if "loading the encoder" in line:
                break
        else:
            pytest.fail("the encoder load was never announced: " + "".join(lines))
        sent = time.monotonic()
        process.send_signal(signal.SIGINT)
        rest = process.stderr.read()
        code = process.wait(timeout=60)  # the generous bound; the 2 s one is asserted below
        took = time.monotonic() - sent
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert code == 130, rest
    assert took <= STOPS_WITHIN_S, f"stopped {took:.1f} s after Ctrl-C"
    assert "interrupted" in rest and "run the command again to resume" in rest, rest
    with Workspace(sample_ws) as ws:
        assert ws.scalar("SELECT count(*) FROM runs") == 0
