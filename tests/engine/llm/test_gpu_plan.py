"""GPU offload proposal: fixed numbers (no GPU is needed), the real GGUF header, load_params."""

import json

import pytest

from engine.llm.models.gpu_plan import (
    MARGIN_BYTES,
    MARGIN_SHARE,
    MIB,
    Gpu,
    ModelShape,
    best_gpu,
    gguf_shape,
    parse_nvidia_smi,
    plan_offload,
    propose_context,
)

GIB = 1024**3
# an 8B-class model, Q4: 32 layers, GQA 8 × 128 per K and V, 4.6 GiB file, 8k trained context
LLAMA8B = ModelShape(
    n_layers=32, n_embd=4096, n_embd_kv=1024, size_bytes=int(4.6 * GIB), context_length=8192
)


def test_kv_cache_arithmetic():
    # 2 × 32 layers × 8192 cells × 1024 × 2 bytes = 1 GiB
    assert LLAMA8B.kv_bytes(8192) == GIB
    assert propose_context(LLAMA8B) == 8192  # capped by the trained context
    assert propose_context(ModelShape(18, 640, 256, 1, 32768)) == 18432


def test_all_layers_fit_with_margin():
    plan = plan_offload(LLAMA8B, Gpu("RTX 4090", 20 * GIB, 24 * GIB, "cuda"))
    assert plan.n_gpu_layers == -1 and plan.layers_on_gpu == 32
    assert plan.kv_bytes == GIB and plan.n_ctx == 8192
    assert plan.budget_bytes == int(20 * GIB * (1 - MARGIN_SHARE)) - MARGIN_BYTES
    assert "All 32 layers fit on RTX 4090" in plan.message


def test_a_fraction_fits():
    # budget = 4 GiB × 0.9 − 0.75 GiB = 2.85 GiB; per layer = 5.6 GiB / 33 ≈ 0.1697 GiB → 16
    plan = plan_offload(LLAMA8B, Gpu("GTX 1650", 4 * GIB, 4 * GIB, "cuda"))
    assert plan.n_gpu_layers == plan.layers_on_gpu == 16
    assert plan.message.startswith("16 of 32 layers fit on GTX 1650")


def test_cpu_fallback_messages():
    tiny = plan_offload(LLAMA8B, Gpu("old", 900 * MIB, 2 * GIB, "cuda"))
    assert tiny.n_gpu_layers == 0 and tiny.message.startswith("CPU fallback:")
    none = plan_offload(LLAMA8B, None)
    assert none.n_gpu_layers == 0 and "no GPU found" in none.message
    build = plan_offload(
        LLAMA8B, Gpu("RTX 4090", 20 * GIB, 24 * GIB, "cuda"), supports_offload=False
    )
    assert build.n_gpu_layers == 0 and "cannot offload" in build.message


def test_metal_uses_a_share_of_unified_memory():
    mac = Gpu("Apple GPU", None, 16 * GIB, "metal")
    assert mac.describe() == "Apple GPU (Metal), unified memory"
    assert plan_offload(LLAMA8B, mac).n_gpu_layers == -1  # 10.56 GiB share, 5.6 needed
    # 8 GiB × 0.66 × 0.9 − 0.75 GiB ≈ 4.00 GiB budget / 0.1697 GiB per layer → 23
    assert plan_offload(LLAMA8B, Gpu("Apple GPU", None, 8 * GIB, "metal")).n_gpu_layers == 23


def test_parse_nvidia_smi_and_best_gpu():
    gpus = parse_nvidia_smi(
        "NVIDIA H200, 140000, 143771\nTesla T4, 15000, 15360\nvGPU, [N/A], [N/A]\n"
    )
    assert [g.name for g in gpus] == ["NVIDIA H200", "Tesla T4"]
    assert gpus[1].free_bytes == 15000 * MIB and gpus[1].total_bytes == 15360 * MIB
    assert best_gpu(gpus).name == "NVIDIA H200" and best_gpu([]) is None
    assert "140000" not in gpus[0].describe() and "GiB free of" in gpus[0].describe()


def test_shape_of_the_embedded_gguf(embedded_gguf):
    shape = gguf_shape(embedded_gguf)
    # Gemma 3 270M: 18 blocks, 640 wide, one KV head of 256
    assert (shape.n_layers, shape.n_embd, shape.n_embd_kv) == (18, 640, 256)
    assert shape.context_length == 32768 and shape.size_bytes == embedded_gguf.stat().st_size
    plan = plan_offload(shape, Gpu("T4", 15 * GIB, 16 * GIB, "cuda"))
    assert plan.n_gpu_layers == -1 and plan.kv_bytes == 2 * 18 * 18432 * 256 * 2


def test_update_load_params_merges(workspace):
    from engine.llm.models.registry import update_load_params

    with workspace.transaction() as conn:
        conn.execute(
            "INSERT INTO models(name, kind, load_params, added_at) "
            "VALUES ('m', 'gguf', '{\"n_seq\": 8}', 'now')"
        )
    model_id = workspace.scalar("SELECT id FROM models WHERE name = 'm'")
    assert update_load_params(workspace, model_id, n_gpu_layers=-1) == {
        "n_seq": 8,
        "n_gpu_layers": -1,
    }
    saved = json.loads(workspace.scalar("SELECT load_params FROM models WHERE id = ?", (model_id,)))
    assert saved == {"n_gpu_layers": -1, "n_seq": 8}
    assert update_load_params(workspace, model_id, n_gpu_layers=None) == {"n_seq": 8}
    with pytest.raises(Exception, match="no model"):
        update_load_params(workspace, 999, n_gpu_layers=1)
