"""Message catalogues: extract the ``_()`` strings, merge them into each language, report.

    python scripts/i18n.py extract   # resources/locale/upabhasha.pot from engine/ app/ widgets/
    python scripts/i18n.py update    # merge the template into every <lang>/…/upabhasha.po
    python scripts/i18n.py compile   # write .mo next to each .po (optional: the app compiles
                                     # the .po in memory at start; installers may ship .mo)
    python scripts/i18n.py stats     # per language: translated / all, stale entries; JSON line
    python scripts/i18n.py apply LANG FILE.json   # set msgstrs from a {msgid: msgstr} file
                                     # (translations made on a branch before its strings land;
                                     # an ngettext entry is keyed by its singular msgid, its
                                     # value one string for every form or a list of forms)
    python scripts/i18n.py todo LANG FILE.json    # extract + update, then write every
                                     # untranslated msgid of LANG as {msgid: ""} to FILE

After a merge brings new strings, the whole round is two commands: ``todo bn new.json``,
fill in the empty values (resources/locale/glossary.md fixes the terms), ``apply bn new.json``.

Extraction is Babel's Python extractor with the keywords ``_`` and ``ngettext``. Strings
that reach ``_()`` through a variable (table column names kept in a module constant) are not
seen by the extractor; such entries stay in the catalogue by hand and count as current while
the literal is still in the code (:func:`stale_entries`).
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
SOURCE_DIRS = ("engine", "app", "widgets")
LOCALE = ROOT / "resources" / "locale"
TEMPLATE = LOCALE / "upabhasha.pot"
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
BRACE = re.compile(r"\{[A-Za-z_0-9]*(?:[:!][^{}]*)?\}")


def extract(root: Path = ROOT) -> Catalog:
    """Every literal passed to ``_()``/``ngettext()`` in the sources, with file:line."""
    catalog = Catalog(project="Upabhasha", domain="upabhasha", charset="utf-8")
    for folder in SOURCE_DIRS:
        for filename, lineno, message, comments, context in extract_from_dir(
            root / folder,
            method_map=[("**.py", "python")],
            keywords=KEYWORDS,
            comment_tags=("TRANSLATORS:",),
            strip_comment_tags=True,
        ):
            entry = catalog.add(
                message,
                None,
                [(f"{folder}/{filename}", lineno)],
                auto_comments=comments,
                context=context,
            )
            # our strings use str.format, never %: "≥90% of" is no %-directive, and msgfmt
            # --check-format then verifies the {placeholders} of every translation instead
            entry.flags.discard("python-format")
            if BRACE.search(message if isinstance(message, str) else message[0]):
                entry.flags.add("python-brace-format")
    # the stored codes each stage declares for people (LABELS: data, shown through _())
    for path in sorted((root / "engine").glob("*/schema.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in tree.body:
            if not (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Dict)
                and any(isinstance(t, ast.Name) and t.id == "LABELS" for t in node.targets)
            ):
                continue
            for codes in node.value.values:  # kind -> codes: the codes are the msgids
                for code in ast.walk(codes):
                    if isinstance(code, ast.Constant) and isinstance(code.value, str):
                        where = (path.relative_to(root).as_posix(), code.lineno)
                        catalog.add(code.value, None, [where])
    return catalog


def source_literals(root: Path = ROOT) -> set[str]:
    """Every string constant in the sources (for strings translated through a variable)."""
    literals: set[str] = set()
    for folder in SOURCE_DIRS:
        for path in (root / folder).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            literals.update(
                node.value
                for node in ast.walk(tree)
                if isinstance(node, ast.Constant) and isinstance(node.value, str)
            )
    return literals


def languages() -> list[str]:
    return sorted(p.parent.parent.name for p in LOCALE.glob("*/LC_MESSAGES/upabhasha.po"))


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / "upabhasha.po"


def load(language: str) -> Catalog:
    with po_path(language).open("rb") as fh:
        return read_po(fh, locale=language, abort_invalid=True)


def _msgid(message) -> str:
    return message.id[0] if isinstance(message.id, tuple) else message.id


def _translated(message) -> bool:
    """Every form filled in (a plural entry's untranslated msgstr is a tuple of "")."""
    forms = message.string if isinstance(message.string, tuple) else (message.string,)
    return all(forms)


def _msgstr(message, value: str | list[str], catalog: Catalog) -> str | tuple[str, ...]:
    """A plural entry (``ngettext``, keyed by its singular msgid) takes one form per plural
    of the language: a list gives them in order, one string serves them all."""
    if not isinstance(message.id, tuple):
        return value if isinstance(value, str) else value[0]
    forms = [value] * catalog.num_plurals if isinstance(value, str) else list(value)
    return tuple(forms)


def stale_entries(catalog: Catalog, template: Catalog, literals: set[str]) -> list[str]:
    """msgids of the catalogue that the code no longer has (neither in ``_()`` nor as text)."""
    current = {_msgid(m) for m in template if m.id}
    return sorted(
        _msgid(m)
        for m in catalog
        if m.id and _msgid(m) not in current and _msgid(m) not in literals
    )


def coverage(catalog: Catalog, template: Catalog) -> dict:
    """Translated share of the strings the code has now, overall and per source file."""
    translated = {_msgid(m) for m in catalog if m.id and _translated(m) and not m.fuzzy}
    per_file: dict[str, list[int]] = {}
    ids = [m for m in template if m.id]
    for message in ids:
        files = {loc[0] for loc in message.locations}
        for filename in files:
            counts = per_file.setdefault(filename, [0, 0])
            counts[1] += 1
            counts[0] += _msgid(message) in translated
    done = sum(_msgid(m) in translated for m in ids)
    return {
        "translated": done,
        "total": len(ids),
        "share": round(done / len(ids), 4) if ids else 1.0,
        "per_file": {name: f"{a}/{b}" for name, (a, b) in sorted(per_file.items())},
    }


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "stats"
    template = extract()
    if command == "extract":
        TEMPLATE.parent.mkdir(parents=True, exist_ok=True)
        for message in template:
            message.flags.discard("python-format")
        with TEMPLATE.open("wb") as fh:
            write_po(fh, template, width=100, omit_header=False, sort_by_file=True)
        print(f"{TEMPLATE.relative_to(ROOT)}: {len([m for m in template if m.id])} messages")
        return 0
    if command == "update":
        for language in languages():
            catalog = load(language)
            literals = source_literals()
            # entries translated through a variable are not in the template: keep them while
            # their text is still in the code, instead of letting update() retire them
            kept = [m for m in catalog if m.id and m.id not in template and m.id in literals]
            catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
            for message in kept:
                catalog.obsolete.pop(message.id, None)
                catalog[message.id] = message
            for message in catalog:
                message.flags.discard("python-format")  # Babel re-guesses it on every read
            with po_path(language).open("wb") as fh:
                write_po(fh, catalog, width=100, sort_by_file=True, ignore_obsolete=False)
            print(f"{language}: merged")
        return 0
    if command == "compile":
        for language in languages():
            target = po_path(language).with_suffix(".mo")
            with target.open("wb") as fh:
                write_mo(fh, load(language), use_fuzzy=False)
            print(f"{target.relative_to(ROOT)}")
        return 0
    if command == "stats":
        literals = source_literals()
        report = {
            language: {
                **coverage(load(language), template),
                "stale": stale_entries(load(language), template, literals),
            }
            for language in languages()
        }
        for language, entry in report.items():
            print(f"{language}: {entry['translated']}/{entry['total']} ({entry['share']:.1%})")
            for name, share in entry["per_file"].items():
                print(f"  {share:>7}  {name}")
        print(json.dumps({k: {**v, "per_file": None} for k, v in report.items()}))
        return 0
    if command == "apply" and len(argv) == 3:
        language, source = argv[1], Path(argv[2])
        translations = json.loads(source.read_text(encoding="utf-8"))
        catalog = load(language)
        applied = 0
        for message in catalog:
            if message.id and _msgid(message) in translations:
                message.string = _msgstr(message, translations[_msgid(message)], catalog)
                message.flags.discard("fuzzy")
                applied += 1
            message.flags.discard("python-format")
        with po_path(language).open("wb") as fh:
            write_po(fh, catalog, width=100, sort_by_file=True, ignore_obsolete=False)
        print(f"{language}: {applied} of {len(translations)} set ({source.name})")
        return 0
    if command == "todo" and len(argv) == 3:
        main(["extract"])
        main(["update"])
        catalog = load(argv[1])
        missing = {_msgid(m): "" for m in catalog if m.id and (not _translated(m) or m.fuzzy)}
        Path(argv[2]).write_text(json.dumps(missing, ensure_ascii=False, indent=1) + "\n", "utf-8")
        print(f"{argv[1]}: {len(missing)} untranslated written to {argv[2]}")
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
