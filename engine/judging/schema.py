"""The judging stage's declarations for the workspace (engine.workspace.stages): pure data.

Its tables are in the released history (engine.workspace.schema, V1 and V4).
"""

TOPICS: dict[str, tuple[str, ...]] = {
    "judgments": ("(SELECT max(id) FROM judgments)",),
}
