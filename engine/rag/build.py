"""Building the retrieval index and keeping it current (the manifest decides when to rebuild).

Apart from :mod:`engine.rag.index` so that the self-check, which reads an index, and the build,
which runs the self-check, import each other's modules in one direction only.
"""

from __future__ import annotations

import json
import logging
import shutil
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from engine.errors import UserError
from engine.i18n import N_
from engine.rag.config import RetrievalConfig
from engine.rag.encoder import Encoder
from engine.rag.index import (
    DEFAULT_SPLITS,
    Partition,
    RetrievalIndex,
    check_splits,
    corpus_hash,
    identity,
    index_root,
    index_slug,
    select_pairs,
)
from engine.rag.query import tokenize
from engine.rag.selfcheck import run_selfcheck
from engine.workspace.store import Workspace, utcnow

log = logging.getLogger(__name__)


def _build_dense(vectors: np.ndarray, cfg: RetrievalConfig):
    # lazy: faiss's native library loads only when an index is used
    import faiss

    dim = vectors.shape[1]
    index: Any
    if len(vectors) <= cfg.exact_dense_max:
        index, kind = faiss.IndexFlatIP(dim), "flat"
    else:
        index, kind = faiss.IndexHNSWFlat(dim, cfg.hnsw_m, faiss.METRIC_INNER_PRODUCT), "hnsw"
        index.hnsw.efConstruction = cfg.hnsw_ef_construction
        index.hnsw.efSearch = cfg.hnsw_ef_search
    index.add(np.ascontiguousarray(vectors, dtype=np.float32))
    return index, kind


def _build_sparse(token_lists: list[list[str]], cfg: RetrievalConfig):
    # lazy: bm25s is slow to import
    import bm25s

    bm25 = bm25s.BM25(k1=cfg.bm25_k1, b=cfg.bm25_b, method="lucene")
    bm25.index([t or [""] for t in token_lists], show_progress=False)
    return bm25


def build_index(
    ws: Workspace,
    *,
    encoder: Encoder,
    corpora: Sequence[str] | None = None,
    splits: Sequence[str] = DEFAULT_SPLITS,
    cfg: RetrievalConfig | None = None,
    allow_eval_split: bool = False,
    folder: Path | None = None,
    selfcheck: bool = True,
    progress: Callable[[int, int, str], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> RetrievalIndex:
    """Build (replace) the index for these corpora and splits. The previous index, if any,
    stays usable until the new one is complete."""
    # lazy: bm25s is slow to import
    import bm25s  # noqa: F401 - fail early when missing
    import faiss

    cfg = cfg or RetrievalConfig()
    check_splits(splits, allow_eval_split=allow_eval_split)
    pairs = select_pairs(ws, corpora, splits)
    if not pairs:
        raise UserError(
            f"no sentence pairs in split(s) {', '.join(splits)}"
            + (f" of corpus {', '.join(corpora)}" if corpora else "")
            + "; import a parallel corpus first"
        )
    folder = folder or index_root(ws) / index_slug(corpora, splits)
    started = time.monotonic()
    vectors = encoder.encode(
        [p["standard_text"] for p in pairs], progress=progress, cancelled=cancelled
    )
    docs = [
        {
            "id": p["id"],
            "dialect": p["dialect"],
            "district": p["district"],
            "split": p["split"],
            "corpus": p["corpus"],
            "standard_text": p["standard_text"],
            "dialect_text": p["dialect_text"],
            "standard_key": p["standard_key"],
            "dialect_key": p["dialect_key"],
            "tokens": tokenize(p["standard_text"]),
        }
        for p in pairs
    ]
    regions = {r["code"]: r["region"] for r in ws.query("SELECT code, region FROM dialects")}
    tmp = folder.with_name(folder.name + ".building")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    by_dialect: dict[str, list[int]] = {}
    for pos, d in enumerate(docs):
        by_dialect.setdefault(d["dialect"], []).append(pos)
    part_info, partitions = {}, {}
    for done, (dialect, positions) in enumerate(sorted(by_dialect.items())):
        if cancelled and cancelled():
            raise InterruptedError("index build cancelled")
        if progress:
            progress(done, len(by_dialect), "building the index")
        rows = np.array(positions, dtype=np.int64)
        dense, kind = _build_dense(vectors[rows], cfg)
        bm25 = _build_sparse([docs[i]["tokens"] for i in positions], cfg)
        faiss.write_index(dense, str(tmp / f"dense_{dialect}.faiss"))
        bm25.save(str(tmp / f"bm25_{dialect}"), show_progress=False)
        partitions[dialect] = Partition(dialect, rows, dense, kind, bm25)
        part_info[dialect] = {"count": len(rows), "dense_kind": kind, "rows": positions}
    np.save(tmp / "vectors.npy", vectors)
    (tmp / "docs.json").write_text(json.dumps(docs, ensure_ascii=False), encoding="utf-8")
    manifest = {
        **identity(corpora, splits, corpus_hash(pairs), encoder.encoder_id, cfg),
        "encoder_label": encoder.label,
        "encoder_setting": encoder.setting,
        "pair_count": len(pairs),
        "regions": regions,
        "partitions": part_info,
        "built_at": utcnow(),
        "encoded_new_sentences": encoder.encoded_count,
        "selfcheck": None,
    }
    manifest["index_params"]["hnsw_ef_search"] = cfg.hnsw_ef_search
    index = RetrievalIndex(folder, manifest, docs, vectors, partitions)
    if selfcheck:
        manifest["selfcheck"] = run_selfcheck(
            ws, index, encoder, cfg, progress=progress, cancelled=cancelled
        )
    manifest["build_seconds"] = round(time.monotonic() - started, 2)
    (tmp / "manifest.json").write_text(
        json.dumps(manifest, ensure_ascii=False, indent=1), encoding="utf-8"
    )
    old = folder.with_name(folder.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if folder.exists():
        folder.rename(old)
    tmp.rename(folder)
    shutil.rmtree(old, ignore_errors=True)
    index.folder = folder
    log.info(N_("built index %s: %d pairs, %d dialects"), folder, len(docs), len(partitions))
    return index


def ensure_index(
    ws: Workspace,
    *,
    encoder: Encoder,
    corpora: Sequence[str] | None = None,
    splits: Sequence[str] = DEFAULT_SPLITS,
    cfg: RetrievalConfig | None = None,
    allow_eval_split: bool = False,
    folder: Path | None = None,
    progress=None,
    cancelled=None,
) -> tuple[RetrievalIndex, bool]:
    """The current index for these settings: loaded when the manifest still matches the
    corpus and encoder, rebuilt otherwise. Returns (index, rebuilt)."""
    cfg = cfg or RetrievalConfig()
    check_splits(splits, allow_eval_split=allow_eval_split)
    folder = folder or index_root(ws) / index_slug(corpora, splits)
    manifest_path = folder / "manifest.json"
    if manifest_path.exists():
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        pairs = select_pairs(ws, corpora, splits)
        wanted = identity(corpora, splits, corpus_hash(pairs), encoder.encoder_id, cfg)
        have = {k: manifest.get(k) for k in wanted}
        have["index_params"] = {
            k: v
            for k, v in (manifest.get("index_params") or {}).items()
            if k in wanted["index_params"]
        }
        if have == wanted:
            return RetrievalIndex.open(folder), False
        changed = sorted(k for k in wanted if have.get(k) != wanted[k])
        log.info(N_("index %s is stale (%s changed); rebuilding"), folder, ", ".join(changed))
    index = build_index(
        ws,
        encoder=encoder,
        corpora=corpora,
        splits=splits,
        cfg=cfg,
        allow_eval_split=allow_eval_split,
        folder=folder,
        progress=progress,
        cancelled=cancelled,
    )
    return index, True
