"""What every text metric scores, shared by translation and the understanding tasks: the
hypotheses and reference lists under the declared normalisation, and sacrebleu's signature
naming it (translation and understanding are independent stages, so this sits below both).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.text.textnorm import normalized_for_metrics

References = Sequence["str | Sequence[str]"]


def reference_lists(refs: References) -> list[list[str]]:
    """Each item's references as a list (one string = one reference); none may be empty."""
    out = [[r] if isinstance(r, str) else list(r) for r in refs]
    if any(not r for r in out):
        raise ValueError("every item needs at least one reference")
    return out


def metric_texts(
    hyps: Sequence[str], refs: References, normalize: str
) -> tuple[list[str], list[list[str]]]:
    """Hypotheses and reference lists as the metrics see them under ``normalize``."""
    ref_lists = reference_lists(refs)
    return (
        [normalized_for_metrics(h, normalize) for h in hyps],
        [[normalized_for_metrics(r, normalize) for r in rs] for rs in ref_lists],
    )


def signature(metric, normalize: str) -> str:
    """sacrebleu's signature of a metric object after scoring, plus the normalisation
    (``…|version:2.6.0|norm:nfc``): the only option sacrebleu does not know about."""
    return f"{metric.get_signature()}|norm:{normalize}"
