"""RLAIF judging: rubric, script/refusal gate, injection-safe judge prompts, verdicts,
the human review queue and multi-judge bookkeeping (paper 000, §3.3–3.4)."""

from engine.judging.run_holders import holds_judgments
from engine.llm.runs import register_run_holder

# a run its judgments point at is never dropped as empty (engine.llm.runs.discard_if_empty)
register_run_holder("judgments", holds_judgments)
