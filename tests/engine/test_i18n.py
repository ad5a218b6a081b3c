"""The Bengali catalogue: loads, compiles like GNU msgfmt, matches the code, keeps placeholders."""

from __future__ import annotations

import gettext
import re
import shutil
import subprocess

import pytest

from engine import i18n
from engine.i18n import _, catalogue_path, compile_catalogue, digits, set_language
from scripts import i18n as tools

BN_PO = catalogue_path("bn")
COVERAGE_FLOOR = 0.98  # the Bengali interface is complete; new strings come translated


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    set_language("en")


@pytest.fixture(scope="module")
def template():
    return tools.extract()


@pytest.fixture(scope="module")
def bengali():
    return tools.load("bn")


def test_switching_to_bengali_and_back():
    assert _("&File") == "&File" and digits(1234) == "1234"
    assert set_language("bn")
    assert i18n.current_language() == "bn"
    assert _("&File") == "ফাইল (&F)"
    assert _("Review translations") == "অনুবাদ পর্যালোচনা"
    assert digits(1234) == "১২৩৪"
    assert digits("2026-11-30 08:23, 3.5%") == "২০২৬-১১-৩০ ০৮:২৩, ৩.৫%"
    assert _("a string nobody translated") == "a string nobody translated"
    assert set_language("en")
    assert _("&File") == "&File" and digits(1234) == "1234"


def test_a_missing_or_broken_catalogue_leaves_english(tmp_path, caplog):
    assert not set_language("xx")
    assert _("&File") == "&File" and i18n.current_language() == "en"
    broken = tmp_path / "bn" / "LC_MESSAGES"
    broken.mkdir(parents=True)
    (broken / "upabhasha.po").write_text("hello world\n", encoding="utf-8")
    assert not set_language("bn", base=tmp_path)
    assert _("&File") == "&File" and digits(5) == "5"
    assert "interface stays English" in caplog.text


def test_fuzzy_and_empty_entries_stay_english(tmp_path):
    po = tmp_path / "t.po"
    po.write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        '#, fuzzy\nmsgid "Open"\nmsgstr "খুলুন"\n\nmsgid "Close"\nmsgstr ""\n\n'
        'msgid "Save"\nmsgstr "সংরক্ষণ"\n',
        encoding="utf-8",
    )
    translation = compile_catalogue(po)
    assert [translation.gettext(m) for m in ("Open", "Close", "Save")] == [
        "Open",
        "Close",
        "সংরক্ষণ",
    ]


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext's msgfmt not installed")
def test_in_memory_compilation_equals_gnu_msgfmt(tmp_path, bengali):
    """Babel's compiler (used at start-up) against GNU msgfmt on the shipped catalogue."""
    mo = tmp_path / "upabhasha.mo"
    subprocess.run(["msgfmt", "--check-format", "-o", str(mo), str(BN_PO)], check=True)
    with mo.open("rb") as fh:
        gnu = gettext.GNUTranslations(fh)
    ours = compile_catalogue(BN_PO)
    ids = [m.id for m in bengali if m.id]
    assert ids
    assert all(ours.gettext(i) == gnu.gettext(i) for i in ids)


def test_no_stale_entries_and_coverage_report(template, bengali, capsys):
    """Every msgid of the catalogue is still in the code; report the translated share."""
    stale = tools.stale_entries(bengali, template, tools.source_literals())
    assert stale == [], f"catalogue entries the code no longer has: {stale}"
    report = tools.coverage(bengali, template)
    with capsys.disabled():
        print(
            f"\nBengali catalogue: {report['translated']}/{report['total']} strings "
            f"({report['share']:.1%}) translated"
        )
    assert report["share"] >= COVERAGE_FLOOR
    # the most-seen parts of the window are complete
    for path in (
        "app/main_window.py",
        "widgets/common/welcome_page.py",
        "widgets/translation/review_panel.py",
        "widgets/translation/review_detail.py",
    ):
        done, total = report["per_file"][path].split("/")
        assert done == total, (path, report["per_file"][path])


LITERAL_IN_FSTRING = re.compile(r"""\{_\(["']""")


def test_no_literal_is_translated_inside_an_f_string():
    """Babel's extractor does not look inside f-strings: f"{_('line')} …" never reached the
    catalogue, and the Bijoy preview stayed English. Use _("line {n}").format(n=…)."""
    found = [
        f"{path.relative_to(tools.ROOT)}:{number}"
        for folder in tools.SOURCE_DIRS
        for path in (tools.ROOT / folder).rglob("*.py")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if LITERAL_IN_FSTRING.search(line)
    ]
    assert found == []


PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def test_translations_keep_placeholders_and_accelerators(bengali):
    for message in bengali:
        if not message.id or not message.string:
            continue
        # an ngettext entry: each form against the plural msgid, which has every placeholder
        source = message.id[-1] if isinstance(message.id, tuple) else message.id
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        for form in forms:
            assert sorted(PLACEHOLDER.findall(form)) == sorted(PLACEHOLDER.findall(source)), source
            if re.search(r"&\w", source):
                assert re.search(r"&\w", form), f"no accelerator: {source}"
            assert source.count("\n") == form.count("\n"), source


def test_apply_fills_every_form_of_a_plural_entry(bengali):
    """A {msgid: msgstr} file keys an ngettext entry by its singular: one string serves
    every form, a list gives them in order; until then the entry counts as untranslated."""
    from babel.messages.catalog import Message

    message = Message(("{n} model", "{n} models"), ("", ""))
    assert not tools._translated(message)
    assert tools._msgstr(message, "{n}টি মডেল", bengali) == ("{n}টি মডেল",) * bengali.num_plurals
    assert tools._msgstr(message, ["a {n}", "b {n}"], bengali) == ("a {n}", "b {n}")
    message.string = ("{n}টি মডেল", "{n}টি মডেল")
    assert tools._translated(message)
    assert tools._msgstr(Message("{n} gold"), "{n}টি চূড়ান্ত", bengali) == "{n}টি চূড়ান্ত"


def test_the_sample_workspace_is_named_in_the_interface_language(tmp_path):
    """Built for a Bengali screen, the sample's corpus and question set have Bengali names
    (a person reads them in every list); built in English, the names the docs use."""
    from engine.samples.workspace import build_sample_workspace
    from engine.workspace.store import Workspace

    assert set_language("bn")
    try:
        path = build_sample_workspace(tmp_path / "bn.sqlite")
    finally:
        set_language("en")
    with Workspace(path, create=False) as ws:
        assert ws.scalar("SELECT name FROM question_sets") == "নমুনা প্রশ্ন"
        assert ws.scalar("SELECT name FROM corpora") == "নমুনা কর্পাস"
