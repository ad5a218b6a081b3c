"""The understanding-task stage's front door (paper 001): task files (built-in and the
user's own), item sets, running a task over models x regimes x scripts, the statistics
(computed with :class:`TaskStatsSettings`, their macro scores named by :func:`macro_words`) and
their CSV/LaTeX tables, fine-tuning folds and LoRA adapter models.

Background work of the tasks panel is in :mod:`engine.understanding.tasks`. Front ends
import these two modules, never the stage's others (.importlinter).
"""

from __future__ import annotations

from engine.understanding.adapters import add_adapter_model
from engine.understanding.fold import export_fold
from engine.understanding.items import import_items, item_sets, parse_label_names, split_counts
from engine.understanding.request import RunTaskRequest, RunTaskResult
from engine.understanding.run import run_task, user_task_dir
from engine.understanding.scripts import SCHEMES
from engine.understanding.stats import (
    MACRO_OVER,
    TASK_STATS,
    TaskStatsSettings,
    macro_note,
    macro_words,
    task_stats,
)
from engine.understanding.tables import write_csv, write_latex
from engine.understanding.task_spec import REGIMES, all_tasks, get_task, load_tasks

__all__ = [
    "MACRO_OVER",
    "REGIMES",
    "SCHEMES",
    "TASK_STATS",
    "TaskStatsSettings",
    "add_adapter_model",
    "all_tasks",
    "export_fold",
    "get_task",
    "import_items",
    "item_sets",
    "split_counts",
    "load_tasks",
    "macro_note",
    "macro_words",
    "parse_label_names",
    "run_task",
    "task_stats",
    "user_task_dir",
    "write_csv",
    "write_latex",
    "RunTaskRequest",
    "RunTaskResult",
]
