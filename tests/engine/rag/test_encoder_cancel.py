"""A cancel reaches a translation while its encoder loads: the caller stops at once, though
torch's import and the model's construction cannot stop part-way (they finish in the
background and are dropped). The slow load is injected: it waits until the test lets it go."""

from __future__ import annotations

import threading

import pytest

from engine.rag import encoder as encoder_module
from engine.rag.encoder import EmbeddingCache, Encoder


def test_a_cancel_during_the_encoder_load_stops_the_caller_before_the_load_ends(
    tmp_path, monkeypatch
):
    release, started = threading.Event(), threading.Event()

    def slow_load(self):
        started.set()
        release.wait(60)
        return object()

    monkeypatch.setattr(Encoder, "_load", slow_load)
    encoder = Encoder(None, EmbeddingCache(tmp_path / "cache.sqlite"))
    notes: list[str] = []
    with pytest.raises(InterruptedError, match="encoder load cancelled"):
        encoder.encode(
            ["একটি বাক্য"],
            progress=lambda done, total, note: notes.append(note),
            cancelled=started.is_set,  # the cancel comes once the load has begun
        )
    assert not release.is_set()  # returned while the load was still running
    assert notes == ["loading the encoder"]  # the phase was named before it began
    assert encoder._model is None
    release.set()


def test_encoding_looks_for_a_cancel_every_batch(tmp_path):
    encoder = Encoder(None, EmbeddingCache(tmp_path / "cache.sqlite"))

    def cancelled() -> bool:  # the cancel comes once the first batch is encoded
        return encoder.encoded_count > 0

    texts = [f"বাক্য {i}" for i in range(encoder_module.ENCODE_BATCH * 3)]
    with pytest.raises(InterruptedError, match="encoding cancelled"):
        encoder.encode(texts, cancelled=cancelled)
    assert encoder.encoded_count == encoder_module.ENCODE_BATCH


def test_a_cancel_during_a_batch_stops_the_caller_before_the_batch_ends(tmp_path):
    """One batch takes seconds on a busy laptop and cannot stop part-way: the caller stops
    at once, the batch finishes in the background and its vectors are dropped. The slow batch
    is injected: it waits until the test lets it go."""
    release, started = threading.Event(), threading.Event()

    class SlowModel:
        def encode(self, texts, **_options):
            started.set()
            release.wait(60)
            raise AssertionError("a cancelled batch's result is never used")

    encoder = Encoder(None, EmbeddingCache(tmp_path / "cache.sqlite"))
    encoder._model = SlowModel()
    with pytest.raises(InterruptedError, match="encoding cancelled"):
        encoder.encode(["একটি বাক্য"], cancelled=started.is_set)
    assert not release.is_set()  # returned while the batch was still running
    assert encoder.encoded_count == 0
    release.set()
