"""Per-sequence sampler chains (worker only): each sequence owns its seed and grammar."""

from __future__ import annotations

import ctypes
import json
import logging
from typing import Any

from engine.llm.types import Sampler

log = logging.getLogger(__name__)

PENALTY_LAST_N = 64
# a greedy token the grammar rejects: the next best are checked one by one (each check reads
# one token) before the whole vocabulary is masked (Gemma's 262k tokens read)
CANDIDATES = 64


class GrammarError(ValueError):
    pass


class GrammarCache:
    """JSON schema -> GBNF text, converted once per distinct schema."""

    def __init__(self):
        self._gbnf: dict[str, str] = {}

    def gbnf(self, schema: dict) -> str:
        # lazy: llama.cpp's native library loads only when a local model is used
        from llama_cpp.llama_grammar import json_schema_to_gbnf

        # Not sort_keys: the grammar follows the schema's property order, and the judge's
        # reasoning must come before its scores.
        key = json.dumps(schema)
        if key not in self._gbnf:
            try:
                self._gbnf[key] = json_schema_to_gbnf(key)
            except Exception as exc:  # the converter raises plain exceptions on bad schemas
                raise GrammarError(f"JSON schema cannot be turned into a grammar: {exc}") from None
        return self._gbnf[key]


def build_chain(vocab, n_vocab: int, sampler: Sampler, gbnf: str | None) -> TokenSampler:
    """The sequence's sampler; the caller frees it with ``.free()``."""
    # lazy: llama.cpp's native library loads only when a local model is used
    import llama_cpp as L

    grammar = None
    if gbnf is not None:
        grammar = L.llama_sampler_init_grammar(vocab, gbnf.encode("utf-8"), b"root")
        if not grammar:
            raise GrammarError("llama.cpp rejected the grammar built from the JSON schema")
    chain = L.llama_sampler_chain_init(L.llama_sampler_chain_default_params())
    if sampler.repeat_penalty != 1.0:
        L.llama_sampler_chain_add(
            chain, L.llama_sampler_init_penalties(PENALTY_LAST_N, sampler.repeat_penalty, 0.0, 0.0)
        )
    if sampler.greedy:
        L.llama_sampler_chain_add(chain, L.llama_sampler_init_greedy())
    else:
        if sampler.top_k > 0:
            L.llama_sampler_chain_add(chain, L.llama_sampler_init_top_k(sampler.top_k))
        if sampler.top_p < 1.0:
            L.llama_sampler_chain_add(chain, L.llama_sampler_init_top_p(sampler.top_p, 1))
        L.llama_sampler_chain_add(chain, L.llama_sampler_init_temp(sampler.temperature))
        L.llama_sampler_chain_add(chain, L.llama_sampler_init_dist(sampler.seed & 0xFFFFFFFF))
    argmax = sampler.greedy and sampler.repeat_penalty == 1.0
    return TokenSampler(chain, grammar, n_vocab, argmax=argmax)


class TokenSampler:
    """A sampler chain plus an optional grammar, checked the way llama.cpp's own common
    sampler does: sample without the grammar, and only when the grammar rejects that token
    mask the whole vocabulary and sample again. Masking every token at every step cost ~10x
    on long JSON strings (Gemma's 262k vocabulary against a deep maxLength rule: 2.4 tok/s).
    For greedy decoding the result is the same token: an allowed argmax stays the argmax.

    ``argmax``: plain greedy (no penalty) reads the logits and takes numpy's argmax — the
    same token as llama.cpp's greedy sampler (both take the first maximum), without the
    sampler copying all 262k candidates per row (a noticeable share of a step); with a
    grammar, that argmax is the token checked first."""

    def __init__(self, chain, grammar, n_vocab: int, *, argmax: bool = False):

        # lazy: llama.cpp's native library loads only when a local model is used
        import llama_cpp as L
        import numpy as np

        self.L, self.np, self.chain, self.grammar, self.n_vocab = L, np, chain, grammar, n_vocab
        self.argmax = argmax
        self._all: Any = None
        if grammar is not None or not argmax:
            self._allocate()

    def _allocate(self) -> None:
        """The candidate arrays the host's samplers read (plain argmax needs none)."""
        L, np, n_vocab = self.L, self.np, self.n_vocab
        dtype = np.dtype([("id", np.int32), ("logit", np.float32), ("p", np.float32)])
        assert dtype.itemsize == ctypes.sizeof(L.llama_token_data)
        self._ids = np.arange(n_vocab, dtype=np.int32)
        self._all = np.zeros(n_vocab, dtype=dtype)
        self._one = np.zeros(1, dtype=dtype)
        self._ptr = lambda a: a.ctypes.data_as(ctypes.POINTER(L.llama_token_data))
        self._byref = ctypes.byref

    def sample(self, ctx, idx: int) -> int:
        L, np = self.L, self.np
        logits = np.ctypeslib.as_array(L.llama_get_logits_ith(ctx, idx), shape=(self.n_vocab,))
        if self.grammar is None:
            if self.argmax:
                return int(np.argmax(logits))
            # what llama_sampler_sample does, which would return instead the token a backend
            # sampler on this slot chose (sampling.BackendGreedy)
            token = self._select(logits, self.chain)
            L.llama_sampler_accept(self.chain, token)
            return token
        token = int(np.argmax(logits)) if self.argmax else self._select(logits, self.chain)
        if not self._allowed(token):
            best = self._best_allowed(logits) if self.argmax else None
            token = self._select(logits, self.grammar, self.chain) if best is None else best
        L.llama_sampler_accept(self.grammar, token)
        L.llama_sampler_accept(self.chain, token)
        return token

    def _select(self, logits, *samplers) -> int:
        if self._all is None:
            self._allocate()
        self._all["id"] = self._ids
        self._all["logit"] = logits
        self._all["p"] = 0.0
        cur = self.L.llama_token_data_array(self._ptr(self._all), self.n_vocab, -1, False)
        for sampler in samplers:
            self.L.llama_sampler_apply(sampler, self._byref(cur))
        return int(cur.data[cur.selected].id)

    def _best_allowed(self, logits) -> int | None:
        """Greedy under the grammar without masking the whole vocabulary: the first allowed
        of the best ``CANDIDATES`` tokens, in the greedy sampler's order (higher logit, then
        lower id). None when none is allowed, or when the one found ties the weakest
        candidate (a token left out of the candidates could tie it with a lower id)."""
        np = self.np
        top = np.argpartition(logits, -CANDIDATES)[-CANDIDATES:]
        ranked = top[np.lexsort((top, -logits[top]))]
        weakest = logits[ranked[-1]]
        for token in ranked:
            if not logits[token] > weakest:
                return None
            if self._allowed(int(token)):
                return int(token)
        return None

    def _allowed(self, token: int) -> bool:
        self._one[0] = (token, 0.0, 0.0)
        cur = self.L.llama_token_data_array(self._ptr(self._one), 1, -1, False)
        self.L.llama_sampler_apply(self.grammar, self._byref(cur))
        return bool(self._one["logit"][0] > float("-inf"))

    def free(self) -> None:
        self.L.llama_sampler_free(self.chain)
        if self.grammar is not None:
            self.L.llama_sampler_free(self.grammar)
        self.chain = self.grammar = None


# the llama-cpp-python release that first exposed llama_set_sampler (backend sampling)
BACKEND_SAMPLING_SINCE = (0, 3, 35)


def sampling_places(llama_cpp_version: str | None, offloaded: bool) -> dict[str, str]:
    """Where each kind of sequence is sampled with this llama-cpp-python, for run cards.
    Plain greedy gives the same bytes on either side; seeded chains stay on the host, so
    their random stream, and with it every run key, is the one runs have always had.
    Greedy goes to the backend only with layers offloaded to a GPU (``offloaded``): on the
    CPU the argmax inside llama_decode costs the engine more than it saves."""
    try:
        release = tuple(int(part) for part in (llama_cpp_version or "").split(".")[:3])
    except ValueError:
        release = ()
    greedy = "backend" if offloaded and release >= BACKEND_SAMPLING_SINCE else "host"
    return {"greedy": greedy, "seeded": "host", "grammar": "host", "repeat_penalty": "host"}


def on_backend(sampler: Sampler, gbnf: str | None) -> bool:
    """Whether a sequence's tokens can be sampled inside llama_decode: plain greedy (no
    grammar, no penalty), the argmax of the same logits, so the same token as on the host.
    Seeded chains stay on the host: the backend's random stream is another one."""
    return gbnf is None and sampler.greedy and sampler.repeat_penalty == 1.0


class BackendGreedy:
    """llama.cpp's backend sampling (``llama_set_sampler``, llama-cpp-python 0.3.35 and
    later): a greedy sampler attached to every slot's sequence id, so llama_decode returns
    each plain-greedy row's token id and the host reads no logits for it. A host-sampled
    sequence in the same slot still reads its logits as before. ``available`` is False
    when the installed build lacks the API or refuses a sampler: every sequence is then
    sampled on the host."""

    def __init__(self, ctx, seq_ids, wanted: bool = True):
        # lazy: llama.cpp's native library loads only when a local model is used
        import llama_cpp as L

        self.L, self.ctx, self.chains = L, ctx, {}
        self.available = (
            wanted and hasattr(L, "llama_set_sampler") and hasattr(L, "llama_get_sampled_token_ith")
        )
        if not self.available:
            return
        self.token = L.llama_get_sampled_token_ith
        for seq in seq_ids:
            chain = L.llama_sampler_chain_init(L.llama_sampler_chain_default_params())
            L.llama_sampler_chain_add(chain, L.llama_sampler_init_greedy())
            self.chains[seq] = chain
            if not L.llama_set_sampler(ctx, seq, chain):
                log.warning("llama.cpp refused a backend sampler; sampling on the host")
                self.available = False
                self.close()
                return

    def close(self) -> None:
        for seq, chain in self.chains.items():
            self.L.llama_set_sampler(self.ctx, seq, None)
            self.L.llama_sampler_free(chain)
        self.chains = {}
