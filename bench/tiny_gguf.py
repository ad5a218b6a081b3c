"""A llama-architecture GGUF with random weights, written on the spot with the ``gguf`` package.

For machines the embedded model cannot travel to (bench/gpu_check.sh on an offline GPU
node: the embedded model is several times the 64 MiB a checkout may carry). Its replies are
noise, but its shapes are a small model's — by default about the embedded Gemma 3 270M's
width and depth, with its 262,144-token vocabulary, the size that makes a host-side logits
copy and argmax expensive — so the engine's host time per step and its share of llama.cpp's
batched decode mean what they mean on the embedded model.

The tokenizer is SentencePiece-style ("llama"): <unk>, <s>, </s>, the 256 byte tokens, then
filler pieces; text tokenizes by byte fallback.
Usage: python bench/tiny_gguf.py OUT.gguf [--vocab N --embd N --layers N --ff N --heads N]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np


def write_random_llama(
    path: Path,
    *,
    vocab: int = 262_144,
    embd: int = 640,
    layers: int = 18,
    ff: int = 2048,
    heads: int = 4,
    kv_heads: int = 1,
    seed: int = 0,
) -> Path:
    import gguf

    rng = np.random.default_rng(seed)
    head_dim = embd // heads

    def weights(*shape: int) -> np.ndarray:
        # f16 halves the file and the time to write it; the scale keeps activations finite
        return (rng.standard_normal(shape, dtype=np.float32) * 0.02).astype(np.float16)

    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_name("Upabhasha random llama (bench)")
    writer.add_context_length(8192)
    writer.add_embedding_length(embd)
    writer.add_block_count(layers)
    writer.add_feed_forward_length(ff)
    writer.add_head_count(heads)
    writer.add_head_count_kv(kv_heads)
    writer.add_rope_dimension_count(head_dim)
    writer.add_layer_norm_rms_eps(1e-6)
    writer.add_file_type(gguf.LlamaFileType.MOSTLY_F16)

    tokens = [b"<unk>", b"<s>", b"</s>"] + [f"<0x{i:02X}>".encode() for i in range(256)]
    types = [2, 3, 3] + [6] * 256  # unknown, control, control, byte
    tokens += [f"\u2581t{i}".encode() for i in range(vocab - len(tokens))]
    types += [1] * (vocab - len(types))
    writer.add_tokenizer_model("llama")
    writer.add_token_list(tokens)
    writer.add_token_scores([0.0] * 259 + [-float(i) for i in range(vocab - 259)])
    writer.add_token_types(types)
    writer.add_bos_token_id(1)
    writer.add_eos_token_id(2)
    writer.add_unk_token_id(0)
    writer.add_add_bos_token(True)

    # numpy shapes are (rows, columns): ggml's ne reversed
    writer.add_tensor("token_embd.weight", weights(vocab, embd))
    writer.add_tensor("output_norm.weight", np.ones(embd, dtype=np.float32))
    for i in range(layers):
        blk = f"blk.{i}"
        writer.add_tensor(f"{blk}.attn_norm.weight", np.ones(embd, dtype=np.float32))
        writer.add_tensor(f"{blk}.attn_q.weight", weights(heads * head_dim, embd))
        writer.add_tensor(f"{blk}.attn_k.weight", weights(kv_heads * head_dim, embd))
        writer.add_tensor(f"{blk}.attn_v.weight", weights(kv_heads * head_dim, embd))
        writer.add_tensor(f"{blk}.attn_output.weight", weights(embd, heads * head_dim))
        writer.add_tensor(f"{blk}.ffn_norm.weight", np.ones(embd, dtype=np.float32))
        writer.add_tensor(f"{blk}.ffn_gate.weight", weights(ff, embd))
        writer.add_tensor(f"{blk}.ffn_up.weight", weights(ff, embd))
        writer.add_tensor(f"{blk}.ffn_down.weight", weights(embd, ff))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--vocab", type=int, default=262_144)
    ap.add_argument("--embd", type=int, default=640)
    ap.add_argument("--layers", type=int, default=18)
    ap.add_argument("--ff", type=int, default=2048)
    ap.add_argument("--heads", type=int, default=4)
    args = ap.parse_args()
    write_random_llama(
        args.out,
        vocab=args.vocab,
        embd=args.embd,
        layers=args.layers,
        ff=args.ff,
        heads=args.heads,
    )
    print(args.out)


if __name__ == "__main__":
    main()
