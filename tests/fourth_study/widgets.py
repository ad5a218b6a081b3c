"""The field-notes study's panel and import page, declared as every stage's are."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from tests.fourth_study.notes import count_notes, import_notes_file
from widgets.common.import_page import StudyPage
from widgets.common.stage_parts import ImportPage, PanelContext, Panels
from widgets.common.workspace_watcher import follow


class NotesPanel(QLabel):
    def __init__(self, ctx: PanelContext):
        super().__init__()
        self.ws = ctx.workspace
        self.refresh()
        follow(self, self.refresh, ctx.watcher, "field_notes")

    def refresh(self) -> None:
        self.setText(f"{count_notes(self.ws)} notes")


class NotesPage(StudyPage):
    kind = "notes"
    needs_columns = False
    run = staticmethod(import_notes_file)
    describe = staticmethod(lambda report: [f"{report['name']}: {report['inserted']} notes"])

    def __init__(self, _dialects: list[dict]):
        super().__init__("Import field notes")

    def apply_guess(self, columns: list[str]) -> None:
        pass  # a text file: no columns

    def options(self) -> dict:
        return {}

    def ready(self, columns: list[str]) -> bool:
        return True


PANELS = [Panels(130, lambda ctx: [("notes", "Field notes", NotesPanel(ctx))])]
IMPORT_PAGES = [
    ImportPage(50, "notes", lambda: "Field notes", lambda: "Import field &notes…", NotesPage)
]
