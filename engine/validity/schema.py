"""The judge-validity stage's declarations, pure data (what each name means:
engine.workspace.stages): its card table on its own migration track, its change topic, the
runs its cards keep, its model step, its report section and the codes a person sees."""

TRACK = [
    [
        # one row per finished suite: the judge run checked, the run that decoded the probes,
        # the settings and bands it was run with, and the figures (JSON: engine.validity.card)
        """CREATE TABLE IF NOT EXISTS validity_cards (
            id INTEGER PRIMARY KEY,
            judge_run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL,
            created_at TEXT NOT NULL,
            settings TEXT NOT NULL,
            card TEXT NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS validity_cards_judge_run ON validity_cards(judge_run_id)",
    ],
]
TOPICS = {"validity_cards": ("(SELECT max(id) FROM validity_cards)",)}
# a probe run whose card points at it is never dropped as empty
RUN_HOLDERS = ("SELECT 1 FROM validity_cards WHERE run_id = ?",)
REQUESTS = {"validity": "engine.validity.request:ValidityRequest"}
REPORT_SECTIONS = ("engine.validity.report:report_parts",)
LABELS = {
    "validity_check": (
        "order",
        "retest",
        "whitespace",
        "punctuation",
        "unicode_nfd",
        "ya_spelling",
        "padding",
        "romanized",
        "other_answer",
        "emptied",
    ),
    "validity_family": ("position", "retest", "invariance", "sensitivity"),
    "validity_status": ("pass", "fail", "unmeasured"),
}
