"""llama.cpp's own log lines reach Python logging (logger ``llama.cpp``), never raw stderr."""

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]

LOAD = """
import logging, sys
from pathlib import Path
logging.basicConfig(stream=sys.stdout, level=logging.WARNING, format="%(name)s %(levelname)s %(message)s")
logging.getLogger("llama.cpp").setLevel(logging.INFO)
from engine.llm.runtime.native_model import NativeModel
from engine.llm.models.settings import LoadOptions, Schedule
model = NativeModel(Path(sys.argv[1]), LoadOptions())
model.new_context(Schedule(n_seq=1, n_ctx=512), LoadOptions())
print("loaded")
"""


@pytest.mark.slow
def test_model_load_notes_are_logged_not_printed(embedded_gguf):
    done = subprocess.run(
        [sys.executable, "-c", LOAD, str(embedded_gguf)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "loaded" in done.stdout
    # the embedded Gemma's tokenizer note, at INFO through logging ...
    assert "llama.cpp INFO load: control-looking token" in done.stdout
    # ... and nothing of llama.cpp on stderr (it printed there before)
    assert "control-looking" not in done.stderr and "llama_" not in done.stderr
