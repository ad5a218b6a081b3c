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

# Track 1: batch files (an exported step, its items and files, the result lines taken in)
# and per-model prices. Every statement can run again.
TRACK_1_BATCHES_AND_PRICES = [
    # one `batch export`: the step it ran, the target model name, its token
    """CREATE TABLE IF NOT EXISTS llm_batches (
        id INTEGER PRIMARY KEY,
        token TEXT NOT NULL UNIQUE,
        step TEXT NOT NULL,
        argv TEXT NOT NULL,
        created_at TEXT NOT NULL,
        manifest TEXT NOT NULL DEFAULT '{}'
    )""",
    # one exported request: its run and item, the body's hash and the line's signature
    """CREATE TABLE IF NOT EXISTS llm_batch_items (
        batch_id INTEGER NOT NULL REFERENCES llm_batches(id) ON DELETE CASCADE,
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        item_key TEXT NOT NULL,
        target_model TEXT NOT NULL,
        body_sha256 TEXT NOT NULL,
        signature TEXT NOT NULL,
        file_name TEXT NOT NULL,
        PRIMARY KEY (batch_id, run_id, item_key)
    )""",
    "CREATE INDEX IF NOT EXISTS llm_batch_items_run ON llm_batch_items(run_id, item_key)",
    # a result line taken in, waiting for (or already through) its step's replay
    """CREATE TABLE IF NOT EXISTS llm_batch_results (
        batch_id INTEGER NOT NULL REFERENCES llm_batches(id) ON DELETE CASCADE,
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        item_key TEXT NOT NULL,
        body TEXT NOT NULL,
        imported_at TEXT NOT NULL,
        PRIMARY KEY (batch_id, run_id, item_key)
    )""",
    # prices in currency units per million tokens; batch_discount a fraction (0.5 = half)
    """CREATE TABLE IF NOT EXISTS llm_prices (
        model_id INTEGER PRIMARY KEY REFERENCES models(id) ON DELETE CASCADE,
        price_in REAL,
        price_out REAL,
        price_cached_in REAL,
        batch_discount REAL NOT NULL DEFAULT 0
    )""",
]

# Track 2: the batch schedule the planner's calibration chose for a kind of job, a model and a
# machine (engine.llm.planning.schedule_choice), so the next run of the kind opens the same run key.
TRACK_2_SCHEDULE_CHOICES = [
    """CREATE TABLE IF NOT EXISTS llm_schedule_choices (
        kind TEXT NOT NULL,
        model TEXT NOT NULL,
        n_seq INTEGER NOT NULL,
        machine TEXT NOT NULL,
        refill INTEGER NOT NULL,
        timings TEXT NOT NULL,
        chosen_at TEXT NOT NULL,
        PRIMARY KEY (kind, model, n_seq, machine)
    )""",
]

# Track 3: a batch keeps the request it ran (engine.llm.runs.step_request, JSON), not a command
# line. The command lines of batches exported before move to a table of their own, which the
# command line converts to requests (a parser is a front end's) and then empties.
TRACK_3_BATCH_REQUESTS = [
    "ALTER TABLE llm_batches ADD COLUMN request TEXT",
    """CREATE TABLE IF NOT EXISTS llm_legacy_batch_argv (
        batch_id INTEGER PRIMARY KEY REFERENCES llm_batches(id) ON DELETE CASCADE,
        argv TEXT NOT NULL
    )""",
    "INSERT OR IGNORE INTO llm_legacy_batch_argv(batch_id, argv) SELECT id, argv FROM llm_batches",
    "ALTER TABLE llm_batches DROP COLUMN argv",
]

TRACK = [TRACK_1_BATCHES_AND_PRICES, TRACK_2_SCHEDULE_CHOICES, TRACK_3_BATCH_REQUESTS]

# an exported run waits for its results with no response stored: it is not empty
RUN_HOLDERS = ("SELECT 1 FROM llm_batch_items WHERE run_id = ?",)

# stored codes a person sees (engine.workspace.stages)
LABELS = {"model_kind": ("gguf", "endpoint")}
