"""The engine's progress notes on a Bengali screen: phase words and numbers in Bengali, the
names in them (models, dialect codes) as they are."""

from __future__ import annotations

import re

import pytest

from engine.i18n import set_language
from widgets.common.task_progress import count_text, shown_note

NOTES = [
    "index: loading the encoder",
    "index: encoding",
    "index: building the index",
    "retrieving exemplars",
    "self-check",
    "check",
    "sentence scores",
    "correlations",
    "12.5 tok/s",
]


@pytest.fixture
def bengali():
    assert set_language("bn")
    yield
    set_language("en")


@pytest.mark.parametrize("note", NOTES)
def test_a_phase_note_reads_bengali(bengali, note):
    shown = shown_note(note)
    assert not re.search(r"[A-Za-z0-9]", shown), shown


def test_names_keep_their_letters_and_digits_and_the_count_keeps_its_unit(bengali):
    shown = shown_note("gemma-3-270m sylhet: 3.5 tok/s")
    assert shown.startswith("gemma-3-270m sylhet: ৩.৫ ")
    assert "tok/s" not in shown
    assert count_text(3, 10, "gemma-3-270m: 3.5 tok/s") == count_text(3, 10, "x: 1.0 tok/s")
    assert "৩" in count_text(3, 10, "index: encoding")


def test_english_notes_are_unchanged():
    assert shown_note("gemma-3-270m sylhet: 3.5 tok/s") == "gemma-3-270m sylhet: 3.5 tok/s"
