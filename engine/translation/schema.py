"""The translation stage's schema declarations, pure data (what each name means:
engine.workspace.stages)."""

# Scored translations: system outputs with references and human scores, for the
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


# Declared normalisation.
V3_NORMALIZATION = [
    # what the metrics of a scored set score ('nfc' or 'none', engine.text.textnorm);
    # a set imported with 'none' stores its texts exactly as the file has them.
    "ALTER TABLE scored_sets ADD COLUMN normalization TEXT NOT NULL DEFAULT 'nfc'",
]

RELEASED = {2: V2_SCORED, 3: V3_NORMALIZATION}

# The stage's own track (engine.workspace.stages).
# 1: a corpus imported with 'none' keys its pairs by the text exactly as written, so only
#    byte-equal spellings are one item; corpora imported before keyed them normalised.
#    Rewriting the keys is safe to run again, and never collides: texts that differ byte-wise
#    had different normalised keys or were merged (and stored once) already.
TRACK_RAW_KEYS = [
    "UPDATE sentence_pairs SET standard_key = standard_text, dialect_key = dialect_text "
    "WHERE corpus_id IN (SELECT id FROM corpora WHERE normalization = 'none') "
    "AND (standard_key != standard_text OR dialect_key != dialect_text)",
]

# The dialect check of machine drafts (engine/translation/draft_checks.py): one row per
# checked variant, of the text it checked (a later edit makes it stale) and by which model.
# target_probability is NULL for a dialect the model was not trained on; flag is '' (fine),
# 'copy' (chrF++ against the standard source at or above the copy threshold) or 'other'
# (another dialect, or standard Bengali, is the likeliest at the model's flag confidence).
TRACK_DRAFT_CHECKS = [
    """CREATE TABLE IF NOT EXISTS draft_checks (
        variant_id INTEGER PRIMARY KEY REFERENCES variants(id) ON DELETE CASCADE,
        text TEXT NOT NULL,
        target_probability REAL,
        likeliest TEXT NOT NULL,
        likeliest_probability REAL NOT NULL,
        copy_chrf REAL NOT NULL,
        flag TEXT NOT NULL CHECK (flag IN ('', 'copy', 'other')),
        model TEXT NOT NULL,
        checked_at TEXT NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS draft_checks_flag ON draft_checks(flag)",
]

TRACK = [TRACK_RAW_KEYS, TRACK_DRAFT_CHECKS]

# its model steps (engine.workspace.stages)
REQUESTS = {
    "translate": "engine.translation.request:TranslateRequest",
    "eval-translation": "engine.translation.request:EvalTranslationRequest",
}
