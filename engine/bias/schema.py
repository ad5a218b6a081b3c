"""The bias stage's declarations for the workspace (engine.workspace.stages): pure data.

Its tables are in the released history (engine.workspace.schema, V2).
"""

TOPICS: dict[str, tuple[str, ...]] = {
    # probe sets and their items are imported whole; normalisation edits are insert-only
    "probes": (
        "(SELECT count(*) FROM probe_sets)",
        "(SELECT max(id) FROM probe_items)",
        "(SELECT max(id) FROM probe_norm_entries)",
    ),
    "probe_runs": (
        "(SELECT group_concat(id || '|' || status, ';') FROM runs WHERE kind = 'probe')",
    ),
}
