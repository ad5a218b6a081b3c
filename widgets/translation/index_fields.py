"""IndexFields: the retrieval index a translation's exemplars come from, as the fields of its
request (corpora, indexed splits, encoder folder), the request's defaults shown.

The translate dialog and the held-out evaluation both carry one, so the desktop chooses the
index as ``upabhasha translate`` and ``eval-translation`` do with ``--corpus``, ``--splits``
and ``--encoder``.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QLineEdit,
    QPushButton,
    QWidget,
)

from engine.i18n import _
from engine.translation.api import TranslateRequest
from widgets.common.dialog_parts import checkable_list, checked_data, in_a_row
from widgets.common.labels import label

# the splits offered for the index; the held-out ones are never indexed
OFFERED_SPLITS = ("train", "test")


class IndexFields(QGroupBox):
    def __init__(self, corpora: list[str], parent: QWidget | None = None):
        super().__init__(_("Retrieval index"), parent)
        self.corpora = checkable_list(
            [(name, name, name in TranslateRequest.corpora) for name in corpora]
        )
        self.corpora.setMaximumHeight(64)
        self.splits = {s: QCheckBox(label("split", s)) for s in OFFERED_SPLITS}
        for split, box in self.splits.items():
            box.setChecked(split in TranslateRequest.splits)
        self.encoder = QLineEdit(TranslateRequest.encoder or "")
        self.encoder.setPlaceholderText(_("the bundled English MiniLM"))
        self.choose = QPushButton(_("Choose…"))
        self.choose.clicked.connect(self._choose_encoder)
        form = QFormLayout(self)
        form.addRow(_("Corpora (none ticked: every corpus)"), self.corpora)
        form.addRow(_("Indexed splits"), in_a_row(*self.splits.values()))
        form.addRow(_("Encoder folder"), in_a_row(self.encoder, self.choose))
        self.encoder.setMinimumWidth(240)

    def values(self) -> dict:
        """The request fields these controls set."""
        return {
            "corpora": tuple(checked_data(self.corpora)),
            "splits": tuple(s for s, box in self.splits.items() if box.isChecked()),
            "encoder": self.encoder.text().strip() or None,
        }

    def _choose_encoder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, _("Sentence encoder folder"))
        if folder:
            self.encoder.setText(folder)
