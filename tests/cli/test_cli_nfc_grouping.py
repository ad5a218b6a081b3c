"""A raw-imported corpus scored nfc groups by the normalised text: the same real Vashantor
slice imported raw and imported NFC gives the same items, n and figures under ``norm:nfc``,
in the CLI and in the Metrics panel's copy baseline (the same query)."""

from __future__ import annotations

import csv
import json
import unicodedata

import pytest

from app.cli import main

PRECOMPOSED_YA, DECOMPOSED_YA = "\u09df", "\u09af\u09bc"


def _respell(text: str, how: int) -> str:
    """Spellings public files mix: NFD, precomposed য়, a doubled space."""
    if how == 0:
        return unicodedata.normalize("NFD", text)
    if how == 1:
        return unicodedata.normalize("NFC", text).replace(DECOMPOSED_YA, PRECOMPOSED_YA)
    return text.replace(" ", "  ", 1)


@pytest.fixture
def sylhet_slice(shared_data, tmp_path):
    """120 real Sylhet pairs, then 30 of them again respelled (one pair under 'nfc', two
    under 'none'), some with only the dialect side respelled, some only the standard."""
    with open(
        shared_data / "vashantor" / "vashantor_sylhet_ipa_with_bangla_ipa.csv", encoding="utf-8"
    ) as f:
        rows = [(r["bangla_speech"], r["regional"]) for r in csv.DictReader(f)][:120]
    respelled = []
    for i, (std, dia) in enumerate(rows[:30]):
        respelled.append(
            (
                _respell(std, i % 3) if i % 2 == 0 else std,
                _respell(dia, (i + 1) % 3) if i % 5 else dia,
            )
        )
    path = tmp_path / "sylhet.csv"
    with open(path, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["bangla_speech", "regional"])
        writer.writerows(rows + respelled)
    assert len({r for r in respelled if r not in rows}) > 20  # respelled rows are new bytes
    return path


def _import(ws, path, normalize):
    args = ["-w", str(ws), "import", "corpus", str(path), "--standard-col", "bangla_speech"]
    args += ["--text-col", "regional", "--dialect", "sylhet", "--split", "validation"]
    assert main([*args, "--normalize", normalize, "--json"]) == 0


def _baseline(ws, capsys, normalize="nfc"):
    capsys.readouterr()
    assert main(["-w", str(ws), "baseline", "--normalize", normalize, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    return {r["direction"]: r for r in report["rows"]}, report


def test_a_raw_import_scored_nfc_equals_an_nfc_import(sylhet_slice, tmp_path, capsys):
    raw_ws, nfc_ws = tmp_path / "raw.sqlite", tmp_path / "nfc.sqlite"
    _import(raw_ws, sylhet_slice, "none")
    _import(nfc_ws, sylhet_slice, "nfc")
    raw_rows, raw_report = _baseline(raw_ws, capsys)
    nfc_rows, _ = _baseline(nfc_ws, capsys)
    assert raw_report["normalize"] == "nfc" and raw_report["notes"]  # says it normalised
    for direction in ("standard-to-dialect", "dialect-to-standard"):
        raw, nfc = raw_rows[direction], nfc_rows[direction]
        assert nfc["n"] == 120
        assert (raw["n"], raw["references"]) == (nfc["n"], nfc["references"])
        assert raw["chrf++"] == pytest.approx(nfc["chrf++"], abs=1e-9)
        assert raw["bleu"] == pytest.approx(nfc["bleu"], abs=1e-9)
        assert raw["signatures"] == nfc["signatures"]
        assert raw["signatures"]["chrf++"].endswith("|norm:nfc")
    # scored as written, the raw corpus keeps every spelling: more items, norm:none
    as_written, _ = _baseline(raw_ws, capsys, "none")
    assert as_written["dialect-to-standard"]["n"] > 120
    assert as_written["dialect-to-standard"]["signatures"]["chrf++"].endswith("|norm:none")
