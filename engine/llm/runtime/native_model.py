"""A GGUF model loaded through llama-cpp-python's low-level API (runs in the worker only).

Tokenization here is where untrusted text stays text: :meth:`NativeModel.tokenize` parses
special tokens only when the caller says the text is template text, never for content.
"""

from __future__ import annotations

import ctypes
import logging
from pathlib import Path

from engine.errors import UserError
from engine.llm.models.settings import LoadOptions, Schedule
from engine.llm.runtime.ggml_backends import list_devices, load_backends
from engine.llm.runtime.llama_log import route_llama_logs

log = logging.getLogger(__name__)

_FLASH = {"auto": -1, "off": 0, "on": 1}


class NativeModel:
    def __init__(self, path: Path, load: LoadOptions):
        # lazy, as in every method here: llama.cpp's native library loads only when used
        import llama_cpp as L

        route_llama_logs()
        loaded = load_backends()
        L.llama_backend_init()
        self.path = Path(path)
        self.fallback: str | None = None  # why the model runs on the CPU though asked not to
        self.model = self._load(L, load, cpu_only=False)
        if not self.model and load.n_gpu_layers != 0:
            # a model too big for the GPU: llama.cpp refuses to allocate, the CPU takes it
            self.fallback = (
                f"{path}: did not load with n_gpu_layers {load.n_gpu_layers} (not enough GPU "
                "memory?); loaded on the CPU instead"
            )
            log.warning("%s", self.fallback)
            self.model = self._load(L, load, cpu_only=True)
        if not self.model:
            raise UserError(f"{path}: llama.cpp could not load this model file")
        # what the run card records: llama.cpp offloads to every non-CPU device it lists
        gpus = [d for d in list_devices() if d.type != "CPU"]
        offloaded = bool(gpus) and load.n_gpu_layers != 0 and self.fallback is None
        self.compute = {
            "backends": loaded.loaded,
            "not_loaded": loaded.failed,
            "devices": [
                {"name": d.name, "description": d.description, "cpu_driver": d.cpu_driver}
                for d in gpus
                if offloaded
            ],
            "n_gpu_layers": load.n_gpu_layers if offloaded else 0,
            "fallback": self.fallback,
        }
        self.vocab = L.llama_model_get_vocab(self.model)
        self.n_vocab = L.llama_vocab_n_tokens(self.vocab)
        self.bos = L.llama_vocab_bos(self.vocab)
        self.eos = L.llama_vocab_eos(self.vocab)
        self.add_bos = bool(L.llama_vocab_get_add_bos(self.vocab))
        self.n_ctx_train = L.llama_model_n_ctx_train(self.model)
        template = L.llama_model_chat_template(self.model, None)
        self.chat_template = load.chat_template or (
            template.decode("utf-8", "replace") if template else None
        )
        self._piece_buf = ctypes.create_string_buffer(512)
        self.lora = None
        if load.lora_path:
            self.lora = L.llama_adapter_lora_init(self.model, str(load.lora_path).encode())
            if not self.lora:
                L.llama_model_free(self.model)
                self.model = None
                raise UserError(
                    f"{load.lora_path}: llama.cpp could not load this LoRA adapter for {path}"
                )

    def _load(self, L, load: LoadOptions, *, cpu_only: bool):
        params = L.llama_model_default_params()
        params.n_gpu_layers = 0 if cpu_only else load.n_gpu_layers
        params.main_gpu = load.main_gpu
        params.load_mode = L.LLAMA_LOAD_MODE_MMAP if load.use_mmap else L.LLAMA_LOAD_MODE_NONE
        # Repacked "extra" CPU buffers route matmuls to the AMX kernels, which crash on
        # this Sapphire Rapids host (ggml_backend_amx_mul_mat SIGSEGV, llama-cpp-python
        # 0.3.36); plain CPU buffers are safe and as fast for small models.
        params.use_extra_bufts = load.extra_buffers
        no_gpu = (ctypes.c_void_p * 1)(None)  # an empty device list: nothing goes to a GPU
        if cpu_only:
            params.devices = ctypes.addressof(no_gpu)
        return L.llama_model_load_from_file(str(self.path).encode(), params)

    # -- text <-> tokens -------------------------------------------------------------------
    def tokenize(self, text: str, *, special: bool = False, add_bos: bool = False) -> list[int]:
        """Tokens of ``text``. ``special=False`` (the default) keeps ``<end_of_turn>`` and the
        like as ordinary text: use it for every piece of untrusted content."""
        import llama_cpp as L

        data = text.encode("utf-8")
        capacity = len(data) + 8
        buf = (L.llama_token * capacity)()
        n = L.llama_tokenize(self.vocab, data, len(data), buf, capacity, add_bos, special)
        if n < 0:  # cannot happen with one token per byte + 8, but stay bounded
            raise UserError(f"text of {len(data)} bytes did not tokenize ({n})")
        return list(buf[:n])

    def piece(self, token: int) -> bytes:
        """The bytes of one generated token; control tokens render as nothing."""
        import llama_cpp as L

        n = L.llama_token_to_piece(
            self.vocab, token, self._piece_buf, len(self._piece_buf), 0, False
        )
        return self._piece_buf.raw[: max(n, 0)]

    def is_eog(self, token: int) -> bool:
        import llama_cpp as L

        return bool(L.llama_vocab_is_eog(self.vocab, token))

    def is_control(self, token: int) -> bool:
        import llama_cpp as L

        return bool(L.llama_vocab_is_control(self.vocab, token))

    def token_text(self, token: int) -> str:
        import llama_cpp as L

        return (L.llama_vocab_get_text(self.vocab, token) or b"").decode("utf-8", "replace")

    # -- contexts --------------------------------------------------------------------------
    def new_context(self, schedule: Schedule, load: LoadOptions):
        """A context for ``schedule.n_seq`` parallel sequences plus one prefix sequence.

        ``kv_unified`` lets sequences share KV cells (a copied prefix costs nothing) and
        ``swa_full`` keeps sliding-window layers whole so a shared prefix stays valid on
        Gemma 3 (docs/design.md pitfall)."""
        import llama_cpp as L

        params = L.llama_context_default_params()
        params.n_ctx = schedule.n_ctx
        params.n_batch = schedule.n_batch
        params.n_ubatch = schedule.n_batch
        params.n_seq_max = schedule.n_seq + 1
        params.n_threads = schedule.n_threads
        params.n_threads_batch = schedule.n_threads
        params.kv_unified = True
        params.swa_full = True
        params.no_perf = True
        params.flash_attn_type = _FLASH.get(load.flash_attn, -1)
        ctx = L.llama_init_from_model(self.model, params)
        if not ctx:
            raise UserError(
                f"{self.path}: could not create a context of {schedule.n_ctx} "
                f"tokens for {schedule.n_seq} sequences (out of memory?)"
            )
        if self.lora:
            adapters = (L.llama_adapter_lora_p_ctypes * 1)(self.lora)
            scales = (ctypes.c_float * 1)(load.lora_scale)
            if L.llama_set_adapters_lora(ctx, adapters, 1, scales) != 0:
                L.llama_free(ctx)
                raise UserError(f"{load.lora_path}: llama.cpp could not apply the LoRA adapter")
        return ctx

    def close(self) -> None:
        import llama_cpp as L

        if self.model:
            L.llama_model_free(self.model)
            self.model = None


def guard_high_level_api() -> None:
    """Make llama-cpp-python's own ``Llama`` (benchmark baseline, bundled server) load
    without repacked extra buffers too, for the AMX crash noted in ``NativeModel``."""
    # lazy, as in every method here: llama.cpp's native library loads only when it is used
    import llama_cpp.llama_cpp as C

    load_backends()  # a backend-plug-in build loads no model before this
    if getattr(C.llama_model_default_params, "_upabhasha_guard", False):
        return
    original = C.llama_model_default_params

    def default_params():
        params = original()
        params.use_extra_bufts = False
        return params

    default_params._upabhasha_guard = True  # type: ignore[attr-defined]
    C.llama_model_default_params = default_params
