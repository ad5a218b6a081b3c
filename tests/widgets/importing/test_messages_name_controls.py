"""The same refusal in each front end's words: the import dialog names the control that
fixes it (the label on the screen), the CLI the option. Driven as a person would: the real
dialog and importer on a real workspace file, the real ``upabhasha`` entry point."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from app.cli import main
from app.stage_widgets import import_pages
from widgets.importing.import_dialog import ImportDialog
from widgets.translation.scored_page import SCORED

# every score within 0-100 but all of them in 0-1: a narrow scale, two annotators a segment
NARROW = (
    "source,hypothesis,reference,system,score_a,score_b\n"
    "আমি যাব।,আঁই যাইয়ুম।,আঁই যাইয়ুম।,m1,0.9,0.8\n"
    "আমি জানি না।,আঁই জানি না।,আঁই ন জানি।,m1,0.4,0.55\n"
)
ACCEPT_SCALE = "Import even if the scores use less than a tenth of the declared scale"
AVERAGE = "Several annotators of one segment may be averaged"


@pytest.fixture
def narrow_file(tmp_path):
    path = tmp_path / "scored.csv"
    path.write_text(NARROW, encoding="utf-8")
    return path


def test_the_dialog_names_the_checkboxes_that_fix_a_refusal(
    qtbot, fresh_ws, sync_bridge, narrow_file
):
    dialog = ImportDialog(fresh_ws, sync_bridge, SCORED, pages=import_pages())
    qtbot.addWidget(dialog)
    dialog.show()
    page = dialog.study_page
    assert dialog.set_path(narrow_file)
    page.scale.clear()
    QTest.keyClicks(page.scale, "0-100")
    assert page.accept_scale.text() == ACCEPT_SCALE and page.average.text() == AVERAGE

    QTest.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    message = dialog.error.text()
    assert dialog.error.isVisibleTo(dialog) and "less than a tenth" in message
    assert f"import anyway with “{ACCEPT_SCALE}”" in message
    assert "--" not in message and "⟦" not in message

    page.accept_scale.click()
    QTest.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    message = dialog.error.text()
    assert "several annotators" in message and f"say so with “{AVERAGE}”" in message
    assert "“Measures (a name, a column and a scale each)”" in message
    assert "--" not in message and "⟦" not in message
    assert fresh_ws.scalar("SELECT count(*) FROM scored_sets") == 0  # nothing written

    page.average.click()
    with qtbot.waitSignal(dialog.sig_imported) as signal:
        QTest.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    assert signal.args[0]["variants_inserted"] == 4


def test_the_cli_names_the_options_for_the_same_refusals(tmp_path, narrow_file, capsys):
    argv = ["-w", str(tmp_path / "w.sqlite"), "import", "scored-translations", str(narrow_file)]
    argv += ["--hyp-col", "hypothesis", "--score-cols", "score_a,score_b", "--human-scale"]
    argv += ["0-100"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "import anyway with --accept-scale" in err and "“" not in err and "⟦" not in err
    assert main([*argv, "--accept-scale"]) == 2
    err = capsys.readouterr().err
    assert "say so with --average-annotators" in err
    assert "separately with --measure NAME=COLUMN:MIN-MAX" in err
    assert main([*argv, "--accept-scale", "--average-annotators"]) == 0
