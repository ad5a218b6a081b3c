"""Query normalisation, tokenizer and [[SHORT]] tag; adaptive weights."""

import numpy as np

from engine.rag.config import RetrievalConfig
from engine.rag.fusion import adaptive_weights, top_positions
from engine.rag.query import SHORT_TAG, prepare_query, tokenize


def test_tokenizer_splits_on_danda_and_punctuation_but_keeps_conjuncts():
    text = "ক্ষমতা, দাঁড়িয়ে।লাইনে॥ ১০টা Hello-World"
    assert tokenize(text) == ["ক্ষমতা", "দাঁড়িয়ে", "লাইনে", "10টা", "hello", "world"]


def test_tokenizer_is_composition_independent():
    composed = "আমি ন\u09df"  # য় as one code point
    decomposed = "আমি ন\u09af\u09bc"  # য + nukta
    assert composed != decomposed
    assert tokenize(composed) == tokenize(decomposed)
    assert tokenize("ক\u09cb") == tokenize("ক\u09c7\u09be")  # ো from ে + া


def test_zwj_inside_a_token_is_kept():
    assert tokenize("র\u200d্যাব") == ["র\u200d্যাব"]


def test_short_tag_below_four_tokens():
    short = prepare_query("কম্পিউটার কাকে বলে?")
    assert short.short and short.tagged.endswith(SHORT_TAG) and len(short.tokens) == 3
    normal = prepare_query("কম্পিউটার বলতে কী বোঝায়?")
    assert not normal.short and SHORT_TAG not in normal.tagged
    assert prepare_query("১০ টাকা").normalized == "10 টাকা"


def test_adaptive_weights_favour_dense_for_standard_and_sparse_for_short():
    cfg = RetrievalConfig()
    std, short = adaptive_weights(cfg, False), adaptive_weights(cfg, True)
    assert std.dense > std.sparse
    assert short.sparse > short.dense
    assert short.pool > std.pool


def test_dense_trust_scales_only_the_dense_weight():
    cfg = RetrievalConfig()
    w = adaptive_weights(cfg, False, dense_trust=0.2)
    assert w.dense == cfg.dense_weight_standard * 0.2
    assert w.sparse == cfg.sparse_weight_standard and w.char == cfg.char_similarity_weight
    off = adaptive_weights(cfg.replace(trust_dense_by_selfcheck=False), False, dense_trust=0.2)
    assert off.dense == cfg.dense_weight_standard
    floor = adaptive_weights(cfg, False, dense_trust=0.0)
    assert floor.dense == cfg.dense_weight_standard * cfg.min_dense_trust


def test_top_positions_orders_ties_by_position():
    scores = np.array([0.5, 0.9, 0.5, 0.0, 0.9, 0.5])
    assert top_positions(scores, 3).tolist() == [1, 4, 0]
    assert top_positions(scores, 10, positive_only=True).tolist() == [1, 4, 0, 2, 5]
