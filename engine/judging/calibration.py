"""Judge calibration before a full run: score the human-scored items with a candidate judge
and compare with the humans (CCC, MAE, Pearson, Spearman, CBS with the human as the
reference, and a confusion table over score bands).

Human-scored items are dialect answers whose judgment carries a human override (any judge
run). The candidate judge's run is an ordinary judge run restricted to those answers, so
its verdicts are kept and a later full run resumes from them.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import Step, UserError, step
from engine.judging.run import JudgeSummary, judge_answers
from engine.stats.agreement import Agreement, agreement
from engine.workspace.store import Workspace

BANDS = (0.0, 2.0, 4.0, 6.0, 8.0, 10.0)  # [0,2) [2,4) [4,6) [6,8) [8,10]


def human_scores(ws: Workspace) -> dict[int, float]:
    """Dialect response id → the newest human final score over all its judgments."""
    rows = ws.query("""
        SELECT j.response_id, ha.score FROM human_annotations ha
        JOIN judgments j ON j.id = ha.target_id
        WHERE ha.target = 'judgment' AND ha.score IS NOT NULL ORDER BY ha.id""")
    return {r["response_id"]: r["score"] for r in rows}


def band(score: float, bands=BANDS) -> int:
    for i in range(len(bands) - 2, -1, -1):
        if score >= bands[i]:
            return i
    return 0


def band_labels(bands=BANDS) -> list[str]:
    return [f"{bands[i]:g}-{bands[i + 1]:g}" for i in range(len(bands) - 1)]


def confusion(human: list[float], judge: list[float], bands=BANDS) -> list[list[int]]:
    """Rows: human band; columns: judge band."""
    k = len(bands) - 1
    table = [[0] * k for _ in range(k)]
    for h, j in zip(human, judge):
        table[band(h, bands)][band(j, bands)] += 1
    return table


@dataclass(frozen=True)
class CalibrateResult:
    """The candidate judge against the humans: its run, the agreement figures over the
    items both scored, the confusion table of score bands (rows: human, columns: judge)."""

    judge_run: int
    judge_model: str
    n_human_scored: int
    figures: Agreement
    bands: tuple[str, ...]
    confusion: tuple[tuple[int, ...], ...]
    judge: JudgeSummary
    note: str | None  # the figures rest on few items

    def as_dict(self) -> dict:
        return {
            "judge_run": self.judge_run,
            "judge_model": self.judge_model,
            "n_human_scored": self.n_human_scored,
            **self.figures.as_dict(),
            "bands": list(self.bands),
            "confusion": [list(row) for row in self.confusion],
            "judge": self.judge.as_dict(),
            "note": self.note,
        }


def calibrate(
    ws: Workspace,
    judge_model: dict,
    *,
    danger_threshold: float = 4.0,
    progress=None,
    cancelled=None,
    **judge_options,
) -> CalibrateResult:
    humans = human_scores(ws)
    if not humans:
        raise UserError(
            "no human-scored items yet: override some judgments first "
            f"({step(Step.QUEUE)}, then {step(Step.OVERRIDE)})"
        )
    summary = judge_answers(
        ws,
        judge_model,
        only_response_ids=set(humans),
        progress=progress,
        cancelled=cancelled,
        **judge_options,
    )
    machine = {
        r["response_id"]: r["final"]
        for r in ws.query(
            "SELECT response_id, final FROM judgments WHERE run_id = ? AND final IS NOT NULL",
            (summary.run_id,),
        )
    }
    shared = sorted(set(humans) & set(machine))
    h = [humans[k] for k in shared]
    m = [machine[k] for k in shared]
    return CalibrateResult(
        judge_run=summary.run_id,
        judge_model=judge_model["name"],
        n_human_scored=len(humans),
        figures=agreement(h, m, threshold=danger_threshold),
        bands=tuple(band_labels()),
        confusion=tuple(map(tuple, confusion(h, m))),
        judge=summary,
        note=None
        if len(shared) >= 30
        else f"only {len(shared)} human-scored items: treat these figures as indicative",
    )
