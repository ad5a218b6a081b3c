"""The side-by-side answers table as a Qt model over answer (response) ids, fetched lazily.

The model holds only the ids (a filter result, ascending, in a compact array: the whole
study may be listed) and the judge run whose verdicts it shows; an answer that judge has
not scored yet shows empty judgment columns. ``canFetchMore`` / ``fetchMore`` grow the row
count in blocks as the view scrolls, a jump (to the end, to a chosen answer) grows it in
one step, and the rows' contents are read in blocks of the same size when first painted
and cached; ``invalidate`` drops the cache (an override, a live update) so only rows on
screen are read again (docs/design.md, house style 6).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from engine.i18n import _, digits
from engine.judging.api import answer_rows
from engine.text.text_rules import visible
from engine.workspace.api import Workspace
from widgets.common.labels import dialect_of, label

FETCH_BLOCK = 200
JUDGMENT_ID_ROLE = Qt.ItemDataRole.UserRole + 1  # None: not judged yet


def columns() -> list[tuple[str, str]]:
    return [
        ("model", _("Model")),
        ("dialect", _("Dialect")),
        ("question", _("Question")),
        ("final", _("Score")),
        ("gap", _("Gap")),
        ("confidence", _("Confidence")),
        ("gate", _("Script/refusal")),
        ("human", _("Human")),
    ]


def score_colour(score: float | None, max_score: float = 10.0) -> QColor | None:
    """Pale red (large loss) to pale green (no loss); light, so black text stays readable."""
    if score is None:
        return None
    share = max(0.0, min(1.0, score / max_score))
    return QColor.fromHsvF(share * 0.33, 0.28, 1.0)


class AnswersTableModel(QAbstractTableModel):
    def __init__(
        self,
        workspace: Workspace,
        *,
        max_score: float = 10.0,
        review_threshold: int = 3,
        parent=None,
    ):
        super().__init__(parent)
        self.ws = workspace
        self.max_score = max_score
        self.review_threshold = review_threshold
        self.ids = array("q")
        self.judge_run: int | None = None  # None: the primary judge
        self.loaded = 0
        self.cache: dict[int, dict] = {}
        self.columns = columns()

    # -- ids -------------------------------------------------------------------------------
    def set_ids(self, ids: Iterable[int], judge_run: int | None = None) -> None:
        """``ids`` ascend (as the filter returns them); an array is kept as it is."""
        self.beginResetModel()
        self.ids = ids if isinstance(ids, array) else array("q", ids)
        self.judge_run = judge_run
        self.loaded = min(FETCH_BLOCK, len(self.ids))
        self.cache.clear()
        self.endResetModel()

    def complete_ids(self, ids: Iterable[int]) -> bool:
        """The whole filter result after its first rows were set: taken without a reset
        (the view keeps its place and selection) when it begins with the listed ids."""
        whole = ids if isinstance(ids, array) else array("q", ids)
        if whole[: len(self.ids)] != self.ids:
            return False
        self.ids = whole
        return True

    @property
    def last_id(self) -> int:
        """The newest answer id listed (ids ascend, as the filter returns them)."""
        return self.ids[-1] if self.ids else 0

    def append_ids(self, ids: list[int]) -> None:
        """Answers that arrived since (live run); shown at once if the view reached the end.
        ``ids`` ascend; those not above :attr:`last_id` are already listed (a full filter
        may have returned them first). Costs the new rows, not the list: at ten times the
        paper's study a set of the listed ids stalled the GUI thread at every update."""
        last = self.last_id
        fresh = [i for i in ids if i > last]
        if not fresh:
            return
        at_end = self.loaded == len(self.ids)
        self.ids.extend(fresh)
        if at_end:
            count = min(FETCH_BLOCK, len(fresh))
            self.beginInsertRows(QModelIndex(), self.loaded, self.loaded + count - 1)
            self.loaded += count
            self.endInsertRows()

    def invalidate(self, answer_id: int | None = None) -> None:
        """Forget cached contents (one row or all) and repaint; they are read again."""
        if answer_id is None:
            self.cache.clear()
            if self.loaded:
                self.dataChanged.emit(
                    self.index(0, 0), self.index(self.loaded - 1, len(self.columns) - 1)
                )
            return
        self.cache.pop(answer_id, None)
        row = self.row_of(answer_id)
        if row is not None:
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.columns) - 1))

    def canFetchMore(self, parent=QModelIndex()) -> bool:
        return not parent.isValid() and self.loaded < len(self.ids)

    def fetchMore(self, parent=QModelIndex()) -> None:
        count = min(FETCH_BLOCK, len(self.ids) - self.loaded)
        if parent.isValid() or count <= 0:
            return
        self.beginInsertRows(QModelIndex(), self.loaded, self.loaded + count - 1)
        self.loaded += count
        self.endInsertRows()

    def ensure_loaded(self, row: int) -> None:
        """Rows up to the block holding ``row`` (at most the last), in one insertion."""
        end = min(len(self.ids), (row // FETCH_BLOCK + 1) * FETCH_BLOCK)
        if end <= self.loaded:
            return
        self.beginInsertRows(QModelIndex(), self.loaded, end - 1)
        self.loaded = end
        self.endInsertRows()

    def id_at(self, row: int) -> int | None:
        return self.ids[row] if 0 <= row < self.loaded else None

    def judgment_at(self, row: int) -> int | None:
        data = self.row_data(row)
        return data["judgment_id"] if data else None

    def index_of(self, answer_id: int) -> int | None:
        """The row ``answer_id`` has in the list, fetched yet or not (None: not listed)."""
        row = bisect_left(self.ids, answer_id)
        return row if row < len(self.ids) and self.ids[row] == answer_id else None

    def row_of(self, answer_id: int) -> int | None:
        """The row of ``answer_id`` if it is fetched."""
        row = self.index_of(answer_id)
        return row if row is not None and row < self.loaded else None

    def row_data(self, row: int) -> dict | None:
        answer_id = self.id_at(row)
        if answer_id is None:
            return None
        if answer_id not in self.cache:
            start = row - row % FETCH_BLOCK
            block = [i for i in self.ids[start : start + FETCH_BLOCK] if i not in self.cache]
            self.cache.update(answer_rows(self.ws, block, self.judge_run))
        return self.cache.get(answer_id)

    # -- Qt model API ----------------------------------------------------------------------
    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else self.loaded

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation, role=Qt.ItemDataRole.DisplayRole):
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return self.columns[section][1]
        return digits(str(section + 1))

    def data(self, index: QModelIndex | QPersistentModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row = self.row_data(index.row())
        if row is None:
            return None
        key = self.columns[index.column()][0]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(row, key)
        if role == Qt.ItemDataRole.BackgroundRole and key in ("final", "gap"):
            colour = score_colour(row["final"], self.max_score)
            return QBrush(colour) if colour is not None else None
        if role == Qt.ItemDataRole.ForegroundRole and key in ("final", "gap"):
            return QBrush(QColor("#1a1a1a"))
        if role == Qt.ItemDataRole.ToolTipRole and key == "question":
            return visible(row["question"] or "")
        if role == Qt.ItemDataRole.TextAlignmentRole and key in ("final", "gap", "confidence"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == JUDGMENT_ID_ROLE:
            return row["judgment_id"]
        return None

    def _display(self, row: dict, key: str):
        if key == "question":
            question = visible(row["question"] or "")
            return f"{row['ext_id']}  {question}" if row["ext_id"] else question
        if key == "domain":
            return label("domain", row.get("domain"))
        if key == "final":
            return digits(f"{row['final']:.1f}") if row["final"] is not None else "—"
        if key == "gap":
            return (
                digits(f"{self.max_score - row['final']:.1f}") if row["final"] is not None else "—"
            )
        if key == "confidence":
            if row["confidence"] is None:
                return "—"
            low = row["confidence"] <= self.review_threshold and row["human_final"] is None
            return digits(row["confidence"]) + (" ⚑" if low else "")
        if key == "gate":
            if row["gate"] is None:
                return ""
            return {"ok": _("ok"), "script": _("not Bengali"), "refusal": _("refusal")}.get(
                row["gate"], row["gate"]
            )
        if key == "dialect":
            return dialect_of(
                {
                    "code": row["dialect"],
                    "name_en": row["dialect_en"],
                    "name_bn": row.get("dialect_bn"),
                },
                code=False,
            )
        if key == "human":
            return digits(f"{row['human_final']:.1f}") if row["human_final"] is not None else ""
        return row.get(key)
