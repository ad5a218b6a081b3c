"""The checks' changes and the agreement statistics, on their own: each change does what it
says (or says it has nothing to change), the swapped template shows the dialect block first
with every label kept, the prompt's NFC undoes the Unicode changes, and the vectorised
weighted κ is scikit-learn's."""

from __future__ import annotations

import unicodedata

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from engine.judging.prompt import load_judge_template, pair_prompt
from engine.judging.rubric import load_rubric
from engine.validity import checks
from engine.validity.agreement import _kappa, kappa_alpha, verdicts

ANSWER = "পদ্মা বাংলাদেশের প্রধান নদী। এটি যমুনার সঙ্গে মিলেছে. নদীটি বড়।"
PAIR = {
    "standard_question": "বাংলাদেশের প্রধান নদী কোনটি?",
    "standard_answer": "পদ্মা।",
    "dialect_question": "বাংলাদেশর বড় গাং কুনটা?",
    "dialect_answer": ANSWER,
    "dialect_name": "Sylhet",
}


def test_each_text_change_changes_what_it_names():
    assert checks.whitespace(ANSWER) == ("পদ্মা বাংলাদেশের প্রধান নদী।\nএটি যমুনার সঙ্গে মিলেছে.\nনদীটি বড়।")
    assert checks.whitespace("একটি বাক্য") is None  # nothing to break
    swapped = checks.punctuation(ANSWER)
    assert swapped == "পদ্মা বাংলাদেশের প্রধান নদী. এটি যমুনার সঙ্গে মিলেছে। নদীটি বড়."
    assert checks.punctuation("৩.৫ কেজি") == "৩.৫ কেজি।"  # a decimal point is not a stop
    vowel_sign_o = "বড়ো নদী"  # ো is এ-কার + আ-কার in NFD
    assert checks.unicode_nfd(vowel_sign_o) == unicodedata.normalize("NFD", vowel_sign_o)
    assert len(checks.unicode_nfd(vowel_sign_o)) == len(vowel_sign_o) + 1
    assert checks.unicode_nfd("abc") is None
    composed = "নদীটি বড়\u09df"
    assert checks.ya_spelling(composed) == "নদীটি বড়\u09af\u09bc"
    assert checks.ya_spelling("\u09af\u09bc") == "\u09df"
    assert checks.ya_spelling("নদী") is None
    assert checks.padding(ANSWER) == f"{ANSWER} {checks.PADDING}"
    assert checks.emptied(ANSWER) == ""


def test_the_swapped_template_shows_the_dialect_block_first_with_its_labels():
    template, rubric = load_judge_template(), load_rubric()
    swapped = checks.swapped_template(template)
    assert swapped is not None and swapped.system == template.system
    user = pair_prompt(swapped, rubric, PAIR).user
    order = [
        user.index(f"BEGIN {label}")
        for label in ("dialect_question", "dialect_answer", "standard_question", "standard_answer")
    ]
    assert order == sorted(order)
    assert user.index("The same question in the Sylhet dialect") < user.index(
        "Standard Bengali question"
    )
    # the same texts, only their order differs
    plain = pair_prompt(template, rubric, PAIR).user
    assert sorted(plain.split("\n\n")) == sorted(user.split("\n\n"))


def test_a_template_that_interleaves_the_two_sides_cannot_be_swapped():
    template = load_judge_template()
    interleaved = template.user.replace(
        "Model's answer to the standard question:\n$standard_answer\n\n"
        "The same question in the $dialect_name dialect:\n$dialect_question",
        "The same question in the $dialect_name dialect:\n$dialect_question\n\n"
        "Model's answer to the standard question:\n$standard_answer",
    )
    assert interleaved != template.user
    changed = type(template)(template.system, interleaved, "x", "t")
    assert checks.swapped_template(changed) is None


def test_the_prompt_undoes_the_unicode_changes_so_they_are_not_asked():
    template, rubric = load_judge_template(), load_rubric()
    text = "নদীটি বড়ো, যায়।"
    base = pair_prompt(template, rubric, {**PAIR, "dialect_answer": text}).user
    for change in (checks.unicode_nfd, checks.ya_spelling):
        changed = change(text)
        assert changed is not None and changed != text
        assert pair_prompt(template, rubric, PAIR, dialect_answer=changed).user == base


@pytest.mark.parametrize("seed", range(5))
def test_the_vectorised_weighted_kappa_is_scikit_learns(seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 11, 25)
    b = np.clip(a + rng.integers(-3, 4, 25), 0, 10)
    weights = rng.integers(0, 3, (4, 25)).astype(float)
    got = _kappa(weights, a, b, 11)
    for row, value in zip(weights, got, strict=True):
        expected = cohen_kappa_score(
            np.repeat(a, row.astype(int)),
            np.repeat(b, row.astype(int)),
            weights="quadratic",
            labels=list(range(11)),
        )
        assert value == pytest.approx(expected)


def test_kappa_and_alpha_with_intervals_around_them():
    rng = np.random.default_rng(7)
    original = rng.uniform(0, 10, 40)
    changed = np.clip(original + rng.normal(0, 1, 40), 0, 10)
    kappa, alpha = kappa_alpha(
        original, changed, np.arange(40) // 2, scale=10, level=0.95, resamples=400, seed=1
    )
    for figure in (kappa, alpha):
        assert figure.low < figure.value < figure.high <= 1
    same = kappa_alpha(
        original, original, np.arange(40), scale=10, level=0.95, resamples=50, seed=1
    )
    assert same[0].value == 1.0 and same[1].value == 1.0
    assert list(verdicts([0.49, 0.5, 9.5, 10])) == [0, 1, 10, 10]
