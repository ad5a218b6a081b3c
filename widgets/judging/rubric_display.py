"""The bundled rubric as a person reads it: its criteria, statements and anchors in the
interface's language, while the judge reads the rubric file itself, word for word.

A translation (``resources/rubrics/default.<lang>.json``) names the sha256 of the rubric it
translates: it is shown only for that exact rubric, so an edited or a person's own rubric is
shown as written. What is sent to the judge, and so the rubric's hash and the run keys, never
depends on the interface's language.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files

from engine.i18n import _, current_language, digits


@cache
def _translation(language: str) -> dict:
    path = files("resources") / "rubrics" / f"default.{language}.json"
    if not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def rubric_texts(content_hash: str) -> dict[str, str]:
    """English text of the rubric -> the text a screen shows; {} where none applies."""
    data = _translation(current_language())
    return data.get("texts", {}) if data.get("rubric_sha256") == content_hash else {}


def shown(texts: dict[str, str], text: str) -> str:
    return texts.get(text, text)


def weight_text(weight: float) -> str:
    return digits(f"{weight:g}")


def judge_language_note(texts: dict[str, str]) -> str:
    """Where the screen shows a translation: in which language the judge reads the rubric."""
    if not texts:
        return ""
    return _(
        "The judge reads this rubric in English, word for word as the study fixed it; "
        "its names, statements and anchors are shown here translated."
    )
