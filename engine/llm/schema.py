"""The llm stage's declarations for the workspace (engine.workspace.stages): pure data.

Its tables are in the released history (engine.workspace.schema, V1 and V2); it owns the
change topics of the models, runs and responses it writes.
"""

TOPICS: dict[str, tuple[str, ...]] = {
    "models": (
        "(SELECT group_concat(id || '|' || name || '|' || is_default || '|' || load_params, ';')"
        " FROM models)",
    ),
    "runs": (
        "(SELECT group_concat(id || '|' || status || '|' || "
        "ifnull(json_extract(card, '$.judge_role'), ''), ';') FROM runs)",
    ),
    "responses": ("(SELECT max(id) FROM responses)",),
}
