"""RLAIF judging: rubric, script/refusal gate, injection-safe judge prompts, verdicts,
the human review queue and multi-judge bookkeeping (paper 000, §3.3–3.4)."""
