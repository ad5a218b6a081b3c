"""Driving a Qt window as a user would, for scripts that walk through the GUI.

Clicks, typing (Bengali included), combo and check-list choices, menu items, cell clicks
and keyboard focus, all through the widgets; the operating system's file picker answers
from a list of prepared paths; background work is awaited by processing events, never by
sleeping on the GUI thread; modal error boxes are recorded and closed; and :func:`shoot`
photographs the window with any open dialog drawn over it. Used by scripts/walkthrough.py.
"""

from __future__ import annotations

import contextlib
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path

log = logging.getLogger(__name__)


class WalkError(RuntimeError):
    """A step could not be done from the GUI (the message says what was missing)."""


@dataclass
class GuiWalk:
    """What the helpers drive: the application, its main window and where pictures go."""

    app: object
    window: object
    out: Path
    shots: list[Path] = field(default_factory=list)
    message_boxes: list[str] = field(default_factory=list)
    picks: list[str] = field(default_factory=list)  # the file picker's answers, in order
    answered: list[str] = field(default_factory=list)  # the input dialogs answered
    seconds: dict[str, float] = field(default_factory=dict)  # each step's wall time


# -- the window ---------------------------------------------------------------------------
def open_main_window(size: tuple[int, int]):
    """The application and its main window on a fresh configuration, shown, no workspace
    (``UPABHASHA_CONFIG_DIR`` must already name the fresh folder)."""
    import sys

    from PySide6.QtWidgets import QApplication

    from app.settings import load_settings, settings_path
    from widgets.common.fonts import register_qt_fonts

    if settings_path().exists():
        raise WalkError(f"the config folder {settings_path().parent} is not fresh")
    app = QApplication.instance() or QApplication(sys.argv[:1])
    register_qt_fonts(app)
    from app.main_window import MainWindow

    window = MainWindow(load_settings())
    window.resize(*size)
    window.show()
    return app, window


def watch_message_boxes(walk: GuiWalk) -> None:
    """Close (and record) any modal error box every 300 ms, so the walk never hangs on one."""
    from PySide6.QtCore import QTimer

    walk._box_timer = QTimer(walk.window)  # type: ignore[attr-defined]
    walk._box_timer.setInterval(300)  # type: ignore[attr-defined]
    walk._box_timer.timeout.connect(lambda: close_message_boxes(walk))  # type: ignore[attr-defined]
    walk._box_timer.start()  # type: ignore[attr-defined]
    settle(walk.app, 300)


def run_step(walk: GuiWalk, step) -> None:
    started = time.perf_counter()
    with file_picker(walk):
        step(walk)
    walk.seconds[step.__name__] = round(time.perf_counter() - started, 1)
    log.info("%s done in %.1f s", step.__name__, walk.seconds[step.__name__])


def finish(walk: GuiWalk) -> None:
    walk.window.bridge.cancel_all()
    walk.window.close()
    settle(walk.app, 200)


def walk_all(walk: GuiWalk, steps, began: float, **summary) -> int:
    """Run every step (a script's main): exit status 1 and the reason on the first step that
    cannot be done; else the pictures, then one JSON line of timings (and ``summary``)."""
    import json
    import sys

    try:
        for step in steps:
            run_step(walk, step)
    except WalkError as exc:
        print(f"walkthrough stopped: {exc}", file=sys.stderr)
        return 1
    finally:
        finish(walk)
    total = round(time.perf_counter() - began, 1)
    for path in walk.shots:
        print(path)
    line = {"total_s": total, "steps_s": walk.seconds, **summary}
    print(json.dumps(line, ensure_ascii=False))
    return 0


# -- the event loop ------------------------------------------------------------------------
def settle(app, ms: int = 150) -> None:
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()
    app.processEvents()


def wait_until(walk: GuiWalk, done, seconds: float, what: str) -> None:
    """Process events until ``done()`` is true; WalkError after ``seconds`` or on an error box."""
    deadline = time.monotonic() + seconds
    while not done():
        if walk.message_boxes:
            raise WalkError(f"{what}: the app showed an error: {walk.message_boxes[-1]}")
        if time.monotonic() > deadline:
            raise WalkError(f"{what}: not done after {seconds:.0f} s")
        settle(walk.app, 100)


def close_message_boxes(walk: GuiWalk) -> None:
    """A modal error box would stop the walk: record its text and close it."""
    from PySide6.QtWidgets import QApplication, QMessageBox

    modal = QApplication.activeModalWidget()
    if isinstance(modal, QMessageBox):
        text = f"{modal.windowTitle()}: {modal.text()}"
        log.error("message box: %s", text)
        walk.message_boxes.append(text)
        modal.reject()


# -- the user's hands ----------------------------------------------------------------------
@contextlib.contextmanager
def file_picker(walk: GuiWalk):
    """The OS file dialogs answer with the next path in ``walk.picks`` (the user's choice)."""
    from PySide6.QtWidgets import QFileDialog

    def pick_one(*_args, **_kwargs):
        if not walk.picks:
            raise WalkError("a file dialog opened that the walk did not expect")
        return walk.picks.pop(0), ""

    def pick_many(*args, **kwargs):
        path, selected = pick_one(*args, **kwargs)
        return [path], selected

    names = {
        "getOpenFileName": pick_one,
        "getSaveFileName": pick_one,
        "getOpenFileNames": pick_many,
    }
    saved = {name: getattr(QFileDialog, name) for name in names}
    for name, fn in names.items():
        setattr(QFileDialog, name, staticmethod(fn))
    try:
        yield
    finally:
        for name, fn in saved.items():
            setattr(QFileDialog, name, fn)


@contextlib.contextmanager
def input_dialog_answers(walk: GuiWalk, *answers: str):
    """The app's own QInputDialog (a choice from a list) is answered as a user would: each
    time one opens, the next answer is chosen and OK pressed (the dialog itself is real)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QInputDialog

    pending = list(answers)

    def answer() -> None:
        modal = QApplication.activeModalWidget()
        if isinstance(modal, QInputDialog) and pending:
            choice = pending.pop(0)
            if choice not in modal.comboBoxItems():
                walk.message_boxes.append(f"{choice!r} is not offered: {modal.comboBoxItems()}")
                modal.reject()
                return
            modal.setTextValue(choice)
            walk.answered.append(f"{modal.windowTitle()}: {choice}")
            modal.accept()

    timer = QTimer(walk.window)
    timer.setInterval(50)
    timer.timeout.connect(answer)
    timer.start()
    try:
        yield
    finally:
        timer.stop()
        timer.deleteLater()
        if pending:
            raise WalkError(f"the input dialog never asked for {pending}")


def menu_action(window, menu: str, item: str):
    """The QAction behind a menu item (names without the & accelerators)."""

    def plain(text: str) -> str:
        return text.replace("&", "")

    for top in window.menuBar().actions():
        if plain(top.text()) == menu and top.menu() is not None:
            for action in top.menu().actions():
                if plain(action.text()) == item:
                    return action
    raise WalkError(f"no menu item {menu} → {item}")


def trigger(window, menu: str, item: str) -> None:
    action = menu_action(window, menu, item)
    if not action.isEnabled():
        raise WalkError(f"menu item {menu} → {item} is disabled")
    action.trigger()


def button(widget, text: str):
    """The visible push button with this text (accelerator & ignored)."""
    from PySide6.QtWidgets import QAbstractButton

    for candidate in widget.findChildren(QAbstractButton):
        if candidate.text().replace("&", "") == text and candidate.isVisible():
            return candidate
    raise WalkError(f"no button {text!r} in {type(widget).__name__}")


def click(widget) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    if not widget.isEnabled():
        raise WalkError(f"{widget.text() if hasattr(widget, 'text') else widget} is disabled")
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton)


def check(box, on: bool = True) -> None:
    """Tick (or untick) a check box by clicking its indicator: a click at the centre of a
    check box stretched by its layout lands beside its text and changes nothing."""
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    if box.isChecked() != on:
        QTest.mouseClick(
            box,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
            QPoint(8, box.height() // 2),
        )
    if box.isChecked() != on:
        raise WalkError(f"{box.text()!r} did not change")


def choose(combo, data) -> None:
    """Pick the combo entry whose data is ``data``, as a user picking from the list."""
    index = combo.findData(data)
    if index < 0:
        raise WalkError(
            f"{data!r} is not offered ({[combo.itemText(i) for i in range(combo.count())]})"
        )
    combo.setCurrentIndex(index)
    combo.activated.emit(index)


def type_into(line_edit, text: str) -> None:
    """Clear the field and type ``text`` key by key (Bengali as an input method sends it:
    key events carrying the character; QTest.keyClicks handles Latin-1 only)."""
    from PySide6.QtCore import QEvent, Qt
    from PySide6.QtGui import QKeyEvent
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    line_edit.setFocus()
    line_edit.selectAll()
    QTest.keyClick(line_edit, Qt.Key.Key_Delete)
    for char in text:
        if char.isascii():
            QTest.keyClick(line_edit, char)
            continue
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            QApplication.sendEvent(
                line_edit, QKeyEvent(kind, Qt.Key.Key_unknown, Qt.KeyboardModifier.NoModifier, char)
            )
    if line_edit.text() != text:
        raise WalkError(f"typed {text!r}, the field shows {line_edit.text()!r}")


def type_number(spin_box, value) -> None:
    """Select the spin box's text, type ``value`` and press Enter, as a user does: a box
    that refuses typed input, or lets Enter through to the dialog, fails the walk."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    spin_box.setFocus()
    QTest.mouseClick(spin_box.lineEdit(), Qt.MouseButton.LeftButton)
    QTest.keyClick(spin_box, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(spin_box, str(value))
    QTest.keyClick(spin_box, Qt.Key.Key_Return)
    if spin_box.value() != value:
        raise WalkError(f"typed {value!r}, the box holds {spin_box.value()!r}")


def tick(list_widget, values) -> None:
    """Tick exactly these entries of a checkable list (click the check boxes)."""
    from PySide6.QtCore import Qt

    values = set(values)
    found = set()
    for i in range(list_widget.count()):
        item = list_widget.item(i)
        wanted = item.data(Qt.ItemDataRole.UserRole) in values
        found |= {item.data(Qt.ItemDataRole.UserRole)} & values
        item.setCheckState(Qt.CheckState.Checked if wanted else Qt.CheckState.Unchecked)
    if found != values:
        raise WalkError(f"not offered: {sorted(values - found)}")


def click_cell(view, row: int, column: int) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    index = view.model().index(row, column)
    view.scrollTo(index)
    QTest.mouseClick(
        view.viewport(),
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
        view.visualRect(index).center(),
    )


def activate(walk: GuiWalk) -> None:
    """The user clicks into the main window: keyboard shortcuts go to the active window."""
    from PySide6.QtTest import QTest

    walk.window.raise_()
    walk.window.activateWindow()
    if not QTest.qWaitForWindowActive(walk.window, 3000):
        raise WalkError("the main window could not be made active (keyboard shortcuts)")


def show_tab(walk: GuiWalk, title: str) -> None:
    """View → Show <panel> (the Ctrl+number actions)."""
    trigger(walk.window, "View", f"Show {title}")
    settle(walk.app)


# -- pictures ------------------------------------------------------------------------------
def shoot(walk: GuiWalk, name: str, dialog=None, window=None) -> Path:
    """The window as the user sees it (``window``: another top-level window than the main
    one); an open dialog drawn over it where it sits."""
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtGui import QColor, QPainter, QPen

    settle(walk.app, 250)
    picture = (window or walk.window).grab()
    if dialog is not None and dialog.isVisible():
        over = dialog.grab()
        bar = 28  # the dialog's title, as a window manager
        x = max(0, (picture.width() - over.width()) // 2)
        y = max(bar, min(60, picture.height() - over.height()))
        painter = QPainter(picture)
        painter.fillRect(x, y - bar, over.width(), bar, QColor("#3c4a5c"))
        painter.setPen(QColor("white"))
        painter.drawText(
            x + 10,
            y - bar,
            over.width() - 20,
            bar,
            Qt.AlignmentFlag.AlignVCenter,
            dialog.windowTitle(),
        )
        painter.drawPixmap(QPoint(x, y), over)
        painter.setPen(QPen(QColor("#3c4a5c"), 2))
        painter.drawRect(x, y - bar, over.width() - 1, over.height() + bar - 1)
        painter.end()
    path = walk.out / f"{name}.png"
    if not picture.save(str(path), "PNG", 0):  # 0: the smallest PNG
        raise WalkError(f"could not write {path}")
    walk.shots.append(path)
    log.info("wrote %s", path)
    return path
