"""Named annotators with the dialects they speak."""

from __future__ import annotations

import json
import logging

from engine.errors import Step, UserError, step
from engine.text.text_rules import checked_name
from engine.workspace.store import Workspace, utcnow

log = logging.getLogger(__name__)


def add_annotator(ws: Workspace, name: str, dialects: list[str]) -> dict:
    if not name.strip():
        raise UserError("an annotator needs a name")
    name = checked_name(name, "annotator name")
    codes = _checked_dialects(ws, name, dialects)
    with ws.transaction() as conn:
        if ws.scalar("SELECT id FROM annotators WHERE name = ?", (name,)) is not None:
            raise UserError(f"annotator {name!r} already exists")
        conn.execute(
            "INSERT INTO annotators(name, dialects, created_at) VALUES (?,?,?)",
            (name, json.dumps(codes), utcnow()),
        )
    log.info("annotator %s added (%s)", name, ", ".join(codes))
    return annotator(ws, name)


def _checked_dialects(ws: Workspace, name: str, dialects: list[str]) -> list[str]:
    codes = sorted({d.strip() for d in dialects if d.strip()})
    unknown = set(codes) - ws.dialect_codes()
    if unknown:
        raise UserError(f"annotator {name!r}: unknown dialect(s) {', '.join(sorted(unknown))}")
    if not codes:
        raise UserError(f"annotator {name!r}: name at least one dialect they speak")
    return codes


def set_annotator_dialects(ws: Workspace, name: str, dialects: list[str]) -> dict:
    """Change the dialects ``name`` speaks. The name itself stays: review packages already
    exported carry it, and their merge finds the annotator by it."""
    annotator(ws, name)  # a UserError when there is none
    codes = _checked_dialects(ws, name, dialects)
    with ws.transaction() as conn:
        conn.execute("UPDATE annotators SET dialects = ? WHERE name = ?", (json.dumps(codes), name))
    log.info("annotator %s now speaks %s", name, ", ".join(codes))
    return annotator(ws, name)


def list_annotators(ws: Workspace) -> list[dict]:
    rows = ws.query("SELECT id, name, dialects, created_at FROM annotators ORDER BY name")
    for r in rows:
        r["dialects"] = json.loads(r["dialects"])
    return rows


def annotator(ws: Workspace, name: str) -> dict:
    rows = ws.query("SELECT id, name, dialects, created_at FROM annotators WHERE name = ?", (name,))
    if not rows:
        raise UserError(f"no annotator named {name!r} (add one with {step(Step.ADD_ANNOTATORS)})")
    rows[0]["dialects"] = json.loads(rows[0]["dialects"])
    return rows[0]
