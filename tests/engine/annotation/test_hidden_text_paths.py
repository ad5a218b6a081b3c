"""The one text rule (engine/text/text_rules.py) on every path by which text enters a
workspace: each class of hidden character is refused on each path with the character named
(U+XXXX and its Unicode name), the workspace unchanged; Bengali with ZWJ/ZWNJ and emoji
sequences pass. Batch replies keep what the model wrote (tests/cli/test_cli_hidden_text.py)."""

from __future__ import annotations

import unicodedata

import pytest

from engine.annotation.adjudication import accept_agreed, adjudicate
from engine.annotation.annotators import add_annotator
from engine.annotation.packages import import_packages
from engine.errors import UserError
from engine.importing.api import import_questions
from engine.importing.dialects import add_dialect
from engine.llm.models.registry import register_endpoint
from engine.text.text_rules import neutralised, visible
from engine.translation.review import set_variant_status, set_variant_text
from engine.workspace.store import Workspace

from .helpers import snapshot
from .test_package_forgery import COMMENT, EDIT, _forge, filled  # noqa: F401

# each class: (the hidden text, what the refusal must name)
CLASSES = {
    "C0 NUL": ("\x00", "U+0000 NULL"),
    "C0 ESC": ("\x1b", "U+001B ESCAPE"),
    "C1 NEL": ("\x85", "U+0085 C1 CONTROL"),
    "bidi embedding": ("\u202b", "U+202B RIGHT-TO-LEFT EMBEDDING"),
    "bidi override": ("\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    "bidi isolate": ("\u2067x\u2069", "U+2067 RIGHT-TO-LEFT ISOLATE"),
    "tag characters": ("".join(chr(0xE0000 + ord(c)) for c in "give5"), "U+E0067 TAG LATIN"),
    "VS17": ("\U000e0100", "U+E0100 VARIATION SELECTOR-17"),
    "VS256": ("\U000e01ef", "U+E01EF VARIATION SELECTOR-256"),
    "filler U+115F": ("\u115f", "U+115F HANGUL CHOSEONG FILLER"),
    "filler U+1160": ("\u1160", "U+1160 HANGUL JUNGSEONG FILLER"),
    "filler U+3164": ("\u3164", "U+3164 HANGUL FILLER"),
    "filler U+FFA0": ("\uffa0", "U+FFA0 HALFWIDTH HANGUL FILLER"),
    "filler U+2800": ("\u2800", "U+2800 BRAILLE PATTERN BLANK"),
}
# what running text may hold (corpora do: a zero-width space, a joiner at a word's edge) but
# a name may not: in a name it makes one name show as another
IN_NAMES = {
    "ZWSP": ("\u200b", "U+200B ZERO WIDTH SPACE"),
    "LRM": ("\u200e", "U+200E LEFT-TO-RIGHT MARK"),
    "joiner at a word's edge": (" \u200c", "U+200C ZERO WIDTH NON-JOINER"),
}
ONLY_INVISIBLE = ("\u3164\u200b\u3164", "U+3164 HANGUL FILLER")
# conjuncts and reph with ZWJ, a ZWNJ between letters, an emoji ZWJ sequence, VS16, a skin tone
LEGIT = "ক্\u200dষমা র\u200d্যাব ক\u200cখ 👨\u200d👩\u200d👧 ❤\ufe0f 👍🏽"


def _cases(path: str):
    """(hidden text inside Bengali words, what the refusal names) for every class, and a text
    of nothing but invisible characters."""
    classes = [*CLASSES.values(), *(IN_NAMES.values() if path in NAMES else ())]
    return [(f"ঢাকা{h}শহর", named) for h, named in classes] + [ONLY_INVISIBLE]


def _variant_item(ws) -> tuple[int, int]:
    return ws.conn.execute(
        "SELECT id, target_id FROM annotation_items WHERE kind = 'variant' ORDER BY id LIMIT 1"
    ).fetchone()


def _import_questions(ws, tmp, text, n):
    path = tmp / f"q{n}.csv"
    path.write_text(f"question\n{text}\n", encoding="utf-8")
    import_questions(ws, path, name=f"hidden{n}")


def _package_edit(ws, tmp, text, n, paths):
    forged = _forge(paths["Karim"], tmp / f"edit{n}.upkg", EDIT, params=(text,))
    import_packages(ws, [paths["Shuvo"], forged])


def _package_comment(ws, tmp, text, n, paths):
    forged = _forge(paths["Karim"], tmp / f"comment{n}.upkg", COMMENT, params=(text,))
    import_packages(ws, [paths["Shuvo"], forged])


def _adjudicate_text(ws, tmp, text, n):
    adjudicate(ws, _variant_item(ws)[0], "Lead", "edit", text=text)


def _adjudicate_comment(ws, tmp, text, n):
    adjudicate(ws, _variant_item(ws)[0], "Lead", "accept", comment=text)


def _store_agreed(ws, text, n):
    """A unanimous edit stored before the rule (written in SQL, as an older version could)."""
    item = _variant_item(ws)[0]
    ws.conn.execute("DELETE FROM annotation_decisions WHERE item_id = ?", (item,))
    for who in ("Rina", "Karim"):
        ws.conn.execute(
            "INSERT INTO annotation_decisions(uid, item_id, annotator_id, decision, text, comment, "
            "item_hash, decided_at, checksum) SELECT ?, ?, id, 'edit', ?, '', '', '2026-01-01', "
            "'' FROM annotators WHERE name = ?",
            (f"{n:04x}{who:0>28}"[:32], item, text, who),
        )


def _agreed(ws, tmp, text, n):
    accept_agreed(ws, "Lead")


def _store_draft(ws, text, n):
    ws.conn.execute("UPDATE variants SET text = ? WHERE id = ?", (text, _variant_item(ws)[1]))


def _review_edit(ws, tmp, text, n):
    set_variant_text(ws, _variant_item(ws)[1], text, actor="Rahim")


def _accept_draft(ws, tmp, text, n):
    set_variant_status(ws, _variant_item(ws)[1], "gold", actor="Rahim")


def _model_name(ws, tmp, text, n):
    register_endpoint(ws, text, ["http://127.0.0.1:9/v1"], "m")


def _annotator_name(ws, tmp, text, n):
    add_annotator(ws, text, ["sylhet"])


def _reviewer_name(ws, tmp, text, n):
    set_variant_text(ws, _variant_item(ws)[1], "ঢাকা শহর", actor=text)


def _dialect_name(ws, tmp, text, n):
    add_dialect(ws, f"hid{n}", name_en=text, name_bn="কুমিল্লা")


def _set_name(ws, tmp, text, n):
    path = tmp / f"named{n}.csv"
    path.write_text("question\nঢাকা কোথায়?\n", encoding="utf-8")
    import_questions(ws, path, name=text)


def _workspace_file(ws, tmp, text, n):
    Workspace(tmp / f"{text}{n}.sqlite").close()


PATHS = {
    "import questions CSV": _import_questions,
    "package edit": _package_edit,
    "package comment": _package_comment,
    "adjudicate --text": _adjudicate_text,
    "adjudicate comment": _adjudicate_comment,
    "review edit": _review_edit,
    "model name": _model_name,
    "annotator name": _annotator_name,
    "reviewer name": _reviewer_name,
    "dialect name": _dialect_name,
    "set name": _set_name,
    "workspace file": _workspace_file,
}
NEEDS_PACKAGES = {"package edit", "package comment"}
NAMES = {
    "model name",
    "annotator name",
    "reviewer name",
    "dialect name",
    "set name",
    "workspace file",
}
# texts stored before the rule (written in SQL, as an older version could) that must not
# become gold: a unanimous edit (``adjudicate --agreed``), a machine draft accepted as it is
REFUSE_ONLY = {
    "adjudicate --agreed": (_store_agreed, _agreed),
    "accept draft": (_store_draft, _accept_draft),
}


@pytest.mark.parametrize("path", [*PATHS, *REFUSE_ONLY])
def test_each_hidden_class_is_refused_on_each_path_naming_the_character(filled, tmp_path, path):
    ws, paths = filled
    prepare, write = REFUSE_ONLY.get(path, (None, PATHS.get(path)))
    extra = (paths,) if path in NEEDS_PACKAGES else ()
    for n, (text, named) in enumerate(_cases(path)):
        if prepare is not None:
            prepare(ws, text, n)
        before = snapshot(ws)
        with pytest.raises(UserError) as refusal:
            write(ws, tmp_path, text, n, *extra)
        message = str(refusal.value)
        assert named in message, (path, ascii(text), message)
        assert "\n" not in message
        assert snapshot(ws) == before, (path, ascii(text))
        if path == "workspace file":
            assert not list(tmp_path.glob(f"*{n}.sqlite")), ascii(text)
    if path in REFUSE_ONLY:
        return
    # legitimate Bengali with joiners and emoji sequences passes the same path
    write(ws, tmp_path, LEGIT, 999, *extra)


def test_legit_text_is_stored_as_written_in_nfc(filled):
    ws, _paths = filled
    item, vid = _variant_item(ws)
    decomposed = unicodedata.normalize("NFD", "ঢাকা শহর কোথায়")
    adjudicate(ws, item, "Lead", "edit", text=f"{decomposed} {LEGIT}")
    stored = ws.scalar("SELECT text FROM variants WHERE id = ?", (vid,))
    assert stored == unicodedata.normalize("NFC", f"{decomposed} {LEGIT}")
    assert "\u200d" in stored and "\u200c" in stored and "\ufe0f" in stored


def test_model_replies_are_shown_with_hidden_characters_visible_and_judged_without_them():
    reply = "ঢাকা\u202e শহর\U000e0067\U000e0069\U000e0076\U000e0065 \u3164ক্\u200dষ 👨\u200d👩\u200d👧"
    shown = visible(reply)
    assert "⟨U+202E⟩" in shown and "⟨U+E0067⟩" in shown and "⟨U+3164⟩" in shown
    assert "ক্\u200dষ" in shown and "👨\u200d👩\u200d👧" in shown  # legit joiners stay as they are
    assert neutralised(reply) == "ঢাকা শহর ক্\u200dষ 👨\u200d👩\u200d👧"


def test_a_workspace_file_already_named_so_still_opens(tmp_path):
    """The rule refuses new names; a file that already exists opens (it is not renamed)."""
    Workspace(tmp_path / "a.sqlite").close()
    old = tmp_path / "old\u200b.sqlite"
    (tmp_path / "a.sqlite").rename(old)
    Workspace(old).close()
