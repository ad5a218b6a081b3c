"""Retrieval self-check: can each leg find a dialect sentence's standard counterpart?

For held-out pairs (splits that are not indexed; a sample of indexed pairs when there are
none) the dialect side is the query and the gallery is every distinct standard sentence
of that dialect (indexed + held-out). recall@1/@5 is measured for the dense leg alone,
the sparse leg alone, rapidfuzz character similarity alone, and the hybrid fusion — once
with the dense weight scaled by the measured trust and once without, which shows what
the scaling protects against. The English PyPI MiniLM reaches only ~18% top-1 on
Chittagong where character similarity reaches ~85% (docs/design.md); the result is stored in
the index manifest and shown by ``upabhasha index``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import numpy as np
from rapidfuzz import fuzz, process

from engine.rag.config import RetrievalConfig
from engine.rag.encoder import Encoder
from engine.rag.fusion import adaptive_weights, fuse, top_positions
from engine.rag.index import EVAL_SPLITS, RetrievalIndex, select_pairs
from engine.rag.query import char_form, tokenize
from engine.text.textnorm import canonical_key
from engine.workspace.store import Workspace

log = logging.getLogger(__name__)

MAX_QUERIES_PER_DIALECT = 300


def _gold_rank(scores: np.ndarray, gold: int) -> int:
    """Rank of ``gold`` under the (-score, position) order."""
    g = scores[gold]
    return int(np.sum(scores > g) + np.sum(scores[:gold] == g))


def _recall(ranks: list[int]) -> dict:
    r = np.array(ranks)
    return {"r1": round(float(np.mean(r < 1)), 4), "r5": round(float(np.mean(r < 5)), 4)}


def dense_trust_from(
    dense_r1: float, sparse_r1: float, char_r1: float, cfg: RetrievalConfig
) -> float:
    best_lexical = max(sparse_r1, char_r1)
    if best_lexical <= 0:
        return 1.0
    return float(min(1.0, max(cfg.min_dense_trust, dense_r1 / best_lexical)))


def _heldout(ws: Workspace, index: RetrievalIndex, dialect: str) -> tuple[list[dict], str]:
    other = sorted(
        {
            r["split"]
            for r in ws.query(
                "SELECT DISTINCT split FROM sentence_pairs WHERE dialect = ?", (dialect,)
            )
        }
        - set(index.splits)
    )
    corpora = index.manifest.get("corpora")
    pairs = (
        [p for p in select_pairs(ws, corpora, other) if p["dialect"] == dialect] if other else []
    )
    if pairs:
        return pairs, "held-out split(s) " + ", ".join(other)
    docs = [d for d in index.docs if d["dialect"] == dialect]
    return docs, "sample of indexed pairs (no held-out split)"


def _sample(rows: list[dict], n: int) -> list[dict]:
    if len(rows) <= n:
        return rows
    picks = np.linspace(0, len(rows) - 1, n).round().astype(int)
    return [rows[i] for i in picks]


def check_dialect(
    ws: Workspace,
    index: RetrievalIndex,
    encoder: Encoder,
    dialect: str,
    cfg: RetrievalConfig,
    cancelled: Callable[[], bool] | None = None,
) -> dict | None:
    # lazy: bm25s is slow to import
    import bm25s

    pairs, source = _heldout(ws, index, dialect)
    queries = _sample(pairs, MAX_QUERIES_PER_DIALECT)
    if not queries:
        return None
    gallery: dict[str, str] = {}
    for d in [d for d in index.docs if d["dialect"] == dialect] + pairs:
        gallery.setdefault(d["standard_key"], d["standard_text"])
    keys = list(gallery)
    position = {k: i for i, k in enumerate(keys)}
    gold = [position[q["standard_key"]] for q in queries]
    # encoding is most of a dialect's check: a cancel is looked for every batch
    q_vec = encoder.encode([q["dialect_text"] for q in queries], cancelled=cancelled)
    g_vec = encoder.encode([gallery[k] for k in keys], cancelled=cancelled)
    dense = q_vec @ g_vec.T
    bm25 = bm25s.BM25(k1=cfg.bm25_k1, b=cfg.bm25_b, method="lucene")
    bm25.index([tokenize(gallery[k]) or [""] for k in keys], show_progress=False)
    q_tokens = [list(dict.fromkeys(tokenize(q["dialect_text"]))) for q in queries]
    sparse = np.stack([bm25.get_scores(t) if t else np.zeros(len(keys)) for t in q_tokens])
    q_keys = [char_form(canonical_key(q["dialect_text"])) for q in queries]
    char = (
        process.cdist(
            q_keys, [char_form(k) for k in keys], scorer=fuzz.ratio, dtype=np.float32, workers=1
        )
        / 100.0
    ).astype(np.float64)
    result: dict[str, Any] = {
        "queries": len(queries),
        "gallery": len(keys),
        "source": source,
        "dense": _recall([_gold_rank(dense[i], g) for i, g in enumerate(gold)]),
        "sparse": _recall([_gold_rank(sparse[i], g) for i, g in enumerate(gold)]),
        "char": _recall([_gold_rank(char[i], g) for i, g in enumerate(gold)]),
    }
    trust = dense_trust_from(
        result["dense"]["r1"], result["sparse"]["r1"], result["char"]["r1"], cfg
    )
    result["dense_trust"] = round(trust, 4)
    for name, t in (("hybrid", trust), ("hybrid_untrusted", 1.0)):
        ranks = []
        for i, g in enumerate(gold):
            w = adaptive_weights(cfg, len(q_tokens[i]) < cfg.short_query_tokens, t)
            if name == "hybrid_untrusted":
                w = adaptive_weights(
                    cfg.replace(trust_dense_by_selfcheck=False),
                    len(q_tokens[i]) < cfg.short_query_tokens,
                )
            pool = np.union1d(
                np.union1d(
                    top_positions(dense[i], w.pool),
                    top_positions(sparse[i], w.pool, positive_only=True),
                ),
                top_positions(char[i], w.pool),
            )
            fused = fuse(dense[i][pool], sparse[i][pool], char[i][pool], w)["score"]
            hit = np.nonzero(pool == g)[0]
            ranks.append(_gold_rank(fused, int(hit[0])) if len(hit) else len(keys))
        result[name] = _recall(ranks)
    return result


def run_selfcheck(
    ws: Workspace,
    index: RetrievalIndex,
    encoder: Encoder,
    cfg: RetrievalConfig | None = None,
    progress=None,
    cancelled=None,
) -> dict:
    cfg = cfg or RetrievalConfig()
    per: dict[str, dict] = {}
    dialects = sorted(index.partitions)
    for n, dialect in enumerate(dialects):
        if cancelled and cancelled():
            raise InterruptedError("self-check cancelled")
        res = check_dialect(ws, index, encoder, dialect, cfg, cancelled)
        if res:
            per[dialect] = res
        if progress:
            progress(n + 1, len(dialects), f"self-check {dialect}")
    total = sum(r["queries"] for r in per.values())
    overall: dict = {"queries": total}
    if total:
        for leg in ("dense", "sparse", "char", "hybrid", "hybrid_untrusted"):
            overall[leg] = {
                k: round(sum(r[leg][k] * r["queries"] for r in per.values()) / total, 4)
                for k in ("r1", "r5")
            }
        overall["dense_trust"] = round(
            dense_trust_from(
                overall["dense"]["r1"], overall["sparse"]["r1"], overall["char"]["r1"], cfg
            ),
            4,
        )
    eval_in_index = sorted(set(index.splits) & EVAL_SPLITS)
    return {
        "encoder_id": encoder.encoder_id,
        "per_dialect": per,
        "overall": overall,
        "note": ("evaluation split is inside this index" if eval_in_index else ""),
    }
