"""What a retrieval did and why, per exemplar: stored in ``variants.retrieval`` as JSON so a
linguist can judge the exemplars and a run can be reproduced."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field


@dataclass
class ExemplarScore:
    rank: int
    pair_id: int
    dialect: str
    district: str
    standard_text: str
    dialect_text: str
    via: list[str]  # legs that proposed it: "dense", "sparse", "char", "deep"
    dense_score: float  # raw cosine
    dense_norm: float  # min-max over the pool
    sparse_score: float  # raw BM25 (deep-search score when only deep found it)
    sparse_norm: float  # divided by the pool's best BM25
    hybrid: float  # w_dense * dense_norm + w_sparse * sparse_norm
    char_similarity: float  # rapidfuzz ratio / 100, query vs standard side
    char_norm: float  # min-max over the pool
    char_component: float  # char weight * char_norm
    dialect_bonus: float
    region_bonus: float
    district_bonus: float
    final: float
    supported: bool  # shares a token, or cosine / char similarity over threshold


@dataclass
class RetrievalExplanation:
    query: str
    normalized: str
    tagged: str
    tokens: list[str]
    short: bool
    target_dialect: str
    district: str
    weights: dict
    partitions: list[str]
    pool_size: int
    duplicates_removed: int
    supported_unique: int
    fallback_fired: bool
    fallback_tokens: dict = field(default_factory=dict)  # query token -> index tokens used
    exemplars: list[ExemplarScore] = field(default_factory=list)
    index: dict = field(default_factory=dict)  # encoder id, corpus hash, splits
    config: dict = field(default_factory=dict)

    @property
    def pair_ids(self) -> list[int]:
        return [e.pair_id for e in self.exemplars]

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_dict(cls, data: dict) -> RetrievalExplanation:
        known = {f.name for f in dataclasses.fields(cls)}  # drafts may carry a warning too
        data = {k: v for k, v in data.items() if k in known}
        data["exemplars"] = [ExemplarScore(**e) for e in data.get("exemplars", [])]
        return cls(**data)
