"""The draw dialog shows, before the draw, the labels each cell needs for a typed width."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from engine.annotation.annotators import add_annotator
from engine.annotation.decisions import my_queue, record_decision
from engine.annotation.ppi import draw_subset
from engine.annotation.ppi_power import labels_needed
from engine.annotation.settings import PPISettings
from engine.workspace.store import Workspace
from tests.engine.annotation.helpers import build_judged_study
from widgets.annotation.setup_dialogs import DrawSubsetDialog


def _type_width(qtbot, dialog, text: str) -> None:
    field = dialog.needs.width_edit
    field.setFocus()
    QTest.keyClick(field, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(field, Qt.Key.Key_Delete)
    QTest.keyClicks(field, text)


def test_the_draw_dialog_sizes_each_cell_before_the_draw(qtbot, sync_bridge, tmp_path):
    with Workspace(tmp_path / "need.sqlite") as ws:
        run, truth = build_judged_study(ws, np.random.default_rng(2))
        ws.conn.execute("UPDATE judgments SET confidence = 1 + id % 5")
        add_annotator(ws, "Rina", ["standard", "sylhet"])
        dialog = DrawSubsetDialog(ws, bridge=sync_bridge)
        qtbot.addWidget(dialog)
        dialog.show()
        table = dialog.needs.table
        # no pilot yet: every cell says how many pilot labels it needs
        assert table.rowCount() == 2
        assert "30" in table.item(0, 3).text() and "pilot" in dialog.needs.summary.text()

        draw_subset(ws, "pilot", run, ["Rina"], share=0.1, seed=3)
        for item in my_queue(ws, "Rina"):
            record_decision(ws, item["item_id"], "Rina", "accept", score=truth[item["target_id"]])
        _type_width(qtbot, dialog, "0.4")
        expected = labels_needed(ws, run, PPISettings(width=0.4))["cells"]
        qtbot.waitUntil(lambda: table.item(0, 3) is not None and table.item(0, 3).text().isdigit())
        for row, cell in enumerate(expected):
            assert table.item(row, 2).text() == str(cell["N"])
            assert table.item(row, 3).text() == str(cell["uniform"])
            assert table.item(row, 4).text() == str(cell["active"])
        assert "0.4" in dialog.needs.summary.text()
        wider = int(table.item(0, 3).text())
        _type_width(qtbot, dialog, "1")
        qtbot.waitUntil(
            lambda: table.item(0, 3) is not None and int(table.item(0, 3).text()) < wider
        )

        _type_width(qtbot, dialog, "-1")
        assert table.rowCount() == 0 and "above 0" in dialog.needs.summary.text()
