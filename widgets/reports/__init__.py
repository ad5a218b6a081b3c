"""The charts panel and its renderer (engine.reports)."""

from __future__ import annotations

from engine.i18n import _
from widgets.common.stage_parts import PanelContext, Panels, StudyEntry


def _charts(ctx: PanelContext):
    from widgets.reports.charts_panel import ChartsPanel

    charts = ChartsPanel(ctx.workspace, ctx.bridge, watcher=ctx.watcher)
    charts.sig_status_message.connect(ctx.status_message)
    return [("charts", _("Charts"), charts)]


PANELS = [Panels(50, _charts)]
IMPORT_PAGES: list = []
STUDY_ENTRIES = [StudyEntry(40, lambda: _("&Charts"), lambda _study, show: show("charts"))]
