"""The Bengali catalogue keeps one term per concept (resources/locale/glossary.md)."""

from __future__ import annotations

import re
from pathlib import Path

from engine.i18n import locale_dir
from scripts import i18n as tools

GLOSSARY = Path(locale_dir()) / "glossary.md"
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
CELL_SPLIT = re.compile(r"(?<!\\)\|")


def glossary_rows() -> list[dict]:
    rows = []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        if not line.startswith("| ") or line.startswith("| concept") or line.startswith("|---"):
            continue
        cells = [c.strip().replace("\\|", "|") for c in CELL_SPLIT.split(line)[1:-1]]
        concept, pattern, term, never = cells[:4]
        rows.append(
            {
                "concept": concept,
                "pattern": re.compile(pattern.strip("`"), re.IGNORECASE),
                "term": re.compile(term),
                "never": re.compile(never) if never else None,
            }
        )
    return rows


def test_the_glossary_fixes_about_thirty_concepts():
    rows = glossary_rows()
    assert len(rows) >= 30
    assert len({r["concept"] for r in rows}) == len(rows)
    terms = {r["concept"]: r["term"].pattern for r in rows}
    assert terms["Cancel"] == "বাতিল" and "বাতিল" not in terms["Reject"]
    assert terms["Job"] != terms["Task"]


def test_concepts_once_confused_have_words_of_their_own():
    """Gold and the final score, Abort and Close each had one Bengali word for two concepts;
    accuracy was written two ways."""
    rows = {r["concept"]: r for r in glossary_rows()}
    gold, final = rows["Gold"]["term"].pattern, rows["Final score"]["term"].pattern
    assert gold == "চূড়ান্ত" and gold not in final.split("|")
    assert rows["Final score"]["never"].search(gold)
    abort, close = rows["Abort"]["term"].pattern, rows["Close"]["term"].pattern
    assert abort != close and rows["Abort"]["never"].search(close)
    assert rows["Close"]["never"].search(abort)
    assert rows["Accuracy"]["term"].pattern == "নির্ভুল"
    catalogue = {m.id: m.string for m in tools.load("bn") if isinstance(m.id, str) and m.id}
    assert catalogue["accuracy"] == "নির্ভুলতা"
    assert catalogue["Abort"] != catalogue["Close"]
    assert "চূড়ান্ত" not in catalogue["Final"]


def test_every_translation_uses_the_glossary_term():
    catalogue = tools.load("bn")
    wrong = []
    for message in catalogue:
        if not message.id or not message.string or not isinstance(message.id, str):
            continue
        english = PLACEHOLDER.sub(" ", message.id)
        for row in glossary_rows():
            if not row["pattern"].search(english):
                continue
            if not row["term"].search(message.string):
                wrong.append((row["concept"], "missing", message.id, message.string))
            if row["never"] and row["never"].search(message.string):
                wrong.append((row["concept"], "never", message.id, message.string))
    assert wrong == [], "\n".join(map(str, wrong))


# Latin-script names that carry digits (kept as written: terms, a model name given as an
# example) and Qt's %1 placeholders
DIGITS_KEPT = re.compile(
    r"\{[^{}]*\}|%\d|%p|\bF\d+\b|sha256|BM25|UTF-8|macro-F1|Gemma 3 270M|GPT4All|"
    r"SIL Open Font License 1\.1|llama-3\.1-8b"
)


def test_translations_write_numbers_in_bengali_digits():
    """ "০–10" or "3-টি" in a Bengali message: every digit a translation writes is Bengali."""
    catalogue = tools.load("bn")
    ascii_digits = [
        (message.id, message.string)
        for message in catalogue
        if message.id
        and isinstance(message.string, str)
        and re.search(r"[0-9]", DIGITS_KEPT.sub(" ", message.string))
    ]
    assert ascii_digits == []


def test_numbers_formatted_into_a_bengali_message_are_bengali():
    from engine.i18n import _, set_language

    assert set_language("bn")
    try:
        text = _("{model} · run {run} · {role}").format(model="gemma-3", run=12, role="x")
        assert text == "gemma-3 · রান ১২ · x"  # the model's own name keeps its digit
        assert (
            _("{level}% percentile bootstrap over probes, {resamples} resamples, seed {seed}")
            .format(level=95, resamples=1000, seed=20261130)
            .startswith("প্রোবের ওপর ৯৫% ")
        )
    finally:
        set_language("en")
    assert _("{model} · run {run} · {role}").format(model="m", run=12, role="r") == "m · run 12 · r"
