"""Translation-quality evaluation on held-out pairs (paper 000 §3.1.3).

The standard side of each held-out (validation) pair is translated into its dialect with
the same RAG pipeline as the questions (run kind ``translate-eval``, item key
``pair<id>``), then scored against the human dialect side:

- BLEU, chrF++ (with sacrebleu signatures), WER, embedding cosine, BERTScore-style F1,
  each against all references of an item (one source sentence with several human dialect
  renderings is one item; sacrebleu multi-reference);
- the copy-input baseline: the standard sentence returned unchanged. On Vashantor's
  validation split it already reaches chrF++ 22.2 (Chittagong) and 54.3 (Mymensingh): a
  system below its baseline has not translated;
- optionally the LLM judge's 0–10 fidelity score (run kind ``translation-judge``);
- when people scored translations (``human_annotations`` with target ``translation`` and
  ``target_id`` = the id of the ``translate-eval`` response they scored, score 0–10), a
  correlation table of every metric against them.

A model that does not load is reported, not raised (``load_error``, ``judge_load_error``, as
in engine.llm.runs.model_runs), and pairs left without a translation or a judge reply are counted
(``missing``, ``judge_missing``): such a step is incomplete, and running it again resumes it.
The two model jobs are in :mod:`engine.translation.eval_jobs`.

The index must not contain the evaluated pairs: its splits, its pair ids and its pair
contents are checked, and a leak raises :class:`engine.rag.index.LeakageError`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any, TypedDict

from engine.errors import Setting, Step, UserError, setting, setting_usage, step
from engine.importing.stored_choice import scoring_normalization
from engine.llm.runs.run import note_in_card
from engine.rag.index import EVAL_SPLITS, LeakageError, RetrievalIndex
from engine.stats.sample import sample_counts
from engine.stats.sample import stratified_order as seeded_order
from engine.text.textnorm import record_key
from engine.translation.draft_checks import checked_share
from engine.translation.eval_jobs import ModelJob, judge_translations, translate_pairs
from engine.translation.metrics import (
    corpus_scores,
    correlation_table,
    sentence_scores,
    sentence_signatures,
)
from engine.translation.translate import (
    clean_completion,
)
from engine.workspace import human_annotations
from engine.workspace.store import Workspace

log = logging.getLogger(__name__)


def eval_split_for(ws: Workspace, dialects: Sequence[str], requested: str | None = None) -> str:
    present = {
        r["split"]
        for r in ws.query(
            f"SELECT DISTINCT split FROM sentence_pairs WHERE dialect IN ({','.join('?' * len(dialects))})",
            tuple(dialects),
        )
    }
    if requested:
        if requested not in present:
            raise UserError(f"no pairs in split {requested!r} for {', '.join(dialects)}")
        return requested
    found = sorted(present & EVAL_SPLITS)
    if not found:
        raise UserError(
            f"no held-out split ({', '.join(sorted(EVAL_SPLITS))}) among the pairs of "
            f"{', '.join(dialects)}; import a corpus with a validation split"
        )
    return found[0]


def heldout_pairs(
    ws: Workspace,
    index: RetrievalIndex,
    dialects: Sequence[str],
    split: str,
    limit: int | None = None,
    seed: int = 0,
    normalize: str | None = None,
) -> tuple[list[dict], int]:
    """Held-out corpus *items* per dialect (first ``limit`` items by id), after the leakage
    checks. Under ``normalize`` 'nfc' a raw corpus groups as an NFC import would: spellings
    that differ only in encoding are one item and one reference. An item is one standard sentence of one corpus and dialect with all its
    references: the pair row of its first reference plus ``references`` (every dialect
    text, in id order) and ``pair_ids``. Returns (items, dropped): items whose source
    sentence is also indexed for that dialect are dropped, since its references (or the
    same pair) could otherwise be retrieved as exemplars of its own translation."""
    if split in index.splits:
        raise LeakageError(
            f"the index at {index.folder} contains split {split!r}, which is being "
            f"evaluated; rebuild it without that split ({step(Step.BUILD_INDEX)} with "
            f"{setting(Setting.SPLITS, 'train,test')})"
        )
    corpora = index.manifest.get("corpora")
    sql = (
        "SELECT p.* FROM sentence_pairs p JOIN corpora c ON c.id = p.corpus_id "
        "WHERE p.split = ? AND p.dialect = ?"
    )
    if corpora:
        sql += f" AND c.name IN ({','.join('?' * len(corpora))})"
    sql += " ORDER BY p.id"
    indexed_ids = set(index.pair_ids.tolist())
    indexed_sources = {(d["dialect"], d["standard_key"]) for d in index.docs}
    key_of = record_key(normalize) if normalize else None
    items: list[dict] = []
    dropped = 0
    for dialect in dialects:
        grouped: dict[tuple, dict] = {}
        ref_keys: dict[tuple, set[str]] = {}
        for p in ws.query(sql, (split, dialect, *(corpora or ()))):
            if p["id"] in indexed_ids:
                raise LeakageError(f"pair {p['id']} of split {split!r} is inside the index")
            std_key = key_of(p["standard_text"]) if key_of else p["standard_key"]
            key = (p["corpus_id"], p["dialect"], std_key)
            item = grouped.get(key)
            if item is None:
                item = grouped[key] = {**p, "references": [], "pair_ids": []}
            ref_key = key_of(p["dialect_text"]) if key_of else p["dialect_key"]
            if ref_key in ref_keys.setdefault(key, set()):
                continue
            ref_keys[key].add(ref_key)
            item["references"].append(p["dialect_text"])
            item["pair_ids"].append(p["id"])
        mine = list(grouped.values())
        kept = [it for it in mine if (it["dialect"], it["standard_key"]) not in indexed_sources]
        dropped += len(mine) - len(kept)
        # ``limit``: a seeded sample (as run-task draws), never the corpus's first rows
        items += seeded_order(kept, seed, lambda it: f"pair{it['id']}")[:limit] if limit else kept
    return items, dropped


def corpus_items(
    ws: Workspace, dialect: str, *, split: str | None = None, corpus: str | None = None
) -> list[dict]:
    """Items (source + all references) of one dialect, optionally of one split/corpus."""
    sql = (
        "SELECT p.corpus_id, p.standard_key, p.standard_text, p.dialect_text FROM "
        "sentence_pairs p JOIN corpora c ON c.id = p.corpus_id WHERE p.dialect = ?"
    )
    params: list = [dialect]
    if split:
        sql += " AND p.split = ?"
        params.append(split)
    if corpus:
        sql += " AND c.name = ?"
        params.append(corpus)
    grouped: dict[tuple, dict] = {}
    for r in ws.query(sql + " ORDER BY p.id", tuple(params)):
        item = grouped.setdefault(
            (r["corpus_id"], r["standard_key"]), {"source": r["standard_text"], "references": []}
        )
        item["references"].append(r["dialect_text"])
    return list(grouped.values())


def copy_baseline(
    ws: Workspace, dialect: str, *, split: str | None = None, corpus: str | None = None
) -> dict:
    """The copy-input baseline (the standard sentence as the translation) against all
    references of every item (sacrebleu multi-reference)."""
    items = corpus_items(ws, dialect, split=split, corpus=corpus)
    if not items:
        raise UserError(
            f"no pairs for dialect {dialect!r}" + (f" in split {split!r}" if split else "")
        )
    return corpus_scores([it["source"] for it in items], [it["references"] for it in items])


def human_scores(ws: Workspace, response_ids: Sequence[int]) -> dict[int, float]:
    """Mean human score (0–10) per translate-eval response id."""
    if not response_ids:
        return {}
    out: dict[int, float] = {}
    ids = list(response_ids)
    for i in range(0, len(ids), 500):
        chunk = ids[i : i + 500]
        for r in ws.query(
            "SELECT target_id, avg(score) AS s FROM human_annotations WHERE "
            f"target = 'translation' AND score IS NOT NULL AND target_id IN "
            f"({','.join('?' * len(chunk))}) GROUP BY target_id",
            tuple(chunk),
        ):
            out[r["target_id"]] = float(r["s"])
    return out


TRANSLATION_SCORE_SCALE = (0.0, 10.0)  # human scores of translate-eval responses


def record_human_score(
    ws: Workspace, response_id: int, annotator: str, score: float, reason: str = ""
) -> None:
    if not 0 <= score <= 10:
        raise UserError("a translation score is between 0 and 10")
    human_annotations.record_translation_score(
        ws,
        response_id,
        annotator=annotator,
        score=score,
        scale=TRANSLATION_SCORE_SCALE,
        reason=reason,
    )


class TranslationScore(TypedDict):
    """:func:`record_translation_score`: the score recorded and its scale (min, max)."""

    response_id: int
    annotator: str
    score: float
    scale: list[float]


def record_translation_score(
    ws: Workspace, response_id: int, annotator: str, score: float, reason: str = ""
) -> TranslationScore:
    """A person's 0–10 score of one translate-eval response (checked to exist)."""
    if not ws.scalar(
        "SELECT 1 FROM responses r JOIN runs u ON u.id = r.run_id "
        "WHERE r.id = ? AND u.kind = 'translate-eval'",
        (response_id,),
    ):
        kind = ws.scalar(
            "SELECT u.kind FROM responses r JOIN runs u ON u.id = r.run_id WHERE r.id = ?",
            (response_id,),
        )
        raise UserError(
            f"no translate-eval response with id {response_id}"
            + (
                f" (it is a {kind} response: a human label of it is an annotation item's "
                f"score, e.g. of a batch drawn for PPI; give the item with "
                f"{setting_usage(Setting.ITEM)})"
                if kind
                else ""
            )
        )
    if not annotator.strip():
        raise UserError("the annotator must be named")
    record_human_score(ws, response_id, annotator.strip(), score, reason)
    return {
        "response_id": response_id,
        "annotator": annotator.strip(),
        "score": float(score),
        "scale": list(TRANSLATION_SCORE_SCALE),
    }


def evaluate_translations(
    ws: Workspace,
    retriever,
    *,
    dialects: Sequence[str],
    model_row: dict,
    judge_row: dict | None = None,
    limit: int | None = None,
    split: str | None = None,
    backend=None,
    judge_backend=None,
    normalize: str | None = None,
    seed: int = 0,
    progress: Callable[[int, int, str], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> dict:
    """Translate, score and compare; returns the report (see module docstring). The
    metrics score the texts under ``normalize`` (engine.text.textnorm; named in signatures),
    by default the indexed corpora's stored choice (engine.importing.stored_choice)."""
    index = retriever.index
    corpora = index.manifest.get("corpora") or []
    normalize, notes = scoring_normalization(
        ws, "pairs", corpora[0] if len(corpora) == 1 else None, normalize
    )
    split = eval_split_for(ws, dialects, split)
    pairs, dropped = heldout_pairs(ws, index, dialects, split, limit, seed, normalize)
    if not pairs:
        raise UserError(f"no held-out pairs to evaluate in split {split!r}")
    translation, responses = translate_pairs(
        ws,
        retriever,
        pairs,
        model_row=model_row,
        backend=backend,
        progress=progress,
        cancelled=cancelled,
    )
    sample = {
        "limit": limit,
        "seed": seed,
        "strata": "dialect",
        "counts": sample_counts(pairs, lambda p: (p["dialect"], "all")),
    }
    if limit and translation.run_id is not None:
        note_in_card(ws, translation.run_id, "sample", sample)
    names = ws.dialect_names()
    items: list[dict[str, Any]] = [
        {
            "pair": p,
            "response": responses[p["id"]],
            "hyp": clean_completion(
                responses[p["id"]]["text"],
                (names[p["dialect"]]["name_bn"], names[p["dialect"]]["name_en"]),
            ),
        }
        for p in pairs
        if p["id"] in responses
    ]
    verdicts: dict = {}
    judge: ModelJob | None = None
    if judge_row is not None and items:
        judge, verdicts = judge_translations(
            ws,
            items,
            judge_row=judge_row,
            translate_run=translation.run_id,
            backend=judge_backend,
            progress=progress,
            cancelled=cancelled,
        )
    encoder = retriever.encoder
    report: dict[str, Any] = {
        "run_id": translation.run_id,
        "judge_run_id": judge.run_id if judge else None,
        "split": split,
        "pairs": len(pairs),
        "translated": len(items),
        "missing": len(pairs) - len(items),
        "load_error": translation.load_error,
        "last_error": translation.last_error,
        # translated pairs the judge gave no reply (a refusing or unloadable judge)
        "judge_missing": len(items) - len(verdicts) if judge else 0,
        "judge_load_error": judge.load_error if judge else None,
        "judge_last_error": judge.last_error if judge else None,
        "dropped_indexed_duplicates": dropped,
        "sample": sample if limit else None,
        "encoder": encoder.encoder_id,
        "index": {"folder": str(index.folder), "splits": index.splits},
        "selfcheck": (index.selfcheck or {}).get("overall"),
        "per_dialect": {},
    }
    for dialect in dialects:
        mine = [it for it in items if it["pair"]["dialect"] == dialect]
        if not mine:
            continue
        refs = [it["pair"]["references"] for it in mine]
        entry = {
            "n": len(mine),
            "references": sum(len(r) for r in refs),
            "system": corpus_scores([it["hyp"] for it in mine], refs, encoder, normalize=normalize),
            "copy_baseline": corpus_scores(
                [it["pair"]["standard_text"] for it in mine], refs, encoder, normalize=normalize
            ),
        }
        entry["dialect_check"] = checked_share(
            [it["hyp"] for it in mine], dialect, [it["pair"]["standard_text"] for it in mine]
        )
        if judge:
            replied = [verdicts[it["pair"]["id"]] for it in mine if it["pair"]["id"] in verdicts]
            valid = [v for v in replied if v is not None]
            entry["judge"] = {
                "n_valid": len(valid),
                "n_invalid": len(replied) - len(valid),  # replied, but not a verdict
                "n_missing": len(mine) - len(replied),  # no reply: run again
                "mean": round(sum(v.score for v in valid) / len(valid), 4) if valid else None,
                "ceilings_applied": sum(v.ceiling_applied for v in valid),
            }
        report["per_dialect"][dialect] = entry
    first = next(iter(report["per_dialect"].values()), None)
    report["normalize"] = normalize
    report["notes"] = notes
    report["signatures"] = first["system"]["signatures"] if first else {}
    report["correlation"] = _correlations(ws, items, verdicts, encoder, normalize)
    return report


def _correlations(
    ws: Workspace, items: list[dict], verdicts: dict, encoder, normalize: str
) -> dict:
    humans = human_scores(ws, [it["response"]["id"] for it in items])
    scored = [it for it in items if it["response"]["id"] in humans]
    if len(scored) < 3:
        return {
            "n_human": len(scored),
            "table": [],
            "note": "fewer than 3 human-scored translations (human_annotations target "
            "'translation', target_id = translate-eval response id)",
        }
    refs = [it["pair"]["references"] for it in scored]
    rows = sentence_scores([it["hyp"] for it in scored], refs, encoder, normalize=normalize)
    for row, it in zip(rows, scored):
        v = verdicts.get(it["pair"]["id"])
        if v is not None:
            row["judge"] = v.score
    # record_human_score keeps translation scores on 0-10
    table = correlation_table(
        rows, [humans[it["response"]["id"]] for it in scored], human_scale=(0.0, 10.0)
    )
    return {
        "n_human": len(scored),
        "table": table,
        "sentence_signatures": sentence_signatures(refs, normalize),
    }
