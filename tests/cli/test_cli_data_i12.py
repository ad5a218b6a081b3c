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
