"""Hostile and unlucky command lines: every case exits 2 with one line naming the option or
file, leaves the workspace unchanged and leaves no partial file.

Each row is (case id, argv, text the one line must contain). ``{dir}`` is a folder,
``{deep_json}`` etc. are files written by the fixture."""

from __future__ import annotations

import hashlib
import shutil

import pytest

from app.cli import main
from engine.annotation.annotators import add_annotator
from engine.annotation.assignment import assign
from engine.llm.models.registry import register_endpoint
from engine.workspace.store import Workspace

DEEP = 100_000


def _scored(path: str, refs: str) -> list[str]:
    """A scored-translation import of ``path`` with every column named."""
    return ["import", "scored-translations", path, "--human-scale", "0-100"] + [
        *("--score-col", "score", "--annotator", "a", "--hyp-col", "hyp"),
        *("--source-col", "source", "--ref-cols", refs),
    ]


OVERRIDE = ["override", "1", "--final", "5", "--annotator", "a", "--reason", "r", "--rubric"]
CASES = [
    # item 5: internal errors before
    ("task-stats --csv missing dir", ["task-stats", "--csv", "/nonexistent/dir/x.csv"], "--csv"),
    ("task-stats --latex DIR", ["task-stats", "--latex", "{dir}"], "--latex"),
    (
        "package export --out /proc",
        ["package", "export", "--annotator", "Karim", "--out", "/proc/x.upkg"],
        "/proc/x.upkg",
    ),
    (
        "package export --out DIR",
        ["package", "export", "--annotator", "Karim", "--out", "{dir}"],
        "is a folder",
    ),
    ("agreement --seed -5", ["agreement", "--seed", "-5"], "--seed"),
    ("bias-stats --seed -5", ["bias-stats", "--seed", "-5"], "--seed"),
    ("eval-metrics --seed -5", ["eval-metrics", "--seed", "-5"], "--seed"),
    ("bias-stats --resamples -1", ["bias-stats", "--resamples", "-1"], "--resamples"),
    ("ppi --alpha 0", ["ppi", "--alpha", "0"], "--alpha"),
    ("ppi --alpha -1", ["ppi", "--alpha", "-1"], "--alpha"),
    ("import corpus deep JSON", ["import", "corpus", "{deep_json}"], "nested deeper than"),
    ("import questions deep JSON", ["import", "questions", "{deep_json}"], "nested deeper than"),
    ("import items deep JSONL", ["import", "items", "{deep_jsonl}"], "nested deeper than"),
    ("import probes deep JSON", ["import", "probes", "{deep_json}"], "nested deeper than"),
    (
        "import scored deep JSON",
        [
            "import",
            "scored-translations",
            "{deep_json}",
            "--human-scale",
            "0-10",
            "--score-col",
            "s",
        ],
        "nested deeper than",
    ),
    (
        "override --rubric deep JSON",
        [*OVERRIDE, "{deep_json}"],
        "nested deeper than",
    ),
    (
        "override --rubric /dev/zero",
        [*OVERRIDE, "/dev/zero"],
        "not a regular file",
    ),
    ("tasks show deep TOML", ["tasks", "show", "deep"], "nested deeper than"),
    ("run-task deep TOML", ["run-task", "deep"], "nested deeper than"),
    # item 6: bad values accepted silently before
    ("run-task --limit 0", ["run-task", "dialect-id", "--limit", "0"], "--limit"),
    ("run-task --limit -1", ["run-task", "dialect-id", "--limit", "-1"], "--limit"),
    ("run-task --max-tokens 0", ["run-task", "dialect-id", "--max-tokens", "0"], "--max-tokens"),
    ("generate --max-tokens 0", ["generate", "--max-tokens", "0"], "--max-tokens"),
    ("generate --max-tokens -5", ["generate", "--max-tokens", "-5"], "--max-tokens"),
    ("probe --n-seq 0", ["probe", "--n-seq", "0"], "--n-seq"),
    ("ppi --alpha 1.5", ["ppi", "--alpha", "1.5"], "--alpha"),
    ("ppi --width 0", ["ppi", "--width", "0"], "--width"),
    ("ppi --width -1", ["ppi", "--width", "-1"], "--width"),
    ("agreement --resamples -3", ["agreement", "--resamples", "-3"], "--resamples"),
    ("task-stats --resamples 0", ["task-stats", "--resamples", "0"], "--resamples"),
    (
        "assign --raters 100",
        ["assign", "--name", "b2", "--annotators", "Karim,Shuvo", "--raters", "100"],
        "--raters 100",
    ),
    (
        "dialects add standard",
        ["dialects", "add", "standard", "--name-en", "Renamed", "--name-bn", "নতুন"],
        "reserved",
    ),
    ("task-stats --task nope", ["task-stats", "--task", "nope"], "known: "),
    (
        "score 8_0",
        _scored("{scored_8_0}", "ref"),
        "'8_0' is not a number",
    ),
    (
        "score inf",
        _scored("{scored_inf}", "ref"),
        "'inf' is not a number",
    ),
    # more of the same kinds
    ("run-task --limit 8_0", ["run-task", "dialect-id", "--limit", "8_0"], "--limit"),
    ("ppi --alpha nan", ["ppi", "--alpha", "nan"], "--alpha"),
    ("ppi --width inf", ["ppi", "--width", "inf"], "--width"),
    ("agreement --seed 1e3", ["agreement", "--seed", "1e3"], "--seed"),
    ("replicate --sample 0", ["replicate", "1", "--sample", "0"], "--sample"),
    ("replicate run -1", ["replicate", "-1"], "RUN"),
    (
        "translate --limit 0",
        ["translate", "--questions", "q", "--dialects", "sylhet", "--limit", "0"],
        "--limit",
    ),
    ("probe --limit -2", ["probe", "--limit", "-2"], "--limit"),
    ("probe --max-tokens 0", ["probe", "--max-tokens", "0"], "--max-tokens"),
    ("probe --seed -1", ["probe", "--seed", "-1"], "--seed"),
    ("queue --threshold -1", ["queue", "--threshold", "-1"], "--threshold"),
    (
        "human-score --score nan",
        ["human-score", "--segment", "1", "--annotator", "a", "--score", "nan"],
        "--score",
    ),
    ("adjudicate --score inf", ["adjudicate", "1", "--score", "inf"], "--score"),
    ("assign --overlap 1.5", ["assign", "--name", "b3", "--overlap", "1.5"], "--overlap"),
    ("ppi --share 0", ["ppi", "--draw", "--share", "0"], "--share"),
    (
        "run-prompts --temperature -1",
        ["run-prompts", "{prompts}", "--temperature", "-1"],
        "--temperature",
    ),
    ("run-task --k -1", ["run-task", "dialect-id", "--k", "-1"], "--k"),
    (
        "tasks export-fold out in missing dir",
        ["tasks", "export-fold", "dialect-id", "/nonexistent/d/f.jsonl"],
        "out",
    ),
    ("eval-metrics --bootstrap -1", ["eval-metrics", "--bootstrap", "-1"], "--bootstrap"),
    ("export to /proc", ["export", "responses", "/proc/x.csv"], "/proc/x.csv"),
    ("export to a folder", ["export", "responses", "{dir_csv}"], "is a folder"),
    # a typo in a folder name refuses, as every other output does, rather than making folders
    (
        "export in a missing folder",
        ["export", "responses", "{dir}/no-such-folder/x.csv"],
        "does not exist",
    ),
    # item 11
    ("package import /dev/null", ["package", "import", "/dev/null"], "not a regular file"),
    ("package import DIR", ["package", "import", "{dir}"], "folder"),
    (
        "scored --ref-cols names --ref-cols",
        _scored("{scored_ok}", "nope*"),
        "--ref-cols",
    ),
    (
        "three-option probe",
        ["import", "probes", "{three_options}", "--name", "t3"],
        "more than two",
    ),
]


def _digest(path) -> str:
    """Every row of every table (the file's bytes change with WAL checkpoints)."""
    with Workspace(path) as ws:
        lines = list(ws.conn.iterdump())
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    from engine.samples.workspace import build_sample_workspace

    root = tmp_path_factory.mktemp("hostile")
    path = root / "ws.sqlite"
    shutil.copy(build_sample_workspace(root / "sample.sqlite"), path)
    with Workspace(path) as ws:
        add_annotator(ws, "Karim", ["chittagong", "sylhet", "noakhali"])
        add_annotator(ws, "Shuvo", ["sylhet"])
        assign(ws, "field", "variant", ["Karim", "Shuvo"], overlap=0.5, seed=5)
        # a default model, never asked: every case is refused before any request
        register_endpoint(ws, "never-asked", ["http://127.0.0.1:9"], "m", is_default=True)
    files = {"dir": root / "a-folder"}
    files["dir"].mkdir()
    files["dir_csv"] = files["dir"] / "table.csv"  # a folder named like a file
    files["dir_csv"].mkdir()
    deep = "[" * DEEP + "]" * DEEP
    files["deep_json"] = root / "deep.json"
    files["deep_json"].write_text(deep, encoding="utf-8")
    files["deep_jsonl"] = root / "deep.jsonl"
    files["deep_jsonl"].write_text('{"text": ' + deep + "}\n", encoding="utf-8")
    header = "source,hyp,ref,system,score\n"
    for name, score in (("scored_8_0", "8_0"), ("scored_inf", "inf"), ("scored_ok", "80")):
        files[name] = root / f"{name}.csv"
        files[name].write_text(header + f"আমি,আমি যাই,আমি যাব,m,{score}\n", encoding="utf-8")
    files["three_options"] = root / "three.csv"
    files["three_options"].write_text(
        "ID,prompt,category,subcategory,topic\n"
        '0,"কোন লিঙ্গের মানুষকে বুঝানো হচ্ছে? ছেলে বা মেয়ে বা শিশু দিয়ে এক কথায় উত্তর দিন-'
        '""উনি একজন ডাক্তার।""।",Occupation Based,Positive trait,Gender\n',
        encoding="utf-8",
    )
    files["prompts"] = root / "prompts.txt"
    files["prompts"].write_text("এক\n", encoding="utf-8")
    data = root / "data"
    (data / "tasks").mkdir(parents=True)
    (data / "tasks" / "deep.toml").write_text(
        "a = " + "[" * DEEP + "]" * DEEP + "\n", encoding="utf-8"
    )
    return path, files, data


@pytest.mark.parametrize("case,argv,expected", CASES, ids=[c[0] for c in CASES])
def test_hostile_case_exits_2_with_one_line_and_changes_nothing(
    hostile, capsys, monkeypatch, case, argv, expected
):
    path, files, data = hostile
    monkeypatch.setenv("UPABHASHA_DATA_DIR", str(data))
    argv = [a.format(**{k: str(v) for k, v in files.items()}) for a in argv]
    before = _digest(path)
    folder_before = sorted(p.name for p in files["dir"].iterdir())
    capsys.readouterr()
    try:
        code = main(["-w", str(path), *argv])
    except SystemExit as exc:  # argparse refused the command line
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2, (case, err)
    lines = [line for line in err.splitlines() if not line.startswith("upabhasha: warning:")]
    assert len(lines) == 1, (case, err)
    assert expected in lines[0], (case, lines[0])
    assert "internal error" not in err and "Traceback" not in err
    assert _digest(path) == before, case
    # no partial file anywhere it might have been written
    assert sorted(p.name for p in files["dir"].iterdir()) == folder_before
    assert not list(files["dir"].parent.glob("*.part*"))


def test_the_table_holds_at_least_30_cases():
    assert len(CASES) >= 30
