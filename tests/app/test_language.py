"""The Bengali catalogue: compiled, complete for the annotation screens, switchable."""

from __future__ import annotations

import ast
from pathlib import Path

import polib
import pytest

from app.language import apply_language, locale_dir
from engine.i18n import _

REPO = Path(__file__).resolve().parents[2]
PO = Path(locale_dir()) / "bn" / "LC_MESSAGES" / "upabhasha.po"
ANNOTATION_SCREENS = [
    "widgets/annotation_panel.py",
    "widgets/adjudication_panel.py",
    "widgets/agreement_panel.py",
    "app/annotation_actions.py",
]


def _messages(relative: str) -> set[str]:
    tree = ast.parse((REPO / relative).read_text(encoding="utf-8"))
    return {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", None) == "_"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    }


@pytest.fixture
def bengali():
    assert apply_language("bn")
    yield
    apply_language("en")


def test_compiled_catalogue_matches_its_source(tmp_path):
    po = polib.pofile(str(PO))
    mo = polib.mofile(str(PO.with_suffix(".mo")))
    assert {e.msgid: e.msgstr for e in po} == {e.msgid: e.msgstr for e in mo if e.msgid}


def test_every_annotation_string_is_translated():
    translated = {e.msgid for e in polib.pofile(str(PO)) if e.msgstr}
    for module in ANNOTATION_SCREENS:
        missing = _messages(module) - translated
        assert not missing, (module, missing)


def test_switching_language(bengali):
    from PySide6.QtCore import QLocale

    assert _("Annotation") == "টীকাকরণ"
    assert QLocale().toString(1234) == "১,২৩৪"  # Bengali digits in Qt widgets
    apply_language("en")
    assert _("Annotation") == "Annotation"
    assert QLocale().toString(12) == "12"
