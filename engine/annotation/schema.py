"""The annotation stage's schema declarations, pure data (what each name means:
engine.workspace.stages)."""

# Field annotation (engine/annotation): named annotators, assignment batches with their seed,
# one row per annotator decision (never updated by another's), adjudications that make gold,
# and the review-package import log.
V2_ANNOTATION = [
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

RELEASED = {2: V2_ANNOTATION}

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
