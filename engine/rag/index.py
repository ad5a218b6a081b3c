"""The retrieval index over a workspace's sentence pairs, persisted next to the workspace.

Layout: ``<workspace>.index/<corpora>__<splits>/`` holds ``manifest.json``, ``docs.json``
(one entry per pair: id, dialect, district, texts, tokens), ``vectors.npy`` (normalised
embeddings of the standard side) and per dialect a FAISS index and a bm25s index. The
index is partitioned by dialect because a translation into dialect D wants D's pairs;
the retriever borrows neighbouring dialects of the same region when D has too few.

The manifest names what the index was built from (corpus content hash, encoder id,
splits, tokenizer, index parameters). :func:`ensure_index` rebuilds when any of them
changes; the embedding cache makes a rebuild encode only new sentences.

The evaluation split is never indexed: building with a split named like validation
raises :class:`LeakageError` unless the caller opts in, and such an index is refused by
the translation evaluation (engine.translation_eval) all the same.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from engine.errors import UserError
from engine.rag.config import RetrievalConfig
from engine.rag.encoder import EmbeddingCache, Encoder
from engine.rag.query import TOKENIZER_VERSION, tokenize
from engine.workspace import Workspace, utcnow

log = logging.getLogger(__name__)

INDEX_FORMAT = 1
DEFAULT_SPLITS = ("train", "test")
EVAL_SPLITS = frozenset({"validation", "validation_or_unknown", "valid", "val", "dev"})


class LeakageError(UserError):
    """Evaluation pairs would be (or are) inside the retrieval index."""


def index_root(ws: Workspace) -> Path:
    return ws.path.with_name(ws.path.name + ".index")


def default_cache(ws: Workspace) -> EmbeddingCache:
    return EmbeddingCache(index_root(ws) / "embedding-cache.sqlite")


def select_pairs(ws: Workspace, corpora: Sequence[str] | None, splits: Sequence[str]) -> list[dict]:
    """Pairs of the named corpora (all when None) in the given splits, ordered by id."""
    params: list = list(splits)
    sql = (f"SELECT p.id, p.standard_text, p.dialect_text, p.dialect, p.district, p.split, "
           f"p.standard_key, p.dialect_key, c.name AS corpus FROM sentence_pairs p "
           f"JOIN corpora c ON c.id = p.corpus_id WHERE p.split IN ({','.join('?' * len(splits))})")
    if corpora:
        known = {r["name"] for r in ws.query("SELECT name FROM corpora")}
        unknown = sorted(set(corpora) - known)
        if unknown:
            raise UserError(f"no corpus named {', '.join(unknown)} "
                            f"(known: {', '.join(sorted(known)) or 'none'})")
        sql += f" AND c.name IN ({','.join('?' * len(corpora))})"
        params += list(corpora)
    return ws.query(sql + " ORDER BY p.id", tuple(params))


def corpus_hash(pairs: Sequence[dict]) -> str:
    digest = hashlib.sha256()
    for p in pairs:
        digest.update(json.dumps([p["id"], p["standard_key"], p["dialect_key"], p["dialect"],
                                  p["district"], p["split"]], ensure_ascii=False).encode())
    return digest.hexdigest()


def check_splits(splits: Sequence[str], *, allow_eval_split: bool = False) -> None:
    leaked = sorted(set(splits) & EVAL_SPLITS)
    if leaked and not allow_eval_split:
        raise LeakageError(
            f"split {', '.join(leaked)} is reserved for translation evaluation and must not "
            "be indexed; index train/test only (or opt in explicitly, and that index will "
            "then be refused by eval-translation)")


def _slug(corpora: Sequence[str] | None, splits: Sequence[str]) -> str:
    name = "+".join(sorted(corpora)) if corpora else "all"
    raw = f"{name}__{'+'.join(sorted(splits))}"
    return re.sub(r"[^\w+.-]+", "_", raw)[:120]


@dataclass
class Partition:
    dialect: str
    rows: np.ndarray            # global doc positions, ascending
    dense: object               # faiss index over vectors[rows]
    dense_kind: str             # "flat" | "hnsw"
    bm25: object                # bm25s.BM25 over docs[rows] tokens

    def __len__(self) -> int:
        return len(self.rows)


class RetrievalIndex:
    def __init__(self, folder: Path, manifest: dict, docs: list[dict], vectors: np.ndarray,
                 partitions: dict[str, Partition]):
        self.folder, self.manifest, self.docs = folder, manifest, docs
        self.vectors, self.partitions = vectors, partitions
        self.pair_ids = np.array([d["id"] for d in docs], dtype=np.int64)

    @property
    def splits(self) -> list[str]:
        return self.manifest["splits"]

    @property
    def regions(self) -> dict[str, str]:
        return self.manifest.get("regions", {})

    @property
    def selfcheck(self) -> dict:
        return self.manifest.get("selfcheck") or {}

    def dense_trust(self, dialect: str) -> float:
        """The measured trust in the dense leg for a dialect (1.0 when never measured)."""
        check = self.selfcheck
        per = check.get("per_dialect", {}).get(dialect)
        if per and "dense_trust" in per:
            return float(per["dense_trust"])
        return float(check.get("overall", {}).get("dense_trust", 1.0))

    def summary(self) -> dict:
        m = self.manifest
        return {"folder": str(self.folder), "pairs": m["pair_count"], "splits": m["splits"],
                "corpora": m["corpora"], "encoder": m["encoder_id"],
                "corpus_hash": m["corpus_hash"][:16],
                "partitions": m["partitions"], "selfcheck": m.get("selfcheck")}

    @classmethod
    def open(cls, folder: Path) -> "RetrievalIndex":
        import bm25s
        import faiss

        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        docs = json.loads((folder / "docs.json").read_text(encoding="utf-8"))
        vectors = np.load(folder / "vectors.npy")
        partitions = {}
        for dialect, info in manifest["partitions"].items():
            rows = np.array(info["rows"], dtype=np.int64)
            dense = faiss.read_index(str(folder / f"dense_{dialect}.faiss"))
            if info["dense_kind"] == "hnsw":
                dense.hnsw.efSearch = manifest["index_params"].get("hnsw_ef_search", 128)
            bm25 = bm25s.BM25.load(str(folder / f"bm25_{dialect}"), show_progress=False)
            partitions[dialect] = Partition(dialect, rows, dense, info["dense_kind"], bm25)
        return cls(folder, manifest, docs, vectors, partitions)


def _identity(corpora, splits, chash, encoder_id, cfg: RetrievalConfig) -> dict:
    return {"format": INDEX_FORMAT, "corpora": sorted(corpora) if corpora else None,
            "splits": sorted(splits), "corpus_hash": chash, "encoder_id": encoder_id,
            "tokenizer": TOKENIZER_VERSION, "index_params": cfg.index_params}


def _build_dense(vectors: np.ndarray, cfg: RetrievalConfig):
    import faiss

    dim = vectors.shape[1]
    if len(vectors) <= cfg.exact_dense_max:
        index, kind = faiss.IndexFlatIP(dim), "flat"
    else:
        index, kind = faiss.IndexHNSWFlat(dim, cfg.hnsw_m, faiss.METRIC_INNER_PRODUCT), "hnsw"
        index.hnsw.efConstruction = cfg.hnsw_ef_construction
        index.hnsw.efSearch = cfg.hnsw_ef_search
    index.add(np.ascontiguousarray(vectors, dtype=np.float32))
    return index, kind


def _build_sparse(token_lists: list[list[str]], cfg: RetrievalConfig):
    import bm25s

    bm25 = bm25s.BM25(k1=cfg.bm25_k1, b=cfg.bm25_b, method="lucene")
    bm25.index([t or [""] for t in token_lists], show_progress=False)
    return bm25


def build_index(ws: Workspace, *, encoder: Encoder, corpora: Sequence[str] | None = None,
                splits: Sequence[str] = DEFAULT_SPLITS, cfg: RetrievalConfig | None = None,
                allow_eval_split: bool = False, folder: Path | None = None,
                selfcheck: bool = True,
                progress: Callable[[int, int, str], None] | None = None,
                cancelled: Callable[[], bool] | None = None) -> RetrievalIndex:
    """Build (replace) the index for these corpora and splits. The previous index, if any,
    stays usable until the new one is complete."""
    import bm25s  # noqa: F401 - fail early when missing
    import faiss

    cfg = cfg or RetrievalConfig()
    check_splits(splits, allow_eval_split=allow_eval_split)
    pairs = select_pairs(ws, corpora, splits)
    if not pairs:
        raise UserError(f"no sentence pairs in split(s) {', '.join(splits)}"
                        + (f" of corpus {', '.join(corpora)}" if corpora else "")
                        + "; import a parallel corpus first")
    folder = folder or index_root(ws) / _slug(corpora, splits)
    started = time.monotonic()
    vectors = encoder.encode([p["standard_text"] for p in pairs], progress=progress,
                             cancelled=cancelled)
    docs = [{"id": p["id"], "dialect": p["dialect"], "district": p["district"],
             "split": p["split"], "corpus": p["corpus"], "standard_text": p["standard_text"],
             "dialect_text": p["dialect_text"], "standard_key": p["standard_key"],
             "dialect_key": p["dialect_key"], "tokens": tokenize(p["standard_text"])}
            for p in pairs]
    regions = {r["code"]: r["region"] for r in ws.query("SELECT code, region FROM dialects")}
    tmp = folder.with_name(folder.name + ".building")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    by_dialect: dict[str, list[int]] = {}
    for pos, d in enumerate(docs):
        by_dialect.setdefault(d["dialect"], []).append(pos)
    part_info, partitions = {}, {}
    for dialect, positions in sorted(by_dialect.items()):
        rows = np.array(positions, dtype=np.int64)
        dense, kind = _build_dense(vectors[rows], cfg)
        bm25 = _build_sparse([docs[i]["tokens"] for i in positions], cfg)
        faiss.write_index(dense, str(tmp / f"dense_{dialect}.faiss"))
        bm25.save(str(tmp / f"bm25_{dialect}"), show_progress=False)
        partitions[dialect] = Partition(dialect, rows, dense, kind, bm25)
        part_info[dialect] = {"count": len(rows), "dense_kind": kind, "rows": positions}
    np.save(tmp / "vectors.npy", vectors)
    (tmp / "docs.json").write_text(json.dumps(docs, ensure_ascii=False), encoding="utf-8")
    manifest = {**_identity(corpora, splits, corpus_hash(pairs), encoder.encoder_id, cfg),
                "encoder_label": encoder.label, "encoder_setting": encoder.setting,
                "pair_count": len(pairs), "regions": regions, "partitions": part_info,
                "built_at": utcnow(), "encoded_new_sentences": encoder.encoded_count,
                "selfcheck": None}
    manifest["index_params"]["hnsw_ef_search"] = cfg.hnsw_ef_search
    index = RetrievalIndex(folder, manifest, docs, vectors, partitions)
    if selfcheck:
        from engine.rag.selfcheck import run_selfcheck

        manifest["selfcheck"] = run_selfcheck(ws, index, encoder, cfg, progress=progress,
                                              cancelled=cancelled)
    manifest["build_seconds"] = round(time.monotonic() - started, 2)
    (tmp / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=1),
                                       encoding="utf-8")
    old = folder.with_name(folder.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if folder.exists():
        folder.rename(old)
    tmp.rename(folder)
    shutil.rmtree(old, ignore_errors=True)
    index.folder = folder
    log.info("built index %s: %d pairs, %d dialects", folder, len(docs), len(partitions))
    return index


def ensure_index(ws: Workspace, *, encoder: Encoder, corpora: Sequence[str] | None = None,
                 splits: Sequence[str] = DEFAULT_SPLITS, cfg: RetrievalConfig | None = None,
                 allow_eval_split: bool = False, folder: Path | None = None,
                 progress=None, cancelled=None) -> tuple[RetrievalIndex, bool]:
    """The current index for these settings: loaded when the manifest still matches the
    corpus and encoder, rebuilt otherwise. Returns (index, rebuilt)."""
    cfg = cfg or RetrievalConfig()
    check_splits(splits, allow_eval_split=allow_eval_split)
    folder = folder or index_root(ws) / _slug(corpora, splits)
    manifest_path = folder / "manifest.json"
    if manifest_path.exists():
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        pairs = select_pairs(ws, corpora, splits)
        wanted = _identity(corpora, splits, corpus_hash(pairs), encoder.encoder_id, cfg)
        have = {k: manifest.get(k) for k in wanted}
        have["index_params"] = {k: v for k, v in (manifest.get("index_params") or {}).items()
                                if k in wanted["index_params"]}
        if have == wanted:
            return RetrievalIndex.open(folder), False
        changed = sorted(k for k in wanted if have.get(k) != wanted[k])
        log.info("index %s is stale (%s changed); rebuilding", folder, ", ".join(changed))
    index = build_index(ws, encoder=encoder, corpora=corpora, splits=splits, cfg=cfg,
                        allow_eval_split=allow_eval_split, folder=folder, progress=progress,
                        cancelled=cancelled)
    return index, True
