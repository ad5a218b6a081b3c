"""The Agreement panel's "labels for width" column tells undefined (no labels yet) from
not reachable, as ``upabhasha ppi`` does from the same ``ppi_study``."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt

from engine.annotation.annotators import add_annotator
from engine.annotation.ppi import draw_subset
from engine.workspace.store import Workspace
from tests.engine.annotation.helpers import build_judged_study
from widgets.annotation.agreement_panel import AgreementPanel


def test_a_cell_without_labels_says_undefined(qtbot, sync_bridge, tmp_path):
    with Workspace(tmp_path / "ppi.sqlite") as ws:
        run, _truth = build_judged_study(ws, np.random.default_rng(1))
        add_annotator(ws, "Rina", ["standard", "sylhet"])
        draw_subset(ws, "ppi", run, ["Rina"], share=0.1, seed=5)  # nobody has scored yet
        panel = AgreementPanel(ws, sync_bridge)
        qtbot.addWidget(panel)
        panel.show()
        qtbot.mouseClick(panel.compute_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: panel.ppi.rowCount() == 3, timeout=10000)
        for row in range(2):  # the two cells; the third row is the gap
            cell = panel.ppi.item(row, 5)
            assert cell.text() == "undefined"
            assert cell.toolTip().startswith("Fewer than 2 human labels")
        assert panel.ppi.item(2, 5).text() == "—"
