"""The judge-validity panel and its card table (engine.validity)."""

from __future__ import annotations

from engine.i18n import _
from widgets.common.stage_parts import PanelContext, Panels, StudyEntry


def _validity(ctx: PanelContext):
    from widgets.validity.validity_panel import ValidityPanel

    validity = ValidityPanel(ctx.workspace, ctx.bridge, watcher=ctx.watcher)
    validity.sig_status_message.connect(ctx.status_message)
    return [("validity", _("Judge validity"), validity)]


PANELS = [Panels(110, _validity)]
IMPORT_PAGES: list = []
STUDY_ENTRIES = [
    StudyEntry(35, lambda: _("Judge &validity…"), lambda _study, show: show("validity"))
]
