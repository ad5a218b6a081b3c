"""Small GGUF files written with the ``gguf`` package's own writer, for registry tests."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def write_gguf(
    path: Path,
    tensors: list[str],
    *,
    arch: str = "llama",
    block_count: int | None = 1,
    name: str = "Tiny Test Model",
) -> Path:
    """A GGUF with a valid header, ``general.name`` = ``name`` and one 32-float tensor for
    each of ``tensors``."""
    import gguf

    writer = gguf.GGUFWriter(str(path), arch)
    writer.add_name(name)
    if block_count is not None:
        writer.add_block_count(block_count)
    writer.add_context_length(128)
    for tensor in tensors:
        writer.add_tensor(tensor, np.ones(32, dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


# what a one-layer llama needs by our check: embedding, output norm, a tensor in layer 0
COMPLETE_LLAMA = ["token_embd.weight", "output_norm.weight", "blk.0.attn_norm.weight"]
