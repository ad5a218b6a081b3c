"""Every weight and threshold of retrieval, in one typed config with documented defaults.

The defaults follow the pipeline of Sami et al. (2025) as paper 000 §3.1.2 describes it
(adaptive hybrid weights, a [[SHORT]] tag under four tokens, a deep-search fallback below
two unique exemplars, a blended final score) with numbers we chose and measured, because
the paper gives none. ``RetrievalConfig.as_dict()`` goes into every retrieval explanation
and run card, so a result can always be traced to the exact settings that produced it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass


@dataclass(frozen=True)
class RetrievalConfig:
    # -- result size ------------------------------------------------------------------
    top_k: int = 5
    """Exemplars returned (the few-shot examples of one prompt)."""

    # -- query tagging ----------------------------------------------------------------
    short_query_tokens: int = 4
    """Queries with fewer tokens than this are tagged [[SHORT]] (paper: "fewer than four")."""

    # -- adaptive weights (before the dense-trust scaling below) -----------------------
    dense_weight_standard: float = 0.6
    sparse_weight_standard: float = 0.4
    """Standard queries favour the dense leg (paper §3.1.2)."""
    dense_weight_short: float = 0.25
    sparse_weight_short: float = 0.75
    """Short queries favour the sparse leg: a fragment has little meaning to embed."""
    candidate_pool: int = 40
    """Candidates taken from each leg for a standard query."""
    candidate_pool_short: int = 120
    """Short queries widen the pool (paper: "expand the candidate pool")."""

    # -- protection against a weak encoder ---------------------------------------------
    trust_dense_by_selfcheck: bool = True
    """Multiply the dense weight by the retrieval self-check's trust = dense recall@1 divided
    by the best lexical recall@1 (sparse or character), clipped to [min_dense_trust, 1],
    without renormalising. The English PyPI MiniLM finds 13% of Chittagong validation
    sentences' counterparts top-1 against 80% for rapidfuzz, so its weight shrinks to a
    sixth; on that self-check the hybrid then reaches r@1 0.78 instead of 0.74."""
    min_dense_trust: float = 0.05

    # -- fallback -------------------------------------------------------------------------
    min_unique_exemplars: int = 2
    """Fewer supported unique exemplars than this triggers the token-level deep search."""
    dense_support_cosine: float = 0.8
    """A candidate counts as supported evidence if its raw cosine reaches this, if it shares
    a BM25 token with the query, or if its character similarity reaches the threshold below."""
    char_support_similarity: float = 0.6
    deep_search_fuzzy_ratio: float = 80.0
    """Deep search also matches index tokens whose rapidfuzz ratio to a query token is at
    least this (dialect spelling variants: খরইন / করোইন)."""
    deep_search_tokens_per_query_token: int = 5

    # -- blended final score --------------------------------------------------------------
    dialect_bonus: float = 0.15
    """Added when the pair is in the target dialect (matters when neighbours fill in)."""
    region_bonus: float = 0.05
    """Added when the pair is from another dialect of the target's region."""
    district_bonus: float = 0.1
    """Added when the pair's district equals the requested district."""
    char_similarity_weight: float = 1.0
    """Weight of the rapidfuzz ratio between query and the pair's standard side (min-max
    normalised over the pool). Character similarity is also a candidate source. It weighs as
    much as the whole hybrid because it is the strongest single signal we measured across
    dialect spellings (cross-dialect r@1 0.80-0.98 on Vashantor vs 0.13-0.74 dense)."""
    min_partition_pairs: int = 20
    """A target dialect with fewer indexed pairs borrows candidates from its region."""

    # -- index ----------------------------------------------------------------------------
    bm25_k1: float = 1.5
    bm25_b: float = 0.75
    exact_dense_max: int = 50_000
    """Dense partitions up to this many vectors use exact FAISS IndexFlatIP; larger ones use
    HNSW (approximate) with the parameters below. At 50k x 384 an exact search costs about
    5 ms on two cores, the latency goal of a whole query."""
    hnsw_m: int = 32
    hnsw_ef_search: int = 128
    hnsw_ef_construction: int = 200

    def __post_init__(self):
        for name in (
            "dense_weight_standard",
            "sparse_weight_standard",
            "dense_weight_short",
            "sparse_weight_short",
        ):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0")
        if self.top_k < 1 or self.candidate_pool < self.top_k:
            raise ValueError("need 1 <= top_k <= candidate_pool")

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)

    def replace(self, **changes) -> RetrievalConfig:
        return dataclasses.replace(self, **changes)

    @property
    def index_params(self) -> dict:
        """The settings baked into a built index (a change rebuilds it)."""
        return {
            "bm25_k1": self.bm25_k1,
            "bm25_b": self.bm25_b,
            "exact_dense_max": self.exact_dense_max,
            "hnsw_m": self.hnsw_m,
            "hnsw_ef_construction": self.hnsw_ef_construction,
        }
