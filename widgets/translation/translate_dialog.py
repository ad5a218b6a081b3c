"""TranslateDialog: RAG-translate a question set into dialects (machine drafts).

Fills a :class:`TranslateRequest` (the request ``upabhasha translate`` builds: its defaults
are the dialog's) and runs it with :func:`engine.translation.tasks.translate_question_set_at`
(build or reuse the retrieval index, then translate) through the bridge on the chosen model's
lane. The job monitor shows progress, ETA and cancel; the dialog may be
closed while it runs. ``sig_finished`` carries the summary (the main window reloads the
review grid).

``python -m widgets.translation.translate_dialog [WORKSPACE]`` opens the dialog alone.
"""

from __future__ import annotations

import logging
import sys

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QMessageBox,
    QVBoxLayout,
    QWidget,
)

from engine.errors import UserError
from engine.i18n import _, digits
from engine.translation import tasks as translation_tasks
from engine.translation.api import (
    TranslateRequest,
    TranslateResult,
    corpus_names,
    translation_items,
)
from engine.workspace.api import Workspace, study_choices
from widgets.common.batch_files import BatchExportButton
from widgets.common.dialect_names import dialect_name
from widgets.common.dialog_parts import checkable_list, checked_data, show_status
from widgets.common.hints import load_failure
from widgets.common.item_limit import ItemLimitBox, ask_before_large_job, is_large, scope_text
from widgets.common.labels import dialect_of, label
from widgets.common.standalone import run_panel
from widgets.common.task_bridge import Task, TaskBridge, describe_error, model_lane
from widgets.translation.index_fields import IndexFields

log = logging.getLogger(__name__)


def model_combo(models: list[dict], combo: QComboBox | None = None) -> QComboBox:
    """The models as a combo box's items (``combo`` refilled, the choice kept where it is
    still there)."""
    combo = combo if combo is not None else QComboBox()
    chosen = combo.currentData()
    combo.clear()
    for m in models:
        suffix = _(" (default)") if m["is_default"] else ""
        combo.addItem(f"{m['name']} · {label('model_kind', m['kind'])}{suffix}", m["id"])
    if chosen is not None and combo.findData(chosen) >= 0:
        combo.setCurrentIndex(combo.findData(chosen))
    return combo


class TranslateDialog(QDialog):
    sig_started = Signal(object)  # Task
    sig_finished = Signal(dict)  # the translation summary

    def __init__(self, workspace: Workspace, bridge: TaskBridge, *, parent: QWidget | None = None):
        super().__init__(parent)
        self.ws = workspace
        self.bridge = bridge
        self.task: Task | None = None
        self.last_summary: dict | None = None
        self.setWindowTitle(_("Translate questions into dialects"))
        self.setMinimumWidth(520)
        choices = study_choices(workspace)

        self.question_set = QComboBox()
        self.questions_in: dict[str, int] = {}
        for s in choices["question_sets"]:
            self.questions_in[s["name"]] = s["questions"]
            self.question_set.addItem(
                _("{name} ({n} questions)").format(name=s["name"], n=s["questions"]), s["name"]
            )
        self.dialects = checkable_list(
            [(dialect_of(d, both=True), d["code"], False) for d in choices["dialects"]]
        )
        self.dialects.setMinimumHeight(150)
        self.pairs_of = {d["code"]: d.get("pairs", 0) for d in choices["dialects"]}
        self.names_of = {d["code"]: d["name_en"] for d in choices["dialects"]}
        self.dialects.itemChanged.connect(lambda _item: self._warn_without_pairs())
        self.model = model_combo(choices["models"])
        self.model_names = {m["id"]: m["name"] for m in choices["models"]}
        self.limit = ItemLimitBox(_("every question"), _(" questions"))
        self.scope = QLabel()
        self.dialects.itemChanged.connect(lambda _item: self._show_scope())
        self.question_set.currentIndexChanged.connect(lambda _index: self._show_scope())
        self.limit.valueChanged.connect(lambda _value: self._show_scope())
        form = QFormLayout()
        form.addRow(_("Question set"), self.question_set)
        form.addRow(_("Dialects"), self.dialects)
        form.addRow(_("Model"), self.model)
        form.addRow(_("Only the first"), self.limit)
        form.addRow(_("Scope"), self.scope)
        self.index = IndexFields(corpus_names(workspace))

        self.note = QLabel(
            _(
                "Retrieves exemplar pairs from the parallel corpus ({pairs:,} pairs; the index is "
                "built on first use and reused after), then writes machine drafts for review. "
                "Reviewed and gold variants are never overwritten; a re-run resumes."
            ).format(pairs=choices["corpus_pairs"])
        )
        self.note.setWordWrap(True)
        self.pairs_warning = QLabel()
        self.pairs_warning.setWordWrap(True)
        self.pairs_warning.setStyleSheet("color: #8a5a00")
        self.pairs_warning.setVisible(False)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.buttons = QDialogButtonBox()
        self.start_button = self.buttons.addButton(
            _("Translate"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.batch_button = BatchExportButton(workspace, bridge, self.job_request)
        self.buttons.addButton(self.batch_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.start_button.clicked.connect(self.start)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.index)
        layout.addWidget(self.note)
        layout.addWidget(self.pairs_warning)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)
        self.confirmation: QMessageBox | None = None
        self._show_scope()  # and the Translate button's state

    def scope_counts(self) -> tuple[int, int, int]:
        """(items, questions, dialects) that a start would draft: the items no person has
        touched (``self.kept``: those it leaves as they are)."""
        in_set = self.questions_in.get(self.question_set.currentData(), 0)
        limit = self.limit.value()
        questions = min(limit, in_set) if limit else in_set
        dialects = checked_data(self.dialects)
        self.kept = 0
        if not (questions and dialects):
            return 0, questions, len(dialects)
        items, self.kept = translation_items(
            self.ws, self.question_set.currentData(), dialects, limit or None
        )
        return len(items), len({q["id"] for q, _d in items}), len(dialects)

    def _show_scope(self) -> None:
        # read once a change of the fields: the button's state and a start use these counts
        self.counts = self.scope_counts()
        text = scope_text(*self.counts, unit=_("drafts to write"))
        if self.kept:
            text += _("; {n} kept (reviewed, gold or edited by a person)").format(
                n=digits(self.kept)
            )
        self.scope.setText(text)
        if hasattr(self, "start_button"):  # built after the fields
            self._update_state()

    def nothing_to_draft(self) -> bool:
        """Dialects are ticked, but every chosen question has a person's rendering in them."""
        items, _questions, dialects = self.counts
        return bool(dialects) and items == 0 and self.kept > 0

    def without_pairs(self) -> list[str]:
        """The ticked dialects with no corpus pairs (their exemplars would be others')."""
        return [d for d in checked_data(self.dialects) if not self.pairs_of.get(d)]

    def _warn_without_pairs(self) -> None:
        missing = self.without_pairs()
        self.pairs_warning.setVisible(bool(missing))
        if missing:
            self.pairs_warning.setText(
                _(
                    "No corpus pairs for {dialects}: the exemplars will come from other "
                    "dialects, so the drafts may be little more than the standard question. "
                    "They are marked so in their retrieval record. Import a corpus with "
                    "these dialects first for real exemplars."
                ).format(dialects=", ".join(self.names_of.get(d, d) for d in missing))
            )

    def refresh_models(self) -> None:
        """A model was added or removed elsewhere (the Models panel, the CLI): the list
        follows at once."""
        models = study_choices(self.ws)["models"]
        had_none = self.model.count() == 0
        model_combo(models, self.model)
        self.model_names = {m["id"]: m["name"] for m in models}
        if had_none and models and self.task is None:
            self._show("")  # the "add a model first" line goes
        self._update_state()

    def _update_state(self) -> None:
        no_sets, no_models = self.question_set.count() == 0, self.model.count() == 0
        nothing = not no_sets and self.nothing_to_draft()
        self.start_button.setEnabled(not (no_sets or no_models or nothing) and self.task is None)
        if self.task is not None:
            return
        if nothing:
            self._show(
                _(
                    "Nothing to translate: every chosen question already has a reviewed or gold "
                    "rendering in these dialects, and those are never overwritten. Tick other "
                    "dialects or choose another question set."
                ),
                error=True,
            )
            self._nothing_shown = True
            return
        if getattr(self, "_nothing_shown", False):
            self._nothing_shown = False
            self._show("")
        if no_sets and no_models:
            self._show(
                _("Import a question set (File → Import questions…) and add a model first."),
                error=True,
            )
        elif no_sets:
            self._show(_("Import a question set first (File → Import questions…)."), error=True)
        elif no_models:
            self._show(_("Add a model first (the Models panel)."), error=True)

    def job_request(self) -> TranslateRequest | str:
        """The request the fields say, or why they do not make one."""
        try:
            return TranslateRequest(
                question_set=self.question_set.currentData(),
                dialects=tuple(checked_data(self.dialects)),
                model=self.model_names.get(self.model.currentData()),
                limit=self.limit.value() or None,
                **self.index.values(),
            )
        except UserError as exc:
            return describe_error(exc, one_line=True)

    def start(self) -> Task | None:
        """Start the job, or ask first when it is large (then it starts on Yes)."""
        if self.task is not None:
            return self.task
        request = self.job_request()
        if isinstance(request, str):
            self._show(request, error=True)
            return None
        counts = self.scope_counts()  # current, whatever changed since the fields did
        if is_large(counts[0]):
            self.confirmation = ask_before_large_job(self, scope_text(*counts), self.start_now)
            return None
        return self.start_now()

    def start_now(self) -> Task | None:
        self.confirmation = None
        if self.task is not None:
            return self.task
        request = self.job_request()
        if isinstance(request, str):
            self._show(request, error=True)
            return None
        model_id = self.model.currentData()
        label = _("Translating {set} into {dialects}").format(
            set=request.question_set,
            dialects=", ".join(dialect_name(self.ws.dialect_names(), d) for d in request.dialects),
        )
        self._show(
            _("Running: progress, ETA and cancel are in the Jobs panel. You may close this dialog.")
        )
        task = self.bridge.run(
            translation_tasks.translate_question_set_at,
            args=(str(self.ws.path), request),
            lane=model_lane(model_id),
            label=label,
            on_done=self._done,
            on_error=self._failed,
            on_cancelled=self._cancelled,
        )
        if task.running:
            self.task = task
            self.sig_started.emit(task)
        self._update_state()
        return task

    def _done(self, result: TranslateResult) -> None:
        self.task = None
        summary = result.as_dict()
        self.last_summary = summary
        s = summary
        reason = load_failure([s], "{error}")
        if reason:  # the model never loaded: nothing was translated, whatever the counts say
            self._show(_("Translation failed: {message}").format(message=reason), error=True)
            self._update_state()
            self.sig_finished.emit(summary)
            return
        text = _(
            "{model}: {written} draft(s) written from {items} item(s) ({generated} "
            "generated, {cached} from cache, {errors} errors, {empty} empty); {protected} "
            "reviewed/gold variant(s) left alone."
        ).format(**s)
        if s.get("without_pairs"):
            text += " " + _("Drafts of {dialects} had no exemplars of their own (marked).").format(
                dialects=", ".join(s["without_pairs"])
            )
        if s.get("cancelled"):
            text += " " + _("Cancelled: run again to resume.")
        self._show(text, error=bool(s["errors"]))
        self._update_state()
        self.sig_finished.emit(summary)

    def _cancelled(self) -> None:
        self.task = None
        self._show(_("Cancelled: run again to resume."))
        self._update_state()

    def _failed(self, exc: BaseException) -> None:
        self.task = None
        self._show(
            _("Translation failed: {message}").format(message=describe_error(exc, one_line=True)),
            error=True,
        )
        self._update_state()

    def _show(self, text: str, *, error: bool = False) -> None:
        show_status(self.status, text, error=error)


def main(argv: list[str] | None = None) -> int:
    return run_panel(
        "widgets.translation.translate_dialog",
        "TranslateDialog",
        lambda workspace, bridge, args: TranslateDialog(workspace, bridge),
        size=(560, 520),
        argv=argv,
    )


if __name__ == "__main__":
    sys.exit(main())
