"""Annotation messages a person reads, driven by typing and clicking: Reject says the item is
not gold, blind review offers no Accept and says each decision was saved, agreement figures
are read-only and "Out of date" only when its inputs changed, and F12/Ctrl+M switch Avro
typing in a review package's own window."""

from __future__ import annotations

import shutil

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from app.annotation_actions import AnnotationActions
from engine.annotation.annotators import add_annotator
from engine.annotation.assignment import assign, candidate_targets
from engine.annotation.packages import export_package, import_packages
from engine.annotation.sources import WorkspaceQueue
from engine.workspace.store import Workspace
from widgets.annotation.adjudication_panel import AdjudicationPanel
from widgets.annotation.agreement_panel import AgreementPanel
from widgets.annotation.annotation_panel import AnnotationPanel


@pytest.fixture
def lab(sample_db, tmp_path):
    """Two Sylheti annotators sharing every Sylheti item (blind), one package each."""
    path = tmp_path / "lab.sqlite"
    shutil.copy(sample_db, path)
    with Workspace(path) as ws:
        ws.conn.execute("UPDATE variants SET provenance = 'machine' WHERE dialect = 'sylhet'")
        add_annotator(ws, "Karim", ["sylhet"])
        add_annotator(ws, "Shuvo", ["sylhet"])
        targets = candidate_targets(ws, "variant", dialects=["sylhet"])
        assign(ws, "field", "variant", [], targets=targets, overlap=1.0, seed=4, blind_draft=True)
        export_package(ws, "Karim", tmp_path / "karim.upkg")
    return path, tmp_path / "karim.upkg"


def _edit_by_typing(qtbot, panel: AnnotationPanel, text: str) -> None:
    panel.text.selectAll()
    QTest.keyClicks(panel.text, text)
    qtbot.mouseClick(panel.buttons["edit"], Qt.MouseButton.LeftButton)


def test_blind_review_offers_no_accept_and_says_each_decision_was_saved(qtbot, lab):
    path, _package = lab
    with Workspace(path) as ws:
        panel = AnnotationPanel(WorkspaceQueue(ws), annotator="Karim")
        qtbot.addWidget(panel)
        panel.show()
        assert panel.shown.text().startswith("(machine draft hidden")
        assert not panel.buttons["accept"].isVisible()
        assert panel.buttons["edit"].isVisible() and panel.buttons["reject"].isVisible()
        first = panel.current["item_id"]
        _edit_by_typing(qtbot, panel, "karimer rup")
        assert panel.saved_note.text() == f"Item {first}: edit saved"
        assert panel.saved_note.isVisible()


def test_reject_says_the_item_is_not_gold(qtbot, lab):
    path, _package = lab
    with Workspace(path) as ws:
        for who, text in (("Karim", "karimer rup"), ("Shuvo", "shuvor rup")):
            panel = AnnotationPanel(WorkspaceQueue(ws), annotator=who)
            qtbot.addWidget(panel)
            _edit_by_typing(qtbot, panel, text)
        adjudication = AdjudicationPanel(ws, adjudicator="Lead")
        qtbot.addWidget(adjudication)
        adjudication.show()
        item = adjudication.detail["id"]
        messages: list[str] = []
        adjudication.sig_status_message.connect(messages.append)
        qtbot.mouseClick(adjudication.buttons["reject"], Qt.MouseButton.LeftButton)
        assert messages == [f"Item {item} rejected: it is not gold"]
        assert ws.scalar(
            "SELECT decision FROM annotation_adjudications WHERE item_id = ?", (item,)
        ) == ("reject")


def test_agreement_is_read_only_and_out_of_date_only_when_its_inputs_change(
    qtbot, lab, sync_bridge
):
    path, package = lab
    with Workspace(path) as ws:
        karim = AnnotationPanel(WorkspaceQueue(ws), annotator="Karim")
        qtbot.addWidget(karim)
        _edit_by_typing(qtbot, karim, "karimer rup")
        agreement = AgreementPanel(ws, sync_bridge)
        qtbot.addWidget(agreement)
        agreement.show()
        qtbot.mouseClick(agreement.compute_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: agreement.report is not None, timeout=30_000)
        computed = agreement.status.text()
        cell = agreement.table.item(0, 0)
        before = cell.text()
        rect = agreement.table.visualItemRect(cell)
        qtbot.mouseDClick(agreement.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        QTest.keyClicks(agreement.table.viewport(), "99")
        QTest.keyClick(agreement.table.viewport(), Qt.Key.Key_Return)
        assert agreement.table.item(0, 0).text() == before
        # the package holds no decision yet: merging it adds nothing, the figures stay current
        import_packages(ws, [package])
        agreement.mark_stale()
        assert agreement.status.text() == computed
        _edit_by_typing(qtbot, karim, "notun rup")  # Karim's next item: a new decision
        agreement.mark_stale()
        assert agreement.status.text().startswith("Out of date")


def test_f12_and_ctrl_m_switch_avro_typing_in_a_package_window(qtbot, lab):
    _path, package = lab
    from PySide6.QtWidgets import QWidget

    host = QWidget()
    qtbot.addWidget(host)
    actions = AnnotationActions(host, bridge=None, workspace=lambda: None)  # type: ignore[arg-type]
    panel = actions.open_package_file(str(package))
    assert isinstance(panel, AnnotationPanel)
    qtbot.addWidget(panel)
    qtbot.waitExposed(panel)
    panel.activateWindow()
    qtbot.waitUntil(panel.isActiveWindow, timeout=5000)
    assert not panel.avro_toggle.isChecked()
    QTest.keyClick(panel, Qt.Key.Key_M, Qt.KeyboardModifier.ControlModifier)
    assert panel.avro_toggle.isChecked()
    QTest.keyClick(panel, Qt.Key.Key_F12)
    assert not panel.avro_toggle.isChecked()
