"""The scoring rules shared by the retriever and the self-check, as pure numpy functions.

Fusion works on a candidate *pool* (the top candidates of each leg). Each leg is
normalised before the weights apply, because raw scales differ by orders of magnitude
(cosine in [-1, 1], BM25 unbounded) and a weak encoder's cosines crowd together near the
top of their range:

- dense: min-max over the pool, so the best candidate gets 1 and the worst 0;
- sparse: divided by the best BM25 score among the pool's candidates of the same partition
  (0 stays 0: no shared token, no evidence);
- character similarity (rapidfuzz ratio): min-max over the pool, like dense.

Ranking order is (-score, position) everywhere, so ties resolve the same way in the fast
path and in the brute-force reference.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.rag.config import RetrievalConfig


@dataclass(frozen=True)
class Weights:
    dense: float
    sparse: float
    char: float
    dense_base: float
    dense_trust: float
    pool: int

    def as_dict(self) -> dict:
        return {
            "dense": round(self.dense, 6),
            "sparse": round(self.sparse, 6),
            "char": round(self.char, 6),
            "dense_base": self.dense_base,
            "dense_trust": round(self.dense_trust, 6),
            "pool": self.pool,
        }


def adaptive_weights(cfg: RetrievalConfig, short: bool, dense_trust: float = 1.0) -> Weights:
    """Standard queries favour dense, short ones sparse and a wider pool. The dense weight
    is then multiplied by the encoder's measured trust and *not* renormalised: the weight a
    weak encoder loses is not handed to the other hybrid leg, so the character similarity
    and the bonuses keep their relative say."""
    if short:
        wd, ws, pool = cfg.dense_weight_short, cfg.sparse_weight_short, cfg.candidate_pool_short
    else:
        wd, ws, pool = cfg.dense_weight_standard, cfg.sparse_weight_standard, cfg.candidate_pool
    trust = min(1.0, max(cfg.min_dense_trust, dense_trust)) if cfg.trust_dense_by_selfcheck else 1.0
    return Weights(wd * trust, ws, cfg.char_similarity_weight, wd, trust, pool)


def top_positions(scores: np.ndarray, k: int, *, positive_only: bool = False) -> np.ndarray:
    """Positions of the k best scores, ordered by (-score, position)."""
    idx = np.arange(len(scores))
    if positive_only:
        idx = idx[scores > 0]
    if len(idx) == 0 or k <= 0:
        return idx[:0]
    sub = scores[idx]
    if len(idx) > k:
        # keep everything tied with the k-th value, then order exactly
        kth = np.partition(sub, len(sub) - k)[len(sub) - k]
        keep = sub >= kth
        idx, sub = idx[keep], sub[keep]
    order = np.lexsort((idx, -sub))
    return idx[order][:k]


def normalize_dense(cos: np.ndarray) -> np.ndarray:
    if len(cos) == 0:
        return cos
    lo, hi = float(cos.min()), float(cos.max())
    if hi - lo <= 1e-9:
        return np.ones_like(cos) if hi > 0 else np.zeros_like(cos)
    return (cos - lo) / (hi - lo)


def normalize_sparse(raw: np.ndarray) -> np.ndarray:
    if len(raw) == 0:
        return raw
    hi = float(raw.max())
    return raw / hi if hi > 0 else np.zeros_like(raw)


def fuse(
    cos: np.ndarray,
    sparse: np.ndarray,
    char: np.ndarray,
    w: Weights,
    groups: np.ndarray | None = None,
) -> dict:
    """Per pool candidate: normalised legs, hybrid = w_d*dense + w_s*sparse, the character
    component w_c*char (char min-max normalised like dense) and their sum (before bonuses).

    ``groups`` names each candidate's partition: BM25 statistics (idf, average length)
    are per partition, so sparse scores are normalised within each partition."""
    dn = normalize_dense(cos.astype(np.float64))
    sparse = sparse.astype(np.float64)
    if groups is None:
        sn = normalize_sparse(sparse)
    else:
        sn = np.zeros_like(sparse)
        for g in np.unique(groups):
            mask = groups == g
            sn[mask] = normalize_sparse(sparse[mask])
    cn = normalize_dense(char.astype(np.float64))
    hybrid = w.dense * dn + w.sparse * sn
    char_component = w.char * cn
    return {
        "dense_norm": dn,
        "sparse_norm": sn,
        "char_norm": cn,
        "hybrid": hybrid,
        "char_component": char_component,
        "score": hybrid + char_component,
    }


def rank_order(final: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """Positions of the pool sorted by (-final, id)."""
    return np.lexsort((ids, -final))
