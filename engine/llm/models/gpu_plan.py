"""Which GPU is here, how much of it is free, and how many layers of a GGUF model fit on it.

The model manager shows these facts and proposes ``n_gpu_layers`` and a context length.
The proposal is arithmetic on the GGUF header (layer count, embedding sizes, file size) and
the free memory llama.cpp's own device (Vulkan, CUDA, Metal) or nvidia-smi reports: weights are spread evenly over the layers plus one
(the output layer), the KV cache is ≈ 2 (K and V) × n_layers × n_ctx × n_embd_kv × 2 bytes
(f16), and a margin is kept for llama.cpp's compute buffers and the driver's context.
Qt-free; detection runs in a worker (nvidia-smi can take a second to answer).
"""

from __future__ import annotations

import logging
import mmap
import os
import shutil
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TypedDict, cast

from engine.i18n import _
from engine.llm.models.gguf_info import GGUFInvalid, HeaderReader, read_value

log = logging.getLogger(__name__)

MIB = 1024**2
MARGIN_BYTES = 768 * MIB  # CUDA context + llama.cpp compute buffers, measured ~0.5 GiB
MARGIN_SHARE = 0.10  # and a tenth of the free memory, for other processes' growth
KV_BYTES_PER_VALUE = 2  # f16 KV cache, llama.cpp's default
DEFAULT_CONTEXT = 18432  # engine.llm.models.settings.Schedule's default n_ctx (16 × 1024 + 2048)
APPLE_GPU_SHARE = 0.66  # Metal's recommended working set is about 2/3 of RAM
NVIDIA_QUERY = [
    "nvidia-smi",
    "--query-gpu=name,memory.free,memory.total",
    "--format=csv,noheader,nounits",
]


@dataclass(frozen=True)
class Gpu:
    name: str
    free_bytes: int | None  # None: unified memory, no separate figure
    total_bytes: int | None
    kind: str  # "cuda" | "metal" (nvidia-smi, Apple) | "vulkan" | … (a llama.cpp backend)
    vendor: str = ""
    cpu_driver: bool = False  # a Vulkan driver running on the CPU (lavapipe): never proposed

    def describe(self) -> str:
        if self.kind == "metal":
            return _("Apple GPU (Metal), unified memory")
        if self.cpu_driver:
            return _("{name}: a Vulkan driver that runs on the CPU, not used for offload").format(
                name=self.name
            )
        return _("{name}: {free:.1f} GiB free of {total:.1f} GiB").format(
            name=self.name,
            free=(self.free_bytes or 0) / 1024**3,
            total=(self.total_bytes or 0) / 1024**3,
        )


@dataclass(frozen=True)
class ModelShape:
    n_layers: int
    n_embd: int
    n_embd_kv: int  # per layer, K plus V averaged: head_count_kv × head size
    size_bytes: int
    context_length: int | None  # the model's trained context

    def kv_bytes(self, n_ctx: int) -> int:
        return 2 * self.n_layers * n_ctx * self.n_embd_kv * KV_BYTES_PER_VALUE


class OffloadPlanDict(TypedDict):
    """:meth:`OffloadPlan.as_dict`: every field of the plan, by name."""

    n_gpu_layers: int
    layers_on_gpu: int
    n_layers: int
    n_ctx: int
    weights_bytes: int
    kv_bytes: int
    budget_bytes: int | None
    message: str


@dataclass(frozen=True)
class OffloadPlan:
    n_gpu_layers: int  # what load_params gets: -1 = all, 0 = CPU only
    layers_on_gpu: int
    n_layers: int
    n_ctx: int
    weights_bytes: int
    kv_bytes: int
    budget_bytes: int | None
    message: str

    def as_dict(self) -> OffloadPlanDict:
        return cast(OffloadPlanDict, asdict(self))


# -- detection ---------------------------------------------------------------------------
def parse_nvidia_smi(text: str) -> list[Gpu]:
    """Rows of ``name, free MiB, total MiB`` (``--format=csv,noheader,nounits``)."""
    gpus = []
    for line in text.splitlines():
        parts = [p.strip() for p in line.rsplit(",", 2)]
        if len(parts) != 3:
            continue
        try:
            free, total = int(float(parts[1])) * MIB, int(float(parts[2])) * MIB
        except ValueError:
            continue  # "[N/A]" on some virtualised GPUs
        gpus.append(Gpu(parts[0], free, total, "cuda"))
    return gpus


def detect_gpus(*, platform: str = sys.platform, machine: str | None = None) -> list[Gpu]:
    """NVIDIA GPUs through nvidia-smi when it is installed; Apple silicon's Metal GPU."""
    if platform == "darwin" and (machine or os.uname().machine) == "arm64":
        total = _physical_memory()
        return [Gpu("Apple GPU", None, total, "metal")]
    exe = shutil.which(NVIDIA_QUERY[0])
    if exe is None:
        return []
    try:
        done = subprocess.run(
            [exe, *NVIDIA_QUERY[1:]], capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        log.warning("nvidia-smi failed: %s", exc)
        return []
    if done.returncode != 0:
        log.warning("nvidia-smi exited %s: %s", done.returncode, done.stderr.strip()[:200])
        return []
    return parse_nvidia_smi(done.stdout)


def _physical_memory() -> int | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


# -- the model's shape -------------------------------------------------------------------
_SHAPE_KEYS = (
    "block_count",
    "embedding_length",
    "attention.head_count",
    "attention.head_count_kv",
    "attention.key_length",
    "attention.value_length",
    "context_length",
)


def gguf_shape(path: str | Path) -> ModelShape:
    """The sizes the plan needs, read from the GGUF header only (the tensors are skipped)."""
    path = Path(path)
    with path.open("rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        view = memoryview(mm)
        try:
            r = HeaderReader(view, path)
            r.pos = 4 + 4 + 8  # magic, version, tensor count (inspect_gguf validated them)
            kv_count = r.unpack("<Q", "metadata count")
            meta = {}
            for _i in range(kv_count):
                key = r.name("metadata key")
                vtype = r.unpack("<I", f"type of {key!r}")
                keep = key == "general.architecture" or key.split(".", 1)[-1] in _SHAPE_KEYS
                value = read_value(r, vtype, key, keep)
                if keep:
                    meta[key] = value
        finally:
            view.release()
    arch = meta.get("general.architecture")
    get = lambda name: meta.get(f"{arch}.{name}")  # noqa: E731
    n_layers, n_embd = get("block_count"), get("embedding_length")
    if not isinstance(n_layers, int) or not isinstance(n_embd, int):
        raise GGUFInvalid(f"{path}: no {arch}.block_count / embedding_length in the header")
    heads = get("attention.head_count") or 1
    heads_kv = get("attention.head_count_kv") or heads
    head_k = get("attention.key_length") or n_embd // heads
    head_v = get("attention.value_length") or head_k
    return ModelShape(
        n_layers=n_layers,
        n_embd=n_embd,
        n_embd_kv=heads_kv * (head_k + head_v) // 2,
        size_bytes=path.stat().st_size,
        context_length=get("context_length"),
    )


# -- the plan ----------------------------------------------------------------------------
def propose_context(shape: ModelShape, wanted: int = DEFAULT_CONTEXT) -> int:
    return min(wanted, shape.context_length) if shape.context_length else wanted


def plan_offload(
    shape: ModelShape, gpu: Gpu | None, *, supports_offload: bool = True, n_ctx: int | None = None
) -> OffloadPlan:
    """All layers if weights + KV cache fit in the GPU's free memory less a margin, else
    the number of layers that fit, else 0 with the reason."""
    n_ctx = n_ctx or propose_context(shape)
    kv = shape.kv_bytes(n_ctx)
    base = dict(n_layers=shape.n_layers, n_ctx=n_ctx, weights_bytes=shape.size_bytes, kv_bytes=kv)
    need = shape.size_bytes + kv
    if not supports_offload:
        return OffloadPlan(
            0,
            0,
            budget_bytes=None,
            **base,
            message=_(
                "CPU only: this llama.cpp build cannot offload layers to a GPU (n_gpu_layers 0)."
            ),
        )
    if gpu is None:
        return OffloadPlan(
            0,
            0,
            budget_bytes=None,
            **base,
            message=_(
                "CPU only: no GPU found (no nvidia-smi, no Apple GPU, no Vulkan GPU); "
                "n_gpu_layers 0."
            ),
        )
    free = gpu.free_bytes
    if free is None:  # unified memory: a share of RAM, all of it addressable by the GPU
        free = int((gpu.total_bytes or 0) * APPLE_GPU_SHARE) or None
    if free is None:
        return OffloadPlan(
            -1,
            shape.n_layers,
            budget_bytes=None,
            **base,
            message=_("{gpu}: all {n} layers on the GPU (memory size unknown).").format(
                gpu=gpu.describe(), n=shape.n_layers
            ),
        )
    budget = max(0, int(free * (1 - MARGIN_SHARE)) - MARGIN_BYTES)
    gib = lambda b: b / 1024**3  # noqa: E731
    if need <= budget:
        return OffloadPlan(
            -1,
            shape.n_layers,
            budget_bytes=budget,
            **base,
            message=_(
                "All {n} layers fit on {gpu}: {need:.2f} GiB (weights {w:.2f} + KV cache {kv:.2f} "
                "at n_ctx {ctx}) of a {budget:.2f} GiB budget."
            ).format(
                n=shape.n_layers,
                gpu=gpu.name,
                need=gib(need),
                w=gib(shape.size_bytes),
                kv=gib(kv),
                ctx=n_ctx,
                budget=gib(budget),
            ),
        )
    per_layer = need / (shape.n_layers + 1)  # the output layer stays in the remainder
    layers = min(shape.n_layers, int(budget // per_layer))
    if layers <= 0:
        return OffloadPlan(
            0,
            0,
            budget_bytes=budget,
            **base,
            message=_(
                "CPU fallback: {gpu} has {free:.2f} GiB free, not enough for one layer "
                "({layer:.2f} GiB); n_gpu_layers 0."
            ).format(gpu=gpu.name, free=gib(free), layer=gib(per_layer)),
        )
    return OffloadPlan(
        layers,
        layers,
        budget_bytes=budget,
        **base,
        message=_(
            "{k} of {n} layers fit on {gpu} ({budget:.2f} GiB budget, {need:.2f} GiB needed for "
            "all at n_ctx {ctx}); the rest run on the CPU."
        ).format(
            k=layers, n=shape.n_layers, gpu=gpu.name, budget=gib(budget), need=gib(need), ctx=n_ctx
        ),
    )


def best_gpu(gpus: list[Gpu]) -> Gpu | None:
    """The GPU with the most free memory (llama.cpp's main_gpu is chosen by the user); a
    Vulkan driver that runs on the CPU is never one."""
    usable = [g for g in gpus if not g.cpu_driver]
    return max(usable, key=lambda g: g.free_bytes or 0) if usable else None
