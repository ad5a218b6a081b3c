"""The field-notes study's declarations for the workspace: pure data, as a stage's are."""

TRACK = [
    ["CREATE TABLE field_notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)"],
]
TOPICS = {"field_notes": ("(SELECT count(*) FROM field_notes)",)}
