"""The judging stage's schema declarations, pure data (what each name means:
engine.workspace.stages)."""

# Judgments carry flags (injection attempts, inconsistent verdicts: always sent to
# human review).
V2_FLAGS = [
    "ALTER TABLE judgments ADD COLUMN flags TEXT NOT NULL DEFAULT ''",
]

RELEASED = {2: V2_FLAGS}

TOPICS: dict[str, tuple[str, ...]] = {
    "judgments": ("(SELECT max(id) FROM judgments)",),
}

# a judge run whose judgments point at it is never dropped as empty
RUN_HOLDERS = ("SELECT 1 FROM judgments WHERE run_id = ?",)

# its model step (engine.workspace.stages)
REQUESTS = {"judge": "engine.judging.request:JudgeRequest"}
# stored codes a person sees
LABELS = {"judge_role": ("primary", "secondary")}
