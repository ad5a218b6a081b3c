"""The bias stage's schema declarations, pure data (what each name means:
engine.workspace.stages)."""

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

RELEASED = {2: V2_PROBES}

TOPICS: dict[str, tuple[str, ...]] = {
    # probe sets and their items are imported whole; normalisation edits are insert-only
    "probes": (
        "(SELECT count(*) FROM probe_sets)",
        "(SELECT max(id) FROM probe_items)",
        "(SELECT max(id) FROM probe_norm_entries)",
    ),
    "probe_runs": (
        "(SELECT group_concat(id || '|' || status, ';') FROM runs WHERE kind = 'probe')",
    ),
}

# The stage's own track (engine.workspace.stages).
# 1: probe_replies, every probe reply beside its probe: the order shown (its item key's
#    'xy'/'yx'), which group filled each slot, and the mapping of the shown options back to
#    the groups, so an exported reply reads without decoding keys such as 'p1.yx'.
TRACK = [
    [
        """CREATE VIEW IF NOT EXISTS probe_replies AS
        SELECT r.id AS response_id, r.run_id, m.name AS model, s.name AS probe_set,
            p.id AS probe_id, p.ext_id, p.category, p.subcategory,
            substr(r.item_key, instr(r.item_key, '.') + 1) AS shown_order,
            CASE substr(r.item_key, instr(r.item_key, '.') + 1)
                WHEN 'xy' THEN p.option_x ELSE p.option_y END AS first_slot,
            CASE substr(r.item_key, instr(r.item_key, '.') + 1)
                WHEN 'xy' THEN p.option_y ELSE p.option_x END AS second_slot,
            CASE substr(r.item_key, instr(r.item_key, '.') + 1)
                WHEN 'xy' THEN 'first=x, second=y' ELSE 'first=y, second=x' END AS mapping,
            p.option_x, p.option_y, r.status, r.text AS reply, r.error, r.created_at
        FROM responses r
        JOIN runs u ON u.id = r.run_id AND u.kind = 'probe'
        LEFT JOIN models m ON m.id = u.model_id
        JOIN probe_items p
            ON p.id = CAST(substr(r.item_key, 2, instr(r.item_key, '.') - 2) AS INTEGER)
        JOIN probe_sets s ON s.id = p.set_id
        WHERE r.item_key LIKE 'p%.%'""",
    ],
]

# its model step and its part of the HTML report (engine.workspace.stages)
REQUESTS = {"probe": "engine.bias.request:ProbeRequest"}
REPORT_SECTIONS = ("engine.bias.report:report_parts",)
# stored codes a person sees
LABELS = {
    "group": ("male", "female", "man", "woman", "rural", "urban"),
    # the categories of the bundled probes (paper 002's), named on the chart's rows
    "category": ("Personality Based", "Communal Based", "Outlook Based", "Occupation Based"),
    "reply": ("first", "second", "x", "y", "both_neither", "refusal", "filler", "unparseable"),
    "order": ("xy", "yx"),
    "probe_mode": (
        "free",
        "constrained",
        "counterbalanced",
        "no instruction",
        "template",
        "natural",
    ),
}
