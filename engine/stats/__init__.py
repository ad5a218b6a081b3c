"""Statistics on judged scores: agreement between judges (Pearson, Spearman, Lin's CCC, MAE,
CBS), clustered bootstrap intervals, paired tests with Holm correction, group summaries."""

import math


def nan_to_none(row: dict) -> dict:
    """JSON has no NaN: a statistic that cannot be computed (too few items) becomes None."""
    return {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()}
