"""Fixtures for understanding-task tests: a small parallel corpus in the workspace (train and
validation splits, two dialects), a scripted backend and a model row for it."""

from __future__ import annotations

import pytest

from engine.text.textnorm import canonical_key
from engine.workspace.store import utcnow

# (dialect, split, dialect text, standard text): real Vashantor-style sentences, written here.
PAIRS = [
    ("sylhet", "train", "আমি বাজারো যাইরাম", "আমি বাজারে যাচ্ছি"),
    ("sylhet", "train", "তাইন কুনতা খাইছইন", "তিনি কী খেয়েছেন"),
    ("sylhet", "train", "ইতা কিতা অইলো", "এটা কী হলো"),
    ("sylhet", "validation", "তুমি কই যাইরায়", "তুমি কোথায় যাচ্ছ"),
    ("sylhet", "validation", "আমার ফুয়া বাড়িত আছে", "আমার ছেলে বাড়িতে আছে"),
    ("chittagong", "train", "আঁই বাজারত যাইদ্দি", "আমি বাজারে যাচ্ছি"),
    ("chittagong", "train", "তুঁই কি খাইও", "তুমি কী খেয়েছ"),
    ("chittagong", "train", "ইবা কি অইয়ে", "এটা কী হলো"),
    ("chittagong", "validation", "তুঁই কডে যর", "তুমি কোথায় যাচ্ছ"),
    ("chittagong", "validation", "আঁর পোয়া বাড়িত আছে", "আমার ছেলে বাড়িতে আছে"),
]


def insert_pairs(ws, pairs=PAIRS) -> None:
    with ws.transaction() as conn:
        conn.execute("INSERT INTO corpora(name, created_at) VALUES ('t', ?)", (utcnow(),))
        conn.executemany(
            "INSERT INTO sentence_pairs(corpus_id, standard_text, dialect_text, dialect, split, "
            "standard_key, dialect_key) VALUES (1, ?, ?, ?, ?, ?, ?)",
            [
                (s, d, code, split, canonical_key(s), canonical_key(d))
                for code, split, d, s in pairs
            ],
        )


@pytest.fixture
def pairs_ws(workspace):
    insert_pairs(workspace)
    return workspace


@pytest.fixture
def model_row(workspace):
    with workspace.transaction() as conn:
        conn.execute(
            "INSERT INTO models(name, kind, api_model, added_at) VALUES ('scripted', 'endpoint', "
            "'x', ?)",
            (utcnow(),),
        )
    return workspace.query("SELECT * FROM models WHERE name = 'scripted'")[0]
