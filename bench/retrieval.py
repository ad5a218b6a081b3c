"""Retrieval latency: full hybrid query (dense + sparse + char + fusion + blending) at >= 33k pairs.

Index: the Vashantor train+test pairs of ../shared/data (5 dialects) plus generated
variants (per standard sentence three word-level edits — drop, swap, repeat a word —
applied alike to its dialect sides), about 42,800 pairs in 5 dialect partitions. Queries:
500, standard validation sentences and their 2-3-word prefixes ([[SHORT]]), round-robin
over the dialects. Query vectors are encoded in one batch first (as translation does);
the encoder's own cost is reported separately. Baseline: rank-bm25 ``get_scores`` over
all pairs. Agreement: top-k of the fast path vs the brute-force reference
(engine.rag.reference). Embeddings are cached in the data folder, so only the first run
encodes. Last line: one JSON object.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

DATA = (
    Path(__file__).resolve().parent.parent.parent
    / "shared"
    / "data"
    / "vashantor"
    / "vashantor_multiway.csv"
)
DIALECTS = ("barishal", "chittagong", "mymensingh", "noakhali", "sylhet")


def _edit(words: list[str], op: int, where: float) -> list[str]:
    if len(words) < 3:
        return words + [words[-1]] if words else words
    i = min(len(words) - 2, int(where * (len(words) - 1)))
    if op == 0:
        return words[:i] + words[i + 1 :]
    if op == 1:
        return words[:i] + [words[i + 1], words[i]] + words[i + 2 :]
    return words[: i + 1] + [words[i]] + words[i + 1 :]


def load_pairs() -> tuple[list[tuple], list[dict]]:
    """(index rows, validation rows); index rows = (standard, dialect text, dialect, split)."""
    from engine.text.textnorm import normalize_text

    with DATA.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    index, validation = [], []
    for r in rows:
        std = normalize_text(r["bangla_speech"])
        if r["vashantor_split"] not in ("train", "test"):
            validation.append({"text": std})
            continue
        rng = random.Random(std)
        edits = [(op, rng.random()) for op in (0, 1, 2)]
        for d in DIALECTS:
            dia = normalize_text(r[d])
            index.append((std, dia, d, r["vashantor_split"]))
            for op, where in edits:
                index.append(
                    (
                        " ".join(_edit(std.split(), op, where)),
                        " ".join(_edit(dia.split(), op, where)),
                        d,
                        "train",
                    )
                )
    return index, validation


def build(ws, index_rows, encoder, folder):
    from engine.rag.build import build_index
    from engine.text.textnorm import canonical_key
    from engine.workspace.store import utcnow

    with ws.transaction() as conn:
        conn.execute("INSERT INTO corpora(name, created_at) VALUES ('bench', ?)", (utcnow(),))
        conn.executemany(
            "INSERT OR IGNORE INTO sentence_pairs(corpus_id, standard_text, dialect_text, dialect, "
            "split, standard_key, dialect_key) VALUES (1, ?, ?, ?, ?, ?, ?)",
            [(s, d, dia, sp, canonical_key(s), canonical_key(d)) for s, d, dia, sp in index_rows],
        )

    def progress(done, total, note):
        if done == total or done % 2048 == 0:
            print(f"  {note}: {done}/{total}", file=sys.stderr)

    return build_index(ws, encoder=encoder, folder=folder, selfcheck=False, progress=progress)


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q / 100 * (len(values) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer baseline/reference queries")
    args = ap.parse_args()
    if not DATA.exists():
        print(f"bench/retrieval.py: {DATA} is absent; cannot benchmark", file=sys.stderr)
        print(json.dumps({"skipped": "no data"}))
        return 0
    from rank_bm25 import BM25Okapi

    from engine.llm.models.embedded_model import data_dir
    from engine.rag.encoder import EmbeddingCache, Encoder
    from engine.rag.query import prepare_query
    from engine.rag.reference import ReferenceRetriever
    from engine.rag.retriever import Retriever
    from engine.workspace.store import Workspace

    index_rows, validation = load_pairs()
    tmp = Path(tempfile.mkdtemp(prefix="upabhasha-bench-"))
    ws = Workspace(tmp / "bench.sqlite")
    encoder = Encoder(None, EmbeddingCache(data_dir() / "bench-embedding-cache.sqlite"))
    t0 = time.perf_counter()
    index = build(ws, index_rows, encoder, tmp / "index")
    build_s = time.perf_counter() - t0
    retriever = Retriever(index, encoder)

    queries = []
    for i, v in enumerate(validation):
        queries.append((v["text"], DIALECTS[i % len(DIALECTS)]))
    rng = random.Random(7)
    while len(queries) < 500:
        v = rng.choice(validation)["text"].split()
        queries.append((" ".join(v[: rng.choice((2, 3))]), DIALECTS[len(queries) % len(DIALECTS)]))
    queries = queries[:500]
    n_short = sum(prepare_query(q).short for q, _ in queries)

    t0 = time.perf_counter()
    vectors = encoder.model.encode(
        [q for q, _ in queries], batch_size=64, normalize_embeddings=True
    )
    encode_batch_ms = (time.perf_counter() - t0) * 1000 / len(queries)
    single = []
    for q, _ in queries[:30]:
        t0 = time.perf_counter()
        encoder.model.encode([q], normalize_embeddings=True)
        single.append((time.perf_counter() - t0) * 1000)

    for (q, d), v in zip(queries[:20], vectors):  # warm-up: caches, lazy imports
        retriever.retrieve(q, d, query_vector=v)
    latencies, fallbacks = [], 0
    for (q, d), v in zip(queries, vectors):
        t0 = time.perf_counter()
        ex = retriever.retrieve(q, d, query_vector=v)
        latencies.append((time.perf_counter() - t0) * 1000)
        fallbacks += ex.fallback_fired

    n_base = 100 if args.quick else len(queries)
    bm25 = BM25Okapi([doc["tokens"] or [""] for doc in index.docs])
    base = []
    for q, _ in queries[:n_base]:
        tokens = list(prepare_query(q).tokens)
        t0 = time.perf_counter()
        bm25.get_scores(tokens)
        base.append((time.perf_counter() - t0) * 1000)

    n_ref = 60 if args.quick else len(queries)
    ref = ReferenceRetriever(retriever)
    step = max(1, len(queries) // n_ref)
    checked = list(range(0, len(queries), step))[:n_ref]
    agree = 0
    for i in checked:
        q, d = queries[i]
        fast = retriever.retrieve(q, d, query_vector=vectors[i]).pair_ids
        slow = [index.docs[g]["id"] for g in ref.top_ids(q, d, vectors[i])]
        agree += fast == slow
    p50, p95, b50 = statistics.median(latencies), pct(latencies, 95), statistics.median(base)
    result = {
        "pairs": len(index.docs),
        "queries": len(queries),
        "short_queries": n_short,
        "partitions": {k: len(p) for k, p in index.partitions.items()},
        "dense_kind": sorted({p.dense_kind for p in index.partitions.values()}),
        "build_s": round(build_s, 1),
        "encoded_new_sentences": encoder.encoded_count,
        "fallbacks": fallbacks,
        "encode_ms_per_query_batched": round(encode_batch_ms, 2),
        "encode_single_p50_ms": round(statistics.median(single), 2),
        "rank_bm25_queries": n_base,
        "reference_queries": len(checked),
        "speedup_vs_rank_bm25": round(b50 / p50, 1),
        "p50_ms": round(p50, 3),
        "p95_ms": round(p95, 3),
        "rank_bm25_p50_ms": round(b50, 3),
        "topk_agreement": round(agree / len(checked), 4),
    }
    ws.close()
    import shutil

    shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    sys.exit(main())
