"""A brute-force reference of the retriever's scoring, for tests and bench/retrieval.py.

It scores *every* pair of the searched partitions with plain code — dense cosine by
matrix product over all vectors, BM25 (Lucene variant, as bm25s computes it) from its own
term counts, character similarity pair by pair — then applies the same pool, fusion,
bonus, de-duplication and fallback rules. Agreement of its top-k with
:class:`engine.rag.retriever.Retriever` checks the fast path (FAISS, bm25s, pruned
top-k selection) against the definition.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
from rapidfuzz import fuzz, process

from engine.rag.fusion import adaptive_weights
from engine.rag.query import prepare_query


class BruteForceBM25:
    """BM25, Lucene variant: idf = ln(1 + (N - df + 0.5) / (df + 0.5)),
    term = idf * tf / (tf + k1 * (1 - b + b * dl / avgdl))."""

    def __init__(self, token_lists: list[list[str]], k1: float, b: float):
        docs = [t or [""] for t in token_lists]
        self.tf = [Counter(d) for d in docs]
        self.dl = np.array([len(d) for d in docs], dtype=np.float64)
        self.avgdl = float(self.dl.mean()) if len(docs) else 0.0
        df = Counter(tok for c in self.tf for tok in c)
        n = len(docs)
        self.idf = {t: math.log(1 + (n - v + 0.5) / (v + 0.5)) for t, v in df.items()}
        self.k1, self.b = k1, b
        self.vocab = [t for t in df if t]

    def scores(self, tokens: list[str]) -> np.ndarray:
        out = np.zeros(len(self.tf))
        for tok in tokens:
            idf = self.idf.get(tok)
            if idf is None:
                continue
            for i, c in enumerate(self.tf):
                tf = c.get(tok, 0)
                if tf:
                    out[i] += (
                        idf * tf / (tf + self.k1 * (1 - self.b + self.b * self.dl[i] / self.avgdl))
                    )
        return out


def _top(scores: np.ndarray, k: int, positive_only: bool = False) -> list[int]:
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    if positive_only:
        order = [i for i in order if scores[i] > 0]
    return order[:k]


def _minmax(values: list[float]) -> list[float]:
    lo, hi = min(values), max(values)
    if hi - lo <= 1e-9:
        return [1.0 if hi > 0 else 0.0] * len(values)
    return [(v - lo) / (hi - lo) for v in values]


class ReferenceRetriever:
    def __init__(self, retriever):
        self.fast = retriever  # for the index, config and partition choice only
        self.index, self.cfg = retriever.index, retriever.cfg
        self._bm25: dict[str, BruteForceBM25] = {}

    def bm25(self, part) -> BruteForceBM25:
        if part.dialect not in self._bm25:
            self._bm25[part.dialect] = BruteForceBM25(
                [self.index.docs[g]["tokens"] for g in part.rows], self.cfg.bm25_k1, self.cfg.bm25_b
            )
        return self._bm25[part.dialect]

    def top_ids(self, text: str, dialect: str, qv: np.ndarray, district: str = "") -> list[int]:
        cfg, docs = self.cfg, self.index.docs
        q = prepare_query(text, cfg.short_query_tokens)
        w = adaptive_weights(cfg, q.short, self.index.dense_trust(dialect))
        tokens = list(dict.fromkeys(q.tokens))
        parts = self.fast.partitions_for(dialect)
        cand: dict[int, dict] = {}
        full: list[tuple] = []
        for part in parts:
            rows = part.rows.tolist()
            dense = self.index.vectors[part.rows] @ qv
            sparse = self.bm25(part).scores(tokens)
            char = np.array(
                [fuzz.ratio(q.normalized, docs[g]["standard_key"]) / 100.0 for g in rows]
            )
            full.append((part, rows, sparse, char))
            for li in _top(dense, w.pool) + _top(sparse, w.pool, True) + _top(char, w.pool):
                cand[rows[li]] = {"sparse": float(sparse[li]), "char": float(char[li])}

        def ranked() -> tuple[list[int], int]:
            ids = sorted(cand)
            cos = [float(self.index.vectors[g] @ qv) for g in ids]
            sp = [cand[g]["sparse"] for g in ids]
            ch = [cand[g]["char"] for g in ids]
            dn, cn = _minmax(cos), _minmax(ch)
            best: dict[str, float] = {}
            for g, v in zip(ids, sp):  # BM25 is normalised within each partition
                best[docs[g]["dialect"]] = max(best.get(docs[g]["dialect"], 0.0), v)
            sn = [
                v / best[docs[g]["dialect"]] if best[docs[g]["dialect"]] > 0 else 0.0
                for g, v in zip(ids, sp)
            ]
            region = self.index.regions.get(dialect, "")
            final = []
            for i, g in enumerate(ids):
                d = docs[g]
                bonus = cfg.dialect_bonus if d["dialect"] == dialect else 0.0
                if (
                    d["dialect"] != dialect
                    and region
                    and self.index.regions.get(d["dialect"]) == region
                ):
                    bonus += cfg.region_bonus
                if district and d["district"].casefold() == district.casefold():
                    bonus += cfg.district_bonus
                final.append(w.dense * dn[i] + w.sparse * sn[i] + w.char * cn[i] + bonus)
            order = sorted(range(len(ids)), key=lambda i: (-final[i], ids[i]))
            out, seen_s, seen_d, supported = [], set(), set(), 0
            for i in order:
                d = docs[ids[i]]
                if d["standard_key"] in seen_s or d["dialect_key"] in seen_d:
                    continue
                seen_s.add(d["standard_key"])
                seen_d.add(d["dialect_key"])
                supported += (
                    sp[i] > 0
                    or cos[i] >= cfg.dense_support_cosine
                    or ch[i] >= cfg.char_support_similarity
                )
                out.append(ids[i])
            return out[: cfg.top_k], supported

        top, supported = ranked()
        if supported < cfg.min_unique_exemplars:
            for part, rows, sparse, char in full:
                bm = self.bm25(part)
                deep = np.zeros(len(rows))
                for tok in tokens:
                    for variant, ratio, _ in process.extract(
                        tok,
                        bm.vocab,
                        scorer=fuzz.ratio,
                        score_cutoff=cfg.deep_search_fuzzy_ratio,
                        limit=cfg.deep_search_tokens_per_query_token,
                    ):
                        deep += ratio / 100.0 * bm.scores([variant])
                for li in _top(deep, w.pool, True):
                    g = rows[li]
                    prev = cand.get(g, {"sparse": 0.0, "char": float(char[li])})
                    cand[g] = {
                        "sparse": max(prev["sparse"], float(deep[li])),
                        "char": float(char[li]),
                    }
            top, _ = ranked()
        return top
