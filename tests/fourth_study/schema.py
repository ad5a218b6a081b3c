"""The field-notes study's declarations: pure data, as a stage's are (engine.workspace.stages):
its table on its own migration track, its change topic, its model step, its report section
and the stored codes a person sees."""

TRACK = [
    [
        """CREATE TABLE field_notes (
            id INTEGER PRIMARY KEY,
            text TEXT NOT NULL,
            origin TEXT NOT NULL DEFAULT 'typed' CHECK (origin IN ('typed', 'imported'))
        )"""
    ],
]
TOPICS = {"field_notes": ("(SELECT count(*) FROM field_notes)",)}
REQUESTS = {"gist-notes": "tests.fourth_study.request:GistRequest"}
REPORT_SECTIONS = ("tests.fourth_study.report:report_parts",)
LABELS = {"note_origin": ("typed", "imported")}
