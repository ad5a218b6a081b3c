"""The models panel (engine.llm)."""

from __future__ import annotations

from engine.i18n import _
from widgets.common.stage_parts import PanelContext, Panels


def _models(ctx: PanelContext):
    from widgets.llm.models_panel import ModelsPanel

    models = ModelsPanel(
        ctx.workspace, ctx.bridge, watcher=ctx.watcher, model_folders=ctx.settings.model_folders
    )
    models.sig_status_message.connect(ctx.status_message)
    models.sig_model_folders_changed.connect(lambda folders: _remember_folders(ctx, folders))
    models.sig_changed.connect(ctx.watcher.check_now)
    return [("models", _("Models"), models)]


def _remember_folders(ctx: PanelContext, folders: list[str]) -> None:
    ctx.settings.model_folders = list(folders)
    ctx.save_settings()


PANELS = [Panels(20, _models)]
IMPORT_PAGES: list = []
