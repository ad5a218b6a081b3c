"""Dialect names as data: codes, built-in and per-workspace aliases, and adding dialects.

Public corpora spell their dialects many ways (``noyakhali``, ``chattogram``, ``চাটগাঁইয়া``).
A :class:`DialectResolver` turns any known spelling into the workspace's code:

1. an explicit ``--dialect-map FROM=TO`` of this import (TO must be a known code);
2. a code of the ``dialects`` table;
3. a workspace alias (``dialects.aliases``, a JSON list, set by ``upabhasha dialects add``),
   or the dialect's English or Bengali name;
4. a built-in alias (:data:`BUILTIN_ALIASES`).

Spellings compare after NFC, case folding and dropping spaces, '-', '_' and '.', so
"Chatgaiya", "chat-gaiya" and "CHATGAIYA" are one name. An unknown name is refused with
the list of known codes and the closest known spelling.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable, Iterable
from typing import TypedDict

from engine.errors import Setting, Step, UserError, setting, step
from engine.text.text_rules import checked_name
from engine.text.textnorm import canonical_key
from engine.workspace.store import Workspace

STANDARD = "standard"

# Spellings seen in public files and in people's writing, English and Bengali.
BUILTIN_ALIASES: dict[str, tuple[str, ...]] = {
    STANDARD: ("standard bengali", "standard bangla", "promito", "প্রমিত", "প্রমিত বাংলা"),
    "chittagong": (
        "chattogram",
        "chattagram",
        "chittagonian",
        "chatgaiya",
        "chatgaya",
        "chatgaia",
        "ctg",
        "চট্টগ্রাম",
        "চট্টগ্রামী",
        "চাটগাঁইয়া",
        "চাটগাঁয়া",
        "চাটগাঁইয়া ভাষা",
    ),
    "sylhet": ("sylheti", "syloti", "sileti", "silheti", "সিলেট", "সিলেটি", "সিলটি"),
    "noakhali": (
        "noyakhali",
        "nowakhali",
        "noakhailla",
        "noakhaiya",
        "নোয়াখালী",
        "নোয়াখালি",
        "নোয়াখাইল্যা",
    ),
    "barishal": ("barisal", "barishali", "borishal", "বরিশাল", "বরিশালী", "বরিশাইল্যা"),
    "mymensingh": ("mymensinghi", "moimonsingho", "ময়মনসিংহ", "ময়মনসিংহী"),
    "rangpur": ("rangpuri", "rongpuri", "রংপুর", "রংপুরী"),
    "habiganj": ("hobiganj", "হবিগঞ্জ"),
    "kishoreganj": ("kishorganj", "কিশোরগঞ্জ"),
    "tangail": ("tangaili", "টাঙ্গাইল", "টাঙ্গাইলের"),
}

_CODE = re.compile(r"^[a-z][a-z0-9_]{1,31}$")
_PUNCT = re.compile(r"[\s\-_.]+")


def spelling_key(name: str) -> str:
    """How two spellings of a dialect name are compared."""
    return _PUNCT.sub("", canonical_key(name))


class DialectResolver:
    """Resolves dialect names of one import to workspace codes."""

    def __init__(self, ws: Workspace, dialect_map: dict[str, str] | None = None):
        rows = ws.query("SELECT * FROM dialects ORDER BY code")
        self.codes = {r["code"] for r in rows}
        self._names: dict[str, str] = {}  # spelling key -> code
        for code, aliases in BUILTIN_ALIASES.items():
            if code in self.codes:
                for alias in aliases:
                    self._names[spelling_key(alias)] = code
        for r in rows:
            for alias in (r["name_en"], r["name_bn"], *_aliases(r.get("aliases"))):
                if alias:
                    self._names[spelling_key(alias)] = r["code"]
        for r in rows:
            self._names[spelling_key(r["code"])] = r["code"]
        self.explicit: dict[str, str] = {}
        for source, target in (dialect_map or {}).items():
            code = target.strip().casefold()
            if code not in self.codes:
                raise UserError(
                    f"{setting(Setting.DIALECT_MAP, f'{source}={target}')}: '{target}' is not "
                    f"a dialect code (known: {', '.join(sorted(self.codes))}); add it with "
                    f"{step(Step.ADD_DIALECT)}"
                )
            self.explicit[spelling_key(source)] = code

    def lookup(self, name: str) -> str | None:
        key = spelling_key(name)
        return self.explicit.get(key) or self._names.get(key)

    def regional(self) -> list[str]:
        return sorted(self.codes - {STANDARD})

    def resolve(
        self, name: str, reject: Callable[[str], object], *, allow_standard: bool = False
    ) -> str:
        """The code for ``name``; otherwise ``reject`` is called with a message that lists
        the known codes and suggests the closest spelling (``reject`` must raise)."""
        code = self.lookup(name)
        if code == STANDARD and not allow_standard:
            reject(f"'{name}' is standard Bengali, the reference, not a dialect of a pair")
        if code is None:
            reject(self.unknown_message(name))
        assert code is not None
        return code

    def unknown_message(self, name: str) -> str:
        return (
            f"unknown dialect '{name}'{self.suggestion(name)} (known codes: "
            f"{', '.join(self.regional())}); map it with "
            f"{setting(Setting.DIALECT_MAP, repr(f'{name}=CODE'))} or add it with "
            f"{step(Step.ADD_DIALECT)}"
        )

    def suggestion(self, name: str) -> str:
        key = spelling_key(name)
        candidates = {**self._names, **self.explicit}
        close = difflib.get_close_matches(key, list(candidates), n=1, cutoff=0.6)
        return f"; did you mean '{candidates[close[0]]}'?" if close else ""


def _aliases(raw: str | None) -> list[str]:
    if not raw:
        return []
    try:
        value = json.loads(raw)
    except ValueError:
        return []
    return [str(v) for v in value] if isinstance(value, list) else []


def parse_dialect_map(
    items: Iterable[str], option: str = setting(Setting.DIALECT_MAP)
) -> dict[str, str]:
    """``["noyakhali=noakhali", ...]`` -> mapping; a malformed item is a UserError."""
    mapping: dict[str, str] = {}
    for item in items:
        source, sep, target = item.partition("=")
        if not sep or not source.strip() or not target.strip():
            raise UserError(f"{option} expects FROM=TO (e.g. noyakhali=noakhali), not '{item}'")
        mapping[source.strip()] = target.strip()
    return mapping


class DialectInfo(TypedDict):
    """One dialect of :func:`list_dialects` (``upabhasha dialects list --json``)."""

    code: str
    name_en: str
    name_bn: str
    region: str
    aliases: list[str]
    builtin_aliases: list[str]
    pairs: int
    variants: int


class DialectNames(TypedDict):
    """A dialect's code and names (a row of ``dialects``, as the import dialog lists it)."""

    code: str
    name_bn: str
    name_en: str


def list_dialects(ws: Workspace) -> list[DialectInfo]:
    """Every dialect with its built-in and workspace aliases and how many pairs/variants."""
    pairs = dict(ws.conn.execute("SELECT dialect, count(*) FROM sentence_pairs GROUP BY dialect"))
    variants = dict(ws.conn.execute("SELECT dialect, count(*) FROM variants GROUP BY dialect"))
    out: list[DialectInfo] = []
    for r in ws.query("SELECT * FROM dialects ORDER BY code = 'standard' DESC, code"):
        out.append(
            {
                "code": r["code"],
                "name_en": r["name_en"],
                "name_bn": r["name_bn"],
                "region": r["region"],
                "aliases": _aliases(r.get("aliases")),
                "builtin_aliases": list(BUILTIN_ALIASES.get(r["code"], ())),
                "pairs": pairs.get(r["code"], 0),
                "variants": variants.get(r["code"], 0),
            }
        )
    return out


# Built-in codes whose rows the program relies on; 'dialects add' may not rename them.
RESERVED_CODES = frozenset({STANDARD})


class RenameNeeded(UserError):
    """Names given for an existing dialect differ from its own: a typo must not silently
    rename sylhet, so renaming needs :data:`Setting.RENAME` (the CLI's option, the GUI's
    confirmation). ``renamed``: (old, new) per name; ``aliases``: those kept."""

    def __init__(self, code: str, renamed: list[tuple[str, str]], aliases: list[str]):
        changes = ", ".join(f"{old!r} to {new!r}" for old, new in renamed)
        super().__init__(
            f"dialect '{code}' exists: renaming it ({changes}) needs "
            f"{setting(Setting.RENAME)}; its aliases are kept"
        )
        self.code, self.renamed, self.aliases = code, renamed, aliases


def aliases_kept(code: str, added: list[str]) -> list[str]:
    """Every spelling that still resolves to ``code``: the built-in ones, then those added."""
    builtin = list(BUILTIN_ALIASES.get(code, ()))
    return builtin + [a for a in added if a not in builtin]


def checked_dialect_names(
    name_en: str, name_bn: str, region: str, aliases: Iterable[str]
) -> tuple[str, str, str, list[str]]:
    """A dialect's names and spellings in their stored form, each through the one rule of
    every name a user gives (no control or bidirectional characters); an empty one stays
    empty (not given). A UserError names the first that breaks it."""

    def checked(text: str, what: str) -> str:
        return checked_name(text, what) if text.strip() else ""

    return (
        checked(name_en, "dialect's English name"),
        checked(name_bn, "dialect's Bengali name"),
        checked(region, "dialect's region"),
        [checked(a, "dialect alias") for a in aliases if a.strip()],
    )


def add_dialect(
    ws: Workspace,
    code: str,
    *,
    name_en: str,
    name_bn: str,
    region: str = "",
    aliases: Iterable[str] = (),
    rename: bool = False,
) -> DialectInfo:
    """Add a dialect, or add aliases/names to an existing one. Names that differ from an
    existing dialect's replace them only with ``rename`` (a typo must not silently rename
    sylhet); its aliases, built-in and added, are kept either way.

    An alias that already names another dialect is refused: one spelling, one code."""
    code = code.strip()
    if not _CODE.match(code):
        raise UserError(
            f"dialect code '{code}' must be 2-32 lower-case ASCII letters, digits or '_', "
            "starting with a letter (e.g. 'comilla')"
        )
    if code in RESERVED_CODES:
        raise UserError(
            f"dialect code '{code}' is reserved (the standard language every dialect is "
            "compared with); its names cannot be changed"
        )
    name_en, name_bn, region, new_aliases = checked_dialect_names(name_en, name_bn, region, aliases)
    resolver = DialectResolver(ws)
    for alias in [code, *new_aliases]:
        owner = resolver.lookup(alias)
        if owner is not None and owner != code:
            raise UserError(f"'{alias}' already names dialect '{owner}'")
    with ws.transaction() as conn:
        row = conn.execute(
            "SELECT aliases, name_en, name_bn FROM dialects WHERE code = ?", (code,)
        ).fetchone()
        if row is None:
            if not name_en or not name_bn:
                raise UserError(
                    f"a new dialect needs {setting(Setting.NAME_EN)} and "
                    f"{setting(Setting.NAME_BN)} (code '{code}' is not known)"
                )
            conn.execute(
                "INSERT INTO dialects(code, name_bn, name_en, region, aliases) "
                "VALUES (?, ?, ?, ?, ?)",
                (code, name_bn, name_en, region, json.dumps(new_aliases, ensure_ascii=False)),
            )
        else:
            renamed = [
                (old, new)
                for new, old in ((name_en, row[1]), (name_bn, row[2]))
                if new and new != old
            ]
            if renamed and not rename:
                kept = aliases_kept(code, _aliases(row[0]))
                raise RenameNeeded(code, renamed, kept)
            merged = _aliases(row[0])
            merged += [a for a in new_aliases if a not in merged]
            conn.execute(
                "UPDATE dialects SET aliases = ?, name_en = coalesce(nullif(?, ''), name_en), "
                "name_bn = coalesce(nullif(?, ''), name_bn), "
                "region = coalesce(nullif(?, ''), region) WHERE code = ?",
                (json.dumps(merged, ensure_ascii=False), name_en, name_bn, region, code),
            )
    return next(d for d in list_dialects(ws) if d["code"] == code)
