"""A ``llama_batch`` whose rows are numpy arrays (runs inside the model worker).

``llama_batch_init`` gives C arrays that Python fills one field of one row per ctypes call;
here the same struct points into numpy arrays, so a step's rows are written a slice at a
time. Each row's ``seq_id`` pointer points into one int32 array (one sequence per row).
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from typing import Any


class ArrayBatch:
    def __init__(self, n_batch: int):
        # lazy: llama.cpp's native library loads only when a local model is used
        import llama_cpp as L
        import numpy as np

        self.capacity = n_batch
        self.token = np.zeros(n_batch, dtype=np.int32)
        self.pos = np.zeros(n_batch, dtype=np.int32)
        self.n_seq_id = np.ones(n_batch, dtype=np.int32)
        self.seq = np.zeros(n_batch, dtype=np.int32)
        self.logits = np.zeros(n_batch, dtype=np.int8)
        seq_p = ctypes.POINTER(L.llama_seq_id)
        base = self.seq.ctypes.data
        self._seq_rows = (seq_p * n_batch)(
            *[ctypes.cast(base + i * self.seq.itemsize, seq_p) for i in range(n_batch)]
        )
        self.struct = L.llama_batch(
            n_tokens=0,
            token=self.token.ctypes.data_as(ctypes.POINTER(L.llama_token)),
            embd=None,
            pos=self.pos.ctypes.data_as(ctypes.POINTER(L.llama_pos)),
            n_seq_id=self.n_seq_id.ctypes.data_as(ctypes.POINTER(ctypes.c_int32)),
            seq_id=self._seq_rows,
            logits=self.logits.ctypes.data_as(ctypes.POINTER(ctypes.c_int8)),
        )

    @property
    def n_tokens(self) -> int:
        return self.struct.n_tokens

    def clear(self) -> None:
        self.struct.n_tokens = 0

    def extend(self, tokens: Sequence[Any], pos, seq, logits) -> int:
        """Append rows (``pos``, ``seq``, ``logits``: sequences or one value for all);
        returns the first new row's index."""
        start = self.struct.n_tokens
        end = start + len(tokens)
        self.token[start:end] = tokens
        self.pos[start:end] = pos
        self.seq[start:end] = seq
        self.logits[start:end] = logits
        self.struct.n_tokens = end
        return start
