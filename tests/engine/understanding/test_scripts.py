"""Romanization schemes and round-trip CER on known transliterations."""

from __future__ import annotations

import pytest

from engine.errors import UserError
from engine.understanding.scripts import cer, romanize, round_trip, to_bengali


@pytest.mark.parametrize(
    ("scheme", "bengali", "roman"),
    [
        ("avro", "আমি বাংলায় গান গাই", "ami banglay gan gai"),
        ("avro", "অনেক মানুষ", "onek manush"),  # avro-py leaves অ; we map it to o
        ("itrans", "আমি বাংলায় গান গাই", "Ami vAMlAYa gAna gAi"),
        ("iso15919", "আমি", "āmi"),
    ],
)
def test_known_romanizations(scheme, bengali, roman):
    assert romanize([bengali], scheme) == [roman]


def test_round_trip_cer_on_known_transliterations():
    # Lossless: ITRANS distinguishes every letter, so the round trip is exact.
    exact = round_trip(["আমি বাংলায় গান গাই", "বড় ঢাকা", "অনেক মানুষ"], "itrans")
    assert exact["cer"] == [0.0, 0.0, 0.0] and exact["exact_share"] == 1.0
    # Avro collapses ড়/র and ষ/শ: "বড়" -> "bor" -> "বর" (1 of 3 characters... NFC: ব ড ় -> ব র)
    lossy = round_trip(["বড়", "মানুষ", "আমি"], "avro")
    assert lossy["back"] == ["বর", "মানুশ", "আমি"]
    # বড় is ব + ড + nukta under NFC (3 code points); বর is 2: one substitution, one deletion
    assert lossy["cer"] == pytest.approx([2 / 3, 1 / 5, 0.0])
    assert lossy["mean_cer"] == pytest.approx((2 / 3 + 1 / 5) / 3)


def test_cer_and_scheme_errors():
    assert cer(["abc"], ["abd"]) == [pytest.approx(1 / 3)]
    assert cer([""], [""]) == [0.0] and cer(["x"], [""]) == [1.0]
    assert to_bengali(["ami"], "avro") == ["আমি"]
    with pytest.raises(UserError, match="unknown Romanization scheme 'klingon'"):
        romanize(["আমি"], "klingon")
