"""The tasks panel and its failure bars (engine.understanding)."""

from __future__ import annotations

from engine.i18n import _
from widgets.common.stage_parts import ImportPage, PanelContext, Panels


def _tasks(ctx: PanelContext):
    from widgets.understanding.tasks_panel import TasksPanel

    tasks = TasksPanel(ctx.workspace, ctx.bridge, watcher=ctx.watcher)
    tasks.sig_status_message.connect(ctx.status_message)
    tasks.sig_import_requested.connect(ctx.open_import)
    ctx.while_alive(tasks, ctx.study.sig_imported, lambda _report: tasks.refresh_options())
    return [("tasks", _("Tasks"), tasks)]


def _items_page(dialects: list[dict]):
    from widgets.understanding.items_page import ItemsPage

    return ItemsPage(dialects)


PANELS = [Panels(60, _tasks)]
IMPORT_PAGES = [
    ImportPage(
        10,
        "items",
        lambda: _("Item set for understanding tasks"),
        lambda: _("Import ite&m set for tasks…"),
        _items_page,
    )
]
