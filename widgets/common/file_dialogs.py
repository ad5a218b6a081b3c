"""Every file dialog of the workstation, opened in the folder last used for its purpose.

A purpose (imports, exports, review packages, reports, models, rubrics, workspaces) keeps
its own last folder: exporting a chart does not move where the next corpus is chosen from.
The folders live in one :class:`LastFolders`; the main window installs the one that reads
and writes the saved settings (:func:`remember_folders_in`), so they survive a restart, and
a panel opened alone remembers them for its session. The dialogs themselves are Qt's static
ones, called through ``QFileDialog`` so that tests can answer them.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from pathlib import Path

from PySide6.QtCore import QStandardPaths
from PySide6.QtWidgets import QFileDialog, QWidget

IMPORTS = "imports"
EXPORTS = "exports"
PACKAGES = "packages"
REPORTS = "reports"
MODELS = "models"
RUBRICS = "rubrics"
WORKSPACES = "workspaces"
BATCHES = "batches"  # OpenAI Batch files of a step, and their results
PURPOSES = (IMPORTS, EXPORTS, PACKAGES, REPORTS, MODELS, RUBRICS, WORKSPACES, BATCHES)


class LastFolders:
    """The last folder per purpose in ``folders`` (the settings' own dict), ``save`` called
    after each change."""

    def __init__(
        self,
        folders: MutableMapping[str, str] | None = None,
        save: Callable[[], object] | None = None,
    ):
        self.folders = folders if folders is not None else {}
        self.save = save

    def folder(self, purpose: str, fallback: str | Path | None = None) -> Path:
        """The purpose's last folder while it exists, else ``fallback`` where a person can see
        it, else the purpose's own standard folder (Pictures for reports, Documents for
        exports), else the home folder."""
        last = self.folders.get(purpose)
        if last and Path(last).is_dir():
            return Path(last)
        if fallback and not hidden(Path(fallback)):
            return Path(fallback)
        return standard_folder(purpose)

    def remember(self, purpose: str, chosen: str | Path) -> None:
        """The folder of a chosen file (or the chosen folder) becomes the purpose's."""
        path = Path(chosen)
        folder = str(path if path.is_dir() else path.parent)
        if self.folders.get(purpose) == folder:
            return
        self.folders[purpose] = folder
        if self.save is not None:
            self.save()


def hidden(folder: Path) -> bool:
    """A folder a file manager does not show: a dot folder on the way from the home folder
    (the sample workspace lives in the application's data folder, ``~/.local/share/…``)."""
    try:
        parts = folder.resolve().relative_to(Path.home().resolve()).parts
    except ValueError:
        parts = folder.resolve().parts
    return any(part.startswith(".") for part in parts)


# the standard folder each purpose opens in before the user has chosen one
_STANDARD = {
    REPORTS: QStandardPaths.StandardLocation.PicturesLocation,
    EXPORTS: QStandardPaths.StandardLocation.DocumentsLocation,
    PACKAGES: QStandardPaths.StandardLocation.DocumentsLocation,
    BATCHES: QStandardPaths.StandardLocation.DocumentsLocation,
}


def standard_folder(purpose: str) -> Path:
    """The purpose's standard folder where it exists, else the home folder."""
    location = _STANDARD.get(purpose)
    if location is not None:
        path = QStandardPaths.writableLocation(location)
        if path and Path(path).is_dir():
            return Path(path)
    return Path.home()


_last = LastFolders()


def remember_folders_in(folders: MutableMapping[str, str], save: Callable[[], object]) -> None:
    """Use the settings' folders from now on (the main window, once)."""
    global _last
    _last = LastFolders(folders, save)


def last_folders() -> LastFolders:
    return _last


def start_path(purpose: str, name: str = "", fallback: str | Path | None = None) -> str:
    """Where a dialog for ``purpose`` opens: its folder, with ``name`` proposed in it."""
    folder = _last.folder(purpose, fallback)
    return str(folder / name) if name else str(folder)


def open_file(
    parent: QWidget | None,
    purpose: str,
    title: str,
    filters: str,
    *,
    fallback: str | Path | None = None,
) -> str:
    """One existing file, or "" when cancelled."""
    path, _filter = QFileDialog.getOpenFileName(
        parent, title, start_path(purpose, fallback=fallback), filters
    )
    if path:
        _last.remember(purpose, path)
    return path


def open_files(parent: QWidget | None, purpose: str, title: str, filters: str) -> list[str]:
    """Several existing files, or none when cancelled."""
    paths, _filter = QFileDialog.getOpenFileNames(parent, title, start_path(purpose), filters)
    if paths:
        _last.remember(purpose, paths[0])
    return list(paths)


def save_file(
    parent: QWidget | None,
    purpose: str,
    title: str,
    name: str,
    filters: str,
    *,
    fallback: str | Path | None = None,
) -> str:
    """A file name to write (``name`` proposed), or "" when cancelled."""
    path, _filter = QFileDialog.getSaveFileName(
        parent, title, start_path(purpose, name, fallback), filters
    )
    if path:
        _last.remember(purpose, path)
    return path


def choose_folder(parent: QWidget | None, purpose: str, title: str) -> str:
    """An existing folder, or "" when cancelled."""
    folder = QFileDialog.getExistingDirectory(parent, title, start_path(purpose))
    if folder:
        _last.remember(purpose, folder)
    return folder


__all__ = [
    "BATCHES",
    "EXPORTS",
    "IMPORTS",
    "MODELS",
    "PACKAGES",
    "PURPOSES",
    "REPORTS",
    "RUBRICS",
    "WORKSPACES",
    "LastFolders",
    "choose_folder",
    "hidden",
    "last_folders",
    "open_file",
    "open_files",
    "remember_folders_in",
    "save_file",
    "standard_folder",
    "start_path",
]
