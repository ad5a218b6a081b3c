"""Translation: machine drafts of each question's dialect variants and their review."""

from engine.llm.runs import register_run_holder
from engine.translation.run_holders import holds_variants

# a run its drafted variants point at is never dropped as empty (engine.llm.runs.discard_if_empty)
register_run_holder("variants", holds_variants)
