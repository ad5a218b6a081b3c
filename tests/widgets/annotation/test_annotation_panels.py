"""Annotation in the GUI, offscreen: a package filled through the annotation panel, packages
merged through the File menu in both orders, refusals, adjudication and agreement views."""

from __future__ import annotations

import shutil
import sqlite3

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox

from app.annotation_actions import merged_text
from app.main_window import MainWindow
from app.settings import Settings
from engine.annotation.adjudication import queue
from engine.annotation.annotators import add_annotator
from engine.annotation.assignment import assign, candidate_targets
from engine.annotation.packages import ReviewPackage, export_package
from engine.annotation.sources import PackageQueue, WorkspaceQueue
from engine.workspace.store import Workspace
from tests.engine.annotation.helpers import snapshot
from widgets.annotation.adjudication_panel import AdjudicationPanel
from widgets.annotation.agreement_panel import AgreementPanel
from widgets.annotation.annotation_panel import AnnotationPanel


@pytest.fixture
def field(sample_db, tmp_path):
    """A lab workspace with two Sylheti annotators sharing every Sylheti item (blind), and
    one package each."""
    path = tmp_path / "lab.sqlite"
    shutil.copy(sample_db, path)
    with Workspace(path) as ws:
        ws.conn.execute("UPDATE variants SET provenance = 'machine' WHERE dialect = 'sylhet'")
        add_annotator(ws, "Karim", ["sylhet"])
        add_annotator(ws, "Shuvo", ["sylhet"])
        targets = candidate_targets(ws, "variant", dialects=["sylhet"])
        assign(ws, "field", "variant", [], targets=targets, overlap=1.0, seed=4, blind_draft=True)
        export_package(ws, "Karim", tmp_path / "karim.upkg")
        export_package(ws, "Shuvo", tmp_path / "shuvo.upkg")
    return path, tmp_path / "karim.upkg", tmp_path / "shuvo.upkg"


@pytest.fixture
def window(qtbot, sync_bridge, monkeypatch):
    warnings: list = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: warnings.append(a[-1]))
    win = MainWindow(Settings(reviewer_name="Lead"), bridge=sync_bridge, save=lambda s: None)
    win.warnings = warnings
    qtbot.addWidget(win)
    win.show()
    return win


def _fill_through_gui(qtbot, panel: AnnotationPanel, edit_text: str) -> None:
    """Decide every item with the panel's own widgets: edits on the first three, a flag on
    the fourth, accepts with a score on the rest."""
    for n in range(len(panel.items)):
        assert panel.current is not None and panel.current["mine"] is None
        assert panel.shown.text().startswith("(machine draft hidden")  # blind
        if n < 3:
            panel.text.setPlainText(edit_text)
            panel.score.setValue(3)
            qtbot.mouseClick(panel.buttons["edit"], Qt.MouseButton.LeftButton)
        elif n == 3:
            panel.comment.setText("অস্পষ্ট")
            qtbot.mouseClick(panel.buttons["flag"], Qt.MouseButton.LeftButton)
        else:  # blind review offers no Accept: nothing is shown to accept
            assert not panel.buttons["accept"].isVisibleTo(panel)
            panel.score.setValue(5)
            qtbot.mouseClick(panel.buttons["reject"], Qt.MouseButton.LeftButton)
    assert panel.progress.value() == panel.progress.maximum() == len(panel.items)


def _menu_action(window, text: str):
    return next(a for a in window.findChildren(type(window.close_action)) if a.text() == text)


def _import_via_menu(window, monkeypatch, *paths):
    monkeypatch.setattr(
        QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(p) for p in paths], "")
    )
    _menu_action(window, "&Import review packages…").trigger()
    return window.annotation.last_result


def _open_package_via_menu(window, monkeypatch, path) -> AnnotationPanel:
    """File → Open review package…, the real action (triggered passes checked=False)."""
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    _menu_action(window, "Open review &package…").trigger()
    panel = window.annotation.last_result
    assert isinstance(panel, AnnotationPanel), panel
    return panel


def test_packages_filled_in_the_gui_merge_in_both_orders(
    window, qtbot, field, monkeypatch, tmp_path
):
    lab, karim, shuvo = field
    # Karim fills his package in the GUI, with no workspace open
    panel = _open_package_via_menu(window, monkeypatch, karim)
    qtbot.addWidget(panel)
    assert window.workspace is None and panel.annotator.currentText() == "Karim"
    _fill_through_gui(qtbot, panel, "কারিমের সিলেটি")
    panel.grab().save(str(tmp_path / "annotation_panel.png"))
    # Shuvo fills his through the engine
    pkg = ReviewPackage(shuvo)
    for n, item in enumerate(pkg.queue()):
        if n < 3:
            pkg.record(item["item_id"], "edit", text="শুভর সিলেটি", score=4)
        else:
            pkg.record(item["item_id"], "accept", score=5)

    other = tmp_path / "lab2.sqlite"
    shutil.copy(lab, other)
    results = {}
    for path, order in ((lab, (karim, shuvo)), (other, (shuvo, karim))):
        assert window.open_workspace(path)
        results[path] = _import_via_menu(window, monkeypatch, *order)
        assert sum(r["new"] for r in results[path]) == 24
        window.close_workspace()
    with Workspace(lab) as a, Workspace(other) as b:
        assert snapshot(a) == snapshot(b)
        entries = queue(a)
        assert {e["item_id"] for e in entries} == {e["item_id"] for e in queue(b)}
        reasons = {r for e in entries for r in e["reasons"]}
        assert {"edits differ", "flagged"} <= reasons
    # importing again adds nothing, and says so
    assert window.open_workspace(lab)
    said: list[str] = []
    window.annotation.sig_status_message.connect(lambda text, _ms: said.append(text))
    again = _import_via_menu(window, monkeypatch, karim, shuvo)
    assert sum(r["new"] for r in again) == 0
    assert said == ["2 packages merged: 0 new decisions, 0 on changed items"]
    adjudication = window.panels["adjudication"]
    window.show_panel("adjudication")  # re-read when shown
    assert adjudication.list.count() == len(entries)


def test_refused_package_changes_nothing(window, field, monkeypatch, tmp_path):
    lab, karim, _shuvo = field
    ReviewPackage(karim).record(ReviewPackage(karim).items()[0]["item_id"], "accept")
    tampered = tmp_path / "tampered.upkg"
    shutil.copy(karim, tampered)
    with sqlite3.connect(tampered) as conn:
        conn.execute("UPDATE decisions SET decision = 'reject'")
    assert window.open_workspace(lab)
    before = snapshot(window.workspace)
    _import_via_menu(window, monkeypatch, tampered)
    assert len(window.warnings) == 1 and "fails its checksum" in window.warnings[0]
    assert "\n" not in window.warnings[0]
    assert snapshot(window.workspace) == before


def test_export_through_the_file_menu(window, field, monkeypatch, tmp_path):
    lab, _karim, _shuvo = field
    assert window.open_workspace(lab)
    out = tmp_path / "again.upkg"
    monkeypatch.setattr(QInputDialog, "getItem", lambda *a, **k: ("Shuvo", True))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), ""))
    said: list[str] = []
    window.annotation.sig_status_message.connect(lambda text, _ms: said.append(text))
    window.annotation.export_package()
    assert ReviewPackage(out).annotator == "Shuvo" and len(ReviewPackage(out).items()) == 12
    assert said == [f"{out}: 12 items for the annotator"]


def test_merge_counts_take_their_plural_each():
    assert merged_text(1, 1, 1) == "1 package merged: 1 new decision, 1 on a changed item"
    assert merged_text(3, 0, 2) == "3 packages merged: 0 new decisions, 2 on changed items"


def test_workspace_queue_adjudication_and_agreement(qtbot, field, sync_bridge, tmp_path):
    lab, _karim, _shuvo = field
    with Workspace(lab) as ws:
        source = WorkspaceQueue(ws)
        for who, text in (("Karim", "কারিমের রূপ"), ("Shuvo", "শুভর রূপ")):
            panel = AnnotationPanel(source, annotator=who)
            qtbot.addWidget(panel)
            assert "কারিমের" not in panel.shown.text()  # blind to the other annotator
            _fill_through_gui(qtbot, panel, text)
        adjudication = AdjudicationPanel(ws, adjudicator="Lead")
        qtbot.addWidget(adjudication)
        n = adjudication.list.count()
        assert n >= 3 and "edits differ" in adjudication.list.item(0).text()
        assert " Sylhet — " in adjudication.list.item(0).text()  # named, not 'sylhet'
        assert "background:#c8f0c8" in adjudication.view.toHtml() or "c8f0c8" in (
            adjudication.view.toHtml()
        )
        adjudication.resize(1200, 700)
        adjudication.grab().save(str(tmp_path / "adjudication_panel.png"))
        vid = ws.scalar(
            "SELECT target_id FROM annotation_items WHERE id = ?", (adjudication.detail["id"],)
        )
        adjudication.text.setPlainText("শুভর রূপ")
        qtbot.mouseClick(adjudication.buttons["edit"], Qt.MouseButton.LeftButton)
        assert ws.query("SELECT text, status FROM variants WHERE id = ?", (vid,)) == [
            {"text": "শুভর রূপ", "status": "gold"}
        ]
        assert adjudication.list.count() == n - 1

        agreement = AgreementPanel(ws, sync_bridge)
        qtbot.addWidget(agreement)
        agreement.compute()
        assert agreement.report is not None
        assert agreement.table.rowCount() == 2  # all, sylhet
        assert agreement.table.item(0, 0).text() == "12"
        assert agreement.progress.rowCount() == 2
        agreement.resize(1200, 700)
        agreement.grab().save(str(tmp_path / "agreement_panel.png"))


def test_window_fits_a_1366x768_screen(window, sample_db, tmp_path):
    """The first-run window is no larger than the screen, and with every panel built its
    minimum size fits a 1366x768 laptop screen."""
    avail = window.screen().availableGeometry()
    assert window.width() <= avail.width() and window.height() <= avail.height()
    path = tmp_path / "ws.sqlite"
    shutil.copy(sample_db, path)
    assert window.open_workspace(path)
    minimum = window.minimumSizeHint()
    assert minimum.width() <= 1366 - 16 and minimum.height() <= 768 - 48, minimum


def test_annotation_panel_in_bengali(qtbot, field, tmp_path):
    from app.language_menu import apply_language
    from widgets.common.fonts import register_qt_fonts

    register_qt_fonts()
    lab, karim, _shuvo = field
    assert apply_language("bn")
    try:
        panel = AnnotationPanel(PackageQueue(karim))
        qtbot.addWidget(panel)
        assert panel.buttons["accept"].text() == "গ্রহণ (&A)"
        assert panel.progress.text() == "১২-এর মধ্যে ০-টি সিদ্ধান্ত হয়েছে"
        panel.resize(1000, 560)
        panel.grab().save(str(tmp_path / "annotation_panel_bn.png"))
    finally:
        apply_language("en")


def test_agreement_view_shows_ppi_beside_judge_and_human(qtbot, sync_bridge, tmp_path):
    import numpy as np

    from engine.annotation.decisions import my_queue, record_decision
    from engine.annotation.ppi import draw_subset
    from tests.engine.annotation.helpers import build_judged_study

    with Workspace(tmp_path / "ppi.sqlite") as ws:
        run, truth = build_judged_study(ws, np.random.default_rng(1))
        add_annotator(ws, "Rina", ["standard", "sylhet"])
        draw_subset(ws, "ppi", run, ["Rina"], share=0.1, seed=5)
        for item in my_queue(ws, "Rina"):
            record_decision(ws, item["item_id"], "Rina", "accept", score=truth[item["target_id"]])
        panel = AgreementPanel(ws, sync_bridge)
        qtbot.addWidget(panel)
        panel.compute()
        assert panel.ppi.rowCount() == 3  # standard, sylhet, and the gap
        assert "seed 5" in panel.ppi_label.text()
        texts = [panel.ppi.item(r, 1).text() for r in range(3)]
        assert texts[-1].startswith("gap sylhet")
        assert panel.ppi.item(0, 3).text() != "—" and panel.ppi.item(0, 4).text() != "—"
        panel.resize(1200, 800)
        panel.grab().save(str(tmp_path / "agreement_ppi.png"))


def test_welcome_page_opens_a_package_and_a_revisit_shows_the_saved_decision(
    window, qtbot, field, monkeypatch
):
    _lab, karim, _shuvo = field
    assert window.stack.currentWidget() is window.welcome and window.workspace is None
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(karim), ""))
    qtbot.mouseClick(window.welcome.package_button, Qt.MouseButton.LeftButton)
    panel = window.annotation.last_result
    assert isinstance(panel, AnnotationPanel)
    qtbot.addWidget(panel)
    first = panel.current
    # the queue row names the item, its kind, and (blind) the question it translates
    row = panel.list.item(0).text()
    # the dialect by its name, not its code (the package carries codes only)
    assert row.startswith(f"• #{first['item_id']} Sylhet · dialect translation")
    assert first["content"]["question"][:20] in row
    panel.text.setPlainText("সিলেটি রূপ")
    panel.score.setValue(4)
    panel.comment.setText("ভালো")
    qtbot.mouseClick(panel.buttons["edit"], Qt.MouseButton.LeftButton)
    assert panel.list.item(0).text().startswith(f"✓ #{first['item_id']} Sylhet · ✎ edited (4)")
    # reopened from the file, the item shows what was saved
    again = window.annotation.open_package_file(str(karim))
    qtbot.addWidget(again)
    row = next(i for i, it in enumerate(again.items) if it["item_id"] == first["item_id"])
    again.list.setCurrentRow(row)
    assert again.score.value() == 4 and again.score.text() != "no score"
    assert again.text.toPlainText() == "সিলেটি রূপ" and again.comment.text() == "ভালো"
    assert again.mine.text() == "✎ edited (4)"


def test_a_cancelled_file_dialog_opens_nothing(window, monkeypatch):
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: ("", ""))
    _menu_action(window, "Open review &package…").trigger()
    assert window.annotation.package_windows == [] and window.warnings == []


def _click(qtbot, button) -> None:
    assert button.isVisible() and button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_study_set_up_from_the_empty_states(window, qtbot, sample_db, tmp_path, monkeypatch):
    """No terminal: the empty Annotation tab offers Add annotators, then Assign items; the
    adjudication tab then offers to merge packages; the batch is the one asked for."""
    from engine.annotation.api import batches, list_annotators
    from widgets.annotation.setup_dialogs import AnnotatorsDialog, AssignDialog
    from widgets.common.dialog_parts import set_checked

    path = tmp_path / "fresh.sqlite"
    shutil.copy(sample_db, path)
    assert window.open_workspace(path)
    window.show_panel("annotation")
    panel = window.panels["annotation"]
    assert panel.prompt.step == "annotators" and panel.prompt.button.text() == "Add annotators…"
    _click(qtbot, panel.prompt.button)
    dialog = panel.setup.dialog
    assert isinstance(dialog, AnnotatorsDialog)
    for name, dialects in (("Rina", ["sylhet", "chittagong"]), ("Karim", ["sylhet"])):
        _click(qtbot, dialog.new_button)
        dialog.name.setText(name)
        set_checked(dialog.dialects, dialects)
        _click(qtbot, dialog.add_button)
    # a refusal stays in the dialog and writes nothing
    _click(qtbot, dialog.new_button)
    dialog.name.setText("Nobody")
    _click(qtbot, dialog.add_button)
    assert "name at least one dialect" in dialog.status.text()
    # edit: Karim also speaks Chittagonian
    dialog.people.setCurrentRow([r["name"] for r in dialog.rows].index("Karim"))
    assert dialog.name.isReadOnly() and not dialog.add_button.isEnabled()
    set_checked(dialog.dialects, ["sylhet", "chittagong"])
    _click(qtbot, dialog.save_button)
    dialog.close()
    assert {a["name"]: a["dialects"] for a in list_annotators(window.workspace)} == {
        "Karim": ["chittagong", "sylhet"],
        "Rina": ["chittagong", "sylhet"],
    }
    assert sorted(panel.annotator.itemText(i) for i in range(panel.annotator.count())) == [
        "Karim",
        "Rina",
    ]
    assert panel.prompt.step == "assign"
    _click(qtbot, panel.prompt.button)
    assign = panel.setup.dialog
    assert isinstance(assign, AssignDialog)
    assign.name.setText("field 1")
    assign.overlap.setValue(50)
    assign.seed.setValue(77)
    assign.blind.setChecked(True)
    from engine.annotation.api import candidate_targets as targets

    # the dialects offered by default are the ones the annotators speak
    wanted = targets(window.workspace, "variant", dialects=["chittagong", "sylhet"])
    assert assign.targets() == wanted
    assert assign.available.text() == f"{len(wanted)} items can be assigned"
    _click(qtbot, assign.buttons.button(assign.buttons.StandardButton.Ok))
    assert not assign.isVisible()
    batch = batches(window.workspace)[0]
    assert batch["items"] == len(wanted)
    assert (batch["name"], batch["seed"], batch["overlap"], batch["blind_draft"]) == (
        "field 1",
        77,
        0.5,
        1,
    )
    assert not panel.prompt.isVisible() and panel.list.count() > 0
    assert "Batch field 1:" in window.statusBar().currentMessage()
    # adjudication: nothing decided yet, so it offers to merge the packages
    window.show_panel("adjudication")
    prompt = window.panels["adjudication"].prompt
    assert prompt.step == "decide"
    asked: list = []
    monkeypatch.setattr(
        QFileDialog, "getOpenFileNames", lambda *a, **k: (asked.append(a) or [], "")
    )
    _click(qtbot, prompt.button)
    assert len(asked) == 1
    window.show_panel("agreement")
    assert window.panels["agreement"].prompt.step == "decide"


def test_a_cell_of_few_labels_shows_its_student_t_interval(qtbot, sync_bridge, tmp_path):
    import numpy as np

    from engine.annotation.decisions import my_queue, record_decision
    from engine.annotation.ppi import draw_subset
    from tests.engine.annotation.helpers import build_judged_study

    with Workspace(tmp_path / "ppi.sqlite") as ws:
        run, truth = build_judged_study(ws, np.random.default_rng(1))
        add_annotator(ws, "Rina", ["standard", "sylhet"])
        draw_subset(ws, "ppi", run, ["Rina"], share=0.05, seed=5)  # 15 labels a cell
        for item in my_queue(ws, "Rina"):
            record_decision(ws, item["item_id"], "Rina", "accept", score=truth[item["target_id"]])
        panel = AgreementPanel(ws, sync_bridge)
        qtbot.addWidget(panel)
        panel.show()
        qtbot.mouseClick(panel.compute_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: panel.ppi.rowCount() == 3, timeout=10000)
        cell = panel.ppi.item(0, 2)
        assert "n=15  t: [" in cell.text()
        assert cell.toolTip().startswith("fewer than 30 human labels (15)")
        assert "t: [" not in panel.ppi.item(2, 2).text()  # the gap row


def test_agreement_offers_to_draw_answers_for_human_scoring(qtbot, sync_bridge, tmp_path):
    """With a judge run and no human-scored subset, the PPI part of Agreement offers the
    draw as a button (not a command line); the dialog draws a seeded subset."""
    import numpy as np

    from engine.annotation.api import latest_batch_id
    from tests.engine.annotation.helpers import build_judged_study
    from widgets.annotation.setup_dialogs import DrawSubsetDialog

    with Workspace(tmp_path / "ppi.sqlite") as ws:
        run, _truth = build_judged_study(ws, np.random.default_rng(1))
        add_annotator(ws, "Rina", ["standard", "sylhet"])
        panel = AgreementPanel(ws, sync_bridge)
        qtbot.addWidget(panel)
        panel.show()
        panel.compute()
        assert "command" not in panel.ppi_label.text() and "upabhasha" not in (
            panel.ppi_label.text()
        )
        assert panel.draw_button.isVisible() and panel.draw_button.isEnabled()
        qtbot.mouseClick(panel.draw_button, Qt.MouseButton.LeftButton)
        dialog = panel.setup.dialog
        assert isinstance(dialog, DrawSubsetDialog) and dialog.run.currentData() == run
        dialog.share.setValue(10)
        dialog.seed.setValue(5)
        qtbot.mouseClick(
            dialog.buttons.button(dialog.buttons.StandardButton.Ok), Qt.MouseButton.LeftButton
        )
        assert not dialog.isVisible(), dialog.status.text()
        batch = latest_batch_id(ws, "ppi")
        assert batch is not None
        assert ws.scalar("SELECT seed FROM annotation_batches WHERE id = ?", (batch,)) == 5
        panel.compute()
        assert panel.ppi_study is not None and not panel.draw_button.isVisible()


def test_the_draw_dialog_draws_where_the_judge_is_least_sure(qtbot, sync_bridge, tmp_path):
    import json

    import numpy as np

    from engine.annotation.api import latest_batch_id
    from tests.engine.annotation.helpers import build_judged_study
    from widgets.annotation.setup_dialogs import DrawSubsetDialog

    with Workspace(tmp_path / "ppi.sqlite") as ws:
        build_judged_study(ws, np.random.default_rng(1))
        ws.conn.execute("UPDATE judgments SET confidence = 1 + id % 5")
        add_annotator(ws, "Rina", ["standard", "sylhet"])
        dialog = DrawSubsetDialog(ws, bridge=sync_bridge)
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.mouseClick(dialog.active, Qt.MouseButton.LeftButton)
        assert dialog.active.isChecked()
        qtbot.mouseClick(
            dialog.buttons.button(dialog.buttons.StandardButton.Ok), Qt.MouseButton.LeftButton
        )
        assert not dialog.isVisible(), dialog.status.text()
        batch = latest_batch_id(ws, "ppi")
        params = json.loads(
            ws.scalar("SELECT params FROM annotation_batches WHERE id = ?", (batch,))
        )
        assert params["design"] == "active" and params["floor"] == 0.025


def test_adjudication_reasons_and_queue_scores_in_bengali():
    from app.language_menu import apply_language
    from widgets.annotation.adjudication_panel import reasons_label
    from widgets.annotation.annotation_panel import item_label

    assert apply_language("bn")
    try:
        assert reasons_label(["flagged", "decisions differ"]) == "চিহ্নিত, সিদ্ধান্ত আলাদা"
        item = {
            "item_id": 7,
            "kind": "variant",
            "dialect": "sylhet",
            "content": {"question": "প্রশ্ন", "text": "তুমি কিতা করো?"},
            "mine": {"decision": "edit", "score": 3.5, "text": "x", "comment": ""},
        }
        label = item_label(item, {"sylhet": {"name_bn": "সিলেটি", "name_en": "Sylhet"}})
        assert "(৩.৫)" in label and label.endswith("তুমি কিতা করো?")
        assert "#৭ সিলেটি" in label  # the dialect in the interface's language
    finally:
        apply_language("en")


def test_a_panel_alone_offers_no_import_it_cannot_do(qtbot, field):
    """Opened alone (python -m …), nobody merges packages: the prompt says what is missing
    without a button that would do nothing."""
    lab, _karim, _shuvo = field
    with Workspace(lab) as ws:
        panel = AdjudicationPanel(ws)
        qtbot.addWidget(panel)
        panel.show()
        assert panel.prompt.step == "decide" and not panel.prompt.button.isVisible()


def test_an_assignment_is_written_on_the_writer_lane_and_a_refusal_stays_in_the_dialog(
    qtbot, field, threaded_bridge
):
    """Assigning tens of thousands of items takes seconds: the dialog's write runs on the
    real bridge's writer lane (OK disabled meanwhile), and the engine's refusal comes back
    into the dialog's status line, with nothing written."""
    from engine.annotation.api import batches
    from widgets.annotation.setup import AnnotationSetup
    from widgets.common.task_bridge import WRITER

    lab, _karim, _shuvo = field
    bridge = threaded_bridge
    with Workspace(lab) as ws:
        before = len(batches(ws))
        dialog = AnnotationSetup(ws, bridge=bridge).assign_items()
        qtbot.addWidget(dialog)
        ok = dialog.buttons.button(dialog.buttons.StandardButton.Ok)
        dialog.scale.setText("5..1")  # refused by the engine, in the worker
        qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
        assert not ok.isEnabled()
        qtbot.waitUntil(ok.isEnabled, timeout=10_000)
        assert "LOW must be below HIGH" in dialog.status.text() and dialog.isVisible()
        assert len(batches(ws)) == before and not bridge.errors
        dialog.scale.setText("")
        dialog.name.setText("second round")
        qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=10_000)
        [task] = [t for t in bridge.tasks() if t.label == "Assign batch second round"][-1:]
        assert task.lane == WRITER and task.state == "done"
        assert batches(ws)[-1]["name"] == "second round"
        assert dialog.result_summary and dialog.result_summary["name"] == "second round"
