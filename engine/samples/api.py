"""The samples stage's front door: the bundled sample workspace, the synthetic judged study
(and its live stream of judgments), and a throw-away copy of a workspace with annotators
and a blind batch, so that each panel opens alone with data to show.

Front ends import this module, never the stage's others (.importlinter).
"""

from __future__ import annotations

from engine.samples.sample_batch import with_sample_batch
from engine.samples.study import build_sample_study, demo_stream, sample_study_path
from engine.samples.workspace import (
    build_sample_workspace,
    sample_workspace_path,
    sample_workspace_with_model,
)

__all__ = [
    "build_sample_study",
    "build_sample_workspace",
    "demo_stream",
    "sample_study_path",
    "sample_workspace_path",
    "sample_workspace_with_model",
    "with_sample_batch",
]
