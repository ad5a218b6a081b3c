"""A batch's score scale is read by engine.scales' rule (plain decimal bounds, LOW < HIGH) in
the LOW..HIGH notation batches store, with the annotation's own messages."""

from __future__ import annotations

import pytest

from engine.annotation.api import parse_scale
from engine.errors import UserError
from engine.scales import parse_scale as any_notation


@pytest.mark.parametrize(
    "text, scale",
    [
        ("1..5", (1, 5)),
        ("0..10", (0, 10)),
        (" 0 .. 100 ", (0, 100)),
        ("-1..1", (-1, 1)),
        ("0.5..2.5", (0.5, 2.5)),
    ],
)
def test_scales_read_as_engine_scales_reads_them(text, scale):
    assert parse_scale(text) == scale == any_notation(text)


@pytest.mark.parametrize(
    "text, why",
    [
        ("0-10", "write it as LOW..HIGH, e.g. 0..10"),  # the general notation, not a batch's
        ("", "write it as LOW..HIGH"),
        ("1..5..7", "write it as LOW..HIGH"),
        ("8_0..100", "write it as LOW..HIGH"),  # float() would read 80
        ("-inf..inf", "write it as LOW..HIGH"),
        ("1e1..20", "write it as LOW..HIGH"),
        ("5..1", "LOW must be below HIGH"),
        ("5..5", "LOW must be below HIGH"),
    ],
)
def test_bad_scales_keep_the_annotation_messages(text, why):
    with pytest.raises(UserError) as err:
        parse_scale(text)
    assert str(err.value).startswith(f"score scale {text!r}: ") and why in str(err.value)
