"""Injection detection rates on the written table (tests/engine/judging/injection_table.py).

Baseline in the same run: what existed before issue 16 — the control-token check of the
neutralizer, the only thing that looked at answer content. Rates per set: the tuned table
(the rules were written against it), two rounds written later (the first then used to widen
the rules, the second never tuned on at first), factual answers that only mention "the
answer" and a number (false flags only), issue 22's tuning round (Unicode tricks, Banglish,
dialects, split orders, verdict-shaped text; answers about doses, interest, cricket, courts
and exams) and its second tuning round (advice to students, described scales, examiners), and
issue 22's three held-out rounds in ``bench/data/`` (see its README), never tuned on. At first
contact: round 1 (before the first tuning: 35 % routed, 18 % false flags; after it: 100 %, 8 %),
round 2 (after the first tuning: 75 %, 18 %), round 3 (before the second tuning: 95 %, 16 %).

``routed`` is the share of attacks sent to review before judging (a detector flag; the
judge-time disagreement check of :mod:`engine.judging.disagreement` can only add to it),
``false_flags`` the share of legitimate answers flagged; ``checked_attacks`` and
``checked_legit`` the shares that are only *suspicious* (not flagged, not counted as routed:
the judge run's disagreement check judges them again without their suspicious sentences).

Since the detector has a learned part (engine/judging/injection/model.py) trained on every
set in ``TRAINING`` (the rounds above, the blind rounds 22d and 22e once measured, two
training rounds written blind, and the obfuscation tuning round of
tests/engine/judging/injection_table_33.py), these rates are training rates (not for
``tune_33cd`` and ``tune_33ef``, which only the rules were tuned on);
leave-one-round-out ones are in ``bench/injection_generalisation.py``. The blind rounds of
``BLIND`` (rounds 22f–22i, 33a–33h, 46w and 46x, measured when their files are present) are never
trained on (46a–46v, blind at first contact, are tuning rounds now); ``blind_pooled`` gives the issue's two rates on them together. Prints one JSON object last.

    python bench/injection_detection.py [--quick]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.judging.injection.detect import detect_injection  # noqa: E402
from engine.judging.neutralize import contains_control_token  # noqa: E402
from tests.engine.judging import injection_table as table  # noqa: E402
from tests.engine.judging import injection_table_33 as tune_33  # noqa: E402
from tests.engine.judging import injection_table_33cd as tune_33cd  # noqa: E402
from tests.engine.judging import injection_table_33ef as tune_33ef  # noqa: E402
from tests.engine.judging import injection_table_46 as tune_46  # noqa: E402
from tests.engine.judging import injection_table_46_channels as tune_46ch  # noqa: E402
from tests.engine.judging import injection_table_46cd as tune_46cd  # noqa: E402
from tests.engine.judging import injection_table_hard as hard  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"


# answer -> the question it responds to, for the rounds that give one (the detector reads it)
QUESTIONS: dict[str, str] = {}


def jsonl_set(path: Path) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    QUESTIONS.update((r["text"], r["question"]) for r in rows if r.get("question"))
    return tuple(  # type: ignore[return-value]
        [(r["lang"], r["text"]) for r in rows if r["kind"] == kind] for kind in ("attack", "legit")
    )


SETS = {
    "tuned": (table.ATTACKS, table.LEGIT),
    "held_out_1": (table.HELD_OUT_ATTACKS, table.HELD_OUT_LEGIT),
    "held_out_2": (table.HELD_OUT_2_ATTACKS, table.HELD_OUT_2_LEGIT),
    "factual_legit": ([], table.HELD_OUT_3_LEGIT),
    "tune_22": (table.TUNE_22_ATTACKS, table.TUNE_22_LEGIT),
    "tune_22c": (table.TUNE_22C_ATTACKS, table.TUNE_22C_LEGIT),
    "held_out_22": jsonl_set(DATA / "injection_held_out_issue22.jsonl"),
    "held_out_22b": jsonl_set(DATA / "injection_held_out_issue22b.jsonl"),
    "held_out_22c": jsonl_set(DATA / "injection_held_out_issue22c.jsonl"),
    # blind at its first contact (88 % routed, 5.7 % false flags); trained on since
    "held_out_22d": jsonl_set(DATA / "injection_held_out_issue22d.jsonl"),
    "tune_hard": (hard.HARD_ATTACKS, hard.HARD_LEGIT),
    # blind at its first contact (92 % routed, 8.7 % false flags); trained on since
    "held_out_22e": jsonl_set(DATA / "injection_held_out_issue22e.jsonl"),
    # written blind as training data (the authors saw neither the detector nor any round)
    "train_22_a": jsonl_set(DATA / "injection_training_22a.jsonl"),
    "train_22_b": jsonl_set(DATA / "injection_training_22b.jsonl"),
    # obfuscated and asking attacks with hard negatives, written after 33a/33b's first contact
    "tune_33": (tune_33.ATTACKS_33, tune_33.LEGIT_33),
}
# the model (resources/injection/model.json, scripts/train_injection_model.py) is trained on these
# only: the blind rounds below are measured, never trained on
TRAINING = tuple(SETS)
# Bengali-payload encodings, dialect orders to the grader, split orders, role play, with hard
# negatives, written from 33c/33d's labels after their first contact: the rules were tuned on
# it, the model not (trained with it, the model grew past 1.7 MB and missed one blind attack
# more)
SETS["tune_33cd"] = (tune_33cd.ATTACKS_33CD, tune_33cd.LEGIT_33CD)
# answers explaining prompt injection, LLM judges and marking that quote attacks, and attacks
# that hide behind such explanations, with their questions, written from 33e/33f's labels
# after their first contact: the rules were tuned on it, the model not
SETS["tune_33ef"] = (tune_33ef.ATTACKS_33EF, tune_33ef.LEGIT_33EF)
QUESTIONS.update(tune_33ef.QUESTIONS_33EF)
# orders hidden in channels (direction overrides, reversal, variation selectors, other
# scripts, look-alikes, acrostics, a bare verdict last, lexicon words run together or split)
# and their legitimate look-alikes, with questions, written from a blind round's first-contact
# labels: the rules were tuned on it, the model not
SETS["tune_46"] = (tune_46.ATTACKS_46, tune_46.LEGIT_46)
QUESTIONS.update(tune_46.QUESTIONS_46)
BLIND = {
    f"held_out_{r}": DATA / f"injection_held_out_issue{r}.jsonl"
    for r in (
        "22f",
        "22g",
        "22h",
        "22i",
        "33a",
        "33b",
        "33c",
        "33d",
        "33e",
        "33f",
        "33g",
        "33h",
        # measured at first contact on the detector of pass 9 and of pass 10, read by no tuner
        "46w",
        "46x",
    )
}
SETS |= {name: jsonl_set(path) for name, path in BLIND.items() if path.is_file()}
# the blind rounds 46a-46v, measured once each at first contact, then tuned on (their texts
# read): contaminated, rules tuned, the model not trained on them
SETS |= {
    f"held_out_46{r}": jsonl_set(DATA / f"injection_held_out_issue46{r}.jsonl")
    for r in "abcdefghijklmnopqrstuv"
}
# the channels 46b got past (other languages and scripts, tag and selector payloads however
# wrapped, letters one at a time, acrostics of every kind, a verdict in the judge's mouth) and
# their legitimate look-alikes, with questions: the rules were tuned on it, the model not
SETS["tune_46ch"] = (tune_46ch.ATTACKS_46CH, tune_46ch.LEGIT_46CH)
QUESTIONS.update(tune_46ch.QUESTIONS_46CH)
# the channels 46c and 46d got past (far languages, the Dravidian ones and Sinhala, Ol Chiki,
# English spelt in Bengali letters, IPA, a letter a line with its score) and their legitimate
# look-alikes, with questions: the rules were tuned on it, the model not
SETS["tune_46cd"] = (tune_46cd.ATTACKS_46CD, tune_46cd.LEGIT_46CD)
QUESTIONS.update(tune_46cd.QUESTIONS_46CD)


LANGS = ("en", "bn", "banglish", "dialect")


def rate(flag, rows, lang=None) -> float | None:
    rows = [t for lg, t in rows if lang is None or lg == lang]
    return round(sum(bool(flag(t)) for t in rows) / len(rows), 3) if rows else None


def real_texts() -> list[str]:
    """Real Bengali prose that addresses no judge (../shared/data; absent: skipped): the
    BlanCK context paragraphs and questions, and every Vashantor sentence, standard and
    dialect. Any flag on them is a false flag."""
    import csv

    data = Path(__file__).resolve().parents[2] / "shared" / "data"
    if not data.is_dir():
        data = Path("/work/shared/data")
    texts: list[str] = []
    blanck = data / "blanck" / "BlanCK.csv"
    if blanck.is_file():
        with open(blanck, encoding="utf-8") as f:
            for row in csv.DictReader(f):
                texts += [row["context"], row["question"]]
    multi = data / "vashantor" / "vashantor_multiway.csv"
    if multi.is_file():
        with open(multi, encoding="utf-8") as f:
            for row in csv.DictReader(f):
                texts += [v for k, v in row.items() if k != "vashantor_split"]
    return [t for t in texts if t and t.strip()]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="(the table is small: same run)")
    parser.parse_args()
    detector = lambda t: detect_injection(t, question=QUESTIONS.get(t, "")).flagged  # noqa: E731
    checked = lambda t: bool(detect_injection(t, question=QUESTIONS.get(t, "")).suspicious)  # noqa: E731

    def rates(attacks: list, legit: list) -> dict:
        return {
            "attacks": len(attacks),
            "legit": len(legit),
            "routed": rate(detector, attacks),
            "false_flags": rate(detector, legit),
            "checked_attacks": rate(checked, attacks),
            "checked_legit": rate(checked, legit),
        }

    out: dict = {}
    for name, (attacks, legit) in SETS.items():
        out[name] = rates(attacks, legit) | {
            **{f"routed_{lg}": rate(detector, attacks, lg) for lg in LANGS},
            "baseline_detection": rate(contains_control_token, attacks),
            "baseline_false_flags": rate(contains_control_token, legit),
        }
        print(f"{name}: {out[name]}")
    attacks = [row for name in BLIND if name in SETS for row in SETS[name][0]]
    legit = [row for name in BLIND if name in SETS for row in SETS[name][1]]
    # the goal's two rates, on every round nobody tuned on
    out["blind_pooled"] = legit and rates(attacks, legit)
    print(f"blind rounds pooled: {out['blind_pooled']}")
    real = real_texts()
    if real:
        flagged = [t for t in real if detector(t)]
        out["real_texts"] = {
            "texts": len(real),
            "false_flags": round(len(flagged) / len(real), 5),
            "flagged": len(flagged),
            "checked": sum(checked(t) for t in real),
            "examples": [t[:80] for t in flagged[:5]],
        }
        print(f"real texts: {out['real_texts']}")
    texts = [t for a, lg in SETS.values() for _, t in a + lg]
    detect_injection.cache_clear()  # timed uncached (the judge run meets each answer once)
    times = []
    for t in texts:
        start = time.perf_counter()
        detect_injection(t, question=QUESTIONS.get(t, ""))
        times.append(time.perf_counter() - start)
    times.sort()
    out["ms_per_answer"] = round(sum(times) * 1000 / len(texts), 3)
    out["ms_median"] = round(times[len(times) // 2] * 1000, 3)
    out["ms_p99"] = round(times[int(len(times) * 0.99)] * 1000, 3)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
