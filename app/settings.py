"""Typed, versioned user settings saved as JSON under the platformdirs config folder.

``UPABHASHA_CONFIG_DIR`` overrides the folder (tests set it). A file that cannot be read
falls back to defaults with a warning; it is never a reason not to start.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

log = logging.getLogger(__name__)

APP_NAME = "upabhasha"
SETTINGS_VERSION = 2
# Version 1 wrote "en" for a language nobody chose (its default): read as not chosen, so
# such a file follows the system's locale like a first start
UNCHOSEN_IN_VERSION_1 = "en"
MAX_RECENT = 10


def config_dir() -> Path:
    override = os.environ.get("UPABHASHA_CONFIG_DIR")
    return (
        Path(override)
        if override
        else Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))
    )


def settings_path() -> Path:
    return config_dir() / "settings.json"


@dataclass
class Settings:
    version: int = SETTINGS_VERSION
    recent_workspaces: list[str] = field(default_factory=list)
    reviewer_name: str = ""
    default_dialects: list[str] = field(default_factory=list)
    window_geometry: str = ""  # QWidget.saveGeometry(), base64 (before geometry per screen)
    # QWidget.saveGeometry() per screen size ("1366x768"), base64: a laptop's and a
    # monitor's window each come back as they were left
    window_geometries: dict[str, str] = field(default_factory=dict)
    window_state: str = ""  # QMainWindow.saveState(), base64
    avro_mode: bool = False
    # interface language chosen in the menu: "en" or "bn" (engine.i18n.LANGUAGES); "" until
    # one is chosen, which follows the system's locale at each start
    language: str = ""
    model_folders: list[str] = field(
        default_factory=list
    )  # added to "Find models on this computer"
    # the folder each kind of file dialog last used (widgets.common.file_dialogs purposes)
    last_folders: dict[str, str] = field(default_factory=dict)

    def add_recent(self, path: str | Path) -> None:
        """Most recent first, no duplicates, at most MAX_RECENT entries."""
        entry = str(Path(path).resolve())
        self.recent_workspaces = [entry] + [p for p in self.recent_workspaces if p != entry]
        del self.recent_workspaces[MAX_RECENT:]

    def forget_recent(self, path: str | Path) -> None:
        entry = str(Path(path).resolve())
        self.recent_workspaces = [p for p in self.recent_workspaces if p != entry]


def _from_dict(data: dict) -> Settings:
    defaults = Settings()
    values = {}
    for f in dataclasses.fields(Settings):
        if f.name not in data:
            continue
        value, default = data[f.name], getattr(defaults, f.name)
        if isinstance(default, list):
            ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
        elif isinstance(default, dict):
            ok = isinstance(value, dict) and all(
                isinstance(k, str) and isinstance(v, str) for k, v in value.items()
            )
        else:
            ok = type(value) is type(default)
        if ok:
            values[f.name] = value
        else:
            log.warning(
                "settings: ignoring %s=%r (expected %s)", f.name, value, type(default).__name__
            )
    if data.get("version") == 1 and values.get("language") == UNCHOSEN_IN_VERSION_1:
        values["language"] = ""
    values["version"] = SETTINGS_VERSION
    return Settings(**values)


def load_settings(path: Path | None = None) -> Settings:
    path = path or settings_path()
    if not path.exists():
        return Settings()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ValueError("top level is not an object")
    except (OSError, ValueError) as exc:
        log.warning("settings file %s is unreadable (%s); using defaults", path, exc)
        return Settings()
    version = data.get("version")
    if not isinstance(version, int) or version > SETTINGS_VERSION:
        log.warning(
            "settings file %s has version %r (this program writes %d); using what it can",
            path,
            version,
            SETTINGS_VERSION,
        )
    return _from_dict(data)


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Atomic write: a crash mid-save leaves the previous file intact."""
    path = path or settings_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(
            json.dumps(dataclasses.asdict(settings), ensure_ascii=False, indent=2), encoding="utf-8"
        )
        os.replace(tmp, path)
    except OSError as exc:
        log.warning("could not save settings to %s: %s", path, exc)
