"""The social-bias stage's front door (paper 002): probe sets (import, generate, to and from
the translation flow), the answer-normalisation table, asking the models, the statistics
(computed with :class:`BiasStatsSettings`, explained by :func:`bias_notes`) and their CSV/LaTeX
tables, and the scripted sample workspace.

Background work of the bias panel is in :mod:`engine.bias.tasks`. Front ends import these
two modules, never the stage's others (.importlinter).
"""

from __future__ import annotations

from pathlib import Path

from engine.bias.dialects import dialect_probe_sets, probes_to_questions
from engine.bias.export import groups_csv, groups_latex
from engine.bias.generator import generate_probe_sets
from engine.bias.normalise import load_table, map_phrase
from engine.bias.probes import import_probes, probe_set_summaries
from engine.bias.request import ProbeRequest, ProbeResult, instruction_file
from engine.bias.results import bias_statistics, unmapped_replies
from engine.bias.run import DEFAULT_SAMPLER, ProbeOptions, load_instruction, run_probes
from engine.bias.sample import build_bias_sample
from engine.bias.stats import (
    BIAS_STATS,
    ZERO_RULES,
    BiasStatsSettings,
    bias_notes,
    cohen_kappa,
)
from engine.llm.models.embedded_model import data_dir

__all__ = [
    "BIAS_STATS",
    "DEFAULT_SAMPLER",
    "ZERO_RULES",
    "BiasStatsSettings",
    "ProbeOptions",
    "ProbeRequest",
    "ProbeResult",
    "bias_notes",
    "bias_statistics",
    "build_bias_sample",
    "cohen_kappa",
    "dialect_probe_sets",
    "generate_probe_sets",
    "groups_csv",
    "groups_latex",
    "import_probes",
    "instruction_file",
    "load_instruction",
    "load_table",
    "map_phrase",
    "probe_set_summaries",
    "probes_to_questions",
    "run_probes",
    "sample_bias_path",
    "unmapped_replies",
]


def sample_bias_path() -> Path:
    """Where the scripted sample bias workspace is built (the user's data folder)."""
    return data_dir() / "sample-bias.sqlite"
