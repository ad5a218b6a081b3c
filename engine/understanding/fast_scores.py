"""Sentence-level chrF++ and BLEU for many outputs at once, vectorised in numpy.

Equal to sacrebleu's ``CHRF(word_order=2).sentence_score`` and
``BLEU(effective_order=True).sentence_score`` (asserted to 1e-9 in tests and in
bench/task_scoring.py), but instead of building Python ``Counter`` objects per output and
per reference it:

1. scores each distinct (output, references) pair once;
2. turns every distinct text into an array of tokens (code points for character n-grams;
   word ids for word n-grams, with sacrebleu's own tokenisation: ``_remove_punctuation``
   for chrF++, the 13a tokenizer for BLEU);
3. numbers the n-grams of all texts at once, order by order, keeping only those that occur
   in some reference (no other can match): an n-gram's id is the position of (its first n-1
   tokens' id, its last token's id) among the references' distinct pairs — exact, no
   hashing — and counts (text, n-gram) with one ``np.unique``; an output's window count
   comes from its length;
4. joins output counts with reference counts by ``searchsorted`` and sums ``min(hyp, ref)``
   per pair with ``bincount``;
5. computes chrF (effective-order averaging, best reference by F) and BLEU (exp smoothing,
   effective order, closest reference length, multi-reference max counts) from the
   statistics column-wise.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np

CHAR_ORDER, WORD_ORDER, BETA = 6, 2, 2
BLEU_ORDER = 4
_PUNCTS = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")  # sacrebleu CHRF._PUNCTS


def chrf_words(sentence: str) -> list[str]:
    """sacrebleu ``CHRF._remove_punctuation``: split one leading or trailing punctuation."""
    out: list[str] = []
    for w in sentence.split():
        if len(w) == 1:
            out.append(w)
        elif w[-1] in _PUNCTS:
            out += [w[:-1], w[-1]]
        elif w[0] in _PUNCTS:
            out += [w[0], w[1:]]
        else:
            out.append(w)
    return out


class _Tokens:
    """Texts as one concatenated token array with offsets. Texts ``0..n_hyp-1`` are outputs,
    the others references. N-grams get ids only when they occur in some reference (an
    output n-gram no reference has cannot match, and neither can any longer n-gram that
    contains it): an n-gram's id is the position of (its first n-1 tokens' id, its last
    token's id) among the references' distinct pairs — exact, no hashing."""

    def __init__(self, flat: np.ndarray, lengths: np.ndarray, n_hyp: int):
        self.lengths = lengths.astype(np.int64)
        self.starts = np.concatenate([[0], np.cumsum(self.lengths)[:-1]]).astype(np.int64)
        self.flat = flat.astype(np.int64)
        self.owner = np.repeat(np.arange(len(lengths), dtype=np.int64), self.lengths)
        self.n_hyp = n_hyp
        self._ref_start = int(self.starts[n_hyp]) if n_hyp < len(lengths) else len(self.flat)
        alphabet = np.unique(self.flat[self._ref_start :])
        self._unigram = _lookup(alphabet, self.flat)
        self._base = max(len(alphabet), 1)
        self._ids = self._unigram
        self._order = 1
        self._vocab = self._base

    @classmethod
    def from_chars(cls, texts: list[str], n_hyp: int) -> _Tokens:
        flat = np.frombuffer("".join(texts).encode("utf-32-le"), dtype=np.uint32)
        return cls(flat, np.fromiter(map(len, texts), np.int64, len(texts)), n_hyp)

    @classmethod
    def from_words(cls, token_lists: list[list[str]], n_hyp: int) -> _Tokens:
        vocab: dict[str, int] = {}
        lengths = np.fromiter(map(len, token_lists), np.int64, len(token_lists))
        flat = np.fromiter(
            (vocab.setdefault(w, len(vocab)) for words in token_lists for w in words),
            np.int64,
            int(lengths.sum()),
        )
        return cls(flat, lengths, n_hyp)

    def _advance(self) -> None:
        """From the ids of (n-1)-grams at each start position to those of n-grams."""
        n = self._order + 1
        count = max(len(self.flat) - n + 1, 0)
        prev, last = self._ids[:count], self._unigram[n - 1 : n - 1 + count]
        pair = np.where((prev >= 0) & (last >= 0), prev * self._base + last, -1)
        ref_pairs = np.unique(pair[self._ref_start :])
        ref_pairs = ref_pairs[ref_pairs >= 0]
        self._ids = _lookup(ref_pairs, pair)
        self._order = n
        self._vocab = max(len(ref_pairs), 1)

    def counts(self, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Distinct keys ``text * vocab + n-gram id`` (sorted) of the n-grams that occur in a
        reference, with their counts, and the number of windows per text. Orders must be asked
        for in increasing order."""
        while self._order < n:
            self._advance()
        if self._order != n:
            raise ValueError("n-gram orders must be requested in increasing order")
        per_text = np.maximum(self.lengths - n + 1, 0)
        count = max(len(self.flat) - n + 1, 0)
        if count == 0:
            return np.zeros(0, np.int64), np.zeros(0, np.int64), per_text
        owner, ids = self.owner[:count], self._ids[:count]
        valid = (ids >= 0) & (np.arange(count) + n <= (self.starts + self.lengths)[owner])
        keys, counts = np.unique(owner[valid] * self._vocab + ids[valid], return_counts=True)
        return keys, counts, per_text


DENSE_LOOKUP = 1 << 22  # value spaces up to this size are looked up in a direct table


def _lookup(table: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Index of each value (>= 0, or -1 for none) in the sorted ``table``; -1 where absent."""
    if table.size == 0:
        return np.full(values.shape, -1, np.int64)
    space = int(max(table[-1], values.max(initial=0))) + 1
    if space <= DENSE_LOOKUP:
        direct = np.full(space + 1, -1, np.int64)  # the last cell answers value -1
        direct[table] = np.arange(table.size)
        return direct[np.where(values >= 0, values, space)]
    pos = np.minimum(np.searchsorted(table, values), table.size - 1)
    return np.where(table[pos] == values, pos, -1).astype(np.int64)


def _matches(
    tokens: _Tokens,
    n: int,
    pair_hyp: np.ndarray,
    pair_group: np.ndarray,
    n_hyp_texts: int,
    group_of_ref: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Per pair: (output windows, clipped matches) of order n. Texts ``0..n_hyp_texts-1`` are
    outputs, the others references; reference text ``n_hyp_texts + j`` belongs to group
    ``group_of_ref[j]``, whose count of an n-gram is the maximum over its texts (one text
    per group for chrF; an item's references for BLEU). Pair i matches output
    ``pair_hyp[i]`` against group ``pair_group[i]``."""
    keys, counts, per_text = tokens.counts(n)
    n_pairs = len(pair_hyp)
    hyp_total = per_text[pair_hyp]
    if keys.size == 0:
        return hyp_total, np.zeros(n_pairs)
    vocab = tokens._vocab
    text, gram = keys // vocab, keys % vocab
    is_hyp = text < n_hyp_texts
    h_text, h_gram, h_count = text[is_hyp], gram[is_hyp], counts[is_hyp]
    g_keys = group_of_ref[text[~is_hyp] - n_hyp_texts] * vocab + gram[~is_hyp]
    g_counts = counts[~is_hyp]
    if np.any(g_keys[1:] <= g_keys[:-1]):  # several texts per group: max count per key
        order = np.lexsort((-g_counts, g_keys))  # by key, largest count first
        g_keys, g_counts = g_keys[order], g_counts[order]
        keep = np.ones(g_keys.size, bool)
        keep[1:] = g_keys[1:] != g_keys[:-1]
        g_keys, g_counts = g_keys[keep], g_counts[keep]
    ref_keys, ref_counts = g_keys, g_counts
    # pairs grouped by output text
    by_hyp = np.argsort(pair_hyp, kind="stable")
    per_hyp = np.bincount(pair_hyp, minlength=n_hyp_texts)
    first = np.concatenate([[0], np.cumsum(per_hyp)[:-1]])
    reps = per_hyp[h_text]
    entry = np.repeat(np.arange(len(h_text)), reps)
    offset = np.arange(entry.size) - np.repeat(np.cumsum(reps) - reps, reps)
    pair = by_hyp[first[h_text[entry]] + offset]
    look = pair_group[pair] * vocab + h_gram[entry]
    if ref_keys.size == 0:
        return hyp_total, np.zeros(n_pairs)
    pos = np.minimum(np.searchsorted(ref_keys, look), ref_keys.size - 1)
    ref_c = np.where(ref_keys[pos] == look, ref_counts[pos], 0)
    match = np.minimum(h_count[entry], ref_c)
    return hyp_total, np.bincount(pair, weights=match, minlength=n_pairs)


def chrf_from_stats(stats: np.ndarray, beta: int = BETA) -> np.ndarray:
    """sacrebleu ``CHRF._compute_f_score`` (effective-order averaging), one row per pair."""
    if stats.size == 0:
        return np.zeros(0)
    eps, factor = 1e-16, beta**2
    n_hyp, n_ref, n_match = stats[:, 0::3], stats[:, 1::3], stats[:, 2::3]
    prec = np.where(n_hyp > 0, n_match / np.where(n_hyp > 0, n_hyp, 1), eps)
    rec = np.where(n_ref > 0, n_match / np.where(n_ref > 0, n_ref, 1), eps)
    effective = (n_hyp > 0) & (n_ref > 0)
    count = effective.sum(axis=1)
    # sacrebleu adds order by order; cumulative sums in the same order give the same floats
    avg_prec = np.zeros(len(stats))
    avg_rec = np.zeros(len(stats))
    for i in range(stats.shape[1] // 3):
        avg_prec = np.where(effective[:, i], avg_prec + prec[:, i], avg_prec)
        avg_rec = np.where(effective[:, i], avg_rec + rec[:, i], avg_rec)
    safe = np.maximum(count, 1)
    avg_prec = np.where(count > 0, avg_prec / safe, 0.0)
    avg_rec = np.where(count > 0, avg_rec / safe, 0.0)
    total = avg_prec + avg_rec
    denom = factor * avg_prec + avg_rec
    score = (1 + factor) * avg_prec * avg_rec
    return np.where(total > 0, 100 * score / np.where(denom > 0, denom, 1), 0.0)


def _best_per_hyp(pair_hyp: np.ndarray, scores: np.ndarray, n_hyps: int) -> np.ndarray:
    """Index of the first pair with the highest score per output (sacrebleu: strict >)."""
    order = np.lexsort((np.arange(len(pair_hyp)), -scores, pair_hyp))
    first = np.ones(len(order), bool)
    first[1:] = pair_hyp[order][1:] != pair_hyp[order][:-1]
    best = np.empty(n_hyps, np.int64)
    best[pair_hyp[order][first]] = order[first]
    return best


def _distinct_items(hyps: Sequence[str], refs: Sequence[Sequence[str]]):
    seen: dict[tuple, int] = {}
    index = np.fromiter(
        (seen.setdefault((h, tuple(r)), len(seen)) for h, r in zip(hyps, refs, strict=True)),
        np.int64,
        len(hyps),
    )
    return [k[0] for k in seen], [list(k[1]) for k in seen], index


def sentence_chrf(hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> np.ndarray:
    """chrF++ (0–100) of each output against its references (best reference); each distinct
    (output, references) pair is scored once."""
    u_hyps, u_refs, index = _distinct_items(hyps, refs)
    return _sentence_chrf(u_hyps, u_refs)[index] if len(hyps) else np.zeros(0)


def chrf_stats(hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> np.ndarray:
    """Per output, sacrebleu's chrF++ match statistics against its best reference (rows of
    [hyp, ref, match] x 8 orders). Their column sums give sacrebleu's corpus chrF++
    (:func:`chrf_from_stats`), which makes a bootstrap over items cheap."""
    u_hyps, u_refs, index = _distinct_items(hyps, refs)
    if not len(hyps):
        return np.zeros((0, 3 * (CHAR_ORDER + WORD_ORDER)))
    return _chrf_best_stats(u_hyps, u_refs)[index]


def _sentence_chrf(hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> np.ndarray:
    return chrf_from_stats(_chrf_best_stats(hyps, refs))


def _chrf_best_stats(hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> np.ndarray:
    h_texts, h_index = _distinct(hyps)
    r_texts, r_index = _distinct([r for rs in refs for r in rs])
    pair_hyp = np.repeat(h_index, [len(rs) for rs in refs])
    pair_ref = r_index + len(h_texts)
    texts = h_texts + r_texts
    chars = _Tokens.from_chars(["".join(t.split()) for t in texts], len(h_texts))
    words = _Tokens.from_words([chrf_words(t) for t in texts], len(h_texts))
    groups = np.arange(len(r_texts))
    columns = []
    for tokens, order in ((chars, CHAR_ORDER), (words, WORD_ORDER)):
        for n in range(1, order + 1):
            hyp_total, match = _matches(tokens, n, pair_hyp, r_index, len(h_texts), groups)
            ref_total = np.maximum(tokens.lengths[pair_ref] - n + 1, 0)
            columns += [hyp_total, ref_total, match]
    stats = np.stack(columns, axis=1).astype(float)
    scores = chrf_from_stats(stats)
    # sacrebleu picks each output's best reference
    pair_item = np.repeat(np.arange(len(hyps)), [len(rs) for rs in refs])
    return stats[_best_per_hyp(pair_item, scores, len(hyps))]


# Characters on which sacrebleu's 13a tokenizer acts (its four regexes and its '&'/'<skipped>'
# /'-\n' replacements), the space excepted: a text with none of them tokenizes to its
# white-space-normalised self, so only the others go through the (slow) tokenizer itself.
_13A_ACTS = re.compile(r"[\{-\~\[-\`!-\&\(-\+\:-\@\/\.,\-]")


def tokenize_13a(text: str, tokenizer) -> list[str]:
    if _13A_ACTS.search(text) is None:
        return text.split()
    return tokenizer(text.rstrip()).split()


def sentence_bleu(hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> np.ndarray:
    """BLEU (0–100, exp smoothing, effective order, 13a) of each output; each distinct
    (output, references) pair is scored once."""
    u_hyps, u_refs, index = _distinct_items(hyps, refs)
    return _sentence_bleu(u_hyps, u_refs)[index] if len(hyps) else np.zeros(0)


def _sentence_bleu(hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> np.ndarray:
    # lazy: sacrebleu is slow to import
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    tokenize = Tokenizer13a()
    h_texts, h_index = _distinct(hyps)
    tuples, item_group = _distinct(["\x00".join(rs) for rs in refs])
    # reference units: each text of each distinct reference tuple (group)
    unit_text: list[str] = []
    group_of_ref: list[int] = []
    for g, joined in enumerate(tuples):
        for text in joined.split("\x00"):
            unit_text.append(text)
            group_of_ref.append(g)
    cache: dict[str, list[str]] = {}

    def words(text: str) -> list[str]:
        if text not in cache:
            cache[text] = tokenize_13a(text, tokenize)
        return cache[text]

    tokens = _Tokens.from_words([words(t) for t in h_texts + unit_text], len(h_texts))
    n_items = len(hyps)
    correct = np.zeros((n_items, BLEU_ORDER))
    total = np.zeros((n_items, BLEU_ORDER))
    groups = np.asarray(group_of_ref, dtype=np.int64)
    for n in range(1, BLEU_ORDER + 1):
        hyp_total, match = _matches(tokens, n, h_index, item_group, len(h_texts), groups)
        correct[:, n - 1] = match
        total[:, n - 1] = hyp_total
    hyp_len = tokens.lengths[h_index]
    unit_len = tokens.lengths[len(h_texts) :]
    sizes = np.array([len(rs) for rs in refs], dtype=np.int64)
    pair_item = np.repeat(np.arange(n_items), sizes)
    group_first = np.searchsorted(groups, np.arange(len(tuples)))
    offset = np.arange(len(pair_item)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    ref_lens = unit_len[group_first[item_group[pair_item]] + offset]
    ref_len = _closest_ref_len(pair_item, hyp_len, ref_lens, n_items)
    return _bleu(correct, total, hyp_len.astype(float), ref_len.astype(float))


def _closest_ref_len(pair_item, hyp_len, ref_lens, n_items) -> np.ndarray:
    """sacrebleu: the reference length closest to the output's; the shorter on ties."""
    diff = np.abs(ref_lens - hyp_len[pair_item])
    order = np.lexsort((ref_lens, diff, pair_item))
    first = np.ones(len(order), bool)
    first[1:] = pair_item[order][1:] != pair_item[order][:-1]
    out = np.zeros(n_items, np.int64)
    out[pair_item[order][first]] = ref_lens[order][first]
    return out


def _bleu(correct, total, sys_len, ref_len) -> np.ndarray:
    """sacrebleu ``BLEU.compute_bleu`` with smooth 'exp' and effective order, row-wise."""
    n_items = len(correct)
    with np.errstate(divide="ignore", invalid="ignore"):
        bp = np.where(
            sys_len < ref_len,
            np.where(sys_len > 0, np.exp(1 - ref_len / np.where(sys_len > 0, sys_len, 1)), 0.0),
            1.0,
        )
    precisions = np.zeros((n_items, BLEU_ORDER))
    eff_order = np.full(n_items, BLEU_ORDER)
    smooth = np.ones(n_items)
    alive = np.ones(n_items, bool)
    for n in range(BLEU_ORDER):
        alive &= total[:, n] != 0
        eff_order = np.where(alive, n + 1, eff_order)
        zero = alive & (correct[:, n] == 0)
        smooth = np.where(zero, smooth * 2, smooth)
        safe_total = np.where(total[:, n] != 0, total[:, n], 1)
        precisions[:, n] = np.where(
            zero,
            100.0 / (smooth * safe_total),
            np.where(alive, 100.0 * correct[:, n] / safe_total, 0.0),
        )
    # (sacrebleu's eff_order stays at 4 when order 1 already has no windows; the early return
    # for "no matches" covers that case)
    logs = np.where(precisions > 0, np.log(np.where(precisions > 0, precisions, 1)), -9999999999)
    score = np.zeros(n_items)
    for i in range(n_items):
        e = int(eff_order[i])
        score[i] = bp[i] * math.exp(sum(logs[i, :e].tolist()) / e)
    return np.where(correct.sum(axis=1) > 0, score, 0.0)


def _distinct(texts: Sequence[str]) -> tuple[list[str], np.ndarray]:
    seen: dict[str, int] = {}
    index = np.fromiter((seen.setdefault(t, len(seen)) for t in texts), np.int64, len(texts))
    return list(seen), index
