"""The annotation commands end to end on a copy of the sample workspace."""

from __future__ import annotations

import json
import shutil
import sqlite3

import numpy as np
import pytest

from app.cli import main
from engine.annotation.packages import ReviewPackage
from engine.workspace.store import Workspace
from tests.engine.annotation.helpers import build_judged_study


@pytest.fixture(scope="module")
def sample_db(tmp_path_factory):
    from engine.samples.workspace import build_sample_workspace

    return build_sample_workspace(tmp_path_factory.mktemp("sample") / "sample.sqlite")


def _run(capsys, ws, *argv):
    code = main(["-w", str(ws), *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_field_round_trip(sample_db, tmp_path, capsys):
    ws = tmp_path / "ws.sqlite"
    shutil.copy(sample_db, ws)
    assert _run(capsys, ws, "annotators", "add", "Karim", "--dialects", "sylhet,chittagong")[0] == 0
    assert _run(capsys, ws, "annotators", "add", "Shuvo", "--dialects", "sylhet")[0] == 0
    code, out, _ = _run(
        capsys,
        ws,
        "assign",
        "--name",
        "r1",
        "--dialects",
        "sylhet",
        "--overlap",
        "1",
        "--seed",
        "3",
        "--json",
    )
    assert code == 0 and json.loads(out)["per_annotator"] == {"Karim": 12, "Shuvo": 12}
    files = {}
    for who, text in (("Karim", "কারিমের রূপ"), ("Shuvo", "শুভর রূপ")):
        files[who] = tmp_path / f"{who}.upkg"
        assert (
            _run(capsys, ws, "package", "export", "--annotator", who, "--out", str(files[who]))[0]
            == 0
        )
        pkg = ReviewPackage(files[who])
        for n, item in enumerate(pkg.queue()):
            if n < 3:
                pkg.record(item["item_id"], "edit", text=text, score=3)
            else:
                pkg.record(item["item_id"], "accept", score=5 if n % 2 else 4)
    code, out, _ = _run(capsys, ws, "package", "import", str(files["Shuvo"]), str(files["Karim"]))
    assert code == 0 and "12 new decisions from Shuvo" in out
    code, out, _ = _run(capsys, ws, "package", "import", str(files["Karim"]))
    assert "0 new decisions" in out and "12 already merged" in out

    code, out, _ = _run(capsys, ws, "agreement", "--json", "--resamples", "50")
    report = json.loads(out)
    assert report["by_dialect"]["sylhet"]["decision"]["items"] == 12
    assert report["by_dialect"]["sylhet"]["edits"]["pairs"] == 3
    assert _run(capsys, ws, "agreement", "--resamples", "50")[1].startswith("all (12 items")

    code, out, _ = _run(capsys, ws, "adjudicate", "--json")
    queue = json.loads(out)
    assert len(queue) >= 3 and all(e["reasons"] for e in queue)
    item = next(e["item_id"] for e in queue if "edits differ" in e["reasons"])
    code, out, _ = _run(
        capsys,
        ws,
        "adjudicate",
        str(item),
        "--adjudicator",
        "Lead",
        "--decision",
        "edit",
        "--text",
        "শুভর রূপ",
    )
    assert code == 0 and "is gold" in out
    code, out, _ = _run(capsys, ws, "adjudicate", "--agreed", "--adjudicator", "Lead")
    assert code == 0
    with Workspace(ws) as w:
        assert w.scalar("SELECT count(*) FROM variants WHERE text = 'শুভর রূপ' AND status = 'gold'")

    # a tampered package: one line on stderr, exit 2, nothing changed
    bad = tmp_path / "bad.upkg"
    shutil.copy(files["Karim"], bad)
    with sqlite3.connect(bad) as conn:
        conn.execute("UPDATE decisions SET score = 1")
    code, out, err = _run(capsys, ws, "package", "import", str(bad))
    assert code == 2 and err.count("\n") == 1 and "fails its checksum" in err


def test_ppi_commands(tmp_path, capsys):
    ws = tmp_path / "ppi.sqlite"
    with Workspace(ws) as w:
        run, truth = build_judged_study(w, np.random.default_rng(3))
    assert _run(capsys, ws, "annotators", "add", "Rina", "--dialects", "standard,sylhet")[0] == 0
    code, out, _ = _run(
        capsys,
        ws,
        "ppi",
        "--draw",
        "--name",
        "p",
        "--judge-run",
        str(run),
        "--share",
        "0.1",
        "--seed",
        "9",
        "--json",
    )
    assert code == 0 and json.loads(out)["drawn"] == 60
    from engine.annotation.decisions import my_queue, record_decision

    with Workspace(ws) as w:
        for item in my_queue(w, "Rina"):
            record_decision(w, item["item_id"], "Rina", "accept", score=truth[item["target_id"]])
    code, out, _ = _run(capsys, ws, "ppi", "--json")
    study = json.loads(out)
    assert code == 0 and study["seed"] == 9 and len(study["cells"]) == 2 and study["gaps"]
    code, out, _ = _run(capsys, ws, "ppi")
    assert "PPI" in out and "gap m sylhet - standard" in out
