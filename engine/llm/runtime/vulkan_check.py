"""Does the Vulkan backend decode what the CPU backend decodes? Measured, not assumed.

The same GGUF is loaded twice, each in its own worker process: once on llama.cpp's CPU
backend, once with every layer on a Vulkan device, and a fixed prompt set is decoded greedily
one sequence at a time on both. Kernels differ (the order of floating-point sums, f16
accumulation), so a continuation may part ways after a near-tie: the report gives the share
of identical continuations and of matching leading tokens rather than insisting on equality.

Without a GPU the Vulkan side runs on a driver that runs on the CPU (Mesa's lavapipe), which
llama.cpp hides unless ``GGML_VK_VISIBLE_DEVICES`` names it: that is set for the Vulkan
worker only, so the CPU reference never sees a Vulkan device.
"""

from __future__ import annotations

import os
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from engine.llm.models.settings import LoadOptions, Schedule
from engine.llm.runtime.local_backend import LocalGGUFBackend
from engine.llm.types import Request, Sampler

N_TOKENS = 32
# a fixed prompt set: Bengali (the app's language) and English, short and long
PROMPTS = (
    "বাংলাদেশের রাজধানী",
    "চট্টগ্রামের আঞ্চলিক ভাষায় একটি বাক্য:",
    "প্রশ্ন: সালোকসংশ্লেষণ কী?\nউত্তর:",
    "নদীমাতৃক দেশ বাংলাদেশে বর্ষাকালে",
    "The capital of France is",
    "Question: What is photosynthesis?\nAnswer:",
    "Once upon a time, in a small village by the river,",
    "def fibonacci(n):\n",
)
# Measured on lavapipe (llvmpipe, LLVM 15) against the CPU backend of the same build, all 8
# prompts × 32 tokens: 4 of 8 continuations identical, 56 % of tokens before the first
# difference with llama.cpp compiled by gcc 12 (README, "GPU"); 2 of 8 and 38 % compiled by
# the installer's Debian 11 root (gcc 10), whose CPU flash-attention kernel rounds a little
# differently (single-token perplexity on the same 300 tokens 137.98 against 137.27; 135.24
# for both without flash attention), while its Vulkan side decodes the same text. A Vulkan
# path that computed something else would part at the first token everywhere (0 identical,
# about 0 %); these bounds sit below both builds' measurements.
MIN_IDENTICAL, MIN_TOKEN_AGREEMENT = 0.25, 0.35
# The frozen smoke test's short check (lavapipe decodes far slower than the CPU backend): two
# prompts, 16 tokens each, whose continuations were identical with gcc 12 and parted at tokens
# 6 and 11 with gcc 10; each must agree on at least its first SMOKE_MIN_PREFIX tokens.
SMOKE_PROMPTS, SMOKE_TOKENS, SMOKE_MIN_PREFIX = (PROMPTS[0], PROMPTS[4]), 16, 4


@dataclass(frozen=True)
class Agreement:
    prompts: int
    n_tokens: int
    identical: int  # continuations equal over all their tokens
    token_agreement: float  # leading tokens that match, over the CPU's tokens
    first_difference: list[int | None]  # per prompt: token index of the first difference
    cpu_tokens_per_s: float
    vulkan_tokens_per_s: float
    vulkan_device: str
    vulkan_fallback: str | None  # the worker loaded on the CPU after all (then nothing is shown)

    @property
    def rate(self) -> float:
        return self.identical / self.prompts if self.prompts else 0.0

    def problems(self) -> list[str]:
        found = []
        if self.vulkan_fallback:
            found.append(f"the Vulkan worker ran on the CPU: {self.vulkan_fallback}")
        full = self.prompts == len(PROMPTS)
        low = self.rate < MIN_IDENTICAL or self.token_agreement < MIN_TOKEN_AGREEMENT
        early = any(f is not None and f < SMOKE_MIN_PREFIX for f in self.first_difference)
        if (full and low) or (not full and early):
            found.append(
                f"Vulkan and CPU decode differently: {self.identical}/{self.prompts} identical, "
                f"{self.token_agreement:.1%} of tokens (first differences {self.first_difference})"
            )
        return found


@contextmanager
def _environ(**values: str | None):
    before = {k: os.environ.get(k) for k in values}
    for key, value in values.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
    try:
        yield
    finally:
        for key, value in before.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _decode(backend: LocalGGUFBackend, prompts: tuple[str, ...], n_tokens: int):
    reqs = [
        Request(key=str(i), prompt=p, sampler=Sampler(max_tokens=n_tokens))
        for i, p in enumerate(prompts)
    ]
    started = time.perf_counter()
    results = {r.key: r for r in backend.generate(reqs)}
    seconds = time.perf_counter() - started
    failed = [r.error for r in results.values() if not r.ok]
    if failed:
        raise RuntimeError(f"decoding failed: {failed[0]}")
    tokens = sum(r.completion_tokens for r in results.values())
    return [results[str(i)].text or "" for i in range(len(prompts))], tokens / seconds


def offload_agreement(
    model: str | Path,
    *,
    device_index: int | None = None,
    prompts: tuple[str, ...] = PROMPTS,
    n_tokens: int = N_TOKENS,
) -> Agreement:
    """Decode ``prompts`` on the CPU backend and with every layer on Vulkan device
    ``device_index`` (None: the devices llama.cpp picks itself), and compare."""
    schedule = Schedule(n_seq=1, n_ctx=512)
    with _environ(GGML_VK_VISIBLE_DEVICES=""):  # no Vulkan device: the CPU reference
        with LocalGGUFBackend(model, schedule=schedule, load=LoadOptions(n_gpu_layers=0)) as cpu:
            cpu_texts, cpu_rate = _decode(cpu, prompts, n_tokens)
            visible = None if device_index is None else str(device_index)
            with _environ(GGML_VK_VISIBLE_DEVICES=visible):
                with LocalGGUFBackend(
                    model, schedule=schedule, load=LoadOptions(n_gpu_layers=-1)
                ) as gpu:
                    gpu_texts, gpu_rate = _decode(gpu, prompts, n_tokens)
                    compute = gpu.compute or {}
            firsts: list[int | None] = []
            matching = total = 0
            for a, b in zip(cpu_texts, gpu_texts, strict=True):
                ta = cpu.worker().call("tokenize", a, False)
                tb = cpu.worker().call("tokenize", b, False)
                first = next((i for i, (x, y) in enumerate(zip(ta, tb)) if x != y), None)
                if first is None and len(ta) != len(tb):
                    first = min(len(ta), len(tb))
                firsts.append(first)
                matching += len(ta) if first is None else first
                total += len(ta)
    devices = compute.get("devices") or []
    return Agreement(
        prompts=len(prompts),
        n_tokens=n_tokens,
        identical=sum(1 for f in firsts if f is None),
        token_agreement=round(matching / total, 4) if total else 0.0,
        first_difference=firsts,
        cpu_tokens_per_s=round(cpu_rate, 1),
        vulkan_tokens_per_s=round(gpu_rate, 1),
        vulkan_device=", ".join(d["description"] for d in devices),
        vulkan_fallback=compute.get("fallback") if devices else "no Vulkan device was used",
    )
