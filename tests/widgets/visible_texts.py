"""What a person reads on screen: every text of the visible widgets under a top-level window,
and the rule that says which of them are not Bengali.

Read: labels, buttons, group and tab titles, window titles, combo-box items, placeholders,
tooltips, status bar messages, read-only text views, table and tree headers and every cell
(with its tooltip) of every row, the menus of the menu bar, and what painted widgets and
charts draw (``shown_texts``: a chart's titles, axis labels, tick labels, legends and
annotations, read from the figure's artists). A text is *foreign* when, after taking out what
is data (names a person gave: models, corpora, sets, annotators, file paths), key names and
the accepted technical terms, it still has a Latin word or an ASCII digit.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from PySide6.QtCore import QModelIndex, QPoint, Qt
from PySide6.QtGui import QImage, QPainter, QRegion
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QFileDialog,
    QGroupBox,
    QLabel,
    QLineEdit,
    QListView,
    QMenu,
    QMenuBar,
    QPlainTextEdit,
    QStatusBar,
    QTabBar,
    QTableView,
    QTextEdit,
    QTreeView,
    QWidget,
)

# Terms a Bengali interface keeps in Latin letters: metric and method names as papers write
# them, file formats, and the names of tools and keyboards.
TECHNICAL_TERMS = (
    # metrics and statistics as papers write them
    "chrF++ chrF BLEU WER ROUGE-L CBS CCC MAE PPI κ α F1 macro-F1 tanh ln Cx Cy Haldane "
    "Pearson Spearman Kendall "
    # formats, units and file name endings
    "GGUF CSV TSV JSON JSONL PNG SVG PDF XLSX LaTeX upkg sqlite csv json jsonl gguf png svg "
    "pdf tex sha256 NFC API URL GPU CPU GiB MiB json_schema n_gpu_layers Q4_K_M "
    # programs, systems, libraries and model families
    "Upabhasha upabhasha llama.cpp llama-cpp-python nvidia-smi CUDA Metal Vulkan OpenAI Ollama "
    "GPT4All Jan Gemma gemma3 KWallet Keychain Linux macOS Windows"
).split() + [
    "Noto Sans Bengali",
    "SIL Open Font License 1.1",
    "Gemma 3 270M",
    "LM Studio",
    "Hugging Face",
    "GNOME Keyring",
    "Secret Service",
    "Credential Locker",
]
# each language is named in itself in the language menu
LANGUAGE_NAMES = ("English",)
# data that is not a name: version stamps (rubric@hash), hashes and their prefixes, the
# llama.cpp build line, paths (a whole line or an absolute path in one), addresses, commands
# and names to type (quoted), and the logger that wrote a job's log line (a module's name)
DATA_PATTERNS = re.compile(
    r"\S+@[0-9a-f]{8,}\b|\b[0-9a-f]{12,}\b|\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{8,}\b"
    r"|^llama-cpp-python \S+ · .*|\bq\d+\b|^/\S*$|https?://\S+|'[^']*'"
    r"|(?<= )(?:engine|widgets|app)(?:\.\w+)+(?=: )|(?<!\S)/[^\s:]+"
)
KEY_SEQUENCE = re.compile(r"\b(?:Ctrl|Alt|Shift|Meta)\+\S+|\bF\d{1,2}\b")
TAGS = re.compile(r"<[^>]+>")
ENTITY = re.compile(r"&(?:nbsp|amp|lt|gt|quot|#\d+);")
MNEMONIC = re.compile(r"&(?=\S)")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
ASCII_DIGIT = re.compile(r"[0-9]")
# a widget that shows data as it is (the prompt a judge receives) says so with this property
SHOWS_DATA = "shows_data"
CELL_ROLES = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole)


def _plain(text: str) -> str:
    text = ENTITY.sub(" ", TAGS.sub(" ", text)) if "<" in text else text
    return MNEMONIC.sub("", text.split("\t")[0]).strip()


def _model_texts(view: QAbstractItemView) -> Iterable[str]:
    model = view.model()
    if model is None:
        return
    root = QModelIndex()
    for column in range(_columns(model, root)):
        header = model.headerData(column, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole)
        if header is not None and not isinstance(view, QListView):
            yield str(header)
    if isinstance(view, QTableView) and view.verticalHeader().isVisibleTo(view):
        for row in range(model.rowCount(root)):  # row names (dialects, scale points)
            header = model.headerData(row, Qt.Orientation.Vertical, Qt.ItemDataRole.DisplayRole)
            if header is not None:
                yield str(header)
    if isinstance(view.window(), QFileDialog):
        return  # the file list: the names of files on this machine
    queue = [model.index(row, 0, root) for row in range(model.rowCount(root))]
    while queue:  # every row: a wrong word in the last row is as wrong as in the first
        first = queue.pop(0)
        parent = first.parent()
        for column in range(_columns(model, parent)):
            if isinstance(view, QTableView | QTreeView) and _hidden(view, column):
                continue
            cell = model.index(first.row(), column, parent)
            for role in CELL_ROLES:
                value = cell.data(role)
                if isinstance(value, (str, int, float)) and value != "":
                    yield str(value)
        if isinstance(view, QTreeView) and model.hasChildren(first):
            queue += [model.index(r, 0, first) for r in range(model.rowCount(first))]


def _columns(model, parent: QModelIndex) -> int:
    try:
        return model.columnCount(parent)
    except TypeError:  # a list model: its columnCount is private in PySide6
        return 1


def _hidden(view: QTableView | QTreeView, column: int) -> bool:
    return view.isColumnHidden(column)


def _menu_texts(menu: QMenu) -> Iterable[str]:
    yield menu.title()
    for action in menu.actions():
        if action.isSeparator() or not action.isVisible():
            continue
        yield action.text()
        if action.menu() is not None:
            yield from _menu_texts(action.menu())


def widget_texts(widget: QWidget) -> Iterable[str]:
    """The texts ``widget`` itself shows (not its children's)."""
    # through the Qt classes: a subclass may shadow text or title with an attribute
    if isinstance(widget, QLabel):
        yield QLabel.text(widget)
    elif isinstance(widget, QAbstractButton):
        yield QAbstractButton.text(widget)
    elif isinstance(widget, QGroupBox):
        yield QGroupBox.title(widget)
    elif isinstance(widget, QTabBar):
        yield from (widget.tabText(i) for i in range(widget.count()))
    elif isinstance(widget, QComboBox):
        if not widget.isEditable():
            yield from (widget.itemText(i) for i in range(widget.count()))
        elif widget.lineEdit() is not None:
            yield widget.lineEdit().placeholderText()
    elif isinstance(widget, QLineEdit):  # what the product filled in, or its placeholder
        if widget.text() and isinstance(widget.window(), QFileDialog):
            return  # a file's name, as it will be written
        yield widget.text() or widget.placeholderText()
    elif isinstance(widget, (QTextEdit, QPlainTextEdit)):
        if widget.isReadOnly():
            yield widget.toPlainText()
        else:
            yield widget.placeholderText()
    elif isinstance(widget, QAbstractItemView):
        yield from _model_texts(widget)
    elif isinstance(widget, QMenuBar):
        for action in widget.actions():
            if action.menu() is not None:
                yield from _menu_texts(action.menu())
    elif isinstance(widget, QAbstractSpinBox):
        yield QAbstractSpinBox.text(widget)
    elif isinstance(widget, QStatusBar):
        yield widget.currentMessage()
    if widget.toolTip():
        yield widget.toolTip()
    if hasattr(widget, "shown_texts"):  # a chart says what its figure's artists write
        yield from widget.shown_texts()
    elif _paints_itself(widget):
        yield from painted_texts(widget)
    if widget.isWindow():
        yield widget.windowTitle()


def _paints_itself(widget: QWidget) -> bool:
    """The product's own widget that draws with QPainter (a chart, a plot of intervals)."""
    owner = next((c for c in type(widget).__mro__ if "paintEvent" in vars(c)), None)
    return owner is not None and owner.__module__.split(".")[0] in ("widgets", "app")


def painted_texts(widget: QWidget) -> list[str]:
    """What ``widget``'s paintEvent writes: painted into an image while QPainter.drawText
    records the strings it is given."""
    drawn: list[str] = []
    draw_text = QPainter.drawText

    def recording(painter, *args):
        drawn.extend(a for a in args if isinstance(a, str))
        return draw_text(painter, *args)

    image = QImage(max(widget.width(), 1), max(widget.height(), 1), QImage.Format.Format_ARGB32)
    QPainter.drawText = recording  # type: ignore[method-assign]
    try:
        widget.render(image, QPoint(), QRegion(), QWidget.RenderFlag.DrawWindowBackground)
    finally:
        QPainter.drawText = draw_text  # type: ignore[method-assign]
    return drawn


def visible_texts(root: QWidget) -> list[tuple[str, str]]:
    """(where, text) for every non-empty text of ``root`` and its visible descendants."""
    found: list[tuple[str, str]] = []
    widgets = [root, *root.findChildren(QWidget)]
    for widget in widgets:
        if not widget.isVisibleTo(root) and widget is not root:
            continue
        if widget.property(SHOWS_DATA):
            continue
        where = f"{type(widget).__name__}:{widget.objectName()}"
        for text in widget_texts(widget):
            for line in _plain(text or "").splitlines():
                if line.strip():
                    found.append((where, line.strip()))
    return found


class ForeignCheck:
    """Which texts are not Bengali, given the data names that may appear in them."""

    def __init__(self, data: Iterable[str]):
        words = sorted({d for d in data if d and d.strip()} | set(TECHNICAL_TERMS), key=len)
        alternatives = "|".join(re.escape(w) for w in reversed(words))
        self.allowed = re.compile(
            rf"(?<![A-Za-z0-9])(?:{alternatives})(?![A-Za-z0-9])|{KEY_SEQUENCE.pattern}"
        )

    def rest(self, text: str) -> str:
        return self.allowed.sub(" ", text)

    def is_foreign(self, text: str) -> bool:
        if text in LANGUAGE_NAMES:
            return False
        rest = self.rest(DATA_PATTERNS.sub(" ", text))
        return bool(LATIN_WORD.search(rest) or ASCII_DIGIT.search(rest))
