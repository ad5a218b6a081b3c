"""The llm stage's schema declarations, pure data (what each name means:
engine.workspace.stages)."""

# A run being decoded is leased by one process (owner, heartbeat time);
# decoded groups are kept for replication.
V2_INTEGRITY = [
    "ALTER TABLE runs ADD COLUMN lease_owner TEXT",
    "ALTER TABLE runs ADD COLUMN lease_heartbeat REAL",
    # what each finished item was decoded with (its batch-plan group), for replication
    """CREATE TABLE llm_groups (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        group_key TEXT NOT NULL,
        requests TEXT NOT NULL,
        PRIMARY KEY (run_id, group_key)
    )""",
    """CREATE TABLE llm_item_groups (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        item_key TEXT NOT NULL,
        group_key TEXT NOT NULL,
        pos INTEGER NOT NULL,
        PRIMARY KEY (run_id, item_key)
    )""",
    # `upabhasha replicate`: a sample decoded again, agreement and the spread it implies
    """CREATE TABLE llm_replications (
        id INTEGER PRIMARY KEY,
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        sample INTEGER NOT NULL,
        identical INTEGER NOT NULL,
        summary TEXT NOT NULL
    )""",
]

RELEASED = {2: V2_INTEGRITY}

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
