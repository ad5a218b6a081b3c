"""The field-notes study's section of the HTML report (declared in its schema.py): per model,
how many notes it read. Empty before any note was read."""

from __future__ import annotations

from typing import Any

from engine.i18n import _
from engine.workspace.store import Workspace
from tests.fourth_study.request import GIST_KIND


def report_parts(ws: Workspace, _settings: Any) -> list[dict]:
    rows = ws.query(
        "SELECT m.name AS model, count(DISTINCT d.item_key) AS notes_read "
        "FROM responses d JOIN runs r ON r.id = d.run_id JOIN models m ON m.id = r.model_id "
        "WHERE r.kind = ? AND d.status = 'done' GROUP BY m.name ORDER BY m.name",
        (GIST_KIND,),
    )
    if not rows:
        return []
    title = _("Field notes read by each model")
    return [{"stem": "field_notes", "title": title, "rows": rows, "n_labels": 1, "figure": None}]
