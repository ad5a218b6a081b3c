"""The workspace schema, versioned by ``PRAGMA user_version``.

``MIGRATIONS[i]`` brings a workspace from version ``i`` to ``i + 1``. A migration is a
list of SQL statements run in one transaction together with the version bump, so a
crash mid-migration leaves the old version intact. Never edit a released migration:
append a new one and add a fixture database for the version it replaces
(``tests/fixtures/schema/``).

Natural keys carry UNIQUE constraints so that re-running any import or job is
idempotent (``INSERT ... ON CONFLICT DO NOTHING``).
"""

V1 = [
    """CREATE TABLE dialects (
        code TEXT PRIMARY KEY,
        name_bn TEXT NOT NULL,
        name_en TEXT NOT NULL,
        region TEXT NOT NULL DEFAULT ''
    )""",
    """CREATE TABLE corpora (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        source TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL
    )""",
    # standard_key/dialect_key: canonical forms (engine.textnorm.canonical_key) that
    # deduplicate pairs differing only in Unicode composition or spacing.
    """CREATE TABLE sentence_pairs (
        id INTEGER PRIMARY KEY,
        corpus_id INTEGER NOT NULL REFERENCES corpora(id) ON DELETE CASCADE,
        standard_text TEXT NOT NULL,
        dialect_text TEXT NOT NULL,
        dialect TEXT NOT NULL REFERENCES dialects(code),
        district TEXT NOT NULL DEFAULT '',
        split TEXT NOT NULL DEFAULT 'train',
        source TEXT NOT NULL DEFAULT '',
        standard_key TEXT NOT NULL,
        dialect_key TEXT NOT NULL,
        UNIQUE (corpus_id, dialect, standard_key, dialect_key)
    )""",
    "CREATE INDEX sentence_pairs_dialect ON sentence_pairs(dialect, split)",
    """CREATE TABLE question_sets (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        source TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL
    )""",
    """CREATE TABLE questions (
        id INTEGER PRIMARY KEY,
        set_id INTEGER NOT NULL REFERENCES question_sets(id) ON DELETE CASCADE,
        ext_id TEXT NOT NULL DEFAULT '',
        text TEXT NOT NULL,
        text_key TEXT NOT NULL,
        question_type INTEGER CHECK (question_type IS NULL OR question_type BETWEEN 1 AND 4),
        domain TEXT,
        gloss_en TEXT NOT NULL DEFAULT '',
        UNIQUE (set_id, text_key)
    )""",
    # One row per question x dialect x script; 'standard' variants hold the base text so
    # that every answer refers to a variant.
    """CREATE TABLE variants (
        id INTEGER PRIMARY KEY,
        question_id INTEGER NOT NULL REFERENCES questions(id) ON DELETE CASCADE,
        dialect TEXT NOT NULL REFERENCES dialects(code),
        script TEXT NOT NULL DEFAULT 'bengali' CHECK (script IN ('bengali', 'roman')),
        text TEXT NOT NULL,
        provenance TEXT NOT NULL CHECK (provenance IN ('machine', 'human', 'source')),
        status TEXT NOT NULL DEFAULT 'draft'
            CHECK (status IN ('draft', 'reviewed', 'gold', 'flagged', 'rejected')),
        exemplar_ids TEXT NOT NULL DEFAULT '[]',
        retrieval TEXT NOT NULL DEFAULT '{}',
        run_id INTEGER REFERENCES runs(id),
        reviewer TEXT NOT NULL DEFAULT '',
        comment TEXT NOT NULL DEFAULT '',
        updated_at TEXT NOT NULL,
        UNIQUE (question_id, dialect, script)
    )""",
    """CREATE TABLE variant_history (
        id INTEGER PRIMARY KEY,
        variant_id INTEGER NOT NULL REFERENCES variants(id) ON DELETE CASCADE,
        at TEXT NOT NULL,
        actor TEXT NOT NULL DEFAULT '',
        action TEXT NOT NULL,
        old_text TEXT,
        new_text TEXT,
        old_status TEXT,
        new_status TEXT,
        comment TEXT NOT NULL DEFAULT ''
    )""",
    # kind 'gguf': path + sha256 (+ metadata); kind 'endpoint': base_urls + api_model.
    # API keys never live here: keyring_service names the OS keyring entry.
    """CREATE TABLE models (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL CHECK (kind IN ('gguf', 'endpoint')),
        path TEXT,
        sha256 TEXT,
        size_bytes INTEGER,
        architecture TEXT,
        quantization TEXT,
        parameters INTEGER,
        context_length INTEGER,
        has_chat_template INTEGER NOT NULL DEFAULT 0,
        family TEXT NOT NULL DEFAULT '',
        base_urls TEXT NOT NULL DEFAULT '[]',
        api_model TEXT,
        keyring_service TEXT,
        load_params TEXT NOT NULL DEFAULT '{}',
        is_default INTEGER NOT NULL DEFAULT 0,
        added_at TEXT NOT NULL
    )""",
    # A run is one (kind, model, prompt template, sampler, seed, schedule) combination;
    # run_key hashes its card so a change of any of them makes a new run.
    """CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        run_key TEXT NOT NULL UNIQUE,
        model_id INTEGER REFERENCES models(id),
        card TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'open',
        created_at TEXT NOT NULL
    )""",
    # Every LLM output of every run: translation drafts, answers and raw judge replies.
    """CREATE TABLE responses (
        id INTEGER PRIMARY KEY,
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        item_key TEXT NOT NULL,
        variant_id INTEGER REFERENCES variants(id),
        status TEXT NOT NULL DEFAULT 'done' CHECK (status IN ('done', 'error')),
        text TEXT,
        error TEXT,
        attempts INTEGER NOT NULL DEFAULT 1,
        prompt_tokens INTEGER,
        completion_tokens INTEGER,
        finish_reason TEXT,
        elapsed_ms REAL,
        created_at TEXT NOT NULL,
        UNIQUE (run_id, item_key)
    )""",
    "CREATE INDEX responses_variant ON responses(variant_id)",
    # Deterministic (greedy) requests only; key = hash of the full request.
    """CREATE TABLE response_cache (
        request_key TEXT PRIMARY KEY,
        text TEXT NOT NULL,
        prompt_tokens INTEGER,
        completion_tokens INTEGER,
        finish_reason TEXT,
        created_at TEXT NOT NULL
    )""",
    """CREATE TABLE judgments (
        id INTEGER PRIMARY KEY,
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        response_id INTEGER NOT NULL REFERENCES responses(id),
        standard_response_id INTEGER REFERENCES responses(id),
        judge_response_id INTEGER REFERENCES responses(id),
        gate TEXT NOT NULL DEFAULT 'ok' CHECK (gate IN ('ok', 'script', 'refusal')),
        reasoning TEXT NOT NULL DEFAULT '',
        comprehension INTEGER, correctness INTEGER, completeness INTEGER,
        clarity INTEGER, length INTEGER,
        confidence INTEGER,
        final REAL,
        created_at TEXT NOT NULL,
        UNIQUE (run_id, response_id)
    )""",
    # Human scores override machine ones with provenance; the machine row is never changed.
    """CREATE TABLE human_annotations (
        id INTEGER PRIMARY KEY,
        target TEXT NOT NULL CHECK (target IN ('judgment', 'variant', 'translation')),
        target_id INTEGER NOT NULL,
        annotator TEXT NOT NULL,
        score REAL,
        details TEXT NOT NULL DEFAULT '{}',
        reason TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL
    )""",
    "CREATE INDEX human_annotations_target ON human_annotations(target, target_id)",
]

# Issue 16: judgments carry flags (injection attempts, inconsistent verdicts: always sent to
# human review); a run being decoded is leased by one process (owner, heartbeat time);
# decoded groups are kept for replication.
V2_INTEGRITY = [
    "ALTER TABLE judgments ADD COLUMN flags TEXT NOT NULL DEFAULT ''",
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

MIGRATIONS: list[list[str]] = [V1, V2_INTEGRITY]
SCHEMA_VERSION = len(MIGRATIONS)

# The paper's nine dialects plus standard (DESIGN.md); more can be added per workspace.
DIALECTS = [
    ("standard", "প্রমিত বাংলা", "Standard Bengali", ""),
    ("chittagong", "চট্টগ্রামের ভাষা", "Chittagong", "Chattogram"),
    ("sylhet", "সিলেটি", "Sylhet", "Sylhet"),
    ("noakhali", "নোয়াখালীর ভাষা", "Noakhali", "Chattogram"),
    ("barishal", "বরিশালের ভাষা", "Barishal", "Barishal"),
    ("mymensingh", "ময়মনসিংহের ভাষা", "Mymensingh", "Mymensingh"),
    ("rangpur", "রংপুরের ভাষা", "Rangpur", "Rangpur"),
    ("habiganj", "হবিগঞ্জের ভাষা", "Habiganj", "Sylhet"),
    ("kishoreganj", "কিশোরগঞ্জের ভাষা", "Kishoreganj", "Dhaka"),
    ("tangail", "টাঙ্গাইলের ভাষা", "Tangail", "Dhaka"),
]
