"""Fixtures for the RAG tests: the real Vashantor corpus in a workspace, and an embedding
cache kept in the session's data folder so repeated runs do not re-encode sentences."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest

DIALECTS = ("barishal", "chittagong", "mymensingh", "noakhali", "sylhet")


def load_vashantor(ws, data_dir: Path, dialects=DIALECTS, corpus="vashantor") -> int:
    """Insert the multiway CSV's pairs straight into sentence_pairs (the importer is
    tested elsewhere; these tests need the rows, not the import path)."""
    from engine.text.textnorm import canonical_key, normalize_text
    from engine.workspace.store import utcnow

    path = data_dir / "vashantor" / "vashantor_multiway.csv"
    with path.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    with ws.transaction() as conn:
        conn.execute(
            "INSERT OR IGNORE INTO corpora(name, source, created_at) VALUES (?,?,?)",
            (corpus, str(path), utcnow()),
        )
        cid = conn.execute("SELECT id FROM corpora WHERE name = ?", (corpus,)).fetchone()[0]
        data = []
        for r in rows:
            split = (
                "validation"
                if r["vashantor_split"].startswith("validation")
                else r["vashantor_split"]
            )
            for d in dialects:
                std, dia = normalize_text(r["bangla_speech"]), normalize_text(r[d])
                data.append((cid, std, dia, d, split, canonical_key(std), canonical_key(dia)))
        conn.executemany(
            "INSERT OR IGNORE INTO sentence_pairs(corpus_id, standard_text, dialect_text, dialect, "
            "split, standard_key, dialect_key) VALUES (?,?,?,?,?,?,?)",
            data,
        )
    return len(data)


@pytest.fixture(scope="session")
def embedding_cache_path() -> Path:
    return Path(os.environ["UPABHASHA_DATA_DIR"]) / "rag-test-embedding-cache.sqlite"


@pytest.fixture(scope="session")
def default_encoder(embedding_cache_path):
    from engine.rag.encoder import EmbeddingCache, Encoder

    return Encoder(None, EmbeddingCache(embedding_cache_path))


@pytest.fixture(scope="session")
def vashantor_ws(shared_data, tmp_path_factory):
    """A workspace holding all five Vashantor dialects (train/test/validation)."""
    from engine.workspace.store import Workspace

    ws = Workspace(tmp_path_factory.mktemp("vashantor") / "ws.sqlite")
    load_vashantor(ws, shared_data)
    yield ws
    ws.close()


@pytest.fixture(scope="session")
def vashantor_index(vashantor_ws, default_encoder):
    """Index over train+test of all five dialects, with the self-check."""
    from engine.rag.build import build_index

    return build_index(vashantor_ws, encoder=default_encoder)
