"""Judging widgets: the judge panel, its rubric editor and the answers browser
(engine.judging)."""

from __future__ import annotations

from engine.i18n import _
from widgets.common.stage_parts import PanelContext, Panels, StudyEntry


def _answers_and_judge(ctx: PanelContext):
    from widgets.common.workspace_watcher import on
    from widgets.judging.answers_panel import AnswersPanel
    from widgets.judging.judge_panel import JudgePanel

    answers = AnswersPanel(
        ctx.workspace, ctx.bridge, annotator=ctx.settings.reviewer_name, watcher=ctx.watcher
    )
    judge = JudgePanel(ctx.workspace, ctx.bridge)
    for panel in (answers, judge):
        panel.sig_status_message.connect(ctx.status_message)
        panel.sig_changed.connect(ctx.watcher.check_now)
    # judge runs, roles, a finished run; the models; the human-scored count
    on(judge, judge.refresh, ctx.watcher, "runs", "models", "annotations")
    return [("answers", _("Answers"), answers), ("judge", _("Judge"), judge)]


PANELS = [Panels(30, _answers_and_judge)]
IMPORT_PAGES: list = []
STUDY_ENTRIES = [StudyEntry(30, lambda: _("&Judge…"), lambda _study, show: show("judge"))]
