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
    assert result["script_drift"] == 1 / 5  # the Roman answer to a Bengali-target task
