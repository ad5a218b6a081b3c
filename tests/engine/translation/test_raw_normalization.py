"""``--normalize none`` is raw: corpora keep every spelling as written, only byte-equal pairs
merge (counted), and the copy baseline equals sacrebleu run on the raw file."""

from __future__ import annotations

import csv
import unicodedata

import pytest
from sacrebleu.metrics import BLEU, CHRF

from engine.importing.importers import import_corpus
from engine.translation.baseline import copy_baselines
from engine.workspace.store import Workspace

DIALECTS = ("barishal", "chittagong", "mymensingh", "noakhali", "sylhet")
PRECOMPOSED_YA = "\u09df"  # য় as one code point; NFC decomposes it into য + ়
DECOMPOSED_YA = "\u09af\u09bc"


def _respell(text: str, how: int) -> str:
    """One of the spellings public files mix: NFD, precomposed য়, doubled and edge spaces."""
    if how == 0:
        return unicodedata.normalize("NFD", text)
    if how == 1:
        return unicodedata.normalize("NFC", text).replace(DECOMPOSED_YA, PRECOMPOSED_YA)
    if how == 2:
        return text.replace(" ", "  ", 1)
    return text + " "


@pytest.fixture
def mixed_file(shared_data, tmp_path):
    """Real Vashantor sentences as a five-reference long file, one dialect per row; later
    rows repeat earlier ones respelled (a distinct item under 'none', the same one under
    'nfc'), and a few rows repeat byte for byte."""
    rows = []
    with open(shared_data / "vashantor" / "vashantor_multiway.csv", encoding="utf-8") as f:
        for i, row in enumerate(csv.DictReader(f)):
            if i == 150:
                break
            refs = [row[d] for d in DIALECTS]
            if i % 4 == 0:
                refs[3:] = ["", ""]
            rows.append([row["bangla_speech"], DIALECTS[i % 5], *refs, row["vashantor_split"]])
    respelled = [
        [_respell(r[0], i % 4), r[1], *(_respell(v, (i + k) % 4) if v else v
                                        for k, v in enumerate(r[2:7])), r[7]]
        for i, r in enumerate(rows[:60])
    ]  # fmt: skip
    # a respelled reference beside the original under the same source: one more reference
    extra_refs = [[r[0], r[1], _respell(r[2], 1), "", "", "", "", r[7]] for r in rows[60:80]]
    exact_copies = [list(r) for r in rows[:7]]
    all_rows = rows + respelled + extra_refs + exact_copies
    path = tmp_path / "mixed.csv"
    with open(path, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["standard", "dialect", *(f"dialect_v{i}" for i in range(1, 6)), "split"])
        writer.writerows(all_rows)
    return path


def _raw_expected(path) -> dict[tuple[str, str], dict]:
    """sacrebleu on the raw CSV, read with the csv module: items are exact strings, a pair
    repeated byte for byte counts once."""
    forward: dict[tuple[str, str], dict[str, list[str]]] = {}
    backward: dict[tuple[str, str], dict[str, list[str]]] = {}
    with open(path, encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            std, code = row["standard"], row["dialect"]
            for text in (row[f"dialect_v{i}"] for i in range(1, 6)):
                if not text:
                    continue
                refs = forward.setdefault((code, "standard-to-dialect"), {}).setdefault(std, [])
                if text not in refs:
                    refs.append(text)
                back = backward.setdefault((code, "dialect-to-standard"), {}).setdefault(text, [])
                if std not in back:
                    back.append(std)
    out = {}
    for key, items in {**forward, **backward}.items():
        hyps, refs = list(items), list(items.values())
        width = max(map(len, refs))
        streams = [[r[i] if i < len(r) else None for r in refs] for i in range(width)]
        out[key] = {
            "n": len(hyps),
            "references": sum(map(len, refs)),
            "bleu": BLEU().corpus_score(hyps, streams).score,
            "chrf++": CHRF(word_order=2).corpus_score(hyps, streams).score,
        }
    return out


def test_none_equals_sacrebleu_on_the_raw_file_for_every_dialect_and_direction(
    workspace, mixed_file
):
    report = import_corpus(workspace, mixed_file, variant_cols="dialect_v*", normalize="none")
    expected = _raw_expected(mixed_file)
    baseline = copy_baselines(workspace, corpus=report.name, normalize="none")
    got = {(r["dialect"], r["direction"]): r for r in baseline["rows"]}
    assert set(got) == set(expected) and len(got) == 10
    for key, want in expected.items():
        assert got[key]["n"] == want["n"], key
        assert got[key]["references"] == want["references"], key
        assert got[key]["bleu"] == pytest.approx(want["bleu"], abs=1e-9), key
        assert got[key]["chrf++"] == pytest.approx(want["chrf++"], abs=1e-9), key
    # only the byte-equal copies merged, and they are counted with their lines
    assert set(report.merges) == {"identical pairs merged"}
    copies = report.merges["identical pairs merged"]
    with open(mixed_file, encoding="utf-8", newline="") as f:
        cells = [
            (r["dialect"], r["standard"], r[f"dialect_v{i}"], line)
            for line, r in enumerate(csv.DictReader(f), start=2)
            for i in range(1, 6)
            if r[f"dialect_v{i}"]
        ]
    seen: set[tuple] = set()
    repeats = [line for *pair, line in cells if tuple(pair) in seen or seen.add(tuple(pair))]
    assert copies["count"] == report.duplicates_in_file == len(repeats) >= 7 * 3
    assert copies["first_lines"] == repeats[:10]
    assert not baseline["notes"]


def test_nfc_merges_the_respellings_and_says_so(workspace, mixed_file):
    report = import_corpus(workspace, mixed_file, variant_cols="dialect_v*")
    respelled = report.merges["pairs merged as equal once normalised"]
    assert respelled["count"] > 0 and respelled["first_lines"][0] > 150
    assert report.merges["identical pairs merged"]["count"] > 0
    assert (
        report.duplicates_in_file
        == respelled["count"] + report.merges["identical pairs merged"]["count"]
    )
    raw = Workspace(workspace.path.parent / "raw.sqlite")
    try:
        raw_report = import_corpus(raw, mixed_file, variant_cols="dialect_v*", normalize="none")
        assert raw_report.inserted > report.inserted
    finally:
        raw.close()


def test_real_multiway_file_under_none_equals_sacrebleu(workspace, shared_data, tmp_path):
    """The real Vashantor multiway file as a wide file (one column per dialect), raw."""
    path = shared_data / "vashantor" / "vashantor_multiway.csv"
    report = import_corpus(
        workspace,
        path,
        fmt="wide",
        standard_col="bangla_speech",
        split_col="vashantor_split",
        normalize="none",
    )
    baseline = copy_baselines(workspace, corpus=report.name, normalize="none")
    got = {(r["dialect"], r["direction"]): r for r in baseline["rows"]}
    long = tmp_path / "long.csv"
    with open(path, encoding="utf-8", newline="") as f, open(long, "w", encoding="utf-8") as g:
        writer = csv.writer(g)
        writer.writerow(["standard", "dialect", *(f"dialect_v{i}" for i in range(1, 6))])
        for row in csv.DictReader(f):
            for code in DIALECTS:
                if row[code]:
                    writer.writerow([row["bangla_speech"], code, row[code], "", "", "", ""])
    expected = _raw_expected(long)
    assert len(got) == len(expected) == 10
    for key, want in expected.items():
        assert (got[key]["n"], got[key]["references"]) == (want["n"], want["references"]), key
        assert abs(got[key]["bleu"] - want["bleu"]) <= 1e-9, key
        assert abs(got[key]["chrf++"] - want["chrf++"]) <= 1e-9, key


def test_a_raw_corpus_imported_before_gets_raw_keys_on_open(workspace, mixed_file):
    report = import_corpus(workspace, mixed_file, variant_cols="dialect_v*", normalize="none")
    before = copy_baselines(workspace, corpus=report.name, normalize="none")["rows"]
    conn = workspace.conn
    # as the earlier importer stored it: normalised keys beside the raw text
    conn.execute("UPDATE sentence_pairs SET standard_key = 's' || id, dialect_key = 'd' || id")
    conn.execute("UPDATE stage_versions SET version = 0 WHERE stage = 'translation'")
    conn.commit()
    path = workspace.path
    workspace.close()
    for _ in range(2):  # the track runs once; opening again changes nothing
        with Workspace(path) as ws:
            stale = ws.scalar(
                "SELECT count(*) FROM sentence_pairs WHERE standard_key != standard_text "
                "OR dialect_key != dialect_text"
            )
            assert stale == 0
            assert copy_baselines(ws, corpus=report.name, normalize="none")["rows"] == before


def _item_file(path, rows) -> None:
    with open(path, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["text", "dialect", "standard", "split"])
        writer.writerows(rows)


def test_item_sets_store_the_choice_and_scorers_use_it(workspace, mixed_file, tmp_path):
    from engine.understanding.items import import_items, item_set_normalization

    with open(mixed_file, encoding="utf-8", newline="") as f:
        rows = [
            [r["dialect_v1"], r["dialect"], r["standard"], "validation"]
            for r in csv.DictReader(f)
            if r["dialect_v1"]
        ]
    path = tmp_path / "items.csv"
    _item_file(path, rows)
    raw = import_items(workspace, path, name="raw", standard_cols=["standard"], normalize="none")
    nfc = import_items(workspace, path, name="nfc", standard_cols=["standard"])
    assert item_set_normalization(workspace, "raw") == "none"
    assert item_set_normalization(workspace, "nfc") == "nfc"
    assert raw.inserted > nfc.inserted
    assert "items merged as equal once normalised" in nfc.merges
    assert set(raw.merges) == {"identical items merged"}
    # the stored choice is scored by default, and equals sacrebleu on the raw file
    report = copy_baselines(workspace, source="items:raw", directions=("dialect-to-standard",))
    assert report["normalize"] == "none" and not report["notes"]
    seen: dict[tuple[str, str], list[str]] = {}
    by_dialect: dict[str, tuple[list[str], list[list[str]]]] = {}
    for text, code, standard, _ in rows:
        if (code, text) in seen:
            continue
        seen[code, text] = [standard]
        hyps, refs = by_dialect.setdefault(code, ([], []))
        hyps.append(text)
        refs.append([standard])
    for r in report["rows"]:
        hyps, refs = by_dialect[r["dialect"]]
        assert r["n"] == len(hyps)
        want = BLEU().corpus_score(hyps, [[x[0] for x in refs]]).score
        assert abs(r["bleu"] - want) <= 1e-9
        assert r["signatures"]["bleu"].endswith("norm:none")
    # 'none' asked of NFC-stored text: scored nfc, said so, and the signature says nfc
    asked = copy_baselines(workspace, source="items:nfc", normalize="none")
    assert asked["normalize"] == "nfc" and "scored nfc, not none" in asked["notes"][0]
    assert all(r["signatures"]["bleu"].endswith("norm:nfc") for r in asked["rows"])
    # 'nfc' asked of raw text: done, and noted
    nfc_of_raw = copy_baselines(workspace, source="items:raw", normalize="nfc")
    assert nfc_of_raw["normalize"] == "nfc" and "scored nfc as asked" in nfc_of_raw["notes"][0]


def test_a_corpus_baseline_defaults_to_the_corpus_choice(workspace, mixed_file):
    report = import_corpus(workspace, mixed_file, variant_cols="dialect_v*", normalize="none")
    default = copy_baselines(workspace, corpus=report.name)
    assert default["normalize"] == "none" and not default["notes"]
    assert default == copy_baselines(workspace, corpus=report.name, normalize="none")
