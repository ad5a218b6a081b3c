"""The retrieval stage's front door: the retriever over a workspace's sentence pairs (the
index built or reused on the way) and the encoder that embeds them.

Front ends import this module, never the stage's others (.importlinter).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.rag.build import DEFAULT_SPLITS, ensure_index
from engine.rag.encoder import Encoder
from engine.rag.index import default_cache
from engine.rag.retriever import Retriever
from engine.workspace.store import Workspace

__all__ = ["DEFAULT_SPLITS", "Encoder", "Retriever", "open_retriever"]


def open_retriever(
    ws: Workspace,
    encoder: str | None = None,
    *,
    corpora: Sequence[str] | None = None,
    splits: Sequence[str] = DEFAULT_SPLITS,
    allow_eval_split: bool = False,
    progress=None,
    cancelled=None,
) -> tuple[Retriever, bool]:
    """A retriever over the index for these settings, and whether the index was (re)built:
    ``encoder`` is a sentence-transformers folder or cached name (None: the bundled one)."""
    enc = Encoder(encoder, default_cache(ws))
    index, rebuilt = ensure_index(
        ws,
        encoder=enc,
        corpora=corpora,
        splits=splits,
        allow_eval_split=allow_eval_split,
        progress=progress,
        cancelled=cancelled,
    )
    return Retriever(index, enc), rebuilt
