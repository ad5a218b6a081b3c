"""The shared tables of the workspace schema, versioned by ``PRAGMA user_version``.

Migration ``i`` brings a workspace from version ``i - 1`` to ``i``: the statements of
``RELEASED[i]`` here and then each study stage's for the same version (its
``engine/<stage>/schema.py``), assembled by :func:`engine.workspace.stages.migrations`. A
migration is run in one transaction together with the version bump, so a crash
mid-migration leaves the old version intact. Never edit a released migration: append a new
version and add a fixture database for the version it replaces (``tests/fixtures/schema/``);
a stage added later keeps its tables on its own track instead (engine.workspace.stages).

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
    # standard_key/dialect_key: canonical forms (engine.text.textnorm.canonical_key) that
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

# The workspace's stable id (workspace_meta 'workspace_id', engine.workspace.identity).
V2_META = [
    """CREATE TABLE workspace_meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    )""",
]

# Dialects as data: per-workspace aliases, a JSON list of spellings that resolve
# to the code (engine.importing.dialects); built-in aliases live in code.
V2_DIALECTS = [
    "ALTER TABLE dialects ADD COLUMN aliases TEXT NOT NULL DEFAULT '[]'",
]

# Multi-reference corpus items: an item is one standard sentence of one corpus
# and dialect; its references are the pairs sharing (corpus_id, dialect, standard_key).
V2_REFS = [
    "CREATE INDEX sentence_pairs_item ON sentence_pairs(corpus_id, dialect, standard_key)",
]

# The paper's nine dialects plus standard (docs/design.md); more can be added per workspace.
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


def _text(value: str) -> str:
    """A SQL string literal (a migration is plain SQL, run without parameters)."""
    return "'" + value.replace("'", "''") + "'"


# One writer per table.
# - The built-in dialects are seeded by this migration, not by every open of a workspace
#   (engine.importing.dialects is the one writer of ``dialects`` after it). A dialect added
#   to DIALECTS later needs a migration of its own.
# - ``human_annotations`` carries the scale of its score (``MIN-MAX``): every score written
#   so far was on the fixed 0-10 scale except adjudicated ones, which recorded the batch's
#   scale (``LOW..HIGH``) in ``details``. ``details`` of a judgment becomes one shape for
#   overrides and adjudications (engine.workspace.human_annotations.JudgmentDetails); the
#   machine score an adjudication settled is read from its judgment (never changed).
V3_ISSUE19 = [
    "INSERT OR IGNORE INTO dialects(code, name_bn, name_en, region) VALUES "
    + ", ".join("(" + ", ".join(_text(v) for v in row) + ")" for row in DIALECTS),
    "ALTER TABLE human_annotations ADD COLUMN scale TEXT NOT NULL DEFAULT ''",
    """UPDATE human_annotations SET scale = coalesce(
        replace(json_extract(details, '$.scale'), '..', '-'), '0-10')""",
    """UPDATE human_annotations SET details = json_object(
        'source', CASE WHEN json_type(details, '$.annotation_item') IS NULL
                       THEN 'override' ELSE 'adjudication' END,
        'scores', json(json_extract(details, '$.scores')),
        'rubric', json_extract(details, '$.rubric'),
        'machine', json(coalesce(json_extract(details, '$.machine'),
            (SELECT json_object('final', j.final, 'confidence', j.confidence)
             FROM judgments j WHERE j.id = human_annotations.target_id), '{}')),
        'annotation_item', json_extract(details, '$.annotation_item'),
        'decision_ids', json(coalesce(json_extract(details, '$.decision_ids'), '[]')))
    WHERE target = 'judgment'""",
]

# Declared normalisation of a corpus (scored sets and item sets: their stages).
V3_CORPORA = [
    # ... and of a corpus (`import corpus --normalize none` keeps the file's sentences)
    "ALTER TABLE corpora ADD COLUMN normalization TEXT NOT NULL DEFAULT 'nfc'",
]


# The judged items kept up to date, so the charts and every figure read
# one narrow table instead of joining judgments, responses, runs, models, variants and
# questions with a correlated look-up of the newest human override per judgment (seconds
# per chart at ten times the paper's study). ``judged_items`` holds one row per judgment
# whose answer has a variant and question: the judge run, the answer, its model, dialect and
# question, the machine score, the newest human score converted from its own scale to
# 0-10 (an adjudication on a 0-5 batch used to be read as 0-10), whether a person scored
# it, the effective score and whether it is *counted* (scored by the machine, and unflagged
# or scored by a person: engine.judging.judged_items). Three per-group sums over the
# counted rows are all the charts need: (model, dialect) for the heatmap, (dialect,
# question) for the dialect and breakdown intervals, (dialect, score) for the
# distribution. Triggers keep them in the transaction of every write they depend on (a
# judgment stored, changed or deleted, a run deleted with its judgments, a human score, a
# response linked to another variant): no module writes these tables, so a kill at any
# moment leaves them as consistent as the rows they are computed from.
def _human_score_0_10(ha: str) -> str:
    """SQL: ``ha.score`` (a human score on ``ha.scale``, ``MIN-MAX`` with MIN possibly
    negative) on the 0-10 scale of the figures."""
    sep = f"(instr(substr({ha}.scale, 2), '-') + 1)"
    lo = f"CAST(substr({ha}.scale, 1, {sep} - 1) AS REAL)"
    hi = f"CAST(substr({ha}.scale, {sep} + 1) AS REAL)"
    return (
        f"CASE WHEN {ha}.scale IN ('', '0-10') THEN {ha}.score "
        f"ELSE 10.0 * ({ha}.score - {lo}) / ({hi} - {lo}) END"
    )


HUMAN_SCORE_0_10 = _human_score_0_10("ha")

# the newest human score of judgment ``j`` on 0-10 (engine.judging.judged_items reads it too)
V4_LATEST_HUMAN_SCORE = _V4_HUMAN = f"""(SELECT {HUMAN_SCORE_0_10} FROM human_annotations ha
        WHERE ha.target = 'judgment' AND ha.target_id = j.id ORDER BY ha.id DESC LIMIT 1)"""
_V4_REVIEWED = """EXISTS (SELECT 1 FROM human_annotations ha
        WHERE ha.target = 'judgment' AND ha.target_id = j.id)"""
_V4_ROWS = f"""INSERT INTO judged_items(judgment_id, run_id, response_id, answer_run_id,
        model_id, dialect, question_id, confidence, machine_final, human_final, reviewed,
        final, counted)
    SELECT j.id, j.run_id, j.response_id, ar.id, ar.model_id, dv.dialect, dv.question_id,
        j.confidence, j.final, {_V4_HUMAN}, {_V4_REVIEWED},
        coalesce({_V4_HUMAN}, j.final),
        j.final IS NOT NULL AND (j.flags = '' OR {_V4_REVIEWED})
    FROM judgments j
    JOIN responses d ON d.id = j.response_id
    JOIN runs ar ON ar.id = d.run_id
    JOIN variants dv ON dv.id = d.variant_id
    JOIN questions q ON q.id = dv.question_id"""
# each sum table: its group columns (beside run_id) and what a judged item puts in them
_V4_SUMS = {
    "judged_model_dialect": (
        ("model_key", "dialect"),
        ("coalesce({r}.model_id, 0)", "{r}.dialect"),
    ),
    "judged_dialect_question": (("dialect", "question_id"), ("{r}.dialect", "{r}.question_id")),
    "judged_dialect_score": (("dialect", "final"), ("{r}.dialect", "{r}.final")),
}


def _v4_refresh(judgment: str) -> str:
    """Trigger body: the judged item of judgment id ``judgment`` computed again."""
    return (
        f"DELETE FROM judged_items WHERE judgment_id = {judgment};\n"
        f"{_V4_ROWS}\n    WHERE j.id = {judgment};"
    )


def _v4_sums(row: str, add: bool) -> str:
    """Trigger body: judged item ``row`` (NEW or OLD) added to or taken from the three
    sums; a group left with nothing is dropped."""
    out = []
    for table, (columns, values) in _V4_SUMS.items():
        keys = [v.format(r=row) for v in values]
        if add:
            out.append(
                f"INSERT INTO {table}(run_id, {', '.join(columns)}, n, total) "
                f"VALUES ({row}.run_id, {', '.join(keys)}, 1, {row}.final) "
                "ON CONFLICT DO UPDATE SET n = n + 1, total = total + excluded.total;"
            )
            continue
        where = " AND ".join(
            [f"run_id = {row}.run_id"] + [f"{c} = {k}" for c, k in zip(columns, keys)]
        )
        out.append(f"UPDATE {table} SET n = n - 1, total = total - {row}.final WHERE {where};")
        out.append(f"DELETE FROM {table} WHERE {where} AND n = 0;")
    return "\n        ".join(out)


def _v4_sum_table(table: str, columns: tuple[str, ...]) -> str:
    types = {"model_key": "INTEGER", "dialect": "TEXT", "question_id": "INTEGER", "final": "REAL"}
    typed = ", ".join(f"{c} {types[c]} NOT NULL" for c in columns)
    return (
        f"CREATE TABLE {table} (run_id INTEGER NOT NULL, {typed}, n INTEGER NOT NULL, "
        f"total REAL NOT NULL, PRIMARY KEY (run_id, {', '.join(columns)})) WITHOUT ROWID"
    )


def _v4_sum_fill(table: str, columns: tuple[str, ...], values: tuple[str, ...]) -> str:
    keys = ", ".join(v.format(r="judged_items") for v in values)
    return (
        f"INSERT INTO {table}(run_id, {', '.join(columns)}, n, total) "
        f"SELECT run_id, {keys}, count(*), sum(final) FROM judged_items WHERE counted "
        f"GROUP BY run_id, {keys}"
    )


V4_ISSUE23 = [
    """CREATE TABLE judged_items (
        judgment_id INTEGER PRIMARY KEY,
        run_id INTEGER NOT NULL,
        response_id INTEGER NOT NULL,
        answer_run_id INTEGER NOT NULL,
        model_id INTEGER,
        dialect TEXT NOT NULL,
        question_id INTEGER NOT NULL,
        confidence INTEGER,
        machine_final REAL,
        human_final REAL,
        reviewed INTEGER NOT NULL,
        final REAL,
        counted INTEGER NOT NULL
    )""",
    # judge agreement pairs two runs by answer; the answers panel lists a run's ids in order
    "CREATE INDEX judged_items_pair ON judged_items(run_id, response_id, machine_final, counted)",
    "CREATE INDEX judged_items_run ON judged_items(run_id)",
    *(_v4_sum_table(table, columns) for table, (columns, _values) in _V4_SUMS.items()),
    _V4_ROWS,
    *(_v4_sum_fill(table, *spec) for table, spec in _V4_SUMS.items()),
    f"""CREATE TRIGGER judged_items_sum_add AFTER INSERT ON judged_items WHEN NEW.counted
    BEGIN {_v4_sums("NEW", add=True)} END""",
    f"""CREATE TRIGGER judged_items_sum_take AFTER DELETE ON judged_items WHEN OLD.counted
    BEGIN {_v4_sums("OLD", add=False)} END""",
    f"""CREATE TRIGGER judgment_inserted AFTER INSERT ON judgments
    BEGIN {_V4_ROWS} WHERE j.id = NEW.id; END""",
    """CREATE TRIGGER judgment_deleted AFTER DELETE ON judgments
    BEGIN DELETE FROM judged_items WHERE judgment_id = OLD.id; END""",
    f"""CREATE TRIGGER judgment_changed
    AFTER UPDATE OF id, run_id, response_id, confidence, final, flags ON judgments
    BEGIN DELETE FROM judged_items WHERE judgment_id = OLD.id; {_v4_refresh("NEW.id")} END""",
    f"""CREATE TRIGGER judgment_scored AFTER INSERT ON human_annotations
    WHEN NEW.target = 'judgment' BEGIN {_v4_refresh("NEW.target_id")} END""",
    f"""CREATE TRIGGER judgment_score_deleted AFTER DELETE ON human_annotations
    WHEN OLD.target = 'judgment' BEGIN {_v4_refresh("OLD.target_id")} END""",
    f"""CREATE TRIGGER judgment_score_changed AFTER UPDATE ON human_annotations
    WHEN OLD.target = 'judgment' OR NEW.target = 'judgment'
    BEGIN {_v4_refresh("OLD.target_id")} {_v4_refresh("NEW.target_id")} END""",
    # an answer linked to another variant (or run) moves its judged items with it
    f"""CREATE TRIGGER judged_answer_moved AFTER UPDATE OF run_id, variant_id ON responses
    BEGIN
        DELETE FROM judged_items WHERE response_id = OLD.id;
        {_V4_ROWS} WHERE j.response_id = NEW.id;
    END""",
]

V4 = [
    *V4_ISSUE23,
]

# The per-stage migration track (engine.workspace.stages): a stage added after these
# releases keeps its tables on a track of its own, numbered from 1 in its schema module; this
# table records how far each stage's track has run in this workspace.
V5 = [
    """CREATE TABLE stage_versions (
        stage TEXT PRIMARY KEY,
        version INTEGER NOT NULL
    )""",
]

# The shared tables' statements of each released version; a version's migration is these and
# then every stage's for the same version, in stage order (engine.workspace.stages.migrations).
RELEASED = {
    1: V1,
    2: [*V2_DIALECTS, *V2_REFS, *V2_META],
    3: [*V3_ISSUE19, *V3_CORPORA],
    4: V4,
    5: V5,
}
SCHEMA_VERSION = len(RELEASED)

# The change topics of the shared tables (engine.workspace.changes): topic -> SQL
# expressions, each a scalar sub-query, together the topic's stamp. Study stages declare
# theirs in their own schema module (engine.workspace.stages).
TOPICS: dict[str, tuple[str, ...]] = {
    "questions": (
        "(SELECT group_concat(id || '|' || name, ';') FROM question_sets)",
        "(SELECT count(*) FROM questions)",
        "(SELECT max(id) FROM questions)",
    ),
    "variants": (
        "(SELECT count(*) FROM variants)",
        "(SELECT max(id) FROM variants)",
        "(SELECT max(id) FROM variant_history)",
    ),
    "annotations": ("(SELECT max(id) FROM human_annotations)",),
}

# a translation run whose drafted variants name it is never dropped as empty
RUN_HOLDERS = ("SELECT 1 FROM variants WHERE run_id = ?",)

# stored codes a person sees, by kind, each shown through _() (its English name is the code:
# widgets/common/labels.py; engine.workspace.stages)
LABELS = {
    "domain": (
        "Technology",
        "Social Sciences",
        "Health & Sports",
        "Physical & Natural Sciences",
        "Arts & Humanities",
        "Business & Economics",
    ),
    "split": ("train", "validation", "dev", "test"),
    "normalisation": ("nfc", "none"),
    "status": ("draft", "reviewed", "gold", "flagged", "rejected"),
    "provenance": ("machine", "human", "source"),
}
