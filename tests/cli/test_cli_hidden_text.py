"""The one text rule from the command line: hidden text in a workspace file name, an import,
an adjudication or a name exits 2 with one line naming the character, the workspace
unchanged; a batch reply keeps what the model wrote, except a NUL, which refuses the file
naming line and item."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from engine.workspace.store import Workspace
from tests.cli.test_cli_hostile_inputs import _digest, hostile  # noqa: F401
from tests.cli.test_cli_refusing_endpoint import server, study  # noqa: F401

RLO = "\u202e"


def _run(capsys, *argv) -> tuple[int, str, str]:
    capsys.readouterr()
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse refused the command line
        code = exc.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_workspace_file_name_with_a_hidden_character_is_not_created(tmp_path, capsys):
    path = tmp_path / f"{RLO}.sqlite"
    code, _out, err = _run(capsys, "-w", str(path), "init")
    assert code == 2 and err.count("\n") == 1, err
    assert "U+202E RIGHT-TO-LEFT OVERRIDE" in err and "workspace file name" in err
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    "argv,named",
    [
        (["import", "questions", "{questions}", "--name", "hidden"], "U+202E RIGHT-TO-LEFT"),
        (["import", "questions", "{plain}", "--name", "a\u200bb"], "U+200B ZERO WIDTH SPACE"),
        (
            [
                "adjudicate",
                "{item}",
                "--adjudicator",
                "Lead",
                "--decision",
                "edit",
                "--text",
                f"{RLO}ঢাকা শহর",
            ],
            "U+202E RIGHT-TO-LEFT OVERRIDE",
        ),  # fmt: skip
        (
            [
                "adjudicate",
                "{item}",
                "--adjudicator",
                "Lead",
                "--decision",
                "edit",
                "--text",
                "\u3164",
            ],
            "U+3164 HANGUL FILLER",
        ),  # fmt: skip
        (["models", "add", "http://127.0.0.1:9/v1", "--name", "a\u200bb"], "U+200B"),
        (["models", "add", "http://127.0.0.1:9/v1", "--name", "m" * 5000], "over the 200"),
    ],
    ids=["import text", "set name", "adjudicate RLO", "adjudicate filler", "model ZWSP", "long"],
)
def test_hidden_text_exits_2_naming_the_character(hostile, tmp_path, capsys, argv, named):  # noqa: F811
    path, _files, _data = hostile
    questions = tmp_path / "questions.csv"
    questions.write_text(f"question\nঢাকা{RLO} কোথায়?\n", encoding="utf-8")
    plain = tmp_path / "plain.csv"
    plain.write_text("question\nঢাকা কোথায়?\n", encoding="utf-8")
    with Workspace(path) as ws:
        item = ws.scalar("SELECT min(id) FROM annotation_items WHERE kind = 'variant'")
    values = {"questions": questions, "plain": plain, "item": item}
    argv = [a.format(**{k: str(v) for k, v in values.items()}) for a in argv]
    before = _digest(path)
    code, _out, err = _run(capsys, "-w", str(path), *argv)
    assert code == 2, err
    assert err.count("\n") == 1 and named in err, err
    assert _digest(path) == before
    if argv[0] == "import":
        assert "line 2" in err or "name" in err


def _results(export: Path, out: Path, content: str) -> Path:
    """A provider's result file answering every line of ``export`` with ``content``."""
    lines = []
    for raw in export.read_text(encoding="utf-8").splitlines():
        line = json.loads(raw)
        body = {
            "model": line["body"]["model"],
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 2},
        }
        lines.append(
            {"custom_id": line["custom_id"], "response": {"status_code": 200, "body": body}}
        )
    out.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return out


def test_a_batch_reply_keeps_what_the_model_wrote_but_not_a_nul(study, capsys, tmp_path):  # noqa: F811
    w, _prompts = study
    argv = ["generate", "--model", "echo", "--max-tokens", "8"]
    code, out, err = _run(
        capsys, *w, "batch", "export", "--out", str(tmp_path / "x"), "--json", *argv
    )
    assert code == 0, err
    export = tmp_path / "x" / json.loads(out)["files"][0]["name"]
    first_item = json.loads(export.read_text(encoding="utf-8").splitlines()[0])["custom_id"]
    before = _digest(w[1])
    nul = _results(export, tmp_path / "nul.jsonl", "ঢাকা\x00শহর")
    code, _out, err = _run(capsys, *w, "batch", "import", str(nul))
    assert code == 2 and err.count("\n") == 1, err
    assert "U+0000 NULL" in err and "line 1" in err and first_item.split("@")[0] in err
    assert _digest(w[1]) == before
    hidden = f"{RLO}ঢাকা শহর\U000e0067\U000e0069\U000e0076\U000e0065"
    code, _out, err = _run(
        capsys, *w, "batch", "import", str(_results(export, tmp_path / "rlo.jsonl", hidden))
    )
    assert code == 0, err
    with Workspace(w[1]) as ws:
        texts = {r[0] for r in ws.conn.execute("SELECT text FROM responses")}
    assert texts == {hidden}  # as the model wrote it; shown with visible(), judged neutralised
