"""faiss logs a ModuleNotFoundError for each of its builds the wheel lacks (at INFO, as it
loads); those lines are silenced at their logger, so no job log shows them as failures."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import logging
from app.logging_setup import setup_logging
path = setup_logging()
import faiss
for handler in logging.getLogger().handlers:
    handler.flush()
print(path)
"""


def test_faiss_loader_lines_do_not_reach_the_log(tmp_path):
    env = {**os.environ, "UPABHASHA_LOG_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.returncode == 0, result.stderr
    log_text = Path(result.stdout.strip().splitlines()[-1]).read_text(encoding="utf-8")
    assert "faiss" not in log_text and "ModuleNotFoundError" not in log_text
