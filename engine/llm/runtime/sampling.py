"""Per-sequence sampler chains (worker only): each sequence owns its seed and grammar."""

from __future__ import annotations

import ctypes
import json
import logging

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
        if grammar is None:
            return
        dtype = np.dtype([("id", np.int32), ("logit", np.float32), ("p", np.float32)])
        assert dtype.itemsize == ctypes.sizeof(L.llama_token_data)
        self._ids = np.arange(n_vocab, dtype=np.int32)
        self._all = np.zeros(n_vocab, dtype=dtype)
        self._one = np.zeros(1, dtype=dtype)
        self._ptr = lambda a: a.ctypes.data_as(ctypes.POINTER(L.llama_token_data))
        self._byref = ctypes.byref

    def sample(self, ctx, idx: int) -> int:
        L, np = self.L, self.np
        if self.grammar is None and not self.argmax:
            return L.llama_sampler_sample(self.chain, ctx, idx)
        logits = np.ctypeslib.as_array(L.llama_get_logits_ith(ctx, idx), shape=(self.n_vocab,))
        if self.grammar is None:
            return int(np.argmax(logits))
        token = int(np.argmax(logits)) if self.argmax else self._select(logits, self.chain)
        if not self._allowed(token):
            best = self._best_allowed(logits) if self.argmax else None
            token = self._select(logits, self.grammar, self.chain) if best is None else best
        L.llama_sampler_accept(self.grammar, token)
        L.llama_sampler_accept(self.chain, token)
        return token

    def _select(self, logits, *samplers) -> int:
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
