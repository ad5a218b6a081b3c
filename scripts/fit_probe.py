"""Open every panel and dialog on the screen Qt was started with; print the problems as JSON.

Run in a child process (``python scripts/fit_probe.py LANGUAGE [SHOTS_DIR]``) whose
``QT_QPA_PLATFORM`` fakes a screen (``offscreen:configfile=…``, as
tests/widgets/test_window_fit.py does): the offscreen platform's screen size is fixed when Qt
starts. Dialogs are discovered, not listed: every ``QDialog`` subclass defined under
``widgets/`` is built from its constructor's parameter names (a new dialog is covered when it
lands; one whose parameters are not known here is reported, so it gets a factory). With
SHOTS_DIR, every panel and dialog is also saved there as a PNG (scripts/screenshots_1366.sh).

Problems found, each one line:
- a window or dialog larger than the screen's free area (frame or minimum size);
- a horizontal header section narrower than its text (QFontMetrics, header margins);
- a button narrower or lower than its size hint (text cut);
- a scroll area that scrolls sideways (the review detail at 1366 px);
- a table whose columns lie past its visible width (the answers list hid Gap/Confidence/Human).
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import pkgutil
import re
import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QDialog,
    QHeaderView,
    QScrollArea,
    QStyle,
    QTabBar,
    QWidget,
)

ROOT = Path(__file__).resolve().parents[2]
BIJOY_ROWS = "standard,dialect_text,dialect\nআমি বাংলায় কথা বলি,Avwg evsjvq K_v ewj,sylhet\n"


def widget_classes(wanted) -> list[type]:
    """Classes defined in a module under widgets/ for which ``wanted(cls)`` holds."""
    import widgets

    found = []
    for info in pkgutil.walk_packages(widgets.__path__, "widgets."):
        module = importlib.import_module(info.name)
        for _name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and wanted(cls):
                found.append(cls)
    return sorted(set(found), key=lambda c: (c.__module__, c.__name__))


def dialog_classes() -> list[type]:
    return widget_classes(lambda cls: issubclass(cls, QDialog))


def panel_classes() -> list[type]:
    """The QWidget subclasses named …Panel: the tabs of the window, and new ones not yet in it."""
    return widget_classes(
        lambda cls: (
            issubclass(cls, QWidget)
            and not issubclass(cls, QDialog)
            and cls.__name__.endswith("Panel")
        )
    )


def header_problems(root: QWidget, where: str) -> list[str]:
    problems = []
    for header in root.findChildren(QHeaderView):
        if header.orientation() != Qt.Orientation.Horizontal or not header.isVisible():
            continue
        model = header.model()
        if model is None:
            continue
        metrics = QFontMetrics(header.font())
        margin = 2 * header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
        for section in range(header.count()):
            if header.isSectionHidden(section):
                continue
            text = model.headerData(section, Qt.Orientation.Horizontal)
            if not isinstance(text, str) or not text.strip():
                continue
            needed = max(metrics.horizontalAdvance(line) for line in text.splitlines()) + margin
            if header.sectionSize(section) < needed:
                problems.append(
                    f"{where}: header '{text}' clipped ({header.sectionSize(section)} < {needed} px)"
                )
    return problems


def button_problems(root: QWidget, where: str) -> list[str]:
    problems = []
    for button in root.findChildren(QAbstractButton):
        if not button.isVisible() or not button.text() or isinstance(button.parent(), QTabBar):
            continue
        hint = button.sizeHint()
        if button.width() < hint.width() or button.height() < hint.height() - 2:
            problems.append(
                f"{where}: button '{button.text()}' clipped "
                f"({button.width()}×{button.height()} < {hint.width()}×{hint.height()})"
            )
    return problems


def sideways_problems(root: QWidget, where: str) -> list[str]:
    """A scroll area whose content is wider than it: it scrolls sideways, or is cut."""
    return [
        f"{where}: {type(area.widget()).__name__} is wider than its scroll area "
        f"({area.widget().minimumSizeHint().width()} px in {area.viewport().width()})"
        for area in root.findChildren(QScrollArea)
        if area.isVisible()
        and area.widget() is not None
        and area.widget().minimumSizeHint().width() > area.viewport().width()
    ]


def hidden_column_problems(root: QWidget, where: str) -> list[str]:
    """Columns of a table that lie past its visible width (the answers list hid three)."""
    problems = []
    for view in root.findChildren(QAbstractItemView):
        header = getattr(view, "horizontalHeader", None) or getattr(view, "header", None)
        header = header() if header else None
        if not view.isVisible() or header is None or view.model() is None:
            continue
        if view.property("columns_scroll"):
            continue  # a grid with a column per dialect scrolls sideways by design
        width = view.viewport().width()
        hidden = [
            str(view.model().headerData(section, Qt.Orientation.Horizontal))
            for section in range(header.count())
            if not header.isSectionHidden(section)
            and header.sectionPosition(section) + header.sectionSize(section) > width + 1
        ]
        if hidden:
            problems.append(f"{where}: columns past the visible width: {', '.join(hidden)}")
    return problems


def size_problems(window: QWidget, where: str, available) -> list[str]:
    frame = window.frameGeometry()
    extra_w = frame.width() - window.width()
    extra_h = frame.height() - window.height()
    minimum = window.minimumSizeHint().expandedTo(window.minimumSize())
    problems = []
    if not available.contains(frame):
        problems.append(f"{where}: {frame.width()}×{frame.height()} is larger than the screen")
    if minimum.width() + extra_w > available.width() or (
        minimum.height() + extra_h > available.height()
    ):
        problems.append(f"{where}: needs at least {minimum.width()}×{minimum.height()}")
    return problems


def check(widget: QWidget, where: str, available) -> list[str]:
    QApplication.processEvents()
    return (
        size_problems(widget.window(), where, available)
        + header_problems(widget, where)
        + button_problems(widget, where)
        + sideways_problems(widget, where)
        + hidden_column_problems(widget, where)
    )


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


class Probe:
    def __init__(self, language: str, shots: Path | None):
        self.language = language
        self.shots = shots
        self.problems: list[str] = []
        self.seen: list[str] = []

    def shot(self, widget: QWidget, name: str) -> None:
        if self.shots is not None:
            widget.window().grab().save(str(self.shots / f"{self.language}-{slug(name)}.png"))

    def look(self, widget: QWidget, name: str, available, shot: str | None = None) -> None:
        self.seen.append(name)
        self.problems += check(widget, name, available)
        self.shot(widget, shot or name)

    def arguments(self, cls: type, context: dict) -> dict | None:
        kwargs = {}
        for name, parameter in inspect.signature(cls.__init__).parameters.items():
            if name == "self" or parameter.kind in (
                parameter.VAR_POSITIONAL,
                parameter.VAR_KEYWORD,
            ):
                continue
            if name in context:
                kwargs[name] = context[name]
            elif parameter.default is inspect.Parameter.empty:
                return None
        return kwargs

    def dialog_states(self, dialog: QDialog, tmp: Path):
        """(name suffix, action) for the states worth a look: each kind of a ``kind`` combo,
        the Bijoy preview of a dialog that reads files."""
        yield "", lambda: None
        kind = getattr(dialog, "kind", None)
        if isinstance(kind, QComboBox):
            for index in range(1, kind.count()):
                yield f" ({kind.itemData(index)})", lambda i=index: kind.setCurrentIndex(i)
            if kind.count():
                yield "", lambda: kind.setCurrentIndex(0)
        if hasattr(dialog, "set_path") and hasattr(dialog, "bijoy_box"):
            path = tmp / "bijoy.csv"
            path.write_text(BIJOY_ROWS, encoding="utf-8")
            yield " (Bijoy preview)", lambda: dialog.set_path(path)

    def loose_panels(self, window, context: dict, available) -> None:
        """Panels under widgets/ that the window has no tab for (a branch adds a panel before
        the window shows it): each alone, at the size the window has."""
        shown = [window.tabs.widget(i) for i in range(window.tabs.count())]
        for cls in panel_classes():
            if any(isinstance(panel, cls) for panel in shown):
                continue
            kwargs = self.arguments(cls, {**context, "parent": None})
            if kwargs is None:
                self.problems.append(f"{cls.__name__}: no factory for its parameters ({__file__})")
                continue
            panel = cls(**kwargs)
            panel.resize(window.size())
            panel.show()
            QApplication.processEvents()
            self.look(panel, f"panel {cls.__name__} (alone)", available, f"panel {cls.__name__}")
            panel.close()
            panel.deleteLater()

    def dialogs(self, window, context: dict, available, tmp: Path) -> None:
        for cls in dialog_classes():
            kwargs = self.arguments(cls, context)
            name = cls.__name__
            if kwargs is None:
                self.problems.append(f"{name}: no factory for its parameters ({__file__})")
                continue
            dialog = cls(**kwargs)
            for suffix, action in self.dialog_states(dialog, tmp):
                action()
                dialog.show()
                QApplication.processEvents()
                if suffix or not self.seen or self.seen[-1] != name:
                    self.look(dialog, name + suffix, available)
            dialog.close()
            dialog.deleteLater()


def main(language: str, shots: str | None = None) -> int:
    app = QApplication([])
    from app.language_menu import apply_language

    apply_language(language)  # the catalogue and Qt's locale, as app.gui_main does
    from widgets.common.fonts import register_qt_fonts

    register_qt_fonts(app)
    from app.main_window import MainWindow
    from app.settings import Settings
    from engine.samples.api import build_sample_study, with_sample_batch
    from engine.workspace.api import Workspace

    tmp = Path(tempfile.mkdtemp())
    probe = Probe(language, Path(shots) if shots else None)
    if probe.shots is not None:
        probe.shots.mkdir(parents=True, exist_ok=True)
    window = MainWindow(Settings(), save=lambda s: None)
    window.show()
    QApplication.processEvents()
    available = window.screen().availableGeometry()
    probe.look(window, "welcome", available)
    # answers, judgments, annotators and a batch: every panel has rows to lay out
    with Workspace(build_sample_study(tmp / "sample.sqlite")) as study:
        with with_sample_batch(study) as annotated:
            path = annotated.path
    window.open_workspace(path)
    for index in range(window.tabs.count()):
        window.tabs.setCurrentIndex(index)
        QApplication.processEvents()
        panel = window.tabs.widget(index)
        key = next((k for k, v in window.panels.items() if v is panel), str(index))
        probe.look(panel, f"panel {key} ({window.tabs.tabText(index)})", available, f"panel {key}")
    from widgets.common.shortcuts_dialog import collect_shortcuts

    context = {
        "workspace": window.workspace,
        "ws": window.workspace,
        "workspace_path": str(window.workspace.path),
        "bridge": window.bridge,
        "parent": window,
        "dialog_parent": window,
        "shortcuts": collect_shortcuts(window),
        "keyring_problem": None,
        "reviewer": "reviewer",
    }
    probe.loose_panels(window, context, available)
    probe.dialogs(window, context, available, tmp)
    print(
        json.dumps(
            {
                "available": [available.width(), available.height()],
                "seen": probe.seen,
                "problems": probe.problems,
            },
            ensure_ascii=False,
        ),
        flush=True,
    )
    os._exit(0)  # no closeEvent: background chart/index tasks may still run


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
