"""The results of task runs: metrics (macro over dialects and per dialect), the copy-input
baseline, failure rates, the taxonomy, the zero→few flip rate and the native−Romanized gap.

Everything is recomputed from the stored outputs (``responses``) and what each item was
shown (``task_run_items``), so a changed parser or threshold rescores old runs. An output
that could not be parsed is scored as an empty hypothesis: it counts against the system.
"""

from __future__ import annotations

import json
import logging
from collections import defaultdict
from dataclasses import dataclass
from typing import Any, ClassVar, NotRequired, TypedDict

import numpy as np

from engine.i18n import N_, _
from engine.stats.settings import StatSettings
from engine.text.textnorm import DEFAULT_NORMALIZATION, normalized_for_metrics
from engine.understanding import failures as fl
from engine.understanding.fertility import fertility
from engine.understanding.items import load_items
from engine.understanding.metrics import (
    BatchScorer,
    classification_scores,
    corpus_text_scores,
    macro_chrf_ci,
)
from engine.understanding.parsing import Parsed, parse_output
from engine.understanding.run import TASK_KIND_PREFIX
from engine.understanding.scripts import cer, to_bengali
from engine.understanding.task_spec import TaskSpec, get_task
from engine.workspace.store import Workspace

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TaskStatsSettings(StatSettings):
    """The bootstrap of the task results (the macro chrF++ interval over items, the
    native − Romanized gap): ``upabhasha task-stats`` and the Tasks panel read these defaults,
    so one run shows one interval everywhere."""

    WHAT: ClassVar[str] = N_("task statistics")
    seed: int = 0
    resamples: int = 2000
    level: float = 0.95

    def __post_init__(self) -> None:
        self.check_seed()
        self.check_resamples()
        self.check_between("level", 0, 1)

    @classmethod
    def of(cls, report: dict) -> TaskStatsSettings:
        """The settings a :func:`task_stats` report was computed with."""
        return cls(**report["settings"])

    def interval_note(self) -> str:
        """What the intervals are, in the interface language (the CLI and the panel)."""
        return _(
            "{level}% bootstrap confidence interval over items, {resamples} resamples, seed {seed}"
        ).format(level=round(100 * self.level), resamples=self.resamples, seed=self.seed)


TASK_STATS = TaskStatsSettings()

# what a run's macro score averages over (``macro_over`` of its result)
MACRO_OVER = ("dialects", "labels")


def macro_words(macro_over: str) -> str:
    """A run's macro score named by what it is over, in the interface language: the mean of
    the per-dialect scores, or, where the label is the dialect (each dialect holds a single
    gold class), the classification scores over the labels on all items."""
    return {"dialects": _("macro over dialects"), "labels": _("macro over labels")}[macro_over]


def macro_note(macro_over: str) -> str:
    """Why the macro score is over what it is, for a run's breakdown."""
    return {
        "dialects": _("the macro score is the mean of the scores per dialect"),
        "labels": _(
            "the label is the dialect, so each dialect holds a single class: the macro score "
            "is over the labels on all items, not a mean over dialects"
        ),
    }[macro_over]


def _runs(ws: Workspace, task: str | None) -> list[dict]:
    rows = ws.query(
        "SELECT r.id, r.kind, r.card, m.name AS model FROM runs r "
        "LEFT JOIN models m ON m.id = r.model_id WHERE r.kind LIKE ? ORDER BY r.id",
        (TASK_KIND_PREFIX + (task or "%"),),
    )
    for row in rows:
        row["card"] = json.loads(row["card"])
    return rows


def _outputs(ws: Workspace, run_id: int) -> list[dict]:
    rows = ws.query(
        "SELECT t.*, s.text AS output FROM task_run_items t JOIN responses s "
        "ON s.run_id = t.run_id AND s.item_key = t.item_key AND s.status = 'done' "
        "WHERE t.run_id = ? ORDER BY t.dialect, t.item_key",
        (run_id,),
    )
    for row in rows:
        row["refs"] = json.loads(row["refs"])
        row["demo_ids"] = json.loads(row["demo_ids"])
    return rows


def _macro(per_dialect: dict[str, dict], keys) -> dict:
    """The mean over dialects of each score, over the dialects where it is defined."""
    out: dict = {}
    for k in keys:
        values = [d[k] for d in per_dialect.values() if d.get(k) is not None]
        out[k] = float(np.mean(values)) if values else None
    return out


def _undefined_over_dialects(per_dialect: dict[str, dict], keys) -> dict[str, str]:
    """Why a macro over dialects has no value, or which dialects its mean leaves out."""
    reasons: dict[str, str] = {}
    for k in keys:
        missing = [d for d, e in per_dialect.items() if k in e and e[k] is None]
        if not missing:
            continue
        why = "; ".join(f"{d}: {per_dialect[d]['undefined'].get(k, '')}" for d in missing)
        whole = len(missing) == len(per_dialect)
        reasons[k] = why + ("" if whole else " (left out of the mean over dialects)")
    return reasons


def score_run(
    spec: TaskSpec,
    card: dict,
    rows: list[dict],
    scorer: BatchScorer,
    demo_refs: dict[str, list[str]],
    settings: TaskStatsSettings = TASK_STATS,
) -> dict:
    regime, labels = card["regime"], card.get("labels") or []
    # runs before --normalize existed were scored on NFC text
    normalize = card.get("normalize", DEFAULT_NORMALIZATION)
    parsed = [parse_output(r["output"], spec, regime, labels, normalize=normalize) for r in rows]
    by_dialect: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(rows):
        by_dialect[r["dialect"]].append(i)
    result: dict = {
        "n": len(rows),
        "normalize": normalize,
        "failures": fl.rates(parsed, spec.target_script),
        "per_dialect": {},
    }
    items: dict[str, dict] = {}
    result["warnings"] = sample_warnings(spec, card, rows, labels)
    if spec.classification:
        for d, idx in sorted(by_dialect.items()):
            result["per_dialect"][d] = classification_scores(
                [rows[i]["label"] for i in idx],
                [parsed[i].answer if parsed[i].ok else None for i in idx],
                labels,
            ) | {"failures": fl.rates([parsed[i] for i in idx])}
        result["overall"] = classification_scores(
            [r["label"] for r in rows], [p.answer if p.ok else None for p in parsed], labels
        )
        if spec.labels_from == "dialects":
            # the label is the dialect: within one dialect there is a single gold class, so
            # the scores are macro over labels on all items, not averaged over dialects
            result["macro"] = {k: result["overall"][k] for k in spec.metrics} | {
                "scale": "0-1",
                "macro_over": "labels",
            }
            undefined = {
                k: v for k, v in result["overall"]["undefined"].items() if k in spec.metrics
            }
        else:
            result["macro"] = _macro(result["per_dialect"], spec.metrics) | {
                "scale": "0-1",
                "macro_over": "dialects",
            }
            undefined = _undefined_over_dialects(result["per_dialect"], spec.metrics)
        # a score without a value, or a mean that leaves labels out, says why (the value
        # null in JSON, empty in CSV, "undefined" in text)
        result["undefined"] = undefined
        for r, p in zip(rows, parsed):
            correct = p.ok and p.answer == r["label"]
            items[r["item_key"]] = {
                "score": 100.0 * correct,
                "correct": correct,
                "unrelated": not correct,
            }
        result["items"] = items
        return result
    hyps = [normalized_for_metrics(p.answer, normalize) if p.ok else "" for p in parsed]
    refs = [[normalized_for_metrics(t, normalize) for t in r["refs"]] for r in rows]
    chrf = scorer.score(hyps, refs, bleu=False)["chrf++"]
    categories = [fl.taxonomy(c, p) for c, p in zip(chrf, parsed)]
    demo_pairs = [(i, d) for i, r in enumerate(rows) for d in r["demo_ids"] if d in demo_refs]
    demo_chrf = (
        scorer.score(
            [hyps[i] for i, _ in demo_pairs], [demo_refs[d] for _, d in demo_pairs], bleu=False
        )["chrf++"]
        if demo_pairs
        else np.zeros(0)
    )
    closer_to_demo = defaultdict(bool)
    for (i, _demo), value in zip(demo_pairs, demo_chrf):
        if parsed[i].ok and value > chrf[i]:
            closer_to_demo[i] = True
    metric_keys = [*spec.metrics]
    copy_keys = [k for k in metric_keys]
    copy_na = copy_not_applicable(card["script"], spec.target_script)
    for d, idx in sorted(by_dialect.items()):
        entry = corpus_text_scores(
            [hyps[i] for i in idx], [refs[i] for i in idx], normalize=normalize
        )
        entry["failures"] = fl.rates([parsed[i] for i in idx], spec.target_script)
        entry["taxonomy"] = fl.taxonomy_shares([categories[i] for i in idx])
        if spec.copy_baseline and not copy_na:
            entry["copy_baseline"] = {
                k: v
                for k, v in corpus_text_scores(
                    [rows[i]["input_text"] for i in idx],
                    [refs[i] for i in idx],
                    normalize=normalize,
                ).items()
                if k in copy_keys
            }
        result["per_dialect"][d] = entry
    result["chrf_macro_ci"] = macro_chrf_ci(
        hyps,
        refs,
        [r["dialect"] for r in rows],
        resamples=settings.resamples,
        level=settings.level,
        seed=settings.seed,
    )
    result["macro"] = _macro(result["per_dialect"], metric_keys) | {
        "scale": "0-100",
        "macro_over": "dialects",
    }
    if spec.copy_baseline and copy_na:
        result["copy_baseline_not_applicable"] = copy_na
    elif spec.copy_baseline:
        result["copy_baseline_macro"] = {
            k: float(np.mean([e["copy_baseline"][k] for e in result["per_dialect"].values()]))
            for k in copy_keys
        }
    result["signatures"] = next(iter(result["per_dialect"].values()))["signatures"]
    result["lexical_divergence"] = _divergence(rows, refs, chrf, scorer)
    if card["script"] == "roman" and card.get("scheme"):
        result["round_trip"] = _round_trip(rows, card["scheme"])
    result["taxonomy"] = fl.taxonomy_shares(categories)
    for i, r in enumerate(rows):
        items[r["item_key"]] = {
            "score": float(chrf[i]),
            "correct": categories[i] == "success",
            "unrelated": categories[i] == "complete" or closer_to_demo[i],
        }
    result["items"] = items
    return result


def sample_warnings(spec: TaskSpec, card: dict, rows: list[dict], labels) -> list[str]:
    """What the evaluated sample lacks: a label with no gold item (its recall and F1 mean
    nothing), overall or within a dialect, and a requested dialect with no items."""
    if not spec.classification or spec.labels_from == "dialects":
        return []
    out = []
    gold = {r["label"] for r in rows}
    for label in labels:
        if label not in gold:
            out.append(f"class '{label}' has no items in this run (macro scores are over it too)")
    by_dialect: dict[str, set[str]] = defaultdict(set)
    for r in rows:
        by_dialect[r["dialect"]].add(r["label"])
    for dialect, present in sorted(by_dialect.items()):
        missing = [lab for lab in labels if lab in gold and lab not in present]
        if missing:
            out.append(f"dialect {dialect}: no items of class {', '.join(map(repr, missing))}")
    sample = card.get("sample") or {}
    if sample.get("limit"):
        out += [
            f"dialect {d}: no items in the sample"
            for d, c in sorted(sample.get("counts", {}).items())
            if not sum(c.values())
        ]
    return out


def copy_not_applicable(input_script: str, target_script: str) -> str | None:
    """Why copying the input cannot be a baseline (None: it can): Romanized input against
    Bengali-script references shares no characters with them, so its 0.00 says nothing."""
    if input_script == "roman" and target_script == "bengali":
        return "not applicable: Romanized input against Bengali-script references"
    return None


def _divergence(rows: list[dict], refs, chrf: np.ndarray, scorer: BatchScorer) -> dict:
    """Lexical divergence (the native input's chrF++ against the references: high = the
    dialect sentence is close to standard) against the system's item chrF++: Spearman's rho."""
    copy = scorer.score([r["native_text"] for r in rows], refs, bleu=False)["chrf++"]
    out: dict = {"n": len(rows), "mean_copy_chrf++": float(np.mean(copy)) if len(rows) else None}
    if len(rows) >= 3 and np.ptp(copy) > 0 and np.ptp(chrf) > 0:
        # lazy: scipy.stats is slow to import
        from scipy.stats import spearmanr

        rho, p = spearmanr(copy, chrf)
        out |= {"spearman_rho": float(rho), "p": float(p)}
    else:
        # undefined, with the reason front ends print (never a number)
        why = "fewer than 3 items" if len(rows) < 3 else "the chrF++ of one side is constant"
        out |= {"spearman_rho": None, "p": None, "undefined": why}
    return out


def _round_trip(rows: list[dict], scheme: str) -> dict:
    """The Romanized inputs transliterated back with the run's scheme, CER against the
    native text (0–1): what the Romanization destroyed."""
    back = to_bengali([r["input_text"] for r in rows], scheme)
    rates = cer(back, [r["native_text"] for r in rows])
    by_dialect: dict[str, list[float]] = defaultdict(list)
    for r, c in zip(rows, rates):
        by_dialect[r["dialect"]].append(c)
    return {
        "scheme": scheme,
        "mean_cer": float(np.mean(rates)),
        "exact_share": float(np.mean([c == 0 for c in rates])),
        "per_dialect": {d: float(np.mean(v)) for d, v in sorted(by_dialect.items())},
        "scale": "0-1",
    }


class TaskComparisons(TypedDict):
    """The runs compared within one setting: the native − roman script gap, the answers
    demonstrations flip, and the failure thresholds they are judged by."""

    script_gap: list[dict[str, Any]]
    flips: list[dict[str, Any]]
    thresholds: dict[str, float]


class _FertilityPart(TypedDict, total=False):
    fertility: list[dict[str, Any]]


class TaskStats(TaskComparisons):
    """:func:`task_stats` (``upabhasha task-stats --json``, the Tasks panel's report): each
    scored run, their comparisons, the tokenizer fertility when asked, and the settings of
    the intervals."""

    runs: list[dict[str, Any]]
    fertility: NotRequired[list[dict[str, Any]]]
    settings: dict[str, Any]


def task_stats(
    ws: Workspace,
    task: str | None = None,
    *,
    user_dir=None,
    settings: TaskStatsSettings = TASK_STATS,
    with_items: bool = False,
    with_fertility: bool = False,
) -> TaskStats:
    if task is not None:
        get_task(task, user_dir)  # an unknown name is refused, listing the known ones
    scorer = BatchScorer()
    runs, specs, demo_cache = [], {}, {}
    for run in _runs(ws, task):
        card = run["card"]
        name = card["task"]
        if name not in specs:
            specs[name] = get_task(name, user_dir)
        spec = specs[name]
        rows = _outputs(ws, run["id"])
        if not rows:
            continue
        demo_refs: dict[str, list[str]] = {}
        if card["regime"] == "few" and not spec.classification:
            if card["source"] not in demo_cache:
                demo_cache[card["source"]] = {
                    i.key: list(i.refs.get(spec.target) or [])
                    for i in load_items(ws, card["source"])
                }
            demo_refs = {k: v for k, v in demo_cache[card["source"]].items() if v}
        scored = score_run(spec, card, rows, scorer, demo_refs, settings)
        total = ws.scalar("SELECT count(*) FROM task_run_items WHERE run_id = ?", (run["id"],))
        runs.append(
            {
                "run_id": run["id"],
                "task": name,
                "model": run["model"],
                "regime": card["regime"],
                "script": card["script"],
                "scheme": card.get("scheme"),
                "k": card["k"],
                "constrained": card["constrained"],
                "source": card["source"],
                "split": card["split"],
                "max_tokens": card["sampler"]["max_tokens"],
                "seed": card["seed"],
                "sample": card.get("sample"),
                "label_names": card.get("label_names") or {},
                "pending": total - len(rows),
                **scored,
            }
        )
    comparisons = _comparisons(runs, settings)
    extra: _FertilityPart = {}
    if with_fertility:
        extra["fertility"] = fertility(ws, runs, comparisons["script_gap"])
    if not with_items:
        for r in runs:
            r.pop("items", None)
        for g in comparisons["script_gap"]:
            g.pop("item_gaps", None)
    return {"runs": runs, **comparisons, **extra, "settings": settings.as_dict()}


def _comparisons(runs: list[dict], settings: TaskStatsSettings) -> TaskComparisons:
    # runs compare only within one setting: same items (source, split), seed, output budget
    def setting(r: dict) -> tuple:
        return (r["source"], r["split"], r["seed"], r["max_tokens"] if r["regime"] != "cot" else 0)

    index = {
        (r["task"], r["model"], r["regime"], r["script"], r["constrained"], r["k"], setting(r)): r
        for r in runs
    }
    gaps, flips = [], []
    for (task, model, regime, script, constrained, k, where), run in index.items():
        if script == "native":
            other = index.get((task, model, regime, "roman", constrained, k, where))
            if other:
                native = {key: v["score"] for key, v in run["items"].items()}
                roman = {key: v["score"] for key, v in other["items"].items()}
                gaps.append(
                    {
                        "task": task,
                        "model": model,
                        "regime": regime,
                        "k": k,
                        "constrained": constrained,
                        "scheme": other["scheme"],
                        **fl.paired_gap(
                            native,
                            roman,
                            seed=settings.seed,
                            resamples=settings.resamples,
                            level=settings.level,
                        ),
                    }
                )
        if regime == "few":
            zero = index.get((task, model, "zero", script, constrained, 0, where))
            if zero:
                flips.append(
                    {
                        "task": task,
                        "model": model,
                        "script": script,
                        "k": k,
                        "constrained": constrained,
                        **fl.flip_rate(zero["items"], run["items"]),
                    }
                )
    return {
        "script_gap": gaps,
        "flips": flips,
        "thresholds": {
            "success_chrf": fl.SUCCESS_AT,
            "partial_chrf": fl.PARTIAL_AT,
            "drift_bengali_share": fl.DRIFT_SHARE,
        },
    }


__all__ = [
    "MACRO_OVER",
    "TASK_STATS",
    "Parsed",
    "TaskComparisons",
    "TaskStats",
    "TaskStatsSettings",
    "macro_note",
    "macro_words",
    "score_run",
    "task_stats",
]
