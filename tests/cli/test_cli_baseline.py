"""`upabhasha baseline`: the copy baseline per dialect and direction on a corpus imported as
validation only (no index), multi-reference, equal to sacrebleu on the file; CSV and JSON;
a Romanized item set says 'not applicable' instead of 0.00."""

from __future__ import annotations

import csv
import json
import unicodedata

import pytest
from sacrebleu.metrics import BLEU, CHRF

from app.cli import main

DECOMPOSED_YA, PRECOMPOSED_YA = "\u09af\u09bc", "\u09df"
# wide corpus with unusual column names, validation only, five renderings of Barishal
STD = ["আমি বাড়ি যাব", "তুমি কোথায় যাও", "সে ভাত খায় না", "আমরা সময় পাই না"]
BARISHAL = [
    ["মুই বাড়ি যামু", "মুই বারি যামু", "মুই বাড়ি যাইমু"],
    ["তুই কোমনে যাও", "তুমি কোমনে যাও"],
    ["হে ভাত খায় না", "হ্যায় ভাত খায় না"],
    ["মোরা সময় পাই না", "মোরা সোমায় পাই না"],
]


def write_corpus(path):
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["prmito", "lang", "utterance", "part"])
        for std, refs in zip(STD, BARISHAL):
            for ref in refs:
                # the standard side spells য় decomposed, the dialect side precomposed
                w.writerow(
                    [
                        unicodedata.normalize("NFC", std),  # NFC: য় as য + U+09BC
                        "barishal",
                        unicodedata.normalize("NFC", ref).replace(DECOMPOSED_YA, PRECOMPOSED_YA),
                        "dev",
                    ]
                )
    text = path.read_text("utf-8")
    assert DECOMPOSED_YA in text and PRECOMPOSED_YA in text


def _import(ws_path, csv_path, normalize):
    args = ["-w", str(ws_path), "import", "corpus", str(csv_path), "--standard-col", "prmito"]
    args += ["--dialect-col", "lang", "--text-col", "utterance", "--split-col", "part"]
    assert main([*args, "--normalize", normalize, "--json"]) == 0


def test_baseline_on_a_validation_only_corpus_equals_sacrebleu(tmp_path, capsys):
    corpus, ws = tmp_path / "five.csv", tmp_path / "ws.sqlite"
    write_corpus(corpus)
    _import(ws, corpus, "none")
    capsys.readouterr()
    out_csv = tmp_path / "baseline.csv"
    args = ["-w", str(ws), "baseline", "--split", "validation", "--normalize", "none"]
    assert main([*args, "--json", "--csv", str(out_csv)]) == 0
    report = json.loads(capsys.readouterr().out)
    rows = {(r["dialect"], r["direction"]): r for r in report["rows"]}
    forward = rows[("barishal", "standard-to-dialect")]
    with open(corpus, encoding="utf-8", newline="") as f:
        raw = list(csv.DictReader(f))
    sources = list(dict.fromkeys(r["prmito"] for r in raw))
    refs = [[r["utterance"] for r in raw if r["prmito"] == s] for s in sources]
    streams = [[rs[j] if j < len(rs) else None for rs in refs] for j in range(3)]
    assert forward["n"] == 4 and forward["references"] == 9
    expected = CHRF(word_order=2).corpus_score(sources, streams).score
    assert forward["chrf++"] == pytest.approx(expected, abs=1e-9)
    assert forward["bleu"] == pytest.approx(BLEU().corpus_score(sources, streams).score, abs=1e-9)
    assert forward["signatures"]["chrf++"].endswith("|norm:none")
    backward = rows[("barishal", "dialect-to-standard")]
    assert backward["n"] == 9  # every dialect rendering against its standard sentence
    with open(out_csv, encoding="utf-8-sig") as f:
        table = list(csv.DictReader(f))
    assert {r["direction"] for r in table} == {"standard-to-dialect", "dialect-to-standard"}
    # text output names the normalisation and the signatures
    assert main(["-w", str(ws), "baseline", "--normalize", "none"]) == 0
    text = capsys.readouterr().out
    assert "--normalize none" in text and "norm:none" in text and "barishal" in text


def test_nfc_folds_the_encodings_and_none_on_an_nfc_corpus_says_so(tmp_path, capsys):
    corpus, ws_raw, ws_nfc = tmp_path / "five.csv", tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    write_corpus(corpus)
    _import(ws_raw, corpus, "none")
    _import(ws_nfc, corpus, "nfc")
    capsys.readouterr()

    def chrf(ws, normalize):
        assert main(["-w", str(ws), "baseline", "--normalize", normalize, "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
        return report, report["rows"][0]["chrf++"]

    _, raw = chrf(ws_raw, "none")
    _, nfc = chrf(ws_raw, "nfc")
    assert nfc > raw  # only NFC sees decomposed and precomposed য় as one letter
    report, stored = chrf(ws_nfc, "none")
    assert stored == pytest.approx(nfc, abs=1e-9)
    # the NFC-stored text is scored, and named, as nfc: the note says why
    assert report["normalize"] == "nfc" and "store NFC-normalised text" in report["notes"][0]
    assert report["rows"][0]["signatures"]["chrf++"].endswith("norm:nfc")


def test_romanized_item_set_is_not_applicable_and_errors_name_the_splits(tmp_path, capsys):
    items, ws = tmp_path / "items.csv", tmp_path / "ws.sqlite"
    items.write_text(
        "txt,region,latin,std\n"
        "মুই বাড়ি যামু,barishal,mui bari jamu,আমি বাড়ি যাব\n"
        "তুই কোমনে যাও,barishal,tui komne jao,তুমি কোথায় যাও\n",
        "utf-8",
    )
    args = ["-w", str(ws), "import", "items", str(items), "--text-col", "txt"]
    args += ["--dialect-col", "region", "--roman-col", "latin", "--standard-col", "std"]
    assert main([*args, "--split", "validation", "--json"]) == 0
    capsys.readouterr()
    assert main(["-w", str(ws), "baseline", "--items", "items:items", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    roman = [r for r in rows if r["script"] == "roman"]
    assert len(roman) == 1 and "not applicable" in roman[0]["not_applicable"]
    assert "chrf++" not in roman[0]
    assert main(["-w", str(ws), "baseline", "--items", "items:items"]) == 0
    assert "not applicable: Romanized input" in capsys.readouterr().out
    assert main(["-w", str(ws), "baseline", "--items", "items:items", "--split", "test"]) == 2
    err = capsys.readouterr().err
    assert "no items in split 'test'" in err and "splits with items: validation" in err


def test_the_cli_lists_the_engines_directions():
    from app.cli.baseline import DIRECTIONS
    from engine.translation.baseline import DIRECTIONS as ENGINE_DIRECTIONS

    assert DIRECTIONS == ENGINE_DIRECTIONS
