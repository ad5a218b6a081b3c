"""Agreement between annotators, per dialect and per field, each with a bootstrap CI.

- Cohen's κ for every pair of annotators on the items both decided (scikit-learn);
- Fleiss' κ over the items with the most common number of raters (statsmodels; it needs
  the same number of raters per item, so n says how many items it used);
- Krippendorff's α, nominal for the decision, ordinal and interval for the score
  (``krippendorff``; missing ratings allowed);
- chrF and ROUGE-L F1 between the free-text edits of every two annotators on one item.

Only each annotator's latest decision counts and only items with two or more annotators.
The bootstrap resamples items (percentile interval, seeded); undefined values (one
category only, too few items) are NaN, never 0. Fields: ``decision`` (accept / edit /
flag / reject, nominal) and ``score`` (on the batch's scale).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

from engine.annotation.decisions import effective_decisions
from engine.annotation.items import DECISIONS
from engine.annotation.settings import AGREEMENT, AgreementSettings
from engine.stats import nan_to_none
from engine.workspace.store import Workspace

if TYPE_CHECKING:  # numpy loads when a statistic is computed, not with the front door
    import numpy as np

CODES = {d: float(i) for i, d in enumerate(DECISIONS)}


# -- the coefficients ---------------------------------------------------------------------
def cohen_kappa(a, b) -> float:
    # lazy: scikit-learn is slow to import
    import numpy as np
    from sklearn.metrics import cohen_kappa_score

    a, b = np.asarray(a), np.asarray(b)
    if a.size < 2 or len(np.unique(np.concatenate([a, b]))) < 2:
        return math.nan
    with np.errstate(all="ignore"):
        return float(cohen_kappa_score(a, b))


def fleiss_kappa(units: list[list[float]]) -> float:
    """units: the ratings of each item (all items the same number of ratings)."""
    # lazy: statsmodels is slow to import
    import numpy as np
    from statsmodels.stats.inter_rater import aggregate_raters
    from statsmodels.stats.inter_rater import fleiss_kappa as _fleiss

    if len(units) < 2:
        return math.nan
    table, _cats = aggregate_raters(np.asarray(units))
    if table.shape[1] < 2:
        return math.nan
    with np.errstate(all="ignore"):
        return float(_fleiss(table, method="fleiss"))


def krippendorff_alpha(matrix: np.ndarray, level: str) -> float:
    """matrix: raters x units with NaN for missing."""
    import krippendorff
    import numpy as np

    values = matrix[~np.isnan(matrix)]
    if matrix.shape[1] < 2 or len(np.unique(values)) < 2:
        return math.nan
    alpha = krippendorff.alpha(reliability_data=matrix, level_of_measurement=level)  # type: ignore[arg-type]
    return float(alpha)


def chrf(a: str, b: str) -> float:
    """Symmetric chrF (mean of both directions; sacrebleu, 0–100)."""
    # lazy: sacrebleu is slow to import
    from sacrebleu.metrics import CHRF

    metric = CHRF()
    return (metric.sentence_score(a, [b]).score + metric.sentence_score(b, [a]).score) / 2


def rouge_l(a: str, b: str) -> float:
    """ROUGE-L F1 (0–1) over whitespace tokens: rouge-score's default tokenizer keeps only
    [a-z0-9] and would erase Bengali."""
    # lazy: rouge-score (nltk, scikit-learn) is slow to import
    from rouge_score import rouge_scorer

    class _Whitespace:
        def tokenize(self, text):
            return text.split()

    scorer = rouge_scorer.RougeScorer(["rougeL"], tokenizer=_Whitespace())
    return float(scorer.score(a, b)["rougeL"].fmeasure)


# -- the report ---------------------------------------------------------------------------
# Below this many items a coefficient carries a note: a percentile bootstrap over few items
# has few distinct resamples (2 items: 3), so its interval is coarse and may even leave the
# estimate on or outside its edge; the same floor as PPI's Student-t note.
SMALL_ITEMS = 30


@dataclass
class Estimate:
    value: float
    low: float
    high: float
    n: int  # items used

    def as_dict(self) -> dict:
        out = {"value": self.value, "low": self.low, "high": self.high, "n": self.n}
        return nan_to_none(out) | ({"note": self.note()} if self.note() else {})

    def note(self) -> str | None:
        """Why a value on few items is to be read with care (None: enough items)."""
        if math.isnan(self.value) or self.n >= SMALL_ITEMS:
            return None
        note = (
            f"only {self.n} items (fewer than {SMALL_ITEMS}): a percentile bootstrap over so "
            "few items is coarse"
        )
        if math.isnan(self.low):
            return note + "; no interval"
        if not self.low < self.value < self.high:
            note += "; the estimate lies on or outside its own interval"
        return note


def _bootstrap(stat, n_units: int, settings: AgreementSettings) -> tuple[float, float]:
    import numpy as np

    if n_units < 2:
        return math.nan, math.nan
    rng = np.random.default_rng(settings.seed)
    reps = []
    for _ in range(settings.resamples):
        value = stat(rng.integers(0, n_units, n_units))
        if not math.isnan(value):
            reps.append(value)
    if len(reps) < settings.resamples / 2:  # mostly undefined: no honest interval
        return math.nan, math.nan
    tail = 100 * (1 - settings.level) / 2
    low, high = np.percentile(reps, [tail, 100 - tail])
    return float(low), float(high)


def _matrix(units: list[dict[str, float]], raters: list[str]) -> np.ndarray:
    import numpy as np

    m = np.full((len(raters), len(units)), np.nan)
    for j, unit in enumerate(units):
        for i, r in enumerate(raters):
            if r in unit:
                m[i, j] = unit[r]
    return m


def field_agreement(
    units: list[dict[str, float]], kind: str, settings: AgreementSettings = AGREEMENT
) -> dict:
    """units: per item {annotator: value}. kind 'nominal' (decision) or 'score'."""
    import numpy as np

    units = [u for u in units if len(u) >= 2]
    raters = sorted({r for u in units for r in u})
    out: dict = {"items": len(units), "annotators": len(raters)}
    matrix = _matrix(units, raters)
    levels = ["nominal"] if kind == "nominal" else ["ordinal", "interval"]
    for level in levels:
        value = krippendorff_alpha(matrix, level)
        low, high = _bootstrap(
            lambda idx, lv=level: krippendorff_alpha(matrix[:, idx], lv),
            len(units),
            settings,
        )
        out[f"alpha_{level}"] = Estimate(value, low, high, len(units)).as_dict()
    if kind == "nominal":
        sizes = [len(u) for u in units]
        k = max(set(sizes), key=lambda s: (sizes.count(s), s)) if sizes else 0
        same = [sorted(u.values()) for u in units if len(u) == k]
        value = fleiss_kappa(same)
        low, high = _bootstrap(
            lambda idx: fleiss_kappa([same[i] for i in idx]), len(same), settings
        )
        out["fleiss_kappa"] = dict(Estimate(value, low, high, len(same)).as_dict(), raters=k)
        pairs = []
        for x, y in itertools.combinations(raters, 2):
            both = [(u[x], u[y]) for u in units if x in u and y in u]
            if len(both) < 2:
                continue
            a, b = np.array([p[0] for p in both]), np.array([p[1] for p in both])
            value = cohen_kappa(a, b)
            low, high = _bootstrap(
                lambda idx, a=a, b=b: cohen_kappa(a[idx], b[idx]), len(a), settings
            )
            pairs.append(dict(Estimate(value, low, high, len(a)).as_dict(), pair=[x, y]))
        out["cohen_kappa"] = pairs
    return out


def edit_similarity(edits: list[dict[str, str]]) -> EditSimilarity:
    """Mean chrF and ROUGE-L over every pair of annotators' edits of the same item."""
    import numpy as np

    chrfs, rouges = [], []
    for unit in edits:
        for x, y in itertools.combinations(sorted(unit), 2):
            chrfs.append(chrf(unit[x], unit[y]))
            rouges.append(rouge_l(unit[x], unit[y]))
    return nan_to_none(
        EditSimilarity(
            pairs=len(chrfs),
            chrf=float(np.mean(chrfs)) if chrfs else math.nan,
            chrf_scale="0-100",
            rouge_l_f1=float(np.mean(rouges)) if rouges else math.nan,
            rouge_l_scale="0-1",
        )
    )


class EditSimilarity(TypedDict):
    """:func:`edit_similarity`: the mean over every pair of annotators' edits (None: no pair)."""

    pairs: int
    chrf: float | None
    chrf_scale: str
    rouge_l_f1: float | None
    rouge_l_scale: str


class DialectAgreement(TypedDict):
    """One dialect's (or ``all``'s) agreement: :func:`field_agreement` of the decision and
    of the score, and the edits' similarity."""

    decision: dict[str, Any]
    score: dict[str, Any]
    edits: EditSimilarity


class AgreementReportDict(TypedDict):
    """:meth:`AgreementReport.as_dict` (``upabhasha agreement --json``): the settings, what
    the intervals are, and each dialect's agreement (``all`` first)."""

    resamples: int
    seed: int
    level: float
    ci: str
    by_dialect: dict[str, DialectAgreement]


@dataclass
class AgreementReport:
    settings: AgreementSettings
    by_dialect: dict[str, DialectAgreement] = field(default_factory=dict)

    def as_dict(self) -> AgreementReportDict:
        return {
            "resamples": self.settings.resamples,
            "seed": self.settings.seed,
            "level": self.settings.level,
            "ci": f"{self.settings.level:.0%} percentile bootstrap over items",
            "by_dialect": self.by_dialect,
        }


def agreement(
    ws: Workspace,
    *,
    batch_id: int | None = None,
    settings: AgreementSettings = AGREEMENT,
) -> AgreementReport:
    """Agreement per dialect (and 'all') for the decision and the score fields, with
    ``settings``' bootstrap."""
    by_item: dict[int, list[dict]] = {}
    for d in effective_decisions(ws, batch_id=batch_id):
        by_item.setdefault(d["item_id"], []).append(d)
    groups: dict[str, list[list[dict]]] = {"all": []}
    for decisions in by_item.values():
        if len(decisions) >= 2:
            groups["all"].append(decisions)
            groups.setdefault(decisions[0]["dialect"], []).append(decisions)
    report = AgreementReport(settings)
    for name in sorted(groups, key=lambda g: (g != "all", g)):
        items = groups[name]
        decision_units = [{d["annotator"]: CODES[d["decision"]] for d in ds} for ds in items]
        score_units = [
            {d["annotator"]: d["score"] for d in ds if d["score"] is not None} for ds in items
        ]
        edits = [{d["annotator"]: d["text"] for d in ds if d["decision"] == "edit"} for ds in items]
        report.by_dialect[name] = {
            "decision": field_agreement(decision_units, "nominal", settings),
            "score": field_agreement(score_units, "score", settings),
            "edits": edit_similarity([e for e in edits if len(e) >= 2]),
        }
    return report
