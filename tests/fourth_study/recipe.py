"""How the field-notes study is registered, as a new study is: one entry in the engine's
stage list, one in the front ends' list, and its messages in the Bengali catalogue. In the
product these are three edits (two lines and the catalogue's entries); here a test makes
them for its own duration, so no product file names the study."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

from app.cli import registry
from engine import i18n
from engine.workspace import stages
from tests.fourth_study import cli as notes_cli
from tests.fourth_study import schema as notes_schema

ROOT = Path(__file__).resolve().parents[2]
ENGINE_ENTRY = stages.StageSchema.of("field_notes", notes_schema)
FRONT_END_ENTRY = registry.Stage(
    "field_notes",
    (notes_cli,),
    "tests.fourth_study.widgets",
    smoke=(("notes", "tests.fourth_study.cli:smoke"),),
)
CATALOGUE_ENTRIES = Path(__file__).with_name("bn.json")


def _product_file(path: str | Path) -> str:
    return Path(path).resolve().relative_to(ROOT).as_posix()


def register(monkeypatch, folder: Path) -> list[str]:
    """Register the study until the test ends; the product files that hold what changed
    (``folder`` receives the Bengali catalogue with the study's entries)."""
    monkeypatch.setattr(stages, "STAGES", [*stages.STAGES, ENGINE_ENTRY])
    monkeypatch.setattr(registry, "STAGES", [*registry.STAGES, FRONT_END_ENTRY])
    product = i18n.catalogue_path("bn")
    with product.open("rb") as fh:
        catalogue = read_po(fh)
    for msgid, msgstr in json.loads(CATALOGUE_ENTRIES.read_text(encoding="utf-8")).items():
        catalogue.add(msgid, msgstr)
    merged = i18n.catalogue_path("bn", folder)
    merged.parent.mkdir(parents=True, exist_ok=True)
    with merged.open("wb") as fh:
        write_po(fh, catalogue)
    monkeypatch.setattr(i18n, "locale_dir", lambda: folder)
    return [
        _product_file(sys.modules[stages.__name__].__file__ or ""),
        _product_file(sys.modules[registry.__name__].__file__ or ""),
        _product_file(product),
    ]
