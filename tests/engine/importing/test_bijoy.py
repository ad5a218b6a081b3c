"""Bijoy/SutonnyMJ conversion on our own pair set, detection, and Romanized Bengali."""

from __future__ import annotations

import unicodedata

import pytest

from engine.errors import ImportRejected
from engine.importing.importers import import_corpus, import_questions
from engine.text.bijoy import UnknownGlyph, banglish_share, bijoy_to_unicode, looks_bijoy, script_of
from engine.text.textnorm import encoding_problem

from .bijoy_pairs import PAIRS


@pytest.mark.parametrize("bijoy, unicode_text", PAIRS)
def test_the_bijoy_set_converts_exactly(bijoy, unicode_text):
    assert bijoy_to_unicode(bijoy) == unicodedata.normalize("NFC", unicode_text)


def test_unknown_glyph_is_refused_not_passed_through():
    with pytest.raises(UnknownGlyph, match=r"U\+00AE"):
        bijoy_to_unicode("Avwg ®")


BANGLISH = [
    "ami banglay kotha boli",
    "ami valo achi, tumi kemon acho?",
    "tomar bari kothay?",
    "amra kal dhaka jabo",
    "apni ki khete chan?",
]
ENGLISH = ["I have never loved you very much", "Savar", "dev", "Hello world, this is English."]


def test_bijoy_sentences_are_detected_without_marker_characters():
    sentences = [b for b, _ in PAIRS if " " in b or len(b) > 6]
    assert sentences and all(looks_bijoy(b) for b in sentences)
    assert looks_bijoy("Avwg evsjvq K_v ewj") and script_of("Avwg evsjvq K_v ewj") == "bijoy"


@pytest.mark.parametrize("text", BANGLISH + ENGLISH)
def test_romanized_and_english_are_never_bijoy(text):
    assert not looks_bijoy(text) and script_of(text) == "roman"
    assert encoding_problem(text) is None


def test_banglish_is_recognised_as_romanized_bengali():
    assert all(banglish_share(t) >= 0.5 for t in BANGLISH)
    assert all(banglish_share(t) < 0.2 for t in ENGLISH)


def test_bijoy_row_is_refused_by_default_and_converted_on_request(workspace, tmp_path):
    path = tmp_path / "b.csv"
    path.write_text(
        "standard,dialect_text,dialect\nআমি বাংলায় কথা বলি,Avwg evsjvq K_v ewj,sylhet\n", "utf-8"
    )
    with pytest.raises(ImportRejected) as info:
        import_corpus(workspace, path)
    assert (info.value.line, info.value.column) == (2, "dialect_text")
    assert "--convert-bijoy" in str(info.value)
    assert workspace.scalar("SELECT count(*) FROM corpora") == 0
    report = import_corpus(workspace, path, convert_bijoy=True)
    assert report.bijoy_converted == 1
    assert workspace.scalar("SELECT dialect_text FROM sentence_pairs") == unicodedata.normalize(
        "NFC", "আমি বাংলায় কথা বলি"
    )


def test_romanized_question_variants_are_stored_as_roman_script(workspace, tmp_path):
    path = tmp_path / "q.jsonl"
    path.write_text(
        '{"id": "1", "dialect": "standard", "question": "তুমি কেমন আছ?"}\n'
        '{"id": "1", "dialect": "sylheti", "question": "tumi kemon acho?"}\n',
        "utf-8",
    )
    import_questions(workspace, path)
    rows = workspace.query("SELECT dialect, script FROM variants ORDER BY dialect")
    assert rows == [
        {"dialect": "standard", "script": "bengali"},
        {"dialect": "sylhet", "script": "roman"},
    ]


def test_an_unconvertible_bijoy_cell_names_line_and_column(workspace, tmp_path):
    path = tmp_path / "b.csv"
    path.write_text("standard,dialect_text,dialect\nআমি,Avwg evsjvq ®,sylhet\n", "utf-8")
    with pytest.raises(ImportRejected, match=r"line 2, column 'dialect_text': cannot convert"):
        import_corpus(workspace, path, convert_bijoy=True)


def test_no_latin_cell_of_the_real_data_is_taken_for_bijoy(shared_data):
    """Vashantor's IPA columns and other Latin cells (44,635 with 6+ letters) are not Bijoy."""
    import csv

    csv.field_size_limit(10**8)
    latin = flagged = 0
    for path in sorted(shared_data.rglob("*.csv")):
        with open(path, encoding="utf-8", errors="replace") as f:
            for row in csv.reader(f):
                for cell in row:
                    if sum(c.isascii() and c.isalpha() for c in cell) >= 6 and not any(
                        "\u0980" <= c <= "\u09ff" for c in cell
                    ):
                        latin += 1
                        flagged += looks_bijoy(cell)
    assert latin > 10_000 and flagged == 0


def test_ipa_is_not_bijoy():
    assert not looks_bijoy("cɪtɐgon ɐɾ vɐ͡ɪ̯ vɔ͡ɪ̯nɔɾ bohut̪ xub vɐlo cʰobɪ ɐhe")


def test_a_banglish_file_is_recognised_as_romanized_not_bijoy(workspace, tmp_path):
    path = tmp_path / "banglish.csv"
    rows = "\n".join(f'আমি বাংলায় কথা বলি,"{t}",sylhet' for t in BANGLISH)
    path.write_text("standard,dialect_text,dialect\n" + rows + "\n", "utf-8")
    report = import_corpus(workspace, path)  # no Bijoy refusal
    assert report.inserted == len(BANGLISH) and report.romanized == len(BANGLISH)
    assert any("Romanized Bengali, kept as written" in w for w in report.warnings)
