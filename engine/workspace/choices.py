"""What the study dialogs offer: question sets, regional dialects, models (default first),
and the totals the main window shows;
the review statuses a dialect variant can have are ``engine.workspace.variants``'s."""

from __future__ import annotations

from engine.workspace.store import Workspace


def study_choices(ws: Workspace) -> dict:
    """What the dialogs offer: question sets, regional dialects, models (default first)."""
    return {
        "question_sets": ws.query(
            "SELECT s.name, count(q.id) AS questions FROM question_sets s "
            "LEFT JOIN questions q ON q.set_id = s.id GROUP BY s.id ORDER BY s.id"
        ),
        # pairs: the dialect's corpus pairs (0: translation exemplars come from other dialects)
        "dialects": ws.query(
            "SELECT d.code, d.name_bn, d.name_en, "
            "(SELECT count(*) FROM sentence_pairs p WHERE p.dialect = d.code) AS pairs "
            "FROM dialects d WHERE d.code != 'standard' ORDER BY d.code"
        ),
        "models": ws.query(
            "SELECT id, name, kind, is_default FROM models ORDER BY is_default DESC, name"
        ),
        "corpus_pairs": ws.scalar("SELECT count(*) FROM sentence_pairs") or 0,
        "variant_counts": {
            r["status"]: r["n"]
            for r in ws.query(
                "SELECT status, count(*) AS n FROM variants WHERE dialect != 'standard' "
                "GROUP BY status"
            )
        },
    }


def study_counts(ws: Workspace) -> dict:
    """Questions, dialect variants (all, and gold) and models: the main window's status bar."""
    return ws.query(
        "SELECT (SELECT count(*) FROM questions) AS questions, "
        "(SELECT count(*) FROM variants WHERE dialect != 'standard') AS variants, "
        "(SELECT count(*) FROM variants WHERE status = 'gold' AND dialect != 'standard') AS gold, "
        "(SELECT count(*) FROM models) AS models"
    )[0]
