"""The parser counts what it cannot read instead of guessing."""

from __future__ import annotations

import pytest

from engine.understanding.parsing import EMPTY, OK, UNPARSEABLE, parse_output
from engine.understanding.task_spec import get_task

NORM = get_task("dialect-to-standard")
DID = get_task("dialect-id")
LABELS = ["chittagong", "sylhet"]


@pytest.mark.parametrize(
    ("text", "regime", "status", "answer"),
    [
        ('{"standard": "আমি যাই"}', "zero", OK, "আমি যাই"),
        ('Sure! {"standard": "আমি  যাই"} and {"standard": "পরে"}', "zero", OK, "আমি যাই"),
        ('1. ...\n{"standard": "খসড়া"}\nFinal: {"standard": "শেষ"}', "cot", OK, "শেষ"),
        ("আমি যাই", "zero", UNPARSEABLE, ""),  # right words, wrong format: not guessed
        ('{"standard": 5}', "zero", UNPARSEABLE, ""),
        ('{"english": "I go"}', "zero", UNPARSEABLE, ""),
        ('{"standard": "আমি', "zero", UNPARSEABLE, ""),  # cut off
        ("   \n", "zero", EMPTY, ""),
        (None, "zero", EMPTY, ""),
        ('{"standard": "  "}', "zero", EMPTY, ""),
    ],
)
def test_generation_outputs(text, regime, status, answer):
    parsed = parse_output(text, NORM, regime)
    assert parsed.status == status
    if status == OK:
        assert parsed.answer == answer


@pytest.mark.parametrize(
    ("text", "status", "answer"),
    [
        ('{"label": "Sylhet."}', OK, "sylhet"),
        ('{"label": "sylhet or chittagong"}', UNPARSEABLE, None),
        ('{"label": "Sylheti"}', UNPARSEABLE, None),  # close is not a label
        ('{"label": "barishal"}', UNPARSEABLE, None),  # not in this run's label set
        ("sylhet", UNPARSEABLE, None),
    ],
)
def test_classification_outputs(text, status, answer):
    parsed = parse_output(text, DID, "zero", LABELS)
    assert parsed.status == status
    if answer:
        assert parsed.answer == answer


def test_unparseable_outputs_are_counted():
    from engine.understanding.failures import rates

    outputs = ['{"standard": "আমি যাই"}', "আমি যাই", "", '{"standard": "ami jai"}', "{"]
    result = rates([parse_output(t, NORM, "zero") for t in outputs], "bengali")
    assert result["unparseable"] == 2 / 5 and result["empty"] == 1 / 5
    # the Roman answer to a Bengali-target task, among the two parsed answers
    assert result["script_drift"] == 1 / 2
    assert result["denominators"] == {
        "unparseable": 5,
        "placeholder": 5,
        "empty": 5,
        "script_drift": 2,
    }


@pytest.mark.parametrize(
    "text",
    [
        '{"standard": "<the standard Bengali sentence>"}',  # the prompt's own template
        'Here: {"standard": "<the standard Bengali sentence>."}',
        '{"standard": "<sentence> <here>"}',
    ],
)
def test_a_copied_placeholder_is_a_format_failure(text):
    from engine.understanding.failures import rates
    from engine.understanding.parsing import PLACEHOLDER

    parsed = parse_output(text, NORM, "zero")
    assert parsed.status == UNPARSEABLE and parsed.reason == PLACEHOLDER
    outputs = [text] * 27 + ['{"standard": "ami jai"}'] + ['{"standard": "আমি যাই"}'] * 72
    result = rates([parse_output(t, NORM, "zero") for t in outputs], "bengali")
    # the 27 placeholders are failures, not Latin-script answers drifting
    assert result["unparseable"] == 27 / 100 and result["placeholder"] == 27 / 100
    assert result["script_drift"] == 1 / 73 and result["denominators"]["script_drift"] == 73


def test_normalize_none_keeps_the_answer_as_written():
    decomposed = '{"standard": "নয\u09bc  যাই"}'
    assert parse_output(decomposed, NORM, "zero").answer == "নয় যাই"  # NFC, folded
    kept = parse_output(decomposed, NORM, "zero", normalize="none").answer
    assert kept == "নয\u09bc  যাই"


def test_a_sentence_with_angle_brackets_is_still_an_answer():
    parsed = parse_output('{"standard": "সে বলল <আমি যাব>"}', NORM, "zero")
    assert parsed.ok
