"""Every stored code a person sees, named in the interface language.

The workspace stores codes ("zero", "native", "gold", "barishal", "endpoint"); panels and
dialogs show them through :func:`label` (or the helpers below), never as they are stored.
A code with no name here is shown as stored: user data (a group typed in a probe file, a
label name) keeps its own spelling. The Bengali terms follow resources/locale/glossary.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.i18n import _, current_language


def _tables() -> dict[str, dict[str, str]]:
    """Kind of code -> code -> name, translated now (the language may have changed). The
    English name is the stored code itself wherever the code reads as a word, so the English
    interface and the command line say the same thing."""
    return {
        "task": {
            "dialect-to-standard": _("dialect-to-standard"),
            "dialect-to-english": _("dialect-to-english"),
            "dialect-id": _("dialect-id"),
            "classification": _("classification"),
            "subjectivity": _("subjectivity"),
        },
        "task_kind": {"generation": _("generation"), "classification": _("classification")},
        "domain": {
            "Technology": _("Technology"),
            "Social Sciences": _("Social Sciences"),
            "Health & Sports": _("Health & Sports"),
            "Physical & Natural Sciences": _("Physical & Natural Sciences"),
            "Arts & Humanities": _("Arts & Humanities"),
            "Business & Economics": _("Business & Economics"),
        },
        "judge_role": {"primary": _("primary"), "secondary": _("secondary")},
        "regime": {"zero": _("zero"), "few": _("few"), "cot": _("cot")},
        "script": {"native": _("native"), "roman": _("roman")},
        "scheme": {"avro": _("avro"), "itrans": _("itrans"), "iso15919": _("iso15919")},
        "split": {
            "train": _("train"),
            "validation": _("validation"),
            "dev": _("dev"),
            "test": _("test"),
        },
        "normalisation": {"nfc": _("nfc"), "none": _("none")},
        "status": {
            "draft": _("draft"),
            "reviewed": _("reviewed"),
            "gold": _("gold"),
            "flagged": _("flagged"),
            "rejected": _("rejected"),
        },
        "provenance": {"machine": _("machine"), "human": _("human"), "source": _("source")},
        "model_kind": {"gguf": _("gguf"), "endpoint": _("endpoint")},
        "group": {
            "male": _("male"),
            "female": _("female"),
            "man": _("man"),
            "woman": _("woman"),
            "rural": _("rural"),
            "urban": _("urban"),
        },
        "reply": {
            "first": _("first"),
            "second": _("second"),
            "x": _("x"),
            "y": _("y"),
            "both_neither": _("both_neither"),
            "refusal": _("refusal"),
            "filler": _("filler"),
            "unparseable": _("unparseable"),
        },
        "order": {"xy": _("xy"), "yx": _("yx")},
        "probe_mode": {
            "free": _("free"),
            "constrained": _("constrained"),
            "counterbalanced": _("counterbalanced"),
            "no instruction": _("no instruction"),
            "template": _("template"),
            "natural": _("natural"),
        },
    }


def label(kind: str, code: str | None) -> str:
    """``code`` of ``kind`` named for a person; unknown codes as stored, None as ""."""
    if code is None:
        return ""
    return _tables().get(kind, {}).get(str(code), str(code))


def labeller(kind: str) -> Callable[[str | None], str]:
    """``label`` bound to one kind, for ``map`` and for item delegates."""
    return lambda code: label(kind, code)


def dialect_label(names: dict[str, dict], code: str, *, with_code: bool = True) -> str:
    """A dialect for a list or a form. English: "Barishal (barishal)" (the code is what the
    command line takes); Bengali: its Bengali name alone. ``names``: code -> {"name_en",
    "name_bn"} (``Workspace.dialect_names``)."""
    row = names.get(code) or {}
    if code == "standard" and not row:
        return _("standard Bengali")
    if current_language() == "bn":
        return row.get("name_bn") or row.get("name_en") or code
    name = row.get("name_en") or code
    return f"{name} ({code})" if with_code and name != code else name


def joined(kind: str, codes: str, separator: str = ", ") -> str:
    """A stored comma list of codes ("free, counterbalanced") named one by one."""
    return separator.join(label(kind, part.strip()) for part in codes.split(",") if part.strip())


def dialect_of(
    row: Mapping[str, Any], *, both: bool = False, code: bool = True, separator: str = " · "
) -> str:
    """A dialect row ({code, name_en, name_bn}) for a list or form. English: "Barishal
    (barishal)", with ``both`` "Barishal · বরিশালের ভাষা (barishal)"; Bengali: the Bengali
    name alone (the code and the English name are for the command line)."""
    if current_language() == "bn":
        return row.get("name_bn") or row.get("name_en") or row["code"]
    text = row.get("name_en") or row["code"]
    if both and row.get("name_bn"):
        text = f"{text}{separator}{row['name_bn']}"
    return f"{text} ({row['code']})" if code else text
