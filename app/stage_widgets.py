"""The window's side of the stage list (app/cli/registry.py): each stage's widgets package,
imported when first needed (a workspace opens, the import dialog is shown), never by the
command line."""

from __future__ import annotations

import importlib
from types import ModuleType

from app.cli import registry
from widgets.common.stage_parts import ImportPage


def widget_packages() -> list[ModuleType]:
    """The stages' widgets packages, in stage order."""
    return [importlib.import_module(s.widgets) for s in registry.STAGES if s.widgets]


def import_pages() -> list[ImportPage]:
    """Every stage's kinds of import for the dialog and the File menu, in their places."""
    pages = [page for package in widget_packages() for page in package.IMPORT_PAGES]
    return sorted(pages, key=lambda page: page.place)
