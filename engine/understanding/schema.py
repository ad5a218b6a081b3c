"""The understanding stage's schema declarations, pure data (what each name means:
engine.workspace.stages)."""

# Understanding tasks (paper 001, engine/understanding): labelled or parallel item sets
# imported for tasks, and what each task run asked per item (input, script, demos).
V2_TASKS = [
    """CREATE TABLE task_item_sets (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        source TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL
    )""",
    # references: JSON {"standard": [..], "english": [..]} (several references per item);
    # item_key: canonical key of the native text, so re-importing a file adds nothing.
    """CREATE TABLE task_items (
        id INTEGER PRIMARY KEY,
        set_id INTEGER NOT NULL REFERENCES task_item_sets(id) ON DELETE CASCADE,
        ext_id TEXT NOT NULL DEFAULT '',
        item_key TEXT NOT NULL,
        dialect TEXT NOT NULL REFERENCES dialects(code),
        split TEXT NOT NULL DEFAULT 'test',
        native_text TEXT NOT NULL,
        roman_text TEXT NOT NULL DEFAULT '',
        refs TEXT NOT NULL DEFAULT '{}',
        label TEXT NOT NULL DEFAULT '',
        UNIQUE (set_id, dialect, item_key)
    )""",
    "CREATE INDEX task_items_split ON task_items(set_id, split, dialect)",
    # One row per run item: the exact input shown (script, scheme), its references and the
    # ids of the few-shot demonstrations drawn for it (the per-item part of the run card).
    """CREATE TABLE task_run_items (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        item_key TEXT NOT NULL,
        source_id INTEGER NOT NULL,
        dialect TEXT NOT NULL,
        script TEXT NOT NULL CHECK (script IN ('native', 'roman')),
        input_text TEXT NOT NULL,
        native_text TEXT NOT NULL,
        refs TEXT NOT NULL DEFAULT '[]',
        label TEXT NOT NULL DEFAULT '',
        demo_ids TEXT NOT NULL DEFAULT '[]',
        PRIMARY KEY (run_id, item_key)
    )""",
]


# Named labels.
V3_LABELS = [
    # ... and the names of an item set's stored labels (JSON {"0": "not-offensive", ...}):
    # prompts, parsers and reports use the names, task_items.label keeps the stored label
    "ALTER TABLE task_item_sets ADD COLUMN label_names TEXT NOT NULL DEFAULT '{}'",
]

RELEASED = {2: V2_TASKS, 3: V3_LABELS}

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

# The stage's own track (engine.workspace.stages).
# 1: what an item set stores, as a corpus records it: 'none' keeps every text as written
#    (only byte-equal items merge), 'nfc' (the default, and every set imported before) the
#    normalised form; runs and baselines on the set score that choice.
TRACK = [
    [
        """CREATE TABLE IF NOT EXISTS task_item_set_normalization (
            set_id INTEGER PRIMARY KEY REFERENCES task_item_sets(id) ON DELETE CASCADE,
            normalization TEXT NOT NULL CHECK (normalization IN ('nfc', 'none'))
        )""",
    ],
]

# its model step and its part of the HTML report (engine.workspace.stages)
REQUESTS = {"run-task": "engine.understanding.request:RunTaskRequest"}
REPORT_SECTIONS = ("engine.understanding.report:report_parts",)
# stored codes a person sees
LABELS = {
    "task": (
        "dialect-to-standard",
        "dialect-to-english",
        "dialect-id",
        "classification",
        "subjectivity",
    ),
    "task_kind": ("generation", "classification"),
    "regime": ("zero", "few", "cot"),
    "script": ("native", "roman"),
    "scheme": ("avro", "itrans", "iso15919"),
}
