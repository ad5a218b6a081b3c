"""The retrieval index over a workspace's sentence pairs, persisted next to the workspace.

Layout: ``<workspace>.index/<corpora>__<splits>/`` holds ``manifest.json``, ``docs.json``
(one entry per pair: id, dialect, district, texts, tokens), ``vectors.npy`` (normalised
embeddings of the standard side) and per dialect a FAISS index and a bm25s index. The
index is partitioned by dialect because a translation into dialect D wants D's pairs;
the retriever borrows neighbouring dialects of the same region when D has too few.

The manifest names what the index was built from (corpus content hash, encoder id,
splits, tokenizer, index parameters). :func:`engine.rag.build.ensure_index` rebuilds when any of them
changes; the embedding cache makes a rebuild encode only new sentences.

The evaluation split is never indexed: building with a split named like validation
raises :class:`LeakageError` unless the caller opts in, and such an index is refused by
the translation evaluation (engine.translation.evaluate) all the same.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from engine.errors import UserError
from engine.rag.config import RetrievalConfig
from engine.rag.encoder import EmbeddingCache
from engine.rag.query import TOKENIZER_VERSION
from engine.workspace.store import Workspace

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
    sql = (
        f"SELECT p.id, p.standard_text, p.dialect_text, p.dialect, p.district, p.split, "
        f"p.standard_key, p.dialect_key, c.name AS corpus FROM sentence_pairs p "
        f"JOIN corpora c ON c.id = p.corpus_id WHERE p.split IN ({','.join('?' * len(splits))})"
    )
    if corpora:
        known = {r["name"] for r in ws.query("SELECT name FROM corpora")}
        unknown = sorted(set(corpora) - known)
        if unknown:
            raise UserError(
                f"no corpus named {', '.join(unknown)} "
                f"(known: {', '.join(sorted(known)) or 'none'})"
            )
        sql += f" AND c.name IN ({','.join('?' * len(corpora))})"
        params += list(corpora)
    return ws.query(sql + " ORDER BY p.id", tuple(params))


def corpus_names(ws: Workspace) -> list[str]:
    """The workspace's corpora by name (what an index may be built from)."""
    return [r["name"] for r in ws.query("SELECT name FROM corpora ORDER BY name")]


def corpus_hash(pairs: Sequence[dict]) -> str:
    digest = hashlib.sha256()
    for p in pairs:
        digest.update(
            json.dumps(
                [
                    p["id"],
                    p["standard_key"],
                    p["dialect_key"],
                    p["dialect"],
                    p["district"],
                    p["split"],
                ],
                ensure_ascii=False,
            ).encode()
        )
    return digest.hexdigest()


def check_splits(splits: Sequence[str], *, allow_eval_split: bool = False) -> None:
    leaked = sorted(set(splits) & EVAL_SPLITS)
    if leaked and not allow_eval_split:
        raise LeakageError(
            f"split {', '.join(leaked)} is reserved for translation evaluation and must not "
            "be indexed; index train/test only (or opt in explicitly, and that index will "
            "then be refused by eval-translation)"
        )


def index_slug(corpora: Sequence[str] | None, splits: Sequence[str]) -> str:
    name = "+".join(sorted(corpora)) if corpora else "all"
    raw = f"{name}__{'+'.join(sorted(splits))}"
    return re.sub(r"[^\w+.-]+", "_", raw)[:120]


@dataclass
class Partition:
    dialect: str
    rows: np.ndarray  # global doc positions, ascending
    dense: Any  # faiss index over vectors[rows]
    dense_kind: str  # "flat" | "hnsw"
    bm25: Any  # bm25s.BM25 over docs[rows] tokens

    def __len__(self) -> int:
        return len(self.rows)


class RetrievalIndex:
    def __init__(
        self,
        folder: Path,
        manifest: dict,
        docs: list[dict],
        vectors: np.ndarray,
        partitions: dict[str, Partition],
    ):
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
        return {
            "folder": str(self.folder),
            "pairs": m["pair_count"],
            "splits": m["splits"],
            "corpora": m["corpora"],
            "encoder": m["encoder_id"],
            "corpus_hash": m["corpus_hash"][:16],
            "partitions": m["partitions"],
            "selfcheck": m.get("selfcheck"),
        }

    @classmethod
    def open(cls, folder: Path) -> RetrievalIndex:
        # lazy: bm25s is slow to import
        import bm25s
        import faiss

        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        docs = json.loads((folder / "docs.json").read_text(encoding="utf-8"))
        vectors = np.load(folder / "vectors.npy")
        partitions = {}
        for dialect, info in manifest["partitions"].items():
            rows = np.array(info["rows"], dtype=np.int64)
            dense: Any = faiss.read_index(str(folder / f"dense_{dialect}.faiss"))
            if info["dense_kind"] == "hnsw":
                dense.hnsw.efSearch = manifest["index_params"].get("hnsw_ef_search", 128)
            bm25 = bm25s.BM25.load(str(folder / f"bm25_{dialect}"), show_progress=False)
            partitions[dialect] = Partition(dialect, rows, dense, info["dense_kind"], bm25)
        return cls(folder, manifest, docs, vectors, partitions)


def identity(corpora, splits, chash, encoder_id, cfg: RetrievalConfig) -> dict:
    """What an index was built from; a manifest that differs in any of it is stale."""
    return {
        "format": INDEX_FORMAT,
        "corpora": sorted(corpora) if corpora else None,
        "splits": sorted(splits),
        "corpus_hash": chash,
        "encoder_id": encoder_id,
        "tokenizer": TOKENIZER_VERSION,
        "index_params": cfg.index_params,
    }
