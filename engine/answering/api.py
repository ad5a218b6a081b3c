"""The answering stage's front door: every model answers the standard question and each
dialect variant (resumable), with the default sampler and the variant statuses answered by
default.

Background work of the generate dialog is in :mod:`engine.answering.tasks`. Front ends
import these two modules, never the stage's others (.importlinter).
"""

from __future__ import annotations

from engine.answering.generation import DEFAULT_SAMPLER, DEFAULT_STATUSES, generate_answers

__all__ = ["DEFAULT_SAMPLER", "DEFAULT_STATUSES", "generate_answers"]
