"""LoRA adapters: checked before registration, part of the model identity and the run
card, and really applied by llama.cpp (the embedded Gemma 3 270M with adapters built here)."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from engine.errors import UserError
from engine.llm.models.gguf_info import read_gguf_header
from engine.understanding.adapters import add_adapter_model, check_adapter


def make_lora(base, out, b_scale: float, rank: int = 4):
    """A LoRA adapter GGUF on every attn_q of ``base``: A random, B random * b_scale."""
    import gguf

    header = read_gguf_header(base, re.compile(r"^general\.architecture$"))
    writer = gguf.GGUFWriter(str(out), header.metadata["general.architecture"])
    writer.add_string("general.type", "adapter")
    writer.add_string("adapter.type", "lora")
    writer.add_float32("adapter.lora.alpha", float(rank))
    rng = np.random.default_rng(0)
    for name, shape, _type in header.tensors:
        if name.endswith("attn_q.weight"):
            n_in, n_out = shape[0], shape[1]
            writer.add_tensor(
                name + ".lora_a", rng.standard_normal((rank, n_in)).astype(np.float32) * 0.05
            )
            writer.add_tensor(
                name + ".lora_b", rng.standard_normal((n_out, rank)).astype(np.float32) * b_scale
            )
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return out


@pytest.fixture
def base(workspace, embedded_gguf):
    from engine.llm.models.registry import ensure_embedded_default

    model_id = ensure_embedded_default(workspace)
    return workspace.query("SELECT * FROM models WHERE id = ?", (model_id,))[0]


def test_adapter_files_are_checked(workspace, base, embedded_gguf, tmp_path):
    with pytest.raises(UserError, match="not a LoRA adapter GGUF"):
        check_adapter(embedded_gguf, "gemma3")  # a model, not an adapter
    text = tmp_path / "x.gguf"
    text.write_text("hello", encoding="utf-8")
    with pytest.raises(UserError, match="not a valid GGUF file"):
        add_adapter_model(workspace, base["name"], text, name="x")
    lora = make_lora(embedded_gguf, tmp_path / "a.gguf", 0.5)
    with pytest.raises(UserError, match="adapter for 'gemma3', but the base model is 'llama'"):
        check_adapter(lora, "llama")
    assert workspace.scalar("SELECT count(*) FROM models") == 1


@pytest.mark.slow
def test_adapters_change_identity_card_and_outputs(workspace, base, embedded_gguf, tmp_path):
    from engine.llm.runs.run import open_run, run_card
    from engine.llm.runtime.factory import open_backend
    from engine.llm.types import Request, Sampler

    zero = make_lora(embedded_gguf, tmp_path / "zero.gguf", 0.0)  # B = 0: no change
    strong = make_lora(embedded_gguf, tmp_path / "strong.gguf", 2.0)
    add_adapter_model(workspace, base["name"], zero, name="noop-lora")
    report = add_adapter_model(workspace, base["name"], strong, name="strong-lora", scale=1.0)
    assert report["tensors"] == 36
    rows = {r["name"]: r for r in workspace.query("SELECT * FROM models")}
    request = Request(key="k", prompt="The capital of Bangladesh is", sampler=Sampler(max_tokens=8))
    outputs, ids = {}, {}
    for name in (base["name"], "noop-lora", "strong-lora"):
        with open_backend(rows[name], n_seq=1) as backend:
            ids[name] = backend.info().model_id
            outputs[name] = next(iter(backend.generate([request]))).text
    assert outputs["noop-lora"] == outputs[base["name"]]
    assert outputs["strong-lora"] != outputs[base["name"]]
    assert len(set(ids.values())) == 3 and ids[base["name"]] == base["sha256"]
    card = run_card(workspace, open_run(workspace, "task:x", rows["strong-lora"], {"a": 1}))
    assert card["model"]["adapter"]["path"] == str(strong.resolve())
    assert (
        card["model"]["adapter"]["scale"] == 1.0 and len(card["model"]["adapter"]["sha256"]) == 64
    )
    assert open_run(workspace, "task:x", rows["noop-lora"], {"a": 1}) != open_run(
        workspace, "task:x", rows[base["name"]], {"a": 1}
    )
    assert json.loads(rows["strong-lora"]["load_params"])["lora_scale"] == 1.0
