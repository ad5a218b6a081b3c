"""CLI: the Bijoy 'Done when' check, dialects list/add, --dialect-map, unused columns."""

from __future__ import annotations

import json
import unicodedata

from app.cli import main
from engine.workspace.store import Workspace


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(map(str, argv)))
    out, err = capsys.readouterr()
    return code, out, err


def test_bijoy_row_exit_2_status_unchanged_then_converted(tmp_path, capsys):
    ws = tmp_path / "w.sqlite"
    path = tmp_path / "bijoy.csv"
    path.write_text("standard,dialect_text,dialect\nআমি বাংলায় কথা বলি,Avwg evsjvq K_v ewj,sylhet\n")
    assert run(capsys, "-w", ws, "init", "--no-default-model")[0] == 0
    before = run(capsys, "-w", ws, "status", "--json")[1]
    code, out, err = run(capsys, "-w", ws, "import", "corpus", path)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "line 2, column 'dialect_text': legacy Bijoy" in err and "--convert-bijoy" in err
    assert run(capsys, "-w", ws, "status", "--json")[1] == before
    code, out, _ = run(capsys, "-w", ws, "import", "corpus", path, "--convert-bijoy")
    assert code == 0 and "converted 1 legacy Bijoy" in out
    with Workspace(ws) as w:
        stored = w.scalar("SELECT dialect_text FROM sentence_pairs")
    assert stored == unicodedata.normalize("NFC", "আমি বাংলায় কথা বলি")


def test_dialects_add_list_and_dialect_map(tmp_path, capsys):
    ws = tmp_path / "w.sqlite"
    code, out, _ = run(
        capsys,
        "-w",
        ws,
        "dialects",
        "add",
        "comilla",
        "--name-en",
        "Comilla",
        "--name-bn",
        "কুমিল্লার ভাষা",
        "--alias",
        "cumilla",
    )
    assert code == 0 and "comilla" in out
    code, out, _ = run(capsys, "-w", ws, "dialects", "list", "--json")
    rows = {d["code"]: d for d in json.loads(out)}
    assert (
        rows["comilla"]["aliases"] == ["cumilla"]
        and "chattogram" in rows["chittagong"]["builtin_aliases"]
    )
    path = tmp_path / "p.csv"
    path.write_text("standard,dialect_text,dialect,extra\nআমি,আঁই,ctgn,1\nতুমি,তুঁই,cumilla,2\n")
    code, _, err = run(capsys, "-w", ws, "import", "corpus", path)
    assert code == 2 and "unknown dialect 'ctgn'" in err and "--dialect-map" in err
    code, out, _ = run(
        capsys, "-w", ws, "import", "corpus", path, "--dialect-map", "ctgn=chittagong"
    )
    assert code == 0 and "ctgn -> chittagong" in out and "columns not used: extra" in out
    code, _, err = run(capsys, "-w", ws, "dialects", "add", "x y", "--name-en", "a")
    assert code == 2 and "lower-case" in err


SCORED = (
    "src,mt,ref,system,ann1,ann2\n"
    "আমি ভাত খাই,আঁই ভাত খাই,আঁই ভাত খাই,A,90,80\n"
    "তুমি কোথায় যাও,তুঁই কডে যাও,তুঁই কডে যাইবা,A,60,\n"
    "সে বাড়ি গেছে,হে বাড়িত গেছে,হেতে বাড়িত গেছে,A,40,50\n"
    "আমি ভাত খাই,আমি ভাত খাই,আঁই ভাত খাই,B,30,20\n"
    "তুমি কোথায় যাও,তুমি কোথায় যাও,তুঁই কডে যাইবা,B,10,nan\n"
    "সে বাড়ি গেছে,সে বাড়ি গেছে,হেতে বাড়িত গেছে,B,20,30\n"
)


def test_scored_translations_import_eval_metrics_and_human_score(tmp_path, capsys):
    ws = tmp_path / "w.sqlite"
    path = tmp_path / "scored.csv"
    path.write_text(SCORED)
    base = [
        "-w",
        ws,
        "import",
        "scored-translations",
        path,
        "--source-col",
        "src",
        "--hyp-col",
        "mt",
        "--ref-cols",
        "ref",
        "--score-cols",
        "ann*",
    ]
    code, _, err = run(capsys, *base)  # the scale is required
    assert code == 2 and "--human-scale" in err
    code, _, err = run(capsys, *base, "--human-scale", "0-10")
    assert (
        code == 2
        and "line 2, column 'ann1': human score 90 is outside the declared scale 0-10" in err
    )
    code, _, err = run(capsys, *base, "--human-scale", "0-100")
    assert code == 2 and "several annotators" in err and "--average-annotators" in err
    code, out, _ = run(capsys, *base, "--human-scale", "0-100", "--average-annotators")
    assert code == 0 and "human scores written: 10" in out and "left out: 2" in out
    assert "observed 10-90" in out and "averaged segments 4" in out
    code, out, _ = run(capsys, "-w", ws, "eval-metrics", "scored", "--bootstrap", "100")
    assert code == 0 and "signature" in out and "unavailable: n = 2 < 3" in out
    assert "pearson" in out
    code, out, _ = run(capsys, "-w", ws, "eval-metrics", "scored", "--json", "--bootstrap", "0")
    report = json.loads(out)
    assert report["human_scale"] == [0, 100] and set(report["systems"]) == {"A", "B"}
    assert report["systems"]["A"]["human_mean"] > report["systems"]["B"]["human_mean"]
    code, out, _ = run(capsys, "-w", ws, "eval-metrics")
    assert code == 0 and "scored: 6 segments, 2 systems, 10 human scores on 0-100" in out
    code, out, _ = run(
        capsys, "-w", ws, "human-score", "--segment", "2", "--annotator", "me", "--score", "55"
    )
    assert code == 0 and "me 55 (0-100)" in out
    code, _, err = run(
        capsys, "-w", ws, "human-score", "--segment", "2", "--annotator", "me", "--score", "155"
    )
    assert code == 2 and "outside the declared scale 0-100" in err
    code, _, err = run(
        capsys, "-w", ws, "human-score", "--response", "9", "--annotator", "me", "--score", "5"
    )
    assert code == 2 and "no translate-eval response with id 9" in err
