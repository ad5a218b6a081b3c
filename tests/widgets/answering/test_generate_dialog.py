"""GenerateDialog runs real answer generation with the embedded model (synchronous bridge)."""

from __future__ import annotations

import json

import pytest

from engine.workspace.store import Workspace
from widgets.answering.generate_dialog import GenerateDialog
from widgets.common.dialog_parts import checked_data, set_checked


@pytest.fixture
def answer_ws(tmp_path, embedded_gguf):
    from engine.importing.importers import import_questions
    from engine.llm.models.registry import ensure_embedded_default

    questions = tmp_path / "one question.csv"
    questions.write_text(
        "id,question,sylhet\nq1,সৌরজগতের বৃহত্তম গ্রহের নাম কী?,সৌরজগতর সবথাকি বড় গ্রহর নাম কিতা?\n",
        encoding="utf-8",
    )
    ws = Workspace(tmp_path / "study.sqlite", create=True)
    import_questions(ws, questions, name="one")
    ensure_embedded_default(ws)
    yield ws
    ws.close()


def test_defaults_pick_statuses_that_exist_and_the_default_model(qtbot, answer_ws, sync_bridge):
    dialog = GenerateDialog(answer_ws, sync_bridge)
    qtbot.addWidget(dialog)
    # no gold dialect variant yet: reviewed is ticked instead of generate's gold, and said
    assert checked_data(dialog.statuses) == ["reviewed"]
    assert "No gold dialect variants yet: reviewed ticked instead" in dialog.statuses_note.text()
    assert dialog.scope.text().startswith("2 answers")
    assert checked_data(dialog.models) == [
        answer_ws.scalar("SELECT id FROM models WHERE is_default = 1")
    ]
    # gold chosen all the same: the engine's message reaches the dialog, nothing is written
    set_checked(dialog.statuses, ["gold"])
    dialog.start()
    assert "no variants with status gold" in dialog.status.text()
    assert answer_ws.scalar("SELECT count(*) FROM responses") == 0
    assert not sync_bridge.errors


@pytest.mark.slow
def test_answers_the_standard_question_and_the_dialect_variant(qtbot, answer_ws, sync_bridge):
    dialog = GenerateDialog(answer_ws, sync_bridge)
    qtbot.addWidget(dialog)
    set_checked(dialog.statuses, ["reviewed"])
    set_checked(dialog.dialects, ["sylhet"])
    dialog.max_tokens.setValue(16)
    with qtbot.waitSignal(dialog.sig_finished, timeout=120_000) as signal:
        dialog.start()
    summary = signal.args[0]
    assert not sync_bridge.errors
    assert summary["items"] == 2 and summary["complete"] and summary["errors"] == 0
    rows = answer_ws.query(
        "SELECT v.dialect, r.status FROM responses r "
        "JOIN variants v ON v.id = r.variant_id ORDER BY v.dialect"
    )
    assert rows == [
        {"dialect": "standard", "status": "done"},
        {"dialect": "sylhet", "status": "done"},
    ]
    assert "2/2 answers" in dialog.status.text()
    card = json.loads(answer_ws.scalar("SELECT card FROM runs WHERE id = ?", (summary["run_id"],)))
    assert card["sampler"]["max_tokens"] == 16
