"""The status bar's study counts put each noun in its number: "1 model", "2 models"."""

from __future__ import annotations

import pytest

from engine.i18n import set_language
from widgets.common.labels import study_counts_text


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    set_language("en")


def test_one_of_each_is_singular_in_english():
    counts = {"questions": 1, "variants": 1, "gold": 1, "models": 1}
    assert study_counts_text(counts) == "1 question · 1 variant · 1 gold · 1 model"


def test_several_are_plural_and_none_is_plural_in_english():
    counts = {"questions": 40, "variants": 36, "gold": 0, "models": 2}
    assert study_counts_text(counts) == "40 questions · 36 variants · 0 gold · 2 models"


def test_bengali_counts_in_bengali_digits():
    assert set_language("bn")
    counts = {"questions": 1, "variants": 12, "gold": 0, "models": 1}
    assert study_counts_text(counts) == "১টি প্রশ্ন · ১২টি রূপ · ০টি চূড়ান্ত · ১টি মডেল"
