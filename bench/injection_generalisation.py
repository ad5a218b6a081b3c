"""Leave-one-round-out: how the injection detector does on a round it was not trained on.

Every labelled set of ``bench/injection_detection.py`` is held out in turn; the model
(engine/judging/injection/model.py) is trained on the others' ``TRAINING`` sets and the
held-out round is measured with it. Printed per round: ``rules`` (the rules alone, as they
are now — tuned on every round, so these rates are optimistic) and ``detector`` (rules
confirmed by the fold's model, or the model alone: what routes to review), with ``checked``
(suspicious, sent to the judge run's disagreement check; not counted as routed).

``--first-contact`` adds the honest case for the rules too: for issue 22's four held-out
rounds, the rules as they were committed when the round was first measured (read from git
history into a temporary folder) — alone, and combined with the fold's model the way the
detector combines them.

Prints one JSON object last.

    python bench/injection_generalisation.py [--quick] [--first-contact]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from statistics import mean

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from injection_detection import QUESTIONS, SETS, TRAINING  # noqa: E402

from engine.judging.injection.detect import detect_injection  # noqa: E402
from engine.judging.injection.model import ALONE, CONFIRM, Scorer  # noqa: E402
from engine.judging.injection.phrases import addresses_evaluation  # noqa: E402
from engine.judging.injection.rules import rule_hits  # noqa: E402
from engine.judging.injection.text import matching_form  # noqa: E402
from engine.judging.injection.training import train  # noqa: E402

# the commit whose detector first met each round (its rates then, routed / false flags: 35/18,
# 75/18, 95/16 % with rules alone; 88/5.7 and 92/8.7 % with the learned model)
FIRST_CONTACT = {
    "held_out_22": ("59503fd", "injection_held_out_issue22.jsonl"),
    "held_out_22b": ("da9e750", "injection_held_out_issue22b.jsonl"),
    "held_out_22c": ("da9e750", "injection_held_out_issue22c.jsonl"),
    "held_out_22d": ("ccbdda1", "injection_held_out_issue22d.jsonl"),
    "held_out_22e": ("e56b9fc", "injection_held_out_issue22e.jsonl"),
}
_OLD_FLAGS = """
import json, sys
from engine.judging.injection.detect import detect_injection
rows = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8") if line.strip()]
print(json.dumps({k: [detect_injection(r["text"]).reasons for r in rows if r["kind"] == k]
                  for k in ("attack", "legit")}))
"""


def share(values: list[bool]) -> float | None:
    return round(sum(values) / len(values), 3) if values else None


def fold_scorer(held: str) -> Scorer:
    names = [n for n in TRAINING if n != held]
    return Scorer(
        train([t for n in names for _, t in SETS[n][0]], [t for n in names for _, t in SETS[n][1]])
    )


def combined(rule_reasons: list[list[str]], texts: list[str], scorer: Scorer) -> list[bool]:
    """Other rules' reasons combined with the model as the detector combines its own (the
    old rules' structural reasons are not told apart: they count as rules)."""
    out = []
    for reasons, text in zip(rule_reasons, texts, strict=True):
        p = scorer.probability(text)
        alone = p > ALONE and addresses_evaluation(matching_form(text))
        out.append(len(reasons) >= 2 or (bool(reasons) and p >= CONFIRM) or alone)
    return out


def first_contact_reasons(commit: str, data_file: str) -> dict[str, list[list[str]]]:
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(
            ["git", "archive", commit, "engine", "resources"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        out = subprocess.run(
            [sys.executable, "-c", _OLD_FLAGS, str(ROOT / "bench" / "data" / data_file)],
            cwd=tmp,
            capture_output=True,
            check=True,
            text=True,
        ).stdout
    return json.loads(out)


def summary(rows: dict[str, dict], key: str) -> dict:
    routed = [r[f"{key}_routed"] for r in rows.values() if r[f"{key}_routed"] is not None]
    flags = [r[f"{key}_false_flags"] for r in rows.values()]
    return {
        "routed_mean": round(mean(routed), 3),
        "routed_worst": min(routed),
        "false_flags_mean": round(mean(flags), 3),
        "false_flags_worst": max(flags),
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="(the rounds are small: same run)")
    parser.add_argument(
        "--first-contact", action="store_true", help="also the rules from git history"
    )
    args = parser.parse_args()
    rows: dict[str, dict] = {}
    first: dict[str, dict] = {}
    for held, (attacks, legit) in SETS.items():
        scorer = fold_scorer(held)
        a_texts, l_texts = [t for _, t in attacks], [t for _, t in legit]
        a_reports = [detect_injection(t, scorer, QUESTIONS.get(t, "")) for t in a_texts]
        l_reports = [detect_injection(t, scorer, QUESTIONS.get(t, "")) for t in l_texts]
        rows[held] = {
            "attacks": len(attacks),
            "legit": len(legit),
            "rules_routed": share([bool(rule_hits(t)[0]) for t in a_texts]),
            "rules_false_flags": share([bool(rule_hits(t)[0]) for t in l_texts]),
            "detector_routed": share([r.flagged for r in a_reports]),
            "detector_false_flags": share([r.flagged for r in l_reports]),
            "checked_attacks": share([bool(r.suspicious) for r in a_reports]),
            "checked_legit": share([bool(r.suspicious) for r in l_reports]),
        }
        print(f"{held}: {rows[held]}")
        if args.first_contact and held in FIRST_CONTACT:
            old = first_contact_reasons(*FIRST_CONTACT[held])
            first[held] = {
                "rules_routed": share([bool(r) for r in old["attack"]]),
                "rules_false_flags": share([bool(r) for r in old["legit"]]),
                "detector_routed": share(combined(old["attack"], a_texts, scorer)),
                "detector_false_flags": share(combined(old["legit"], l_texts, scorer)),
            }
            print(f"  first contact ({FIRST_CONTACT[held][0]}): {first[held]}")
    out: dict = {
        "rounds": rows,
        "rules": summary(rows, "rules"),
        "detector": summary(rows, "detector"),
    }
    if first:
        out["first_contact"] = first | {
            "rules": summary(first, "rules"),
            "detector": summary(first, "detector"),
        }
    print(f"rules: {out['rules']}\ndetector: {out['detector']}")
    if first:
        print(
            f"first contact: {out['first_contact']['rules']} -> {out['first_contact']['detector']}"
        )
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
