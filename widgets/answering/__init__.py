"""The generate dialog (engine.answering)."""

from __future__ import annotations

from engine.i18n import _
from widgets.common.stage_parts import StudyEntry

STUDY_ENTRIES = [
    StudyEntry(20, lambda: _("&Generate answers…"), lambda study, _show: study.generate_dialog())
]
