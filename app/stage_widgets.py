"""The window's side of the stage list (app/cli/registry.py): each stage's widgets package,
imported when first needed (a workspace opens, the import dialog is shown), never by the
command line."""

from __future__ import annotations

import importlib
from types import ModuleType

from app.cli import registry
from widgets.common.stage_parts import ImportPage, Panels, StudyEntry


def widget_packages() -> list[ModuleType]:
    """The stages' widgets packages, in stage order."""
    return [importlib.import_module(s.widgets) for s in registry.STAGES if s.widgets]


def _declared(attribute: str) -> list:
    """Every stage's ``attribute`` entries (each optional), in their places."""
    entries = [e for package in widget_packages() for e in getattr(package, attribute, [])]
    return sorted(entries, key=lambda entry: entry.place)


def panels() -> list[Panels]:
    """Every stage's tabs, in their places."""
    return _declared("PANELS")


def import_pages() -> list[ImportPage]:
    """Every stage's kinds of import for the dialog and the File menu, in their places."""
    return _declared("IMPORT_PAGES")


def study_entries() -> list[StudyEntry]:
    """Every stage's entries of the Study menu, in their places."""
    return _declared("STUDY_ENTRIES")
