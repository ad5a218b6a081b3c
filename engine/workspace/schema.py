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

# Social-bias probing (paper 002). A probe set holds probes of one topic: two groups, x and
# y (the paper's x = female / Hindu, y = male / Muslim). A probe's prompt is stored as a
# stem with {a} and {b} where the two options go, so the option order is chosen per prompt
# at run time (engine.bias.order), never trusted from the file.
V2_PROBES = [
    """CREATE TABLE probe_sets (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL CHECK (kind IN ('template', 'natural')),
        topic TEXT NOT NULL,
        group_x TEXT NOT NULL,
        group_y TEXT NOT NULL,
        source TEXT NOT NULL DEFAULT '',
        -- a dialect version of another set: its probes keep the base set's ext_ids,
        -- options and group mapping (engine.bias.dialects)
        dialect TEXT NOT NULL DEFAULT 'standard' REFERENCES dialects(code),
        base_set_id INTEGER REFERENCES probe_sets(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL
    )""",
    """CREATE TABLE probe_items (
        id INTEGER PRIMARY KEY,
        set_id INTEGER NOT NULL REFERENCES probe_sets(id) ON DELETE CASCADE,
        ext_id TEXT NOT NULL,
        stem TEXT NOT NULL,
        option_x TEXT NOT NULL,
        option_y TEXT NOT NULL,
        source_order TEXT NOT NULL DEFAULT 'xy' CHECK (source_order IN ('xy', 'yx')),
        category TEXT NOT NULL DEFAULT '',
        subcategory TEXT NOT NULL DEFAULT '',
        occupation_mixed INTEGER NOT NULL DEFAULT 0,
        occupation TEXT NOT NULL DEFAULT '',
        trait TEXT NOT NULL DEFAULT '',
        UNIQUE (set_id, ext_id)
    )""",
    # The editable answer-normalisation table: each edit is a new row with a higher id;
    # the newest row for (topic, phrase) wins; label '' removes a phrase.
    """CREATE TABLE probe_norm_entries (
        id INTEGER PRIMARY KEY,
        topic TEXT NOT NULL,
        phrase TEXT NOT NULL,
        label TEXT NOT NULL,
        author TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL
    )""",
    "CREATE INDEX probe_norm_entries_phrase ON probe_norm_entries(topic, phrase)",
]

# Field annotation (engine/annotation): named annotators, assignment batches with their seed,
# one row per annotator decision (never updated by another's), adjudications that make gold,
# review-package import log, and the workspace's stable id (workspace_meta 'workspace_id').
V2_ANNOTATION = [
    """CREATE TABLE workspace_meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    )""",
    """CREATE TABLE annotators (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        dialects TEXT NOT NULL DEFAULT '[]',
        created_at TEXT NOT NULL
    )""",
    # purpose 'review': balanced assignment with an overlap share; 'ppi': a random subset of
    # judged answers whose human scores correct the judge (seed recorded, never hand-picked).
    """CREATE TABLE annotation_batches (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        purpose TEXT NOT NULL DEFAULT 'review' CHECK (purpose IN ('review', 'ppi')),
        kind TEXT NOT NULL CHECK (kind IN ('variant', 'judgment')),
        seed INTEGER NOT NULL,
        overlap REAL NOT NULL DEFAULT 0,
        blind_draft INTEGER NOT NULL DEFAULT 0,
        score_scale TEXT NOT NULL DEFAULT '',
        params TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL
    )""",
    """CREATE TABLE annotation_items (
        id INTEGER PRIMARY KEY,
        batch_id INTEGER NOT NULL REFERENCES annotation_batches(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('variant', 'judgment')),
        target_id INTEGER NOT NULL,
        dialect TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        UNIQUE (batch_id, kind, target_id)
    )""",
    "CREATE INDEX annotation_items_target ON annotation_items(kind, target_id)",
    """CREATE TABLE annotation_assignments (
        item_id INTEGER NOT NULL REFERENCES annotation_items(id) ON DELETE CASCADE,
        annotator_id INTEGER NOT NULL REFERENCES annotators(id),
        overlap INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (item_id, annotator_id)
    )""",
    "CREATE INDEX annotation_assignments_annotator ON annotation_assignments(annotator_id)",
    # uid is made where the decision is made (workspace or package) so merging is idempotent;
    # item_hash is the item content the annotator saw; stale = it changed before the merge.
    """CREATE TABLE annotation_decisions (
        id INTEGER PRIMARY KEY,
        uid TEXT NOT NULL UNIQUE,
        item_id INTEGER NOT NULL REFERENCES annotation_items(id) ON DELETE CASCADE,
        annotator_id INTEGER NOT NULL REFERENCES annotators(id),
        decision TEXT NOT NULL CHECK (decision IN ('accept', 'edit', 'flag', 'reject')),
        text TEXT,
        score REAL,
        comment TEXT NOT NULL DEFAULT '',
        seconds REAL,
        item_hash TEXT NOT NULL,
        stale INTEGER NOT NULL DEFAULT 0,
        source TEXT NOT NULL DEFAULT 'workspace',
        decided_at TEXT NOT NULL,
        checksum TEXT NOT NULL
    )""",
    "CREATE INDEX annotation_decisions_item ON annotation_decisions(item_id, annotator_id)",
    """CREATE TABLE annotation_adjudications (
        id INTEGER PRIMARY KEY,
        item_id INTEGER NOT NULL REFERENCES annotation_items(id) ON DELETE CASCADE,
        adjudicator TEXT NOT NULL,
        decision TEXT NOT NULL CHECK (decision IN ('accept', 'edit', 'reject')),
        text TEXT,
        score REAL,
        comment TEXT NOT NULL DEFAULT '',
        decision_ids TEXT NOT NULL DEFAULT '[]',
        at TEXT NOT NULL
    )""",
    "CREATE INDEX annotation_adjudications_item ON annotation_adjudications(item_id)",
    """CREATE TABLE annotation_packages (
        id INTEGER PRIMARY KEY,
        package_id TEXT NOT NULL,
        annotator_id INTEGER NOT NULL REFERENCES annotators(id),
        direction TEXT NOT NULL CHECK (direction IN ('export', 'import')),
        seal TEXT NOT NULL,
        n_items INTEGER NOT NULL,
        n_decisions INTEGER NOT NULL,
        n_new INTEGER NOT NULL DEFAULT 0,
        at TEXT NOT NULL
    )""",
]

# Dialects as data (issue 12): per-workspace aliases, a JSON list of spellings that resolve
# to the code (engine.importing.dialects); built-in aliases live in code.
V2_DIALECTS = [
    "ALTER TABLE dialects ADD COLUMN aliases TEXT NOT NULL DEFAULT '[]'",
]

# Multi-reference corpus items (issue 12): an item is one standard sentence of one corpus
# and dialect; its references are the pairs sharing (corpus_id, dialect, standard_key).
V2_REFS = [
    "CREATE INDEX sentence_pairs_item ON sentence_pairs(corpus_id, dialect, standard_key)",
]

# Scored translations (issue 12): system outputs with references and human scores, for the
# metric-vs-human study. Every set declares the scale of its human scores.
V2_SCORED = [
    """CREATE TABLE scored_sets (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        source TEXT NOT NULL DEFAULT '',
        scale_min REAL NOT NULL,
        scale_max REAL NOT NULL CHECK (scale_max > scale_min),
        dialect TEXT REFERENCES dialects(code),
        created_at TEXT NOT NULL
    )""",
    # refs: JSON list of one or more references; line: "file:line" it came from
    """CREATE TABLE scored_segments (
        id INTEGER PRIMARY KEY,
        set_id INTEGER NOT NULL REFERENCES scored_sets(id) ON DELETE CASCADE,
        system TEXT NOT NULL,
        seg_key TEXT NOT NULL,
        source TEXT NOT NULL,
        hypothesis TEXT NOT NULL,
        refs TEXT NOT NULL,
        line TEXT NOT NULL DEFAULT '',
        UNIQUE (set_id, system, seg_key)
    )""",
    """CREATE TABLE scored_human (
        id INTEGER PRIMARY KEY,
        segment_id INTEGER NOT NULL REFERENCES scored_segments(id) ON DELETE CASCADE,
        annotator TEXT NOT NULL,
        score REAL NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (segment_id, annotator)
    )""",
]

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

# Version 2: the stages added together (dialect aliases, multi-reference items, scored
# translations, understanding tasks, social-bias probes, field annotation, judgment flags and
# run leases, batch groups and replications), one migration since none was released alone.
V2 = [
    *V2_DIALECTS,
    *V2_REFS,
    *V2_SCORED,
    *V2_TASKS,
    *V2_PROBES,
    *V2_ANNOTATION,
    *V2_INTEGRITY,
]

# Issue 21: declared normalisation and named labels.
V3_ISSUE21 = [
    # what the metrics of a scored set score ('nfc' or 'none', engine.text.textnorm);
    # a set imported with 'none' stores its texts exactly as the file has them.
    "ALTER TABLE scored_sets ADD COLUMN normalization TEXT NOT NULL DEFAULT 'nfc'",
    # ... and of a corpus (`import corpus --normalize none` keeps the file's sentences)
    "ALTER TABLE corpora ADD COLUMN normalization TEXT NOT NULL DEFAULT 'nfc'",
    # ... and the names of an item set's stored labels (JSON {"0": "not-offensive", ...}):
    # prompts, parsers and reports use the names, task_items.label keeps the stored label
    "ALTER TABLE task_item_sets ADD COLUMN label_names TEXT NOT NULL DEFAULT '{}'",
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


# Issue 19: one writer per table.
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

# Version 3 (this session): each issue's statements, in the order they landed.
V3 = [
    *V3_ISSUE19,
    *V3_ISSUE21,
]


# Issue 23 (item 4): the judged items kept up to date, so the charts and every figure read
# one narrow table instead of joining judgments, responses, runs, models, variants and
# questions with a correlated look-up of the newest human override per judgment (5.7 s for
# one chart at ten times the paper's study). ``judged_items`` holds one row per judgment
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

MIGRATIONS: list[list[str]] = [V1, V2, V3, V4, V5]
SCHEMA_VERSION = len(MIGRATIONS)

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
