"""One rule for every name a user gives (engine/text/text_rules.py): each engine writer of a
name refuses control and bidirectional characters, whichever front end calls it."""

from __future__ import annotations

import re

import pytest

from engine.annotation.annotators import add_annotator
from engine.errors import UserError
from engine.importing.dialects import add_dialect
from engine.llm.models.registry import register_endpoint
from engine.text.text_rules import checked_name
from engine.workspace.human_annotations import JudgmentDetails, record_judgment_score

RLO = "\u202e"


def test_checked_name_folds_white_space_and_names_what_it_refuses():
    assert checked_name("  Rahim   Das ", "reviewer name") == "Rahim Das"
    for bad, reason in [
        (f"Rahim{RLO}", "bidirectional control U+202E"),
        ("a\u2067b", "bidirectional control U+2067"),
        ("a\x1bb", "control character U+001B"),
        ("\u200b", "empty or only invisible"),
    ]:
        with pytest.raises(UserError, match=re.escape(reason)) as refusal:
            checked_name(bad, "reviewer name")
        assert str(refusal.value).startswith("the reviewer name ")


@pytest.mark.parametrize(
    "write",
    [
        lambda ws: register_endpoint(ws, f"lab{RLO}", ["http://127.0.0.1:9/v1"], "m"),
        lambda ws: add_annotator(ws, f"Rahim{RLO}", ["sylhet"]),
        lambda ws: add_dialect(ws, "comilla", name_en=f"Co{RLO}milla", name_bn="কুমিল্লা"),
        lambda ws: add_dialect(ws, "sylhet", name_en="", name_bn="", aliases=[f"syl{RLO}"]),
        lambda ws: add_dialect(ws, "sylhet", name_en="", name_bn="", region=f"x{RLO}"),
        lambda ws: record_judgment_score(
            ws.conn,
            1,
            annotator=f"Rahim{RLO}",
            score=5,
            scale=(0, 10),
            details=JudgmentDetails(source="override"),
            reason="r",
        ),
    ],
    ids=["model", "annotator", "dialect name", "dialect alias", "dialect region", "human score"],
)
def test_every_writer_of_a_name_refuses_a_bidi_control(workspace, write):
    before = workspace.conn.execute("SELECT count(*) FROM models").fetchone()
    aliases = workspace.scalar("SELECT aliases FROM dialects WHERE code = 'sylhet'")
    with pytest.raises(UserError, match="bidirectional control U\\+202E"):
        write(workspace)
    assert workspace.conn.execute("SELECT count(*) FROM models").fetchone() == before
    assert workspace.scalar("SELECT aliases FROM dialects WHERE code = 'sylhet'") == aliases
    assert workspace.scalar("SELECT count(*) FROM dialects WHERE code = 'comilla'") == 0
