"""The understanding stage's declarations for the workspace (engine.workspace.stages): pure data.

Its tables are in the released history (engine.workspace.schema, V2 and V3).
"""

# runs of one kind (few rows: a scan of runs), their status, and the item sets tasks draw
# from; a run's answers move the ``responses`` topic
TOPICS: dict[str, tuple[str, ...]] = {
    "task_runs": (
        "(SELECT group_concat(id || '|' || status, ';') FROM runs WHERE kind LIKE 'task:%')",
        "(SELECT max(rowid) FROM task_run_items)",
        "(SELECT group_concat(id || '|' || name, ';') FROM task_item_sets)",
        "(SELECT max(id) FROM task_items)",
    ),
}
