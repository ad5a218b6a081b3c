"""Setting up an annotation study in the GUI: the annotators (with the dialects they speak)
and the assignment of items into a batch (overlap share, raters, seed, blind review).

The dialogs write through :mod:`engine.annotation.api` (one transaction each; a refused
input shows the engine's one-line message in the dialog and writes nothing) and emit
``sig_changed`` after a write so the panels that show annotators and queues re-read. An
assignment or a draw, which can write tens of thousands of rows,
runs on the task bridge's writer lane when the dialog has a bridge (the main window's), with
OK disabled until it ends; a panel opened alone without one writes in place.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.annotation import api as annotation
from engine.annotation import tasks as annotation_tasks
from engine.errors import UserError
from engine.i18n import _
from engine.workspace.api import Workspace
from widgets.annotation.labels_needed import LabelsNeededView
from widgets.common.dialog_parts import checkable_list, checked_data, set_checked, show_status
from widgets.common.elided_tooltips import install_elided_tooltips
from widgets.common.hints import for_gui
from widgets.common.item_limit import SettledSpinBox
from widgets.common.labels import dialect_of
from widgets.common.task_bridge import WRITER, TaskBridge, describe_error

log = logging.getLogger(__name__)


def kind_label(kind: str) -> str:
    return {"variant": _("dialect translation"), "judgment": _("judged answer")}.get(kind, kind)


def _dialect_name(names: dict[str, dict], code: str) -> str:
    return dialect_of({**names[code], "code": code}, both=True)


def _dialect_rows(ws: Workspace) -> list[tuple[str, object, bool]]:
    names = ws.dialect_names()
    return [(_dialect_name(names, c), c, False) for c in sorted(names)]


def _fit_rows(widget: QListWidget, rows: int) -> None:
    """Tall enough for ``rows`` entries (a list's default height is far more, or less)."""
    row = widget.sizeHintForRow(0) if widget.count() else widget.fontMetrics().height() + 4
    widget.setFixedHeight(row * max(2, min(rows, widget.count())) + 2 * widget.frameWidth() + 4)
    # a long entry elides (its tooltip shows it whole) instead of a scroll bar that covered
    # the second of two rows
    widget.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    install_elided_tooltips(widget)


def _annotator_list(ws: Workspace) -> QListWidget:
    """Every annotator, ticked, with the dialects they speak."""
    people = annotation.list_annotators(ws)
    widget = checkable_list(
        [(f"{a['name']}  ({', '.join(a['dialects'])})", a["name"], True) for a in people]
    )
    _fit_rows(widget, 5)
    return widget


def _percent_box(low: int, value: int) -> QSpinBox:
    box = SettledSpinBox()  # Enter in a typed number must not press OK
    box.setRange(low, 100)
    box.setValue(value)
    box.setSuffix(" %")
    return box


def _seed_box() -> QSpinBox:
    box = SettledSpinBox()
    box.setRange(0, 2**31 - 1)
    box.setValue(annotation.DEFAULT_SEED)
    return box


def _lay_out(
    dialog: QDialog, form: QFormLayout, ok_text: str, on_ok
) -> tuple[QDialogButtonBox, QLabel]:
    """The form, a status line for refusals and OK (named ``ok_text``) / Cancel."""
    status = QLabel()
    status.setWordWrap(True)
    buttons = QDialogButtonBox(
        QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
    )
    buttons.button(QDialogButtonBox.StandardButton.Ok).setText(ok_text)
    buttons.accepted.connect(lambda: on_ok())
    buttons.rejected.connect(dialog.reject)
    layout = QVBoxLayout(dialog)
    layout.addLayout(form)
    layout.addStretch(1)
    layout.addWidget(status)
    layout.addWidget(buttons)
    return buttons, status


class _BatchDialog(QDialog):
    """What the assignment and draw dialogs share: their write runs on the writer lane."""

    sig_changed = Signal()
    # each dialog lays them out with _lay_out
    buttons: QDialogButtonBox
    status: QLabel

    def __init__(self, ws: Workspace, parent: QWidget | None, bridge: TaskBridge | None):
        super().__init__(parent)
        self.ws, self.bridge = ws, bridge
        self.result_summary: dict | None = None

    def _write(self, task, args: tuple, label: str, summary) -> None:
        """``task(path, *args)`` in the background (in place without a bridge);
        ``summary(result)`` becomes :attr:`result_summary` and the dialog closes."""
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)

        def done(result) -> None:
            ok.setEnabled(True)
            self.result_summary = summary(result)
            self.sig_changed.emit()
            self.accept()

        def failed(exc: BaseException) -> None:
            ok.setEnabled(True)
            show_status(self.status, describe_error(exc, one_line=True), error=True)

        if self.bridge is None:
            try:
                result = task(str(self.ws.path), *args)
            except UserError as exc:
                failed(exc)
                return
            done(result)
            return
        ok.setEnabled(False)
        show_status(self.status, _("Writing the batch…"))
        self.bridge.run(
            task,
            args=(str(self.ws.path), *args),
            on_done=done,
            on_error=failed,
            label=label,
            lane=WRITER,
            dialog=True,
        )


class AnnotatorsDialog(QDialog):
    """The workspace's annotators: add one with the dialects they speak, or change an
    existing annotator's dialects (the name stays: exported packages carry it)."""

    sig_changed = Signal()

    def __init__(self, ws: Workspace, parent: QWidget | None = None):
        super().__init__(parent)
        self.ws = ws
        self.setWindowTitle(_("Annotators"))
        self.people = QListWidget()
        self.people.currentRowChanged.connect(self._show_row)
        self.name = QLineEdit()
        self.name.setPlaceholderText(_("Annotator's name"))
        self.dialects = checkable_list(_dialect_rows(ws))
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.add_button = QPushButton(_("&Add annotator"))
        self.add_button.clicked.connect(lambda _checked=False: self.add())
        self.save_button = QPushButton(_("&Save dialects"))
        self.save_button.setToolTip(
            _("The name cannot change: review packages already exported carry it")
        )
        self.save_button.clicked.connect(lambda _checked=False: self.save())
        self.new_button = QPushButton(_("&New"))
        self.new_button.clicked.connect(lambda _checked=False: self._clear())

        form = QFormLayout()
        form.addRow(_("Name:"), self.name)
        form.addRow(_("Speaks:"), self.dialects)
        actions = QHBoxLayout()
        for button in (self.new_button, self.add_button, self.save_button):
            actions.addWidget(button)
        right = QVBoxLayout()
        right.addLayout(form, 1)
        right.addLayout(actions)
        row = QHBoxLayout()
        left = QVBoxLayout()
        left.addWidget(QLabel(_("Annotators")))
        left.addWidget(self.people, 1)
        row.addLayout(left, 1)
        row.addLayout(right, 2)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(row, 1)
        layout.addWidget(self.status)
        layout.addWidget(close)
        self.resize(720, 420)
        self.reload()

    def reload(self, select: str | None = None) -> None:
        self.rows = annotation.list_annotators(self.ws)
        self.people.blockSignals(True)
        self.people.clear()
        for r in self.rows:
            entry = QListWidgetItem(f"{r['name']}  ({', '.join(r['dialects'])})")
            entry.setData(Qt.ItemDataRole.UserRole, r["name"])
            self.people.addItem(entry)
        self.people.blockSignals(False)
        names = [r["name"] for r in self.rows]
        if select in names:
            self.people.setCurrentRow(names.index(select))
            self._show_row(names.index(select))
        else:
            self._clear()

    def _clear(self) -> None:
        self.people.setCurrentRow(-1)
        self.name.clear()
        self.name.setReadOnly(False)
        set_checked(self.dialects, [])
        self.add_button.setEnabled(True)
        self.save_button.setEnabled(False)
        self.name.setFocus()

    def _show_row(self, row: int) -> None:
        if not 0 <= row < len(self.rows):
            return
        self.name.setText(self.rows[row]["name"])
        self.name.setReadOnly(True)
        set_checked(self.dialects, self.rows[row]["dialects"])
        self.add_button.setEnabled(False)
        self.save_button.setEnabled(True)

    def add(self) -> bool:
        return self._write(annotation.add_annotator, _("{name} added"))

    def save(self) -> bool:
        return self._write(annotation.set_annotator_dialects, _("{name} now speaks {dialects}"))

    def _write(self, write, done: str) -> bool:
        try:
            row = write(self.ws, self.name.text(), checked_data(self.dialects))
        except UserError as exc:
            show_status(self.status, for_gui(str(exc)), error=True)
            return False
        show_status(self.status, done.format(name=row["name"], dialects=", ".join(row["dialects"])))
        self.reload(select=row["name"])
        self.sig_changed.emit()
        return True


class AssignDialog(_BatchDialog):
    """Assign items to annotators in a new batch: which items, who, how much overlap, the
    seed (recorded with the batch) and whether the review is blind."""

    def __init__(
        self, ws: Workspace, parent: QWidget | None = None, bridge: TaskBridge | None = None
    ):
        super().__init__(ws, parent, bridge)
        self.setWindowTitle(_("Assign items to annotators"))
        existing = annotation.batches(ws)
        self.name = QLineEdit(_("batch {n}").format(n=len(existing) + 1))
        self.kind = QComboBox()
        for kind in annotation.KINDS:
            self.kind.addItem(kind_label(kind), kind)
        self.kind.currentIndexChanged.connect(lambda _i: self._kind_changed())
        self.available = QLabel()
        self.annotators = _annotator_list(ws)
        self.spoken = {d for a in annotation.list_annotators(ws) for d in a["dialects"]}
        self.dialects = checkable_list([])
        self.dialects.setToolTip(_("Only items in these dialects are assigned"))
        self.dialects.itemChanged.connect(lambda _item: self._count())
        self.overlap = _percent_box(0, 20)
        self.overlap.setToolTip(
            _("Share of each dialect's items that several annotators decide (for agreement)")
        )
        self.raters = QSpinBox()
        self.raters.setRange(2, 10)
        self.seed = _seed_box()
        self.random_seed = QCheckBox(_("Random (recorded with the batch)"))
        self.random_seed.toggled.connect(lambda on: self.seed.setEnabled(not on))
        seed_row = QHBoxLayout()
        seed_row.addWidget(self.seed)
        seed_row.addWidget(self.random_seed, 1)
        self.blind = QCheckBox(_("Blind review: hide the machine draft and the judge's score"))
        self.blind.setChecked(True)
        self.scale = QLineEdit()

        form = QFormLayout()
        form.addRow(_("Batch name:"), self.name)
        form.addRow(_("Items:"), self.kind)
        form.addRow(_("Dialects:"), self.dialects)
        form.addRow("", self.available)
        form.addRow(_("Annotators:"), self.annotators)
        form.addRow(_("Overlap:"), self.overlap)
        form.addRow(_("Raters per shared item:"), self.raters)
        form.addRow(_("Seed:"), seed_row)
        form.addRow("", self.blind)
        form.addRow(_("Score scale:"), self.scale)
        self.buttons, self.status = _lay_out(self, form, _("&Assign"), self.assign)
        self._kind_changed()
        self.resize(640, self.sizeHint().height())

    def targets(self) -> list[int]:
        kind, dialects = self.kind.currentData(), checked_data(self.dialects)
        return annotation.candidate_targets(self.ws, kind, dialects=dialects) if dialects else []

    def _kind_changed(self) -> None:
        """Offer the dialects that have items of this kind, with how many; ticked: those the
        annotators speak."""
        kind = self.kind.currentData()
        names = self.ws.dialect_names()
        counts = annotation.candidate_counts(self.ws, kind)
        self.dialects.blockSignals(True)
        self.dialects.clear()
        for code, n in sorted(counts.items()):
            entry = QListWidgetItem(
                _("{dialect}: {n} items").format(dialect=_dialect_name(names, code), n=n)
            )
            entry.setData(Qt.ItemDataRole.UserRole, code)
            entry.setFlags(entry.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            entry.setCheckState(
                Qt.CheckState.Checked if code in self.spoken else Qt.CheckState.Unchecked
            )
            self.dialects.addItem(entry)
        self.dialects.blockSignals(False)
        _fit_rows(self.dialects, 6)
        self.scale.setPlaceholderText(annotation.DEFAULT_SCALE.get(kind, ""))
        self._count()

    def _count(self) -> None:
        self.available.setText(_("{n} items can be assigned").format(n=len(self.targets())))

    def assign(self) -> None:
        def summary(result) -> dict:
            log.info("assigned batch %s from the GUI", result.name)
            return {
                "name": result.name,
                "items": result.items,
                "overlap": result.overlap_items,
                "seed": result.seed,
                "notes": result.notes,
            }

        name = self.name.text()
        self._write(
            annotation_tasks.assign_at,
            (
                name,
                self.kind.currentData(),
                checked_data(self.annotators),
                {
                    "targets": self.targets(),
                    "overlap": self.overlap.value() / 100,
                    "raters": self.raters.value(),
                    "seed": None if self.random_seed.isChecked() else self.seed.value(),
                    "blind_draft": self.blind.isChecked(),
                    "score_scale": self.scale.text().strip() or None,
                },
            ),
            _("Assign batch {name}").format(name=name),
            summary,
        )


class DrawSubsetDialog(_BatchDialog):
    """Draw a random share of each model × dialect cell of a judge run for human scoring
    (the prediction-powered estimates on the Agreement tab correct the judge with them)."""

    def __init__(
        self, ws: Workspace, parent: QWidget | None = None, bridge: TaskBridge | None = None
    ):
        super().__init__(ws, parent, bridge)
        self.setWindowTitle(_("Draw answers for human scoring"))
        self.name = QLineEdit(_("human scores {n}").format(n=len(annotation.batches(ws)) + 1))
        self.run = QComboBox()
        for r in annotation.scored_judge_runs(ws):
            self.run.addItem(
                _("run {run} — {model}: {n} scored answers").format(
                    run=r["run_id"], model=r["model"] or "?", n=r["scored"]
                ),
                r["run_id"],
            )
        self.annotators = _annotator_list(ws)
        self.share = _percent_box(1, 10)
        self.seed = _seed_box()
        self.active = QCheckBox(_("Draw where the judge is least sure (active)"))
        self.active.setToolTip(
            _(
                "Each answer with a probability from the judge's uncertainty, never below a "
                "quarter of the share; the estimate weighs each label by its inverse "
                "probability. Uniform draws are the default: see README, PPI."
            )
        )
        form = QFormLayout()
        form.addRow(_("Batch name:"), self.name)
        form.addRow(_("Judge run:"), self.run)
        form.addRow(_("Annotators:"), self.annotators)
        form.addRow(_("Share of each cell:"), self.share)
        form.addRow(_("Seed:"), self.seed)
        form.addRow("", self.active)
        # how many labels each cell needs, filled before the user confirms the draw
        self.needs = LabelsNeededView(ws)
        form.addRow(self.needs)
        self.run.currentIndexChanged.connect(lambda _i: self.needs.set_run(self.run.currentData()))
        self.needs.set_run(self.run.currentData())
        self.buttons, self.status = _lay_out(self, form, _("&Draw"), self.draw)
        self.resize(640, self.sizeHint().height())

    def draw(self) -> None:
        if self.run.currentData() is None:
            show_status(self.status, _("No judge run has scored answers yet."), error=True)
            return
        name = self.name.text()
        self._write(
            annotation_tasks.draw_subset_at,
            (
                name,
                self.run.currentData(),
                checked_data(self.annotators),
                {
                    "share": self.share.value() / 100,
                    "seed": self.seed.value(),
                    "active": self.active.isChecked(),
                },
            ),
            _("Draw batch {name}").format(name=name),
            lambda result: {
                "name": name,
                "items": result["drawn"],
                "overlap": 0,
                "seed": result["seed"],
                "notes": [],
            },
        )


def assignment_message(summary: dict) -> str:
    text = _("Batch {name}: {items} items, {overlap} shared, seed {seed}").format(**summary)
    return "; ".join([text, *summary["notes"]])
