"""The query pipeline of paper 000 §3.1.2, explained step by step.

1. normalise the query (NFC, ASCII digits) and tag it [[SHORT]] under four tokens;
2. pick adaptive weights (standard: dense-leaning; short: sparse-leaning, wider pool),
   with the dense weight scaled by the encoder's measured self-check trust;
3. take the top ``pool`` candidates of each leg (FAISS cosine, bm25s BM25, rapidfuzz
   character similarity to the standard side) in the target dialect's partition (plus its
   region's dialects when it has too few pairs);
4. final = hybrid of the normalised dense and sparse scores + weighted character
   similarity + dialect/region/district bonuses; rank by (-final, pair position) and drop
   duplicates (same standard sentence or same dialect sentence);
5. when fewer than two unique *supported* exemplars remain, run the token-level deep
   search (each query token and its close spelling variants in the index vocabulary) and
   rank again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from rapidfuzz import fuzz, process

from engine.rag.config import RetrievalConfig
from engine.rag.encoder import Encoder
from engine.rag.explain import ExemplarScore, RetrievalExplanation
from engine.rag.fusion import adaptive_weights, fuse, rank_order, top_positions
from engine.rag.index import Partition, RetrievalIndex
from engine.rag.query import PreparedQuery, char_form, prepare_query

log = logging.getLogger(__name__)


class Retriever:
    def __init__(
        self, index: RetrievalIndex, encoder: Encoder | None, cfg: RetrievalConfig | None = None
    ):
        self.index, self.encoder = index, encoder
        self.cfg = cfg or RetrievalConfig()
        self._vocab: dict[str, list[str]] = {}
        self._cfg_dict = self.cfg.as_dict()
        docs = index.docs
        self._keys = [d["standard_key"] for d in docs]
        self._chars_by_part: dict[str, list[str]] = {}
        # per-pair integer codes, so bonuses and de-duplication are array operations
        self._dialect_code = {d: i for i, d in enumerate(sorted({x["dialect"] for x in docs}))}
        self._region_code = {r: i for i, r in enumerate(sorted(set(index.regions.values()) - {""}))}
        self._dialects = np.array([self._dialect_code[x["dialect"]] for x in docs], dtype=np.int64)
        self._regions = np.array(
            [self._region_code.get(index.regions.get(x["dialect"], ""), -1) for x in docs],
            dtype=np.int64,
        )
        self._districts = np.array([x["district"].casefold() for x in docs], dtype=object)
        self._std_ids = _ids([x["standard_key"] for x in docs])
        self._dia_ids = _ids([x["dialect_key"] for x in docs])

    # -- public -------------------------------------------------------------------------
    def retrieve(
        self, text: str, dialect: str, *, district: str = "", query_vector: np.ndarray | None = None
    ) -> RetrievalExplanation:
        if query_vector is None:
            query_vector = self._encoder().encode([text])[0]
        return self._retrieve(
            prepare_query(text, self.cfg.short_query_tokens),
            dialect,
            district,
            np.asarray(query_vector, dtype=np.float32),
        )

    def retrieve_many(
        self,
        items: Sequence[tuple[str, str, str]],
        *,
        progress: Callable[[int, int, str], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> list[RetrievalExplanation]:
        """(text, dialect, district) items; queries are encoded in one batch first."""
        vectors = self._encoder().encode([t for t, _, _ in items], cancelled=cancelled)
        out = []
        for i, ((text, dialect, district), vec) in enumerate(zip(items, vectors)):
            if cancelled and cancelled():
                raise InterruptedError("retrieval cancelled")
            out.append(self.retrieve(text, dialect, district=district, query_vector=vec))
            if progress:
                progress(i + 1, len(items), "retrieving exemplars")
        return out

    def partitions_for(self, dialect: str) -> list[Partition]:
        parts = self.index.partitions
        chosen = [parts[dialect]] if dialect in parts else []
        if sum(map(len, chosen)) < self.cfg.min_partition_pairs:
            region = self.index.regions.get(dialect, "")
            chosen += [
                p
                for d, p in sorted(parts.items())
                if d != dialect and region and self.index.regions.get(d) == region
            ]
        if sum(map(len, chosen)) < self.cfg.min_partition_pairs:
            chosen += [p for d, p in sorted(parts.items()) if p not in chosen]
        return chosen

    def _encoder(self) -> Encoder:
        if self.encoder is None:
            raise ValueError("this retriever has no encoder: pass query_vector")
        return self.encoder

    # -- pipeline -----------------------------------------------------------------------
    def _retrieve(
        self, q: PreparedQuery, dialect: str, district: str, qv: np.ndarray
    ) -> RetrievalExplanation:
        cfg = self.cfg
        w = adaptive_weights(cfg, q.short, self.index.dense_trust(dialect))
        parts = self.partitions_for(dialect)
        tokens = list(dict.fromkeys(q.tokens))
        query_chars = char_form(q.normalized)
        legs: list[
            list[Any]
        ] = []  # per partition: scores over the whole partition and the pool positions
        via: dict[str, set[int]] = {"dense": set(), "sparse": set(), "char": set(), "deep": set()}
        for part in parts:
            _, local = part.dense.search(qv.reshape(1, -1), min(w.pool, len(part)))
            sparse_full = part.bm25.get_scores(tokens) if tokens else np.zeros(len(part))
            char_full = (
                process.cdist(
                    [query_chars],
                    self._part_chars(part),
                    scorer=fuzz.ratio,
                    dtype=np.float32,
                    workers=1,
                )[0].astype(np.float64)
                / 100.0
            )
            hits = {
                "dense": local[0][local[0] >= 0],
                "sparse": top_positions(sparse_full, w.pool, positive_only=True),
                "char": top_positions(char_full, w.pool),
            }
            for leg, positions in hits.items():
                via[leg].update(part.rows[positions].tolist())
            pool = np.unique(np.concatenate(list(hits.values())))
            legs.append([part, sparse_full, char_full, pool])
        ranked = self._rank(legs, dialect, district, qv, w, via)
        fallback_tokens: dict[str, list[str]] = {}
        fired = ranked["supported_unique"] < cfg.min_unique_exemplars
        if fired:
            for entry in legs:
                part, sparse_full, _, pool = entry
                deep, used = self._deep_search(part, tokens)
                for tok, variants in used.items():
                    known = fallback_tokens.setdefault(tok, [])
                    known += [v for v in variants if v not in known]
                found = top_positions(deep, w.pool, positive_only=True)
                via["deep"].update(part.rows[found].tolist())
                boosted = sparse_full.copy()
                boosted[found] = np.maximum(sparse_full[found], deep[found])
                entry[1], entry[3] = boosted, np.union1d(pool, found)
            ranked = self._rank(legs, dialect, district, qv, w, via)
        m = self.index.manifest
        return RetrievalExplanation(
            query=q.original,
            normalized=q.normalized,
            tagged=q.tagged,
            tokens=list(q.tokens),
            short=q.short,
            target_dialect=dialect,
            district=district,
            weights=w.as_dict(),
            partitions=[p.dialect for p in parts],
            pool_size=ranked["pool"],
            duplicates_removed=ranked["duplicates"],
            supported_unique=ranked["supported_unique"],
            fallback_fired=fired,
            fallback_tokens=fallback_tokens,
            exemplars=ranked["exemplars"],
            index={
                "encoder_id": m["encoder_id"],
                "corpus_hash": m["corpus_hash"],
                "splits": m["splits"],
                "folder": self.index.folder.name,
            },
            config=dict(self._cfg_dict),
        )

    def _part_chars(self, part: Partition) -> list[str]:
        chars = self._chars_by_part.get(part.dialect)
        if chars is None:
            chars = self._chars_by_part[part.dialect] = [
                char_form(self._keys[g]) for g in part.rows
            ]
        return chars

    def _rank(
        self, legs: list, dialect: str, district: str, qv: np.ndarray, w, via: dict[str, set[int]]
    ) -> dict:
        cfg, docs = self.cfg, self.index.docs
        ids = np.concatenate([part.rows[pool] for part, _, _, pool in legs]).astype(np.int64)
        if len(ids) == 0:
            return {"exemplars": [], "duplicates": 0, "supported_unique": 0, "pool": 0}
        sparse = np.concatenate([sp[pool] for _, sp, _, pool in legs])
        char = np.concatenate([ch[pool] for _, _, ch, pool in legs])
        groups = np.concatenate([np.full(len(pool), i) for i, (_, _, _, pool) in enumerate(legs)])
        cos = (self.index.vectors[ids] @ qv).astype(np.float64)
        f = fuse(cos, sparse, char, w, groups)
        target = self._dialect_code.get(dialect, -1)
        region = self._region_code.get(self.index.regions.get(dialect, ""), -1)
        codes = self._dialects[ids]
        dial_b = np.where(codes == target, cfg.dialect_bonus, 0.0)
        reg_b = np.where(
            (codes != target) & (region >= 0) & (self._regions[ids] == region),
            cfg.region_bonus,
            0.0,
        )
        dist_b = (
            np.where(self._districts[ids] == district.casefold(), cfg.district_bonus, 0.0)
            if district
            else np.zeros(len(ids))
        )
        final = f["score"] + dial_b + reg_b + dist_b
        supported = (
            (sparse > 0) | (cos >= cfg.dense_support_cosine) | (char >= cfg.char_support_similarity)
        ).tolist()
        std_ids, dia_ids = self._std_ids[ids].tolist(), self._dia_ids[ids].tolist()
        seen_std: set[int] = set()
        seen_dia: set[int] = set()
        chosen: list[ExemplarScore] = []
        duplicates, supported_unique = 0, 0
        for pos in rank_order(final, ids).tolist():
            if std_ids[pos] in seen_std or dia_ids[pos] in seen_dia:
                duplicates += 1
                continue
            seen_std.add(std_ids[pos])
            seen_dia.add(dia_ids[pos])
            supported_unique += supported[pos]
            if len(chosen) < cfg.top_k:
                g = int(ids[pos])
                d = docs[g]
                chosen.append(
                    ExemplarScore(
                        rank=len(chosen) + 1,
                        pair_id=d["id"],
                        dialect=d["dialect"],
                        district=d["district"],
                        standard_text=d["standard_text"],
                        dialect_text=d["dialect_text"],
                        via=[leg for leg in ("char", "deep", "dense", "sparse") if g in via[leg]],
                        dense_score=_r(cos[pos]),
                        dense_norm=_r(f["dense_norm"][pos]),
                        sparse_score=_r(sparse[pos]),
                        sparse_norm=_r(f["sparse_norm"][pos]),
                        hybrid=_r(f["hybrid"][pos]),
                        char_similarity=_r(char[pos]),
                        char_norm=_r(f["char_norm"][pos]),
                        char_component=_r(f["char_component"][pos]),
                        dialect_bonus=float(dial_b[pos]),
                        region_bonus=float(reg_b[pos]),
                        district_bonus=float(dist_b[pos]),
                        final=_r(final[pos]),
                        supported=bool(supported[pos]),
                    )
                )
        return {
            "exemplars": chosen,
            "duplicates": duplicates,
            "supported_unique": supported_unique,
            "pool": len(ids),
        }

    def _deep_search(self, part: Partition, tokens: list[str]) -> tuple[np.ndarray, dict]:
        """Per query token: BM25 of the token itself plus of index tokens spelled alike
        (rapidfuzz ratio >= deep_search_fuzzy_ratio), weighted by that ratio."""
        vocab = self._vocab.get(part.dialect)
        if vocab is None:
            vocab = self._vocab[part.dialect] = [t for t in part.bm25.vocab_dict if t]
        scores = np.zeros(len(part))
        used: dict[str, list[str]] = {}
        for tok in tokens:
            matches = process.extract(
                tok,
                vocab,
                scorer=fuzz.ratio,
                score_cutoff=self.cfg.deep_search_fuzzy_ratio,
                limit=self.cfg.deep_search_tokens_per_query_token,
            )
            for variant, ratio, _ in matches:
                scores += (ratio / 100.0) * part.bm25.get_scores([variant])
                used.setdefault(tok, []).append(variant)
        return scores, used


def _ids(keys: list[str]) -> np.ndarray:
    seen: dict[str, int] = {}
    return np.array([seen.setdefault(k, len(seen)) for k in keys], dtype=np.int64)


def _r(x) -> float:
    return round(float(x), 6)
