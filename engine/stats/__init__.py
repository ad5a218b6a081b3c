"""Statistics on judged scores: agreement between judges (Pearson, Spearman, Lin's CCC, MAE,
CBS), clustered bootstrap intervals, paired tests with Holm correction, group summaries."""

import math
from collections.abc import Mapping
from typing import Any, TypeVar, cast

Row = TypeVar("Row", bound=Mapping[str, Any])


def nan_to_none(row: Row) -> Row:
    """JSON has no NaN: a statistic that cannot be computed (too few items) becomes None.
    (A typed row keeps its type: its float fields that can be NaN are ``float | None``.)"""
    return cast(
        Row, {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()}
    )
