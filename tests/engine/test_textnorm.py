import unicodedata

import pytest

from engine.text.textnorm import bengali_share, canonical_key, encoding_problem, normalize_text

YA_PRECOMPOSED = "\u09df"  # য় as one code point
YA_DECOMPOSED = "\u09af\u09bc"  # য + nukta


def test_nukta_letters_have_one_canonical_form():
    a = f"নো{YA_PRECOMPOSED}াখালী"
    b = f"নো{YA_DECOMPOSED}াখালী"
    assert a != b
    assert normalize_text(a) == normalize_text(b) == unicodedata.normalize("NFC", b)
    assert canonical_key(a) == canonical_key(b)


def test_o_kar_composes_and_zwj_zwnj_are_kept():
    assert normalize_text("ক\u09c7\u09be") == "ক\u09cb"  # ে + া -> ো
    text = "র\u200dয\u200c"
    assert normalize_text(text) == text


def test_whitespace_bom_and_zero_width_space():
    assert normalize_text("\ufeff  আমি\u200b   ভাত\u00a0খাই \n") == "আমি ভাত খাই"


def test_digits_stored_as_written_but_compared_equal():
    assert normalize_text("১০টি") == "১০টি"
    assert canonical_key("১০টি") == canonical_key("10টি")


@pytest.mark.parametrize(
    "text",
    [
        "Avgvi †mvbvi evsjv, Avwg †Zvgvq fvjevwm",  # আমার সোনার বাংলা, আমি তোমায় ভালবাসি
        "wPiw`b †Zvgvi AvKvk",  # চিরদিন তোমার আকাশ
        "Avwg evsjvq Mvb MvB Avgvi Avbv›`i Mvb",
    ],
)
def test_bijoy_text_is_refused(text):
    assert "Bijoy" in encoding_problem(text)


@pytest.mark.parametrize(
    "text",
    [
        "dev",
        "Savar",
        "love",
        "validation_or_unknown",
        "I love Savar",
        "What is a virus?",
        "The river Padma flows through Bangladesh and India.",
        "আমি ভাত খাই",
        "GPU 24 GB",
    ],
)
def test_ordinary_text_is_not_mistaken_for_bijoy(text):
    assert encoding_problem(text) is None


def test_mojibake_is_refused():
    mojibake = "আমি".encode().decode("cp1252", errors="replace")
    assert "mojibake" in encoding_problem(mojibake)


def test_bengali_share_counts_letters_only():
    assert bengali_share("আমি 123 !!") == 1.0
    assert bengali_share("CPU মানে কী") == pytest.approx(5 / 8, abs=0.2)
    assert bengali_share("12345") == 0.0
