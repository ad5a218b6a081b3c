"""The annotation stage's declarations for the workspace (engine.workspace.stages): pure data.

Its tables are in the released history (engine.workspace.schema, V2).
"""

# who annotates, what they are assigned, what they decided (in the workspace, merged from a
# package, adjudicated). Rowid tables: max() is a descent.
TOPICS: dict[str, tuple[str, ...]] = {
    "annotators": (
        "(SELECT group_concat(id || '|' || name || '|' || dialects, ';') FROM annotators)",
    ),
    "assignments": (
        "(SELECT count(*) FROM annotation_batches)",
        "(SELECT max(id) FROM annotation_items)",
        "(SELECT max(rowid) FROM annotation_assignments)",
        "(SELECT count(*) FROM annotation_assignments)",
    ),
    "decisions": (
        "(SELECT max(id) FROM annotation_decisions)",
        "(SELECT max(id) FROM annotation_adjudications)",
        "(SELECT max(id) FROM annotation_packages)",
    ),
}
