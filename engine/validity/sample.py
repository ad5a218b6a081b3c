"""The items a suite checks: a seeded sample, per dialect, of the answer pairs a judge run
asked its judge about (pairs the script or refusal gate zeroed never reached the judge)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import Step, UserError, step
from engine.i18n import _
from engine.judging.store import JUDGE_KIND, answer_pairs, primary_judge
from engine.stats.sample import item_rng
from engine.workspace.store import Workspace


@dataclass(frozen=True)
class Item:
    """A judged answer pair and the judge run's verdict on it (its final score)."""

    pair: dict  # a row of engine.judging.store.answer_pairs
    original: float

    @property
    def response_id(self) -> int:
        return int(self.pair["dialect_response_id"])

    @property
    def dialect(self) -> str:
        return str(self.pair["dialect"])

    @property
    def question_id(self) -> int:
        return int(self.pair["question_id"])


def judge_run_id(ws: Workspace, wanted: int | None) -> int:
    """The judge run to check: ``wanted``, else the primary judge's."""
    run_id = primary_judge(ws) if wanted is None else wanted
    if run_id is None:
        raise UserError(
            _("no judge runs yet: judge the answers first ({step})").format(step=step(Step.JUDGE))
        )
    if ws.scalar("SELECT kind FROM runs WHERE id = ?", (run_id,)) != JUDGE_KIND:
        raise UserError(
            _("run {run} is not a judge run ({step} lists them)").format(
                run=run_id, step=step(Step.LIST_JUDGE_RUNS)
            )
        )
    return run_id


def judged_items(ws: Workspace, run_id: int) -> list[Item]:
    """Every pair the run's judge was asked about, with its stored final score."""
    finals = {
        r["response_id"]: r["final"]
        for r in ws.query(
            "SELECT response_id, final FROM judgments "
            "WHERE run_id = ? AND gate = 'ok' AND final IS NOT NULL",
            (run_id,),
        )
    }
    return [
        Item(pair, float(finals[pair["dialect_response_id"]]))
        for pair in answer_pairs(ws)
        if pair["dialect_response_id"] in finals
    ]


def draw(items: list[Item], per_dialect: int, seed: int) -> list[Item]:
    """Up to ``per_dialect`` items of each dialect in a seeded order (by ``sha256(seed,
    response)``), so a larger sample takes a superset and a resumed suite the same items."""
    by_dialect: dict[str, list[Item]] = {}
    for item in items:
        by_dialect.setdefault(item.dialect, []).append(item)
    chosen = []
    for dialect in sorted(by_dialect):
        ranked = sorted(
            by_dialect[dialect], key=lambda i: item_rng(seed, f"r{i.response_id}").random()
        )
        chosen += ranked[:per_dialect]
    return chosen


def other_answer(pool: list[Item], item: Item, seed: int) -> str | None:
    """A dialect answer of the same dialect to another question (seeded), or None."""
    others = sorted(
        (i for i in pool if i.dialect == item.dialect and i.question_id != item.question_id),
        key=lambda i: i.response_id,
    )
    if not others:
        return None
    chosen = item_rng(seed, f"other:r{item.response_id}").choice(others)
    return str(chosen.pair["dialect_answer"])
