"""Human annotation widgets: the annotation, adjudication and agreement panels
(engine.annotation)."""

from __future__ import annotations

from engine.i18n import _
from widgets.common.stage_parts import PanelContext, Panels


def _annotation(ctx: PanelContext):
    from engine.annotation.api import WorkspaceQueue
    from widgets.annotation.adjudication_panel import AdjudicationPanel
    from widgets.annotation.agreement_panel import AgreementPanel
    from widgets.annotation.annotation_panel import ORIGIN, AnnotationPanel
    from widgets.annotation.setup import AnnotationSetup
    from widgets.common.workspace_watcher import follow, on

    actions, ws, reviewer = ctx.annotation, ctx.workspace, ctx.settings.reviewer_name
    setup = AnnotationSetup(ws, bridge=ctx.bridge)
    setup.answer_imports(actions.import_packages)
    setup.sig_status_message.connect(lambda text: ctx.status(text, 8000))
    setup.sig_changed.connect(actions.sig_changed)
    annotation = AnnotationPanel(WorkspaceQueue(ws), annotator=reviewer, setup=setup)
    setup.setParent(annotation)  # goes with the panels when the workspace closes
    adjudication = AdjudicationPanel(ws, adjudicator=reviewer, setup=setup)
    agreement = AgreementPanel(ws, ctx.bridge, setup=setup)
    # a decision's notice reaches adjudication and agreement at once
    annotation.sig_decided.connect(lambda item: ctx.watcher.notify(ORIGIN, ids=(item,)))
    setup.sig_changed.connect(adjudication.mark_dirty)
    adjudication.sig_changed.connect(actions.sig_changed)
    adjudication.sig_changed.connect(lambda: ctx.watcher.notify("adjudication"))  # gold texts
    # the adjudicator is the window's one person, remembered as the review panel's name is
    adjudication.adjudicator.editingFinished.connect(
        lambda: ctx.reviewer_changed(adjudication.adjudicator.text().strip())
    )
    # writes elsewhere (a dialog, a merged package, adjudication, the CLI): at their notice,
    # or one watcher tick later
    follow(annotation, annotation.reload_annotators, ctx.watcher, "annotators")
    follow(annotation, annotation.on_change, ctx.watcher, "assignments", "decisions", notice=True)
    on(adjudication, adjudication.mark_dirty, ctx.watcher, "decisions", "assignments")
    on(agreement, agreement.mark_stale, ctx.watcher, "decisions", "assignments")
    for panel in (annotation, adjudication, agreement):
        panel.sig_status_message.connect(lambda text: ctx.status(text, 6000))
    return [
        ("annotation", _("Annotation"), annotation),
        ("adjudication", _("Adjudication"), adjudication),
        ("agreement", _("Agreement"), agreement),
    ]


PANELS = [Panels(100, _annotation)]
IMPORT_PAGES: list = []
