"""Settings of a local model: how it is loaded and how its batches are scheduled.

The *schedule* decides which sequences share a ``llama_decode`` call, and batching changes
the order of floating-point sums, so it changes greedy outputs (docs/design.md pitfall). It is
therefore part of every run card: same items, order, schedule and seeds give the same bytes.
Loading options (GPU offload, flash attention) are recorded too but are free to change.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path

from engine.errors import UserError
from engine.llm.models.embedded_model import sha256_file


def usable_cores() -> int:
    """The cores this process may run on: fewer than the machine's under taskset, a cgroup
    cpuset or a parallel test worker, where more threads than cores only wait on each other."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # macOS and Windows have no affinity mask
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class Schedule:
    n_seq: int = 16  # sequences decoded together
    n_batch: int = 512  # tokens per llama_decode call
    n_ctx: int = 0  # KV cells shared by all sequences; 0 = n_seq * 1024 + 2048
    n_threads: int = 0  # 0 = every core this process may run on
    share_prefix: bool = True  # decode a prompt prefix common to all items once
    min_shared_prefix: int = 16  # shorter common prefixes are not worth a copy
    # The batch plan's groups hold n_seq * refill consecutive items: one scheduler run
    # each, where a finished sequence's slot takes the group's next item at once (slot
    # refill). 1 = groups of n_seq decoded whole, slots idling while a group drains.
    refill: int = 4

    def resolved(self) -> Schedule:
        """The concrete values (0 = auto resolved), as recorded in run cards."""
        if not 1 <= self.n_seq <= 255:  # llama.cpp's LLAMA_MAX_SEQ is 256, one is the prefix
            raise UserError(f"n_seq must be between 1 and 255, not {self.n_seq}")
        if self.refill < 1:
            raise UserError(f"refill must be at least 1, not {self.refill}")
        n_ctx = self.n_ctx or self.n_seq * 1024 + 2048
        threads = self.n_threads or usable_cores()
        return dataclasses.replace(self, n_ctx=n_ctx, n_threads=threads)

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_options(cls, options: dict) -> Schedule:
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in options.items() if k in names})


@dataclass(frozen=True)
class LoadOptions:
    n_gpu_layers: int = 0  # -1 = all layers on the GPU
    main_gpu: int = 0
    flash_attn: str = "auto"  # "auto" | "on" | "off"
    use_mmap: bool = True
    extra_buffers: bool = False  # CPU weight repacking (AMX/AVX512 kernels); see native_model
    chat_template: str | None = None  # overrides the file's template (Jinja, sandboxed)
    # A LoRA adapter GGUF applied at run time (llama.cpp), and its scale. Part of the model's
    # identity (see model_identity_with_adapter): an adapted model is another model.
    lora_path: str | None = None
    lora_scale: float = 1.0

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_options(cls, options: dict) -> LoadOptions:
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in options.items() if k in names})


def model_identity_with_adapter(sha256: str, options: dict) -> str:
    """A GGUF's identity: its sha256, plus the adapter's sha256 and scale when one is set
    (``options``: load_params or LoadOptions.as_dict()). Run keys and the response cache use
    it, so a base model and its adapted form never share results."""
    path = options.get("lora_path")
    if not path:
        return sha256

    adapter = Path(path)
    if not adapter.is_file():
        raise UserError(f"{adapter}: LoRA adapter file not found")
    scale = float(options.get("lora_scale", 1.0))
    return f"{sha256}+lora:{sha256_file(adapter)}@{scale:g}"


def split_options(options: dict) -> tuple[Schedule, LoadOptions]:
    """Split one flat option dict (a model's ``load_params`` plus call options)."""
    known = {f.name for f in dataclasses.fields(Schedule)} | {
        f.name for f in dataclasses.fields(LoadOptions)
    }
    unknown = set(options) - known
    if unknown:
        raise UserError(f"unknown local model option(s): {', '.join(sorted(unknown))}")
    return Schedule.from_options(options).resolved(), LoadOptions.from_options(options)
