"""The bias panel, its chart and normalisation editor (engine.bias)."""

from __future__ import annotations

from engine.i18n import _
from widgets.common.stage_parts import ImportPage, PanelContext, Panels


def _bias(ctx: PanelContext):
    from widgets.bias.bias_panel import BiasPanel

    bias = BiasPanel(ctx.workspace, ctx.bridge, watcher=ctx.watcher)
    bias.sig_status_message.connect(ctx.status_message)
    bias.sig_import_requested.connect(ctx.open_import)
    return [("bias", _("Social bias"), bias)]


def _probes_page(_dialects: list[dict]):
    from widgets.bias.probe_pages import ProbesPage

    return ProbesPage()


def _templates_page(_dialects: list[dict]):
    from widgets.bias.probe_pages import ProbeTemplatesPage

    return ProbeTemplatesPage()


PANELS = [Panels(80, _bias)]
IMPORT_PAGES = [
    ImportPage(
        20, "probes", lambda: _("Social-bias probes"), lambda: _("Import pro&bes…"), _probes_page
    ),
    ImportPage(
        30,
        "probe-templates",
        lambda: _("Social-bias probes generated from templates"),
        lambda: _("&Generate probes from templates…"),
        _templates_page,
    ),
]
