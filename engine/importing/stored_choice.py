"""Where the normalisation choice lives: with the texts. A corpus or item set records at
import what it stores ('none': every text as written; 'nfc': normalised), and everything that
scores it — baselines, evaluations, task runs — scores that choice unless asked for another.

Asked for 'nfc' on raw texts, a scorer can normalise them, so it does. Asked for 'none' on
texts stored normalised, the file's own spellings are gone: scoring them "as written" would
score NFC text under a 'none' signature, so it scores 'nfc' and says why. Either way a note
says what was scored, and the signatures name only a normalisation that happened.
"""

from __future__ import annotations

from engine.errors import Setting, setting
from engine.text.textnorm import DEFAULT_NORMALIZATION, check_normalization
from engine.workspace.store import Workspace


def stored_normalization(ws: Workspace, source: str = "pairs", corpus: str | None = None) -> str:
    """What ``source`` ("pairs", optionally one ``corpus``, or "items:<set>") stores: 'none'
    only when every corpus it reads was imported raw."""
    if source.startswith("items:"):
        # the item sets' table belongs to the understanding stage, above this one
        stored = ws.scalar(
            "SELECT n.normalization FROM task_item_set_normalization n JOIN task_item_sets s "
            "ON s.id = n.set_id WHERE s.name = ?",
            (source.split(":", 1)[1],),
        )
        return stored or DEFAULT_NORMALIZATION
    modes = {
        r["normalization"]
        for r in ws.query(
            "SELECT DISTINCT normalization FROM corpora" + (" WHERE name = ?" if corpus else ""),
            (corpus,) if corpus else (),
        )
    }
    return "none" if modes == {"none"} else DEFAULT_NORMALIZATION


def scoring_normalization(
    ws: Workspace, source: str = "pairs", corpus: str | None = None, asked: str | None = None
) -> tuple[str, list[str]]:
    """(what to score, notes): the stored choice of ``source``, or ``asked`` where it can be
    done; a note whenever ``asked`` differs from the stored choice."""
    stored = stored_normalization(ws, source, corpus)
    if asked is None or check_normalization(asked) == stored:
        return stored, []
    what = (
        f"item set '{source.split(':', 1)[1]}'"
        if source.startswith("items:")
        else (f"corpus '{corpus}'" if corpus else "the corpora")
    )
    plural = what == "the corpora"
    stores, its = ("store", "their") if plural else ("stores", "its")
    if asked == "nfc":
        return "nfc", [
            f"{what} {stores} {its} texts as written ({setting(Setting.NORMALIZE, 'none')}); "
            "scored nfc as asked"
        ]
    return "nfc", [
        f"{what} {stores} NFC-normalised text ({setting(Setting.NORMALIZE, 'nfc')}), so "
        "the spellings as written are not there to score: scored nfc, not none, and the "
        f"signatures say so; re-import with {setting(Setting.NORMALIZE, 'none')} to score "
        "the file's own spellings"
    ]
