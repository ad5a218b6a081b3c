"""Translation widgets: the translate dialog, the review grid and the metrics panel
(engine.translation)."""

from __future__ import annotations

from engine.i18n import _
from widgets.common.stage_parts import ImportPage, PanelContext, Panels, StudyEntry


def _review(ctx: PanelContext):
    from widgets.common.workspace_watcher import follow
    from widgets.translation.review_panel import ReviewPanel

    review = ReviewPanel(
        ctx.workspace,
        reviewer=ctx.settings.reviewer_name,
        avro_mode=ctx.settings.avro_mode,
        bridge=ctx.bridge,
    )
    review.sig_reviewer_changed.connect(ctx.reviewer_changed)
    review.sig_avro_mode_changed.connect(lambda on: _remember(ctx, "avro_mode", on))
    review.sig_status_message.connect(ctx.status_message)
    # the others follow its writes at once
    review.sig_changed.connect(lambda variant: ctx.watcher.notify("review", ids=(variant,)))
    # one notice for every writer: a translation job, adjudication, an import, the CLI
    follow(review, review.on_change, ctx.watcher, "variants", "questions", notice=True)
    return [("review", _("Review translations"), review)]


def _remember(ctx: PanelContext, name: str, value: object) -> None:
    setattr(ctx.settings, name, value)
    ctx.save_settings()


def _metrics(ctx: PanelContext):
    from widgets.translation.metrics_panel import MetricsPanel

    metrics = MetricsPanel(ctx.workspace, ctx.bridge)
    metrics.sig_import_requested.connect(ctx.open_import)
    ctx.while_alive(metrics, ctx.study.sig_imported, lambda _report: metrics.refresh())
    return [("metrics", _("Metrics vs humans"), metrics)]


def _scored_page(dialects: list[dict]):
    from widgets.translation.scored_page import ScoredPage

    return ScoredPage(dialects)


PANELS = [Panels(10, _review), Panels(90, _metrics)]
IMPORT_PAGES = [
    ImportPage(
        40,
        "scored",  # scored_page.SCORED
        lambda: _("Scored translations (metrics vs humans)"),
        lambda: _("Import scored tr&anslations…"),
        _scored_page,
    )
]
STUDY_ENTRIES = [
    StudyEntry(
        10, lambda: _("&Translate questions…"), lambda study, _show: study.translate_dialog()
    )
]
