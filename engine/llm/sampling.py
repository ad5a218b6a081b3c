"""Per-sequence sampler chains (worker only): each sequence owns its seed and grammar."""

from __future__ import annotations

import json
import logging

from engine.llm.types import Sampler

log = logging.getLogger(__name__)

PENALTY_LAST_N = 64


class GrammarError(ValueError):
    pass


class GrammarCache:
    """JSON schema -> GBNF text, converted once per distinct schema."""

    def __init__(self):
        self._gbnf: dict[str, str] = {}

    def gbnf(self, schema: dict) -> str:
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


def build_chain(vocab, n_vocab: int, sampler: Sampler, gbnf: str | None):
    """A llama.cpp sampler chain; the caller frees it with ``llama_sampler_free``."""
    import llama_cpp as L

    chain = L.llama_sampler_chain_init(L.llama_sampler_chain_default_params())
    if sampler.repeat_penalty != 1.0:
        L.llama_sampler_chain_add(chain, L.llama_sampler_init_penalties(
            PENALTY_LAST_N, sampler.repeat_penalty, 0.0, 0.0))
    if gbnf is not None:
        grammar = L.llama_sampler_init_grammar(vocab, gbnf.encode("utf-8"), b"root")
        if not grammar:
            L.llama_sampler_free(chain)
            raise GrammarError("llama.cpp rejected the grammar built from the JSON schema")
        L.llama_sampler_chain_add(chain, grammar)
    if sampler.greedy:
        L.llama_sampler_chain_add(chain, L.llama_sampler_init_greedy())
    else:
        if sampler.top_k > 0:
            L.llama_sampler_chain_add(chain, L.llama_sampler_init_top_k(sampler.top_k))
        if sampler.top_p < 1.0:
            L.llama_sampler_chain_add(chain, L.llama_sampler_init_top_p(sampler.top_p, 1))
        L.llama_sampler_chain_add(chain, L.llama_sampler_init_temp(sampler.temperature))
        L.llama_sampler_chain_add(chain, L.llama_sampler_init_dist(sampler.seed & 0xFFFFFFFF))
    return chain
