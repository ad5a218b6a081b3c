"""The main window: assembles the panels around one open workspace; owns nothing else.

Panels receive the narrowest dependency they need (the workspace, the bridge, the workspace
watcher, a reviewer name) and talk back through their ``sig_*`` signals (docs/design.md, house
style 8-9). One :class:`widgets.common.workspace_watcher.WorkspaceWatcher` per open workspace is the
only poll of the database: panels (and the status bar) follow its change notices, and a panel
that wrote something, or the window when a job finishes, asks it to look at once, so the others
follow without waiting for a tick; the window never re-reads a panel itself.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QLocale, Qt
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QLabel,
    QMainWindow,
    QMessageBox,
    QStackedWidget,
    QTabWidget,
    QWidget,
)

from app import window_closing
from app.annotation_actions import AnnotationActions
from app.batch_actions import BatchActions
from app.language_menu import add_language_menu
from app.settings import Settings, save_settings
from app.stage_widgets import import_pages, panels, study_entries
from app.study_actions import StudyActions
from app.window_closing import jobs_may_stop, remember_geometry, restore_geometry
from engine.errors import UserError
from engine.i18n import _, digits
from engine.workspace.api import Workspace, study_counts
from widgets.common import file_dialogs
from widgets.common.elided_tooltips import install_elided_tooltips
from widgets.common.file_dialogs import WORKSPACES
from widgets.common.hints import for_gui
from widgets.common.job_monitor import JobMonitor
from widgets.common.labels import study_counts_text
from widgets.common.qt_translations import install_qt_translations
from widgets.common.shortcuts_dialog import ShortcutsDialog, collect_shortcuts
from widgets.common.stage_parts import PanelContext
from widgets.common.task_bridge import WRITER, Task, TaskBridge
from widgets.common.welcome_page import WelcomePage
from widgets.common.workspace_watcher import Change, WorkspaceWatcher

log = logging.getLogger(__name__)

# their own shortcuts, Ctrl+Shift+1/2/3, in this order
ANNOTATION_TABS = ("annotation", "adjudication", "agreement")


def workspace_filter() -> str:
    return _("Upabhasha workspace (*.sqlite *.upabhasha);;All files (*)")


STATUS_TOPICS = frozenset({"questions", "variants", "models"})  # what the status bar counts
JOBS_PLACE = 70  # the job monitor's tab among the stages' (widgets.common.stage_parts)


class MainWindow(QMainWindow):
    def __init__(
        self,
        settings: Settings,
        *,
        bridge: TaskBridge | None = None,
        save: Callable[[Settings], None] = save_settings,
        parent: QWidget | None = None,
    ):
        super().__init__(parent)
        install_qt_translations()  # Qt's Close/Cancel/Yes in the interface language
        self.setLocale(QLocale())  # and its digits: children take the window's locale
        self.settings = settings
        self._save = save
        # every file dialog opens where its purpose was last used, across restarts
        file_dialogs.remember_folders_in(settings.last_folders, lambda: save(settings))
        self.bridge = bridge or TaskBridge(self, dialog_parent=self)
        self.jobs_left_running: list[Task] = []  # cancelled at quit, still in their workers
        self.bridge.sig_task_failed.connect(self._on_task_failed)
        self.bridge.sig_task_started.connect(lambda _task: self.refresh_status())
        self.bridge.sig_task_finished.connect(lambda _task: self.refresh_status())
        self.workspace: Workspace | None = None
        self.watcher: WorkspaceWatcher | None = None
        self.panels: dict[str, QWidget] = {}
        self.study = StudyActions(self, self.bridge)
        self.study.sig_show_panel.connect(self.show_panel)
        self.study.sig_status_message.connect(self.statusBar().showMessage)
        # drafts to review: the Review panel; none written, the status bar says why
        self.study.sig_translated.connect(
            lambda summary: self.show_panel("review") if summary.get("written") else None
        )
        # a finished job's one change notice: the panels showing what it wrote follow it
        self.study.sig_imported.connect(lambda _report: self._announce("import"))
        self.study.sig_translated.connect(lambda _summary: self._announce("translate"))
        self.study.sig_generated.connect(lambda _summary: self._announce("generate"))
        self.annotation = AnnotationActions(self, self.bridge, lambda: self.workspace)
        # the annotation panel skips its own decisions' notices: a merge says what it wrote
        self.annotation.sig_merged.connect(lambda: self._announce("package", "decisions"))
        self.annotation.sig_status_message.connect(self.statusBar().showMessage)
        self.annotation.sig_changed.connect(self.refresh_status)
        self.batch = BatchActions(self, self.bridge, lambda: self.workspace)
        self.batch.sig_imported.connect(lambda _report: self._announce("batch", "responses"))
        self.setWindowTitle("Upabhasha")
        self.setAcceptDrops(False)

        self.welcome = WelcomePage(settings.recent_workspaces)
        self.welcome.sig_open_sample.connect(self.open_sample_workspace)
        self.welcome.sig_new_workspace.connect(self.new_workspace_dialog)
        self.welcome.sig_open_workspace.connect(self.open_workspace_dialog)
        self.welcome.sig_open_recent.connect(self.open_workspace)
        self.welcome.sig_add_model.connect(self.add_model)
        self.welcome.sig_open_package.connect(self.annotation.open_package)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.welcome)
        self.stack.addWidget(self.tabs)
        self.setCentralWidget(self.stack)

        self.job_monitor = JobMonitor(self.bridge)

        self._build_menus()
        self.workspace_label = QLabel()
        self.counts_label = QLabel("")
        self.jobs_label = QLabel("")
        self.statusBar().addWidget(self.workspace_label, 1)
        self.statusBar().addPermanentWidget(self.counts_label)
        self.statusBar().addPermanentWidget(self.jobs_label)
        restore_geometry(self, self.settings)
        self._show_welcome()
        self.refresh_status()

    # -- menus -----------------------------------------------------------------------------
    def _action(self, text: str, slot, shortcut=None, menu=None) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        # through a lambda: triggered passes `checked`, which a slot with an optional
        # argument would take as that argument (DESIGN.md)
        action.triggered.connect(lambda _checked=False, s=slot: s())
        if menu is not None:
            menu.addAction(action)
        self.addAction(action)  # shortcuts work whatever page is shown
        return action

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu(_("&File"))
        self._action(
            _("&New workspace…"), self.new_workspace_dialog, QKeySequence.StandardKey.New, file_menu
        )
        self._action(
            _("&Open workspace…"),
            self.open_workspace_dialog,
            QKeySequence.StandardKey.Open,
            file_menu,
        )
        self.recent_menu = file_menu.addMenu(_("Open &recent"))
        self._action(_("Open the &sample workspace"), self.open_sample_workspace, None, file_menu)
        self.close_action = self._action(
            _("&Close workspace"), self.close_workspace, QKeySequence.StandardKey.Close, file_menu
        )
        file_menu.addSeparator()
        self.workspace_actions = [
            self._action(_("Import corp&us…"), self.import_corpus_dialog, None, file_menu),
            self._action(_("Import ques&tions…"), self.import_questions_dialog, None, file_menu),
            *(
                self._action(
                    page.menu_text(),
                    lambda kind=page.kind: self.study.import_dialog(kind),
                    None,
                    file_menu,
                )
                for page in import_pages()  # every stage's kinds of import
            ),
            self._action(
                _("&Export review package…"), self.annotation.export_package, None, file_menu
            ),
            self._action(
                _("&Import review packages…"), self.annotation.import_packages, None, file_menu
            ),
            self._action(_("Import batch resu&lts…"), self.batch.import_results, None, file_menu),
        ]
        self._action(_("Open review &package…"), self.annotation.open_package, None, file_menu)
        file_menu.addSeparator()
        self._action(_("&Quit"), self.close, QKeySequence.StandardKey.Quit, file_menu)
        self._fill_recent_menu()

        self.view_menu = self.menuBar().addMenu(_("&View"))
        self._action(_("Show the &welcome page"), self._show_welcome, "Ctrl+0", self.view_menu)
        self.jobs_action = self._action(
            _("Show &jobs"), lambda: self.show_panel("jobs"), "Ctrl+J", self.view_menu
        )
        add_language_menu(self, self.view_menu, self.settings, self._save)

        study_menu = self.menuBar().addMenu(_("&Study"))
        self.workspace_actions += [  # every stage's entries, in their places
            self._action(
                entry.text(), lambda e=entry: e.open(self.study, self.show_panel), None, study_menu
            )
            for entry in study_entries()
        ]

        help_menu = self.menuBar().addMenu(_("&Help"))
        self._action(_("&Keyboard shortcuts"), self.show_shortcuts, "F1", help_menu)
        self._action(_("&About Upabhasha"), self._about, None, help_menu)

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        for path in self.settings.recent_workspaces:
            action = self.recent_menu.addAction(path)
            action.triggered.connect(lambda _checked=False, p=path: self.open_workspace(p))
        self.recent_menu.setEnabled(bool(self.settings.recent_workspaces))
        self.welcome.set_recent(self.settings.recent_workspaces)

    def show_shortcuts(self) -> ShortcutsDialog:
        dialog = ShortcutsDialog(collect_shortcuts(self), self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        return dialog

    def _about(self) -> None:
        QMessageBox.about(
            self,
            _("About Upabhasha"),
            _(
                "Upabhasha (উপভাষা) measures how much worse language models answer questions in "
                "regional Bengali dialects than in standard Bengali.\n\nBengali font: Noto Sans "
                "Bengali, SIL Open Font License 1.1."
            ),
        )

    # -- workspaces ------------------------------------------------------------------------
    def open_workspace(self, path: str | Path, *, create: bool = False) -> bool:
        try:
            workspace = Workspace(path, create=create)
        except (UserError, OSError) as exc:
            log.warning("cannot open workspace %s: %s", path, exc)
            QMessageBox.warning(self, _("Cannot open workspace"), for_gui(str(exc)))
            if not create and not Path(path).exists():
                self.settings.forget_recent(path)
                self._fill_recent_menu()
            return False
        if not self.close_workspace():
            workspace.close()
            return False
        self.workspace = workspace
        self.watcher = WorkspaceWatcher(workspace.path, parent=self)
        self.watcher.sig_change.connect(self._on_workspace_changed)
        self.study.set_workspace(workspace)
        self.settings.add_recent(workspace.path)
        self._save(self.settings)
        self._fill_recent_menu()
        self._build_panels()
        self.setWindowTitle(f"{workspace.path.name} — Upabhasha")
        self.stack.setCurrentWidget(self.tabs)
        self.refresh_status()
        log.info("opened workspace %s", workspace.path)
        return True

    def close_workspace(self) -> bool:
        """False when the user keeps the workspace open for its running jobs."""
        if self.workspace is None:
            return True
        if not self._stop_jobs():
            return False
        self._show_welcome()  # first, so removing tabs never shows (and starts) another panel
        for name, panel in list(self.panels.items()):
            if panel is self.job_monitor:
                continue
            self.tabs.removeTab(self.tabs.indexOf(panel))
            panel.deleteLater()
        self.panels.clear()
        self.tabs.clear()
        self.study.set_workspace(None)
        if self.watcher is not None:
            self.watcher.close()
            self.watcher.deleteLater()
            self.watcher = None
        self.workspace.close()
        self.workspace = None
        self.setWindowTitle("Upabhasha")
        self._show_welcome()
        return True

    def _stop_jobs(self) -> bool:
        """Jobs run on the open workspace: asked first, they are cancelled and their last
        results delivered before its panels go (a result reaching a panel of a closed
        workspace would fail)."""
        if not jobs_may_stop(self, len(self.bridge.running_tasks()), quitting=False):
            return False
        for task in self.bridge.settle(window_closing.QUIT_WAIT_S):
            log.warning("job %r was still running when its workspace closed", task.label)
        return True

    def _build_panels(self) -> None:
        assert self.workspace is not None and self.watcher is not None
        watcher = self.watcher
        context = PanelContext(
            workspace=self.workspace,
            bridge=self.bridge,
            watcher=watcher,
            settings=self.settings,
            save_settings=lambda: self._save(self.settings),
            reviewer_changed=self._remember_reviewer,
            status=self.statusBar().showMessage,
            open_import=self.study.import_dialog,
            study=self.study,
            annotation=self.annotation,
        )
        # every stage's tabs in their places; the job monitor is the window's own
        built: list[tuple[int, list[tuple[str, str, QWidget]]]] = [
            (JOBS_PLACE, [("jobs", _("Jobs"), self.job_monitor)])
        ]
        for stage_panels in panels():  # imported here, when a workspace opens
            built.append((stage_panels.place, stage_panels.build(context)))
        self.panels = {}
        for _place, tabs in sorted(built, key=lambda entry: entry[0]):
            for name, title, panel in tabs:
                self.panels[name] = panel
                self.tabs.addTab(panel, title)
                install_elided_tooltips(panel)
        self._install_panel_shortcuts()

    def _install_panel_shortcuts(self) -> None:
        for action in getattr(self, "_panel_actions", []):
            self.view_menu.removeAction(action)
            self.removeAction(action)
            action.deleteLater()
        self._panel_actions = []
        self.jobs_action.setShortcuts([QKeySequence("Ctrl+J")])
        for index in range(self.tabs.count()):
            if self.tabs.widget(index) is self.job_monitor:
                # the View menu's one "Show jobs" (there without a workspace) takes Ctrl+N too
                if index < 9:
                    self.jobs_action.setShortcuts(
                        [QKeySequence("Ctrl+J"), QKeySequence(f"Ctrl+{index + 1}")]
                    )
                continue
            text = _("Show {panel}").format(panel=self.tabs.tabText(index))
            keys = [f"Ctrl+{index + 1}"] if index < 9 else []  # Ctrl+1 … Ctrl+9
            name = next((n for n, p in self.panels.items() if p is self.tabs.widget(index)), "")
            if name in ANNOTATION_TABS:  # past Ctrl+9, and Ctrl+0 is the welcome page
                keys.append(f"Ctrl+Shift+{ANNOTATION_TABS.index(name) + 1}")
            action = self._action(
                text, lambda i=index: self.tabs.setCurrentIndex(i), None, self.view_menu
            )
            action.setShortcuts([QKeySequence(k) for k in keys])
            self._panel_actions.append(action)

    def show_panel(self, name: str) -> None:
        panel = self.panels.get(name)
        if panel is None and name == "jobs":
            panel = self.job_monitor
            if self.tabs.indexOf(panel) < 0:
                self.tabs.addTab(panel, _("Jobs"))
        if panel is not None:
            self.stack.setCurrentWidget(self.tabs)
            self.tabs.setCurrentWidget(panel)

    def _show_welcome(self) -> None:
        self.stack.setCurrentWidget(self.welcome)

    # -- study dialogs (app.study_actions) ---------------------------------------------------
    @property
    def _dialogs(self) -> dict[str, QWidget]:
        return self.study.dialogs

    def import_corpus_dialog(self):
        return self.study.import_dialog("corpus")

    def import_questions_dialog(self):
        return self.study.import_dialog("questions")

    def translate_dialog(self):
        return self.study.translate_dialog()

    def generate_dialog(self):
        return self.study.generate_dialog()

    def new_workspace_dialog(self) -> bool:
        path = file_dialogs.save_file(
            self, WORKSPACES, _("Create a new workspace"), "study.sqlite", workspace_filter()
        )
        if not path:
            return False
        if Path(path).exists():
            return self.open_workspace(path)
        return self.open_workspace(path, create=True)

    def open_workspace_dialog(self) -> bool:
        path = file_dialogs.open_file(self, WORKSPACES, _("Open a workspace"), workspace_filter())
        return bool(path) and self.open_workspace(path)

    def open_sample_workspace(self) -> None:
        # the sample builders are slow to import: only when asked for
        from engine.samples.api import sample_workspace_path, sample_workspace_with_model

        path = sample_workspace_path()
        self.bridge.run(
            sample_workspace_with_model,
            args=(path,),
            label=_("Building the sample workspace"),
            lane=WRITER,
            dialog=True,
            on_done=lambda built: self.open_workspace(built),
        )

    def add_model(self) -> None:
        if self.workspace is None and not self.new_workspace_dialog():
            return
        from widgets.llm.models_panel import ModelsPanel  # imported with the panels

        self.show_panel("models")
        panel = self.panels.get("models")
        if isinstance(panel, ModelsPanel):
            panel.add_gguf_dialog()

    # -- status bar ------------------------------------------------------------------------
    def _on_workspace_changed(self, change: Change) -> None:
        if change.topics & STATUS_TOPICS:
            self.refresh_status()
        if "models" in change.topics:
            self.study.models_changed()

    def _announce(self, origin: str, *topics: str) -> None:
        """A job (or merge) named ``origin`` finished: the watcher looks now and delivers one
        change notice from it; ``topics``: what it wrote, delivered even if a tick saw it."""
        if self.watcher is not None:
            self.watcher.notify(origin, topics=topics)

    def refresh_status(self) -> None:
        running = len(self.bridge.running_tasks())
        self.jobs_label.setText(_("{n} running").format(n=digits(running)) if running else "")
        for action in self.workspace_actions:
            action.setEnabled(self.workspace is not None)
        if self.workspace is None:
            self.workspace_label.setText(_("No workspace open"))
            self.counts_label.setText("")
            return
        self.workspace_label.setText(str(self.workspace.path))
        self.counts_label.setText(study_counts_text(study_counts(self.workspace)))

    def _on_task_failed(self, task, message: str) -> None:
        text = (
            _("{label}: {message}") if task.state == "refused" else _("{label} failed: {message}")
        )
        self.statusBar().showMessage(
            text.format(label=task.label, message=message.splitlines()[0]), 10000
        )

    def _remember_reviewer(self, name: str) -> None:
        self.settings.reviewer_name = name
        self._save(self.settings)
        answers = self.panels.get("answers")
        if answers is None:
            return
        from widgets.judging.answers_panel import AnswersPanel  # imported with the panels

        if isinstance(answers, AnswersPanel) and not answers.detail.annotator.text().strip():
            answers.detail.annotator.setText(name)  # overrides need the same person's name

    def _remember_avro_mode(self, enabled: bool) -> None:
        self.settings.avro_mode = enabled
        self._save(self.settings)

    def _remember_model_folders(self, folders: list[str]) -> None:
        self.settings.model_folders = list(folders)
        self._save(self.settings)

    # -- geometry and shutdown -------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        if not jobs_may_stop(self, len(self.bridge.running_tasks()), quitting=True):
            event.ignore()
            return
        # first, so nothing that fails below leaves a job able to reach a deleted panel
        self.jobs_left_running = self.bridge.shutdown(
            wait=True, timeout_s=window_closing.QUIT_WAIT_S
        )
        remember_geometry(self, self.settings)
        self._save(self.settings)
        self.close_workspace()
        event.accept()
