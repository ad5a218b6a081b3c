"""The field-notes study's declarations: pure data, as a stage's are (engine.workspace.stages):
its table on its own migration track, its change topic, its model step and its report section."""

TRACK = [
    ["CREATE TABLE field_notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)"],
]
TOPICS = {"field_notes": ("(SELECT count(*) FROM field_notes)",)}
REQUESTS = {"gist-notes": "tests.fourth_study.request:GistRequest"}
REPORT_SECTIONS = ("tests.fourth_study.report:report_parts",)
